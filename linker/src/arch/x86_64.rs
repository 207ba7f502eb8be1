//! x86-64 relocation knowledge, as pure functions over section bytes.
//!
//! The pipeline resolves symbols and lays out the output; this module answers three questions
//! for it, the way ld.lld (LLVM 22) answers them:
//!
//! 1. What does a relocation type mean? [`rel_info`] gives the [`RelExpr`] (which formula the
//!    caller evaluates), the width written and lld's overflow rule.
//! 2. How is a computed value stored? [`write_value`] writes it little-endian with lld's range
//!    check and reports [`RangeError`] with lld's wording.
//! 3. Which instruction rewrites does lld perform? GOTPCRELX relaxation
//!    ([`can_relax_gotpcrelx`], [`apply_gotpcrelx_relax`]), the TLS model transitions
//!    ([`tls_relax_kind`], [`apply_tls_relax`] and the `relax_tls_*` primitives) and the PLT
//!    entries in each of lld's layouts ([`PltStyle`]: lazy, IBT with its [`write_ibt_lazy_plt`],
//!    retpoline with and without `-z now`; [`write_plt_header`] and [`write_plt_entry`] are the
//!    lazy ones).
//!
//! Nothing here panics on bad input: every access is bounds-checked and a relocation whose
//! field (or patched instruction) does not lie inside the buffer yields
//! [`RelocError::OutOfBounds`].
//!
//! # Notation
//!
//! S = symbol address, A = addend, P = address of the place being relocated, GOT = address of
//! `.got.plt` (what `_GLOBAL_OFFSET_TABLE_` names on x86-64), G = address of the symbol's GOT
//! slot, L = address of the symbol's PLT entry, Z = symbol size. For TLS, "address" of a TLS
//! symbol means its offset inside the TLS segment; DTP = 0 (start of the segment) and TP is
//! x86-64's variant-2 thread pointer, which sits just past the segment:
//! `TP = p_memsz + ((-p_vaddr - p_memsz) & (p_align - 1))` relative to the segment start, so
//! that `S - TP` is negative. lld special-cases `_TLS_MODULE_BASE_`: its `S - TP` is 0.
//!
//! # What the caller does for each relaxation
//!
//! **GOTPCRELX** (types `R_X86_64_GOTPCRELX`, `R_X86_64_REX_GOTPCRELX`,
//! `R_X86_64_CODE_4_GOTPCRELX`). lld considers a reference for relaxation only if `--relax` is
//! in effect (the default; `--no-relax` turns it off) and the symbol is non-preemptible, not an
//! IFUNC (unless `-z ifunc-noplt`), not absolute (neither an `SHN_ABS` definition nor an
//! undefined weak) and not TLS. For such a reference call [`can_relax_gotpcrelx`]; `Some(kind)`
//! means the reference needs no GOT slot. After layout compute `value` = S + A - P if
//! `kind.is_absolute()` is false, S + A if it is true, and check [`GotRelax::fits`]. If it does
//! not fit, lld gives up relaxing *that* reference: it allocates a GOT slot for the symbol (if it
//! has none), lays out again (the new slot can move addresses; lld repeats until nothing
//! changes, never re-relaxing a reference it gave up on) and writes G + A - P with
//! [`write_value`]. Otherwise call [`apply_gotpcrelx_relax`]. References for which the predicate
//! says `None` are ordinary G + A - P writes.
//!
//! **TLS** (executables only, static or dynamic, PIE or not; with `-shared` nothing is relaxed;
//! `--no-relax` does not affect TLS).
//! [`tls_relax_kind`] decides, as lld does: GD (`R_X86_64_TLSGD`) and TLSDESC
//! (`R_X86_64_GOTPC32_TLSDESC`, `R_X86_64_CODE_4_GOTPC32_TLSDESC`, `R_X86_64_TLSDESC_CALL`) go
//! to IE when the symbol is preemptible and to LE otherwise; LD (`R_X86_64_TLSLD`) always goes
//! to LE; IE (`R_X86_64_GOTTPOFF`, `R_X86_64_CODE_4_GOTTPOFF`, `R_X86_64_CODE_6_GOTTPOFF`) goes
//! to LE when the symbol is non-preemptible and is left alone otherwise. [`tls_relax_expr`]
//! says which value to pass to [`apply_tls_relax`]: for LE it is S + A - TP, for IE it is
//! G + A - P where G is the symbol's IE GOT slot (the slot holding its TP offset, filled by an
//! `R_X86_64_TPOFF64` dynamic relocation or, when static, by the linker), and for the TLSLD and
//! TLSDESC_CALL rewrites the value is ignored. A = the relocation's own addend (normally -4);
//! lld's compensations for the moved displacement are applied here. A relaxed GD or LD sequence
//! swallows the call to `__tls_get_addr`: `apply_tls_relax` returns how many *following*
//! relocations (1: the `R_X86_64_PLT32` or `R_X86_64_GOTPCRELX` on the call) the caller must
//! drop entirely — no value, no PLT or GOT entry, no undefined-symbol report for
//! `__tls_get_addr`. lld drops the next relocation without checking what it is. Like lld, the
//! TLS rewrites store their 32-bit values without a range check.
//!
//! **DTPOFF after LD→LE**. In an executable lld evaluates `R_X86_64_DTPOFF32` and
//! `R_X86_64_DTPOFF64` in allocated sections as S + A - TP (TP-relative), because the relaxed
//! LD sequence leaves TP, not the module's block address, in `%rax`; this holds for every
//! DTPOFF in the executable, whether or not the LD sequence was seen. In non-allocated sections
//! (debug info) and in `-shared` output they stay S + A - DTP. With TLSDESC against
//! `_TLS_MODULE_BASE_` the same rule works because `_TLS_MODULE_BASE_`'s TP offset is 0.
//!
//! # Deviations from lld
//!
//! lld rewrites some byte patterns blindly and produces broken code for inputs no compiler
//! emits in that form; weld rejects or leaves them instead, since a link error beats a wrong
//! binary:
//! * GD→LE/IE: lld overwrites 16 bytes around any `R_X86_64_TLSGD`; weld requires the
//!   standard sequence (`66 48 8d 3d` + `66 66 48 e8` or `66 48 ff 15`) and errors otherwise
//!   (e.g. GCC's `-mcmodel=large` sequence, which lld corrupts silently).
//! * LD→LE: weld also checks the `leaq x@tlsld(%rip), %rdi` bytes lld overwrites unchecked.
//! * GOTPCRELX test/binop forms: weld relaxes only `test` (0x85) and the eight ALU ops
//!   (`add/or/adc/sbb/and/sub/xor/cmp r, r/m`) with a RIP-relative ModRM; lld treats any other
//!   opcode as an ALU op, and `ff /x` other than call/jmp as a jmp. Such references stay GOT
//!   loads here.
//! * `R_X86_64_CODE_6_GOTTPOFF` with a destination in r24–r31: lld 22 loses the REX3 bit
//!   (`{nf} addq x@gottpoff(%rip), %r27` becomes `{nf} addq $x, %r19`); weld encodes %r27.

use std::borrow::Cow;
use std::fmt;

use object::elf::{
    R_X86_64_16, R_X86_64_32, R_X86_64_32S, R_X86_64_64, R_X86_64_8, R_X86_64_COPY,
    R_X86_64_DTPMOD64, R_X86_64_DTPOFF32, R_X86_64_DTPOFF64, R_X86_64_GLOB_DAT, R_X86_64_GOT32,
    R_X86_64_GOT64, R_X86_64_GOTOFF64, R_X86_64_GOTPC32, R_X86_64_GOTPC32_TLSDESC,
    R_X86_64_GOTPC64, R_X86_64_GOTPCREL, R_X86_64_GOTPCREL64, R_X86_64_GOTPCRELX,
    R_X86_64_GOTPLT64, R_X86_64_GOTTPOFF, R_X86_64_IRELATIVE, R_X86_64_JUMP_SLOT, R_X86_64_NONE,
    R_X86_64_PC16, R_X86_64_PC32, R_X86_64_PC64, R_X86_64_PC8, R_X86_64_PLT32, R_X86_64_PLTOFF64,
    R_X86_64_RELATIVE, R_X86_64_REX_GOTPCRELX, R_X86_64_SIZE32, R_X86_64_SIZE64, R_X86_64_TLSDESC,
    R_X86_64_TLSDESC_CALL, R_X86_64_TLSGD, R_X86_64_TLSLD, R_X86_64_TPOFF32, R_X86_64_TPOFF64,
};

use crate::error::Error;

// The APX relocation types are newer than the `object` crate in use, so they are defined here
// (values from the x86-64 psABI, as in LLVM's ELFRelocs/x86_64.def).

/// `R_X86_64_CODE_4_GOTPCRELX`: GOTPCRELX on an instruction with a REX2 (`0xd5`) prefix.
pub const R_X86_64_CODE_4_GOTPCRELX: u32 = 43;
/// `R_X86_64_CODE_4_GOTTPOFF`: GOTTPOFF on an instruction with a REX2 prefix.
pub const R_X86_64_CODE_4_GOTTPOFF: u32 = 44;
/// `R_X86_64_CODE_4_GOTPC32_TLSDESC`: GOTPC32_TLSDESC on a `leaq` with a REX2 prefix.
pub const R_X86_64_CODE_4_GOTPC32_TLSDESC: u32 = 45;
/// `R_X86_64_CODE_6_GOTTPOFF`: GOTTPOFF on an EVEX-encoded (APX NDD/NF) `addq`.
pub const R_X86_64_CODE_6_GOTTPOFF: u32 = 50;

