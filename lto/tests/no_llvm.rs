//! Without the `llvm` feature every entry point says bitcode is unsupported.

#![cfg(not(feature = "llvm"))]

use lto::{BitcodeFile, Lto, LtoConfig, AVAILABLE, NO_LLVM};

#[test]
fn every_entry_point_reports_missing_llvm() {
    const { assert!(!AVAILABLE) };
    assert_eq!(
        NO_LLVM,
        "weld was built without LLVM; bitcode inputs are not supported"
    );
    let e = BitcodeFile::open(b"BC\xC0\xDE", "x.o").unwrap_err();
    assert!(e.ends_with(NO_LLVM), "{e}");
    assert!(e.starts_with("x.o: "), "{e}");
    assert_eq!(Lto::new(LtoConfig::default()).unwrap_err(), NO_LLVM);
    assert_eq!(
        lto::runtime_libcall_symbols("x86_64-unknown-linux-gnu").unwrap_err(),
        NO_LLVM
    );
    assert_eq!(
        lto::set_llvm_options(&["-O1".to_string()]).unwrap_err(),
        NO_LLVM
    );
    assert_eq!(lto::llvm_version(), None);
}
