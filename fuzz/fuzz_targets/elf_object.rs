//! The ELF relocatable-object reader: any bytes give an `ObjectFile` or an error, never a crash.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // SAFETY: the reader wants `'static` bytes (a link maps its inputs for the whole process);
    // the `ObjectFile` and everything borrowed from it are dropped before this call returns, so
    // nothing outlives `data`.
    let data: &'static [u8] = unsafe { std::mem::transmute::<&[u8], &'static [u8]>(data) };
    if let Ok(file) = weld::input::input_files::ObjectFile::parse("fuzz.o".into(), None, data) {
        // What resolution and diagnostics ask of every object.
        for i in 0..file.symbols.len() {
            let _ = file.sym_display_name(i);
        }
        for (i, s) in file.sections.iter().enumerate() {
            let _ = file.location(i, s.size() / 2);
        }
    }
    let _ = weld::input::input_files::ObjectFile::parse_just_symbols("fuzz.o".into(), data);
});
