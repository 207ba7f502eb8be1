//! Bitcode through the LLVM shim: the symbol table and the module summary weld reads from every
//! bitcode input.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = lto::BitcodeFile::open(data, "fuzz.bc") {
        for s in file.symbols() {
            let _ = s.display_name();
        }
        let _ = file.references();
    }
});
