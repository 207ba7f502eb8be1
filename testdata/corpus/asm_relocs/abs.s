# Absolute 32-, 32S-, 16- and 8-bit relocations: only valid in position-dependent executables, so
# this file is linked in non-PIE modes only (case.conf: nopie_only).

	.text
# R_X86_64_32
	.globl asm_abs32
	.type asm_abs32, @function
asm_abs32:
	movl $target_var, %eax
	ret
	.size asm_abs32, .-asm_abs32

# R_X86_64_32S
	.globl asm_abs32s
	.type asm_abs32s, @function
asm_abs32s:
	movq $target_var, %rax
	ret
	.size asm_abs32s, .-asm_abs32s

# R_X86_64_32S with a negative addend, used as a displacement
	.globl asm_abs32s_disp
	.type asm_abs32s_disp, @function
asm_abs32s_disp:
	movl $4, %eax
	movl sized_array-16(,%rax,4), %eax
	ret
	.size asm_abs32s_disp, .-asm_abs32s_disp

# R_X86_64_32 in data
	.globl asm_abs32_data
	.type asm_abs32_data, @function
asm_abs32_data:
	movl abs32_slot(%rip), %eax
	ret
	.size asm_abs32_data, .-asm_abs32_data

# R_X86_64_16 and R_X86_64_8 against absolute symbols (defined in relocs.s)
	.globl asm_abs16
	.type asm_abs16, @function
asm_abs16:
	movzwl abs16_slot(%rip), %eax
	ret
	.size asm_abs16, .-asm_abs16

	.globl asm_abs8
	.type asm_abs8, @function
asm_abs8:
	movzbl abs8_slot(%rip), %eax
	ret
	.size asm_abs8, .-asm_abs8

	.data
abs32_slot:
	.long target_var
abs16_slot:
	.word abs_value16 + 3
abs8_slot:
	.byte abs_value8 + 1

	.section .note.GNU-stack,"",@progbits
