# A call graph profile section whose records are not 8 bytes: lld refuses the object.
	.section .llvm.call-graph-profile,"e",@llvm_call_graph_profile
	.quad 100
	.section .note.GNU-stack,"",@progbits
