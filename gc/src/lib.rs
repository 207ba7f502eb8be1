//! The reference graph (issue 4).
