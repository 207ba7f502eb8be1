//! `.shstrtab`: the output sections' names, each once, in section order; the section header
//! table points into it.

use crate::output::sections::OutputSection;
use hashbrown::HashMap;

/// The table's contents and the offset of each section's name in it (parallel to
/// `sections`).
pub fn build(sections: &[OutputSection]) -> (Vec<u8>, Vec<u32>) {
    let mut table = vec![0u8];
    let mut seen: HashMap<&str, u32> = HashMap::new();
    let offsets = sections
        .iter()
        .map(|os| {
            *seen.entry(os.name.as_str()).or_insert_with(|| {
                let off = table.len() as u32;
                table.extend_from_slice(os.name.as_bytes());
                table.push(0);
                off
            })
        })
        .collect();
    (table, offsets)
}
