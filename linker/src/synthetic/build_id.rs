//! `.note.gnu.build-id` (`--build-id`): a GNU note whose descriptor is a digest of the whole
//! output. The note is written with a zero descriptor like any other section; once every other
//! byte of the output exists, the digest is computed over the image and stored in its place.

use crate::config::{BuildId, Config};
use crate::output::sections::{Synthetic, SyntheticChunk, ALLOC};
use object::elf;
use rayon::prelude::*;

/// The note's name and header before the descriptor: namesz, descsz, type, "GNU\0".
const NOTE_HEADER_SIZE: u64 = 16;

/// The size of the `--build-id` descriptor (0: no build ID).
pub fn desc_size(config: &Config) -> u64 {
    match &config.build_id {
        BuildId::None => 0,
        BuildId::Fast => 8,
        BuildId::Md5 | BuildId::Uuid => 16,
        BuildId::Sha1 => 20,
        BuildId::Hex(h) => h.len() as u64,
    }
}

/// The size of the whole note (0: no build ID).
pub fn note_size(config: &Config) -> u64 {
    match desc_size(config) {
        0 => 0,
        n => NOTE_HEADER_SIZE + n,
    }
}

/// The note as written before the output is hashed: its header and a zero descriptor.
pub fn write_note(config: &Config, buf: &mut [u8]) {
    buf.fill(0);
    for (i, word) in [4, desc_size(config) as u32, elf::NT_GNU_BUILD_ID]
        .into_iter()
        .enumerate()
    {
        buf[i * 4..i * 4 + 4].copy_from_slice(&word.to_le_bytes());
    }
    buf[12..16].copy_from_slice(b"GNU\0");
}

/// Hashes the finished output `image` (with the descriptor of the note at `note_offset` still
/// zero) and stores the digest in the descriptor. False when the descriptor lies outside the
/// image (only possible when `-r` reads the note's place back from a damaged header).
pub fn fill(config: &Config, note_offset: u64, image: &mut [u8]) -> bool {
    let n = desc_size(config) as usize;
    let Some(digest) = digest(config, image) else {
        return true;
    };
    let at = (note_offset + NOTE_HEADER_SIZE) as usize;
    match image.get_mut(at..at + n) {
        Some(place) => {
            place.copy_from_slice(&digest[..n]);
            true
        }
        None => false,
    }
}

/// The `--build-id` descriptor of the finished output `image` (its descriptor still zero), at
/// least `desc_size` bytes; `None` without a build ID.
fn digest(config: &Config, image: &[u8]) -> Option<Vec<u8>> {
    // Hash 1 MiB chunks in parallel, then hash the chunk digests: fast and thread-count independent.
    let chunks: Vec<[u8; 16]> = image
        .par_chunks(1 << 20)
        .map(|c| {
            let h = xxhash_rust::xxh3::xxh3_128(c);
            h.to_le_bytes()
        })
        .collect();
    let joined: Vec<u8> = chunks.concat();
    let digest: Vec<u8> = match &config.build_id {
        BuildId::Fast => xxhash_rust::xxh3::xxh3_64(&joined).to_le_bytes().to_vec(),
        BuildId::Md5 | BuildId::Uuid => {
            use md5::Digest;
            let mut v = md5::Md5::digest(&joined).to_vec();
            if matches!(config.build_id, BuildId::Uuid) {
                // lld's uuid is random; a content hash with the UUID v4 bits is as unique and reproducible.
                v[6] = (v[6] & 0x0f) | 0x40;
                v[8] = (v[8] & 0x3f) | 0x80;
            }
            v
        }
        BuildId::Sha1 => {
            use sha1::Digest;
            sha1::Sha1::digest(&joined).to_vec()
        }
        BuildId::Hex(h) => h.clone(),
        BuildId::None => return None,
    };
    Some(digest)
}

/// The note's chunk, when the output has a build ID.
pub fn chunk(config: &Config) -> Option<SyntheticChunk> {
    let size = note_size(config);
    (size > 0).then_some(SyntheticChunk {
        kind: Synthetic::BuildId,
        osec: ".note.gnu.build-id",
        sh_type: elf::SHT_NOTE,
        flags: ALLOC,
        size,
        align: 4,
    })
}
