//! The `weld` executable: it behaves the same under any name (`weld`, `ld.weld`, `ld`, `ld.lld`).

fn main() {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let code = weld::driver::main_entry(argv);
    if lto::llvm_failure().is_some() {
        // The failure is reported and the link's temporary files are gone (the driver returned
        // through them); LLVM's state is not to be trusted, so not even its exit-time
        // destructors run.
        use std::io::Write;
        let _ = std::io::stdout().flush();
        lto::exit_after_llvm_failure(code);
    }
    std::process::exit(code);
}
