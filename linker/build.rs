//! Gives the weld binary an rpath to libLLVM when it is built with LTO support: link arguments
//! of the `lto` crate's build script do not reach dependents' binaries, so `lto` publishes its
//! library directory (`links = "LLVM"` -> `DEP_LLVM_LIBDIR`) and this script uses it.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_LLVM_LIBDIR");
    if let Ok(dir) = std::env::var("DEP_LLVM_LIBDIR") {
        println!("cargo:rustc-link-arg-bins=-Wl,-rpath,{dir}");
    }
}