/// Size of the lazy-binding PLT header (`.plt` entry 0).
pub const PLT_HEADER_SIZE: usize = 16;
/// Size of one lazy PLT entry.
pub const PLT_ENTRY_SIZE: usize = 16;
/// Size of one `.iplt` entry (IFUNC calls in executables).
pub const IPLT_ENTRY_SIZE: usize = 16;
/// Size of one GOT or `.got.plt` slot.
pub const GOT_ENTRY_SIZE: usize = 8;
/// Size of the reserved start of `.got.plt`: `_DYNAMIC`'s address and two slots for ld.so.
pub const GOTPLT_HEADER_SIZE: usize = 3 * GOT_ENTRY_SIZE;

/// Which formula gives a relocation's value (see the module docs for the letters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelExpr {
    /// Nothing is computed or written (`R_X86_64_NONE`).
    None,
    /// S + A.
    Abs,
    /// S + A - P.
    PcRel,
    /// L + A - P (`R_X86_64_PLT32`). When the symbol needs no PLT entry (non-preemptible and
    /// not an IFUNC), lld evaluates S + A - P instead.
    Plt,
    /// L + A - GOT (`R_X86_64_PLTOFF64`); S + A - GOT when the symbol needs no PLT entry.
    PltGotOff,
    /// G + A - P (`R_X86_64_GOTPCREL` and the GOTPCRELX family when not relaxed).
    GotPcRel,
    /// GOT + A - P (`R_X86_64_GOTPC32`, `R_X86_64_GOTPC64`).
    GotPc,
    /// S + A - GOT (`R_X86_64_GOTOFF64`).
    GotOff,
    /// G + A - GOT (`R_X86_64_GOT32`, `R_X86_64_GOT64`).
    GotRel,
    /// Z + A (`R_X86_64_SIZE32`, `R_X86_64_SIZE64`).
    Size,
    /// S + A - TP (`R_X86_64_TPOFF32`, `R_X86_64_TPOFF64`); an error in `-shared` output.
    TpOff,
    /// S + A - DTP (`R_X86_64_DTPOFF32`, `R_X86_64_DTPOFF64`). In an executable's allocated
    /// sections lld uses S + A - TP instead (see the module docs).
    DtpOff,
    /// G + A - P where G is the IE GOT slot holding the symbol's TP offset (GOTTPOFF family).
    GotTpOff,
    /// G + A - P where G is the first of the two GD GOT slots (module id, offset).
    TlsGd,
    /// G + A - P where G is the module's LD GOT slot pair (module id, 0).
    TlsLd,
    /// G + A - P where G is the symbol's two-slot TLS descriptor (GOTPC32_TLSDESC family).
    TlsDesc,
    /// Marks the `call *x@tlscall(%rax)`; nothing is written unless relaxed.
    TlsDescCall,
}

/// lld's overflow rule for a relocation field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// Not checked (64-bit fields, and fields that hold no value).
    None,
    /// Must fit the width as a signed integer (lld's `checkInt`).
    Signed,
    /// Must fit the width as an unsigned integer (lld's `checkUInt`).
    Unsigned,
    /// Must fit as signed or as unsigned (lld's `checkIntUInt`, used by `R_X86_64_8/16`).
    SignedOrUnsigned,
}

/// What a static relocation type means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelInfo {
    /// The formula the caller evaluates.
    pub expr: RelExpr,
    /// Bytes written at the relocation offset: 0, 1, 2, 4 or 8.
    pub size: u8,
    /// The range check [`write_value`] applies.
    pub overflow: Overflow,
    /// The type (its name is looked up only for diagnostics: see [`RelInfo::name`]).
    pub r_type: u32,
}

impl RelInfo {
    /// The type's name, e.g. `"R_X86_64_PC32"` (every type `rel_info` accepts has one).
    pub fn name(&self) -> &'static str {
        known_name(self.r_type).unwrap_or("R_X86_64_NONE")
    }
}

/// The meaning of static relocation type `r_type`, or `None` for a type lld rejects in input
/// files. Dynamic-only types (`R_X86_64_GLOB_DAT`, `R_X86_64_DTPMOD64`, `R_X86_64_TLSDESC`,
/// ...) and ones lld never implemented (`R_X86_64_GOTPCREL64`, `R_X86_64_GOTPLT64`) are among
/// those; report them with [`unknown_relocation_error`].
#[inline]
pub fn rel_info(r_type: u32) -> Option<RelInfo> {
    // A table: the scan and the write ask for every relocation of the link.
    match REL_INFO.get(r_type as usize) {
        Some(&info) => info,
        None => rel_info_of(r_type),
    }
}

/// [`rel_info`] for every type below 64 (x86-64's types end at 50).
static REL_INFO: [Option<RelInfo>; 64] = {
    let mut table = [None; 64];
    let mut t = 0;
    while t < table.len() {
        table[t] = rel_info_of(t as u32);
        t += 1;
    }
    table
};

/// [`rel_info`], worked out.
const fn rel_info_of(r_type: u32) -> Option<RelInfo> {
    use Overflow as O;
    use RelExpr as E;
    let (expr, size, overflow) = match r_type {
        R_X86_64_NONE => (E::None, 0, O::None),
        R_X86_64_8 => (E::Abs, 1, O::SignedOrUnsigned),
        R_X86_64_16 => (E::Abs, 2, O::SignedOrUnsigned),
        R_X86_64_32 => (E::Abs, 4, O::Unsigned),
        R_X86_64_32S => (E::Abs, 4, O::Signed),
        R_X86_64_64 => (E::Abs, 8, O::None),
        R_X86_64_PC8 => (E::PcRel, 1, O::Signed),
        R_X86_64_PC16 => (E::PcRel, 2, O::Signed),
        R_X86_64_PC32 => (E::PcRel, 4, O::Signed),
        R_X86_64_PC64 => (E::PcRel, 8, O::None),
        R_X86_64_PLT32 => (E::Plt, 4, O::Signed),
        R_X86_64_PLTOFF64 => (E::PltGotOff, 8, O::None),
        R_X86_64_GOTPCREL
        | R_X86_64_GOTPCRELX
        | R_X86_64_REX_GOTPCRELX
        | R_X86_64_CODE_4_GOTPCRELX => (E::GotPcRel, 4, O::Signed),
        R_X86_64_GOTPC32 => (E::GotPc, 4, O::Signed),
        R_X86_64_GOTPC64 => (E::GotPc, 8, O::None),
        R_X86_64_GOTOFF64 => (E::GotOff, 8, O::None),
        R_X86_64_GOT32 => (E::GotRel, 4, O::Signed),
        R_X86_64_GOT64 => (E::GotRel, 8, O::None),
        R_X86_64_SIZE32 => (E::Size, 4, O::Signed),
        R_X86_64_SIZE64 => (E::Size, 8, O::None),
        R_X86_64_TPOFF32 => (E::TpOff, 4, O::Signed),
        R_X86_64_TPOFF64 => (E::TpOff, 8, O::None),
        R_X86_64_DTPOFF32 => (E::DtpOff, 4, O::Signed),
        R_X86_64_DTPOFF64 => (E::DtpOff, 8, O::None),
        R_X86_64_GOTTPOFF | R_X86_64_CODE_4_GOTTPOFF | R_X86_64_CODE_6_GOTTPOFF => {
            (E::GotTpOff, 4, O::Signed)
        }
        R_X86_64_TLSGD => (E::TlsGd, 4, O::Signed),
        R_X86_64_TLSLD => (E::TlsLd, 4, O::Signed),
        R_X86_64_GOTPC32_TLSDESC | R_X86_64_CODE_4_GOTPC32_TLSDESC => (E::TlsDesc, 4, O::Signed),
        R_X86_64_TLSDESC_CALL => (E::TlsDescCall, 0, O::None),
        _ => return None,
    };
    Some(RelInfo {
        expr,
        size,
        overflow,
        r_type,
    })
}

/// The name lld prints for a relocation type: `"R_X86_64_PC32"`, or `"Unknown (38)"` for a
/// number LLVM has no name for.
pub fn rel_name(r_type: u32) -> Cow<'static, str> {
    match known_name(r_type) {
        Some(name) => Cow::Borrowed(name),
        None => Cow::Owned(format!("Unknown ({r_type})")),
    }
}

/// lld's message for a relocation type it does not accept in an input file:
/// `unknown relocation (28) against symbol foo`. The caller puts the location
/// (`file.o:(.text+0x0): `) in front.
pub fn unknown_relocation_error(r_type: u32, symbol: &str) -> Error {
    crate::err!("unknown relocation ({r_type}) against symbol {symbol}")
}

