//! Shared helpers: compile real C/C++ to bitcode with clang-22, build
//! resolutions, link LTO output with ld.lld-22 and run it. A missing tool is a
//! test failure (run scripts/setup), never a skip.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use lto::{BitcodeFile, Resolution};

/// Finds a tool on PATH or fails the test.
pub fn tool(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let p = dir.join(name);
        if p.is_file() {
            return p;
        }
    }
    panic!("{name} not found on PATH; run scripts/setup");
}

/// Runs a command, failing the test with its output if it fails.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Compiles `src` (C, or C++ if `name` ends in .cpp) with clang-22 and the
/// given flags (e.g. `-flto=thin`), returning the output file's bytes.
pub fn compile(dir: &Path, name: &str, src: &str, flags: &[&str]) -> Vec<u8> {
    let src_path = dir.join(name);
    std::fs::write(&src_path, src).unwrap();
    let out = dir.join(format!("{name}.o"));
    let compiler = if name.ends_with(".cpp") {
        "clang++-22"
    } else {
        "clang-22"
    };
    run(Command::new(tool(compiler))
        .args(flags)
        .arg("-c")
        .arg(&src_path)
        .arg("-o")
        .arg(&out));
    std::fs::read(&out).unwrap()
}

/// Opens bitcode with the module id `name`.
pub fn open(bytes: &[u8], name: &str) -> BitcodeFile {
    BitcodeFile::open(bytes, name).unwrap_or_else(|e| panic!("{e}"))
}

/// Index of the symbol called `name`.
pub fn sym(file: &BitcodeFile, name: &str) -> u32 {
    file.symbols()
        .find(|s| s.name == name.as_bytes() && !s.is_asm())
        .unwrap_or_else(|| panic!("no symbol {name} in {}", file.module_id()))
        .index
}

/// Names of a list of symbol indices, sorted.
pub fn names(file: &BitcodeFile, idx: &[u32]) -> Vec<String> {
    let mut v: Vec<String> = idx
        .iter()
        .map(|&i| file.symbol(i as usize).unwrap().display_name().into_owned())
        .collect();
    v.sort();
    v
}

/// A minimal linker resolution for tests: the first definition of a name
/// prevails; a name in `native_refs` is referenced from native code (crt1.o
/// references `main`) and so is visible to regular objects.
pub fn resolve(files: &[&BitcodeFile], native_refs: &[&str]) -> Vec<Vec<Resolution>> {
    let mut seen = std::collections::HashSet::new();
    files
        .iter()
        .map(|f| {
            f.symbols()
                .map(|s| {
                    let prevailing = s.is_defined() && seen.insert(s.name.to_vec());
                    Resolution {
                        prevailing,
                        visible_to_regular_obj: native_refs.iter().any(|n| n.as_bytes() == s.name),
                        final_definition_in_linkage_unit: prevailing,
                        export_dynamic: false,
                        linker_redefined: false,
                    }
                })
                .collect()
        })
        .collect()
}

/// Links objects into a (PIE) executable with clang-22 driving ld.lld-22,
/// runs it and returns its standard output.
pub fn link_and_run(dir: &Path, objects: &[Vec<u8>]) -> String {
    let mut cmd = Command::new(tool("clang-22"));
    cmd.arg("-fuse-ld=lld")
        .arg(format!("--ld-path={}", tool("ld.lld-22").display()));
    for (i, o) in objects.iter().enumerate() {
        let p = dir.join(format!("lto{i}.o"));
        std::fs::write(&p, o).unwrap();
        cmd.arg(p);
    }
    let exe = dir.join("prog");
    cmd.arg("-o").arg(&exe);
    run(&mut cmd);
    run(&mut Command::new(&exe))
}

/// Section names of an ELF object.
pub fn section_names(obj: &[u8]) -> Vec<String> {
    use object::{Object as _, ObjectSection as _};
    let file =
        object::read::elf::ElfFile64::<object::Endianness>::parse(obj).expect("LTO output is ELF");
    file.sections()
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect()
}

/// Wraps raw bitcode in the 0x0B17C0DE header (as Apple's and some build
/// tools' bitcode files are), built by hand.
pub fn wrap(bitcode: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&0x0B17_C0DEu32.to_le_bytes()); // magic
    v.extend_from_slice(&0u32.to_le_bytes()); // version
    v.extend_from_slice(&20u32.to_le_bytes()); // offset of the bitcode
    v.extend_from_slice(&(bitcode.len() as u32).to_le_bytes()); // size
    v.extend_from_slice(&0x0100_0007u32.to_le_bytes()); // CPU type: x86-64
    v.extend_from_slice(bitcode);
    // Some producers pad the file; the size field must be what counts.
    v.extend_from_slice(&[0; 12]);
    v
}
