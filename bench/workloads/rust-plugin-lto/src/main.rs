//! bench-textkit: the program of the `rust-plugin-lto` workload of scripts/bench.
//!
//!   bench-textkit --version        prints its name and version
//!   bench-textkit FILE...          prints the lines and words of each FILE, then the first
//!                                  120 bytes of the last one in base64 (through textkit)
//!
//! It is compiled to LLVM bitcode (`-C linker-plugin-lto`) and calls three entry points of
//! the native C library textkit (`textkit/textkit.c`, a static library compiled without LTO),
//! whose host functions it defines in the crate textkit-host (`host/`, bitcode as well). The
//! library's other entry points are dead in the link, and so are the host functions only they
//! call (`host/src/report.rs`).
use std::process::ExitCode;

#[link(name = "textkit", kind = "static")]
extern "C" {
    fn tk_word_count(text: *const u8, len: usize) -> usize;
    fn tk_line_count(text: *const u8, len: usize) -> usize;
    fn tk_base64_emit(data: *const u8, len: usize);
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: bench-textkit --version | FILE...");
        return ExitCode::from(2);
    }
    if args[0] == "--version" {
        println!("bench-textkit {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let mut total = (0, 0);
    let mut last = Vec::new();
    for path in &args {
        let data = match std::fs::read(path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("bench-textkit: {path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let (lines, words) = unsafe {
            (
                tk_line_count(data.as_ptr(), data.len()),
                tk_word_count(data.as_ptr(), data.len()),
            )
        };
        println!("{path}: {lines} lines, {words} words");
        total = (total.0 + lines, total.1 + words);
        last = data;
    }
    println!("total: {} lines, {} words", total.0, total.1);
    let head = &last[..last.len().min(120)];
    unsafe { tk_base64_emit(head.as_ptr(), head.len()) };
    if let Err(e) = textkit_host::flush() {
        eprintln!("bench-textkit: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