/// The names LLVM knows (ELFRelocs/x86_64.def); lld prints these in diagnostics.
fn known_name(r_type: u32) -> Option<&'static str> {
    Some(match r_type {
        R_X86_64_NONE => "R_X86_64_NONE",
        R_X86_64_64 => "R_X86_64_64",
        R_X86_64_PC32 => "R_X86_64_PC32",
        R_X86_64_GOT32 => "R_X86_64_GOT32",
        R_X86_64_PLT32 => "R_X86_64_PLT32",
        R_X86_64_COPY => "R_X86_64_COPY",
        R_X86_64_GLOB_DAT => "R_X86_64_GLOB_DAT",
        R_X86_64_JUMP_SLOT => "R_X86_64_JUMP_SLOT",
        R_X86_64_RELATIVE => "R_X86_64_RELATIVE",
        R_X86_64_GOTPCREL => "R_X86_64_GOTPCREL",
        R_X86_64_32 => "R_X86_64_32",
        R_X86_64_32S => "R_X86_64_32S",
        R_X86_64_16 => "R_X86_64_16",
        R_X86_64_PC16 => "R_X86_64_PC16",
        R_X86_64_8 => "R_X86_64_8",
        R_X86_64_PC8 => "R_X86_64_PC8",
        R_X86_64_DTPMOD64 => "R_X86_64_DTPMOD64",
        R_X86_64_DTPOFF64 => "R_X86_64_DTPOFF64",
        R_X86_64_TPOFF64 => "R_X86_64_TPOFF64",
        R_X86_64_TLSGD => "R_X86_64_TLSGD",
        R_X86_64_TLSLD => "R_X86_64_TLSLD",
        R_X86_64_DTPOFF32 => "R_X86_64_DTPOFF32",
        R_X86_64_GOTTPOFF => "R_X86_64_GOTTPOFF",
        R_X86_64_TPOFF32 => "R_X86_64_TPOFF32",
        R_X86_64_PC64 => "R_X86_64_PC64",
        R_X86_64_GOTOFF64 => "R_X86_64_GOTOFF64",
        R_X86_64_GOTPC32 => "R_X86_64_GOTPC32",
        R_X86_64_GOT64 => "R_X86_64_GOT64",
        R_X86_64_GOTPCREL64 => "R_X86_64_GOTPCREL64",
        R_X86_64_GOTPC64 => "R_X86_64_GOTPC64",
        R_X86_64_GOTPLT64 => "R_X86_64_GOTPLT64",
        R_X86_64_PLTOFF64 => "R_X86_64_PLTOFF64",
        R_X86_64_SIZE32 => "R_X86_64_SIZE32",
        R_X86_64_SIZE64 => "R_X86_64_SIZE64",
        R_X86_64_GOTPC32_TLSDESC => "R_X86_64_GOTPC32_TLSDESC",
        R_X86_64_TLSDESC_CALL => "R_X86_64_TLSDESC_CALL",
        R_X86_64_TLSDESC => "R_X86_64_TLSDESC",
        R_X86_64_IRELATIVE => "R_X86_64_IRELATIVE",
        R_X86_64_GOTPCRELX => "R_X86_64_GOTPCRELX",
        R_X86_64_REX_GOTPCRELX => "R_X86_64_REX_GOTPCRELX",
        R_X86_64_CODE_4_GOTPCRELX => "R_X86_64_CODE_4_GOTPCRELX",
        R_X86_64_CODE_4_GOTTPOFF => "R_X86_64_CODE_4_GOTTPOFF",
        R_X86_64_CODE_4_GOTPC32_TLSDESC => "R_X86_64_CODE_4_GOTPC32_TLSDESC",
        R_X86_64_CODE_6_GOTTPOFF => "R_X86_64_CODE_6_GOTTPOFF",
        _ => return None,
    })
}

/// A value that does not fit its relocation field. `Display` gives lld's text,
/// `relocation R_X86_64_PC32 out of range: 2147483648 is not in [-2147483648, 2147483647]`;
/// lld prefixes the location (`file.o:(.text+0x11): `, at [`RangeError::offset`]) and appends
/// `; references 'sym'` (or `; references section '.name'` for a section symbol) and the
/// `\n>>> referenced by` / `\n>>> defined in` lines, which only the caller knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeError {
    /// The relocation type.
    pub r_type: u32,
    /// Section offset of the relocated field (where lld reports the error).
    pub offset: usize,
    /// The value as lld prints it: signed for signed and signed-or-unsigned checks, unsigned
    /// for `R_X86_64_32`.
    pub value: i128,
    /// Lower bound of the accepted range.
    pub min: i64,
    /// Upper bound of the accepted range.
    pub max: u64,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "relocation {} out of range: {} is not in [{}, {}]",
            rel_name(self.r_type),
            self.value,
            self.min,
            self.max
        )
    }
}

/// Why a relocation could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelocError {
    /// The value does not fit the field.
    OutOfRange(RangeError),
    /// The field, or the instruction bytes a rewrite reads or changes, is not inside the
    /// buffer: `start..end` is the byte range needed, `len` the buffer length.
    OutOfBounds {
        r_type: u32,
        offset: usize,
        start: usize,
        end: usize,
        len: usize,
    },
    /// The bytes around the relocation are not an instruction the rewrite understands.
    /// `offset` is where lld reports the problem (usually the start of the instruction) and
    /// `message` is lld's text where lld has one.
    BadInstruction {
        r_type: u32,
        offset: usize,
        message: &'static str,
    },
    /// The operation does not apply to this relocation type (for instance [`write_value`] on a
    /// dynamic-only type). `what` names the operation.
    Unsupported {
        r_type: u32,
        offset: usize,
        what: &'static str,
    },
}

impl RelocError {
    /// Section offset at which lld reports this error, for the `file.o:(.sec+0x..): ` prefix.
    pub fn offset(&self) -> usize {
        match self {
            RelocError::OutOfRange(e) => e.offset,
            RelocError::OutOfBounds { offset, .. }
            | RelocError::BadInstruction { offset, .. }
            | RelocError::Unsupported { offset, .. } => *offset,
        }
    }
}

impl fmt::Display for RelocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RelocError::OutOfRange(e) => e.fmt(f),
            RelocError::OutOfBounds {
                r_type,
                offset,
                start,
                end,
                len,
            } => write!(
                f,
                "relocation {} at offset {offset:#x} needs bytes [{start:#x}, {end:#x}) but the \
                 section is only {len:#x} bytes long",
                rel_name(*r_type)
            ),
            RelocError::BadInstruction { message, .. } => f.write_str(message),
            RelocError::Unsupported { r_type, what, .. } => {
                write!(f, "cannot {what} for relocation {}", rel_name(*r_type))
            }
        }
    }
}

impl std::error::Error for RelocError {}

impl From<RelocError> for Error {
    fn from(e: RelocError) -> Self {
        Error(e.to_string())
    }
}

/// Checks that `buf[off - before .. off + after]` exists, so the rewrite that follows can
/// index freely without panicking.
fn need(
    buf: &[u8],
    off: usize,
    before: usize,
    after: usize,
    r_type: u32,
) -> Result<(), RelocError> {
    let end = off.checked_add(after);
    match (off.checked_sub(before), end) {
        (Some(_), Some(end)) if end <= buf.len() => Ok(()),
        _ => Err(RelocError::OutOfBounds {
            r_type,
            offset: off,
            start: off.saturating_sub(before),
            end: end.unwrap_or(usize::MAX),
            len: buf.len(),
        }),
    }
}

/// Stores the low 32 bits of `v` at `buf[at..at + 4]`; callers have checked the bounds.
/// A 32-bit PC-relative displacement at `at`: `target` as seen from `next` (the address of
/// the instruction that follows it). Truncated without a check, as lld writes PLT code.
fn put_rel32(buf: &mut [u8], at: usize, target: u64, next: u64) {
    put32(buf, at, target.wrapping_sub(next));
}

fn put32(buf: &mut [u8], at: usize, v: u64) {
    buf[at..at + 4].copy_from_slice(&(v as u32).to_le_bytes());
}

fn fits_signed(v: u64, bits: u32) -> bool {
    let shift = 64 - bits;
    (((v << shift) as i64) >> shift) as u64 == v
}

fn fits_unsigned(v: u64, bits: u32) -> bool {
    bits >= 64 || v >> bits == 0
}

/// Applies lld's overflow rule for `r_type` to `value` (the value `write_value` would store).
pub fn check_range(r_type: u32, offset: usize, value: u64) -> Result<(), RangeError> {
    match rel_info(r_type) {
        Some(info) => check_info_range(&info, offset, value),
        None => Ok(()),
    }
}

/// Whether `value` passes [`check_info_range`].
#[inline]
fn in_range(info: &RelInfo, value: u64) -> bool {
    let bits = u32::from(info.size) * 8;
    if bits == 0 || bits >= 64 {
        return true;
    }
    match info.overflow {
        Overflow::None => true,
        Overflow::Signed => fits_signed(value, bits),
        Overflow::Unsigned => fits_unsigned(value, bits),
        Overflow::SignedOrUnsigned => fits_signed(value, bits) || fits_unsigned(value, bits),
    }
}

/// The error [`write_info_value`] reports: the field is out of `buf` (of `len` bytes), or the
/// value out of range.
#[cold]
fn write_value_error(info: &RelInfo, len: usize, off: usize, value: u64) -> RelocError {
    let end = off.checked_add(usize::from(info.size));
    if end.is_none_or(|end| end > len) {
        return RelocError::OutOfBounds {
            r_type: info.r_type,
            offset: off,
            start: off,
            end: end.unwrap_or(usize::MAX),
            len,
        };
    }
    match check_info_range(info, off, value) {
        Err(e) => RelocError::OutOfRange(e),
        Ok(()) => RelocError::Unsupported {
            r_type: info.r_type,
            offset: off,
            what: "write a value",
        },
    }
}

