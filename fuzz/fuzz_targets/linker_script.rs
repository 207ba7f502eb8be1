//! The linker-script parser: input scripts (`GROUP`, `INPUT`, `AS_NEEDED`, ...).
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = weld::input::linker_script::parse_input_script(&text, Path::new("fuzz.lds"));
});
