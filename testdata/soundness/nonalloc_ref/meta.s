	.section .bc_meta,"",@progbits
	.quad bc_meta_target
	.section .note.GNU-stack,"",@progbits
