# Hand-written x86-64 assembly (AT&T syntax) using every relocation type a static or static-pie
# link sees. Each function computes an address or value through one relocation kind; main.c
# compares the results with what the C compiler computes, so a wrong relocation changes the
# output. Everything here is position-independent; the absolute 8/16/32-bit relocations, which a
# PIE cannot have, are in abs.s (non-PIE modes only).
#
# Symbols used from main.c: target_var (int 42), target_func (returns 7), sized_array (int[37]),
# tls_a, tls_b (__thread int).

	.text

# R_X86_64_PC32
	.globl asm_pc32
	.type asm_pc32, @function
asm_pc32:
	leaq target_var(%rip), %rax
	ret
	.size asm_pc32, .-asm_pc32

# R_X86_64_PLT32
	.globl asm_plt32
	.type asm_plt32, @function
asm_plt32:
	subq $8, %rsp
	call target_func
	addq $8, %rsp
	ret
	.size asm_plt32, .-asm_plt32

# R_X86_64_64 (in .data, below)
	.globl asm_abs64
	.type asm_abs64, @function
asm_abs64:
	movq abs64_slot(%rip), %rax
	ret
	.size asm_abs64, .-asm_abs64

	.globl asm_abs64_addend
	.type asm_abs64_addend, @function
asm_abs64_addend:
	movq abs64_addend_slot(%rip), %rax
	ret
	.size asm_abs64_addend, .-asm_abs64_addend

# R_X86_64_PC64 (in .data): slot + *slot == &target_var
	.globl asm_pc64
	.type asm_pc64, @function
asm_pc64:
	leaq pc64_slot(%rip), %rax
	addq pc64_slot(%rip), %rax
	ret
	.size asm_pc64, .-asm_pc64

# R_X86_64_GOTPCREL as a data word: slot + *slot is the GOT entry of target_var
	.globl asm_gotpcrel_data
	.type asm_gotpcrel_data, @function
asm_gotpcrel_data:
	leaq gotpcrel_slot(%rip), %rax
	movslq gotpcrel_slot(%rip), %rcx
	addq %rcx, %rax
	movq (%rax), %rax
	ret
	.size asm_gotpcrel_data, .-asm_gotpcrel_data

# R_X86_64_GOTPCREL on an instruction that cannot be relaxed (push)
	.globl asm_gotpcrel_push
	.type asm_gotpcrel_push, @function
asm_gotpcrel_push:
	pushq target_var@GOTPCREL(%rip)
	popq %rax
	ret
	.size asm_gotpcrel_push, .-asm_gotpcrel_push

# R_X86_64_GOTPCRELX: call and jmp through the GOT, and a 32-bit load of the GOT entry
	.globl asm_gotpcrelx_call
	.type asm_gotpcrelx_call, @function
asm_gotpcrelx_call:
	subq $8, %rsp
	call *target_func@GOTPCREL(%rip)
	addq $8, %rsp
	ret
	.size asm_gotpcrelx_call, .-asm_gotpcrelx_call

	.globl asm_gotpcrelx_jmp
	.type asm_gotpcrelx_jmp, @function
asm_gotpcrelx_jmp:
	jmp *target_func@GOTPCREL(%rip)
	.size asm_gotpcrelx_jmp, .-asm_gotpcrelx_jmp

	.globl asm_gotpcrelx_mov32
	.type asm_gotpcrelx_mov32, @function
asm_gotpcrelx_mov32:
	movl target_var@GOTPCREL(%rip), %eax
	ret
	.size asm_gotpcrelx_mov32, .-asm_gotpcrelx_mov32

# R_X86_64_REX_GOTPCRELX
	.globl asm_rex_gotpcrelx
	.type asm_rex_gotpcrelx, @function
asm_rex_gotpcrelx:
	movq target_var@GOTPCREL(%rip), %rax
	ret
	.size asm_rex_gotpcrelx, .-asm_rex_gotpcrelx

# R_X86_64_GOTPC32: the address of _GLOBAL_OFFSET_TABLE_
	.globl asm_gotpc32
	.type asm_gotpc32, @function
