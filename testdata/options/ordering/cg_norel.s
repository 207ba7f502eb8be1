# A call graph profile section without relocations naming its functions (the form before
# LLVM 13 kept symbol indices in the section itself): lld warns and ignores it.
	.section .llvm.call-graph-profile,"eM",@llvm_call_graph_profile,8
	.quad 100
	.section .note.GNU-stack,"",@progbits