/// [`check_range`] for a type already looked up.
fn check_info_range(info: &RelInfo, offset: usize, value: u64) -> Result<(), RangeError> {
    if in_range(info, value) {
        return Ok(());
    }
    // Out of range: the bounds lld's message gives.
    let bits = u32::from(info.size) * 8;
    let smin = -(1i64 << (bits - 1));
    let smax = (1u64 << (bits - 1)) - 1;
    let umax = (1u64 << bits) - 1;
    let (shown, min, max) = match info.overflow {
        Overflow::Unsigned => (value as i128, 0, umax),
        Overflow::SignedOrUnsigned => (value as i64 as i128, smin, umax),
        Overflow::Signed | Overflow::None => (value as i64 as i128, smin, smax),
    };
    Err(RangeError {
        r_type: info.r_type,
        offset,
        value: shown,
        min,
        max,
    })
}

/// Writes `value` (the result of the relocation's [`RelExpr`], wrapping arithmetic) into
/// `buf` at `off`, little-endian and `rel_info(r_type).size` bytes wide, after lld's range
/// check. Types that write nothing (`R_X86_64_NONE`, `R_X86_64_TLSDESC_CALL` when not relaxed)
/// succeed without touching `buf`. Types `rel_info` does not know are
/// [`RelocError::Unsupported`]. This is the unrelaxed path; relaxed GOTPCRELX and TLS
/// references go through the relaxation functions instead.
pub fn write_value(buf: &mut [u8], off: usize, r_type: u32, value: u64) -> Result<(), RelocError> {
    let info = rel_info(r_type).ok_or(RelocError::Unsupported {
        r_type,
        offset: off,
        what: "write a value",
    })?;
    write_info_value(&info, buf, off, value)
}

/// [`write_value`] for a type already looked up (relocation application does it once per
/// relocation): the field is stored by its width, not by a copy of a variable length.
/// Kept small enough to inline into the loop that calls it for every relocation: the errors
/// are made out of line ([`write_value_error`]).
#[inline]
pub fn write_info_value(
    info: &RelInfo,
    buf: &mut [u8],
    off: usize,
    value: u64,
) -> Result<(), RelocError> {
    let size = usize::from(info.size);
    if size == 0 {
        return Ok(());
    }
    let len = buf.len();
    let end = off.checked_add(size).filter(|&end| end <= len);
    let (Some(end), true) = (end, in_range(info, value)) else {
        return Err(write_value_error(info, len, off, value));
    };
    let field = &mut buf[off..end];
    match size {
        4 => field.copy_from_slice(&(value as u32).to_le_bytes()),
        8 => field.copy_from_slice(&value.to_le_bytes()),
        2 => field.copy_from_slice(&(value as u16).to_le_bytes()),
        _ => field.copy_from_slice(&value.to_le_bytes()[..size]),
    }
    Ok(())
}

/// Reads the addend stored in the relocated field, as lld's `getImplicitAddend` does (for REL
/// input and for checking dynamic relocations); x86-64 objects normally use RELA, whose addend
/// is explicit. `R_X86_64_TLSDESC` keeps its addend in the descriptor's second word.
pub fn implicit_addend(buf: &[u8], off: usize, r_type: u32) -> Result<i64, RelocError> {
    let (at, size) = match r_type {
        R_X86_64_NONE | R_X86_64_JUMP_SLOT | R_X86_64_TLSDESC_CALL => return Ok(0),
        R_X86_64_8 | R_X86_64_PC8 => (off, 1),
        R_X86_64_16 | R_X86_64_PC16 => (off, 2),
        R_X86_64_32
        | R_X86_64_32S
        | R_X86_64_TPOFF32
        | R_X86_64_GOT32
        | R_X86_64_GOTPC32
        | R_X86_64_GOTPC32_TLSDESC
        | R_X86_64_CODE_4_GOTPC32_TLSDESC
        | R_X86_64_GOTPCREL
        | R_X86_64_GOTPCRELX
        | R_X86_64_REX_GOTPCRELX
        | R_X86_64_CODE_4_GOTPCRELX
        | R_X86_64_PC32
        | R_X86_64_GOTTPOFF
        | R_X86_64_CODE_4_GOTTPOFF
        | R_X86_64_CODE_6_GOTTPOFF
        | R_X86_64_PLT32
        | R_X86_64_TLSGD
        | R_X86_64_TLSLD
        | R_X86_64_DTPOFF32
        | R_X86_64_SIZE32 => (off, 4),
        R_X86_64_64 | R_X86_64_TPOFF64 | R_X86_64_DTPOFF64 | R_X86_64_DTPMOD64 | R_X86_64_PC64
        | R_X86_64_SIZE64 | R_X86_64_GLOB_DAT | R_X86_64_GOT64 | R_X86_64_GOTOFF64
        | R_X86_64_GOTPC64 | R_X86_64_PLTOFF64 | R_X86_64_IRELATIVE | R_X86_64_RELATIVE => (off, 8),
        R_X86_64_TLSDESC => (off.saturating_add(8), 8),
        _ => {
            return Err(RelocError::Unsupported {
                r_type,
                offset: off,
                what: "read an implicit addend",
            })
        }
    };
    need(buf, at, 0, size, r_type)?;
    let mut bytes = [0u8; 8];
    bytes[..size].copy_from_slice(&buf[at..at + size]);
    let raw = u64::from_le_bytes(bytes);
    let shift = 64 - 8 * size as u32;
    Ok(((raw << shift) as i64) >> shift)
}

// ---------------------------------------------------------------------------------------------
// GOTPCRELX relaxation
// ---------------------------------------------------------------------------------------------

/// A GOT-indirect instruction that can be rewritten to use the symbol directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GotRelax {
    /// `mov foo@GOTPCREL(%rip), %reg` → `lea foo(%rip), %reg` (opcode 0x8b → 0x8d). Value:
    /// S + A - P.
    MovToLea,
    /// `call *foo@GOTPCREL(%rip)` (`ff 15`) → `addr32 call foo` (`67 e8`). Value: S + A - P.
    CallToDirect,
    /// `jmp *foo@GOTPCREL(%rip)` (`ff 25`) → `jmp foo; nop` (`e9 .. 90`). Value: S + A - P.
    JmpToDirect,
    /// `test %reg, foo@GOTPCREL(%rip)` → `test $foo, %reg` (non-PIC output only). Value: S + A.
    TestToImm,
    /// `op foo@GOTPCREL(%rip), %reg` → `op $foo, %reg` for op in add/or/adc/sbb/and/sub/xor/cmp
    /// (non-PIC output only). Value: S + A.
    BinopToImm,
}

impl GotRelax {
    /// True for the forms that turn the reference into an immediate, whose value is the
    /// absolute S + A; false for the PC-relative forms, whose value is S + A - P.
    pub fn is_absolute(self) -> bool {
        matches!(self, GotRelax::TestToImm | GotRelax::BinopToImm)
    }

    /// Whether lld keeps this relaxation for `value` (computed as [`GotRelax::is_absolute`]
    /// says). The new displacement or sign-extended immediate must fit in 32 bits; lld tests
    /// S + A - P for the PC-relative forms and S (= value + 4, as A is -4) for the immediate
    /// forms. If this is false the caller must fall back to the GOT (see the module docs).
    pub fn fits(self, value: u64) -> bool {
        let v = if self.is_absolute() {
            value.wrapping_add(4)
        } else {
            value
        };
        fits_signed(v, 32)
    }
}

/// The opcodes of `add/or/adc/sbb/and/sub/xor/cmp r, r/m`: their `/digit` for the
/// `0x81 /digit imm32` form is bits 3..5 of the opcode, which is what the rewrite relies on.
fn is_alu_rm_opcode(op: u8) -> bool {
    op & 0xc7 == 0x03
}

/// Decides, from the instruction bytes before `off`, whether a GOTPCRELX-family reference can
/// be rewritten, mirroring lld's `adjustGotPcExpr`. The caller must already know the symbol
/// qualifies (see the module docs). Requirements: `r_type` is `R_X86_64_GOTPCRELX`,
/// `R_X86_64_REX_GOTPCRELX` or `R_X86_64_CODE_4_GOTPCRELX` and `addend` is -4 (GNU as emits
/// GOTPCRELX with other addends for loads of part of a slot, which cannot be relaxed).
/// `mov`, `call` and `jmp` relax for any output; the `test`/ALU forms only for the REX types and
/// only when `is_pic` (`-pie` or `-shared`) is false, since they turn the address into an
/// absolute immediate. Never reads outside `section`.
pub fn can_relax_gotpcrelx(
    section: &[u8],
    off: usize,
    r_type: u32,
    addend: i64,
    is_pic: bool,
) -> Option<GotRelax> {
    let has_rex = match r_type {
        R_X86_64_GOTPCRELX => false,
        R_X86_64_REX_GOTPCRELX | R_X86_64_CODE_4_GOTPCRELX => true,
        _ => return None,
    };
    if addend != -4 || need(section, off, 2, 4, r_type).is_err() {
        return None;
    }
    let op = section[off - 2];
    let modrm = section[off - 1];
    match (op, modrm) {
        // lld does not look at the ModRM byte of a mov: a GOTPCRELX mov is RIP-relative.
        (0x8b, _) => return Some(GotRelax::MovToLea),
        (0xff, 0x15) => return Some(GotRelax::CallToDirect),
        (0xff, 0x25) => return Some(GotRelax::JmpToDirect),
        _ => {}
    }
    // The immediate forms rewrite the REX byte too, and need a RIP-relative memory operand.
    if !has_rex || is_pic || off < 3 || modrm & 0xc7 != 0x05 {
        return None;
    }
    if op == 0x85 {
        Some(GotRelax::TestToImm)
    } else if is_alu_rm_opcode(op) {
        Some(GotRelax::BinopToImm)
    } else {
        None
    }
}

