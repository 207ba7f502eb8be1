//! Builds the C++ shim against LLVM 22 as its own shared library,
//! `libweld_llvm.so`, linked with libLLVM-22. The weld binary does not link
//! LLVM: `ffi.rs` opens the shim (and with it libLLVM and the libraries LLVM
//! needs) the first time something asks for LLVM — a bitcode input, LTO, a
//! name only LLVM demangles — so a native link never maps libLLVM.
//!
//! LLVM is found through `llvm-config-22`, or the program named by the
//! `LLVM_CONFIG` environment variable. Only the shim sources (`shim/*.cpp`), this script
//! and `LLVM_CONFIG` trigger a rebuild, because compiling the shim costs
//! several seconds of LLVM headers.
//!
//! The library's path is compiled into the crate (`WELD_LLVM_SHIM`); at run
//! time `ffi.rs` looks for `libweld_llvm.so` beside the executable first (an
//! installed weld), then at that path. The shim has an rpath to LLVM's
//! library directory, so an LLVM outside the loader's default paths works.

use std::env;
use std::process::{exit, Command};

/// The LLVM major version whose C++ API the shim is written against.
const LLVM_MAJOR: &str = "22";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=shim/lto_shim.cpp");
    println!("cargo:rerun-if-changed=shim/layout_shim.cpp");
    println!("cargo:rerun-if-changed=shim/shim_strings.h");
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG");
    if env::var_os("CARGO_FEATURE_LLVM").is_none() {
        return;
    }

    let llvm_config =
        env::var("LLVM_CONFIG").unwrap_or_else(|_| format!("llvm-config-{LLVM_MAJOR}"));
    let version = llvm_config_output(&llvm_config, &["--version"]);
    if version.split('.').next() != Some(LLVM_MAJOR) {
        die(&format!(
            "{llvm_config} reports LLVM {version}, but weld's LTO shim is written against LLVM {LLVM_MAJOR}; \
             run scripts/setup or point LLVM_CONFIG at llvm-config-{LLVM_MAJOR}"
        ));
    }
    let cxxflags = llvm_config_output(&llvm_config, &["--cxxflags"]);
    let libdir = llvm_config_output(&llvm_config, &["--libdir"]);
    let ldflags = llvm_config_output(&llvm_config, &["--ldflags"]);
    let libs = llvm_config_output(&llvm_config, &["--link-shared", "--libs"]);

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("shim/lto_shim.cpp")
        .file("shim/layout_shim.cpp");
    for flag in cxxflags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-I") {
            build.include(dir);
        } else {
            build.flag(flag);
        }
    }
    // LLVM is built without exceptions, but the C++ library it calls throws
    // (std::length_error from a vector sized by a corrupt file, std::bad_alloc).
    // The shim catches them at its guards (`contained`), which needs exceptions
    // on in the shim itself; they would otherwise unwind into Rust, which
    // aborts on foreign exceptions.
    build.flag("-fexceptions");
    // Debug info over LLVM's headers multiplies the object size and compile
    // time for no benefit to weld's users; the shim is thin enough to debug
    // from the Rust side. Optimize always: the debug profile is used for tests.
    build.debug(false).opt_level(2).warnings(false).pic(true);
    // Under `cargo fuzz` the `cc` crate would instrument the shim with the sanitizer the Rust
    // code is built with, and link the shim against the sanitizer's shared runtime; opened
    // into a process that has the static one, the two collide. The shim is LLVM's code, not
    // what is fuzzed: it is never instrumented.
    build.flag("-fno-sanitize=all");
    let objects = build.compile_intermediates();

    // One shared library of the shim's objects, linked with libLLVM.
    let out_dir = env::var("OUT_DIR").unwrap_or_else(|_| die("OUT_DIR is not set"));
    let shim = std::path::Path::new(&out_dir).join("libweld_llvm.so");
    let mut link = build.get_compiler().to_command();
    link.arg("-shared")
        .arg("-o")
        .arg(&shim)
        .args(&objects)
        .arg("-Wl,-soname,libweld_llvm.so")
        .arg(format!("-Wl,-rpath,{libdir}"));
    for flag in ldflags.split_whitespace() {
        link.arg(flag);
    }
    link.arg(format!("-L{libdir}"));
    let mut linked = false;
    for flag in libs.split_whitespace() {
        if flag.starts_with("-l") {
            link.arg(flag);
            linked = true;
        }
    }
    if !linked {
        link.arg(format!("-lLLVM-{LLVM_MAJOR}"));
    }
    match link.status() {
        Ok(s) if s.success() => {}
        Ok(s) => die(&format!("linking {} failed ({s})", shim.display())),
        Err(e) => die(&format!(
            "cannot run the C++ compiler to link the shim: {e}"
        )),
    }
    println!("cargo:rustc-env=WELD_LLVM_SHIM={}", shim.display());
    println!("cargo:rustc-env=WELD_LLVM_LIBDIR={libdir}");
    println!("cargo:rustc-env=WELD_LLVM_VERSION={version}");
}

/// Runs llvm-config and returns its trimmed stdout, or stops the build with a
/// message that says how to get LLVM.
fn llvm_config_output(program: &str, args: &[&str]) -> String {
    match Command::new(program).args(args).output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        Ok(out) => die(&format!(
            "`{program} {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => die(&format!(
            "cannot run `{program}` ({e}): weld's LTO support needs LLVM {LLVM_MAJOR}. \
             Run scripts/setup to install it, set LLVM_CONFIG to an llvm-config of LLVM {LLVM_MAJOR}, \
             or build crate `lto` without its default `llvm` feature (no bitcode support)"
        )),
    }
}

fn die(msg: &str) -> ! {
    eprintln!("error: {msg}");
    exit(1)
}
