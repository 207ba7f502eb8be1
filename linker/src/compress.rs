//! Compressed output sections: `--compress-debug-sections=zlib|zstd` and
//! `--compress-sections=GLOB=TYPE[:LEVEL]`, as ld.lld 22 writes them.
//!
//! This module holds the rules (which sections, which compressor and level, lld's errors) and the
//! compressors; `writer::compress_sections` applies them once everything is laid out: each
//! chosen section is written to memory, compressed here and stored in its `OutputSection` as
//! `Elf64_Chdr` + data, and the non-allocated sections are placed again (only the section header
//! table and the file size follow them). lld's rules:
//!
//! * `--compress-debug-sections` picks the non-allocated sections named `.debug_*`; every
//!   `--compress-sections` glob matching a section's name overrides that, the last one winning
//!   (so `=none` can exempt one); naming an `SHF_ALLOC` section is an error.
//! * A section stays uncompressed when compressing would not make it smaller.
//! * The compressed section's `sh_addralign` and `ch_addralign` are 1, so that no padding
//!   separates compressed sections (lld's choice, which every consumer accepts).
//! * zlib: level 1 unless a level is given (levels above 9 are refused as lld's zlib refuses
//!   them); zstd: the library's default level (3) unless a level is given.
//!
//! Big sections are cut into 1 MiB shards compressed in parallel (and sections are compressed in
//! parallel with each other), as lld does: zstd shards are whole frames, which decoders read one
//! after another; zlib shards are raw deflate streams ended with a sync flush (the last one
//! finished), joined under one zlib header and one Adler-32 of the whole, combined from the
//! shards' own checksums.

use crate::config::{Compression, Config};
use crate::error::Result;
use crate::{bail, err};
use object::elf;
use rayon::prelude::*;

/// The size of an `Elf64_Chdr`.
const CHDR_SIZE: usize = 24;
/// What each parallel piece of a section is (the compression lost at shard boundaries is small
/// at this size).
const SHARD_SIZE: usize = 1 << 20;
/// zlib's default when no level is given: fast, with a decent ratio (lld's choice).
const ZLIB_DEFAULT_LEVEL: u32 = 1;

/// The compression (and level, 0 for the default) lld's rules choose for the output section
/// `name` with flags `flags`.
pub fn choice(config: &Config, name: &str, flags: u64) -> (Compression, u32) {
    let mut chosen = (Compression::None, 0);
    if flags & u64::from(elf::SHF_ALLOC) == 0 && name.starts_with(".debug_") {
        chosen = (config.compress_debug_sections, config.compress_debug_level);
    }
    for (glob, kind, level) in &config.compress_sections {
        if crate::glob::matches(glob.as_bytes(), name.as_bytes()) {
            chosen = (*kind, *level);
        }
    }
    chosen
}

/// lld's errors about the compression chosen for the output sections (name, flags): an
/// allocated section cannot be compressed, zlib has no level above 9. Checked once the output
/// sections exist, before anything else is reported about the layout, as lld does.
pub fn check_sections<'a>(
    config: &Config,
    sections: impl IntoIterator<Item = (&'a str, u64)>,
) -> Result<()> {
    if config.compress_debug_sections == Compression::None && config.compress_sections.is_empty() {
        return Ok(());
    }
    for (name, flags) in sections {
        let (kind, level) = choice(config, name, flags);
        if kind == Compression::None {
            continue;
        }
        if flags & u64::from(elf::SHF_ALLOC) != 0 {
            bail!(
                "--compress-sections: section '{name}' with the SHF_ALLOC flag cannot be compressed"
            );
        }
        // zlib's deflateInit2 returns Z_STREAM_ERROR (-2) for such levels, which lld reports.
        if kind == Compression::Zlib && level > 9 {
            bail!("--compress-sections: deflateInit2 returned -2");
        }
    }
    Ok(())
}

