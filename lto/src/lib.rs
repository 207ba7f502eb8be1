//! The LLVM LTO bridge. Until the LTO issue lands, weld recognises bitcode but cannot compile it;
//! this crate only says so.

/// Whether this build of weld can run LTO.
pub const AVAILABLE: bool = false;
