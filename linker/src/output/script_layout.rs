//! What a linker script's `SECTIONS` adds to a layout: the order in which output sections and
//! the commands between them are evaluated, the body of each described output section (its
//! chunks in description order, with the assignments between them), and the values of its data
//! commands (`BYTE`, `SHORT`, `LONG`, `QUAD`, `SQUAD`). `layout::script_addresses` walks it.

/// One step of the walk: an output section (index in `Layout::sections`) or a command between
/// output sections (index in the command list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Section(u32),
    Command(u32),
}

/// One item of an output section's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyItem {
    /// Chunks `start..end` of the output section (an input section description's sections,
    /// or a data command).
    Chunks(u32, u32),
    /// Item `n` of the description's body: a symbol assignment or an `ASSERT`.
    Command(u32),
}

/// The body of a described output section.
#[derive(Clone, Debug)]
pub struct Body {
    /// The description's index in the command list.
    pub command: u32,
    pub items: Vec<BodyItem>,
}

/// A data command's chunk: where its expression is (command, body item), its size, and its
/// text for `-Map`.
#[derive(Clone, Debug)]
pub struct DataCommand {
    pub command: u32,
    pub item: u32,
    pub size: u8,
    pub text: String,
}

/// Where each symbol assignment of `SECTIONS` was evaluated, for `-Map`: by (output section
/// for one inside a section, command or body item index), the location counter before it,
/// how far it moved it, and the assignment's text.
pub type AssignmentSpans = hashbrown::HashMap<(Option<u32>, u32), (u64, u64, String)>;

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct ScriptLayout {
    pub sequence: Vec<Placement>,
    /// By output section: its body, when a description made it.
    pub bodies: Vec<Option<Body>>,
    /// Data commands (`ChunkKind::Data(i)` is `data[i]`).
    pub data: Vec<DataCommand>,
    /// Their values, once addresses are assigned.
    pub data_values: Vec<u64>,
    /// The symbols script assignments gave values (the linker's own definitions of those
    /// names, `_end` and the like, give way to them).
    pub symbols: Vec<crate::resolve::symbol_table::SymbolId>,
    /// Each `MEMORY` region: name, bytes used, length.
    pub regions: Vec<(String, u64, u64)>,
    /// See [`AssignmentSpans`].
    pub assignments: AssignmentSpans,
    /// Every `SECTIONS` ends in `INSERT`: the built-in layout places sections, with the
    /// inserted ones where the script says; only the symbols are the script's.
    pub insert_only: bool,
}

impl ScriptLayout {
    /// `--print-memory-usage`, in lld's format.
    pub fn memory_usage(&self) -> String {
        fn size(v: u64) -> String {
            if v & 0x3fff_ffff == 0 {
                format!("{:>10} GB", v >> 30)
            } else if v & 0xf_ffff == 0 {
                format!("{:>10} MB", v >> 20)
            } else if v & 0x3ff == 0 {
                format!("{:>10} KB", v >> 10)
            } else {
                format!(" {v:>10} B")
            }
        }
        let mut out = String::from("Memory region         Used Size  Region Size  %age Used\n");
        for (name, used, length) in &self.regions {
            out.push_str(&format!("{name:>16}: {}", size(*used)));
            if *length != 0 {
                let percent = *used as f64 * 100.0 / *length as f64;
                out.push_str(&format!("{}    {percent:6.2}%", size(*length)));
            }
            out.push('\n');
        }
        out
    }
}
