use super::*;

/// Every static type lld accepts, with its expected meaning.
const KNOWN: &[(u32, RelExpr, u8, Overflow)] = &[
    (R_X86_64_NONE, RelExpr::None, 0, Overflow::None),
    (R_X86_64_64, RelExpr::Abs, 8, Overflow::None),
    (R_X86_64_PC32, RelExpr::PcRel, 4, Overflow::Signed),
    (R_X86_64_GOT32, RelExpr::GotRel, 4, Overflow::Signed),
    (R_X86_64_PLT32, RelExpr::Plt, 4, Overflow::Signed),
    (R_X86_64_GOTPCREL, RelExpr::GotPcRel, 4, Overflow::Signed),
    (R_X86_64_32, RelExpr::Abs, 4, Overflow::Unsigned),
    (R_X86_64_32S, RelExpr::Abs, 4, Overflow::Signed),
    (R_X86_64_16, RelExpr::Abs, 2, Overflow::SignedOrUnsigned),
    (R_X86_64_PC16, RelExpr::PcRel, 2, Overflow::Signed),
    (R_X86_64_8, RelExpr::Abs, 1, Overflow::SignedOrUnsigned),
    (R_X86_64_PC8, RelExpr::PcRel, 1, Overflow::Signed),
    (R_X86_64_DTPOFF64, RelExpr::DtpOff, 8, Overflow::None),
    (R_X86_64_TPOFF64, RelExpr::TpOff, 8, Overflow::None),
    (R_X86_64_TLSGD, RelExpr::TlsGd, 4, Overflow::Signed),
    (R_X86_64_TLSLD, RelExpr::TlsLd, 4, Overflow::Signed),
    (R_X86_64_DTPOFF32, RelExpr::DtpOff, 4, Overflow::Signed),
    (R_X86_64_GOTTPOFF, RelExpr::GotTpOff, 4, Overflow::Signed),
    (R_X86_64_TPOFF32, RelExpr::TpOff, 4, Overflow::Signed),
    (R_X86_64_PC64, RelExpr::PcRel, 8, Overflow::None),
    (R_X86_64_GOTOFF64, RelExpr::GotOff, 8, Overflow::None),
    (R_X86_64_GOTPC32, RelExpr::GotPc, 4, Overflow::Signed),
    (R_X86_64_GOT64, RelExpr::GotRel, 8, Overflow::None),
    (R_X86_64_GOTPC64, RelExpr::GotPc, 8, Overflow::None),
    (R_X86_64_PLTOFF64, RelExpr::PltGotOff, 8, Overflow::None),
    (R_X86_64_SIZE32, RelExpr::Size, 4, Overflow::Signed),
    (R_X86_64_SIZE64, RelExpr::Size, 8, Overflow::None),
    (
        R_X86_64_GOTPC32_TLSDESC,
        RelExpr::TlsDesc,
        4,
        Overflow::Signed,
    ),
    (
        R_X86_64_TLSDESC_CALL,
        RelExpr::TlsDescCall,
        0,
        Overflow::None,
    ),
    (R_X86_64_GOTPCRELX, RelExpr::GotPcRel, 4, Overflow::Signed),
    (
        R_X86_64_REX_GOTPCRELX,
        RelExpr::GotPcRel,
        4,
        Overflow::Signed,
    ),
    (
        R_X86_64_CODE_4_GOTPCRELX,
        RelExpr::GotPcRel,
        4,
        Overflow::Signed,
    ),
    (
        R_X86_64_CODE_4_GOTTPOFF,
        RelExpr::GotTpOff,
        4,
        Overflow::Signed,
    ),
    (
        R_X86_64_CODE_4_GOTPC32_TLSDESC,
        RelExpr::TlsDesc,
        4,
        Overflow::Signed,
    ),
    (
        R_X86_64_CODE_6_GOTTPOFF,
        RelExpr::GotTpOff,
        4,
        Overflow::Signed,
    ),
];

#[test]
fn rel_info_covers_exactly_what_lld_accepts() {
    for r_type in 0..=300u32 {
        let expected = KNOWN.iter().find(|k| k.0 == r_type);
        match (rel_info(r_type), expected) {
            (Some(info), Some(&(_, expr, size, overflow))) => {
                assert_eq!(
                    (info.expr, info.size, info.overflow),
                    (expr, size, overflow)
                );
                assert_eq!(info.name(), rel_name(r_type));
                assert!(info.name().starts_with("R_X86_64_"), "{}", info.name());
            }
            (None, None) => {}
            (got, want) => panic!("type {r_type}: got {got:?}, want {want:?}"),
        }
    }
    // Types lld rejects in input files (seen with ld.lld-22: "unknown relocation (N)").
    for r_type in [
        R_X86_64_COPY,
        R_X86_64_GLOB_DAT,
        R_X86_64_JUMP_SLOT,
        R_X86_64_RELATIVE,
        R_X86_64_DTPMOD64,
        R_X86_64_GOTPCREL64,
        R_X86_64_GOTPLT64,
        R_X86_64_TLSDESC,
        R_X86_64_IRELATIVE,
    ] {
        assert!(rel_info(r_type).is_none(), "{r_type}");
    }
}

#[test]
fn names_match_llvm() {
    assert_eq!(rel_name(R_X86_64_PC32), "R_X86_64_PC32");
    assert_eq!(rel_name(R_X86_64_GOTPCREL64), "R_X86_64_GOTPCREL64");
    assert_eq!(rel_name(R_X86_64_TLSDESC), "R_X86_64_TLSDESC");
    assert_eq!(
        rel_name(R_X86_64_CODE_6_GOTTPOFF),
        "R_X86_64_CODE_6_GOTTPOFF"
    );
    // R_X86_64_RELATIVE64 is not in LLVM's table, so lld prints it as unknown.
    assert_eq!(rel_name(38), "Unknown (38)");
    assert_eq!(rel_name(46), "Unknown (46)");
    assert_eq!(rel_name(u32::MAX), format!("Unknown ({})", u32::MAX));
}

#[test]
fn unknown_relocation_text() {
    assert_eq!(
        unknown_relocation_error(28, "foo").0,
        "unknown relocation (28) against symbol foo"
    );
}

