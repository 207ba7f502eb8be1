//! The `.eh_frame` and `.eh_frame_hdr` formats, as pure functions over bytes.
//!
//! The pipeline owns symbols, relocations and layout; this module only knows how records are laid
//! out, so every function here takes byte slices and plain addresses. Everything is little-endian
//! x86-64 (8-byte `DW_EH_PE_absptr`), and every read is bounds-checked: hostile input gives an
//! error value, never a panic.
//!
//! Behaviour follows lld 22 (`EhInputSection::split`, `EhReader` in EhFrame.cpp,
//! `EhFrameSection::getFdeData` and `EhFrameHeader::write`), including its error wording.

use std::fmt;

use crate::err;
use crate::error::{Error, Result};

/// `DW_EH_PE_absptr`: a pointer-sized (8-byte) absolute value. Also the "no application" value.
pub const DW_EH_PE_ABSPTR: u8 = 0x00;
/// `DW_EH_PE_uleb128`.
pub const DW_EH_PE_ULEB128: u8 = 0x01;
/// `DW_EH_PE_udata2`.
pub const DW_EH_PE_UDATA2: u8 = 0x02;
/// `DW_EH_PE_udata4`.
pub const DW_EH_PE_UDATA4: u8 = 0x03;
/// `DW_EH_PE_udata8`.
pub const DW_EH_PE_UDATA8: u8 = 0x04;
/// `DW_EH_PE_signed`: a pointer-sized signed value.
pub const DW_EH_PE_SIGNED: u8 = 0x08;
/// `DW_EH_PE_sleb128`.
pub const DW_EH_PE_SLEB128: u8 = 0x09;
/// `DW_EH_PE_sdata2`.
pub const DW_EH_PE_SDATA2: u8 = 0x0a;
/// `DW_EH_PE_sdata4`.
pub const DW_EH_PE_SDATA4: u8 = 0x0b;
/// `DW_EH_PE_sdata8`.
pub const DW_EH_PE_SDATA8: u8 = 0x0c;
/// `DW_EH_PE_pcrel`: relative to the address of the field itself.
pub const DW_EH_PE_PCREL: u8 = 0x10;
/// `DW_EH_PE_textrel`.
pub const DW_EH_PE_TEXTREL: u8 = 0x20;
/// `DW_EH_PE_datarel`: relative to a data base (the start of `.eh_frame_hdr` in its table).
pub const DW_EH_PE_DATAREL: u8 = 0x30;
/// `DW_EH_PE_funcrel`.
pub const DW_EH_PE_FUNCREL: u8 = 0x40;
/// `DW_EH_PE_aligned`.
pub const DW_EH_PE_ALIGNED: u8 = 0x50;
/// `DW_EH_PE_indirect`: the decoded value is the address of the real pointer.
pub const DW_EH_PE_INDIRECT: u8 = 0x80;
/// `DW_EH_PE_omit`: the value is absent.
pub const DW_EH_PE_OMIT: u8 = 0xff;

/// Offset of an FDE's `pc_begin` field from the start of the record (length field, CIE pointer).
pub const FDE_PC_BEGIN_OFFSET: usize = 8;

/// Offset of an FDE's `pc_begin` field from the start of the record; see [`FDE_PC_BEGIN_OFFSET`].
pub const fn fde_pc_begin_offset() -> usize {
    FDE_PC_BEGIN_OFFSET
}

/// Size of the fixed part of `.eh_frame_hdr` (version, three encodings, `eh_frame_ptr`,
/// `fde_count`).
pub const EH_FRAME_HDR_HEADER_SIZE: u64 = 12;

/// An error found in an input `.eh_frame` section.
///
/// lld words these differently depending on what went wrong, and both shapes need the caller's
/// names for the file and section, so the error stays structured until the caller adds them with
/// [`EhError::into_error`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EhError {
    /// lld: `corrupted .eh_frame: {msg}` then `>>> defined in {location of offset}`.
    Corrupted {
        /// Offset of the offending byte, from the start of the section (or of the record, for
        /// the record-level parsers; see [`EhError::shifted`]).
        offset: u64,
        /// lld's text after `corrupted .eh_frame: `.
        msg: String,
    },
    /// lld: `{section}: invalid CIE reference`. An FDE's CIE pointer does not lead to the start
    /// of a CIE in the same section.
    InvalidCieReference {
        /// Offset of the FDE, from the start of the section.
        offset: u64,
    },
}

/// Result of the input-parsing functions in this module.
pub type EhResult<T> = std::result::Result<T, EhError>;

impl EhError {
    fn corrupted(offset: usize, msg: impl Into<String>) -> Self {
        EhError::Corrupted {
            offset: offset as u64,
            msg: msg.into(),
        }
    }

    /// The offset the error points at.
    pub fn offset(&self) -> u64 {
        match self {
            EhError::Corrupted { offset, .. } | EhError::InvalidCieReference { offset } => *offset,
        }
    }

    /// Moves the offset by `base`: [`parse_cie`] and [`parse_fde`] see one record and report
    /// offsets within it, so add the record's [`EhRecord::offset`] to get a section offset.
    pub fn shifted(self, base: u64) -> Self {
        match self {
            EhError::Corrupted { offset, msg } => EhError::Corrupted {
                offset: offset.saturating_add(base),
                msg,
            },
            EhError::InvalidCieReference { offset } => EhError::InvalidCieReference {
                offset: offset.saturating_add(base),
            },
        }
    }

    /// Builds the final error with lld's wording. `section` is how lld prints the input section
    /// (`file.o:(.eh_frame)`); `obj_msg` is lld's `getObjMsg` for a section offset
    /// (`file.o:(.eh_frame+0x10)`, or the enclosing symbol, plus ` in archive X`).
    pub fn into_error(self, section: &str, obj_msg: impl FnOnce(u64) -> String) -> Error {
        match self {
            EhError::Corrupted { offset, msg } => err!(
                "corrupted .eh_frame: {msg}\n>>> defined in {}",
                obj_msg(offset)
            ),
            EhError::InvalidCieReference { .. } => err!("{section}: invalid CIE reference"),
        }
    }
}

impl fmt::Display for EhError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EhError::Corrupted { offset, msg } => {
                write!(f, "corrupted .eh_frame: {msg} (at offset 0x{offset:x})")
            }
            EhError::InvalidCieReference { offset } => {
                write!(f, "invalid CIE reference (FDE at offset 0x{offset:x})")
            }
        }
    }
}

impl std::error::Error for EhError {}

/// What a record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EhRecordKind {
    /// A Common Information Entry (CIE id 0).
    Cie,
    /// A Frame Description Entry.
    Fde {
        /// Offset, in the same section, of the CIE this FDE uses (from its CIE pointer, which
        /// counts back from the pointer field itself). Always the offset of a CIE in the result
        /// of [`split_eh_frame`].
        cie_offset: u32,
    },
}

/// One CIE or FDE in an `.eh_frame` section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EhRecord {
    /// Offset of the record (its length field) in the section.
    pub offset: u32,
    /// Size of the whole record, including the 4-byte length field.
    pub size: u32,
    /// CIE or FDE.
    pub kind: EhRecordKind,
}

impl EhRecord {
    /// The record's bytes within `section` (the slice it was split from). Empty if the record
    /// does not fit, which only happens when given a different section.
    pub fn bytes<'a>(&self, section: &'a [u8]) -> &'a [u8] {
        let start = self.offset as usize;
        start
            .checked_add(self.size as usize)
            .and_then(|end| section.get(start..end))
            .unwrap_or(&[])
    }

    /// Whether this is a CIE.
    pub fn is_cie(&self) -> bool {
        self.kind == EhRecordKind::Cie
    }

    /// One past the last byte of the record.
    pub fn end(&self) -> u64 {
        u64::from(self.offset) + u64::from(self.size)
    }
}

