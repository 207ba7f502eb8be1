//! The `weld` executable: it behaves the same under any name (`weld`, `ld.weld`, `ld`, `ld.lld`).

fn main() {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    std::process::exit(weld::driver::main_entry(argv));
}