/// The range a field accepts under lld's rule, as (min, max) in i128.
fn accepted(size: u8, overflow: Overflow) -> Option<(i128, i128)> {
    let bits = u32::from(size) * 8;
    let smin = -(1i128 << (bits - 1));
    let smax = (1i128 << (bits - 1)) - 1;
    let umax = (1i128 << bits) - 1;
    match overflow {
        Overflow::None => None,
        Overflow::Signed => Some((smin, smax)),
        Overflow::Unsigned => Some((0, umax)),
        Overflow::SignedOrUnsigned => Some((smin, umax)),
    }
}

#[test]
fn write_value_boundaries_for_every_type() {
    for &(r_type, _, size, overflow) in KNOWN {
        let size_us = usize::from(size);
        if size == 0 {
            let mut buf = [0xaa; 4];
            write_value(&mut buf, 0, r_type, 0x1234).unwrap();
            assert_eq!(buf, [0xaa; 4], "{r_type} must not write");
            continue;
        }
        let Some((min, max)) = accepted(size, overflow) else {
            // Unchecked 64-bit fields: every value is stored verbatim.
            for v in [0u64, 1, u64::MAX, 1 << 63, 0x0123_4567_89ab_cdef] {
                let mut buf = [0xaa; 10];
                write_value(&mut buf, 1, r_type, v).unwrap();
                assert_eq!(&buf[1..9], &v.to_le_bytes());
                assert_eq!((buf[0], buf[9]), (0xaa, 0xaa));
            }
            continue;
        };
        for (v, ok) in [(min, true), (max, true), (min - 1, false), (max + 1, false)] {
            let raw = v as i64 as u64;
            let mut buf = vec![0xaa; size_us + 2];
            let got = write_value(&mut buf, 1, r_type, raw);
            if ok {
                got.unwrap_or_else(|e| panic!("{r_type} {v}: {e}"));
                assert_eq!(&buf[1..1 + size_us], &raw.to_le_bytes()[..size_us]);
                assert_eq!((buf[0], buf[size_us + 1]), (0xaa, 0xaa));
            } else {
                let err = got.expect_err(&format!("{r_type} {v} must overflow"));
                assert_eq!(buf, vec![0xaa; size_us + 2], "no partial write");
                let RelocError::OutOfRange(e) = err else {
                    panic!("{err:?}")
                };
                assert_eq!((i128::from(e.min), i128::from(e.max)), (min, max));
                assert_eq!(e.offset, 1);
            }
        }
    }
}

#[test]
fn range_error_text_matches_lld() {
    // Texts as ld.lld-22 printed them for the same values.
    let cases: &[(u32, u64, &str)] = &[
        (
            R_X86_64_PC32,
            1 << 31,
            "relocation R_X86_64_PC32 out of range: 2147483648 is not in [-2147483648, \
                 2147483647]",
        ),
        (
            R_X86_64_PC32,
            2415914999,
            "relocation R_X86_64_PC32 out of range: 2415914999 is not in [-2147483648, \
                 2147483647]",
        ),
        (
            R_X86_64_PC32,
            (-(1i64 << 31) - 1) as u64,
            "relocation R_X86_64_PC32 out of range: -2147483649 is not in [-2147483648, \
                 2147483647]",
        ),
        (
            R_X86_64_32,
            u64::MAX,
            "relocation R_X86_64_32 out of range: 18446744073709551615 is not in [0, \
                 4294967295]",
        ),
        (
            R_X86_64_32,
            1 << 32,
            "relocation R_X86_64_32 out of range: 4294967296 is not in [0, 4294967295]",
        ),
        (
            R_X86_64_8,
            256,
            "relocation R_X86_64_8 out of range: 256 is not in [-128, 255]",
        ),
        (
            R_X86_64_8,
            -129i64 as u64,
            "relocation R_X86_64_8 out of range: -129 is not in [-128, 255]",
        ),
        (
            R_X86_64_16,
            65536,
            "relocation R_X86_64_16 out of range: 65536 is not in [-32768, 65535]",
        ),
        (
            R_X86_64_PC8,
            2415914992,
            "relocation R_X86_64_PC8 out of range: 2415914992 is not in [-128, 127]",
        ),
        (
            R_X86_64_32S,
            1 << 31,
            "relocation R_X86_64_32S out of range: 2147483648 is not in [-2147483648, \
                 2147483647]",
        ),
    ];
    for &(r_type, v, text) in cases {
        let mut buf = [0u8; 8];
        let err = write_value(&mut buf, 0, r_type, v).unwrap_err();
        assert_eq!(err.to_string(), text);
        assert_eq!(Error::from(err).0, text);
    }
}

#[test]
fn write_value_never_panics_out_of_bounds() {
    for &(r_type, _, size, _) in KNOWN {
        for len in 0..10usize {
            for off in (0..len + 3).chain([usize::MAX - 2, usize::MAX]) {
                let mut buf = vec![0u8; len];
                let got = write_value(&mut buf, off, r_type, 0);
                let fits = off.checked_add(usize::from(size)).is_some_and(|e| e <= len);
                if size == 0 || fits {
                    assert!(got.is_ok(), "{r_type} len {len} off {off}: {got:?}");
                } else {
                    let err = got.unwrap_err();
                    assert!(matches!(err, RelocError::OutOfBounds { .. }), "{err:?}");
                    assert_eq!(err.offset(), off);
                }
            }
        }
    }
    let err = write_value(&mut [0u8; 2], 0, R_X86_64_PC32, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "relocation R_X86_64_PC32 at offset 0x0 needs bytes [0x0, 0x4) but the section is \
             only 0x2 bytes long"
    );
}

#[test]
fn write_value_rejects_dynamic_types() {
    let err = write_value(&mut [0u8; 8], 0, R_X86_64_GLOB_DAT, 0).unwrap_err();
    assert!(matches!(err, RelocError::Unsupported { .. }));
    assert_eq!(
        err.to_string(),
        "cannot write a value for relocation R_X86_64_GLOB_DAT"
    );
}

#[test]
fn implicit_addends() {
    let buf = [
        0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 0, 0, 0, 0, 0, 0, 0,
    ];
    assert_eq!(implicit_addend(&buf, 0, R_X86_64_PC32), Ok(-4));
    assert_eq!(implicit_addend(&buf, 0, R_X86_64_8), Ok(-4));
    assert_eq!(implicit_addend(&buf, 0, R_X86_64_PC16), Ok(-4));
    assert_eq!(
        implicit_addend(&buf, 0, R_X86_64_64),
        Ok(0x7fff_ffff_ffff_fffc)
    );
    assert_eq!(implicit_addend(&buf, 0, R_X86_64_TLSDESC), Ok(1));
    assert_eq!(implicit_addend(&buf, 3, R_X86_64_32), Ok(-1));
    assert_eq!(implicit_addend(&buf, 4, R_X86_64_32), Ok(0x7fff_ffff));
    assert_eq!(implicit_addend(&buf, 0, R_X86_64_JUMP_SLOT), Ok(0));
    assert!(implicit_addend(&buf, 9, R_X86_64_64).is_err());
    assert!(implicit_addend(&buf, usize::MAX, R_X86_64_TLSDESC).is_err());
    assert!(implicit_addend(&buf, 0, R_X86_64_COPY).is_err());
}