/// Moves the REX.R (and, for REX2, R4) bit to REX.B (B4): the register that was in ModRM.reg
/// moves to ModRM.rm when a memory operand becomes an immediate.
fn move_rex_r_to_b(prefix: u8, rex2: bool) -> u8 {
    let mask = if rex2 { 0x44 } else { 0x04 };
    (prefix & !mask) | ((prefix & mask) >> 2)
}

/// Performs the rewrite [`can_relax_gotpcrelx`] chose for the same bytes. `value` is S + A - P
/// for the PC-relative kinds and S + A for the immediate kinds (the -4 addend is compensated
/// here, as lld does). Fails with [`RelocError::OutOfRange`] if `!kind.fits(value)` — lld
/// never gets there because it falls back to the GOT first; so must the caller.
pub fn apply_gotpcrelx_relax(
    section: &mut [u8],
    off: usize,
    r_type: u32,
    kind: GotRelax,
    value: u64,
) -> Result<(), RelocError> {
    let before = if kind.is_absolute() { 3 } else { 2 };
    need(section, off, before, 4, r_type)?;
    if !kind.fits(value) {
        let shown = if kind.is_absolute() {
            value.wrapping_add(4)
        } else {
            value
        };
        return Err(RelocError::OutOfRange(RangeError {
            r_type,
            offset: off,
            value: shown as i64 as i128,
            min: i32::MIN.into(),
            max: i32::MAX as u64,
        }));
    }
    let rex2 = r_type == R_X86_64_CODE_4_GOTPCRELX;
    let op = section[off - 2];
    let modrm = section[off - 1];
    match kind {
        GotRelax::MovToLea => {
            section[off - 2] = 0x8d;
            put32(section, off, value);
        }
        GotRelax::CallToDirect => {
            // The ABI suggests `nop; call foo`; lld uses the addr32 prefix instead so the
            // result is one instruction and a return address stays where it was.
            section[off - 2] = 0x67;
            section[off - 1] = 0xe8;
            put32(section, off, value);
        }
        GotRelax::JmpToDirect => {
            // The jmp starts one byte earlier, so its displacement is one byte earlier and
            // measured from one byte earlier: value + 1. The freed last byte becomes a nop.
            section[off - 2] = 0xe9;
            put32(section, off - 1, value.wrapping_add(1));
            section[off + 3] = 0x90;
        }
        GotRelax::TestToImm => {
            // `85 /r` (test r/m, r) becomes `f7 /0 imm32` with the register in ModRM.rm.
            section[off - 1] = 0xc0 | ((modrm & 0x38) >> 3);
            section[off - 2] = 0xf7;
            section[off - 3] = move_rex_r_to_b(section[off - 3], rex2);
            put32(section, off, value.wrapping_add(4));
        }
        GotRelax::BinopToImm => {
            // `op r, r/m` becomes `81 /digit imm32`; the digit is the opcode's bits 3..5.
            section[off - 1] = 0xc0 | ((modrm & 0x38) >> 3) | (op & 0x38);
            section[off - 2] = 0x81;
            section[off - 3] = move_rex_r_to_b(section[off - 3], rex2);
            put32(section, off, value.wrapping_add(4));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// TLS relaxation
// ---------------------------------------------------------------------------------------------

/// The TLS model a code sequence is relaxed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlsRelax {
    /// Local-exec: the TP offset becomes an immediate.
    ToLe,
    /// Initial-exec: the TP offset is loaded from an IE GOT slot.
    ToIe,
}

/// lld's choice of TLS relaxation for a relocation: `None` means none (write the unrelaxed
/// value). `output_shared` is `-shared`; `preemptible` is whether the symbol can be preempted
/// (defined in a shared library, or exported with default visibility from a DSO being built).
/// `R_X86_64_DTPOFF32/64` are not rewrites and return `None`; see the module docs for their
/// value.
pub fn tls_relax_kind(r_type: u32, output_shared: bool, preemptible: bool) -> Option<TlsRelax> {
    if output_shared {
        return None;
    }
    match r_type {
        R_X86_64_TLSGD
        | R_X86_64_GOTPC32_TLSDESC
        | R_X86_64_CODE_4_GOTPC32_TLSDESC
        | R_X86_64_TLSDESC_CALL => Some(if preemptible {
            TlsRelax::ToIe
        } else {
            TlsRelax::ToLe
        }),
        R_X86_64_TLSLD => Some(TlsRelax::ToLe),
        R_X86_64_GOTTPOFF | R_X86_64_CODE_4_GOTTPOFF | R_X86_64_CODE_6_GOTTPOFF => {
            (!preemptible).then_some(TlsRelax::ToLe)
        }
        _ => None,
    }
}

/// The value [`apply_tls_relax`] wants for `r_type` relaxed to `to`: [`RelExpr::TpOff`]
/// (S + A - TP) for LE, [`RelExpr::GotTpOff`] (G + A - P with G the IE GOT slot) for IE, and
/// [`RelExpr::None`] (pass 0) for `R_X86_64_TLSLD` and `R_X86_64_TLSDESC_CALL`, whose rewrites
/// carry no value.
pub fn tls_relax_expr(r_type: u32, to: TlsRelax) -> RelExpr {
    match (r_type, to) {
        (R_X86_64_TLSLD | R_X86_64_TLSDESC_CALL, _) => RelExpr::None,
        (_, TlsRelax::ToLe) => RelExpr::TpOff,
        (_, TlsRelax::ToIe) => RelExpr::GotTpOff,
    }
}

/// Relaxes the TLS relocation at `off` to `to`, dispatching to the `relax_tls_*` primitives.
/// `value` is what [`tls_relax_expr`] names, computed with the relocation's own addend.
/// Returns how many of the *following* relocations the caller must drop (1 after a GD or LD
/// sequence: the call to `__tls_get_addr`; 0 otherwise).
pub fn apply_tls_relax(
    section: &mut [u8],
    off: usize,
    r_type: u32,
    to: TlsRelax,
    value: u64,
) -> Result<usize, RelocError> {
    match (r_type, to) {
        (R_X86_64_TLSGD, TlsRelax::ToLe) => relax_tls_gd_to_le(section, off, value),
        (R_X86_64_TLSGD, TlsRelax::ToIe) => relax_tls_gd_to_ie(section, off, value),
        (R_X86_64_TLSLD, TlsRelax::ToLe) => relax_tls_ld_to_le(section, off),
        (
            R_X86_64_GOTTPOFF | R_X86_64_CODE_4_GOTTPOFF | R_X86_64_CODE_6_GOTTPOFF,
            TlsRelax::ToLe,
        ) => relax_tls_ie_to_le(section, off, r_type, value).map(|()| 0),
        (R_X86_64_GOTPC32_TLSDESC | R_X86_64_CODE_4_GOTPC32_TLSDESC, TlsRelax::ToLe) => {
            relax_tlsdesc_to_le(section, off, r_type, value).map(|()| 0)
        }
        (R_X86_64_GOTPC32_TLSDESC | R_X86_64_CODE_4_GOTPC32_TLSDESC, TlsRelax::ToIe) => {
            relax_tlsdesc_to_ie(section, off, r_type, value).map(|()| 0)
        }
        (R_X86_64_TLSDESC_CALL, _) => relax_tlsdesc_call(section, off).map(|()| 0),
        (_, TlsRelax::ToLe) => Err(RelocError::Unsupported {
            r_type,
            offset: off,
            what: "relax to local-exec",
        }),
        (_, TlsRelax::ToIe) => Err(RelocError::Unsupported {
            r_type,
            offset: off,
            what: "relax to initial-exec",
        }),
    }
}

/// `mov %fs:0, %rax`: the first half of both GD rewrites.
const MOV_FS0_RAX: [u8; 9] = [0x64, 0x48, 0x8b, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00];

/// Checks the 16-byte general-dynamic sequence around an `R_X86_64_TLSGD` at `off`:
/// `66 48 8d 3d <off>` (data16 leaq x@tlsgd(%rip), %rdi) followed by either
/// `66 66 48 e8 <disp>` (data16 data16 rex64 call __tls_get_addr@PLT) or
/// `66 48 ff 15 <disp>` (data16 rex64 call *__tls_get_addr@GOTPCREL(%rip), the -fno-plt form).
fn check_gd_sequence(section: &[u8], off: usize) -> Result<(), RelocError> {
    need(section, off, 4, 12, R_X86_64_TLSGD)?;
    let lea_ok = section[off - 4..off] == [0x66, 0x48, 0x8d, 0x3d];
    let call = &section[off + 4..off + 8];
    let call_ok = call == [0x66, 0x66, 0x48, 0xe8] || call == [0x66, 0x48, 0xff, 0x15];
    if lea_ok && call_ok {
        Ok(())
    } else {
        Err(RelocError::BadInstruction {
            r_type: R_X86_64_TLSGD,
            offset: off - 4,
            message: "R_X86_64_TLSGD must be used in the general-dynamic sequence \
                      'data16 leaq x@tlsgd(%rip), %rdi; data16 data16 rex64 call \
                      __tls_get_addr@PLT' (or 'data16 rex64 call \
                      *__tls_get_addr@GOTPCREL(%rip)')",
        })
    }
}

/// GD→LE for `R_X86_64_TLSGD` at `off`: the 16-byte sequence becomes
/// `mov %fs:0, %rax; lea x@tpoff(%rax), %rax`. `value` = S + A - TP with the TLSGD addend
/// (normally -4, which the +4 here undoes). Returns 1: drop the call's relocation.
pub fn relax_tls_gd_to_le(section: &mut [u8], off: usize, value: u64) -> Result<usize, RelocError> {
    check_gd_sequence(section, off)?;
    section[off - 4..off + 5].copy_from_slice(&MOV_FS0_RAX);
    section[off + 5..off + 8].copy_from_slice(&[0x48, 0x8d, 0x80]);
    put32(section, off + 8, value.wrapping_add(4));
    Ok(1)
}

/// GD→IE for `R_X86_64_TLSGD` at `off`: the sequence becomes
/// `mov %fs:0, %rax; addq x@gottpoff(%rip), %rax`. `value` = G + A - P (G = the IE GOT slot,
/// P = the TLSGD field); the displacement moves 8 bytes later, hence the -8. Returns 1.
pub fn relax_tls_gd_to_ie(section: &mut [u8], off: usize, value: u64) -> Result<usize, RelocError> {
    check_gd_sequence(section, off)?;
    section[off - 4..off + 5].copy_from_slice(&MOV_FS0_RAX);
    section[off + 5..off + 8].copy_from_slice(&[0x48, 0x03, 0x05]);
    put32(section, off + 8, value.wrapping_sub(8));
    Ok(1)
}

/// LD→LE for `R_X86_64_TLSLD` at `off`: `leaq x@tlsld(%rip), %rdi; call __tls_get_addr@PLT`
/// (12 bytes) or `...; call *__tls_get_addr@GOTPCREL(%rip)` (13 bytes) becomes
/// `mov %fs:0, %rax` padded in front with 0x66 prefixes. `%rax` then holds TP, which is why
/// DTPOFF relocations become TP-relative. Returns 1: drop the call's relocation.
pub fn relax_tls_ld_to_le(section: &mut [u8], off: usize) -> Result<usize, RelocError> {
    need(section, off, 3, 5, R_X86_64_TLSLD)?;
    let bad_call = RelocError::BadInstruction {
        r_type: R_X86_64_TLSLD,
        offset: off - 3,
        message: "expected R_X86_64_PLT32 or R_X86_64_GOTPCRELX after R_X86_64_TLSLD",
    };
    // The call after the lea: `e8 <disp>` or `ff 15 <disp>`.
    let call_len = match section[off + 4] {
        0xe8 => 5,
        0xff => {
            need(section, off, 3, 6, R_X86_64_TLSLD)?;
            if section[off + 5] != 0x15 {
                return Err(bad_call);
            }
            6
        }
        _ => return Err(bad_call),
    };
    need(section, off, 3, 4 + call_len, R_X86_64_TLSLD)?;
    if section[off - 3..off] != [0x48, 0x8d, 0x3d] {
        return Err(RelocError::BadInstruction {
            r_type: R_X86_64_TLSLD,
            offset: off - 3,
            message: "R_X86_64_TLSLD must be used in leaq x@tlsld(%rip), %rdi",
        });
    }
    // 7 bytes of lea + the call, filled by 0x66 prefixes and the 9-byte mov.
    let start = off - 3;
    let end = off + 4 + call_len;
    let pad = end - start - MOV_FS0_RAX.len();
    section[start..start + pad].fill(0x66);
    section[start + pad..end].copy_from_slice(&MOV_FS0_RAX);
    Ok(1)
}

/// IE→LE for the GOTTPOFF family at `off`, as lld's `relaxTlsIeToLe`. `value` = S + A - TP
/// with the relocation's addend (normally -4, undone here).
///
/// * `R_X86_64_GOTTPOFF`: `movq x@gottpoff(%rip), %reg` → `movq $x@tpoff, %reg`;
///   `addq x@gottpoff(%rip), %reg` → `leaq x@tpoff(%reg), %reg`, except for %rsp and %r12,
///   which become `addq $x@tpoff, %reg` because their `lea` needs a SIB byte and would not fit.
/// * `R_X86_64_CODE_4_GOTTPOFF` (REX2 prefix): `movq`/`addq` to the immediate forms.
/// * `R_X86_64_CODE_6_GOTTPOFF` (EVEX, APX NDD/NF `addq`): to `addq $x@tpoff, ...`.
pub fn relax_tls_ie_to_le(
    section: &mut [u8],
    off: usize,
    r_type: u32,
    value: u64,
) -> Result<(), RelocError> {
    match r_type {
        R_X86_64_GOTTPOFF => {
            need(section, off, 3, 4, r_type)?;
            let (prefix, op, modrm) = (section[off - 3], section[off - 2], section[off - 1]);
            let reg = modrm >> 3;
            let lea_modrm = 0x80 | (reg << 3) | reg;
            let new = match (prefix, op) {
                (0x48, 0x03) if modrm == 0x25 => [0x48, 0x81, 0xc4],
                (0x4c, 0x03) if modrm == 0x25 => [0x49, 0x81, 0xc4],
                (0x4c, 0x03) => [0x4d, 0x8d, lea_modrm],
                (0x48, 0x03) => [0x48, 0x8d, lea_modrm],
                (0x4c, 0x8b) => [0x49, 0xc7, 0xc0 | reg],
                (0x48, 0x8b) => [0x48, 0xc7, 0xc0 | reg],
                _ => {
                    return Err(RelocError::BadInstruction {
                        r_type,
                        offset: off - 3,
                        message: "R_X86_64_GOTTPOFF must be used in MOVQ or ADDQ instructions \
                                  only",
                    })
                }
            };
            section[off - 3..off].copy_from_slice(&new);
        }
        R_X86_64_CODE_4_GOTTPOFF => {
            need(section, off, 4, 4, r_type)?;
            if section[off - 4] != 0xd5 {
                return Err(RelocError::BadInstruction {
                    r_type,
                    offset: off - 4,
                    message: "invalid prefix with R_X86_64_CODE_4_GOTTPOFF!",
                });
            }
            let new_op = match section[off - 2] {
                0x8b => 0xc7,
                0x03 => 0x81,
                _ => {
                    return Err(RelocError::BadInstruction {
                        r_type,
                        offset: off - 4,
                        message: "R_X86_64_CODE_4_GOTTPOFF must be used in MOVQ or ADDQ \
                                  instructions only",
                    })
                }
            };
            let reg = section[off - 1] >> 3;
            section[off - 3] = move_rex_r_to_b(section[off - 3], true);
            section[off - 2] = new_op;
            section[off - 1] = 0xc0 | reg;
        }
        R_X86_64_CODE_6_GOTTPOFF => {
            need(section, off, 6, 4, r_type)?;
            if section[off - 6] != 0x62 {
                return Err(RelocError::BadInstruction {
                    r_type,
                    offset: off - 6,
                    message: "invalid prefix with R_X86_64_CODE_6_GOTTPOFF!",
                });
            }
            let (p0, p1, p2) = (section[off - 5], section[off - 4], section[off - 3]);
            let (op, modrm) = (section[off - 2], section[off - 1]);
            // EVEX map 4 with X3 clear; W=1, X4 clear, no mandatory prefix; ND or NF set;
            // opcode add r/m,r (01) or add r,r/m (03); RIP-relative operand.
            let ok = p0 & 0x47 == 0x44
                && p1 & 0x87 == 0x84
                && p2 & 0x14 != 0
                && (op == 0x01 || op == 0x03)
                && modrm & 0xc7 == 0x05;
            if !ok {
                return Err(RelocError::BadInstruction {
                    r_type,
                    offset: off - 6,
                    message: "R_X86_64_CODE_6_GOTTPOFF must be used in ADDQ instructions with \
                              NDD/NF/NDD+NF only",
                });
            }
            // The register moves from ModRM.reg to ModRM.rm, so EVEX's R3/R4 bits (stored
            // inverted in bits 7 and 4) move to B3 (inverted, bit 5) and B4 (bit 3). Both moves
            // apply; lld 22 keeps only the second for r24-r31 (see the module docs).
            let mut new_p0 = p0;
            if p0 & 0x80 == 0 {
                new_p0 = (new_p0 | 0x80) & !0x20;
            }
            if p0 & 0x10 == 0 {
                new_p0 |= 0x10 | 0x08;
            }
            section[off - 5] = new_p0;
            section[off - 2] = 0x81;
            section[off - 1] = 0xc0 | (modrm >> 3);
        }
        _ => {
            return Err(RelocError::Unsupported {
                r_type,
                offset: off,
                what: "relax initial-exec to local-exec",
            })
        }
    }
    put32(section, off, value.wrapping_add(4));
    Ok(())
}

/// Checks `leaq x@tlsdesc(%rip), %reg` (REX.W, optionally REX.R/R4, opcode 0x8d,
/// RIP-relative) before a GOTPC32_TLSDESC-family relocation, returning where lld reports a
/// mismatch: the instruction start, one byte earlier for the REX2 form.
fn check_tlsdesc_lea(section: &[u8], off: usize, r_type: u32) -> Result<(), RelocError> {
    let report = match r_type {
        R_X86_64_GOTPC32_TLSDESC => 3,
        R_X86_64_CODE_4_GOTPC32_TLSDESC => 4,
        _ => {
            return Err(RelocError::Unsupported {
                r_type,
                offset: off,
                what: "relax a TLS descriptor",
            })
        }
    };
    need(section, off, report, 4, r_type)?;
    if section[off - 3] & 0xfb == 0x48 && section[off - 2] == 0x8d && section[off - 1] & 0xc7 == 5 {
        Ok(())
    } else {
        Err(RelocError::BadInstruction {
            r_type,
            offset: off - report,
            message: "R_X86_64_GOTPC32_TLSDESC/R_X86_64_CODE_4_GOTPC32_TLSDESC must be used in \
                      leaq x@tlsdesc(%rip), %REG",
        })
    }
}

/// TLSDESC→LE for `R_X86_64_GOTPC32_TLSDESC`/`R_X86_64_CODE_4_GOTPC32_TLSDESC` at `off`:
/// `leaq x@tlsdesc(%rip), %reg` → `movq $x@tpoff, %reg`. `value` = S + A - TP (A normally -4,
/// undone here). The matching `R_X86_64_TLSDESC_CALL` needs [`relax_tlsdesc_call`].
pub fn relax_tlsdesc_to_le(
    section: &mut [u8],
    off: usize,
    r_type: u32,
    value: u64,
) -> Result<(), RelocError> {
    check_tlsdesc_lea(section, off, r_type)?;
    let prefix = section[off - 3];
    section[off - 3] = if r_type == R_X86_64_GOTPC32_TLSDESC {
        0x48 | ((prefix >> 2) & 1)
    } else {
        move_rex_r_to_b(prefix, true)
    };
    section[off - 2] = 0xc7;
    section[off - 1] = 0xc0 | ((section[off - 1] >> 3) & 7);
    put32(section, off, value.wrapping_add(4));
    Ok(())
}

/// TLSDESC→IE for the GOTPC32_TLSDESC family at `off`: `leaq x@tlsdesc(%rip), %reg` →
/// `movq x@gottpoff(%rip), %reg`. `value` = G + A - P with G the IE GOT slot. The matching
/// `R_X86_64_TLSDESC_CALL` needs [`relax_tlsdesc_call`].
pub fn relax_tlsdesc_to_ie(
    section: &mut [u8],
    off: usize,
    r_type: u32,
    value: u64,
) -> Result<(), RelocError> {
    check_tlsdesc_lea(section, off, r_type)?;
    section[off - 2] = 0x8b;
    put32(section, off, value);
    Ok(())
}

/// For `R_X86_64_TLSDESC_CALL` at `off` in a relaxed (IE or LE) sequence:
/// `call *x@tlscall(%rax)` (`ff 10`) → `xchg %ax, %ax` (`66 90`), since `%rax` already holds
/// the TP offset. Like lld, only the two bytes at `off` are rewritten.
pub fn relax_tlsdesc_call(section: &mut [u8], off: usize) -> Result<(), RelocError> {
    need(section, off, 0, 2, R_X86_64_TLSDESC_CALL)?;
    section[off..off + 2].copy_from_slice(&[0x66, 0x90]);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// PLT
// ---------------------------------------------------------------------------------------------

fn plt_buf<'a>(buf: &'a mut [u8], size: usize, what: &str) -> crate::error::Result<&'a mut [u8]> {
    let len = buf.len();
    buf.get_mut(..size)
        .ok_or_else(|| crate::err!("{what} needs {size} bytes but the buffer has {len}"))
}

/// Writes the lazy PLT header lld uses without IBT:
/// `pushq GOTPLT+8(%rip); jmp *GOTPLT+16(%rip); nopl 0(%rax)` (16 bytes). `plt_addr` is the
/// header's address, `gotplt_addr` the start of `.got.plt`. Displacements are truncated to 32
/// bits without a check, as lld does.
pub fn write_plt_header(
    buf: &mut [u8],
    plt_addr: u64,
    gotplt_addr: u64,
) -> crate::error::Result<()> {
    let b = plt_buf(buf, PLT_HEADER_SIZE, "the PLT header")?;
    b.copy_from_slice(&[
        0xff, 0x35, 0, 0, 0, 0, // pushq GOTPLT+8(%rip)
        0xff, 0x25, 0, 0, 0, 0, // jmp *GOTPLT+16(%rip)
        0x0f, 0x1f, 0x40, 0x00, // nopl 0(%rax)
    ]);
    put_rel32(b, 2, gotplt_addr.wrapping_add(8), plt_addr.wrapping_add(6));
    put_rel32(
        b,
        8,
        gotplt_addr.wrapping_add(16),
        plt_addr.wrapping_add(12),
    );
    Ok(())
}

/// Writes one lazy PLT entry: `jmp *slot(%rip); pushq $index; jmp plt0` (16 bytes).
/// `entry_addr` is the entry's address, `got_slot_addr` its `.got.plt` slot (which initially
/// holds [`gotplt_lazy_value`]), `plt_addr` the PLT header's address and `index` the entry's
/// position in `.rela.plt` (0 for the first entry).
pub fn write_plt_entry(
    buf: &mut [u8],
    entry_addr: u64,
    got_slot_addr: u64,
    plt_addr: u64,
    index: u32,
) -> crate::error::Result<()> {
    let b = plt_buf(buf, PLT_ENTRY_SIZE, "a PLT entry")?;
    b.copy_from_slice(&[
        0xff, 0x25, 0, 0, 0, 0, // jmp *slot(%rip)
        0x68, 0, 0, 0, 0, // pushq $index
        0xe9, 0, 0, 0, 0, // jmp plt0
    ]);
    put_rel32(b, 2, got_slot_addr, entry_addr.wrapping_add(6));
    put32(b, 7, u64::from(index));
    put_rel32(b, 12, plt_addr, entry_addr.wrapping_add(16));
    Ok(())
}

/// Writes one `.iplt` entry (the call target for an IFUNC in an executable, static or
/// dynamic). lld writes these with the same code as lazy PLT entries, including the
/// never-taken lazy tail: `jmp *slot(%rip); pushq $index; jmp plt0`. `got_slot_addr` is the
/// entry's slot in `.got.plt`'s IFUNC part (filled at startup by its `R_X86_64_IRELATIVE`),
/// `index` is the entry's position within `.iplt` (counting from 0), and `plt_addr` is the
/// address of `.plt` — **0 when the output has no `.plt`**, as in a typical static
/// executable, so the tail then jumps to address 0 exactly as in lld's output.
pub fn write_iplt_entry(
    buf: &mut [u8],
    entry_addr: u64,
    got_slot_addr: u64,
    plt_addr: u64,
    index: u32,
) -> crate::error::Result<()> {
    write_plt_entry(buf, entry_addr, got_slot_addr, plt_addr, index)
}

/// The initial content of a lazy PLT entry's `.got.plt` slot: the address of the entry's
/// `pushq`, so the first call falls through to the resolver.
pub fn gotplt_lazy_value(plt_entry_addr: u64) -> u64 {
    plt_entry_addr.wrapping_add(6)
}

/// Writes the 24-byte `.got.plt` header: `_DYNAMIC`'s link-time address (0 without
/// `.dynamic`), then two zero slots that ld.so fills.
pub fn write_gotplt_header(buf: &mut [u8], dynamic_addr: u64) -> crate::error::Result<()> {
    let b = plt_buf(buf, GOTPLT_HEADER_SIZE, "the .got.plt header")?;
    b.fill(0);
    b[..8].copy_from_slice(&dynamic_addr.to_le_bytes());
    Ok(())
}

/// The PLT layouts lld has on x86-64; one is chosen per link ([`PltStyle::choose`]), and it
/// shapes `.plt`, `.plt.sec`, `.iplt` and the initial `.got.plt` slots.
///
/// "The PLT" below is what calls go to and what lld names `in.plt`: `.plt`, or `.plt.sec` when
/// the output claims IBT. Its entry `i` sits at `header_size() + i * entry_size()`, and `.iplt`
/// entries have the same size and form as its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PltStyle {
    /// The classic lazy PLT: a 16-byte header, 16-byte entries ([`write_plt_header`],
    /// [`write_plt_entry`]).
    Lazy,
    /// Indirect Branch Tracking (every input object has `GNU_PROPERTY_X86_FEATURE_1_IBT`, or
    /// `-z force-ibt`): every indirect-branch target starts with `endbr64`, which does not fit
    /// in 16 bytes with the lazy code, so each entry is split in two. The PLT (`.plt.sec`, no
    /// header) holds `endbr64; jmp *slot(%rip)`; the lazy halves go to a `.plt` of their own
    /// ([`write_ibt_lazy_plt`]) where the `.got.plt` slots initially point.
    Ibt,
    /// `-z retpolineplt`: no indirect branch at all (Spectre v2). An entry loads its slot into
    /// `%r11` and calls a header thunk that swaps the return address for `%r11` and returns to
    /// it, behind a speculation trap; the lazy part pushes the index and jumps to the header,
    /// which does the same with ld.so's resolver. 48-byte header, 32-byte entries.
    Retpoline,
    /// `-z retpolineplt -z now`: no lazy part, so no push and no resolver call: a 32-byte
    /// header (the thunk alone) and 16-byte entries; `.got.plt` slots start at zero.
    RetpolineNow,
}