asm_gotpc32:
	leaq _GLOBAL_OFFSET_TABLE_(%rip), %rax
	ret
	.size asm_gotpc32, .-asm_gotpc32

# R_X86_64_GOTPC64: the same address, large-model style
	.globl asm_gotpc64
	.type asm_gotpc64, @function
asm_gotpc64:
1:	leaq 1b(%rip), %rax
	movabsq $_GLOBAL_OFFSET_TABLE_-1b, %rcx
	addq %rcx, %rax
	ret
	.size asm_gotpc64, .-asm_gotpc64

# R_X86_64_GOTOFF64: GOT base + GOTOFF == &target_var
	.globl asm_gotoff64
	.type asm_gotoff64, @function
asm_gotoff64:
1:	leaq 1b(%rip), %rax
	movabsq $_GLOBAL_OFFSET_TABLE_-1b, %rcx
	addq %rcx, %rax
	movabsq $target_var@GOTOFF, %rcx
	addq %rcx, %rax
	ret
	.size asm_gotoff64, .-asm_gotoff64

# R_X86_64_GOT64: *(GOT base + GOT offset of target_var) == &target_var
	.globl asm_got64
	.type asm_got64, @function
asm_got64:
1:	leaq 1b(%rip), %rax
	movabsq $_GLOBAL_OFFSET_TABLE_-1b, %rcx
	addq %rcx, %rax
	movabsq $target_var@GOT, %rcx
	movq (%rax,%rcx), %rax
	ret
	.size asm_got64, .-asm_got64

# R_X86_64_SIZE32 and R_X86_64_SIZE64 (with and without addend)
	.globl asm_size32
	.type asm_size32, @function
asm_size32:
	movl $sized_array@SIZE, %eax
	ret
	.size asm_size32, .-asm_size32

	.globl asm_size64
	.type asm_size64, @function
asm_size64:
	movabsq $sized_array@SIZE, %rax
	ret
	.size asm_size64, .-asm_size64

	.globl asm_size32_addend
	.type asm_size32_addend, @function
asm_size32_addend:
	movl $sized_array@SIZE+100, %eax
	ret
	.size asm_size32_addend, .-asm_size32_addend

# R_X86_64_TPOFF32 (local exec)
	.globl asm_tpoff32
	.type asm_tpoff32, @function
asm_tpoff32:
	movq %fs:0, %rax
	leaq tls_a@TPOFF(%rax), %rax
	ret
	.size asm_tpoff32, .-asm_tpoff32

# R_X86_64_TPOFF64 (in .data)
	.globl asm_tpoff64
	.type asm_tpoff64, @function
asm_tpoff64:
	movq %fs:0, %rax
	addq tpoff64_slot(%rip), %rax
	ret
	.size asm_tpoff64, .-asm_tpoff64

# R_X86_64_GOTTPOFF (initial exec)
	.globl asm_gottpoff
	.type asm_gottpoff, @function
asm_gottpoff:
	movq tls_a@GOTTPOFF(%rip), %rax
	addq %fs:0, %rax
	ret
	.size asm_gottpoff, .-asm_gottpoff

# R_X86_64_TLSGD (general dynamic; the call is R_X86_64_PLT32)
	.globl asm_tlsgd
	.type asm_tlsgd, @function
asm_tlsgd:
	subq $8, %rsp
	.byte 0x66
	leaq tls_b@tlsgd(%rip), %rdi
	.value 0x6666
	rex64
	call __tls_get_addr@PLT
	addq $8, %rsp
	ret
	.size asm_tlsgd, .-asm_tlsgd

# R_X86_64_TLSLD + R_X86_64_DTPOFF32 (local dynamic, on a TLS variable local to this file)
	.globl asm_tlsld
	.type asm_tlsld, @function
asm_tlsld:
	subq $8, %rsp
	leaq tls_local@tlsld(%rip), %rdi
	call __tls_get_addr@PLT
	leaq tls_local@dtpoff(%rax), %rax
	addq $8, %rsp
	ret
	.size asm_tlsld, .-asm_tlsld

