//! Input files in `binary` format (`--format=binary`, `-b binary`, a script's `TARGET(binary)`):
//! the file's bytes are linked as they are. As lld does, such a file becomes one writable
//! `.data` section (`SHF_ALLOC | SHF_WRITE`, `SHT_PROGBITS`, alignment 8) and three global
//! `STT_OBJECT` symbols whose names come from the path as given, every byte that is not an
//! ASCII letter or digit replaced by `_`:
//!
//! - `_binary_<name>_start`: offset 0 of the section;
//! - `_binary_<name>_end`: the section's end (offset = file size);
//! - `_binary_<name>_size`: absolute, the file size.
//!
//! The blob is wrapped in a small ELF relocatable object built in memory and parsed like any
//! other object: every later phase (resolution, `--gc-sections`, `-r`, `-Map`, ...) reads input
//! files as ELF images (`ObjectFile::data` included), so a real image keeps them all unaware of
//! the format, at the cost of one copy of the blob.

use crate::error::Result;
use crate::input::input_files::{FileHeader64, ObjectFile, SectionHeader64, Sym64};
use object::elf;
use object::pod::bytes_of;
use object::LittleEndian as LE;
use object::{U16, U32, U64};

/// The `_binary_<name>` prefix of the symbols of a blob named `path` (as given on the command
/// line or found by a search): lld replaces each byte that is not `[A-Za-z0-9]` by `_`, so a
/// multi-byte character becomes several underscores.
pub fn symbol_prefix(path: &[u8]) -> Vec<u8> {
    let mut out = b"_binary_".to_vec();
    out.extend(
        path.iter()
            .map(|&b| if b.is_ascii_alphanumeric() { b } else { b'_' }),
    );
    out
}

/// Parses the blob `contents` as the object lld makes of a binary input: `name` is the file's
/// display name (diagnostics, map files), `path` its path's bytes, which name the symbols.
pub fn parse(name: String, path: &[u8], contents: &[u8]) -> Result<ObjectFile> {
    let image: &'static [u8] = Vec::leak(object_image(path, contents));
    let mut file = ObjectFile::parse(name, None, image)?;
    file.binary = true;
    Ok(file)
}

/// Section indexes of the image.
const DATA: u16 = 1;
const STRTAB: u32 = 3;
const SHSTRTAB: u16 = 4;

