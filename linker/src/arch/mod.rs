//! Target-specific knowledge. weld links x86-64 only, so there is one module; it holds what a
//! relocation type means and the byte-level rewrites (relocation writes, GOT and TLS relaxations,
//! PLT entries) that lld performs, as pure functions over section bytes. Symbol resolution,
//! layout and the decision of *which* rewrite applies stay with the caller; each function documents
//! the value the caller must compute.

pub mod x86_64;
