//! Builds the C++ shim against LLVM 22 and links libLLVM-22.
//!
//! LLVM is found through `llvm-config-22`, or the program named by the
//! `LLVM_CONFIG` environment variable. Only the shim sources (`shim/*.cpp`), this script
//! and `LLVM_CONFIG` trigger a rebuild, because compiling the shim costs
//! several seconds of LLVM headers.
//!
//! # How binaries find libLLVM at run time
//!
//! A dependency's `cargo:rustc-link-arg` reaches only that package's own
//! binaries and tests, never the final `weld` binary. So this script:
//!
//! * emits `rustc-link-arg=-Wl,-rpath,<libdir>` for this crate's own tests;
//! * publishes the directory as `cargo:libdir=<libdir>` metadata. Because the
//!   package declares `links = "LLVM"`, the build script of a crate that
//!   depends on `lto` directly (the `weld` crate) reads it as
//!   `DEP_LLVM_LIBDIR` and emits the rpath for its own binary:
//!
//!   ```ignore
//!   // linker/build.rs
//!   fn main() {
//!       if let Ok(dir) = std::env::var("DEP_LLVM_LIBDIR") {
//!           println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
//!       }
//!   }
//!   ```
//!
//! With Debian's packages the rpath is belt and braces: libLLVM's soname
//! (`libLLVM.so.22.1`) is also in `/usr/lib/x86_64-linux-gnu`, which the
//! dynamic loader searches anyway. It matters for an LLVM elsewhere.

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
    build.debug(false).opt_level(2).warnings(false);
    build.compile("weld_lto_shim");

    // The static shim must precede libLLVM on the link line; cc already emitted
    // it (and libstdc++), so the LLVM library comes after.
    for flag in ldflags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        }
    }
    println!("cargo:rustc-link-search=native={libdir}");
    let mut linked = false;
    for flag in libs.split_whitespace() {
        if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
            linked = true;
        }
    }
    if !linked {
        println!("cargo:rustc-link-lib=dylib=LLVM-{LLVM_MAJOR}");
    }
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
    println!("cargo:libdir={libdir}");
    println!("cargo:rustc-env=WELD_LLVM_LIBDIR={libdir}");
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
