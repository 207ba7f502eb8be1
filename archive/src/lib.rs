//! Placeholder; the reader is being written.
