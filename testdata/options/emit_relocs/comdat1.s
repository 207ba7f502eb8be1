# foo's COMDAT group, referenced from .meta (not allocated, not debug info) through the
# section symbol: the copy of comdat2.s is discarded, and --emit-relocs warns about its .meta.
	.section .text.foo,"axG",@progbits,foo,comdat
	.globl foo
foo:
	ret
	.text
	.globl _start
_start:
	call foo
	ret
	.section .meta,"",@progbits
	.quad .text.foo