/// `raw` as a compressed section's contents (`Elf64_Chdr` first), or `None` when that is not
/// smaller than `raw`.
pub fn compress(raw: &[u8], kind: Compression, level: u32) -> Result<Option<Vec<u8>>> {
    let (ch_type, body) = match kind {
        Compression::None => return Ok(None),
        Compression::Zlib => (elf::ELFCOMPRESS_ZLIB, zlib(raw, level)?),
        Compression::Zstd => (elf::ELFCOMPRESS_ZSTD, zstd(raw, level)?),
    };
    if CHDR_SIZE + body.len() >= raw.len() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(CHDR_SIZE + body.len());
    out.extend_from_slice(&ch_type.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // ch_reserved
    out.extend_from_slice(&(raw.len() as u64).to_le_bytes());
    out.extend_from_slice(&1u64.to_le_bytes()); // ch_addralign
    out.extend_from_slice(&body);
    Ok(Some(out))
}

/// zstd: one frame per shard, concatenated.
fn zstd(raw: &[u8], level: u32) -> Result<Vec<u8>> {
    // lld hands the level to zstd as an int, which clamps it to its range; 0 is the default.
    let level = i32::try_from(level).unwrap_or(i32::MAX);
    let range = zstd::compression_level_range();
    let level = if level == 0 {
        0
    } else {
        level.clamp(*range.start(), *range.end())
    };
    let frames: Vec<Vec<u8>> = raw
        .par_chunks(SHARD_SIZE)
        .map(|shard| {
            zstd::bulk::compress(shard, level).map_err(|e| err!("--compress-sections: zstd: {e}"))
        })
        .collect::<Result<_>>()?;
    Ok(frames.concat())
}

/// zlib: a zlib header, the shards as raw deflate data (each but the last ended by a sync flush
/// so that the next one starts on a byte boundary), the Adler-32 of everything.
fn zlib(raw: &[u8], level: u32) -> Result<Vec<u8>> {
    let level = if level == 0 {
        ZLIB_DEFAULT_LEVEL
    } else {
        level
    };
    let shards: Vec<&[u8]> = raw.chunks(SHARD_SIZE).collect();
    let last = shards.len().saturating_sub(1);
    let parts: Vec<(Vec<u8>, u32)> = shards
        .par_iter()
        .enumerate()
        .map(|(i, shard)| {
            let flush = if i == last {
                flate2::FlushCompress::Finish
            } else {
                flate2::FlushCompress::Sync
            };
            Ok((deflate_raw(shard, level, flush)?, adler32(shard)))
        })
        .collect::<Result<_>>()?;
    // CMF: deflate with a 32 KiB window; FLG: the fastest level, no dictionary (as lld writes
    // whatever the level; decoders do not look at it).
    let mut out = vec![0x78, 0x01];
    let mut checksum = 1u32;
    for ((bytes, sum), shard) in parts.iter().zip(&shards) {
        out.extend_from_slice(bytes);
        checksum = adler32_combine(checksum, *sum, shard.len() as u64);
    }
    out.extend_from_slice(&checksum.to_be_bytes());
    Ok(out)
}

/// One shard as raw deflate data, ended by `flush`.
fn deflate_raw(input: &[u8], level: u32, flush: flate2::FlushCompress) -> Result<Vec<u8>> {
    let mut z = flate2::Compress::new(flate2::Compression::new(level), false);
    let mut out = Vec::with_capacity((input.len() / 2).max(64));
    loop {
        let consumed = z.total_in() as usize;
        let status = z
            .compress_vec(&input[consumed..], &mut out, flush)
            .map_err(|e| err!("--compress-sections: deflate: {e}"))?;
        let all_in = z.total_in() as usize == input.len();
        // Done once all input is in and the flush fitted: the stream ended (`Finish`), or the
        // output buffer was not filled up (`Sync`).
        let finished = match flush {
            flate2::FlushCompress::Finish => status == flate2::Status::StreamEnd,
            _ => all_in && out.len() < out.capacity(),
        };
        if finished {
            return Ok(out);
        }
        out.reserve(out.capacity() / 2 + 64);
    }
}

const ADLER_MOD: u32 = 65521;

/// The Adler-32 checksum of `data`.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 bytes is the most that can be summed before `b` could overflow 32 bits.
    for block in data.chunks(5552) {
        for &x in block {
            a += u32::from(x);
            b += a;
        }
        a %= ADLER_MOD;
        b %= ADLER_MOD;
    }
    (b << 16) | a
}

/// The Adler-32 of `A ++ B` from that of `A` (`first`), that of `B` (`second`) and `B`'s length:
/// `B`'s running sums start from `A`'s `a` instead of 1, which adds `a_A - 1` to each of them.
fn adler32_combine(first: u32, second: u32, second_len: u64) -> u32 {
    let m = u64::from(ADLER_MOD);
    let (a1, b1) = (u64::from(first & 0xffff), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xffff), u64::from(second >> 16));
    let a = (a1 + a2 + m - 1) % m;
    let b = (b1 + b2 + (second_len % m) * ((a1 + m - 1) % m)) % m;
    ((b << 16) | a) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn sample(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| ((i * 7) % 251) as u8 ^ (i >> 12) as u8)
            .collect()
    }

    #[test]
    fn adler_combines() {
        let data = sample(3 * SHARD_SIZE + 77);
        let (x, y) = data.split_at(SHARD_SIZE + 5);
        assert_eq!(
            adler32_combine(adler32(x), adler32(y), y.len() as u64),
            adler32(&data)
        );
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    }

    #[test]
    fn sharded_zlib_and_zstd_decompress_to_the_input() {
        let data = sample(2 * SHARD_SIZE + 12345);
        let z = zlib(&data, 0).unwrap_or_default();
        let mut back = Vec::new();
        // The decoder also checks the combined Adler-32.
        let read = flate2::read::ZlibDecoder::new(&z[..]).read_to_end(&mut back);
        assert!(read.is_ok(), "{read:?}");
        assert_eq!(back, data);
        let z = zstd(&data, 99).unwrap_or_default();
        let back = zstd::stream::decode_all(&z[..]).unwrap_or_default();
        assert_eq!(back, data);
    }

    #[test]
    fn incompressible_stays_raw() {
        assert_eq!(compress(b"abc", Compression::Zlib, 0), Ok(None));
    }
}