// ---- GOTPCRELX --------------------------------------------------------------------------

/// Relaxes `insn` (whose 4-byte field is at its end) as lld would for symbol `s` and field
/// address `p`, returning the new bytes.
fn gotpcrelx(insn: &[u8], r_type: u32, is_pic: bool, s: u64, p: u64) -> Option<Vec<u8>> {
    let mut buf = insn.to_vec();
    let off = buf.len() - 4;
    let kind = can_relax_gotpcrelx(&buf, off, r_type, -4, is_pic)?;
    let value = if kind.is_absolute() {
        s.wrapping_sub(4)
    } else {
        s.wrapping_sub(4).wrapping_sub(p)
    };
    assert!(kind.fits(value));
    apply_gotpcrelx_relax(&mut buf, off, r_type, kind, value).unwrap();
    Some(buf)
}

const Z4: [u8; 4] = [0; 4];

fn cat(a: &[u8], b: &[u8]) -> Vec<u8> {
    [a, b].concat()
}

#[test]
fn gotpcrelx_bytes_match_lld() {
    // Inputs from clang-22 and outputs from `ld.lld-22 -static` (foo at 0x2032a0).
    let foo = 0x2032a0;
    let rex = R_X86_64_REX_GOTPCRELX;
    let x = R_X86_64_GOTPCRELX;
    let pcrel: &[(&[u8], u32, u64, &[u8])] = &[
        (
            &[0x48, 0x8b, 0x05],
            rex,
            0x2011e3,
            &[0x48, 0x8d, 0x05, 0xb9, 0x20, 0, 0],
        ),
        (
            &[0x4c, 0x8b, 0x0d],
            rex,
            0x2011ea,
            &[0x4c, 0x8d, 0x0d, 0xb2, 0x20, 0, 0],
        ),
        (&[0x8b, 0x05], x, 0x2011f0, &[0x8d, 0x05, 0xac, 0x20, 0, 0]),
        (&[0xff, 0x15], x, 0x2011f6, &[0x67, 0xe8, 0xa6, 0x20, 0, 0]),
        (&[0xff, 0x25], x, 0x2011fc, &[0xe9, 0xa1, 0x20, 0, 0, 0x90]),
    ];
    for &(insn, r_type, p, want) in pcrel {
        for is_pic in [false, true] {
            let got = gotpcrelx(&cat(insn, &Z4), r_type, is_pic, foo, p);
            assert_eq!(got.as_deref(), Some(want), "{insn:02x?}");
        }
    }
    let imm = [0xa0, 0x32, 0x20, 0x00];
    let absolute: &[([u8; 3], [u8; 3])] = &[
        ([0x48, 0x85, 0x05], [0x48, 0xf7, 0xc0]), // testq %rax
        ([0x4c, 0x85, 0x0d], [0x49, 0xf7, 0xc1]), // testq %r9
        ([0x48, 0x03, 0x05], [0x48, 0x81, 0xc0]), // addq
        ([0x4c, 0x03, 0x15], [0x49, 0x81, 0xc2]), // addq %r10
        ([0x48, 0x13, 0x05], [0x48, 0x81, 0xd0]), // adcq
        ([0x48, 0x23, 0x05], [0x48, 0x81, 0xe0]), // andq
        ([0x48, 0x3b, 0x05], [0x48, 0x81, 0xf8]), // cmpq
        ([0x48, 0x0b, 0x05], [0x48, 0x81, 0xc8]), // orq
        ([0x48, 0x1b, 0x05], [0x48, 0x81, 0xd8]), // sbbq
        ([0x48, 0x2b, 0x05], [0x48, 0x81, 0xe8]), // subq
        ([0x48, 0x33, 0x05], [0x48, 0x81, 0xf0]), // xorq
    ];
    for (insn, want) in absolute {
        let got = gotpcrelx(&cat(insn, &Z4), rex, false, foo, 0x201203).unwrap();
        assert_eq!(got, cat(want, &imm), "{insn:02x?}");
        // PIC output cannot use an absolute immediate, and plain GOTPCRELX (no REX)
        // is never relaxed in these forms.
        assert_eq!(gotpcrelx(&cat(insn, &Z4), rex, true, foo, 0), None);
        assert_eq!(gotpcrelx(&cat(&insn[1..], &Z4), x, false, foo, 0), None);
    }
    // APX (REX2) forms, from ld.lld-22 -static.
    let c4 = R_X86_64_CODE_4_GOTPCRELX;
    let foo = 0x203268;
    let mov = gotpcrelx(
        &[0xd5, 0x48, 0x8b, 0x25, 0, 0, 0, 0],
        c4,
        false,
        foo,
        0x20120c,
    );
    assert_eq!(mov.unwrap(), [0xd5, 0x48, 0x8d, 0x25, 0x58, 0x20, 0, 0]);
    let add = gotpcrelx(&[0xd5, 0x48, 0x03, 0x05, 0, 0, 0, 0], c4, false, foo, 0);
    assert_eq!(add.unwrap(), [0xd5, 0x18, 0x81, 0xc0, 0x68, 0x32, 0x20, 0]);
    let test = gotpcrelx(&[0xd5, 0x48, 0x85, 0x05, 0, 0, 0, 0], c4, false, foo, 0);
    assert_eq!(test.unwrap(), [0xd5, 0x18, 0xf7, 0xc0, 0x68, 0x32, 0x20, 0]);
    // A 32-bit ALU op with only REX.R: `addl foo@GOTPCREL(%rip), %r8d`.
    let addl = gotpcrelx(&[0x44, 0x03, 0x05, 0, 0, 0, 0], rex, false, foo, 0);
    assert_eq!(addl.unwrap(), [0x41, 0x81, 0xc0, 0x68, 0x32, 0x20, 0]);
}

