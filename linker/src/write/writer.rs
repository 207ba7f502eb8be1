//! Writing the output. Its size is known from the layout, so the file is created at full
//! size in the output directory under a temporary name, mapped, split into disjoint slices (one per
//! chunk) that are filled in parallel, then renamed over the output: a failed link never leaves a
//! truncated or stale output behind.

use crate::compress;
use crate::config::{Compression, Config, OutputKind};
use crate::err;
use crate::error::{Error, Result};
use crate::input::input_files::io_reason;
use crate::output::layout::Layout;
use crate::output::sections::{
    carve, put16, put32, put64, CarveError, ChunkKind, Synthetic, EHDR_SIZE, PHDR_SIZE, SHDR_SIZE,
};
use crate::relocations::apply::apply_relocs;
use crate::relocations::code_rewrites::CodeRewrites;
use crate::relocations::scan::AddressMap;
use crate::resolve::Resolved;
use crate::synthetic::DebugIndexes;
use crate::synthetic::{
    build_id, dyn_relocs, dynamic, dynsym, eh_frame, got, notes, plt, symtab, versions,
};
use object::elf;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// One piece of work: fill `len` bytes at file offset `offset`.
struct Job {
    offset: u64,
    len: u64,
    what: JobKind,
}

#[derive(Clone, Copy)]
enum JobKind {
    Headers,
    /// A chunk, and in a section with a filler (`int3` in executable ones, a script's `=fill`)
    /// the padding up to the next one.
    Chunk {
        osec: u32,
        chunk: u32,
        /// Where the padding starts in the filler's pattern: gaps start the pattern afresh
        /// after each input section, but a script's data commands (`BYTE`, ...) are written
        /// over the fill, which runs on under them (lld).
        phase: u8,
    },
    /// The padding before an output section's first chunk, filled with its pattern.
    Fill {
        osec: u32,
    },
    SectionHeaders,
    /// A compressed section's bytes, `Elf64_Chdr` included.
    Compressed {
        osec: u32,
    },
}

/// What lld fills the gaps of an executable section with: `int3`, so that a stray jump traps.
const TRAP_FILL: u8 = 0xcc;

/// A temporary output file that is removed unless `commit` renames it into place.
pub struct TempOutput {
    path: PathBuf,
    final_path: PathBuf,
    committed: bool,
}

impl TempOutput {
    fn create(final_path: &Path, size: u64) -> Result<(TempOutput, std::fs::File)> {
        let dir = final_path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let base = final_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "a.out".into());
        let path = dir.join(format!(".{}.weld-tmp-{}", base, std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|e| {
                err!(
                    "cannot open output file {}: {}",
                    final_path.display(),
                    io_reason(&e)
                )
            })?;
        let t = TempOutput {
            path,
            final_path: final_path.to_path_buf(),
            committed: false,
        };
        crate::mapping_faults::set_temporary_output(Some((&t.path, &t.final_path)));
        file.set_len(size).map_err(|e| {
            err!(
                "cannot open output file {}: {}",
                final_path.display(),
                io_reason(&e)
            )
        })?;
        // On tmpfs, preallocating means zeroing every page of the file on this thread (31 ms
        // for llvm-static's 148 MB) before anything is written; unreserved, the pages are
        // allocated and zeroed as the write jobs first touch them, on every thread, and a full
        // tmpfs faults there (reported by `mapping_faults` in the same words). Elsewhere
        // preallocation is cheap and keeps a full disk from surfacing only at writeback.
        let unreserved = is_tmpfs(&file);
        crate::mapping_faults::set_output_unreserved(unreserved);
        if unreserved {
            return Ok((t, file));
        }
        reserve_space(&file, size).map_err(|e| {
            err!(
                "failed to write output '{}': {}",
                final_path.display(),
                io_reason(&e)
            )
        })?;
        Ok((t, file))
    }

