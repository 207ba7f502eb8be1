//! The archive reader (GNU, thin and BSD names, symbol indexes): any bytes give an archive whose
//! members can all be listed, or an error.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(archive) = archive::Archive::parse(data) {
        let _ = archive.symbols().len();
        for member in archive.members() {
            let _ = member;
        }
    }
});
