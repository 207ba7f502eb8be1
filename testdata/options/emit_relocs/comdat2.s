# The second copy of foo's COMDAT group (discarded), with its own reference from .meta.
	.section .text.foo,"axG",@progbits,foo,comdat
	.globl foo
foo:
	ret
	.section .meta,"",@progbits
	.quad .text.foo