    fn commit(mut self, executable: bool) -> Result<()> {
        if executable {
            use std::os::unix::fs::PermissionsExt;
            let mode = 0o777 & !umask();
            let _ = std::fs::set_permissions(&self.path, std::fs::Permissions::from_mode(mode));
        }
        std::fs::rename(&self.path, &self.final_path).map_err(|e| {
            err!(
                "failed to write output '{}': {}",
                self.final_path.display(),
                io_reason(&e)
            )
        })?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for TempOutput {
    fn drop(&mut self) {
        crate::mapping_faults::set_temporary_output(None);
        if !self.committed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Allocates the output's blocks up front (as LLVM's `FileOutputBuffer` does through
/// `resize_file`), so a full disk is an error here rather than a SIGBUS when a page of the
/// mapping is first written. File systems that cannot preallocate keep the sparse file.
fn reserve_space(file: &std::fs::File, size: u64) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let Ok(len) = libc::off_t::try_from(size) else {
        return Err(std::io::Error::from_raw_os_error(libc::EFBIG));
    };
    if len == 0 {
        return Ok(());
    }
    // SAFETY: a valid open file descriptor and a non-negative length.
    match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) } {
        0 | libc::EOPNOTSUPP | libc::EINVAL => Ok(()),
        e => Err(std::io::Error::from_raw_os_error(e)),
    }
}

/// Whether `file` lives on tmpfs (or `/dev/shm`), whose space is memory.
fn is_tmpfs(file: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: `statfs` is plain data, filled by the kernel for a valid descriptor.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: a valid open file descriptor and a pointer to a `statfs`.
    let ok = unsafe { libc::fstatfs(file.as_raw_fd(), &mut st) } == 0;
    ok && st.f_type == libc::TMPFS_MAGIC
}

fn umask() -> u32 {
    // The process umask cannot be read without changing it; 022 is what every shell sets, and
    // lld creates outputs 0777 & ~umask. Reading /proc keeps us exact where available.
    if let Ok(s) = std::fs::read_to_string("/proc/self/status") {
        for line in s.lines() {
            if let Some(v) = line.strip_prefix("Umask:") {
                if let Ok(m) = u32::from_str_radix(v.trim(), 8) {
                    return m;
                }
            }
        }
    }
    0o022
}

/// Writes the output file described by `lay`.
/// Writes a finished image to `path` the way every output is written (a temporary file renamed
/// over a regular file, straight into a device or FIFO, `-` to standard output).
pub fn write_image(path: &Path, image: &[u8], executable: bool) -> Result<()> {
    let mut out = OutputImage::create(path, image.len() as u64)?;
    out.bytes().copy_from_slice(image);
    out.commit(executable)
}

pub fn write_output(
    config: &Config,
    res: &Resolved,
    lay: &Layout,
    debug: &DebugIndexes,
) -> std::result::Result<(), Vec<Error>> {
    let mut out = OutputImage::create(&config.output, lay.file_size).map_err(|e| vec![e])?;
    let map: &mut [u8] = out.bytes();

    // A flat image (`--oformat=binary`) is the loaded sections' bytes alone.
    let mut jobs = Vec::new();
    if !lay.flat_image {
        jobs.push(Job {
            offset: 0,
            len: lay.header_size(),
            what: JobKind::Headers,
        });
    }
    for (oi, os) in lay.sections.iter().enumerate() {
        if os.is_nobits() || lay.flat_image && !crate::layout::flat_image::in_image(os) {
            continue;
        }
        if let Some(bytes) = &os.compressed {
            jobs.push(Job {
                offset: os.offset,
                len: bytes.len() as u64,
                what: JobKind::Compressed { osec: oi as u32 },
            });
            continue;
        }
        // lld fills the padding between pieces of executable sections with traps (`int3`), or
        // with NOPs after a section whose last jump `--optimize-bb-jumps` deleted (execution
        // falls through it): each chunk's job covers the padding after it.
        // A linker script's `=fill` pattern fills the gaps of any section the same way.
        let fills = filler(os).is_some();
        let first = os.chunks.iter().map(|c| c.offset).min().unwrap_or(os.size);
        if fills && first > 0 {
            jobs.push(Job {
                offset: os.offset,
                len: first,
                what: JobKind::Fill { osec: oi as u32 },
            });
        }
        let mut gap_origin = 0u64;
        for (ci, c) in os.chunks.iter().enumerate() {
            if !matches!(c.kind, ChunkKind::Data(_)) {
                gap_origin = c.offset + c.size;
            }
            let phase = ((c.offset + c.size).wrapping_sub(gap_origin) % 4) as u8;
            let end = if fills {
                os.chunks.get(ci + 1).map_or(os.size, |n| n.offset)
            } else {
                c.offset + c.size
            };
            let len = end.saturating_sub(c.offset).max(c.size);
            if len == 0 {
                continue;
            }
            jobs.push(Job {
                offset: os.offset + c.offset,
                len,
                what: JobKind::Chunk {
                    osec: oi as u32,
                    chunk: ci as u32,
                    phase,
                },
            });
        }
    }
    if lay.section_headers && !lay.flat_image {
        jobs.push(Job {
            offset: lay.shoff,
            len: SHDR_SIZE * (lay.sections.len() as u64 + 1),
            what: JobKind::SectionHeaders,
        });
    }
    jobs.sort_by_key(|j| j.offset);

    // Split the map into disjoint slices, one per job.
    let slices = carve(map, jobs.iter().map(|j| (j.what, j.offset, j.len))).map_err(|e| {
        vec![match e {
            CarveError::Overlap(at) => {
                err!("internal error: overlapping output chunks at offset 0x{at:x}")
            }
            CarveError::PastEnd(at) => {
                err!("internal error: output chunk past end of file at 0x{at:x}")
            }
        }]
    })?;

    let addr_map = lay.address_map(res);
    // `.rela.dyn`'s records, worked out once for its own bytes and for the places they patch.
    let dyn_records = dyn_relocs::laid_out_records(config, res, lay, &addr_map);
    let errors: Vec<Error> = slices
        .into_par_iter()
        // Jobs differ in cost by orders of magnitude (a chunk of debug information with its
        // relocations against a bare copy), and rayon splits a range further only when a
        // thread steals from it: handed out in runs of a few, both threads stay busy (measured:
        // on rust-bin one thread otherwise did most of the jobs, and the phase took 1.5 times
        // as long).
        .with_max_len(WRITE_JOBS_PER_TASK)
        .filter_map(|(what, buf)| {
            let r = match what {
                JobKind::Headers => write_headers(config, lay, buf),
                JobKind::SectionHeaders => write_section_headers(lay, buf),
                JobKind::Chunk { osec, chunk, phase } => {
                    let c = &lay.sections[osec as usize].chunks[chunk as usize];
                    let (body, padding) = buf.split_at_mut((c.size as usize).min(buf.len()));
                    if let Some(mut pattern) = filler(&lay.sections[osec as usize]) {
                        pattern.rotate_left(usize::from(phase));
                        fill_padding(&lay.rewrites, c.kind, pattern, padding);
                    }
                    write_chunk(
                        config,
                        res,
                        lay,
                        debug,
                        &addr_map,
                        &dyn_records,
                        osec,
                        chunk,
                        body,
                    )
                }
                JobKind::Fill { osec } => {
                    if let Some(pattern) = filler(&lay.sections[osec as usize]) {
                        fill_pattern(pattern, buf);
                    }
                    Ok(())
                }
                JobKind::Compressed { osec } => {
                    if let Some(bytes) = &lay.sections[osec as usize].compressed {
                        buf.copy_from_slice(bytes);
                    }
                    Ok(())
                }
            };
            r.err()
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }

    write_dynamic_reloc_places(config, lay, &dyn_records, out.bytes());
    if let Some((note, _)) = lay.synthetic_offset(Synthetic::BuildId) {
        build_id::fill(config, note, out.bytes());
    }
    let executable = config.output_kind != OutputKind::Relocatable;
    out.commit(executable).map_err(|e| vec![e])
}

/// How many write jobs a pool task takes at most (see `write_output`).
const WRITE_JOBS_PER_TASK: usize = 16;

/// The uncompressed contents of the non-allocated output section `osec`, as `write_output`
/// would write them (its chunks filled in parallel; gaps are zeros), for compression.
pub fn render_section(
    config: &Config,
    res: &Resolved,
    lay: &Layout,
    debug: &DebugIndexes,
    osec: u32,
) -> Result<Vec<u8>> {
    let os = &lay.sections[osec as usize];
    let mut image = vec![0u8; os.size as usize];
    let mut order: Vec<usize> = (0..os.chunks.len()).collect();
    order.sort_by_key(|&ci| os.chunks[ci].offset);
    let parts = order
        .into_iter()
        .map(|ci| (ci as u32, os.chunks[ci].offset, os.chunks[ci].size))
        .filter(|&(_, _, size)| size != 0);
    let slices = carve(&mut image, parts).map_err(|e| {
        let (CarveError::Overlap(at) | CarveError::PastEnd(at)) = e;
        err!(
            "internal error: {}: chunk at 0x{:x} overlaps or ends past the section",
            os.name,
            at
        )
    })?;
    let addr_map = lay.address_map(res);
    // Non-allocated sections hold no `.rela.dyn` (its records are not needed).
    slices
        .into_par_iter()
        .with_max_len(WRITE_JOBS_PER_TASK)
        .try_for_each(|(ci, buf)| {
            write_chunk(config, res, lay, debug, &addr_map, &[], osec, ci, buf)
        })?;
    Ok(image)
}

/// Compresses the output sections `--compress-debug-sections` and `--compress-sections` ask for
/// (`compress::check_sections` has refused the impossible ones during the layout), sections in
/// parallel and each in parallel shards, then places the non-allocated sections again.
pub fn compress_sections(
    config: &Config,
    res: &Resolved,
    lay: &mut Layout,
    debug: &DebugIndexes,
) -> Result<()> {
    let todo: Vec<(usize, Compression, u32)> = lay
        .sections
        .iter()
        .enumerate()
        // A NOBITS section has no contents to compress.
        .filter(|(_, os)| !os.is_alloc() && !os.is_nobits())
        .filter_map(|(i, os)| {
            let (kind, level) = compress::choice(config, &os.name, os.flags);
            (kind != Compression::None).then_some((i, kind, level))
        })
        .collect();
    if todo.is_empty() {
        return Ok(());
    }
    let laid_out: &Layout = lay;
    let done: Vec<Option<Vec<u8>>> = todo
        .par_iter()
        .map(|&(i, kind, level)| {
            let raw = render_section(config, res, laid_out, debug, i as u32)?;
            compress::compress(&raw, kind, level)
        })
        .collect::<Result<_>>()?;
    for (&(i, _, _), bytes) in todo.iter().zip(done) {
        let Some(bytes) = bytes else {
            continue;
        };
        let os = &mut lay.sections[i];
        os.size = bytes.len() as u64;
        // lld's choice: no padding between compressed sections (`ch_addralign` is 1 too).
        os.align = 1;
        os.flags |= u64::from(elf::SHF_COMPRESSED);
        os.compressed = Some(bytes);
    }
    lay.place_non_alloc();
    Ok(())
}

/// Where the image is built. A regular output (or a new one) is a temporary file in the output
/// directory, mapped and renamed over the output at the end, so a failed link leaves nothing.
/// An output path that exists and is not a regular file (a character or block device such as
/// `/dev/null`, a FIFO, a socket; symlinks followed) is never unlinked or replaced: as lld, the
/// image is built in memory and written straight into it.
enum OutputImage {
    File {
        tmp: TempOutput,
        file: std::fs::File,
        map: memmap2::MmapMut,
    },
    Special {
        path: PathBuf,
        image: Vec<u8>,
    },
    /// `-o -`: the image goes to standard output, as lld writes it.
    Stdout {
        image: Vec<u8>,
    },
}

impl OutputImage {
    fn create(path: &Path, size: u64) -> Result<OutputImage> {
        let in_memory = || -> Result<Vec<u8>> {
            let len =
                usize::try_from(size).map_err(|_| err!("output file too large: {} bytes", size))?;
            Ok(vec![0; len])
        };
        if path.as_os_str() == "-" {
            return Ok(OutputImage::Stdout {
                image: in_memory()?,
            });
        }
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Err(err!(
                "cannot open output file {}: Is a directory",
                path.display()
            )),
            Ok(m) if !m.is_file() => Ok(OutputImage::Special {
                path: path.to_path_buf(),
                image: in_memory()?,
            }),
            _ => {
                let (tmp, file) = TempOutput::create(path, size)?;
                // SAFETY: the file was just created by this process with a unique name and is
                // not shared.
                let map = unsafe { memmap2::MmapMut::map_mut(&file) }.map_err(|e| {
                    err!(
                        "cannot map output file {}: {}",
                        path.display(),
                        io_reason(&e)
                    )
                })?;
                let range = map.as_ptr() as usize..map.as_ptr() as usize + map.len();
                crate::mapping_faults::set_output_mapping(range);
                Ok(OutputImage::File { tmp, file, map })
            }
        }
    }

    fn bytes(&mut self) -> &mut [u8] {
        match self {
            OutputImage::File { map, .. } => &mut map[..],
            OutputImage::Special { image, .. } | OutputImage::Stdout { image } => image,
        }
    }

    fn commit(self, executable: bool) -> Result<()> {
        match self {
            OutputImage::File { tmp, file, map } => {
                // No msync: the pages reach the disk as those of any file written with
                // write(2) do, and lld does not sync its output either. A synchronous msync
                // took 98 ms of an 0.8 s llvm-static link on ext4 (strace). A full disk is
                // met when the space is reserved (`reserve_space`), or as a fault where no
                // space can be reserved (tmpfs, `mapping_faults`).
                crate::mapping_faults::set_output_mapping(0..0);
                drop(map);
                drop(file);
                tmp.commit(executable)
            }
            OutputImage::Stdout { image } => {
                use std::io::Write;
                let mut out = std::io::stdout().lock();
                out.write_all(&image)
                    .and_then(|()| out.flush())
                    .map_err(|e| err!("failed to write output '-': {}", io_reason(&e)))
            }
            OutputImage::Special { path, image } => {
                use std::io::Write;
                let write = |e: std::io::Error| {
                    err!(
                        "failed to write output '{}': {}",
                        path.display(),
                        io_reason(&e)
                    )
                };
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(|e| {
                        err!(
                            "cannot open output file {}: {}",
                            path.display(),
                            io_reason(&e)
                        )
                    })?;
                f.write_all(&image).map_err(write)?;
                f.flush().map_err(write)
            }
        }
    }
}

/// What a place with a `.rela.dyn` relocation holds, as lld writes it: 0 on a RELA target, or
/// the relocation's addend (a relative one's: the link-time address) under
/// `--apply-dynamic-relocs` and always under `-z rel`, whose entries carry no addend (an
/// IRELATIVE one's: the resolver). RELR places keep the value the static relocation wrote;
/// copy relocations have no contents.
fn write_dynamic_reloc_places(
    config: &Config,
    lay: &Layout,
    records: &[dyn_relocs::DynRela],
    image: &mut [u8],
) {
    let write_addends = config.apply_dynamic_relocs || config.z.rel;
    let mut sections: Vec<(u64, u64, u64)> = lay
        .sections
        .iter()
        .filter(|s| s.is_alloc() && !s.is_nobits())
        .map(|s| (s.addr, s.size, s.offset))
        .collect();
    sections.sort_unstable();
    for r in records {
        // A TLS descriptor is two words; its addend goes in the second.
        // The place is as wide as the relocation: a TLS descriptor is two words (its addend
        // in the second), and `-z ifunc-noplt` leaves 32-bit code references to the loader.
        let (width, value_at) = match r.r_type {
            elf::R_X86_64_TLSDESC => (16, 8),
            elf::R_X86_64_PC32
            | elf::R_X86_64_PLT32
            | elf::R_X86_64_32
            | elf::R_X86_64_32S
            | elf::R_X86_64_GOTPCREL
            | elf::R_X86_64_GOTPCRELX
            | elf::R_X86_64_REX_GOTPCRELX
            | elf::R_X86_64_GOTTPOFF
            | elf::R_X86_64_TLSGD
            | elf::R_X86_64_TLSLD
            | elf::R_X86_64_DTPOFF32
            | elf::R_X86_64_TPOFF32 => (4, 0),
            elf::R_X86_64_16 | elf::R_X86_64_PC16 => (2, 0),
            elf::R_X86_64_8 | elf::R_X86_64_PC8 => (1, 0),
            _ => (8, 0),
        };
        let i = sections.partition_point(|s| s.0 <= r.offset);
        let Some(&(start, size, offset)) = i.checked_sub(1).map(|i| &sections[i]) else {
            continue;
        };
        if r.offset + width > start + size {
            continue;
        }
        let at = (offset + r.offset - start) as usize;
        if let Some(place) = image.get_mut(at..at + width as usize) {
            place.fill(0);
            if write_addends {
                let bytes = r.addend.to_le_bytes();
                let n = (width - value_at).min(8) as usize;
                place[value_at as usize..value_at as usize + n].copy_from_slice(&bytes[..n]);
            }
        }
    }
}

fn write_headers(config: &Config, lay: &Layout, buf: &mut [u8]) -> Result<()> {
    buf[..4].copy_from_slice(b"\x7fELF");
    buf[4] = elf::ELFCLASS64;
    buf[5] = elf::ELFDATA2LSB;
    buf[6] = elf::EV_CURRENT;
    buf[7] = elf::ELFOSABI_NONE;
    let e_type = if config.is_pic() {
        elf::ET_DYN
    } else {
        elf::ET_EXEC
    };
    put16(buf, 16, e_type);
    put16(buf, 18, elf::EM_X86_64);
    put32(buf, 20, u32::from(elf::EV_CURRENT));
    put64(buf, 24, lay.entry);
    put64(buf, 32, EHDR_SIZE);
    put64(buf, 40, lay.shoff);
    put32(buf, 48, 0);
    put16(buf, 52, EHDR_SIZE as u16);
    put16(buf, 54, PHDR_SIZE as u16);
    put16(buf, 56, lay.segments.len() as u16);
    put16(buf, 58, SHDR_SIZE as u16);
    put16(
        buf,
        60,
        if lay.section_headers {
            lay.sections.len() as u16 + 1
        } else {
            0
        },
    );
    let shstrndx = lay
        .synthetic_index
        .get(&Synthetic::Shstrtab)
        .map(|x| lay.sections[x.0 as usize].shndx)
        .unwrap_or(0);
    put16(buf, 62, shstrndx as u16);
    for (i, s) in lay.segments.iter().enumerate() {
        let o = EHDR_SIZE as usize + i * PHDR_SIZE as usize;
        put32(buf, o, s.p_type);
        put32(buf, o + 4, s.flags);
        put64(buf, o + 8, s.offset);
        put64(buf, o + 16, s.vaddr);
        put64(buf, o + 24, s.vaddr.wrapping_add(s.lma_offset));
        put64(buf, o + 32, s.filesz);
        put64(buf, o + 40, s.memsz);
        put64(buf, o + 48, s.align);
    }
    Ok(())
}

fn write_section_headers(lay: &Layout, buf: &mut [u8]) -> Result<()> {
    let index_of = |k: Synthetic| {
        lay.synthetic_index
            .get(&k)
            .map(|x| lay.sections[x.0 as usize].shndx)
            .unwrap_or(0)
    };
    for (i, os) in lay.sections.iter().enumerate() {
        let o = (i + 1) * SHDR_SIZE as usize;
        let (link, info) = match os.sh_type {
            elf::SHT_SYMTAB => (index_of(Synthetic::Strtab), lay.symtab_first_global),
            elf::SHT_DYNSYM => (index_of(Synthetic::DynStr), 1),
            elf::SHT_GNU_HASH => (index_of(Synthetic::DynSym), 0),
            elf::SHT_DYNAMIC => (index_of(Synthetic::DynStr), 0),
            elf::SHT_HASH | elf::SHT_GNU_VERSYM => (index_of(Synthetic::DynSym), 0),
            elf::SHT_GNU_VERNEED => (index_of(Synthetic::DynStr), lay.dyn_tables.verneed_count),
            elf::SHT_GNU_VERDEF => (index_of(Synthetic::DynStr), lay.dyn_tables.verdef_count),
            // `--emit-relocs` sections: layout linked them to `.symtab` and their target.
            elf::SHT_RELA if !os.is_alloc() && os.link != 0 => (os.link, os.info),
            // .rela.plt names the section its relocations apply to (SHF_INFO_LINK).
            elf::SHT_RELA | elf::SHT_REL if os.name == ".rela.plt" || os.name == ".rel.plt" => {
                (index_of(Synthetic::DynSym), index_of(Synthetic::GotPlt))
            }
            elf::SHT_RELA | elf::SHT_REL | dyn_relocs::SHT_ANDROID_RELA => {
                (index_of(Synthetic::DynSym), 0)
            }
            _ => (os.link, os.info),
        };
        let entsize = match os.sh_type {
            elf::SHT_GNU_VERSYM => 2,
            elf::SHT_HASH => 4,
            _ => os.entsize,
        };
        put32(buf, o, lay.section_name_offsets[i]);
        put32(buf, o + 4, os.sh_type);
        put64(buf, o + 8, os.flags);
        put64(buf, o + 16, os.addr);
        put64(buf, o + 24, os.offset);
        put64(buf, o + 32, os.size);
        put32(buf, o + 40, link);
        put32(buf, o + 44, info);
        put64(buf, o + 48, os.align);
        put64(buf, o + 56, entsize);
    }
    Ok(())
}

/// lld's x86-64 NOPs of 1 to 9 bytes, for padding that execution falls through.
const NOPS: [&[u8]; 9] = [
    &[0x90],
    &[0x66, 0x90],
    &[0x0f, 0x1f, 0x00],
    &[0x0f, 0x1f, 0x40, 0x00],
    &[0x0f, 0x1f, 0x44, 0x00, 0x00],
    &[0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00],
    &[0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00],
    &[0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
    &[0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
];

/// What fills the gaps of output section `os` (lld's `getFiller`): the script's `=fill`
/// pattern when it is not zero, else `int3` in an executable section; `None`: zeros.
fn filler(os: &crate::output::sections::OutputSection) -> Option<[u8; 4]> {
    match os.fill {
        Some(f) => (f != [0; 4]).then_some(f),
        None => (os.flags & u64::from(elf::SHF_EXECINSTR) != 0).then_some([TRAP_FILL; 4]),
    }
}

/// Repeats the 4-byte `pattern` over `buf`, from its start (as lld's `fill`).
fn fill_pattern(pattern: [u8; 4], buf: &mut [u8]) {
    for (i, b) in buf.iter_mut().enumerate() {
        *b = pattern[i % 4];
    }
}

/// Fills the padding after a piece of an executable section: NOPs (as many 9-byte ones as fit,
/// then one of the rest) after a section that lost its final jump, `int3` elsewhere.
fn fill_padding(rewrites: &CodeRewrites, kind: ChunkKind, pattern: [u8; 4], buf: &mut [u8]) {
    let falls_through = match kind {
        ChunkKind::Input { file, sec } => rewrites.dropped(file, sec) > 0,
        _ => false,
    };
    if !falls_through {
        fill_pattern(pattern, buf);
        return;
    }
    let mut rest = buf;
    while !rest.is_empty() {
        let nop = NOPS[rest.len().min(NOPS.len()) - 1];
        let (head, tail) = rest.split_at_mut(nop.len());
        head.copy_from_slice(nop);
        rest = tail;
    }
}

#[allow(clippy::too_many_arguments)]
fn write_chunk<M: AddressMap>(
    config: &Config,
    res: &Resolved,
    lay: &Layout,
    debug: &DebugIndexes,
    map: &M,
    dyn_records: &[dyn_relocs::DynRela],
    osec: u32,
    chunk: u32,
    buf: &mut [u8],
) -> Result<()> {
    let os = &lay.sections[osec as usize];
    let c = &os.chunks[chunk as usize];
    let addr = if os.is_alloc() { os.addr + c.offset } else { 0 };
    match c.kind {
        ChunkKind::Input { file, sec } => {
            let s = &res.files[file as usize].sections[sec as usize];
            let edits = lay.rewrites.section(file, sec);
            let data = s.data.get(..buf.len()).ok_or_else(|| {
                err!(
                    "internal error: {}: section {} is shorter than its output",
                    res.files[file as usize].name,
                    s.name_str()
                )
            })?;
            buf.copy_from_slice(data);
            if let Some(e) = edits {
                for (off, bytes) in &e.patches {
                    let at = *off as usize;
                    if let Some(place) = buf.get_mut(at..at + bytes.len()) {
                        place.copy_from_slice(bytes);
                    }
                }
            }
            apply_relocs(
                config,
                res,
                map,
                file,
                sec as usize,
                s.relocs,
                0,
                buf,
                addr,
                edits,
            )
        }
        ChunkKind::Merged(g) => lay.merged[g as usize].write_to(&lay.merge_inputs[g as usize], buf),
        ChunkKind::Synthetic(k) => {
            write_synthetic(config, res, lay, debug, map, dyn_records, k, buf, addr)
        }
        // NOBITS: nothing to write.
        ChunkKind::Common(_) | ChunkKind::Copy(_) => Ok(()),
        ChunkKind::Relocs { file, sec } => {
            crate::write::emit_relocs::write_relocs(res, lay, file, sec, buf)
        }
        ChunkKind::Data(i) => {
            // BYTE/SHORT/LONG/QUAD store their value's low bytes, little-endian.
            let value = lay
                .script
                .as_ref()
                .and_then(|s| s.data_values.get(i as usize))
                .copied()
                .unwrap_or(0);
            let n = buf.len().min(8);
            buf[..n].copy_from_slice(&value.to_le_bytes()[..n]);
            Ok(())
        }
    }
}

/// Writes linker-made chunk `k` into `buf` (at address `addr`): each synthetic section's module
/// writes its own, in the order layout made them.
#[allow(clippy::too_many_arguments)]
fn write_synthetic<M: AddressMap>(
    config: &Config,
    res: &Resolved,
    lay: &Layout,
    debug: &DebugIndexes,
    map: &M,
    dyn_records: &[dyn_relocs::DynRela],
    k: Synthetic,
    buf: &mut [u8],
    addr: u64,
) -> Result<()> {
    let t = &lay.dyn_tables;
    match k {
        // The descriptor is filled once everything else is written.
        Synthetic::BuildId => build_id::write_note(config, buf),
        Synthetic::PackageNote => notes::write_package(config, buf),
        Synthetic::GnuProperty => buf.copy_from_slice(&lay.gnu_property),
        Synthetic::Interp => buf.copy_from_slice(&lay.interp),
        Synthetic::DynSym => dynsym::write(config, res, lay, buf),
        Synthetic::GnuVersion => versions::write_versym(t, buf),
        Synthetic::GnuVersionD => buf.copy_from_slice(&t.verdef),
        Synthetic::GnuVersionR => buf.copy_from_slice(&t.verneed),
        Synthetic::GnuHash => buf.copy_from_slice(&t.gnu_hash),
        Synthetic::Hash => buf.copy_from_slice(&t.sysv_hash),
        Synthetic::DynStr => buf.copy_from_slice(&t.dynstr),
        Synthetic::RelaDyn => dyn_relocs::write_rela_dyn(config, lay, dyn_records, buf),
        Synthetic::RelrDyn => dyn_relocs::write_relr(lay, buf),
        Synthetic::RelaPlt => dyn_relocs::write_rela_plt(config, lay, buf),
        Synthetic::EhFrameHdr => eh_frame::write_hdr(res, lay, map, buf, addr)?,
        Synthetic::EhFrame => eh_frame::write(config, res, lay, map, buf, addr)?,
        Synthetic::IbtPlt => plt::write_ibt_plt(lay, buf, addr)?,
        Synthetic::Plt => plt::write_plt(lay, buf, addr)?,
        Synthetic::Iplt => plt::write_iplt(lay, buf, addr)?,
        Synthetic::Dynamic => dynamic::write(&lay.dynamic, buf),
        Synthetic::Got => got::write_got(config, res, lay, map, buf),
        Synthetic::RelroPadding => {}
        Synthetic::GotPlt => got::write_gotplt(lay, buf),
        Synthetic::IgotPlt => got::write_igotplt(buf),
        Synthetic::Comment => buf.copy_from_slice(&lay.comment),
        Synthetic::DebugNames => match &debug.debug_names {
            Some(names) => names.write(res, |f, i, a| lay.value_of(res, f, i, a), buf)?,
            None => buf.fill(0),
        },
        Synthetic::GdbIndex => match &debug.gdb_index {
            Some(index) => index.write(&lay.sec_addr, buf)?,
            None => buf.fill(0),
        },
        Synthetic::Symtab => symtab::write(config, res, lay, buf),
        Synthetic::Strtab => lay.strtab.write(buf).map_err(|_| {
            err!(
                "internal error: .strtab's names do not fit its {} bytes",
                buf.len()
            )
        })?,
        Synthetic::Shstrtab => buf.copy_from_slice(&lay.shstrtab),
    }
    Ok(())
}