fn read_u32_at(data: &[u8], at: usize) -> Option<u32> {
    let end = at.checked_add(4)?;
    let bytes: [u8; 4] = data.get(at..end)?.try_into().ok()?;
    Some(u32::from_le_bytes(bytes))
}

/// Splits an input `.eh_frame` section into CIE and FDE records, like lld's
/// `EhInputSection::split`.
///
/// A zero length field is the terminator: splitting stops there even mid-section and the rest is
/// ignored, as lld does. 64-bit DWARF records (length `0xffffffff`) are rejected ("CIE/FDE too
/// large"). Each FDE's CIE pointer must lead to a CIE of this section, else
/// [`EhError::InvalidCieReference`] (lld checks this when adding the section to the output).
pub fn split_eh_frame(data: &[u8]) -> EhResult<Vec<EhRecord>> {
    // Offsets are u32 everywhere else in the linker; an input section that big is corrupt anyway.
    if u32::try_from(data.len()).is_err() {
        return Err(EhError::corrupted(0, "section is larger than 4 GiB"));
    }
    let mut records = Vec::new();
    let mut off = 0usize;
    while off < data.len() {
        let rest = &data[off..];
        let Some(len) = read_u32_at(rest, 0) else {
            return Err(EhError::corrupted(off, "CIE/FDE too small"));
        };
        if len == 0 {
            break; // ZERO terminator
        }
        if len == u32::MAX {
            // The next 8 bytes would hold a 64-bit length; lld does not support that format.
            return Err(EhError::corrupted(off, "CIE/FDE too large"));
        }
        let size = (len as usize).saturating_add(4);
        if size > rest.len() {
            return Err(EhError::corrupted(
                off,
                "CIE/FDE ends past the end of the section",
            ));
        }
        // A record must at least hold its CIE id / CIE pointer. (lld reads those 4 bytes
        // unconditionally; here a shorter record is an error rather than an overread.)
        let Some(id) = read_u32_at(rest, 4).filter(|_| len >= 4) else {
            return Err(EhError::corrupted(off, "CIE/FDE too small"));
        };
        let kind = if id == 0 {
            EhRecordKind::Cie
        } else {
            // The CIE pointer counts back from its own position (record offset + 4).
            match (off + 4).checked_sub(id as usize) {
                Some(cie) => EhRecordKind::Fde {
                    cie_offset: cie as u32,
                },
                None => return Err(EhError::InvalidCieReference { offset: off as u64 }),
            }
        };
        records.push(EhRecord {
            offset: off as u32,
            size: size as u32,
            kind,
        });
        off += size;
    }

    // Records are in offset order, so the CIE offsets are sorted and can be binary-searched.
    let cie_offsets: Vec<u32> = records
        .iter()
        .filter(|r| r.is_cie())
        .map(|r| r.offset)
        .collect();
    for r in &records {
        if let EhRecordKind::Fde { cie_offset } = r.kind {
            if cie_offsets.binary_search(&cie_offset).is_err() {
                return Err(EhError::InvalidCieReference {
                    offset: u64::from(r.offset),
                });
            }
        }
    }
    Ok(records)
}

/// What a CIE says about the FDEs that use it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CieInfo {
    /// CIE version: 1 or 3.
    pub version: u8,
    /// The augmentation string, without its NUL.
    pub augmentation: Vec<u8>,
    /// Code alignment factor.
    pub code_alignment_factor: u64,
    /// Data alignment factor.
    pub data_alignment_factor: i64,
    /// Return address register.
    pub return_address_register: u64,
    /// `z`: an augmentation data length follows, and FDEs carry augmentation data too.
    pub has_augmentation_data: bool,
    /// Length of the CIE's augmentation data (0 without `z`).
    pub augmentation_data_len: u64,
    /// `R`: the encoding of FDE `pc_begin`/`pc_range`; `DW_EH_PE_absptr` when absent.
    pub fde_encoding: u8,
    /// `L`: the encoding of the LSDA pointer in FDEs' augmentation data.
    pub lsda_encoding: Option<u8>,
    /// `P`: the encoding of the personality pointer.
    pub personality_encoding: Option<u8>,
    /// `P`: offset of the personality pointer within the record (its relocation applies there).
    pub personality_offset: Option<u32>,
    /// `S`: a signal frame.
    pub is_signal_frame: bool,
    /// `B`: AArch64 pointer authentication with the B key (accepted because lld accepts it).
    pub has_b_key: bool,
    /// `G`: MTE-tagged frame (accepted because lld accepts it).
    pub is_mte_tagged: bool,
    /// Offset within the record where the initial instructions start: after the augmentation
    /// data when `z` says how long it is, otherwise after the last field parsed.
    pub instructions_offset: u32,
}

impl CieInfo {
    /// Whether FDEs using this CIE carry an LSDA pointer.
    pub fn has_lsda(&self) -> bool {
        self.lsda_encoding.is_some_and(|e| e != DW_EH_PE_OMIT)
    }
}

/// Bounds-checked cursor over one record. Offsets in its errors are relative to the record.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    fn byte(&mut self, msg: &str) -> EhResult<u8> {
        let b = *self
            .data
            .get(self.pos)
            .ok_or_else(|| EhError::corrupted(self.pos, msg))?;
        self.pos += 1;
        Ok(b)
    }

    fn skip(&mut self, n: usize, msg: &str) -> EhResult<()> {
        if self.remaining() < n {
            return Err(EhError::corrupted(self.pos, msg));
        }
        self.pos += n;
        Ok(())
    }

    fn cstr(&mut self) -> EhResult<&'a [u8]> {
        let rest = self.data.get(self.pos..).unwrap_or(&[]);
        let Some(nul) = rest.iter().position(|&b| b == 0) else {
            return Err(EhError::corrupted(
                self.pos,
                "corrupted CIE (failed to read string)",
            ));
        };
        self.pos += nul + 1;
        Ok(&rest[..nul])
    }

    fn uleb(&mut self) -> EhResult<u64> {
        let start = self.pos;
        decode_uleb(self.data.get(self.pos..).unwrap_or(&[]))
            .map(|(v, n)| {
                self.pos += n;
                v
            })
            .ok_or_else(|| EhError::corrupted(start, "corrupted CIE (failed to read LEB128)"))
    }

    fn sleb(&mut self) -> EhResult<i64> {
        let start = self.pos;
        decode_sleb(self.data.get(self.pos..).unwrap_or(&[]))
            .map(|(v, n)| {
                self.pos += n;
                v
            })
            .ok_or_else(|| EhError::corrupted(start, "corrupted CIE (failed to read LEB128)"))
    }
}