#[test]
fn gotpcrelx_refusals() {
    let mov = [0x48, 0x8b, 0x05, 0, 0, 0, 0];
    let rex = R_X86_64_REX_GOTPCRELX;
    assert!(can_relax_gotpcrelx(&mov, 3, rex, -4, false).is_some());
    // Addend other than -4 (GNU as emits e.g. `movl foo@GOTPCREL+4(%rip)`).
    assert_eq!(can_relax_gotpcrelx(&mov, 3, rex, 0, false), None);
    // Not a relaxable type.
    assert_eq!(
        can_relax_gotpcrelx(&mov, 3, R_X86_64_GOTPCREL, -4, false),
        None
    );
    assert_eq!(can_relax_gotpcrelx(&mov, 3, R_X86_64_PC32, -4, false), None);
    // Where weld is stricter than lld: `pushq` (ff /6), `imul` and a non-RIP operand.
    let push = [0x48, 0xff, 0x35, 0, 0, 0, 0];
    assert_eq!(can_relax_gotpcrelx(&push, 3, rex, -4, false), None);
    let imul = [0x48, 0x0f, 0xaf, 0x05, 0, 0, 0, 0];
    assert_eq!(can_relax_gotpcrelx(&imul, 4, rex, -4, false), None);
    let add_sib = [0x48, 0x03, 0x04, 0, 0, 0, 0];
    assert_eq!(can_relax_gotpcrelx(&add_sib, 3, rex, -4, false), None);
    // Truncated buffers and offsets near the ends never panic.
    for len in 0..mov.len() + 2 {
        let buf = &mov[..len.min(mov.len())];
        for off in (0..len + 6).chain([usize::MAX]) {
            let got = can_relax_gotpcrelx(buf, off, rex, -4, false);
            assert_eq!(
                got.is_some(),
                off == 3 && buf.len() == 7,
                "len {len} off {off}"
            );
        }
    }
}

#[test]
fn gotpcrelx_overflow_falls_back() {
    let kind = GotRelax::MovToLea;
    assert!(kind.fits(i32::MAX as u64));
    assert!(kind.fits(i32::MIN as i64 as u64));
    assert!(!kind.fits(1 << 31));
    assert!(!kind.fits((i32::MIN as i64 - 1) as u64));
    // Immediate forms: S + A with A = -4, S must be a signed 32-bit value.
    let imm = GotRelax::BinopToImm;
    assert!(imm.fits((i32::MAX as u64).wrapping_sub(4)));
    assert!(!imm.fits((i32::MAX as u64).wrapping_sub(3)));
    assert!(imm.fits((i32::MIN as i64 - 4) as u64));
    assert!(!imm.fits((i32::MIN as i64 - 5) as u64));
    let mut buf = [0x48, 0x8b, 0x05, 0, 0, 0, 0];
    let err = apply_gotpcrelx_relax(&mut buf, 3, R_X86_64_REX_GOTPCRELX, kind, 1 << 31);
    assert!(matches!(err, Err(RelocError::OutOfRange(_))));
    assert_eq!(buf, [0x48, 0x8b, 0x05, 0, 0, 0, 0], "unchanged on error");
}

#[test]
fn gotpcrelx_apply_never_panics() {
    let kinds = [
        GotRelax::MovToLea,
        GotRelax::CallToDirect,
        GotRelax::JmpToDirect,
        GotRelax::TestToImm,
        GotRelax::BinopToImm,
    ];
    for kind in kinds {
        for len in 0..9usize {
            for off in (0..len + 3).chain([usize::MAX - 1]) {
                let mut buf = vec![0x48; len];
                let got = apply_gotpcrelx_relax(&mut buf, off, R_X86_64_GOTPCRELX, kind, 0);
                let before = if kind.is_absolute() { 3 } else { 2 };
                let fits = off >= before && off.checked_add(4).is_some_and(|e| e <= len);
                assert_eq!(got.is_ok(), fits, "{kind:?} len {len} off {off}");
            }
        }
    }
}

// ---- TLS ----------------------------------------------------------------------------------

const GD_PLT: [u8; 16] = [
    0x66, 0x48, 0x8d, 0x3d, 0, 0, 0, 0, 0x66, 0x66, 0x48, 0xe8, 0, 0, 0, 0,
];
const GD_NOPLT: [u8; 16] = [
    0x66, 0x48, 0x8d, 0x3d, 0, 0, 0, 0, 0x66, 0x48, 0xff, 0x15, 0, 0, 0, 0,
];
const LD_PLT: [u8; 12] = [0x48, 0x8d, 0x3d, 0, 0, 0, 0, 0xe8, 0, 0, 0, 0];
const LD_NOPLT: [u8; 13] = [0x48, 0x8d, 0x3d, 0, 0, 0, 0, 0xff, 0x15, 0, 0, 0, 0];

/// tv's TP offset in the `ld.lld-22 -static` test output, and the LE value S + A - TP.
const TV_TPOFF: i64 = -0xc;
const LE_VALUE: u64 = (TV_TPOFF - 4) as u64;

#[test]
fn gd_to_le_matches_lld() {
    let want = [
        0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0, 0x48, 0x8d, 0x80, 0xf4, 0xff, 0xff, 0xff,
    ];
    for seq in [GD_PLT, GD_NOPLT] {
        let mut buf = seq;
        let skip = apply_tls_relax(&mut buf, 4, R_X86_64_TLSGD, TlsRelax::ToLe, LE_VALUE);
        assert_eq!(skip, Ok(1));
        assert_eq!(buf, want);
    }
}

#[test]
fn gd_to_ie_matches_lld() {
    // ld.lld-22 against a DSO's tv: IE slot at 0x202450, TLSGD field at 0x2012f4.
    let value = 0x202450u64 - 4 - 0x2012f4;
    let want = [
        0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0, 0x48, 0x03, 0x05, 0x50, 0x11, 0, 0,
    ];
    for seq in [GD_PLT, GD_NOPLT] {
        let mut buf = seq;
        let skip = apply_tls_relax(&mut buf, 4, R_X86_64_TLSGD, TlsRelax::ToIe, value);
        assert_eq!(skip, Ok(1));
        assert_eq!(buf, want);
    }
}