# R_X86_64_TLSLD + R_X86_64_DTPOFF64 (in an instruction)
	.globl asm_tlsld_dtpoff64
	.type asm_tlsld_dtpoff64, @function
asm_tlsld_dtpoff64:
	subq $8, %rsp
	leaq tls_local@tlsld(%rip), %rdi
	call __tls_get_addr@PLT
	movabsq $tls_local@dtpoff, %rcx
	addq %rcx, %rax
	addq $8, %rsp
	ret
	.size asm_tlsld_dtpoff64, .-asm_tlsld_dtpoff64

# R_X86_64_TLSLD + R_X86_64_DTPOFF64 (in .data)
	.globl asm_tlsld_dtpoff64_data
	.type asm_tlsld_dtpoff64_data, @function
asm_tlsld_dtpoff64_data:
	subq $8, %rsp
	leaq tls_local@tlsld(%rip), %rdi
	call __tls_get_addr@PLT
	addq dtpoff64_slot(%rip), %rax
	addq $8, %rsp
	ret
	.size asm_tlsld_dtpoff64_data, .-asm_tlsld_dtpoff64_data

# The same local TLS variable through local exec, for comparison
	.globl asm_tls_local_le
	.type asm_tls_local_le, @function
asm_tls_local_le:
	movq %fs:0, %rax
	leaq tls_local@tpoff(%rax), %rax
	ret
	.size asm_tls_local_le, .-asm_tls_local_le

# R_X86_64_GOTPC32_TLSDESC + R_X86_64_TLSDESC_CALL (TLS descriptors)
	.globl asm_tlsdesc
	.type asm_tlsdesc, @function
asm_tlsdesc:
	subq $8, %rsp
	leaq tls_b@tlsdesc(%rip), %rax
	call *tls_b@tlscall(%rax)
	addq %fs:0, %rax
	addq $8, %rsp
	ret
	.size asm_tlsdesc, .-asm_tlsdesc

# R_X86_64_PC16 and R_X86_64_PC8 (data in neighbouring .rodata sections): slot + *slot
	.globl asm_pc16
	.type asm_pc16, @function
asm_pc16:
	leaq pc16_slot(%rip), %rax
	movswq pc16_slot(%rip), %rcx
	addq %rcx, %rax
	ret
	.size asm_pc16, .-asm_pc16

	.globl asm_pc8
	.type asm_pc8, @function
asm_pc8:
	leaq pc8_slot(%rip), %rax
	movsbq pc8_slot(%rip), %rcx
	addq %rcx, %rax
	ret
	.size asm_pc8, .-asm_pc8

	.globl asm_near_target
	.type asm_near_target, @function
asm_near_target:
	leaq near_target(%rip), %rax
# R_X86_64_NONE: a no-op relocation the linker must accept and ignore
	.reloc ., R_X86_64_NONE, target_var
	ret
	.size asm_near_target, .-asm_near_target

# Absolute symbols for the 8- and 16-bit relocations in abs.s
	.globl abs_value16
	.set abs_value16, 0x1230
	.globl abs_value8
	.set abs_value8, 0x40

	.data
	.p2align 3
abs64_slot:
	.quad target_var
abs64_addend_slot:
	.quad sized_array + 8
pc64_slot:
	.quad target_var - .
tpoff64_slot:
	.quad tls_a@TPOFF
dtpoff64_slot:
	.quad tls_local@DTPOFF
gotpcrel_slot:
	.long target_var@GOTPCREL

	.section .rodata.asm_near,"a",@progbits
	.p2align 3
near_target:
	.quad 0x0123456789abcdef
	.section .rodata.asm_pcrel,"a",@progbits
pc16_slot:
	.word near_target - .
pc8_slot:
	.byte near_target - .

	.section .tdata,"awT",@progbits
	.p2align 3
	.type tls_local, @object
	.size tls_local, 8
tls_local:
	.quad 0x4444

	.section .note.GNU-stack,"",@progbits