/// Decodes an unsigned LEB128 value; bits beyond 64 are dropped (the linker only needs to skip
/// such fields, as lld does). Returns the value and the bytes consumed.
fn decode_uleb(data: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in data.iter().enumerate() {
        let shift = 7 * i as u32;
        if shift < 64 {
            value |= u64::from(b & 0x7f) << shift;
        }
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// Decodes a signed LEB128 value; see [`decode_uleb`].
fn decode_sleb(data: &[u8]) -> Option<(i64, usize)> {
    let mut value = 0i64;
    let mut shift = 0u32;
    for (i, &b) in data.iter().enumerate() {
        if shift < 64 {
            value |= i64::from(b & 0x7f) << shift;
        }
        shift = shift.saturating_add(7);
        if b & 0x80 == 0 {
            if shift < 64 && b & 0x40 != 0 {
                value |= -1i64 << shift;
            }
            return Some((value, i + 1));
        }
    }
    None
}

/// Size in bytes of a fixed-size `DW_EH_PE_*` value format (low nibble of `encoding`) on x86-64:
/// `None` for LEB128 and unknown formats.
pub fn encoded_size(encoding: u8) -> Option<usize> {
    match encoding & 0x0f {
        DW_EH_PE_ABSPTR | DW_EH_PE_SIGNED => Some(8),
        DW_EH_PE_UDATA2 | DW_EH_PE_SDATA2 => Some(2),
        DW_EH_PE_UDATA4 | DW_EH_PE_SDATA4 => Some(4),
        DW_EH_PE_UDATA8 | DW_EH_PE_SDATA8 => Some(8),
        _ => None,
    }
}

/// Parses a CIE record (the bytes of one [`EhRecord`] of kind `Cie`, length field included), the
/// way lld's `EhReader` does.
///
/// Accepts versions 1 and 3 and the augmentation letters lld accepts: `z`, `R`, `P`, `L`, `S`,
/// `B`, `G`, in any order. Anything else (including the old GCC `eh` augmentation, which lld also
/// rejects) is "unknown .eh_frame augmentation string". Error offsets are relative to the record;
/// use [`EhError::shifted`] with the record's offset.
pub fn parse_cie(record: &[u8]) -> EhResult<CieInfo> {
    let mut r = Reader {
        data: record,
        pos: 0,
    };
    r.skip(8, "CIE is too small")?;
    let version = r.byte("unexpected end of CIE")?;
    if version != 1 && version != 3 {
        return Err(EhError::corrupted(
            r.pos - 1,
            format!("FDE version 1 or 3 expected, but got {version}"),
        ));
    }
    let aug_pos = r.pos;
    let augmentation = r.cstr()?;
    let code_alignment_factor = r.uleb()?;
    let data_alignment_factor = r.sleb()?;
    // Version 1 stores the return address register in one byte, version 3 as ULEB128.
    let return_address_register = if version == 1 {
        u64::from(r.byte("unexpected end of CIE")?)
    } else {
        r.uleb()?
    };

    let mut info = CieInfo {
        version,
        augmentation: augmentation.to_vec(),
        code_alignment_factor,
        data_alignment_factor,
        return_address_register,
        has_augmentation_data: false,
        augmentation_data_len: 0,
        fde_encoding: DW_EH_PE_ABSPTR,
        lsda_encoding: None,
        personality_encoding: None,
        personality_offset: None,
        is_signal_frame: false,
        has_b_key: false,
        is_mte_tagged: false,
        instructions_offset: 0,
    };
    let mut aug_data_end = None;
    // The letters are not type-length-value records, so each one's operand must be understood
    // to reach the next.
    for &c in augmentation {
        match c {
            b'z' => {
                info.has_augmentation_data = true;
                info.augmentation_data_len = r.uleb()?;
                aug_data_end = usize::try_from(info.augmentation_data_len)
                    .ok()
                    .and_then(|n| r.pos.checked_add(n));
            }
            b'L' => info.lsda_encoding = Some(r.byte("unexpected end of CIE")?),
            b'R' => info.fde_encoding = r.byte("unexpected end of CIE")?,
            b'P' => {
                let enc = r.byte("unexpected end of CIE")?;
                if enc & 0xf0 == DW_EH_PE_ALIGNED {
                    return Err(EhError::corrupted(
                        r.pos - 1,
                        "DW_EH_PE_aligned encoding is not supported",
                    ));
                }
                let Some(size) = encoded_size(enc) else {
                    return Err(EhError::corrupted(r.pos - 1, "unknown FDE encoding"));
                };
                if size > r.remaining() {
                    return Err(EhError::corrupted(r.pos - 1, "corrupted CIE"));
                }
                info.personality_encoding = Some(enc);
                info.personality_offset = Some(r.pos as u32);
                r.pos += size;
            }
            b'S' => info.is_signal_frame = true,
            b'B' => info.has_b_key = true,
            b'G' => info.is_mte_tagged = true,
            _ => {
                return Err(EhError::corrupted(
                    aug_pos,
                    format!(
                        "unknown .eh_frame augmentation string: {}",
                        String::from_utf8_lossy(augmentation)
                    ),
                ))
            }
        }
    }
    // Prefer the length `z` gave: it skips augmentation data this parser did not need to read.
    let instr = aug_data_end
        .filter(|&end| end <= record.len())
        .unwrap_or(r.pos);
    info.instructions_offset = instr as u32;
    Ok(info)
}

/// What an FDE says, decoded with its CIE's encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FdeInfo {
    /// The first address covered, with the encoding's application resolved (for `pcrel`,
    /// relative to the field's address computed from `record_addr`).
    pub pc_begin: u64,
    /// The number of bytes covered (value format only; ranges are never relative). Zero means
    /// the FDE covers nothing.
    pub pc_range: u64,
    /// Size of the `pc_begin` field, which starts at [`FDE_PC_BEGIN_OFFSET`].
    pub pc_begin_size: u32,
    /// Offset within the record of the LSDA pointer, if the CIE has `L` and the FDE has
    /// augmentation data.
    pub lsda_offset: Option<u32>,
    /// Offset within the record where the call frame instructions start.
    pub instructions_offset: u32,
}

/// Parses an FDE record (bytes of one [`EhRecord`] of kind `Fde`) using its CIE's encodings.
/// `record_addr` is the record's address, used for `pcrel` values (pass the output address when
/// reading relocated output bytes; any value when only sizes and offsets matter). Error offsets
/// are relative to the record.
pub fn parse_fde(record: &[u8], cie: &CieInfo, record_addr: u64) -> EhResult<FdeInfo> {
    let at = FDE_PC_BEGIN_OFFSET;
    let field = record.get(at..).unwrap_or(&[]);
    let field_addr = record_addr.wrapping_add(at as u64);
    let (pc_begin, n) = decode_pointer(field, cie.fde_encoding, field_addr, None)
        .map_err(|msg| EhError::corrupted(at, msg))?;
    let mut pos = at + n;
    // pc_range uses the same value format but never an application.
    let (pc_range, m) = decode_pointer(
        record.get(pos..).unwrap_or(&[]),
        cie.fde_encoding & 0x0f,
        0,
        None,
    )
    .map_err(|msg| EhError::corrupted(pos, msg))?;
    pos += m;
    let mut lsda_offset = None;
    if cie.has_augmentation_data {
        let (len, k) = decode_uleb(record.get(pos..).unwrap_or(&[]))
            .ok_or_else(|| EhError::corrupted(pos, "corrupted FDE (failed to read LEB128)"))?;
        pos += k;
        let len = usize::try_from(len)
            .ok()
            .filter(|&l| l <= record.len().saturating_sub(pos))
            .ok_or_else(|| EhError::corrupted(pos, "FDE augmentation data is too long"))?;
        if cie.has_lsda() && len > 0 {
            lsda_offset = Some(pos as u32);
        }
        pos += len;
    }
    Ok(FdeInfo {
        pc_begin,
        pc_range,
        pc_begin_size: n as u32,
        lsda_offset,
        instructions_offset: pos as u32,
    })
}

/// Decodes one `DW_EH_PE_*`-encoded value at the start of `bytes`; returns the value and the
/// number of bytes it used. `field_addr` is the address of `bytes[0]` (for `pcrel`); `data_base`
/// is the base for `datarel` (the start of `.eh_frame_hdr` for its table). Errors are plain
/// messages so both error types can wrap them.
fn decode_pointer(
    bytes: &[u8],
    encoding: u8,
    field_addr: u64,
    data_base: Option<u64>,
) -> std::result::Result<(u64, usize), String> {
    if encoding == DW_EH_PE_OMIT {
        return Err("DW_EH_PE_omit value cannot be read".into());
    }
    if encoding & DW_EH_PE_INDIRECT != 0 {
        // The value would be the address of a pointer in memory the linker has not written.
        return Err("unknown FDE size relative encoding".into());
    }
    let truncated = || "encoded value is truncated".to_string();
    let fixed = |n: usize| bytes.get(..n).ok_or_else(truncated);
    let (value, size) = match encoding & 0x0f {
        DW_EH_PE_ABSPTR | DW_EH_PE_UDATA8 | DW_EH_PE_SIGNED | DW_EH_PE_SDATA8 => {
            let b: [u8; 8] = fixed(8)?.try_into().map_err(|_| truncated())?;
            (u64::from_le_bytes(b), 8)
        }
        DW_EH_PE_UDATA2 => {
            let b: [u8; 2] = fixed(2)?.try_into().map_err(|_| truncated())?;
            (u64::from(u16::from_le_bytes(b)), 2)
        }
        DW_EH_PE_SDATA2 => {
            let b: [u8; 2] = fixed(2)?.try_into().map_err(|_| truncated())?;
            (i16::from_le_bytes(b) as i64 as u64, 2)
        }
        DW_EH_PE_UDATA4 => {
            let b: [u8; 4] = fixed(4)?.try_into().map_err(|_| truncated())?;
            (u64::from(u32::from_le_bytes(b)), 4)
        }
        DW_EH_PE_SDATA4 => {
            let b: [u8; 4] = fixed(4)?.try_into().map_err(|_| truncated())?;
            (i32::from_le_bytes(b) as i64 as u64, 4)
        }
        DW_EH_PE_ULEB128 => decode_uleb(bytes).ok_or_else(truncated)?,
        DW_EH_PE_SLEB128 => decode_sleb(bytes)
            .map(|(v, n)| (v as u64, n))
            .ok_or_else(truncated)?,
        _ => return Err("unknown FDE size encoding".into()),
    };
    let value = match encoding & 0x70 {
        DW_EH_PE_ABSPTR => value,
        DW_EH_PE_PCREL => value.wrapping_add(field_addr),
        DW_EH_PE_DATAREL => match data_base {
            Some(base) => value.wrapping_add(base),
            None => return Err("unknown FDE size relative encoding".into()),
        },
        _ => return Err("unknown FDE size relative encoding".into()),
    };
    Ok((value, size))
}

/// Decodes a `DW_EH_PE_*`-encoded value at the start of `bytes`, whose address is `field_addr`.
///
/// Formats: absptr, udata2/4/8, sdata2/4/8, signed, uleb128, sleb128. Applications: absolute and
/// `pcrel` (`datarel` needs a base: use [`read_encoded_with_base`]). lld's wording for what it
/// cannot decode: "unknown FDE size encoding" / "unknown FDE size relative encoding".
pub fn read_encoded(bytes: &[u8], encoding: u8, field_addr: u64) -> Result<u64> {
    read_encoded_with_base(bytes, encoding, field_addr, None).map(|(v, _)| v)
}

/// Like [`read_encoded`], also resolving `datarel` against `data_base`, and returning the number
/// of bytes the value took.
pub fn read_encoded_with_base(
    bytes: &[u8],
    encoding: u8,
    field_addr: u64,
    data_base: Option<u64>,
) -> Result<(u64, usize)> {
    decode_pointer(bytes, encoding, field_addr, data_base).map_err(Error)
}

/// Size of `.eh_frame_hdr` for `fde_count` live FDEs. lld sizes the section before removing
/// FDEs with duplicate `pc_begin`, so pass the number of FDEs in the output `.eh_frame`; the
/// table may end with unused zeroed entries.
pub fn eh_frame_hdr_size(fde_count: usize) -> u64 {
    (fde_count as u64)
        .saturating_mul(8)
        .saturating_add(EH_FRAME_HDR_HEADER_SIZE)
}

/// The `datarel|sdata4` table value for `pc`: its offset from `.eh_frame_hdr`. Errors with lld's
/// "PC offset is too large: 0x..." (the caller may prefix the FDE's section, as lld does).
pub fn pc_offset(hdr_addr: u64, pc: u64) -> Result<i32> {
    let delta = pc.wrapping_sub(hdr_addr);
    i32::try_from(delta as i64).map_err(|_| err!("PC offset is too large: 0x{delta:x}"))
}

/// Builds the contents of `.eh_frame_hdr` at `hdr_addr` for the output `.eh_frame` at
/// `eh_frame_addr`. `entries` holds one `(pc_begin, FDE address)` per FDE in the output
/// `.eh_frame`; it is sorted in place.
///
/// Layout: version 1, `eh_frame_ptr` as `pcrel|sdata4`, `fde_count` as `udata4`, then the table
/// as `datarel|sdata4` pairs sorted by `pc_begin`. Like lld, FDEs sharing a `pc_begin` (ICF can
/// fold two functions into one) keep only the first in `.eh_frame` order, i.e. the lowest FDE
/// address, while the section keeps the size [`eh_frame_hdr_size`] of all entries (zero tail).
/// Any value that does not fit its signed 32-bit field is an error, never a wrap.
///
/// The table is sorted by the signed offset from `hdr_addr`, which is what unwinders binary-search
/// on; lld compares the offsets as unsigned, which only differs when code lies on both sides of
/// `.eh_frame_hdr`.
pub fn build_eh_frame_hdr(
    hdr_addr: u64,
    eh_frame_addr: u64,
    entries: &mut [(u64, u64)],
) -> Result<Vec<u8>> {
    let size = usize::try_from(eh_frame_hdr_size(entries.len()))
        .map_err(|_| err!(".eh_frame_hdr is too large"))?;
    let count = u32::try_from(entries.len())
        .map_err(|_| err!("too many FDEs for .eh_frame_hdr: {}", entries.len()))?;

    // eh_frame_ptr is pcrel: relative to its own field at hdr_addr + 4.
    let ptr_delta = eh_frame_addr.wrapping_sub(hdr_addr.wrapping_add(4));
    let eh_frame_ptr = i32::try_from(ptr_delta as i64)
        .map_err(|_| err!(".eh_frame is too far from .eh_frame_hdr: 0x{ptr_delta:x}"))?;

    // Check every entry before sorting, in the caller's order, so the first bad FDE is reported.
    let mut table = Vec::with_capacity(entries.len());
    for &(pc, fde) in entries.iter() {
        let pc_rel = pc_offset(hdr_addr, pc)?;
        let fde_delta = fde.wrapping_sub(hdr_addr);
        let fde_rel = i32::try_from(fde_delta as i64)
            .map_err(|_| err!("FDE offset is too large: 0x{fde_delta:x}"))?;
        table.push((pc_rel, fde_rel));
    }
    // Ties go to the lowest FDE address, which is the first FDE in .eh_frame order, whatever
    // order the caller collected them in.
    entries.sort_unstable_by_key(|&(pc, fde)| (pc_offset_key(hdr_addr, pc), fde));
    table.sort_unstable();
    table.dedup_by_key(|e| e.0);
    debug_assert!(table.len() <= count as usize);

    let mut buf = vec![0u8; size];
    buf[0] = 1;
    buf[1] = DW_EH_PE_PCREL | DW_EH_PE_SDATA4;
    buf[2] = DW_EH_PE_UDATA4;
    buf[3] = DW_EH_PE_DATAREL | DW_EH_PE_SDATA4;
    buf[4..8].copy_from_slice(&eh_frame_ptr.to_le_bytes());
    // table.len() <= entries.len(), which fit in u32 above.
    buf[8..12].copy_from_slice(&(table.len() as u32).to_le_bytes());
    for (slot, (pc_rel, fde_rel)) in buf[12..].chunks_exact_mut(8).zip(&table) {
        slot[..4].copy_from_slice(&pc_rel.to_le_bytes());
        slot[4..].copy_from_slice(&fde_rel.to_le_bytes());
    }
    Ok(buf)
}

/// Sort key for an entry's pc: its signed offset from `.eh_frame_hdr` (already range-checked).
fn pc_offset_key(hdr_addr: u64, pc: u64) -> i64 {
    pc.wrapping_sub(hdr_addr) as i64
}

/// Helpers shared by the tests of this module and of `merge`: temp dirs, running the installed
/// toolchain (a missing tool fails the test), reading sections with the `object` crate.
#[cfg(test)]
pub(crate) mod test_util {
    use std::path::PathBuf;
    use std::process::Command;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use object::read::elf::ElfFile64;
    use object::{LittleEndian, Object, ObjectSection};

    /// A scratch directory removed on drop.
    pub(crate) struct TempDir(pub(crate) PathBuf);

    impl TempDir {
        pub(crate) fn new(tag: &str) -> Self {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("weld-{tag}-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("create temp dir");
            TempDir(dir)
        }

        /// `name` inside the directory, as a string for command lines.
        pub(crate) fn path(&self, name: &str) -> String {
            self.0
                .join(name)
                .to_str()
                .expect("utf-8 temp path")
                .to_string()
        }

        /// Writes `contents` to `name` and returns its path.
        pub(crate) fn write(&self, name: &str, contents: &str) -> String {
            let p = self.path(name);
            std::fs::write(&p, contents).expect("write source");
            p
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Runs `program` and returns its stdout; failing to start it or a non-zero exit fails the
    /// test (a missing tool is a failure, not a skip).
    pub(crate) fn run(program: &str, args: &[&str]) -> String {
        let out = Command::new(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
        assert!(
            out.status.success(),
            "{program} {args:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// One section of an ELF file.
    pub(crate) struct Sec {
        pub(crate) index: usize,
        pub(crate) addr: u64,
        pub(crate) align: u64,
        pub(crate) data: Vec<u8>,
    }

    /// The first section called `name` in the ELF file at `path`.
    pub(crate) fn section(path: &str, name: &str) -> Option<Sec> {
        let bytes = std::fs::read(path).expect("read ELF file");
        let file = ElfFile64::<LittleEndian>::parse(&*bytes).expect("parse ELF file");
        let s = file.section_by_name(name)?;
        Some(Sec {
            index: s.index().0,
            addr: s.address(),
            align: s.align(),
            data: s.data().expect("section data").to_vec(),
        })
    }

    /// Every section whose name starts with `prefix`, as (name, section).
    pub(crate) fn sections_with_prefix(path: &str, prefix: &str) -> Vec<(String, Sec)> {
        let bytes = std::fs::read(path).expect("read ELF file");
        let file = ElfFile64::<LittleEndian>::parse(&*bytes).expect("parse ELF file");
        file.sections()
            .filter_map(|s| {
                let name = s.name().ok()?.to_string();
                name.starts_with(prefix).then(|| {
                    (
                        name,
                        Sec {
                            index: s.index().0,
                            addr: s.address(),
                            align: s.align(),
                            data: s.data().expect("section data").to_vec(),
                        },
                    )
                })
            })
            .collect()
    }

    /// A small deterministic PRNG (xorshift64*) for garbage-input tests.
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        pub(crate) fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::{run, section, Rng, TempDir};
    use super::*;

    const CXX_SRC: &str = r#"
#include <stdexcept>
#include <string>
#include <vector>
struct Guard { int *p; ~Guard() { if (p) ++*p; } };
[[gnu::noinline]] int thrower(int x) {
    Guard g{&x};
    if (x > 2) throw std::runtime_error("too big: " + std::to_string(x));
    return x * 2;
}
template <class T> [[gnu::noinline]] T sum(const std::vector<T> &v) {
    T s{};
    for (auto &e : v) s += thrower(int(e));
    return s;
}
int main(int argc, char **) {
    std::vector<long> v{1, 2};
    try {
        long r = sum(v) + sum(std::vector<int>{argc});
        return r > 100 ? 1 : 0;
    } catch (const std::exception &e) {
        return 3;
    }
}
"#;

    const C_SRC: &str = r#"
#include <stdio.h>
#include <signal.h>
static int depth(int n) { return n ? depth(n - 1) + 1 : 0; }
void handler(int sig) { (void)sig; }
int helper(int x) { return depth(x) * 3; }
int main(int argc, char **argv) {
    signal(SIGUSR1, handler);
    printf("%d %s\n", helper(argc), argv[0]);
    return 0;
}
"#;

    /// Records as llvm-dwarfdump prints them: (offset, is_cie, cie offset for FDEs).
    fn dwarfdump_records(obj: &str) -> (Vec<(u32, bool, u32)>, Vec<String>) {
        let text = run("llvm-dwarfdump-22", &["--eh-frame", obj]);
        let mut recs = Vec::new();
        let mut augs = Vec::new();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() >= 4 && words[0].len() == 8 && words[1].len() == 8 {
                let Ok(off) = u32::from_str_radix(words[0], 16) else {
                    continue;
                };
                if words[3] == "CIE" {
                    recs.push((off, true, 0));
                } else if words[3] == "FDE" {
                    let cie = words[4].strip_prefix("cie=").expect("cie= field");
                    recs.push((off, false, u32::from_str_radix(cie, 16).expect("hex cie")));
                }
            } else if let Some(rest) = line.trim().strip_prefix("Augmentation:") {
                augs.push(rest.trim().trim_matches('"').to_string());
            }
        }
        (recs, augs)
    }

    fn check_object(obj: &str) -> (usize, usize) {
        let sec = section(obj, ".eh_frame").expect(".eh_frame present");
        let records = split_eh_frame(&sec.data).expect("split");
        let (expected, augs) = dwarfdump_records(obj);
        let got: Vec<(u32, bool, u32)> = records
            .iter()
            .map(|r| match r.kind {
                EhRecordKind::Cie => (r.offset, true, 0),
                EhRecordKind::Fde { cie_offset } => (r.offset, false, cie_offset),
            })
            .collect();
        assert_eq!(got, expected, "records of {obj}");

        let mut cies = std::collections::HashMap::new();
        let mut got_augs = Vec::new();
        for r in &records {
            if r.is_cie() {
                let info = parse_cie(r.bytes(&sec.data)).expect("parse CIE");
                got_augs.push(String::from_utf8(info.augmentation.clone()).expect("ascii"));
                cies.insert(r.offset, info);
            }
        }
        assert_eq!(got_augs, augs, "augmentations of {obj}");
        for r in &records {
            if let EhRecordKind::Fde { cie_offset } = r.kind {
                let fde = parse_fde(r.bytes(&sec.data), &cies[&cie_offset], 0).expect("FDE");
                assert_eq!(fde.pc_begin_size, 4, "x86-64 compilers use pcrel|sdata4");
                assert!(fde.instructions_offset <= r.size);
            }
        }
        let cie_count = records.iter().filter(|r| r.is_cie()).count();
        (cie_count, records.len() - cie_count)
    }

    #[test]
    fn split_and_parse_real_objects_like_dwarfdump() {
        let dir = TempDir::new("ehsplit");
        let cxx = dir.write("t.cpp", CXX_SRC);
        let c = dir.write("t.c", C_SRC);
        let builds: [(&str, &[&str], &str); 5] = [
            ("clang++-22", &["-O1", "-c"], &cxx),
            ("g++", &["-O1", "-c"], &cxx),
            ("clang-22", &["-O0", "-funwind-tables", "-c"], &c),
            ("gcc", &["-O2", "-funwind-tables", "-c"], &c),
            ("gcc", &["-O0", "-fasynchronous-unwind-tables", "-c"], &c),
        ];
        for (i, (cc, flags, src)) in builds.iter().enumerate() {
            let obj = dir.path(&format!("o{i}.o"));
            let mut args = flags.to_vec();
            args.extend([*src, "-o", &obj]);
            run(cc, &args);
            let (cies, fdes) = check_object(&obj);
            assert!(cies >= 1 && fdes >= 2, "{cc}: {cies} CIEs, {fdes} FDEs");
            // The C++ objects use a personality routine and LSDAs.
            if src.ends_with(".cpp") {
                let sec = section(&obj, ".eh_frame").expect(".eh_frame");
                let records = split_eh_frame(&sec.data).expect("split");
                let with_lsda = records
                    .iter()
                    .filter(|r| r.is_cie())
                    .map(|r| parse_cie(r.bytes(&sec.data)).expect("CIE"))
                    .filter(|c| c.has_lsda())
                    .count();
                assert!(with_lsda >= 1, "{cc}: no CIE with an LSDA");
            }
        }
    }

    /// Decodes every FDE of a linked output and rebuilds `.eh_frame_hdr`.
    fn rebuild_hdr(exe: &str) -> (Vec<u8>, Vec<u8>, usize) {
        let eh = section(exe, ".eh_frame").expect(".eh_frame");
        let hdr = section(exe, ".eh_frame_hdr").expect(".eh_frame_hdr");
        let records = split_eh_frame(&eh.data).expect("split output .eh_frame");
        let mut cies = std::collections::HashMap::new();
        let mut entries = Vec::new();
        for r in &records {
            let bytes = r.bytes(&eh.data);
            match r.kind {
                EhRecordKind::Cie => {
                    cies.insert(r.offset, parse_cie(bytes).expect("CIE"));
                }
                EhRecordKind::Fde { cie_offset } => {
                    let addr = eh.addr + u64::from(r.offset);
                    let cie = &cies[&cie_offset];
                    // Same value through the public decoder the pipeline will use.
                    let field = &bytes[fde_pc_begin_offset()..];
                    let pc = read_encoded(field, cie.fde_encoding, addr + 8).expect("pc");
                    let fde = parse_fde(bytes, cie, addr).expect("FDE");
                    assert_eq!(fde.pc_begin, pc);
                    entries.push((pc, addr));
                }
            }
        }
        // lld appends a zero terminator after the last record.
        let last_end = records.last().map_or(0, |r| r.end()) as usize;
        assert_eq!(&eh.data[last_end..], &[0, 0, 0, 0]);
        let n = entries.len();
        assert_eq!(eh_frame_hdr_size(n), hdr.data.len() as u64);
        let built = build_eh_frame_hdr(hdr.addr, eh.addr, &mut entries).expect("build");
        (built, hdr.data, n)
    }

    #[test]
    fn eh_frame_hdr_is_byte_identical_to_lld() {
        let dir = TempDir::new("ehhdr");
        let cxx = dir.write("t.cpp", CXX_SRC);
        let c = dir.write("t.c", C_SRC);
        // Compile with clang or GCC, link with the clang driver and ld.lld-22 (GCC 12 cannot
        // name lld-22). Static links bring glibc's and libstdc++'s hand-written assembly CIEs
        // and signal frames; the PIE links are dynamic.
        let builds: [(&str, &[&str], &str, &[&str]); 6] = [
            ("clang++-22", &["-O1"], &cxx, &["-static"]),
            ("clang++-22", &["-O2", "-fPIE"], &cxx, &["-pie"]),
            ("g++", &["-O1"], &cxx, &["-static"]),
            (
                "g++",
                &["-O0", "-ffunction-sections"],
                &cxx,
                &["-Wl,--gc-sections"],
            ),
            ("clang-22", &["-funwind-tables"], &c, &["-static"]),
            ("gcc", &["-funwind-tables", "-O2"], &c, &["-Wl,--icf=all"]),
        ];
        for (i, (cc, cflags, src, lflags)) in builds.iter().enumerate() {
            let obj = dir.path(&format!("a{i}.o"));
            let exe = dir.path(&format!("a{i}.out"));
            let mut args = cflags.to_vec();
            args.extend(["-c", src, "-o", &obj]);
            run(cc, &args);
            let driver = if src.ends_with(".cpp") {
                "clang++-22"
            } else {
                "clang-22"
            };
            let mut args = lflags.to_vec();
            args.extend(["-fuse-ld=lld", "--ld-path=ld.lld-22", &obj, "-o", &exe]);
            run(driver, &args);
            let (built, expected, n) = rebuild_hdr(&exe);
            assert!(n > 3, "{cc} {cflags:?}: only {n} FDEs");
            assert!(
                built == expected,
                "{cc} {cflags:?} {lflags:?}: .eh_frame_hdr differs from lld's"
            );
        }
    }

    #[test]
    fn eh_frame_hdr_sorts_dedupes_and_keeps_size() {
        let hdr = 0x1000u64;
        let eh = 0x1100u64;
        // Two FDEs for the same pc (ICF): the one earlier in .eh_frame wins.
        let mut entries = vec![
            (0x3000, 0x1140),
            (0x2000, 0x1120),
            (0x3000, 0x1130),
            (0x0800, 0x1150),
        ];
        let out = build_eh_frame_hdr(hdr, eh, &mut entries).expect("build");
        assert_eq!(out.len() as u64, eh_frame_hdr_size(4));
        assert_eq!(&out[..4], &[1, 0x1b, 0x03, 0x3b]);
        assert_eq!(i32::from_le_bytes(out[4..8].try_into().unwrap()), 0xfc);
        assert_eq!(u32::from_le_bytes(out[8..12].try_into().unwrap()), 3);
        let table: Vec<(i32, i32)> = out[12..12 + 24]
            .chunks_exact(8)
            .map(|c| {
                (
                    i32::from_le_bytes(c[..4].try_into().unwrap()),
                    i32::from_le_bytes(c[4..].try_into().unwrap()),
                )
            })
            .collect();
        // Code below the header sorts first: the unwinder compares real addresses.
        assert_eq!(
            table,
            vec![(-0x800, 0x150), (0x1000, 0x120), (0x2000, 0x130)]
        );
        assert!(out[36..].iter().all(|&b| b == 0), "unused tail is zero");
        assert_eq!(entries[0], (0x0800, 0x1150));
        assert_eq!(entries[2], (0x3000, 0x1130));

        // Empty .eh_frame: header only.
        let out = build_eh_frame_hdr(hdr, eh, &mut []).expect("empty");
        assert_eq!(out.len(), 12);
    }

    #[test]
    fn eh_frame_hdr_overflow_is_an_error() {
        let hdr = 0x9000_0000u64;
        let eh = hdr + 0x100;
        let e = build_eh_frame_hdr(hdr, eh, &mut [(hdr + 0x8000_0000, eh)]).unwrap_err();
        assert_eq!(e.0, "PC offset is too large: 0x80000000");
        let ok = build_eh_frame_hdr(hdr, eh, &mut [(hdr - 0x7000_0000, eh)]);
        assert!(
            ok.is_ok(),
            "a pc below the header is a negative offset, not an overflow"
        );
        let e = build_eh_frame_hdr(hdr, eh, &mut [(hdr - 0x8000_0001, eh)]).unwrap_err();
        assert_eq!(e.0, "PC offset is too large: 0xffffffff7fffffff");
        let e = build_eh_frame_hdr(hdr, eh, &mut [(hdr, hdr + 0x1_0000_0000)]).unwrap_err();
        assert!(e.0.starts_with("FDE offset is too large"), "{}", e.0);
        let e = build_eh_frame_hdr(hdr, 0x2_0000_0000, &mut []).unwrap_err();
        assert!(e.0.contains("too far"), "{}", e.0);
        let e = build_eh_frame_hdr(hdr, 0x1000, &mut []).unwrap_err();
        assert!(e.0.contains("too far"), "{}", e.0);
        assert_eq!(pc_offset(hdr, hdr + 0x7fff_ffff), Ok(0x7fff_ffff));
        assert_eq!(pc_offset(hdr, hdr - 0x8000_0000), Ok(i32::MIN));
        assert!(pc_offset(0, u64::MAX).is_ok());
    }

    #[test]
    fn read_encoded_formats() {
        let b = [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        assert_eq!(read_encoded(&b, DW_EH_PE_ABSPTR, 0).unwrap(), u64::MAX - 1);
        assert_eq!(read_encoded(&b, DW_EH_PE_UDATA2, 0).unwrap(), 0xfffe);
        assert_eq!(
            read_encoded(&b, DW_EH_PE_SDATA2, 0).unwrap(),
            (-2i64) as u64
        );
        assert_eq!(read_encoded(&b, DW_EH_PE_UDATA4, 0).unwrap(), 0xffff_fffe);
        assert_eq!(
            read_encoded(&b, DW_EH_PE_SDATA4, 0).unwrap(),
            (-2i64) as u64
        );
        assert_eq!(
            read_encoded(&b, DW_EH_PE_SDATA8, 0).unwrap(),
            (-2i64) as u64
        );
        assert_eq!(
            read_encoded(&b, DW_EH_PE_PCREL | DW_EH_PE_SDATA4, 0x1000).unwrap(),
            0xffe
        );
        assert_eq!(
            read_encoded(&[0xe5, 0x8e, 0x26], DW_EH_PE_ULEB128, 0).unwrap(),
            624485
        );
        assert_eq!(
            read_encoded(&[0xc0, 0xbb, 0x78], DW_EH_PE_SLEB128, 0).unwrap() as i64,
            -123456
        );
        let (v, n) =
            read_encoded_with_base(&b, DW_EH_PE_DATAREL | DW_EH_PE_SDATA4, 0, Some(0x500)).unwrap();
        assert_eq!((v, n), (0x4fe, 4));
        // Truncated, unknown format, unsupported application, indirect, omit: errors.
        assert!(read_encoded(&b[..3], DW_EH_PE_UDATA4, 0).is_err());
        assert!(read_encoded(&[0x80, 0x80], DW_EH_PE_ULEB128, 0).is_err());
        assert_eq!(
            read_encoded(&b, 0x07, 0).unwrap_err().0,
            "unknown FDE size encoding"
        );
        assert_eq!(
            read_encoded(&b, DW_EH_PE_DATAREL | DW_EH_PE_SDATA4, 0)
                .unwrap_err()
                .0,
            "unknown FDE size relative encoding"
        );
        assert!(read_encoded(&b, DW_EH_PE_TEXTREL | DW_EH_PE_SDATA4, 0).is_err());
        assert!(read_encoded(&b, DW_EH_PE_INDIRECT | DW_EH_PE_PCREL | DW_EH_PE_SDATA4, 0).is_err());
        assert!(read_encoded(&b, DW_EH_PE_OMIT, 0).is_err());
        assert_eq!(encoded_size(DW_EH_PE_PCREL | DW_EH_PE_SDATA4), Some(4));
        assert_eq!(encoded_size(DW_EH_PE_ULEB128), None);
    }

    /// Builds a CIE record from its body (everything after the CIE id), fixing the length.
    fn cie(body: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&((body.len() + 4) as u32).to_le_bytes());
        v.extend_from_slice(&0u32.to_le_bytes());
        v.extend_from_slice(body);
        v
    }

    fn corrupted_msg(e: EhError) -> String {
        match e {
            EhError::Corrupted { msg, .. } => msg,
            other => panic!("expected a corrupted error, got {other:?}"),
        }
    }

    #[test]
    fn cie_augmentations() {
        // zPLR as g++ emits it: personality pcrel|sdata4|indirect, LSDA pcrel|sdata4.
        let rec = cie(&[
            1, b'z', b'P', b'L', b'R', 0, 1, 0x78, 16, 7, 0x9b, 1, 2, 3, 4, 0x1b, 0x1b, 0x0c, 7, 8,
            0x90, 1, 0, 0,
        ]);
        let c = parse_cie(&rec).expect("zPLR");
        assert_eq!(c.personality_encoding, Some(0x9b));
        assert_eq!(c.personality_offset, Some(19));
        assert_eq!(c.lsda_encoding, Some(0x1b));
        assert_eq!(c.fde_encoding, 0x1b);
        assert_eq!(c.data_alignment_factor, -8);
        assert_eq!(c.return_address_register, 16);
        assert_eq!(c.augmentation_data_len, 7);
        assert_eq!(c.instructions_offset, 8 + 1 + 5 + 3 + 1 + 7);
        assert!(c.has_lsda());

        // No augmentation: absptr FDEs.
        let c = parse_cie(&cie(&[1, 0, 1, 0x78, 16, 0, 0, 0])).expect("empty aug");
        assert_eq!(c.fde_encoding, DW_EH_PE_ABSPTR);
        assert!(!c.has_augmentation_data && !c.has_lsda());

        // zR, S, B, G and version 3 (ULEB128 return address register).
        let c = parse_cie(&cie(&[
            3, b'z', b'R', b'S', b'B', b'G', 0, 1, 0x78, 0x90, 0x01, 1, 0x1b,
        ]))
        .expect("zRSBG v3");
        assert!(c.is_signal_frame && c.has_b_key && c.is_mte_tagged);
        assert_eq!(c.return_address_register, 144);
        assert_eq!(c.fde_encoding, 0x1b);

        // zLR with an FDE carrying an LSDA pointer.
        let zlr = parse_cie(&cie(&[1, b'z', b'L', b'R', 0, 1, 0x78, 16, 2, 0x1b, 0x1b])).unwrap();
        let mut fde = vec![0u8; 4];
        fde.extend_from_slice(&100u32.to_le_bytes()); // CIE pointer
        fde.extend_from_slice(&(-8i32).to_le_bytes()); // pc_begin (pcrel)
        fde.extend_from_slice(&0x40u32.to_le_bytes()); // pc_range
        fde.extend_from_slice(&[4, 0xaa, 0xbb, 0xcc, 0xdd, 0, 0, 0]);
        let len = (fde.len() - 4) as u32;
        fde[..4].copy_from_slice(&len.to_le_bytes());
        let f = parse_fde(&fde, &zlr, 0x2000).expect("FDE");
        assert_eq!(f.pc_begin, 0x2000 + 8 - 8);
        assert_eq!(f.pc_range, 0x40);
        assert_eq!(f.lsda_offset, Some(17));
        assert_eq!(f.instructions_offset, 21);
    }

    #[test]
    fn cie_errors_use_lld_wording() {
        let msg = |body: &[u8]| corrupted_msg(parse_cie(&cie(body)).unwrap_err());
        assert_eq!(msg(&[2, 0]), "FDE version 1 or 3 expected, but got 2");
        // Old GCC "eh": lld does not accept it either.
        assert_eq!(
            msg(&[1, b'e', b'h', 0, 1, 0x78, 16, 0, 0, 0, 0, 0, 0, 0, 0]),
            "unknown .eh_frame augmentation string: eh"
        );
        assert_eq!(
            msg(&[1, b'z', b'R']),
            "corrupted CIE (failed to read string)"
        );
        assert_eq!(msg(&[1, 0, 0x81]), "corrupted CIE (failed to read LEB128)");
        assert_eq!(msg(&[1, 0, 1, 0x78]), "unexpected end of CIE");
        assert_eq!(
            msg(&[1, b'z', b'P', 0, 1, 0x78, 16, 1, 0x50]),
            "DW_EH_PE_aligned encoding is not supported"
        );
        assert_eq!(
            msg(&[1, b'z', b'P', 0, 1, 0x78, 16, 1, 0x07]),
            "unknown FDE encoding"
        );
        assert_eq!(
            msg(&[1, b'z', b'P', 0, 1, 0x78, 16, 5, 0x03, 1, 2]),
            "corrupted CIE"
        );
        assert_eq!(
            corrupted_msg(parse_cie(&[4, 0, 0, 0]).unwrap_err()),
            "CIE is too small"
        );
        // The error points at the version byte, and shifting moves it into the section.
        let e = parse_cie(&cie(&[9])).unwrap_err().shifted(0x40);
        assert_eq!(e.offset(), 0x48);
        let full = e.into_error("a.o:(.eh_frame)", |off| {
            format!("a.o:(.eh_frame+0x{off:x})")
        });
        assert_eq!(
            full.0,
            "corrupted .eh_frame: FDE version 1 or 3 expected, but got 9\n>>> defined in a.o:(.eh_frame+0x48)"
        );
    }

    #[test]
    fn split_errors_use_lld_wording() {
        let split_msg = |d: &[u8]| corrupted_msg(split_eh_frame(d).unwrap_err());
        assert_eq!(split_msg(&[0xff, 0xff, 0xff, 0xff, 0]), "CIE/FDE too large");
        assert_eq!(split_msg(&[1, 0]), "CIE/FDE too small");
        assert_eq!(
            split_msg(&[8, 0, 0, 0, 0, 0, 0, 0]),
            "CIE/FDE ends past the end of the section"
        );
        assert_eq!(split_msg(&[2, 0, 0, 0, 0, 0]), "CIE/FDE too small");
        let good = cie(&[1, 0, 1, 0x78, 16, 0, 0, 0]);
        let mut d = good.clone();
        d.extend_from_slice(&[9, 0, 0]);
        match split_eh_frame(&d).unwrap_err() {
            EhError::Corrupted { offset, msg } => {
                assert_eq!(offset, good.len() as u64);
                assert_eq!(msg, "CIE/FDE too small");
            }
            e => panic!("{e:?}"),
        }
        // An FDE whose CIE pointer leads before the section or into the middle of a record.
        let mut d = good.clone();
        let fde_at = d.len() as u32;
        d.extend_from_slice(&12u32.to_le_bytes());
        d.extend_from_slice(&(fde_at + 4 + 4).to_le_bytes());
        d.extend_from_slice(&[0; 8]);
        let e = split_eh_frame(&d).unwrap_err();
        assert_eq!(
            e,
            EhError::InvalidCieReference {
                offset: fde_at as u64
            }
        );
        assert_eq!(
            e.into_error("a.o:(.eh_frame)", |_| unreachable!()).0,
            "a.o:(.eh_frame): invalid CIE reference"
        );
        let n = d.len();
        d[n - 12..n - 8].copy_from_slice(&(fde_at + 4 - 2).to_le_bytes());
        assert!(matches!(
            split_eh_frame(&d),
            Err(EhError::InvalidCieReference { .. })
        ));
        // A valid FDE, then the zero terminator, then junk that is never read.
        d[n - 12..n - 8].copy_from_slice(&(fde_at + 4).to_le_bytes());
        d.extend_from_slice(&[0, 0, 0, 0, 0xff, 0xff]);
        let recs = split_eh_frame(&d).expect("terminator stops splitting");
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].kind, EhRecordKind::Fde { cie_offset: 0 });
        assert_eq!(split_eh_frame(&[]).unwrap(), vec![]);
        assert_eq!(split_eh_frame(&[0, 0, 0, 0]).unwrap(), vec![]);
    }

    /// Runs every parser over `data`; the point is that nothing panics or reads out of bounds.
    fn exercise(data: &[u8]) {
        let Ok(records) = split_eh_frame(data) else {
            return;
        };
        for r in &records {
            let bytes = r.bytes(data);
            assert_eq!(bytes.len(), r.size as usize);
            if let EhRecordKind::Fde { cie_offset } = r.kind {
                let cie = records
                    .iter()
                    .find(|c| c.offset == cie_offset)
                    .expect("CIE");
                assert!(cie.is_cie());
                if let Ok(info) = parse_cie(cie.bytes(data)) {
                    let _ = parse_fde(bytes, &info, 0xffff_ffff_ffff_fff0);
                    let _ = read_encoded(&bytes[8..], info.fde_encoding, u64::MAX);
                }
            } else {
                let _ = parse_cie(bytes);
            }
        }
    }

    #[test]
    fn truncated_and_garbage_input_never_panics() {
        let dir = TempDir::new("ehfuzz");
        let cxx = dir.write("t.cpp", CXX_SRC);
        let obj = dir.path("t.o");
        run("g++", &["-O1", "-c", &cxx, "-o", &obj]);
        let real = section(&obj, ".eh_frame").expect(".eh_frame").data;
        let records = split_eh_frame(&real).expect("split");
        let ends: Vec<usize> = records.iter().map(|r| r.end() as usize).collect();

        // Every prefix: fine exactly at a record boundary (unless that drops a needed CIE),
        // an error otherwise.
        for len in 0..real.len() {
            let prefix = &real[..len];
            match split_eh_frame(prefix) {
                Ok(_) => assert!(len == 0 || ends.contains(&len), "prefix {len} accepted"),
                Err(EhError::Corrupted { offset, .. }) => assert!(offset <= len as u64),
                Err(EhError::InvalidCieReference { .. }) => panic!("prefix {len}"),
            }
            exercise(prefix);
            // Each record cut short, on its own.
            for r in &records {
                let b = r.bytes(&real);
                let cut = &b[..len.min(b.len())];
                let _ = parse_cie(cut);
                if let Ok(c) = parse_cie(records[0].bytes(&real)) {
                    let _ = parse_fde(cut, &c, 0);
                }
            }
        }

        // Random byte flips of the real section, and pure noise.
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..3000 {
            let mut d = real.clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(d.len());
                d[i] = rng.next() as u8;
            }
            exercise(&d);
        }
        for _ in 0..3000 {
            let n = rng.below(64);
            let mut d: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            if n >= 8 && rng.below(2) == 0 {
                // A plausible length and CIE id so the CIE parser gets reached.
                d[..4].copy_from_slice(&((n - 4) as u32).to_le_bytes());
                d[4..8].fill(0);
            }
            exercise(&d);
            let _ = parse_cie(&d);
            for enc in [0x00, 0x01, 0x09, 0x1b, 0x3b, 0x9b, 0xff, rng.next() as u8] {
                let _ = read_encoded_with_base(&d, enc, rng.next(), Some(rng.next()));
            }
        }
    }
}
