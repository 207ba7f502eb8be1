//! The shared-object reader (`.dynsym`, `.gnu.version`, `.gnu.version_d`, `DT_SONAME`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // SAFETY: as in `elf_object`: the `SharedFile` is dropped before `data` is.
    let data: &'static [u8] = unsafe { std::mem::transmute::<&[u8], &'static [u8]>(data) };
    let _ = weld::input::shared_files::SharedFile::parse(
        "fuzz.so".into(),
        "fuzz.so".into(),
        data,
        false,
    );
});
