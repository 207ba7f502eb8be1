	.text
	.globl asm_fn
	.type asm_fn,@function
	.section .text.asm_fn,"ax",@progbits
asm_fn:
	.cfi_startproc
	.cfi_personality 0x3, my_personality
	leal 1(%rdi), %eax
	ret
	.cfi_endproc
	.size asm_fn, .-asm_fn
	.section .note.GNU-stack,"",@progbits
