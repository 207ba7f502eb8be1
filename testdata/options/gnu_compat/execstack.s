# main returning 0, in an object whose .note.GNU-stack asks for an executable stack.
.globl main
main:
  xor %eax, %eax
  ret
.section .note.GNU-stack,"x",@progbits