#[test]
fn gd_rejects_other_sequences() {
    // GCC -mcmodel=large: `leaq x@tlsgd(%rip), %rdi; movabsq $__tls_get_addr@PLTOFF, %rax`.
    let mut large = [
        0x4c, 0x01, 0xdb, 0x48, 0x8d, 0x3d, 0, 0, 0, 0, 0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    let before = large;
    let err = relax_tls_gd_to_le(&mut large, 6, 0).unwrap_err();
    assert!(matches!(
        err,
        RelocError::BadInstruction {
            offset: 2,
            r_type: R_X86_64_TLSGD,
            ..
        }
    ));
    assert_eq!(large, before);
    let mut bad_call = GD_PLT;
    bad_call[11] = 0x90;
    assert!(relax_tls_gd_to_ie(&mut bad_call, 4, 0).is_err());
}

#[test]
fn ld_to_le_matches_lld() {
    let mut buf = LD_PLT;
    assert_eq!(relax_tls_ld_to_le(&mut buf, 3), Ok(1));
    assert_eq!(
        buf,
        [0x66, 0x66, 0x66, 0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0]
    );
    let mut buf = LD_NOPLT;
    assert_eq!(
        apply_tls_relax(&mut buf, 3, R_X86_64_TLSLD, TlsRelax::ToLe, 12345),
        Ok(1)
    );
    assert_eq!(
        buf,
        [0x66, 0x66, 0x66, 0x66, 0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0]
    );
}

#[test]
fn ld_errors_match_lld() {
    let mut buf = [0x48, 0x8d, 0x3d, 0, 0, 0, 0, 0x90, 0x90, 0, 0, 0, 0];
    let err = relax_tls_ld_to_le(&mut buf, 3).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected R_X86_64_PLT32 or R_X86_64_GOTPCRELX after R_X86_64_TLSLD"
    );
    assert_eq!(err.offset(), 0);
    let mut buf = LD_PLT;
    buf[2] = 0x35; // leaq ..., %rsi
    let err = relax_tls_ld_to_le(&mut buf, 3).unwrap_err();
    assert!(matches!(err, RelocError::BadInstruction { offset: 0, .. }));
    // `ff 15` needs its sixth byte.
    let mut buf = [0x48, 0x8d, 0x3d, 0, 0, 0, 0, 0xff];
    assert!(matches!(
        relax_tls_ld_to_le(&mut buf, 3),
        Err(RelocError::OutOfBounds { .. })
    ));
}

#[test]
fn ie_to_le_matches_lld() {
    // From ld.lld-22 -static: every GOTTPOFF form clang emits for mov/add.
    let imm = [0xf4, 0xff, 0xff, 0xff];
    let cases: &[([u8; 3], [u8; 3])] = &[
        ([0x48, 0x8b, 0x05], [0x48, 0xc7, 0xc0]), // movq -> movq $, %rax
        ([0x4c, 0x8b, 0x0d], [0x49, 0xc7, 0xc1]), // %r9
        ([0x48, 0x8b, 0x25], [0x48, 0xc7, 0xc4]), // %rsp
        ([0x4c, 0x8b, 0x25], [0x49, 0xc7, 0xc4]), // %r12
        ([0x48, 0x03, 0x05], [0x48, 0x8d, 0x80]), // addq -> leaq (%rax)
        ([0x48, 0x03, 0x25], [0x48, 0x81, 0xc4]), // addq %rsp stays add
        ([0x4c, 0x03, 0x25], [0x49, 0x81, 0xc4]), // addq %r12 stays add
        ([0x4c, 0x03, 0x0d], [0x4d, 0x8d, 0x89]), // leaq (%r9), %r9
        ([0x48, 0x03, 0x2d], [0x48, 0x8d, 0xad]), // leaq (%rbp), %rbp
        ([0x4c, 0x03, 0x2d], [0x4d, 0x8d, 0xad]), // leaq (%r13), %r13
    ];
    for (insn, want) in cases {
        let mut buf = cat(insn, &Z4);
        let skip = apply_tls_relax(&mut buf, 3, R_X86_64_GOTTPOFF, TlsRelax::ToLe, LE_VALUE);
        assert_eq!(skip, Ok(0));
        assert_eq!(buf, cat(want, &imm), "{insn:02x?}");
    }
}

#[test]
fn ie_to_le_apx_matches_lld() {
    // From ld.lld-22 -static with tv at TP offset -8.
    let value = (-8i64 - 4) as u64;
    let imm = [0xf8, 0xff, 0xff, 0xff];
    let c4: &[([u8; 4], [u8; 4])] = &[
        ([0xd5, 0x48, 0x8b, 0x05], [0xd5, 0x18, 0xc7, 0xc0]), // movq -> movq $, %r16
        ([0xd5, 0x48, 0x03, 0x0d], [0xd5, 0x18, 0x81, 0xc1]), // addq -> addq $, %r17
    ];
    for (insn, want) in c4 {
        let mut buf = cat(insn, &Z4);
        relax_tls_ie_to_le(&mut buf, 4, R_X86_64_CODE_4_GOTTPOFF, value).unwrap();
        assert_eq!(buf, cat(want, &imm), "{insn:02x?}");
    }
    let c6: &[([u8; 6], [u8; 6])] = &[
        // addq %r18, x(%rip), %r19 -> addq $x, %r18, %r19
        (
            [0x62, 0xe4, 0xe4, 0x10, 0x01, 0x15],
            [0x62, 0xfc, 0xe4, 0x10, 0x81, 0xc2],
        ),
        // addq x(%rip), %rax, %r19
        (
            [0x62, 0xf4, 0xe4, 0x10, 0x03, 0x05],
            [0x62, 0xf4, 0xe4, 0x10, 0x81, 0xc0],
        ),
        // {nf} addq x(%rip), %r19
        (
            [0x62, 0xe4, 0xfc, 0x0c, 0x03, 0x1d],
            [0x62, 0xfc, 0xfc, 0x0c, 0x81, 0xc3],
        ),
        // {nf} addq x(%rip), %rax, %rcx
        (
            [0x62, 0xf4, 0xf4, 0x1c, 0x03, 0x05],
            [0x62, 0xf4, 0xf4, 0x1c, 0x81, 0xc0],
        ),
        // {nf} addq x(%rip), %r11
        (
            [0x62, 0x74, 0xfc, 0x0c, 0x03, 0x1d],
            [0x62, 0xd4, 0xfc, 0x0c, 0x81, 0xc3],
        ),
        // {nf} addq x(%rip), %r27: lld 22 emits 62 7c (%r19); the correct %r27 is 62 dc.
        (
            [0x62, 0x64, 0xfc, 0x0c, 0x03, 0x1d],
            [0x62, 0xdc, 0xfc, 0x0c, 0x81, 0xc3],
        ),
    ];
    for (insn, want) in c6 {
        let mut buf = cat(insn, &Z4);
        relax_tls_ie_to_le(&mut buf, 6, R_X86_64_CODE_6_GOTTPOFF, value).unwrap();
        assert_eq!(buf, cat(want, &imm), "{insn:02x?}");
    }
}

