//! The command line: the one option table (`options`), how arguments are read against it (`args`,
//! `parse_state`, `option_values`), the values it produces (`config`) and their documentation
//! (`option_docs`).

pub mod args;
pub mod config;
pub mod option_docs;
pub mod option_values;
pub mod options;
pub mod parse_state;
