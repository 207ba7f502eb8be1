# A split-stack object (.note.GNU-split-stack) whose function `bad` calls nosplit_fn (not
# split-stack) without a prologue lld knows how to adjust: lld's error.
	.text
	.globl	bad
	.type	bad, @function
bad:
	subq	$8, %rsp
	call	nosplit_fn
	addq	$8, %rsp
	ret
	.size	bad, .-bad
	.globl	main
	.type	main, @function
main:
	cmp	%fs:0x70,%rsp
	jae	1f
	call	__morestack
	ret
1:	call	bad
	xorl	%eax, %eax
	ret
	.size	main, .-main
	.section	.note.GNU-stack,"",@progbits
	.section	.note.GNU-split-stack,"",@progbits