/// `endbr64`.
const ENDBR64: [u8; 4] = [0xf3, 0x0f, 0x1e, 0xfa];

impl PltStyle {
    /// lld's choice: the retpoline target wins over IBT (the two options together are refused,
    /// but IBT inputs with `-z retpolineplt` are not).
    pub fn choose(retpoline: bool, z_now: bool, ibt: bool) -> PltStyle {
        match (retpoline, z_now, ibt) {
            (true, true, _) => PltStyle::RetpolineNow,
            (true, false, _) => PltStyle::Retpoline,
            (false, _, true) => PltStyle::Ibt,
            (false, _, false) => PltStyle::Lazy,
        }
    }

    /// Size of the PLT's header.
    pub fn header_size(self) -> u64 {
        match self {
            PltStyle::Lazy => 16,
            PltStyle::Ibt => 0,
            PltStyle::Retpoline => 48,
            PltStyle::RetpolineNow => 32,
        }
    }

    /// Size of one PLT entry, one `.iplt` entry, and one lazy half in the IBT `.plt`.
    pub fn entry_size(self) -> u64 {
        match self {
            PltStyle::Retpoline => 32,
            PltStyle::Lazy | PltStyle::Ibt | PltStyle::RetpolineNow => 16,
        }
    }

    /// The PLT's header (nothing for IBT, whose PLT has none). `plt_addr` is the PLT's address,
    /// `gotplt_addr` the start of `.got.plt`.
    pub fn write_header(
        self,
        buf: &mut [u8],
        plt_addr: u64,
        gotplt_addr: u64,
    ) -> crate::error::Result<()> {
        match self {
            PltStyle::Lazy => write_plt_header(buf, plt_addr, gotplt_addr),
            PltStyle::Ibt => Ok(()),
            PltStyle::Retpoline => {
                let b = plt_buf(buf, 48, "the retpoline PLT header")?;
                // Lazy binding: push GOTPLT+8 (the module) and load the resolver, GOTPLT+16,
                // into %r11, then fall into the thunk at +0x0d.
                b[..13].copy_from_slice(&[0xff, 0x35, 0, 0, 0, 0, 0x4c, 0x8b, 0x1d, 0, 0, 0, 0]);
                put_rel32(b, 2, gotplt_addr.wrapping_add(8), plt_addr.wrapping_add(6));
                put_rel32(
                    b,
                    9,
                    gotplt_addr.wrapping_add(16),
                    plt_addr.wrapping_add(13),
                );
                b[13..].copy_from_slice(&retpoline_thunk(0x20 - 13, 48 - 13));
                Ok(())
            }
            PltStyle::RetpolineNow => {
                let b = plt_buf(buf, 32, "the retpoline PLT header")?;
                b.copy_from_slice(&retpoline_thunk(0x10, 32));
                Ok(())
            }
        }
    }

