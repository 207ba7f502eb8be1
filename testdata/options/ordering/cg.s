# A call graph profile (.llvm.call-graph-profile, R_X86_64_NONE relocations naming the
# functions), as clang writes it from profile data: what lld orders sections by by default.
	.cg_profile main, f05, 500
	.cg_profile f05, f12, 400
	.cg_profile main, f01, 300
	.cg_profile f01, f17, 300
	.cg_profile f12, f03, 200
	.cg_profile f17, f03, 50
	.cg_profile f09, f09, 1000
	.cg_profile f08, f14, 120
	.cg_profile f14, f08, 80
	.cg_profile f02, f19, 10
	.cg_profile main, f19, 60
	.section .note.GNU-stack,"",@progbits
