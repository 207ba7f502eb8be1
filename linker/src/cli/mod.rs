//! The command line: the one option table (`options`), how arguments are read against it (`args`,
//! `parse_state`, `option_values`), and their documentation (`option_docs`). The values
//! they produce are `crate::config`.

pub mod args;
pub mod option_docs;
pub mod option_values;
pub mod options;
pub mod parse_state;