    /// PLT or `.iplt` entry `index` at `entry_addr`, reading its target from `slot_addr`.
    /// `plt_addr` is the PLT's address (the header the retpoline and lazy entries jump to; 0
    /// when a lazy-style `.iplt` has no PLT, as in a static executable, where lld's never-taken
    /// jump goes to address 0). `index` is the entry's place in `.rela.plt`, or in `.iplt`.
    pub fn write_entry(
        self,
        buf: &mut [u8],
        entry_addr: u64,
        slot_addr: u64,
        plt_addr: u64,
        index: u32,
    ) -> crate::error::Result<()> {
        match self {
            PltStyle::Lazy => write_plt_entry(buf, entry_addr, slot_addr, plt_addr, index),
            PltStyle::Ibt => {
                let b = plt_buf(buf, 16, "an IBT PLT entry")?;
                b[..4].copy_from_slice(&ENDBR64);
                // jmp *slot(%rip), then a 6-byte nop to the end of the entry.
                b[4..].copy_from_slice(&[0xff, 0x25, 0, 0, 0, 0, 0x66, 0x0f, 0x1f, 0x44, 0, 0]);
                put_rel32(b, 6, slot_addr, entry_addr.wrapping_add(10));
                Ok(())
            }
            PltStyle::Retpoline => {
                let b = plt_buf(buf, 32, "a retpoline PLT entry")?;
                b.copy_from_slice(&[
                    0x4c, 0x8b, 0x1d, 0, 0, 0, 0, // mov slot(%rip), %r11
                    0xe8, 0, 0, 0, 0, // call the thunk's return-address swap (PLT+0x20)
                    0xe9, 0, 0, 0, 0, // jmp the thunk's speculation trap (PLT+0x12)
                    0x68, 0, 0, 0, 0, // pushq index (where the slot initially points)
                    0xe9, 0, 0, 0, 0, // jmp PLT header
                    0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
                ]);
                put_rel32(b, 3, slot_addr, entry_addr.wrapping_add(7));
                put_rel32(
                    b,
                    8,
                    plt_addr.wrapping_add(0x20),
                    entry_addr.wrapping_add(12),
                );
                put_rel32(
                    b,
                    13,
                    plt_addr.wrapping_add(0x12),
                    entry_addr.wrapping_add(17),
                );
                put32(b, 18, u64::from(index));
                put_rel32(b, 23, plt_addr, entry_addr.wrapping_add(27));
                Ok(())
            }
            PltStyle::RetpolineNow => {
                let b = plt_buf(buf, 16, "a retpoline PLT entry")?;
                b.copy_from_slice(&[
                    0x4c, 0x8b, 0x1d, 0, 0, 0, 0, // mov slot(%rip), %r11
                    0xe9, 0, 0, 0, 0, // jmp the header's thunk
                    0xcc, 0xcc, 0xcc, 0xcc,
                ]);
                put_rel32(b, 3, slot_addr, entry_addr.wrapping_add(7));
                put_rel32(b, 8, plt_addr, entry_addr.wrapping_add(12));
                Ok(())
            }
        }
    }

