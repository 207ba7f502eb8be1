# A relative table of branch targets (as relative vtables hold them: f@PLT - table), a jump
# chain, a jump to itself, branches to local labels (section symbol plus offset) and a jump
# into a non-executable section, which lld leaves alone.
	.section .rodata.reltable,"a"
	.globl	reltable
	.hidden	reltable
	.p2align 2
reltable:
	.long	w1@PLT - reltable
	.long	w2@PLT - reltable
	.long	impl@PLT - reltable

	.section .text.call_rel,"ax",@progbits
	.globl	call_rel
	.type	call_rel, @function
# int call_rel(int i, int x): calls the i-th entry of reltable with x.
call_rel:
	leaq	reltable(%rip), %rax
	movslq	%edi, %rdi
	movslq	(%rax,%rdi,4), %rcx
	addq	%rcx, %rax
	movl	%esi, %edi
	jmp	*%rax
	.size	call_rel, .-call_rel

	.section .text.chain,"ax",@progbits
	.globl	hop1
	.type	hop1, @function
hop1:
	jmp	hop2
	.size	hop1, .-hop1
	.globl	hop2
	.type	hop2, @function
hop2:
	jmp	hop3
	.size	hop2, .-hop2
	.globl	hop3
	.type	hop3, @function
hop3:
	jmp	impl
	.size	hop3, .-hop3

	.section .text.local,"ax",@progbits
# Branches to local labels of another section: the assembler writes them as the section symbol
# plus the label's offset minus 4. via_local lands on a jump (followed); via_local_ret lands
# on `ret`, not on the jump that starts that section (left alone).
	.globl	via_local
	.type	via_local, @function
via_local:
	jmp	local_target
	.size	via_local, .-via_local
	.globl	via_local_ret
	.type	via_local_ret, @function
via_local_ret:
	jmp	local_ret
	.size	via_local_ret, .-via_local_ret

	.section .text.local_targets,"ax",@progbits
	jmp	impl
local_ret:
	leal	7(%rdi), %eax
	ret
local_target:
	jmp	impl

	.section .text.self,"ax",@progbits
	.globl	spin
	.type	spin, @function
spin:
	jmp	spin
	.size	spin, .-spin

# Code in a non-executable section is not followed (never run: only its address is taken).
	.section .rodata.notcode,"a",@progbits
	.globl	notcode
notcode:
	jmp	impl

	.section .text.to_notcode,"ax",@progbits
	.globl	to_notcode
	.type	to_notcode, @function
to_notcode:
	jmp	notcode
	.size	to_notcode, .-to_notcode
	.section	.note.GNU-stack,"",@progbits
