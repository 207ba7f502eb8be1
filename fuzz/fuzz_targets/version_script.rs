//! The version-script and dynamic-list parsers.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = weld::input::version_script::parse(&text, Path::new("fuzz.ver"));
    let _ = weld::input::version_script::parse_dynamic_list(&text, Path::new("fuzz.list"));
});