    /// The initial content of PLT entry `index`'s `.got.plt` slot (lazy binding sends the first
    /// call to the code that pushes the index): `entry_addr` is the PLT entry's address,
    /// `lazy_plt_addr` the IBT `.plt`'s.
    pub fn gotplt_value(self, entry_addr: u64, lazy_plt_addr: u64, index: u32) -> u64 {
        match self {
            PltStyle::Lazy => gotplt_lazy_value(entry_addr),
            PltStyle::Ibt => lazy_plt_addr.wrapping_add(16 + u64::from(index) * 16),
            // The entry's `pushq`.
            PltStyle::Retpoline => entry_addr.wrapping_add(17),
            // Nothing lazy: ld.so fills every slot before the program runs.
            PltStyle::RetpolineNow => 0,
        }
    }
}

/// The retpoline thunk both retpoline headers end with, starting with the call into it:
/// `call swap; trap: pause; lfence; jmp trap; int3...; swap: mov %r11, (%rsp); ret; int3...`.
/// `swap` is the offset of the swap from the call, `len` the length of the result.
fn retpoline_thunk(swap: usize, len: usize) -> Vec<u8> {
    let mut v = vec![0xcc; len];
    // `call swap` is 5 bytes long: its displacement counts from its end.
    v[..5].copy_from_slice(&[0xe8, (swap - 5) as u8, 0, 0, 0]);
    // The trap speculation falls into: pause; lfence; jmp back to the pause.
    v[5..12].copy_from_slice(&[0xf3, 0x90, 0x0f, 0xae, 0xe8, 0xeb, 0xf9]);
    // Replace the return address with the target and "return" to it.
    v[swap..swap + 5].copy_from_slice(&[0x4c, 0x89, 0x1c, 0x24, 0xc3]);
    v
}

/// The IBT `.plt`: the lazy header ([`write_plt_header`], with `lazy_plt_addr` as the PLT),
/// then for each of the `count` entries the lazy half, where its `.got.plt` slot initially
/// points: `endbr64; pushq index; jmp header; nop` (16 bytes).
pub fn write_ibt_lazy_plt(
    buf: &mut [u8],
    lazy_plt_addr: u64,
    gotplt_addr: u64,
    count: usize,
) -> crate::error::Result<()> {
    let len = buf.len();
    let need = 16 + count * 16;
    let buf = buf
        .get_mut(..need)
        .ok_or_else(|| crate::err!("the IBT .plt needs {need} bytes but the buffer has {len}"))?;
    write_plt_header(buf, lazy_plt_addr, gotplt_addr)?;
    for (i, b) in buf[16..].chunks_exact_mut(16).enumerate() {
        let at = lazy_plt_addr.wrapping_add(16 + i as u64 * 16);
        b[..4].copy_from_slice(&ENDBR64);
        b[4..].copy_from_slice(&[0x68, 0, 0, 0, 0, 0xe9, 0, 0, 0, 0, 0x66, 0x90]);
        put32(b, 5, i as u64);
        put_rel32(b, 10, lazy_plt_addr, at.wrapping_add(14));
    }
    Ok(())
}

#[cfg(test)]
mod tests;

/// Integration-style checks: assemble real code with clang-22, link it with ld.lld-22, then
/// redo every relocation with this module (using addresses read from lld's output) and compare
/// the bytes. The tools are part of the project's toolchain, so a missing one fails the test.
#[cfg(test)]
mod lld_compare;