/// An ELF64 x86-64 relocatable object holding `contents` in `.data` and the three symbols.
/// Layout: header, `.data`, symbol table (8-aligned), `.strtab`, `.shstrtab`, section headers
/// (8-aligned).
fn object_image(name: &[u8], contents: &[u8]) -> Vec<u8> {
    let size = contents.len() as u64;
    let prefix = symbol_prefix(name);

    // Section names, each with its offset in `.shstrtab`.
    let mut shstrtab = vec![0u8];
    let mut sh_name = |s: &[u8]| -> u32 {
        let at = shstrtab.len() as u32;
        shstrtab.extend_from_slice(s);
        shstrtab.push(0);
        at
    };
    let names = [
        sh_name(b".data"),
        sh_name(b".symtab"),
        sh_name(b".strtab"),
        sh_name(b".shstrtab"),
    ];

    let mut strtab = vec![0u8];
    let mut symbols = vec![Sym64::default()];
    for (suffix, shndx, value) in [
        (&b"_start"[..], DATA, 0),
        (b"_end", DATA, size),
        (b"_size", elf::SHN_ABS, size),
    ] {
        let st_name = strtab.len() as u32;
        strtab.extend_from_slice(&prefix);
        strtab.extend_from_slice(suffix);
        strtab.push(0);
        symbols.push(Sym64 {
            st_name: U32::new(LE, st_name),
            st_info: (elf::STB_GLOBAL << 4) | elf::STT_OBJECT,
            st_other: elf::STV_DEFAULT,
            st_shndx: U16::new(LE, shndx),
            st_value: U64::new(LE, value),
            st_size: U64::new(LE, 0),
        });
    }

    let align8 = |n: usize| n.next_multiple_of(8);
    let header_size = std::mem::size_of::<FileHeader64>();
    let data_off = header_size;
    let symtab_off = align8(data_off + contents.len());
    let symtab_size = symbols.len() * std::mem::size_of::<Sym64>();
    let strtab_off = symtab_off + symtab_size;
    let shstrtab_off = strtab_off + strtab.len();
    let shdrs_off = align8(shstrtab_off + shstrtab.len());

    let header = FileHeader64 {
        e_ident: elf::Ident {
            magic: elf::ELFMAG,
            class: elf::ELFCLASS64,
            data: elf::ELFDATA2LSB,
            version: elf::EV_CURRENT,
            os_abi: elf::ELFOSABI_NONE,
            abi_version: 0,
            padding: [0; 7],
        },
        e_type: U16::new(LE, elf::ET_REL),
        e_machine: U16::new(LE, elf::EM_X86_64),
        e_version: U32::new(LE, u32::from(elf::EV_CURRENT)),
        e_entry: U64::new(LE, 0),
        e_phoff: U64::new(LE, 0),
        e_shoff: U64::new(LE, shdrs_off as u64),
        e_flags: U32::new(LE, 0),
        e_ehsize: U16::new(LE, header_size as u16),
        e_phentsize: U16::new(LE, 0),
        e_phnum: U16::new(LE, 0),
        e_shentsize: U16::new(LE, std::mem::size_of::<SectionHeader64>() as u16),
        e_shnum: U16::new(LE, 5),
        e_shstrndx: U16::new(LE, SHSTRTAB),
    };
    let section =
        |name: u32, ty: u32, flags: u32, off: usize, size: usize, link, info, align, entsize| {
            SectionHeader64 {
                sh_name: U32::new(LE, name),
                sh_type: U32::new(LE, ty),
                sh_flags: U64::new(LE, u64::from(flags)),
                sh_addr: U64::new(LE, 0),
                sh_offset: U64::new(LE, off as u64),
                sh_size: U64::new(LE, size as u64),
                sh_link: U32::new(LE, link),
                sh_info: U32::new(LE, info),
                sh_addralign: U64::new(LE, align),
                sh_entsize: U64::new(LE, entsize),
            }
        };
    let headers = [
        section(0, elf::SHT_NULL, 0, 0, 0, 0, 0, 0, 0),
        section(
            names[0],
            elf::SHT_PROGBITS,
            elf::SHF_ALLOC | elf::SHF_WRITE,
            data_off,
            contents.len(),
            0,
            0,
            8,
            0,
        ),
        section(
            names[1],
            elf::SHT_SYMTAB,
            0,
            symtab_off,
            symtab_size,
            STRTAB,
            // Every symbol after the null one is global.
            1,
            8,
            std::mem::size_of::<Sym64>() as u64,
        ),
        section(
            names[2],
            elf::SHT_STRTAB,
            0,
            strtab_off,
            strtab.len(),
            0,
            0,
            1,
            0,
        ),
        section(
            names[3],
            elf::SHT_STRTAB,
            0,
            shstrtab_off,
            shstrtab.len(),
            0,
            0,
            1,
            0,
        ),
    ];

    let mut image = Vec::with_capacity(shdrs_off + headers.len() * 64);
    image.extend_from_slice(bytes_of(&header));
    image.extend_from_slice(contents);
    image.resize(symtab_off, 0);
    for s in &symbols {
        image.extend_from_slice(bytes_of(s));
    }
    image.extend_from_slice(&strtab);
    image.extend_from_slice(&shstrtab);
    image.resize(shdrs_off, 0);
    for h in &headers {
        image.extend_from_slice(bytes_of(h));
    }
    image
}

#[cfg(test)]
mod tests {
    use super::*;
    use object::read::elf::Sym;

    #[test]
    fn names_replace_every_non_alphanumeric_byte() {
        assert_eq!(symbol_prefix(b"d.x/my-f.ile"), b"_binary_d_x_my_f_ile");
        assert_eq!(symbol_prefix(b"./libx.a"), b"_binary___libx_a");
        // Two bytes of UTF-8, two underscores.
        assert_eq!(symbol_prefix("é1".as_bytes()), b"_binary___1");
    }

    #[test]
    fn blob_becomes_data_and_three_symbols() {
        let f = parse("dir/a-b.txt".into(), b"dir/a-b.txt", b"hello").unwrap();
        assert!(f.binary);
        let data = &f.sections[DATA as usize];
        assert_eq!(data.name, b".data");
        assert_eq!(data.data, b"hello");
        assert_eq!(data.align(), 8);
        assert_eq!(
            data.flags(),
            u64::from(elf::SHF_ALLOC | elf::SHF_WRITE),
            "writable data"
        );
        assert_eq!(f.first_global, 1);
        let syms: Vec<(&[u8], u16, u64)> = (1..f.symbols.len())
            .map(|i| {
                let s = &f.symbols[i];
                (f.sym_name(i), s.st_shndx(LE), s.st_value(LE))
            })
            .collect();
        assert_eq!(
            syms,
            [
                (&b"_binary_dir_a_b_txt_start"[..], DATA, 0),
                (b"_binary_dir_a_b_txt_end", DATA, 5),
                (b"_binary_dir_a_b_txt_size", elf::SHN_ABS, 5),
            ]
        );
    }

    #[test]
    fn empty_blob() {
        let f = parse("empty".into(), b"empty", b"").unwrap();
        assert_eq!(f.sections[DATA as usize].size(), 0);
        assert_eq!(f.symbols[2].st_value(LE), 0);
    }
}
