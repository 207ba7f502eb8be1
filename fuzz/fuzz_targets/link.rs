//! End to end: a fuzzed object linked with fixed, valid ones (`fuzz/seeds` builds them into
//! `$WELD_FUZZ_FIXED`), as `weld -shared --gc-sections` and as a static executable. Every
//! outcome must be a finished link or an error.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

fn fixed_dir() -> PathBuf {
    PathBuf::from(std::env::var("WELD_FUZZ_FIXED").unwrap_or_else(|_| "fuzz/fixed".into()))
}

fuzz_target!(|data: &[u8]| {
    let dir = fixed_dir();
    let scratch = std::env::temp_dir().join(format!("weld-fuzz-link-{}", std::process::id()));
    if std::fs::create_dir_all(&scratch).is_err() {
        return;
    }
    let input = scratch.join("fuzzed.o");
    if std::fs::write(&input, data).is_err() {
        return;
    }
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    let out = s(scratch.join("out"));
    let fixed = [s(dir.join("main.o")), s(dir.join("lib.o"))];
    let shared = vec![
        "weld".to_string(),
        "-shared".into(),
        "--gc-sections".into(),
        fixed[1].clone(),
        s(input.clone()),
        "-o".into(),
        out.clone(),
    ];
    let _ = weld::driver::main_entry(shared);
    let exe = vec![
        "weld".to_string(),
        "-e".into(),
        "main".into(),
        fixed[0].clone(),
        fixed[1].clone(),
        s(input),
        "-o".into(),
        out,
    ];
    let _ = weld::driver::main_entry(exe);
});
