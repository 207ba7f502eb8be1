use super::*;
use object::{Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A scratch directory removed when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("weld-arch-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }

    /// Assembles `src` into `<name>.o` and returns the object's path.
    fn assemble(&self, name: &str, src: &str) -> String {
        let s = self.path(&format!("{name}.s"));
        let o = self.path(&format!("{name}.o"));
        std::fs::write(&s, src).unwrap();
        run("clang-22", &["-c", "-o", &o, &s]);
        o
    }

    /// Runs ld.lld-22 with `args` plus `-o <out>` and returns the output file.
    fn link(&self, out: &str, args: &[&str]) -> Vec<u8> {
        let out = self.path(out);
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["-o", &out]);
        run("ld.lld-22", &all);
        std::fs::read(&out).unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(tool: &str, args: &[&str]) -> String {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool} is required by this test and could not run: {e}"));
    assert!(
        out.status.success(),
        "{tool} {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// One relocation of the input `.text`.
#[derive(Debug)]
struct InRel {
    off: usize,
    r_type: u32,
    sym: String,
    addend: i64,
}

/// The input object's `.text` bytes and relocations, sorted by offset.
fn input_text(obj_path: &str) -> (Vec<u8>, Vec<InRel>) {
    let data = std::fs::read(obj_path).unwrap();
    let file = object::File::parse(&*data).unwrap();
    let text = file.section_by_name(".text").unwrap();
    let mut rels = Vec::new();
    for (off, rel) in text.relocations() {
        let RelocationFlags::Elf { r_type } = rel.flags() else {
            panic!("not ELF")
        };
        let RelocationTarget::Symbol(idx) = rel.target() else {
            panic!("relocation without a symbol")
        };
        let sym = file
            .symbol_by_index(idx)
            .unwrap()
            .name()
            .unwrap()
            .to_string();
        rels.push(InRel {
            off: off as usize,
            r_type,
            sym,
            addend: rel.addend(),
        });
    }
    rels.sort_by_key(|r| r.off);
    (text.data().unwrap().to_vec(), rels)
}

fn le64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// What the test needs from lld's output.
struct Output {
    /// Defined symbols (TLS symbols: offset within the TLS segment).
    syms: HashMap<String, u64>,
    /// Section name -> (address, contents).
    sections: HashMap<String, (u64, Vec<u8>)>,
    /// The thread pointer's offset from the TLS segment start (variant 2).
    tp: u64,
    /// Dynamic relocations: (offset, type, symbol name, addend), in file order.
    dynrels: Vec<(u64, u32, String, i64)>,
}

impl Output {
    fn parse(bytes: &[u8]) -> Output {
        let file = object::File::parse(bytes).unwrap();
        let syms = file
            .symbols()
            .filter(|s| !s.is_undefined())
            .map(|s| (s.name().unwrap().to_string(), s.address()))
            .collect();
        let sections: HashMap<_, _> = file
            .sections()
            .map(|s| {
                let data = s.data().unwrap_or(&[]).to_vec();
                (s.name().unwrap().to_string(), (s.address(), data))
            })
            .collect();
        // Program headers: PT_TLS gives TP = memsz rounded so TP - memsz ≡ vaddr.
        let (phoff, phentsize, phnum) = (
            le64(bytes, 0x20) as usize,
            u16::from_le_bytes([bytes[0x36], bytes[0x37]]) as usize,
            u16::from_le_bytes([bytes[0x38], bytes[0x39]]) as usize,
        );
        let mut tp = 0;
        for i in 0..phnum {
            let ph = phoff + i * phentsize;
            if le32(bytes, ph) == object::elf::PT_TLS {
                let (vaddr, memsz, align) = (
                    le64(bytes, ph + 16),
                    le64(bytes, ph + 40),
                    le64(bytes, ph + 48),
                );
                let align = align.max(1);
                tp = memsz + (vaddr.wrapping_neg().wrapping_sub(memsz) & (align - 1));
            }
        }
        let mut dynrels = Vec::new();
        let dynsym = sections
            .get(".dynsym")
            .map(|s| s.1.clone())
            .unwrap_or_default();
        let dynstr = sections
            .get(".dynstr")
            .map(|s| s.1.clone())
            .unwrap_or_default();
        for name in [".rela.dyn", ".rela.plt"] {
            let Some((_, data)) = sections.get(name) else {
                continue;
            };
            for e in data.chunks_exact(24) {
                let info = le64(e, 8);
                let sym_idx = (info >> 32) as usize;
                let sym = if sym_idx == 0 {
                    String::new()
                } else {
                    let name_off = le32(&dynsym, sym_idx * 24) as usize;
                    let end = dynstr[name_off..].iter().position(|&c| c == 0).unwrap();
                    String::from_utf8(dynstr[name_off..name_off + end].to_vec()).unwrap()
                };
                dynrels.push((le64(e, 0), info as u32, sym, le64(e, 16) as i64));
            }
        }
        Output {
            syms,
            sections,
            tp,
            dynrels,
        }
    }

    fn sym(&self, name: &str) -> u64 {
        *self
            .syms
            .get(name)
            .unwrap_or_else(|| panic!("no symbol {name}"))
    }

    /// The GOT slot holding `addr`: a slot with an `R_X86_64_RELATIVE` for it (PIC), or a
    /// `.got` word equal to it (static).
    fn got_slot_for_address(&self, addr: u64) -> u64 {
        if let Some(r) = self
            .dynrels
            .iter()
            .find(|r| r.1 == object::elf::R_X86_64_RELATIVE && r.3 as u64 == addr)
        {
            return r.0;
        }
        let (got, data) = &self.sections[".got"];
        let i = data
            .chunks_exact(8)
            .position(|w| le64(w, 0) == addr)
            .expect("no GOT slot for the symbol");
        got + 8 * i as u64
    }

    /// The IE GOT slot of a TLS symbol: dynamic `R_X86_64_TPOFF64` if preemptible, else
    /// the `.got` word holding its TP offset.
    fn ie_slot(&self, name: &str) -> u64 {
        if let Some(r) = self
            .dynrels
            .iter()
            .find(|r| r.1 == object::elf::R_X86_64_TPOFF64 && r.2 == name)
        {
            return r.0;
        }
        self.got_slot_for_address(self.tpoff(name))
    }

    fn tpoff(&self, name: &str) -> u64 {
        self.sym(name).wrapping_sub(self.tp)
    }

    /// The output bytes of `len` bytes starting at `addr`.
    fn bytes_at(&self, addr: u64, len: usize) -> Vec<u8> {
        for (sec_addr, data) in self.sections.values() {
            if addr >= *sec_addr && addr + len as u64 <= sec_addr + data.len() as u64 {
                let start = (addr - sec_addr) as usize;
                return data[start..start + len].to_vec();
            }
        }
        panic!("no section holds {addr:#x}")
    }
}

const GOTPCRELX_FAMILY: [u32; 4] = [
    R_X86_64_GOTPCREL,
    R_X86_64_GOTPCRELX,
    R_X86_64_REX_GOTPCRELX,
    R_X86_64_CODE_4_GOTPCRELX,
];

/// Applies every relocation of `rels` to `text` the way the pipeline will, using this
/// module and the addresses lld chose. `text_addr` is where the input `.text` landed.
fn relocate_like_lld(text: &mut [u8], text_addr: u64, rels: &[InRel], out: &Output, pic: bool) {
    let mut skip = 0;
    for r in rels {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let p = text_addr + r.off as u64;
        let a = r.addend as u64;
        let what = format!("{} at {:#x} against {}", rel_name(r.r_type), r.off, r.sym);
        let preemptible = !out.syms.contains_key(&r.sym);
        if GOTPCRELX_FAMILY.contains(&r.r_type) {
            let s = out.sym(&r.sym);
            let relax = can_relax_gotpcrelx(text, r.off, r.r_type, r.addend, pic);
            let value = |kind: GotRelax| {
                if kind.is_absolute() {
                    s.wrapping_add(a)
                } else {
                    s.wrapping_add(a).wrapping_sub(p)
                }
            };
            match relax {
                Some(kind) if kind.fits(value(kind)) => {
                    apply_gotpcrelx_relax(text, r.off, r.r_type, kind, value(kind)).unwrap();
                }
                // Not relaxable, or the result would overflow: lld goes through the GOT.
                _ => {
                    let g = out.got_slot_for_address(s);
                    let value = g.wrapping_add(a).wrapping_sub(p);
                    write_value(text, r.off, r.r_type, value).unwrap();
                }
            }
            continue;
        }
        match rel_info(r.r_type).unwrap().expr {
            RelExpr::Plt | RelExpr::PcRel => {
                let v = out.sym(&r.sym).wrapping_add(a).wrapping_sub(p);
                write_value(text, r.off, r.r_type, v).unwrap();
            }
            // In an executable DTPOFF is TP-relative, like TPOFF.
            RelExpr::TpOff | RelExpr::DtpOff => {
                let v = out.tpoff(&r.sym).wrapping_add(a);
                write_value(text, r.off, r.r_type, v).unwrap();
            }
            RelExpr::GotTpOff
            | RelExpr::TlsGd
            | RelExpr::TlsLd
            | RelExpr::TlsDesc
            | RelExpr::TlsDescCall => match tls_relax_kind(r.r_type, false, preemptible) {
                Some(to) => {
                    let value = match tls_relax_expr(r.r_type, to) {
                        RelExpr::TpOff => out.tpoff(&r.sym).wrapping_add(a),
                        RelExpr::GotTpOff => out.ie_slot(&r.sym).wrapping_add(a).wrapping_sub(p),
                        _ => 0,
                    };
                    skip = apply_tls_relax(text, r.off, r.r_type, to, value)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                }
                None => {
                    let v = out.ie_slot(&r.sym).wrapping_add(a).wrapping_sub(p);
                    write_value(text, r.off, r.r_type, v).unwrap();
                }
            },
            other => panic!("the test relocator does not handle {other:?} ({what})"),
        }
    }
}

/// Links `objs` with `args`, redoes the input `.text` (whose first byte is `_start`) and
/// compares it with lld's bytes.
fn check_text(dir: &Scratch, obj: &str, extra_objs: &[&str], args: &[&str], pic: bool) {
    let (mut text, rels) = input_text(obj);
    let mut all = args.to_vec();
    all.push(obj);
    all.extend(extra_objs);
    let out = Output::parse(&dir.link("out", &all));
    let start = out.sym("_start");
    let lld = out.bytes_at(start, text.len());
    relocate_like_lld(&mut text, start, &rels, &out, pic);
    if text != lld {
        let at = text.iter().zip(&lld).position(|(a, b)| a != b).unwrap();
        let near: Vec<_> = rels.iter().filter(|r| r.off.abs_diff(at) < 16).collect();
        panic!(
            "{args:?}: first difference at .text+{at:#x}\n weld: {:02x?}\n  lld: {:02x?}\n \
                 relocations nearby: {near:?}",
            &text[at.saturating_sub(8)..(at + 8).min(text.len())],
            &lld[at.saturating_sub(8)..(at + 8).min(lld.len())],
        );
    }
}

const GOT_SRC: &str = r#"
        .globl _start, foo, func
        .text
        _start:
          movq foo@GOTPCREL(%rip), %rax
          movq foo@GOTPCREL(%rip), %r9
          movl foo@GOTPCREL(%rip), %eax
          call *func@GOTPCREL(%rip)
          jmp *func@GOTPCREL(%rip)
          testq %rax, foo@GOTPCREL(%rip)
          testq %r9, foo@GOTPCREL(%rip)
          addq foo@GOTPCREL(%rip), %rax
          addq foo@GOTPCREL(%rip), %r10
          adcq foo@GOTPCREL(%rip), %rax
          andq foo@GOTPCREL(%rip), %r15
          cmpq foo@GOTPCREL(%rip), %rax
          orq foo@GOTPCREL(%rip), %rax
          sbbq foo@GOTPCREL(%rip), %rax
          subq foo@GOTPCREL(%rip), %rax
          xorq foo@GOTPCREL(%rip), %rax
          addl foo@GOTPCREL(%rip), %r8d
          addl foo@GOTPCREL(%rip), %eax
          testl %eax, foo@GOTPCREL(%rip)
          movq foo@GOTPCREL+4(%rip), %rax
          movq $foo@GOTPCREL, %rax
          movq foo@GOTPCREL(%rip), %r16
          addq foo@GOTPCREL(%rip), %r17
          testq %r18, foo@GOTPCREL(%rip)
          call func
        func:
          ret
        .data
        foo: .quad 0
    "#;

#[test]
fn gotpcrelx_matches_lld() {
    let dir = Scratch::new("got");
    let obj = dir.assemble("got", GOT_SRC);
    check_text(&dir, &obj, &[], &["-static"], false);
    check_text(&dir, &obj, &[], &["-static", "-pie"], true);
    check_text(&dir, &obj, &[], &["-pie"], true);
    check_text(&dir, &obj, &[], &[], false);
}

/// Data beyond 4 GiB: the PC-relative forms cannot reach it and its address is no
/// sign-extended imm32, so lld falls back to GOT loads for every reference to `foo`.
#[test]
fn gotpcrelx_overflow_falls_back_like_lld() {
    let dir = Scratch::new("got-far");
    let obj = dir.assemble("got", GOT_SRC);
    let script = dir.path("far.lds");
    std::fs::write(
        &script,
        "SECTIONS { .text 0x201000 : { *(.text) } .got : { *(.got) } \
             .data 0x180000000 : { *(.data) } }",
    )
    .unwrap();
    check_text(&dir, &obj, &[], &["-static", "-T", &script], false);
    check_text(&dir, &obj, &[], &["-pie", "-T", &script], true);
    // `foo` just below 2 GiB: PC-relative forms reach it, the immediate still fits.
    std::fs::write(
        &script,
        "SECTIONS { .text 0x201000 : { *(.text) } .got : { *(.got) } \
             .data 0x7ffffff0 : { *(.data) } }",
    )
    .unwrap();
    check_text(&dir, &obj, &[], &["-static", "-T", &script], false);
}

const TLS_SRC: &str = r#"
        .globl _start, tv, tv2
        .text
        _start:
          .byte 0x66
          leaq tv@tlsgd(%rip), %rdi
          .word 0x6666
          rex64
          call __tls_get_addr@PLT
          .byte 0x66
          leaq tv2@tlsgd(%rip), %rdi
          .byte 0x66
          rex64
          call *__tls_get_addr@GOTPCREL(%rip)
          leaq tv2@tlsld(%rip), %rdi
          call __tls_get_addr@PLT
          movl tv2@dtpoff(%rax), %ecx
          leaq tv2@tlsld(%rip), %rdi
          call *__tls_get_addr@GOTPCREL(%rip)
          movq %rcx, tv@dtpoff(%rax)
          movq tv@gottpoff(%rip), %rax
          movq tv@gottpoff(%rip), %r9
          movq tv@gottpoff(%rip), %rsp
          movq tv@gottpoff(%rip), %r12
          addq tv@gottpoff(%rip), %rax
          addq tv@gottpoff(%rip), %rsp
          addq tv@gottpoff(%rip), %r12
          addq tv@gottpoff(%rip), %r9
          addq tv@gottpoff(%rip), %rbp
          addq tv@gottpoff(%rip), %r13
          leaq tv@tlsdesc(%rip), %rax
          call *tv@tlscall(%rax)
          leaq tv2@tlsdesc(%rip), %r9
          call *tv2@tlscall(%r9)
          movq %fs:tv@tpoff, %rax
          movl $tv2@tpoff, %eax
          movq tv@gottpoff(%rip), %r16
          addq tv@gottpoff(%rip), %r17
          addq %r18, tv@gottpoff(%rip), %r19
          addq tv@gottpoff(%rip), %rax, %r19
          {nf} addq tv@gottpoff(%rip), %r19
          {nf} addq tv@gottpoff(%rip), %rax, %rcx
          {nf} addq tv@gottpoff(%rip), %r11
          leaq tv@tlsdesc(%rip), %r16
          call *tv@tlscall(%rax)
        .section .tbss,"awT",@nobits
        .p2align 4
          .zero 20
        tv: .zero 8
        tv2: .zero 4
    "#;

#[test]
fn tls_to_le_matches_lld() {
    let dir = Scratch::new("tls-le");
    let obj = dir.assemble("tls", TLS_SRC);
    check_text(&dir, &obj, &[], &["-static"], false);
    check_text(&dir, &obj, &[], &["-static", "-pie"], true);
    check_text(&dir, &obj, &[], &["-pie"], true);
}

#[test]
fn tls_to_ie_matches_lld() {
    let dir = Scratch::new("tls-ie");
    let lib = dir.assemble(
        "lib",
        ".section .tbss,\"awT\",@nobits\n.globl ext\n.type ext,@object\next: .zero 8\n",
    );
    let so = dir.path("lib.so");
    run(
        "ld.lld-22",
        &["-shared", "-soname", "lib.so", &lib, "-o", &so],
    );
    // `ext` lives in the DSO (preemptible): GD and TLSDESC go to IE, IE stays IE.
    // `loc` is the executable's own: everything goes to LE.
    let obj = dir.assemble(
        "exe",
        r#"
            .globl _start, loc
            .text
            _start:
              .byte 0x66
              leaq ext@tlsgd(%rip), %rdi
              .word 0x6666
              rex64
              call __tls_get_addr@PLT
              .byte 0x66
              leaq ext@tlsgd(%rip), %rdi
              .byte 0x66
              rex64
              call *__tls_get_addr@GOTPCREL(%rip)
              leaq ext@tlsdesc(%rip), %rax
              call *ext@tlscall(%rax)
              leaq ext@tlsdesc(%rip), %r9
              call *ext@tlscall(%r9)
              movq ext@gottpoff(%rip), %rax
              addq ext@gottpoff(%rip), %rsp
              movq ext@gottpoff(%rip), %r16
              .byte 0x66
              leaq loc@tlsgd(%rip), %rdi
              .word 0x6666
              rex64
              call __tls_get_addr@PLT
              movq loc@gottpoff(%rip), %r10
              leaq loc@tlsdesc(%rip), %rax
              call *loc@tlscall(%rax)
            .section .tbss,"awT",@nobits
            loc: .zero 4
            "#,
    );
    check_text(&dir, &obj, &[&so], &[], false);
    check_text(&dir, &obj, &[&so], &["-pie"], true);
}

/// `{nf} addq x@gottpoff(%rip), %r27`: the one place weld deliberately differs from lld 22
/// (which encodes %r19). Both encodings are checked with llvm-mc-22's disassembler.
#[test]
fn apx_r27_deviation_is_the_correct_encoding() {
    let dir = Scratch::new("r27");
    let obj = dir.assemble(
        "r27",
        ".globl _start\n_start:\n{nf} addq tv@gottpoff(%rip), %r27\n\
             .section .tbss,\"awT\",@nobits\ntv: .zero 8\n",
    );
    let (mut text, rels) = input_text(&obj);
    let out = Output::parse(&dir.link("out", &["-static", &obj]));
    let lld = out.bytes_at(out.sym("_start"), text.len());
    relocate_like_lld(&mut text, out.sym("_start"), &rels, &out, false);
    let disasm = |bytes: &[u8]| {
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
        let input = dir.path("bytes.txt");
        std::fs::write(&input, hex.join(" ")).unwrap();
        run("llvm-mc-22", &["--disassemble", "-triple=x86_64", &input])
    };
    assert!(
        disasm(&text).contains("addq\t$-8, %r27"),
        "{}",
        disasm(&text)
    );
    assert!(disasm(&lld).contains("addq\t$-8, %r19"), "{}", disasm(&lld));
}

const PLT_SRC: &str = r#"
        .globl _start
        .text
        _start:
          call fn@PLT
          call fn2@PLT
          call ifn@PLT
          call ifn2@PLT
          call ifn3@PLT
        .type ifn, @gnu_indirect_function
        ifn: ret
        .type ifn2, @gnu_indirect_function
        ifn2: ret
        .type ifn3, @gnu_indirect_function
        ifn3: ret
    "#;

/// Regenerates `.plt`, `.iplt` and the lazy `.got.plt` slots from the relocations lld
/// emitted and compares them with lld's bytes.
fn check_plt(out: &Output) {
    let gotplt = out.sections[".got.plt"].0;
    let plt_addr = out.sections.get(".plt").map_or(0, |s| s.0);
    if let Some((plt, lld_plt)) = out.sections.get(".plt") {
        let mut ours = vec![0u8; lld_plt.len()];
        write_plt_header(&mut ours, *plt, gotplt).unwrap();
        let slots: Vec<u64> = out
            .dynrels
            .iter()
            .filter(|r| r.1 == object::elf::R_X86_64_JUMP_SLOT)
            .map(|r| r.0)
            .collect();
        assert_eq!(
            lld_plt.len(),
            PLT_HEADER_SIZE + slots.len() * PLT_ENTRY_SIZE
        );
        for (i, slot) in slots.iter().enumerate() {
            let at = PLT_HEADER_SIZE + i * PLT_ENTRY_SIZE;
            let entry = plt + at as u64;
            write_plt_entry(&mut ours[at..], entry, *slot, *plt, i as u32).unwrap();
            // The slot starts out pointing at the entry's pushq.
            let lazy = le64(&out.sections[".got.plt"].1, (slot - gotplt) as usize);
            assert_eq!(lazy, gotplt_lazy_value(entry));
        }
        assert_eq!(&ours, lld_plt, ".plt");
        let dynamic = out.sections[".dynamic"].0;
        let mut hdr = [0u8; GOTPLT_HEADER_SIZE];
        write_gotplt_header(&mut hdr, dynamic).unwrap();
        assert_eq!(hdr, out.sections[".got.plt"].1[..GOTPLT_HEADER_SIZE]);
    }
    let (iplt, lld_iplt) = &out.sections[".iplt"];
    let slots: Vec<u64> = out
        .dynrels
        .iter()
        .filter(|r| r.1 == object::elf::R_X86_64_IRELATIVE)
        .map(|r| r.0)
        .collect();
    assert_eq!(lld_iplt.len(), slots.len() * IPLT_ENTRY_SIZE);
    let mut ours = vec![0u8; lld_iplt.len()];
    for (i, slot) in slots.iter().enumerate() {
        let at = i * IPLT_ENTRY_SIZE;
        let entry = iplt + at as u64;
        write_iplt_entry(&mut ours[at..], entry, *slot, plt_addr, i as u32).unwrap();
    }
    assert_eq!(&ours, lld_iplt, ".iplt");
}

#[test]
fn plt_and_iplt_match_lld() {
    let dir = Scratch::new("plt");
    let lib = dir.assemble(
        "lib",
        ".globl fn, fn2\n.type fn,@function\nfn: ret\n.type fn2,@function\nfn2: ret\n",
    );
    let so = dir.path("lib.so");
    run(
        "ld.lld-22",
        &["-shared", "-soname", "lib.so", &lib, "-o", &so],
    );
    let obj = dir.assemble("plt", PLT_SRC);
    check_plt(&Output::parse(&dir.link("dyn", &[&obj, &so])));
    check_plt(&Output::parse(&dir.link("pie", &["-pie", &obj, &so])));
    // Static: only IFUNCs, no .plt, so the iplt entries' tail jumps to 0.
    let stat = dir.assemble(
        "stat",
        &PLT_SRC
            .replace("call fn@PLT", "nop")
            .replace("call fn2@PLT", "nop"),
    );
    let out = Output::parse(&dir.link("static", &["-static", &stat]));
    assert!(!out.sections.contains_key(".plt"));
    check_plt(&out);
}