#[test]
fn ie_errors_match_lld() {
    // `movl x@gottpoff(%rip), %eax` after a nop: lld reports at field - 3.
    let mut buf = [0x90, 0x8b, 0x05, 0, 0, 0, 0];
    let err = relax_tls_ie_to_le(&mut buf, 3, R_X86_64_GOTTPOFF, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "R_X86_64_GOTTPOFF must be used in MOVQ or ADDQ instructions only"
    );
    assert_eq!(err.offset(), 0);
    let mut buf = [0x90, 0x48, 0xc7, 0xc0, 0, 0, 0, 0];
    let err = relax_tls_ie_to_le(&mut buf, 4, R_X86_64_CODE_4_GOTTPOFF, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid prefix with R_X86_64_CODE_4_GOTTPOFF!"
    );
    assert_eq!(err.offset(), 0);
    let mut buf = [0xd5, 0x48, 0x33, 0x05, 0, 0, 0, 0];
    let err = relax_tls_ie_to_le(&mut buf, 4, R_X86_64_CODE_4_GOTTPOFF, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "R_X86_64_CODE_4_GOTTPOFF must be used in MOVQ or ADDQ instructions only"
    );
    let mut buf = [0x90; 10];
    let err = relax_tls_ie_to_le(&mut buf, 6, R_X86_64_CODE_6_GOTTPOFF, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid prefix with R_X86_64_CODE_6_GOTTPOFF!"
    );
    // EVEX but a `sub` (opcode 0x2b) instead of an add.
    let mut buf = [0x62, 0xe4, 0xfc, 0x0c, 0x2b, 0x1d, 0, 0, 0, 0];
    let err = relax_tls_ie_to_le(&mut buf, 6, R_X86_64_CODE_6_GOTTPOFF, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "R_X86_64_CODE_6_GOTTPOFF must be used in ADDQ instructions with NDD/NF/NDD+NF only"
    );
    assert_eq!(err.offset(), 0);
    // Errors leave the bytes alone.
    assert_eq!(buf, [0x62, 0xe4, 0xfc, 0x0c, 0x2b, 0x1d, 0, 0, 0, 0]);
}

#[test]
fn tlsdesc_matches_lld() {
    // -> LE (ld.lld-22 -static), %rax and %r9.
    let mut buf = [0x48, 0x8d, 0x05, 0, 0, 0, 0, 0xff, 0x10];
    let r = R_X86_64_GOTPC32_TLSDESC;
    assert_eq!(
        apply_tls_relax(&mut buf, 3, r, TlsRelax::ToLe, LE_VALUE),
        Ok(0)
    );
    let call = R_X86_64_TLSDESC_CALL;
    assert_eq!(apply_tls_relax(&mut buf, 7, call, TlsRelax::ToLe, 0), Ok(0));
    assert_eq!(buf, [0x48, 0xc7, 0xc0, 0xf4, 0xff, 0xff, 0xff, 0x66, 0x90]);
    let mut buf = [0x4c, 0x8d, 0x0d, 0, 0, 0, 0, 0x41, 0xff, 0x11];
    relax_tlsdesc_to_le(&mut buf, 3, r, LE_VALUE).unwrap();
    relax_tlsdesc_call(&mut buf, 7).unwrap();
    // lld rewrites only two bytes of the 3-byte `call *(%r9)`, leaving the 0x11.
    assert_eq!(
        buf,
        [0x49, 0xc7, 0xc1, 0xf4, 0xff, 0xff, 0xff, 0x66, 0x90, 0x11]
    );
    // -> IE (ld.lld-22 against a DSO): IE slot 0x202450, field at 0x20137e.
    let value = 0x202450u64 - 4 - 0x20137e;
    let mut buf = [0x48, 0x8d, 0x05, 0, 0, 0, 0, 0xff, 0x10];
    assert_eq!(
        apply_tls_relax(&mut buf, 3, r, TlsRelax::ToIe, value),
        Ok(0)
    );
    assert_eq!(apply_tls_relax(&mut buf, 7, call, TlsRelax::ToIe, 0), Ok(0));
    assert_eq!(buf, [0x48, 0x8b, 0x05, 0xce, 0x10, 0, 0, 0x66, 0x90]);
    // REX2: `leaq x@tlsdesc(%rip), %r16` -> `movq $x, %r16` (tv at -8).
    let mut buf = [0xd5, 0x48, 0x8d, 0x05, 0, 0, 0, 0];
    let c4 = R_X86_64_CODE_4_GOTPC32_TLSDESC;
    relax_tlsdesc_to_le(&mut buf, 4, c4, (-12i64) as u64).unwrap();
    assert_eq!(buf, [0xd5, 0x18, 0xc7, 0xc0, 0xf8, 0xff, 0xff, 0xff]);
}

#[test]
fn tlsdesc_errors_match_lld() {
    let text = "R_X86_64_GOTPC32_TLSDESC/R_X86_64_CODE_4_GOTPC32_TLSDESC must be used in \
                    leaq x@tlsdesc(%rip), %REG";
    // `movq x@tlsdesc(%rip), %rax`.
    let mut buf = [0x48, 0x8b, 0x05, 0, 0, 0, 0];
    let err = relax_tlsdesc_to_le(&mut buf, 3, R_X86_64_GOTPC32_TLSDESC, 0).unwrap_err();
    assert_eq!((err.to_string().as_str(), err.offset()), (text, 0));
    let mut buf = [0x90, 0x48, 0xc7, 0xc0, 0, 0, 0, 0];
    let r = R_X86_64_CODE_4_GOTPC32_TLSDESC;
    let err = relax_tlsdesc_to_ie(&mut buf, 4, r, 0).unwrap_err();
    assert_eq!((err.to_string().as_str(), err.offset()), (text, 0));
}

