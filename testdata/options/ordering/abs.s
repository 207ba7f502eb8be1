# An absolute symbol for the symbol ordering file to name.
	.globl abs_sym
	abs_sym = 0x1234
	.section .note.GNU-stack,"",@progbits
