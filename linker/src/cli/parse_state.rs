//! What the option handlers of `options::OPTIONS` work on while `args` walks the command line:
//! the configuration being built and the positional state (`--as-needed`, `-Bstatic`, groups,
//! `--push-state`) that each input file takes with it.

use crate::config::{Config, Input, InputKind, PositionalState};

/// The state option handlers work on while the command line is walked.
pub struct ParseState {
    /// The configuration being built.
    pub config: Config,
    /// `--as-needed`, `-Bstatic`, `--whole-archive` as they stand now.
    pub pos: PositionalState,
    /// `--push-state` saves.
    /// `--push-state` saves the positional state and whether `-static` was given, which
    /// `--pop-state` restores (lld saves its `isStatic` with the rest).
    pub stack: Vec<(PositionalState, bool)>,
    /// The open `--start-group`, if any.
    pub group: Option<u32>,
    /// The index the next `--start-group` gets.
    pub next_group: u32,
    /// `-shared` seen (resolved into `Config::output_kind` at the end).
    pub shared: bool,
    /// `-r` seen.
    pub relocatable: bool,
    /// `-v`: print the version line before linking.
    pub print_version: bool,
    /// `--image-base` as written, for lld's page-alignment warning.
    pub image_base_text: Option<String>,
    /// Warnings so far (see `ParsedArgs::warnings`).
    pub warnings: Vec<String>,
    /// The option being handled, as spelled on the command line (for messages).
    pub spelling: String,
    /// The option's first argument as typed, value included when joined (for messages).
    pub arg_text: String,
    /// Inside `--start-lib` ... `--end-lib`.
    pub in_lib: bool,
    /// `--android-memtag-heap`, `--android-memtag-stack`, `--android-memtag-mode` seen (only
    /// for lld's warning: memory tagging does nothing on x86-64).
    pub memtag_heap: bool,
    pub memtag_stack: bool,
    pub memtag_mode: bool,
    /// `-z ifunc-noplt` seen.
    pub ifunc_noplt: bool,
    /// `--save-temps=` values in order, checked at the end: a plain `--save-temps` anywhere
    /// saves everything and makes lld ignore them, unknown ones included.
    pub save_temps_stages: Vec<String>,
    /// The last `--compress-debug-sections=` value, checked at the end (lld reads only it).
    pub compress_debug_sections: Option<String>,
    /// The last `--oformat` value, checked at the end (lld reads only it).
    pub oformat: Option<String>,
    /// The last `--thinlto-prefix-replace=` and `--thinlto-object-suffix-replace=`, each with
    /// its spelling, checked at the end (lld reads only the last; its message quotes it).
    /// Boxed: rarely given, and the state is moved around whole.
    pub thinlto_prefix_replace: Option<Box<(String, String)>>,
    pub thinlto_object_suffix_replace: Option<Box<(String, String)>>,
}

impl ParseState {
    pub(crate) fn new() -> Self {
        ParseState {
            config: Config::default(),
            pos: PositionalState::default(),
            stack: Vec::new(),
            group: None,
            next_group: 0,
            shared: false,
            relocatable: false,
            print_version: false,
            image_base_text: None,
            warnings: Vec::new(),
            spelling: String::new(),
            arg_text: String::new(),
            in_lib: false,
            memtag_heap: false,
            memtag_stack: false,
            memtag_mode: false,
            ifunc_noplt: false,
            save_temps_stages: Vec::new(),
            compress_debug_sections: None,
            oformat: None,
            thinlto_prefix_replace: None,
            thinlto_object_suffix_replace: None,
        }
    }

    /// Appends an input carrying the positional state in force now.
    pub fn add_input(&mut self, kind: InputKind) {
        self.config.inputs.push(Input {
            kind,
            state: self.pos,
            group: self.group,
            lazy: self.in_lib,
        });
    }

    /// Records a warning.
    pub fn warn(&mut self, msg: impl Into<String>) {
        self.warnings.push(msg.into());
    }
}