#[test]
fn tls_decisions_follow_lld() {
    use TlsRelax::{ToIe, ToLe};
    let gd_like = [
        R_X86_64_TLSGD,
        R_X86_64_GOTPC32_TLSDESC,
        R_X86_64_CODE_4_GOTPC32_TLSDESC,
        R_X86_64_TLSDESC_CALL,
    ];
    for r in gd_like {
        assert_eq!(tls_relax_kind(r, false, false), Some(ToLe));
        assert_eq!(tls_relax_kind(r, false, true), Some(ToIe));
        assert_eq!(tls_relax_kind(r, true, false), None);
    }
    assert_eq!(tls_relax_kind(R_X86_64_TLSLD, false, true), Some(ToLe));
    assert_eq!(tls_relax_kind(R_X86_64_TLSLD, true, false), None);
    for r in [
        R_X86_64_GOTTPOFF,
        R_X86_64_CODE_4_GOTTPOFF,
        R_X86_64_CODE_6_GOTTPOFF,
    ] {
        assert_eq!(tls_relax_kind(r, false, false), Some(ToLe));
        assert_eq!(tls_relax_kind(r, false, true), None);
        assert_eq!(tls_relax_kind(r, true, false), None);
    }
    for r in [
        R_X86_64_DTPOFF32,
        R_X86_64_DTPOFF64,
        R_X86_64_TPOFF32,
        R_X86_64_PC32,
    ] {
        assert_eq!(tls_relax_kind(r, false, false), None);
    }
    assert_eq!(tls_relax_expr(R_X86_64_TLSGD, ToLe), RelExpr::TpOff);
    assert_eq!(tls_relax_expr(R_X86_64_TLSGD, ToIe), RelExpr::GotTpOff);
    assert_eq!(tls_relax_expr(R_X86_64_GOTTPOFF, ToLe), RelExpr::TpOff);
    assert_eq!(
        tls_relax_expr(R_X86_64_GOTPC32_TLSDESC, ToIe),
        RelExpr::GotTpOff
    );
    assert_eq!(tls_relax_expr(R_X86_64_TLSLD, ToLe), RelExpr::None);
    assert_eq!(tls_relax_expr(R_X86_64_TLSDESC_CALL, ToIe), RelExpr::None);
    // Combinations lld never produces are errors, not silent rewrites.
    let mut buf = LD_PLT;
    assert!(matches!(
        apply_tls_relax(&mut buf, 3, R_X86_64_TLSLD, ToIe, 0),
        Err(RelocError::Unsupported { .. })
    ));
    assert!(apply_tls_relax(&mut buf, 3, R_X86_64_GOTTPOFF, ToIe, 0).is_err());
    assert!(apply_tls_relax(&mut buf, 3, R_X86_64_PC32, ToLe, 0).is_err());
    assert_eq!(buf, LD_PLT);
}

#[test]
fn tls_rewrites_never_panic() {
    let types = [
        R_X86_64_TLSGD,
        R_X86_64_TLSLD,
        R_X86_64_GOTTPOFF,
        R_X86_64_CODE_4_GOTTPOFF,
        R_X86_64_CODE_6_GOTTPOFF,
        R_X86_64_GOTPC32_TLSDESC,
        R_X86_64_CODE_4_GOTPC32_TLSDESC,
        R_X86_64_TLSDESC_CALL,
    ];
    let seqs: [&[u8]; 6] = [
        &GD_PLT,
        &GD_NOPLT,
        &LD_PLT,
        &LD_NOPLT,
        &[0xd5, 0x48, 0x8b, 0x05, 0, 0, 0, 0],
        &[0x62, 0xe4, 0xfc, 0x0c, 0x03, 0x1d, 0, 0, 0, 0],
    ];
    for seq in seqs {
        for len in 0..=seq.len() {
            for r in types {
                for to in [TlsRelax::ToLe, TlsRelax::ToIe] {
                    for off in (0..len + 3).chain([usize::MAX - 3, usize::MAX]) {
                        let mut buf = seq[..len].to_vec();
                        let _ = apply_tls_relax(&mut buf, off, r, to, 0);
                    }
                }
            }
        }
    }
    // Truncating a valid sequence by one byte is an out-of-bounds error.
    let mut short = GD_PLT[..15].to_vec();
    assert!(matches!(
        relax_tls_gd_to_le(&mut short, 4, 0),
        Err(RelocError::OutOfBounds { .. })
    ));
    let mut short = LD_PLT[..11].to_vec();
    assert!(matches!(
        relax_tls_ld_to_le(&mut short, 3),
        Err(RelocError::OutOfBounds { .. })
    ));
    assert!(relax_tlsdesc_call(&mut [0xff], 0).is_err());
}

// ---- PLT ----------------------------------------------------------------------------------

#[test]
fn plt_bytes_match_lld() {
    // A dynamic executable from ld.lld-22: .plt at 0x201310, .got.plt at 0x203460,
    // fn@plt and fn2@plt, then two .iplt entries at 0x201340.
    let mut buf = [0u8; 16];
    write_plt_header(&mut buf, 0x201310, 0x203460).unwrap();
    assert_eq!(
        buf,
        [0xff, 0x35, 0x52, 0x21, 0, 0, 0xff, 0x25, 0x54, 0x21, 0, 0, 0x0f, 0x1f, 0x40, 0]
    );
    write_plt_entry(&mut buf, 0x201320, 0x203478, 0x201310, 0).unwrap();
    assert_eq!(
        buf,
        [0xff, 0x25, 0x52, 0x21, 0, 0, 0x68, 0, 0, 0, 0, 0xe9, 0xe0, 0xff, 0xff, 0xff]
    );
    write_plt_entry(&mut buf, 0x201330, 0x203480, 0x201310, 1).unwrap();
    assert_eq!(
        buf,
        [0xff, 0x25, 0x4a, 0x21, 0, 0, 0x68, 1, 0, 0, 0, 0xe9, 0xd0, 0xff, 0xff, 0xff]
    );
    write_iplt_entry(&mut buf, 0x201350, 0x203490, 0x201310, 1).unwrap();
    assert_eq!(
        buf,
        [0xff, 0x25, 0x3a, 0x21, 0, 0, 0x68, 1, 0, 0, 0, 0xe9, 0xb0, 0xff, 0xff, 0xff]
    );
    // A static executable has no .plt: the lazy tail jumps to address 0.
    write_iplt_entry(&mut buf, 0x201280, 0x2032a8, 0, 0).unwrap();
    assert_eq!(
        buf,
        [0xff, 0x25, 0x22, 0x20, 0, 0, 0x68, 0, 0, 0, 0, 0xe9, 0x70, 0xed, 0xdf, 0xff]
    );
    assert_eq!(gotplt_lazy_value(0x201320), 0x201326);
    let mut hdr = [0xaa; 24];
    write_gotplt_header(&mut hdr, 0x203390).unwrap();
    assert_eq!(hdr[..8], 0x203390u64.to_le_bytes());
    assert_eq!(hdr[8..], [0; 16]);
}

/// Bytes from a hex string as `llvm-readelf -x` prints them (spaces ignored).
fn hex(s: &str) -> Vec<u8> {
    let d: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    d.chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect()
}

#[test]
fn plt_style_choice_follows_lld() {
    assert_eq!(PltStyle::choose(false, false, false), PltStyle::Lazy);
    assert_eq!(PltStyle::choose(false, true, false), PltStyle::Lazy);
    assert_eq!(PltStyle::choose(false, true, true), PltStyle::Ibt);
    // lld's retpoline target wins over IBT inputs.
    assert_eq!(PltStyle::choose(true, false, true), PltStyle::Retpoline);
    assert_eq!(PltStyle::choose(true, true, false), PltStyle::RetpolineNow);
    let sizes: Vec<(u64, u64)> = [
        PltStyle::Lazy,
        PltStyle::Ibt,
        PltStyle::Retpoline,
        PltStyle::RetpolineNow,
    ]
    .iter()
    .map(|s| (s.header_size(), s.entry_size()))
    .collect();
    assert_eq!(sizes, [(16, 16), (0, 16), (48, 32), (32, 16)]);
}

#[test]
fn ibt_plt_bytes_match_lld() {
    // A PIE from ld.lld-22 with all-IBT inputs: .plt at 0x1640, .plt.sec at 0x1690,
    // .got.plt at 0x3828, four entries.
    let mut lazy = vec![0u8; 16 + 4 * 16];
    write_ibt_lazy_plt(&mut lazy, 0x1640, 0x3828, 4).unwrap();
    assert_eq!(
        lazy[..48],
        hex("ff35ea21 0000ff25 ec210000 0f1f4000
                 f30f1efa 68000000 00e9e2ff ffff6690
                 f30f1efa 68010000 00e9d2ff ffff6690")
    );
    assert_eq!(lazy[64..], hex("f30f1efa 68030000 00e9b2ff ffff6690"));
    let mut sec = vec![0u8; 32];
    for i in 0..2u32 {
        let at = 0x1690 + u64::from(i) * 16;
        let o = i as usize * 16;
        PltStyle::Ibt
            .write_entry(&mut sec[o..], at, 0x3840 + u64::from(i) * 8, 0x1690, i)
            .unwrap();
    }
    assert_eq!(
        sec,
        hex("f30f1efa ff25a621 0000660f 1f440000
                 f30f1efa ff259e21 0000660f 1f440000")
    );
    // The .got.plt slots start at the lazy halves in .plt.
    assert_eq!(PltStyle::Ibt.gotplt_value(0x16a0, 0x1640, 1), 0x1660);
    // No header in .plt.sec: nothing written.
    let mut none = [0xaa; 4];
    PltStyle::Ibt
        .write_header(&mut none, 0x1690, 0x3828)
        .unwrap();
    assert_eq!(none, [0xaa; 4]);
}

#[test]
fn retpoline_plt_bytes_match_lld() {
    // -z retpolineplt: .plt at 0x1990, .got.plt at 0x3cb0; .iplt at 0x1a60 with its slots
    // after the five PLT slots.
    let r = PltStyle::Retpoline;
    let mut plt = vec![0u8; 48 + 32];
    r.write_header(&mut plt, 0x1990, 0x3cb0).unwrap();
    r.write_entry(&mut plt[48..], 0x19c0, 0x3cc8, 0x1990, 0)
        .unwrap();
    assert_eq!(
        plt,
        hex("ff352223 00004c8b 1d232300 00e80e00
                 0000f390 0faee8eb f9cccccc cccccccc
                 4c891c24 c3cccccc cccccccc cccccccc
                 4c8b1d01 230000e8 e4ffffff e9d1ffff
                 ff680000 0000e9b5 ffffffcc cccccccc")
    );
    assert_eq!(r.gotplt_value(0x19c0, 0, 0), 0x19d1);
    let mut iplt = vec![0u8; 32];
    r.write_entry(&mut iplt, 0x1a80, 0x3cf8, 0x1990, 1).unwrap();
    assert_eq!(
        iplt,
        hex("4c8b1d71 220000e8 24ffffff e911ffff
                 ff680100 0000e9f5 feffffcc cccccccc")
    );
    // -z retpolineplt -z now: .plt at 0x1990, .got.plt at 0x2c28.
    let n = PltStyle::RetpolineNow;
    let mut plt = vec![0u8; 32 + 16];
    n.write_header(&mut plt, 0x1990, 0x2c28).unwrap();
    n.write_entry(&mut plt[32..], 0x19b0, 0x2c40, 0x1990, 0)
        .unwrap();
    assert_eq!(
        plt,
        hex("e80b0000 00f3900f aee8ebf9 cccccccc
                 4c891c24 c3cccccc cccccccc cccccccc
                 4c8b1d89 120000e9 d4ffffff cccccccc")
    );
    assert_eq!(n.gotplt_value(0x19b0, 0, 0), 0);
    // Short buffers are errors, for every style.
    for style in [PltStyle::Ibt, r, n] {
        assert!(style.write_entry(&mut [0u8; 8], 0, 0, 0, 0).is_err());
    }
    assert!(r.write_header(&mut [0u8; 47], 0, 0).is_err());
    assert!(n.write_header(&mut [0u8; 31], 0, 0).is_err());
    assert!(write_ibt_lazy_plt(&mut [0u8; 31], 0, 0, 1).is_err());
}

#[test]
fn plt_short_buffers_are_errors() {
    let mut buf = [0u8; 15];
    assert!(write_plt_header(&mut buf, 0, 0).is_err());
    assert!(write_plt_entry(&mut buf, 0, 0, 0, 0).is_err());
    assert!(write_iplt_entry(&mut buf, 0, 0, 0, 0).is_err());
    assert!(write_gotplt_header(&mut buf, 0).is_err());
    assert_eq!(buf, [0; 15]);
    // Longer buffers: only the first 16 bytes are written.
    let mut buf = [0xaa; 20];
    write_plt_entry(&mut buf, 0, 0, 0, 0).unwrap();
    assert_eq!(buf[16..], [0xaa; 4]);
}

#[test]
fn every_accepted_type_is_in_the_table() {
    for t in 0..4096u32 {
        assert_eq!(rel_info(t), rel_info_of(t), "type {t}");
        if rel_info_of(t).is_some() {
            assert!((t as usize) < REL_INFO.len(), "type {t} is past the table");
        }
    }
}
