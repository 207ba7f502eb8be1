//! Linker options weld implements as lld does, each checked against ld.lld-22. Every trial builds
//! a small real program or shared library from `testdata/options/<group>/` (see its README.md)
//! with clang-22 (gcc for one variant), links it once with ld.lld-22 and once with weld (through
//! `clang-22 -fuse-ld=lld --ld-path=<linker>`, or by calling the linker directly), and compares
//! the two outputs' structure, normalised so that addresses and offsets may differ but contents
//! and counts may not:
//!
//! * the dynamic section (`llvm-readelf-22 -d`): every tag in file order with its value, except
//!   that address-valued tags (`INIT`, `SYMTAB`, `RELA`, ...) only count as present (run paths
//!   are `$ORIGIN` or directories both sides share, so that string table sizes compare too);
//! * the dynamic symbols (`llvm-readelf-22 --dyn-syms`): name with version, type, binding,
//!   visibility, defined or not;
//! * the dynamic relocations (`llvm-readelf-22 -r`) as a set of (type, symbol) pairs;
//! * `PT_GNU_STACK`'s flags and `p_memsz` (`llvm-readelf-22 -l`);
//! * the program's run: exit status, stdout and stderr.
//!
//! lld's output is the specification, but it is checked first: it must show what the option is
//! about (the tag, flag, symbol or line really is there, the program prints the output stated
//! here), or the trial fails as broken. A trial never passes because nothing happened, and a
//! missing tool is a failure, never a skip.
//!
//! Groups (trials are named `<group>::<variant>`):
//!
//! * `init_fini`: `--init=SYM`/`--fini=SYM` and the single-dash `-init`/`-fini` (through `-Wl`)
//!   on an executable and on a shared library: `DT_INIT`/`DT_FINI` hold the address of the named
//!   function in that same output, and the program prints the same.
//! * `filter`: `--filter=NAME`/`-F NAME` and `--auxiliary=NAME`/`-f NAME` on `-shared` (long,
//!   short and interleaved spellings, with `-soname` and `-rpath`): the ordered list of dynamic
//!   tags, the `FILTER`/`AUXILIARY` values, and a program whose filtee's definition wins.
//! * `z_flags`: `-z global`, `-z initfirst`, `-z interpose`, `-z nodefaultlib`, all four, and all
//!   four with `-z now`, each on an executable and on a shared library: `DT_FLAGS`/`DT_FLAGS_1`.
//! * `stack_size`: `-z stack-size=0x900000` and a decimal size: `PT_GNU_STACK`'s flags and
//!   `p_memsz`; `-z stack-size=xyz` (the linker called directly): both fail with exit code 1, the
//!   same message but for the program name, and no file left behind.
//! * `bsymbolic`: `-Bsymbolic-non-weak`, `-Bsymbolic-non-weak-functions` (and the last of the two
//!   winning; no flag, `-Bsymbolic-functions` and `-Bsymbolic` for contrast) on a library whose own
//!   code calls a strong and a weak function and reads a strong and a weak variable, all four
//!   interposed by the program: which definition the library gets, and its dynamic relocations.
//! * `export_list`: `--export-dynamic-symbol-list=FILE` (globs and `extern "C++"`) on an
//!   executable (its dynamic symbols), and on a shared library alone, with `-Bsymbolic-functions`
//!   and with `-Bsymbolic` (matched symbols stay preemptible: relocations and the run of an
//!   interposing program).
//! * `trace`: `--trace` and `-t` with an object, an llvm-ar archive member and a shared library:
//!   the linker's stdout lines.
//! * `needed_path`: a library without `DT_SONAME` given as `sub/libx.so` or as `-L sub -lx`:
//!   `DT_NEEDED` is the path as given or the file name.
//! * `push_state`: `-Wl,--push-state,-static,--pop-state` around nothing in a normal dynamic
//!   link through gcc and through clang: the output is dynamic and runs like lld's.
//! * `shlib_undefined`: lld's check of shared libraries' undefined references (on by default
//!   for executables; `--allow-shlib-undefined`, `--no-allow-shlib-undefined`,
//!   `--warn-unresolved-symbols`, `-shared`), the linker called directly on a library that needs
//!   a symbol nothing defines, that another library defines, that the program defines hidden,
//!   or whose own `DT_NEEDED` is not in the link: exit code, diagnostics but for the program
//!   name, no file left behind on error, and the dynamic symbols on success.
//! * `relr`: `-z pack-relative-relocs`, `--pack-dyn-relocs=relr`, `--use-android-relr-tags`
//!   (and `-z pack-relative-relocs` winning over `--pack-dyn-relocs=none`) on a shared library
//!   and a PIE: the places `.relr.dyn` relocates, its type, the dynamic section, `.rela.dyn`,
//!   the version needs (`GLIBC_ABI_DT_RELR`), and the run where glibc can run it.
//! * `branch_to_branch`: `--branch-to-branch`, `-O2` (which turns it on), `--no-branch-to-branch`
//!   after either, `-O1`, and `-shared`: calls and jumps (and a relative table's `f@PLT - table`
//!   entries) whose destination is a lone `jmp` go where the chain of jumps ends, except through
//!   preemptible symbols and out of non-executable sections; the code (all of it, or the changed
//!   functions modulo addresses where lld's `-O2` string merging moves data) and the run; bad
//!   `-O` levels fail as lld's.
//! * `bb_jumps`: `--optimize-bb-jumps` (off again with `--no-optimize-bb-jumps`, and together
//!   with `--branch-to-branch`) on basic-block sections: `.text` shrinks by the jumps deleted,
//!   conditional jumps are flipped; the whole disassembly with its padding, `.symtab` and the run.
//! * `split_stack`: gcc `-fsplit-stack` code calling code compiled without it: adjusted
//!   prologues and calls to `__morestack_non_split` (`--split-stack-adjust-size` changes nothing
//!   on x86-64, as in lld 22), no adjustment when the callee is split-stack, none and no error
//!   in an object marked `.note.GNU-no-split-stack`; lld's errors for an unadjustable prologue,
//!   a missing `__morestack_non_split` and bad sizes.
//! * `reports`: `--dependency-file` (inputs found by `-l` in a directory with a space, an
//!   archive, a shared library, a version script), `--print-archive-stats` (an archive given
//!   twice; a `--start-lib` object; to stdout), `-y`/`--trace-symbol` (references,
//!   definitions, lazy and shared definitions, `-u`) and `--cref`: the output is byte for byte
//!   lld's.
//! * `noinhibit_exec`: `--noinhibit-exec` with an undefined symbol and a duplicate definition
//!   (alone, under `--fatal-warnings`, and without the option), and `--error-handling-script`
//!   (an undefined symbol, a missing library; the script succeeding, failing, missing): exit
//!   code, diagnostics (the script's output included) and whether the output is written.
//! * `output_shape`: `-z wxneeded`, `-z nognustack`, `--package-metadata` (percent-encoded),
//!   `-z start-stop-visibility=`, `--no-gnu-unique` (gcc's `STB_GNU_UNIQUE` template data),
//!   `--retain-symbols-file` (with `--export-dynamic`):
//!   program headers, notes and `.note.package`'s bytes, `.symtab`, `.dynsym`, the dynamic
//!   section, run.
//! * `gnu_compat`: options GNU ld or mold has and lld lacks, compared with GNU ld (`--audit`,
//!   `--depaudit`/`-P` and the `DT_AUDIT` of a library linked against, `-z nodump`,
//!   `--dynamic-list-data`, `-z ibt`, `-z x86-64-vN`, `--default-symver`), checked alone
//!   (mold's `--spare-program-headers`, `--section-align`, `--hash-style=none`,
//!   `-z execstack-if-needed`) or with lld's own spelling (`--reverse-sections` as
//!   `--shuffle-sections='*=-1'`, `--thread-count=1` and `--no-threads` as `--threads=1`), and
//!   `-r` with `--force-group-allocation` (lld's) and `--relocatable-merge-sections` (mold's):
//!   the tags, symbols, properties or sections the option changes, the layout, the run.
//! * `headers_layout`: `-mcmodel=medium` data (`.ldata`, `.lbss`, `.lrodata`) with and without
//!   `-z lrodata-after-bss` (PIE and not), `-z keep-data-section-prefix`, `-z nosectionheader`
//!   (PIE and `-static`, then undone by `-z sectionheader`): the ELF header, program headers
//!   and allocated section headers, the file size without section headers, the run.
//! * `fortran_common`: `--fortran-common` / `--no-fortran-common` (and neither): an archive
//!   member defining a common symbol for real is loaded only with the option (run,
//!   `--why-extract`, `.symtab`).
//! * `time_trace`: `--time-trace` (next to the output, `=FILE`, `-plugin-opt=time-trace=`):
//!   the file is a Chrome trace with a `Total ExecuteLinker` event holding weld's phases.
//! * `reproduce`: `--reproduce=repro.tar` written by weld and by ld.lld-22, each unpacked and
//!   replayed by both linkers (`@response.txt`); every replay runs like the original program.
//! * `dead_reloc_in_nonalloc`: `-z dead-reloc-in-nonalloc=GLOB=VALUE` (none, one rule, two
//!   rules where the later wins): the tombstones debug info gets for a discarded COMDAT copy.
//! * `paging`: `-N`/`--omagic` and `-n`/`--nmagic` (and `--no-omagic`) on a static program:
//!   every program header and allocated section header, exactly (no PT_PHDR, headers outside
//!   the PT_LOAD, one RWX segment for `-N`, no RELRO), the run; the page-size warnings; `-N`
//!   implying `-Bstatic` for the `-l` options after it.
//! * `just_symbols`: `--just-symbols=` an object, a static executable, a shared library (the
//!   symbols' lines in `.symtab`, in order; the run printing their addresses), and a missing
//!   file, a non-ELF file, an archive (diagnostics, exit code, no output).
//! * `deplibs`: `.deplibs` library specifiers (a library name found by `-l` lookup, a file
//!   name found in the search directories), with `--dependent-libraries`, missing, and
//!   ignored under `--no-dependent-libraries`, and the same from bitcode
//!   (`llvm.dependent-libraries`): run and dynamic section, or diagnostics.
//! * `apply_dynamic_relocs`: what places with dynamic relocations hold (0 by default, the
//!   link-time value with `--apply-dynamic-relocs`, the value for RELR): the bytes of the
//!   writable and RELRO sections of a library and a PIE, run.
//! * `z_rel`: `-z rel` (and `-z rela` after it, with `--apply-dynamic-relocs`, in a static
//!   program): relocations, relocation sections, dynamic section, data bytes, IPLT bounds.
//! * `section_order`: `--shuffle-sections=GLOB=SEED` (lld's permutation for globs that match
//!   only input sections; reverse with -1; with `--gc-sections`) and
//!   `--randomize-section-padding=SEED`: symbol order and allocated sections as lld's, run,
//!   reproducibility; malformed values.
//! * `ordering`: `--symbol-ordering-file` (functions and data; missing, repeated, absolute,
//!   shared, undefined and collected names; `--no-warn-symbol-ordering`, with `--gc-sections`,
//!   with `--shuffle-sections`, after `-flto=thin`), `--call-graph-ordering-file` with
//!   `--call-graph-profile-sort=cdsort|hfsort|none`, the objects' `.llvm.call-graph-profile`
//!   (the default cdsort, hfsort, `--no-call-graph-profile-sort`, CREL relocations, a section
//!   without relocations, after LTO) and `--print-symbol-order`: the functions' and variables'
//!   order, the allocated sections, the diagnostics, the printed order byte for byte and the
//!   run as lld's; bad input (missing files, both files, a bad sort, malformed call graph
//!   lines, a profile section with records of the wrong size, `--fatal-warnings`) fails as
//!   lld's.
//! * `unique`: `--unique` and `--xosegment` on a program without the C library: allocated
//!   sections and program headers as lld's, run.
//! * `icf`: `--icf=all`, `--icf=safe` (objects with and without `.llvm_addrsig`), `--icf=none`
//!   after `--icf=all`, `--keep-unique=` (both spellings), `--ignore-data-address-equality`
//!   (with `all` and with `safe`), `--no-print-icf-sections`, a `-shared` library (preemptible
//!   callees keep their callers apart), C++ template instances next to functions with
//!   different LSDAs, and the same linked `-static` (libstdc++.a's and libc.a's sections fold
//!   too), and with `-fpatchable-function-entry=2 -g` (the entries and the debug info of
//!   folded functions): the `--print-icf-sections` lines, the sets of symbols sharing an
//!   address, `.text`'s size, those sections' bytes and `DW_AT_low_pc`/`DW_AT_high_pc` values,
//!   and the run; linking directly: `--icf=bogus`, `--icf` and `--keep-unique` naming no
//!   symbol (exit code, diagnostics, files left).
//! * `android_packed`: `--pack-dyn-relocs=android` and `android+relr` (a library and a PIE):
//!   `.rela.dyn`'s APS2 bytes, the relocations decoded from them, the relocation sections'
//!   headers, the dynamic section.
//! * `plt_variants`: lld's x86-64 PLT layouts. The IBT PLT (`.plt` with the lazy halves plus
//!   `.plt.sec`) for a PIE whose every object has IBT and SHSTK (its own `_start`, lazy and
//!   `-z now`), for `-z force-ibt` on objects without them and for a static program without
//!   libc whose IFUNCs get IBT `.iplt` entries; `-z force-ibt` on a static program with libc.a
//!   (a warning per member, in lld's order); `-z cet-report=warning` (with and without
//!   `-z force-ibt`); `-z retpolineplt` lazy, with `-z now`, static (a `.plt` with only the
//!   header) and on IBT objects (lld's zero-filled `.plt`). Compared: the PLT-related section
//!   headers (all but addresses), the PLT code disassembled by llvm-objdump-22 with every
//!   address named as section+offset, what each `.got.plt` slot points to, the feature note,
//!   the dynamic section, the diagnostics and the run. `-z ifunc-noplt -z notext`: the
//!   references to the program's IFUNCs become dynamic relocations of their own types (the
//!   `.rela.dyn` records with places as section+offset, the dynamic symbols and section, the
//!   code around them, the way glibc refuses to start both programs); on a file-local IFUNC
//!   lld writes a relocation against no symbol, weld refuses. Linking directly: `-z cet-report=error`
//!   (errors, then lld's undefined-symbol errors; nothing written), a bad or missing
//!   `-z cet-report=` value, `-z force-ibt` with `-z retpolineplt`: exit code, diagnostics,
//!   files left.
//! * `compress`: `--compress-debug-sections=zlib|zstd|none` (the last one winning) and
//!   `--compress-sections=GLOB=TYPE[:LEVEL]` (globs, levels, `=none` exempting a debug section,
//!   winning over `--compress-debug-sections` whatever their order) on a `-g` program with a
//!   non-allocated section of its own (and one of 2.3 MiB, compressed in several shards): non-allocated section headers (type, flags with `C`,
//!   alignment, entry size), every section decompressed against weld's uncompressed link and
//!   lld's decompressed output, `llvm-dwarfdump-22 --verify`, gdb's lines and backtrace, run;
//!   bad values and an `SHF_ALLOC` section named (linker called directly): exit code, lld's
//!   message, no output.
//! * `emit_relocs`: `--emit-relocs` (and `-q`) on a C program (statics, string literals,
//!   relaxable GOT and TLS references, a function-pointer table, a function only
//!   `--gc-sections` drops) and a C++ program with exceptions and a template instantiated in two
//!   files (a discarded COMDAT copy), from clang and gcc, as a PIE, static, with
//!   `--gc-sections`, with `-x` and `-X` (the locals relocations name stay), and as a shared
//!   library with the program using it (debug info on): the relocation sections' headers, every
//!   relocation of the sections `--emit-relocs` writes (offset, type, symbol name, addend), the
//!   `.symtab` lines of the section symbols and of the programs' own symbols (the whole
//!   `.symtab` but for static links), the run; `--emit-relocs` with `-s`: lld's error; a
//!   relocation of a non-debug section naming a discarded COMDAT copy's section: lld's warning
//!   (an error under `--fatal-warnings`) and `R_X86_64_NONE`.
//! * `gdb_index`: `--gdb-index` on C (DWARF 4 and 5 units in one program, `-ggnu-pubnames`),
//!   C++ from clang and gcc (namespaces, a class, templates with a discarded COMDAT copy, with
//!   `--icf=all`), without pubnames, `-gsplit-dwarf`, DWARF64, an object of two units made by
//!   `ld.lld-22 -r`, `--gc-sections` removing a
//!   function, `--compress-debug-sections=zlib`, compressed inputs (`-gz=zlib`/`zstd`) and a
//!   shared library: the index decoded by `llvm-dwarfdump-22 --gdb-index` and its bytes (DWARF64:
//!   all but the CU lengths, which lld writes 8 bytes short, checked against the units' real
//!   sizes), the non-allocated section headers (no `.debug_gnu_pub*` left), gdb using the index
//!   (`maint print objfiles`), a breakpoint by name and `bt` with no warning of its own, run;
//!   linking directly: `-r --gdb-index` (lld's error, no output), `--no-gdb-index` winning,
//!   malformed `.debug_gnu_pubnames`/`pubtypes` sets (lld's warnings, and its errors under
//!   `--fatal-warnings`).
//! * `bp_order`: balanced partitioning (`--bp-compression-sort=function|data|both|none`,
//!   `--bp-startup-sort=function` with `--irpgo-profile=` of a temporal profile taken from the
//!   program's instrumented run, `--bp-compression-sort-startup-functions`, with a symbol
//!   ordering file, with `--gc-sections --icf=all`, linked `-static`, on ThinLTO objects), each with
//!   `--verbose-bp-section-orderer`: the functions' and variables' order, the report, the
//!   allocated sections and the run equal lld's; lld's option errors; a missing profile.
//! * `debug_names`: `--debug-names` on C (several units, inline functions of a shared header,
//!   a static function of the same name in two units, `-ffunction-sections`; plain, with
//!   `--gc-sections`, `--icf=all`, `--compress-debug-sections=zlib`, `-shared`, one unit
//!   `-gsplit-dwarf`, and an object of two name indexes made by `ld.lld-22 -r`) and C++
//!   (namespaces, templates, a class hierarchy; with `-fdebug-types-section`, whose type units
//!   lld does not merge and warns about; two units using the standard containers and streams:
//!   hundreds of names): the index decoded by `llvm-dwarfdump-22 --debug-names` and its bytes,
//!   the non-allocated section headers, `llvm-dwarfdump-22 --verify`, the link's warnings, what
//!   gdb makes of the program (index, `info functions`, a breakpoint), the run; linking
//!   directly: without the option the inputs' indexes are concatenated (two name indexes, as
//!   lld), `--no-debug-names` winning, `-r --debug-names` (lld's error), type units under
//!   `--fatal-warnings` (lld's errors); objects whose `.debug_names` is corrupted byte by byte:
//!   lld's error messages, exit code 1, no output.
//! * `other_targets`: options lld has for other targets (ARM, AArch64, RISC-V, PowerPC64, MIPS,
//!   Android memory tagging), on an x86-64 link: refused with lld's message, or accepted and
//!   ignored (with lld's warnings and value checks), exactly as ld.lld-22 does.
//!
//! Each trial works in `target/weld-tests/options/<group>-<variant>/`, each linker's outputs (with
//! `*.link.txt` reports of every link and `run.txt` of the program's run) in `lld/` and `weld/`.

use libtest_mimic::{Arguments, Trial};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use weld_tests::build::Compiler;
use weld_tests::checks::{expect_lld, reference, same_lines, strings, Problems};
use weld_tests::dynlink::{self, trial};
use weld_tests::run::{self, Output};
use weld_tests::tools::{self, Linker};
use weld_tests::{dynelf, elf, paths, text_diff, Check};

const GROUP: &str = "options";
const LLVM_AR: &str = "llvm-ar-22";

fn main() {
    let args = Arguments::from_args();
    libtest_mimic::run(&args, trials()).exit();
}

// =============================================================================================
// Variants

/// `init_fini`: name, shared library (else executable), driver flags.
const INIT_VARIANTS: &[(&str, bool, &[&str])] = &[
    ("exe", false, &["-Wl,--init=prog_init,--fini=prog_fini"]),
    (
        "exe_single_dash",
        false,
        &["-Wl,-init,prog_init,-fini,prog_fini"],
    ),
    (
        "shared",
        true,
        &["-Wl,--init=lib_init", "-Wl,--fini=lib_fini"],
    ),
    (
        "shared_single_dash",
        true,
        &["-Wl,-init,lib_init", "-Wl,-fini,lib_fini"],
    ),
];

/// `filter`: name, driver flags naming the filtees and auxiliary libraries.
const FILTER_VARIANTS: &[(&str, &[&str])] = &[
    (
        "long",
        &[
            "-Wl,--filter=libimpl.so",
            "-Wl,--filter=libimpl2.so",
            "-Wl,--auxiliary=libaux.so",
            "-Wl,--auxiliary=libaux2.so",
        ],
    ),
    (
        "short",
        &[
            "-Wl,-F,libimpl.so",
            "-Wl,-F,libimpl2.so",
            "-Wl,-f,libaux.so",
            "-Wl,-f,libaux2.so",
        ],
    ),
    (
        "interleaved",
        &[
            "-Wl,--auxiliary=libaux.so",
            "-Wl,-F,libimpl.so",
            "-Wl,-f,libaux2.so",
            "-Wl,--filter=libimpl2.so",
        ],
    ),
];

/// A dynamic tag and one flag its value must show: `("FLAGS_1", "GLOBAL")`.
type TagFlag = (&'static str, &'static str);

/// `z_flags`: name, driver flags, the `(tag, flag)` pairs lld's output must show.
const Z_VARIANTS: &[(&str, &[&str], &[TagFlag])] = &[
    ("global", &["-Wl,-z,global"], &[("FLAGS_1", "GLOBAL")]),
    (
        "initfirst",
        &["-Wl,-z,initfirst"],
        &[("FLAGS_1", "INITFIRST")],
    ),
    (
        "interpose",
        &["-Wl,-z,interpose"],
        &[("FLAGS_1", "INTERPOSE")],
    ),
    (
        "nodefaultlib",
        &["-Wl,-z,nodefaultlib"],
        &[("FLAGS_1", "NODEFLIB")],
    ),
    (
        "all",
        &["-Wl,-z,global,-z,initfirst,-z,interpose,-z,nodefaultlib"],
        &[
            ("FLAGS_1", "GLOBAL"),
            ("FLAGS_1", "INITFIRST"),
            ("FLAGS_1", "INTERPOSE"),
            ("FLAGS_1", "NODEFLIB"),
        ],
    ),
    (
        "all_now",
        &["-Wl,-z,global,-z,initfirst,-z,interpose,-z,nodefaultlib,-z,now"],
        &[
            ("FLAGS", "BIND_NOW"),
            ("FLAGS_1", "NOW"),
            ("FLAGS_1", "GLOBAL"),
            ("FLAGS_1", "INITFIRST"),
            ("FLAGS_1", "INTERPOSE"),
            ("FLAGS_1", "NODEFLIB"),
        ],
    ),
];

/// `stack_size`: name, the value of `-z stack-size=`, the `p_memsz` lld gives `PT_GNU_STACK`.
const STACK_VARIANTS: &[(&str, &str, u64)] = &[
    ("hex", "0x900000", 0x90_0000),
    ("decimal", "1048576", 0x10_0000),
];

/// What `bsymbolic/main.c` prints after the library's line.
const BSYMBOLIC_MAIN: &str = "main: strong_fn=10 weak_fn=20 strong_var=30 weak_var=40\n";

/// `bsymbolic`: name, the library's link flags, the library's line of the program's output.
const BSYMBOLIC_VARIANTS: &[(&str, &[&str], &str)] = &[
    (
        "default",
        &[],
        "lib: strong_fn=10 weak_fn=20 strong_var=30 weak_var=40\n",
    ),
    (
        "non_weak",
        &["-Wl,-Bsymbolic-non-weak"],
        "lib: strong_fn=1 weak_fn=20 strong_var=3 weak_var=40\n",
    ),
    (
        "non_weak_functions",
        &["-Wl,-Bsymbolic-non-weak-functions"],
        "lib: strong_fn=1 weak_fn=20 strong_var=30 weak_var=40\n",
    ),
    (
        "non_weak_then_non_weak_functions",
        &[
            "-Wl,-Bsymbolic-non-weak",
            "-Wl,-Bsymbolic-non-weak-functions",
        ],
        "lib: strong_fn=1 weak_fn=20 strong_var=30 weak_var=40\n",
    ),
    (
        "functions",
        &["-Wl,-Bsymbolic-functions"],
        "lib: strong_fn=1 weak_fn=2 strong_var=30 weak_var=40\n",
    ),
    (
        "all",
        &["-Wl,-Bsymbolic"],
        "lib: strong_fn=1 weak_fn=2 strong_var=3 weak_var=4\n",
    ),
];

/// `export_list` on a shared library: name, extra link flags of the library, what the
/// interposing program prints.
const EXPORT_SHARED_VARIANTS: &[(&str, &[&str], &str)] = &[
    (
        "shared",
        &[],
        "report: foo=110 bar1=111 bar2=112 baz=113 ns::f1=101 ns::f2=102 ns::g=103\n",
    ),
    (
        "shared_bsymbolic_functions",
        &["-Wl,-Bsymbolic-functions"],
        "report: foo=110 bar1=111 bar2=112 baz=13 ns::f1=101 ns::f2=102 ns::g=3\n",
    ),
    (
        // DF_SYMBOLIC makes the dynamic loader prefer the library's own definitions anyway: the
        // relocations show whether the matched symbols stayed preemptible.
        "shared_bsymbolic",
        &["-Wl,-Bsymbolic"],
        "report: foo=10 bar1=11 bar2=12 baz=13 ns::f1=1 ns::f2=2 ns::g=3\n",
    ),
];

/// Symbols `export_list/list.txt` matches, and symbols of `syms.cpp` it does not.
const LIST_MATCHED: &[&str] = &["foo", "bar1", "bar2", "_ZN2ns2f1Ev", "_ZN2ns2f2Ei"];
const LIST_UNMATCHED: &[&str] = &["baz", "report", "_ZN2ns1gEv"];

/// `needed_path`: name, how the program's link names the library, the `DT_NEEDED` expected.
const NEEDED_VARIANTS: &[(&str, &[&str], &str)] = &[
    ("by_path", &["sub/libx.so"], "sub/libx.so"),
    ("by_lib", &["-Lsub", "-lx"], "libx.so"),
];

fn trials() -> Vec<Trial> {
    let mut t = Vec::new();
    for &(name, shared, flags) in INIT_VARIANTS {
        t.push(trial(GROUP, format!("init_fini::{name}"), move |d| {
            init_fini(d, shared, flags)
        }));
    }
    for &(name, flags) in FILTER_VARIANTS {
        t.push(trial(GROUP, format!("filter::{name}"), move |d| {
            filter(d, flags)
        }));
    }
    for &(name, flags, want) in Z_VARIANTS {
        for shared in [false, true] {
            let kind = if shared { "shared" } else { "exe" };
            t.push(trial(GROUP, format!("z_flags::{name}::{kind}"), move |d| {
                z_flags(d, shared, flags, want)
            }));
        }
    }
    for &(name, value, memsz) in STACK_VARIANTS {
        t.push(trial(GROUP, format!("stack_size::{name}"), move |d| {
            stack_size(d, value, memsz)
        }));
    }
    t.push(trial(
        GROUP,
        "stack_size::invalid".into(),
        stack_size_invalid,
    ));
    for &(name, flags, lib_line) in BSYMBOLIC_VARIANTS {
        t.push(trial(GROUP, format!("bsymbolic::{name}"), move |d| {
            bsymbolic(d, flags, lib_line)
        }));
    }
    t.push(trial(GROUP, "export_list::exe".into(), export_list_exe));
    for &(name, flags, stdout) in EXPORT_SHARED_VARIANTS {
        t.push(trial(GROUP, format!("export_list::{name}"), move |d| {
            export_list_shared(d, flags, stdout)
        }));
    }
    for (name, flag) in [("long", "-Wl,--trace"), ("short", "-Wl,-t")] {
        t.push(trial(GROUP, format!("trace::{name}"), move |d| {
            trace(d, flag)
        }));
    }
    for &(name, args, needed) in NEEDED_VARIANTS {
        t.push(trial(GROUP, format!("needed_path::{name}"), move |d| {
            needed_path(d, args, needed)
        }));
    }
    for c in [Compiler::Gcc, Compiler::Clang] {
        t.push(trial(
            GROUP,
            format!("push_state::{}", c.name()),
            move |d| push_state(d, c),
        ));
    }
    for &(name, inputs, flags, want) in SHLIB_UNDEFINED_VARIANTS {
        t.push(trial(GROUP, format!("shlib_undefined::{name}"), move |d| {
            shlib_undefined(d, inputs, flags, want)
        }));
    }
    for &(name, flags, runs) in RELR_VARIANTS {
        t.push(trial(GROUP, format!("relr::{name}"), move |d| {
            relr(d, flags, runs)
        }));
    }
    for &(name, source) in JUST_SYMBOLS_VARIANTS {
        t.push(trial(GROUP, format!("just_symbols::{name}"), move |d| {
            just_symbols(d, source)
        }));
    }
    t.push(trial(
        GROUP,
        "just_symbols::hidden_grouping".to_string(),
        hidden_grouping,
    ));
    for &(name, source) in JUST_SYMBOLS_ERRORS {
        t.push(trial(GROUP, format!("just_symbols::{name}"), move |d| {
            just_symbols_error(d, source)
        }));
    }
    for &(name, flags, links) in DEPLIBS_VARIANTS {
        t.push(trial(GROUP, format!("deplibs::{name}"), move |d| {
            deplibs(d, flags, links, false)
        }));
    }
    for (name, flags, links) in [
        ("bitcode_found", &["-L{libs}"][..], true),
        ("bitcode_not_found", &[][..], false),
    ] {
        t.push(trial(GROUP, format!("deplibs::{name}"), move |d| {
            deplibs(d, flags, links, true)
        }));
    }
    for &(name, flags) in APPLY_DYNAMIC_RELOCS_VARIANTS {
        t.push(trial(
            GROUP,
            format!("apply_dynamic_relocs::{name}"),
            move |d| apply_dynamic_relocs(d, flags),
        ));
    }
    for &(name, flags, shared_lib) in Z_REL_VARIANTS {
        t.push(trial(GROUP, format!("z_rel::{name}"), move |d| {
            z_rel(d, flags, shared_lib)
        }));
    }
    for &(name, flags, same_order) in SECTION_ORDER_VARIANTS {
        t.push(trial(GROUP, format!("section_order::{name}"), move |d| {
            section_order(d, flags, same_order)
        }));
    }
    for &(name, flag) in SECTION_ORDER_ERRORS {
        t.push(trial(GROUP, format!("section_order::{name}"), move |d| {
            section_order_error(d, flag)
        }));
    }
    for v in ORDERING_VARIANTS {
        t.push(trial(GROUP, format!("ordering::{}", v.name), move |d| {
            ordering(d, v)
        }));
    }
    for &(name, flags) in ORDERING_ERRORS {
        t.push(trial(GROUP, format!("ordering::{name}"), move |d| {
            ordering_error(d, flags)
        }));
    }
    for v in BP_VARIANTS {
        t.push(trial(GROUP, format!("bp_order::{}", v.name), move |d| {
            bp_order(d, v)
        }));
    }
    for &(name, flags) in BP_ERRORS {
        t.push(trial(GROUP, format!("bp_order::{name}"), move |d| {
            bp_order_error(d, flags)
        }));
    }
    t.push(trial(
        GROUP,
        "bp_order::missing_profile".to_string(),
        bp_missing_profile,
    ));
    for &(name, flags) in UNIQUE_VARIANTS {
        t.push(trial(GROUP, format!("unique::{name}"), move |d| {
            unique(d, flags)
        }));
    }
    for v in ICF_VARIANTS {
        t.push(trial(GROUP, format!("icf::{}", v.name), move |d| icf(d, v)));
    }
    for &(name, flags) in ICF_ERRORS {
        t.push(trial(GROUP, format!("icf::{name}"), move |d| {
            icf_direct(d, flags)
        }));
    }
    for &(name, flags) in ANDROID_PACKED_VARIANTS {
        t.push(trial(GROUP, format!("android_packed::{name}"), move |d| {
            android_packed(d, flags)
        }));
    }
    for &(name, args, file) in REPORT_VARIANTS {
        t.push(trial(GROUP, format!("reports::{name}"), move |d| {
            reports(d, args, file)
        }));
    }
    for &(name, inputs, flags) in NOINHIBIT_VARIANTS {
        t.push(trial(GROUP, format!("noinhibit_exec::{name}"), move |d| {
            noinhibit_exec(d, inputs, flags)
        }));
    }
    t.push(trial(
        GROUP,
        "output_shape::dso_handle".to_string(),
        dso_handle,
    ));
    for &(name, c, src, shared, flags) in OUTPUT_SHAPE_VARIANTS {
        t.push(trial(GROUP, format!("output_shape::{name}"), move |d| {
            output_shape(d, c, src, shared, flags)
        }));
    }
    for &(name, flags, stdout) in FORTRAN_COMMON_VARIANTS {
        t.push(trial(GROUP, format!("fortran_common::{name}"), move |d| {
            fortran_common(d, flags, stdout)
        }));
    }
    for &(name, flag, file) in TIME_TRACE_VARIANTS {
        t.push(trial(GROUP, format!("time_trace::{name}"), move |d| {
            time_trace(d, flag, file)
        }));
    }
    for (name, maker) in [("by_weld", "weld"), ("by_lld", "lld")] {
        t.push(trial(GROUP, format!("reproduce::{name}"), move |d| {
            reproduce(d, maker)
        }));
    }
    for &(name, flags) in TOMBSTONE_VARIANTS {
        t.push(trial(
            GROUP,
            format!("dead_reloc_in_nonalloc::{name}"),
            move |d| dead_reloc_in_nonalloc(d, flags),
        ));
    }
    for &(name, flags, stdout) in PAGING_VARIANTS {
        t.push(trial(GROUP, format!("paging::{name}"), move |d| {
            paging(d, flags, stdout)
        }));
    }
    for (name, static_lib) in [("implies_bstatic", true), ("bdynamic_after", false)] {
        t.push(trial(GROUP, format!("paging::{name}"), move |d| {
            paging_library_search(d, static_lib)
        }));
    }
    for &(name, flags, compressed, plain) in COMPRESS_VARIANTS {
        t.push(trial(GROUP, format!("compress::{name}"), move |d| {
            compress(d, flags, compressed, plain)
        }));
    }
    for &(name, args) in COMPRESS_ERRORS {
        t.push(trial(GROUP, format!("compress::{name}"), move |d| {
            compress_error(d, args)
        }));
    }
    for v in PLT_VARIANTS {
        t.push(trial(
            GROUP,
            format!("plt_variants::{}", v.name),
            move |d| plt_variant(d, v),
        ));
    }
    t.push(trial(
        GROUP,
        "plt_variants::ifunc_noplt".into(),
        ifunc_noplt,
    ));
    t.push(trial(
        GROUP,
        "plt_variants::ifunc_noplt_local".into(),
        ifunc_noplt_local,
    ));
    for &(name, want, args) in PLT_OUTCOME_VARIANTS {
        t.push(trial(GROUP, format!("plt_variants::{name}"), move |d| {
            plt_outcome(d, want, args)
        }));
    }
    for &(name, flags) in OTHER_TARGET_VARIANTS {
        t.push(trial(GROUP, format!("other_targets::{name}"), move |d| {
            other_targets(d, flags)
        }));
    }
    for &(name, reference) in GNU_COMPAT_VARIANTS {
        t.push(trial(GROUP, format!("gnu_compat::{name}"), move |d| {
            gnu_compat(d, name, reference)
        }));
    }
    for &(name, pic, flags) in HEADERS_LAYOUT_VARIANTS {
        t.push(trial(GROUP, format!("headers_layout::{name}"), move |d| {
            headers_layout(d, pic, flags)
        }));
    }
    for &(name, flags, rewrites, same_layout) in B2B_VARIANTS {
        t.push(trial(
            GROUP,
            format!("branch_to_branch::{name}"),
            move |d| branch_to_branch(d, flags, rewrites, same_layout),
        ));
    }
    t.push(trial(
        GROUP,
        "branch_to_branch::shared".to_string(),
        branch_to_branch_shared,
    ));
    for &(name, flags) in OPT_LEVEL_ERRORS {
        t.push(trial(
            GROUP,
            format!("branch_to_branch::opt_level_{name}"),
            move |d| opt_level_error(d, flags),
        ));
    }
    for &(name, flags, shrinks) in BB_JUMPS_VARIANTS {
        t.push(trial(GROUP, format!("bb_jumps::{name}"), move |d| {
            bb_jumps(d, flags, shrinks)
        }));
    }
    for &(name, flags, callee_split) in SPLIT_STACK_VARIANTS {
        t.push(trial(GROUP, format!("split_stack::{name}"), move |d| {
            split_stack(d, flags, callee_split)
        }));
    }
    t.push(trial(
        GROUP,
        "split_stack::marked".to_string(),
        split_stack_marked,
    ));
    for &(name, sources, flags) in SPLIT_STACK_ERRORS {
        t.push(trial(GROUP, format!("split_stack::{name}"), move |d| {
            split_stack_error(d, sources, flags)
        }));
    }
    for v in EMIT_RELOCS_VARIANTS {
        t.push(trial(GROUP, format!("emit_relocs::{}", v.name), move |d| {
            emit_relocs(d, v)
        }));
    }
    t.push(trial(
        GROUP,
        "emit_relocs::strip_all".to_string(),
        emit_relocs_strip_all,
    ));
    for &(name, flags) in EMIT_RELOCS_DISCARDED {
        t.push(trial(GROUP, format!("emit_relocs::{name}"), move |d| {
            emit_relocs_discarded(d, flags)
        }));
    }
    for v in GDB_INDEX_VARIANTS {
        t.push(trial(GROUP, format!("gdb_index::{}", v.name), move |d| {
            gdb_index(d, v)
        }));
    }
    for &(name, args, sources) in GDB_INDEX_DIRECT {
        t.push(trial(GROUP, format!("gdb_index::{name}"), move |d| {
            gdb_index_direct(d, args, sources)
        }));
    }
    for v in DEBUG_NAMES_VARIANTS {
        t.push(trial(GROUP, format!("debug_names::{}", v.name), move |d| {
            debug_names(d, v)
        }));
    }
    for &(name, flags) in DEBUG_NAMES_DIRECT {
        t.push(trial(GROUP, format!("debug_names::{name}"), move |d| {
            debug_names_direct(d, flags)
        }));
    }
    t.push(trial(
        GROUP,
        "debug_names::type_units_fatal_warnings".to_string(),
        debug_names_type_units_fatal,
    ));
    for &(name, patch, message) in DEBUG_NAMES_CORRUPT {
        t.push(trial(GROUP, format!("debug_names::{name}"), move |d| {
            debug_names_corrupt(d, patch, message)
        }));
    }
    t.push(Trial::test("support::parsers", || {
        self_test().map_err(Into::into)
    }));
    t
}

// =============================================================================================
// Building, linking, running

fn src_dir(group: &str) -> PathBuf {
    paths::workspace_root()
        .join("testdata")
        .join("options")
        .join(group)
}

/// `testdata/options/<group>/<file>` compiled (`-O1 -g0 FLAGS`, cached across runs).
fn obj(group: &str, file: &str, c: Compiler, flags: &[&str]) -> Result<PathBuf, String> {
    dynlink::object(&src_dir(group), file, c, flags)
}

fn arg(p: &Path) -> String {
    p.display().to_string()
}

/// One linker's half of a trial: its outputs go to `<trial>/<label>/`.
struct Side {
    linker: Linker,
    dir: PathBuf,
}

impl Side {
    fn label(&self) -> &'static str {
        self.linker.label
    }

    /// Links `args` through the driver of `c` into `<dir>/<out>` (the driver runs in `cwd`, by
    /// default the output's directory); the report is saved as `<out>.link.txt`. Ok only if the
    /// link succeeded, wrote the output, and the output comes from this linker.
    fn link_in(
        &self,
        cwd: Option<&Path>,
        c: Compiler,
        cxx: bool,
        args: &[String],
        out: &str,
    ) -> Result<(PathBuf, Output), String> {
        let path = self.dir.join(out);
        let _ = std::fs::remove_file(&path);
        let mut cmd = dynlink::link_command(c, cxx, &self.linker, args, &path)?;
        if let Some(cwd) = cwd {
            cmd.current_dir(cwd);
        }
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&self.dir.join(format!("{out}.link.txt")), o.report())?;
        dynlink::check_link(&o, &self.linker, &path)?;
        Ok((path, o))
    }

    fn link(&self, c: Compiler, cxx: bool, args: &[String], out: &str) -> Result<PathBuf, String> {
        if self.linker.label == "bfd" {
            return self.link_gnu(c, cxx, args, out);
        }
        Ok(self.link_in(None, c, cxx, args, out)?.0)
    }

    /// A link by GNU ld, which names itself nowhere in the output: the driver must succeed and
    /// write the output, and the output must not come from lld or weld.
    fn link_gnu(
        &self,
        c: Compiler,
        cxx: bool,
        args: &[String],
        out: &str,
    ) -> Result<PathBuf, String> {
        let path = self.dir.join(out);
        let _ = std::fs::remove_file(&path);
        let mut cmd = dynlink::link_command(c, cxx, &self.linker, args, &path)?;
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&self.dir.join(format!("{out}.link.txt")), o.report())?;
        if !o.success() || !path.is_file() {
            return Err(format!("GNU ld's link of {out} failed\n{}", o.report()));
        }
        if dynlink::linked_by_lld(&path).is_ok() || dynlink::linked_by_weld(&path).is_ok() {
            return Err(format!("{out} was not linked by GNU ld"));
        }
        Ok(path)
    }

    /// Runs `exe` in this side's directory (no `LD_LIBRARY_PATH`); saved as `run.txt`.
    fn run(&self, exe: &Path) -> Result<Output, String> {
        let o = dynlink::run_exe(exe, &[], None, &self.dir)?;
        paths::write(&self.dir.join("run.txt"), o.report())?;
        Ok(o)
    }
}

/// lld's side and weld's side of a trial, with fresh directories.
fn sides(dir: &Path) -> Result<(Side, Side), String> {
    let [lld, weld] = dynlink::linkers()?;
    let mk = |linker: Linker| -> Result<Side, String> {
        let d = dir.join(linker.label);
        paths::fresh_dir(&d)?;
        Ok(Side { linker, dir: d })
    };
    Ok((mk(lld)?, mk(weld)?))
}

/// lld's program must exit with `code` printing exactly `stdout`.
fn expect_lld_run(o: &Output, code: i32, stdout: &str) -> Check {
    expect_lld(o.code == Some(code) && o.stdout_str() == stdout, || {
        format!(
            "the program linked by ld.lld-22 should exit with {code} printing {stdout:?}\n{}",
            o.report()
        )
    })
}

/// weld's run must be lld's: status, stdout, stderr.
fn same_run(weld: &Output, lld: &Output) -> Check {
    let p = run::run_differences("weld", weld, "lld", lld);
    if p.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the programs behave differently:\n{}\nweld's run: {}\nlld's run: {}",
            p.join("\n"),
            weld.cmdline,
            lld.cmdline
        ))
    }
}

// =============================================================================================
// Reading outputs

/// The dynamic section of `file` as `TAG value` lines in file order (see `dynelf::summarise`:
/// address-valued tags as `TAG` alone). Run paths name only directories both sides share, or
/// `$ORIGIN`, so that the string table sizes can be compared too.
fn dyn_lines(file: &Path) -> Result<Vec<String>, String> {
    let entries = dynelf::dynamic(file)?;
    let tags: Vec<&str> = entries.iter().map(|(t, _)| t.as_str()).collect();
    Ok(dynelf::summarise(&entries, &tags))
}

/// Both outputs' dynamic sections are the same (`dyn_lines`).
fn same_dynamic(what: &str, weld: &Path, lld: &Path) -> Check {
    same_lines(
        &format!("the dynamic section of {what}"),
        &dyn_lines(weld)?,
        &dyn_lines(lld)?,
    )
}

/// The dynamic symbols as sorted `name TYPE BIND VIS UND|DEF|ABS` lines (no value, no size).
fn dyn_sym_lines(file: &Path) -> Result<Vec<String>, String> {
    let mut v: Vec<String> = dynelf::dyn_syms(file)?
        .into_iter()
        .map(|s| format!("{} {} {} {} {}", s.name, s.kind, s.bind, s.vis, s.ndx))
        .collect();
    v.sort();
    Ok(v)
}

/// The names (without versions) of the defined dynamic symbols.
fn defined_dyn_names(file: &Path) -> Result<BTreeSet<String>, String> {
    Ok(dynelf::dyn_syms(file)?
        .iter()
        .filter(|s| s.is_defined())
        .map(|s| s.base_name().to_string())
        .collect())
}

/// The dynamic relocations as a set of `TYPE symbol` (symbol without version).
fn reloc_set(file: &Path) -> Result<BTreeSet<String>, String> {
    Ok(dynelf::dyn_relocs(file)?.into_iter().collect())
}

/// `0x1750` -> 0x1750.
fn parse_hex(s: &str) -> Option<u64> {
    u64::from_str_radix(s.trim().strip_prefix("0x")?, 16).ok()
}

/// The value of symbol `name` in the `.symtab` of `llvm-readelf -sW` output.
fn parse_symbol_value(text: &str, name: &str) -> Option<u64> {
    let mut in_symtab = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Symbol table '") {
            in_symtab = t.starts_with("Symbol table '.symtab'");
            continue;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        // Num: Value Size Type Bind Vis Ndx Name
        if in_symtab && toks.len() == 8 && toks[0].ends_with(':') && toks[7] == name {
            return u64::from_str_radix(toks[1], 16).ok();
        }
    }
    None
}

/// `DT_<tag>` of `file` is present once and holds the address of `symbol` in that same file.
fn tag_points_at(file: &Path, tag: &str, symbol: &str) -> Check {
    let entries = dynelf::dynamic(file)?;
    let values: Vec<&String> = entries
        .iter()
        .filter(|(t, _)| t == tag)
        .map(|(_, v)| v)
        .collect();
    let [value] = values[..] else {
        return Err(format!(
            "{} has {} DT_{tag} entries, want one",
            file.display(),
            values.len()
        ));
    };
    let value = parse_hex(value).ok_or_else(|| format!("DT_{tag} value `{value}`"))?;
    let text = dynelf::readelf(&["-sW"], file)?;
    let addr = parse_symbol_value(&text, symbol)
        .ok_or_else(|| format!("{} has no symbol {symbol} in .symtab", file.display()))?;
    if value == addr {
        Ok(())
    } else {
        Err(format!(
            "DT_{tag} of {} is {value:#x}, but {symbol} is at {addr:#x}",
            file.display()
        ))
    }
}

/// `PT_GNU_STACK`'s flags and `p_memsz` from `llvm-readelf -lW` output.
fn parse_gnu_stack(text: &str) -> Option<(String, u64)> {
    text.lines().find_map(|line| {
        let toks: Vec<&str> = line.split_whitespace().collect();
        // Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg... Align
        if toks.first() != Some(&"GNU_STACK") || toks.len() < 8 {
            return None;
        }
        Some((toks[6..toks.len() - 1].join(" "), parse_hex(toks[5])?))
    })
}

fn gnu_stack(file: &Path) -> Result<(String, u64), String> {
    let text = dynelf::readelf(&["-lW"], file)?;
    parse_gnu_stack(&text).ok_or_else(|| format!("{} has no PT_GNU_STACK:\n{text}", file.display()))
}

/// The directory of the libc.so.6 the drivers link against (an `-rpath` for `-z nodefaultlib`).
fn libc_dir() -> Result<PathBuf, String> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(|| {
        let mut cmd = Command::new(tools::find(tools::CLANG)?);
        cmd.arg("-print-file-name=libc.so.6");
        let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("clang-22 -print-file-name")?;
        let p = PathBuf::from(o.stdout_str().trim());
        match p.parent() {
            Some(d) if p.is_absolute() && p.is_file() => Ok(d.to_path_buf()),
            _ => Err(format!("clang-22 cannot find libc.so.6: {}", p.display())),
        }
    })
    .clone()
}

// =============================================================================================
// The trials

/// `--init`/`--fini` (or `-init`/`-fini`) on a program, or on a library a program uses.
fn init_fini(dir: &Path, shared: bool, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    // (the output carrying DT_INIT/DT_FINI, the program)
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        if shared {
            let mut a = vec![
                "-shared".to_string(),
                arg(&obj("init_fini", "lib.c", c, &["-fPIC"])?),
            ];
            a.extend(strings(flags));
            let lib = s.link(c, false, &a, "libinit.so")?;
            let a = vec![
                arg(&obj("init_fini", "use_lib.c", c, &[])?),
                format!("-L{}", s.dir.display()),
                "-linit".into(),
                "-Wl,-rpath,$ORIGIN".to_string(),
            ];
            Ok((lib, s.link(c, false, &a, "a.out")?))
        } else {
            let mut a = vec![arg(&obj("init_fini", "prog.c", c, &[])?)];
            a.extend(strings(flags));
            let exe = s.link(c, false, &a, "a.out")?;
            Ok((exe.clone(), exe))
        }
    };
    let (init, fini, stdout) = if shared {
        (
            "lib_init",
            "lib_fini",
            "lib_init\nmain\nlib_hello\nlib_fini\n",
        )
    } else {
        ("prog_init", "prog_fini", "prog_init\nmain\nprog_fini\n")
    };
    let (l_out, l_exe) = reference(build(&lld))?;
    reference(tag_points_at(&l_out, "INIT", init))?;
    reference(tag_points_at(&l_out, "FINI", fini))?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, stdout)?;

    let (w_out, w_exe) = build(&weld)?;
    let mut p = Problems::default();
    p.check(tag_points_at(&w_out, "INIT", init).map_err(|e| format!("weld: {e}")));
    p.check(tag_points_at(&w_out, "FINI", fini).map_err(|e| format!("weld: {e}")));
    let what = if shared { "libinit.so" } else { "a.out" };
    p.check(same_dynamic(what, &w_out, &l_out));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// `--filter`/`-F` and `--auxiliary`/`-f` on a shared library.
fn filter(dir: &Path, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    // The filtees, linked by ld.lld-22 for both sides; the auxiliary libraries do not exist.
    let impl_dir = dir.join("impl");
    let lld_linker = Linker::lld()?;
    for (src, lib) in [("impl.c", "libimpl.so"), ("impl2.c", "libimpl2.so")] {
        let a = vec![
            "-shared".to_string(),
            arg(&obj("filter", src, c, &["-fPIC"])?),
        ];
        reference(dynlink::link(
            c,
            false,
            &lld_linker,
            &a,
            &impl_dir.join(lib),
        ))?;
    }
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        let mut a = vec![
            "-shared".to_string(),
            arg(&obj("filter", "front.c", c, &["-fPIC"])?),
            "-Wl,-soname,libfront.so".into(),
            format!("-Wl,-rpath,{}", impl_dir.display()),
        ];
        a.extend(strings(flags));
        let lib = s.link(c, false, &a, "libfront.so")?;
        let a = vec![
            arg(&obj("filter", "main.c", c, &[])?),
            format!("-L{}", s.dir.display()),
            "-lfront".into(),
            "-Wl,-rpath,$ORIGIN".to_string(),
        ];
        Ok((lib, s.link(c, false, &a, "a.out")?))
    };
    let (l_lib, l_exe) = reference(build(&lld))?;
    let l_dyn = dyn_lines(&l_lib)?;
    let want = [
        "FILTER libimpl.so",
        "FILTER libimpl2.so",
        "AUXILIARY libaux.so",
        "AUXILIARY libaux2.so",
    ];
    let found: Vec<&str> = l_dyn
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("FILTER ") || l.starts_with("AUXILIARY "))
        .collect();
    expect_lld(found == want, || {
        format!(
            "ld.lld-22's libfront.so should have the entries {want:?}:\n{}",
            l_dyn.join("\n")
        )
    })?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "answer=42\n")?;

    let (w_lib, w_exe) = build(&weld)?;
    let w_dyn = dyn_lines(&w_lib)?;
    let tag_names = |v: &[String]| -> Vec<String> {
        v.iter()
            .map(|l| l.split(' ').next().unwrap_or("").to_string())
            .collect()
    };
    let mut p = Problems::default();
    p.check(same_lines(
        "the order of the dynamic tags of libfront.so",
        &tag_names(&w_dyn),
        &tag_names(&l_dyn),
    ));
    p.check(same_lines(
        "the dynamic section of libfront.so",
        &w_dyn,
        &l_dyn,
    ));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// `-z global/initfirst/interpose/nodefaultlib/now` on the program or on the library.
fn z_flags(dir: &Path, shared: bool, flags: &[&str], want: &[TagFlag]) -> Check {
    let c = Compiler::Clang;
    let libc = libc_dir()?;
    let (lld, weld) = sides(dir)?;
    // (the output linked with the flags, the program)
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        let mut a = vec![
            "-shared".to_string(),
            arg(&obj("z_flags", "lib.c", c, &["-fPIC"])?),
        ];
        if shared {
            a.extend(strings(flags));
        }
        let lib = s.link(c, false, &a, "libz.so")?;
        let mut a = vec![
            arg(&obj("z_flags", "main.c", c, &[])?),
            format!("-L{}", s.dir.display()),
            "-lz".into(),
            // -z nodefaultlib: the dynamic loader no longer looks in the default directories.
            format!("-Wl,-rpath,$ORIGIN:{}", libc.display()),
        ];
        if !shared {
            a.extend(strings(flags));
        }
        let exe = s.link(c, false, &a, "a.out")?;
        Ok((if shared { lib.clone() } else { exe.clone() }, exe))
    };
    let what = if shared { "libz.so" } else { "a.out" };
    let flag_lines = |v: &[String]| -> Vec<String> {
        v.iter()
            .filter(|l| l.starts_with("FLAGS ") || l.starts_with("FLAGS_1 "))
            .cloned()
            .collect()
    };

    let (l_out, l_exe) = reference(build(&lld))?;
    let l_dyn = dyn_lines(&l_out)?;
    for (tag, flag) in want {
        let prefix = format!("{tag} ");
        expect_lld(
            l_dyn.iter().any(|l| {
                l.strip_prefix(&prefix)
                    .is_some_and(|v| v.split_whitespace().any(|f| f == *flag))
            }),
            || {
                format!(
                    "ld.lld-22's {what} should have {flag} in DT_{tag}:\n{}",
                    l_dyn.join("\n")
                )
            },
        )?;
    }
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "lib_value=5\n")?;

    let (w_out, w_exe) = build(&weld)?;
    let w_dyn = dyn_lines(&w_out)?;
    let mut p = Problems::default();
    p.check(same_lines(
        &format!("DT_FLAGS/DT_FLAGS_1 of {what}"),
        &flag_lines(&w_dyn),
        &flag_lines(&l_dyn),
    ));
    p.check(same_lines(
        &format!("the dynamic section of {what}"),
        &w_dyn,
        &l_dyn,
    ));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// `-z stack-size=VALUE` on a program.
fn stack_size(dir: &Path, value: &str, memsz: u64) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<PathBuf, String> {
        let a = vec![
            arg(&obj("stack_size", "main.c", c, &[])?),
            format!("-Wl,-z,stack-size={value}"),
        ];
        s.link(c, false, &a, "a.out")
    };
    let l_exe = reference(build(&lld))?;
    let l_stack = gnu_stack(&l_exe)?;
    expect_lld(l_stack == ("RW".to_string(), memsz), || {
        format!("ld.lld-22's PT_GNU_STACK should be RW with p_memsz {memsz:#x}, not {l_stack:?}")
    })?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "stack\n")?;

    let w_exe = build(&weld)?;
    let mut p = Problems::default();
    p.check(dynlink::same(
        "PT_GNU_STACK (flags, p_memsz)",
        &gnu_stack(&w_exe)?,
        &l_stack,
    ));
    p.check(dynlink::same(
        "the program headers (type -> flags of each)",
        &elf::segments(&w_exe)?,
        &elf::segments(&l_exe)?,
    ));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Result<Vec<String>, String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    v.sort();
    Ok(v)
}

/// `-z stack-size=xyz`, the linker called directly: exit code 1, lld's message (but for the
/// program name), nothing written.
fn stack_size_invalid(dir: &Path) -> Check {
    let main_o = obj("stack_size", "main.c", Compiler::Clang, &[])?;
    let (lld, weld) = sides(dir)?;
    let args = vec![arg(&main_o), "-z".into(), "stack-size=xyz".into()];
    let lo = link_directly(dir, &lld, &args)?;
    let l_files = listing(&lld.dir)?;
    expect_lld(
        lo.code == Some(1)
            && lo.stderr_str().contains("error: invalid stack-size: xyz")
            && l_files.is_empty(),
        || {
            format!(
                "ld.lld-22 should fail with exit code 1, `invalid stack-size: xyz` and no \
                 output (it left {l_files:?})\n{}",
                lo.report()
            )
        },
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// `-Bsymbolic-non-weak(-functions)` and friends on `libbs.so`, interposed by the program.
fn bsymbolic(dir: &Path, flags: &[&str], lib_line: &str) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        let mut a = vec![
            "-shared".to_string(),
            arg(&obj(
                "bsymbolic",
                "lib.c",
                c,
                &["-fPIC", "-fsemantic-interposition"],
            )?),
        ];
        a.extend(strings(flags));
        let lib = s.link(c, false, &a, "libbs.so")?;
        let a = vec![
            arg(&obj("bsymbolic", "main.c", c, &[])?),
            format!("-L{}", s.dir.display()),
            "-lbs".into(),
            "-Wl,-rpath,$ORIGIN".to_string(),
        ];
        Ok((lib, s.link(c, false, &a, "a.out")?))
    };
    let (l_lib, l_exe) = reference(build(&lld))?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, &format!("{lib_line}{BSYMBOLIC_MAIN}"))?;
    let l_defs = defined_dyn_names(&l_lib)?;
    expect_lld(
        ["strong_fn", "weak_fn", "strong_var", "weak_var"]
            .iter()
            .all(|n| l_defs.contains(*n)),
        || format!("ld.lld-22's libbs.so should export all four symbols: {l_defs:?}"),
    )?;

    let (w_lib, w_exe) = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.check(dynlink::same_set(
        "the dynamic relocations (type, symbol) of libbs.so",
        &reloc_set(&w_lib)?,
        &reloc_set(&l_lib)?,
    ));
    p.check(same_lines(
        "the dynamic symbols of libbs.so",
        &dyn_sym_lines(&w_lib)?,
        &dyn_sym_lines(&l_lib)?,
    ));
    p.check(same_dynamic("libbs.so", &w_lib, &l_lib));
    p.done()
}

fn list_flag() -> String {
    format!(
        "-Wl,--export-dynamic-symbol-list={}",
        src_dir("export_list").join("list.txt").display()
    )
}

/// The `syms.cpp` object of `export_list` (PIC, interposition honoured).
fn syms_obj() -> Result<PathBuf, String> {
    obj(
        "export_list",
        "syms.cpp",
        Compiler::Clang,
        &["-fPIC", "-fsemantic-interposition"],
    )
}

/// `--export-dynamic-symbol-list` on an executable: exactly the matched symbols are exported.
fn export_list_exe(dir: &Path) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<PathBuf, String> {
        let a = vec![
            arg(&obj("export_list", "main.cpp", c, &[])?),
            arg(&syms_obj()?),
            list_flag(),
        ];
        s.link(c, true, &a, "a.out")
    };
    let l_exe = reference(build(&lld))?;
    let l_defs = defined_dyn_names(&l_exe)?;
    expect_lld(
        LIST_MATCHED.iter().all(|n| l_defs.contains(*n))
            && !LIST_UNMATCHED.iter().any(|n| l_defs.contains(*n)),
        || {
            format!(
                "ld.lld-22's program should export {LIST_MATCHED:?} and none of \
                 {LIST_UNMATCHED:?}, but exports {l_defs:?}"
            )
        },
    )?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(
        &l_run,
        0,
        "report: foo=10 bar1=11 bar2=12 baz=13 ns::f1=1 ns::f2=2 ns::g=3\n",
    )?;

    let w_exe = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the dynamic symbols of the program",
        &dyn_sym_lines(&w_exe)?,
        &dyn_sym_lines(&l_exe)?,
    ));
    p.check(same_dynamic("the program", &w_exe, &l_exe));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// `--export-dynamic-symbol-list` on a shared library (with `flags`), used by a program that
/// defines every symbol again.
fn export_list_shared(dir: &Path, flags: &[&str], stdout: &str) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        let mut a = vec!["-shared".to_string(), arg(&syms_obj()?)];
        a.extend(strings(flags));
        a.push(list_flag());
        let lib = s.link(c, true, &a, "libsyms.so")?;
        let a = vec![
            arg(&obj("export_list", "interpose.cpp", c, &[])?),
            format!("-L{}", s.dir.display()),
            "-lsyms".into(),
            "-Wl,-rpath,$ORIGIN".to_string(),
        ];
        Ok((lib, s.link(c, true, &a, "a.out")?))
    };
    let (l_lib, l_exe) = reference(build(&lld))?;
    let l_defs = defined_dyn_names(&l_lib)?;
    expect_lld(
        LIST_MATCHED
            .iter()
            .chain(LIST_UNMATCHED)
            .all(|n| l_defs.contains(*n)),
        || format!("ld.lld-22's libsyms.so should export every symbol of syms.cpp: {l_defs:?}"),
    )?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, stdout)?;

    let (w_lib, w_exe) = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.check(dynlink::same_set(
        "the dynamic relocations (type, symbol) of libsyms.so",
        &reloc_set(&w_lib)?,
        &reloc_set(&l_lib)?,
    ));
    p.check(same_lines(
        "the dynamic symbols of libsyms.so",
        &dyn_sym_lines(&w_lib)?,
        &dyn_sym_lines(&l_lib)?,
    ));
    p.check(same_dynamic("libsyms.so", &w_lib, &l_lib));
    p.done()
}

/// `trace`'s inputs in `dir`: `main.o`, `liba.a` (`a.o`, `b.o`, packed by llvm-ar-22) and
/// `libt.so` (linked by ld.lld-22).
fn trace_inputs(dir: &Path) -> Check {
    let c = Compiler::Clang;
    for (src, o) in [("main.c", "main.o"), ("a.c", "a.o"), ("b.c", "b.o")] {
        let from = obj("trace", src, c, &[])?;
        std::fs::copy(&from, dir.join(o)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    let mut cmd = Command::new(tools::find(LLVM_AR)?);
    cmd.current_dir(dir).args(["rcs", "liba.a", "a.o", "b.o"]);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-ar-22 rcs liba.a")?;
    let a = vec![
        "-shared".to_string(),
        arg(&obj("trace", "t.c", c, &["-fPIC"])?),
    ];
    reference(dynlink::link(
        c,
        false,
        &Linker::lld()?,
        &a,
        &dir.join("libt.so"),
    ))?;
    Ok(())
}

/// `--trace`/`-t`: the inputs are named relative to the trial directory, where the driver runs.
fn trace(dir: &Path, flag: &str) -> Check {
    let c = Compiler::Clang;
    trace_inputs(dir)?;

    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, Vec<String>), String> {
        let mut a = strings(&["main.o", "liba.a", "libt.so", flag]);
        a.push(format!("-Wl,-rpath,{}", dir.display()));
        let (exe, o) = s.link_in(Some(dir), c, false, &a, "a.out")?;
        Ok((exe, o.stdout_str().lines().map(String::from).collect()))
    };
    let (l_exe, l_lines) = reference(build(&lld))?;
    expect_lld(
        ["main.o", "liba.a(a.o)", "libt.so"]
            .iter()
            .all(|w| l_lines.iter().any(|l| l == w))
            && !l_lines.iter().any(|l| l == "liba.a(b.o)"),
        || {
            format!(
                "ld.lld-22's trace should list main.o, liba.a(a.o) and libt.so, not \
                 liba.a(b.o):\n{}",
                l_lines.join("\n")
            )
        },
    )?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "a_fn=5 t_fn=7\n")?;

    let (w_exe, w_lines) = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines("the trace on stdout", &w_lines, &l_lines));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// A library without `DT_SONAME` named by path or by `-l`: `DT_NEEDED`.
fn needed_path(dir: &Path, lib_args: &[&str], needed: &str) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        let a = vec![
            "-shared".to_string(),
            arg(&obj("needed_path", "x.c", c, &["-fPIC"])?),
        ];
        let lib = s.link(c, false, &a, "sub/libx.so")?;
        let mut a = vec![arg(&obj("needed_path", "main.c", c, &[])?)];
        a.extend(strings(lib_args));
        a.push("-Wl,-rpath,$ORIGIN/sub".to_string());
        // The driver runs in the side's directory, where `sub/` is.
        Ok((lib, s.link(c, false, &a, "a.out")?))
    };
    let (l_lib, l_exe) = reference(build(&lld))?;
    let l_lib_dyn = dyn_lines(&l_lib)?;
    expect_lld(!l_lib_dyn.iter().any(|l| l.starts_with("SONAME")), || {
        format!(
            "ld.lld-22's sub/libx.so should have no DT_SONAME:\n{}",
            l_lib_dyn.join("\n")
        )
    })?;
    let l_needed = dynelf::needed(&l_exe)?;
    expect_lld(l_needed == [needed, "libc.so.6"], || {
        format!("ld.lld-22's program should need [{needed}, libc.so.6], not {l_needed:?}")
    })?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "x=7\n")?;

    let (_, w_exe) = build(&weld)?;
    let mut p = Problems::default();
    p.check(dynlink::same(
        "DT_NEEDED of the program",
        &dynelf::needed(&w_exe)?,
        &l_needed,
    ));
    p.check(same_dynamic("the program", &w_exe, &l_exe));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// `--push-state -static --pop-state` around nothing, in a dynamic link through `c`.
fn push_state(dir: &Path, c: Compiler) -> Check {
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<PathBuf, String> {
        let a = vec![
            arg(&obj("push_state", "main.c", c, &[])?),
            "-Wl,--push-state,-static,--pop-state".to_string(),
        ];
        s.link(c, false, &a, "a.out")
    };
    let l_exe = reference(build(&lld))?;
    let l_seg = elf::segments(&l_exe)?;
    let l_needed = dynelf::needed(&l_exe)?;
    expect_lld(
        l_seg.contains_key("INTERP")
            && l_seg.contains_key("DYNAMIC")
            && l_needed.iter().any(|n| n == "libc.so.6"),
        || {
            format!(
                "ld.lld-22's program should be dynamic (INTERP, DYNAMIC, needing libc.so.6): \
                 {l_seg:?}, needed {l_needed:?}"
            )
        },
    )?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 3, "dynamic\n")?;

    let w_exe = build(&weld)?;
    let mut p = Problems::default();
    p.check(dynlink::same(
        "the program headers (type -> flags of each)",
        &elf::segments(&w_exe)?,
        &l_seg,
    ));
    p.check(same_dynamic("the program", &w_exe, &l_exe));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// What ld.lld-22 does with a `shlib_undefined` variant.
#[derive(Clone, Copy)]
enum LinkOutcome {
    /// Links, saying nothing.
    Quiet,
    /// Links, warning with this text.
    Warns(&'static str),
    /// Fails with exit code 1 and this text, leaving no output.
    Fails(&'static str),
}

const UNDEF_FOO: &str = "undefined reference: foo";
const NON_EXPORTED_FOO: &str = "non-exported symbol 'foo' in 'hidden.o' is referenced by DSO";

/// (variant, inputs, flags, lld's outcome). `libbar.so` needs `foo` and has no `DT_NEEDED`;
/// `libbarfoo.so` needs it too but names `libfoo.so` in `DT_NEEDED`; `libfoo.so` defines it.
const SHLIB_UNDEFINED_VARIANTS: &[(&str, &[&str], &[&str], LinkOutcome)] = &[
    (
        "default",
        &["main.o", "libbar.so"],
        &[],
        LinkOutcome::Fails(UNDEF_FOO),
    ),
    (
        "no_allow",
        &["main.o", "libbar.so"],
        &["--allow-shlib-undefined", "--no-allow-shlib-undefined"],
        LinkOutcome::Fails(UNDEF_FOO),
    ),
    (
        "allow",
        &["main.o", "libbar.so"],
        &["--allow-shlib-undefined"],
        LinkOutcome::Quiet,
    ),
    (
        "warn",
        &["main.o", "libbar.so"],
        &["--warn-unresolved-symbols"],
        LinkOutcome::Warns(UNDEF_FOO),
    ),
    (
        "shared",
        &["main.o", "libbar.so"],
        &["-shared"],
        LinkOutcome::Quiet,
    ),
    (
        "defined_by_library",
        &["main.o", "libbar.so", "libfoo.so"],
        &[],
        LinkOutcome::Quiet,
    ),
    (
        "hidden_definition",
        &["main.o", "hidden.o", "libbar.so"],
        &[],
        LinkOutcome::Fails(NON_EXPORTED_FOO),
    ),
    (
        "needed_not_in_link",
        &["main.o", "libbarfoo.so"],
        &[],
        LinkOutcome::Quiet,
    ),
];

/// The inputs of `shlib_undefined`, built once per trial with ld.lld-22 into `dir`.
fn shlib_undefined_inputs(dir: &Path) -> Check {
    let c = Compiler::Clang;
    let pic = |f: &str| obj("shlib_undefined", f, c, &["-fPIC"]);
    for (src, o) in [("main.c", "main.o"), ("hidden.c", "hidden.o")] {
        let from = pic(src)?;
        std::fs::copy(&from, dir.join(o)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    let lld = Linker::lld()?;
    let shared = |srcs: Vec<String>, out: &str| -> Check {
        let mut a = strings(&["-shared", "-nostdlib"]);
        a.extend(srcs);
        reference(dynlink::link(c, false, &lld, &a, &dir.join(out)))?;
        Ok(())
    };
    shared(vec![arg(&pic("foo.c")?)], "libfoo.so")?;
    shared(vec![arg(&pic("bar.c")?)], "libbar.so")?;
    shared(
        vec![arg(&pic("bar.c")?), arg(&dir.join("libfoo.so"))],
        "libbarfoo.so",
    )?;
    Ok(())
}

/// A `shlib_undefined` variant: the linker called directly in the trial's directory.
fn shlib_undefined(dir: &Path, inputs: &[&str], flags: &[&str], want: LinkOutcome) -> Check {
    shlib_undefined_inputs(dir)?;
    let (lld, weld) = sides(dir)?;
    let mut args = strings(inputs);
    args.extend(strings(flags));
    args.extend(strings(&["-e", "main"]));
    let lo = link_directly(dir, &lld, &args)?;
    let l_files = listing(&lld.dir)?;
    let l_stderr = lo.stderr_str();
    let as_expected = match want {
        LinkOutcome::Quiet => lo.code == Some(0) && l_stderr.is_empty(),
        LinkOutcome::Warns(text) => {
            lo.code == Some(0) && l_stderr.contains(&format!("warning: {text}"))
        }
        LinkOutcome::Fails(text) => {
            lo.code == Some(1) && l_stderr.contains(&format!("error: {text}")) && l_files.is_empty()
        }
    };
    expect_lld(as_expected, || {
        format!(
            "ld.lld-22 should {} (files left: {l_files:?})\n{}",
            match want {
                LinkOutcome::Quiet => "link without a diagnostic".to_string(),
                LinkOutcome::Warns(t) => format!("link, warning `{t}`"),
                LinkOutcome::Fails(t) =>
                    format!("fail with exit code 1 and `{t}`, writing nothing"),
            },
            lo.report()
        )
    })?;

    let wo = link_directly(dir, &weld, &args)?;
    let mut p = same_outcome(&wo, &lo, &weld, &lld)?;
    if lo.code == Some(0) && wo.code == Some(0) {
        p.check(same_lines(
            "the dynamic symbols",
            &dyn_sym_lines(&weld.dir.join("a.out"))?,
            &dyn_sym_lines(&lld.dir.join("a.out"))?,
        ));
    }
    p.done()
}

/// (variant, flags on both links, the program runs). glibc's loader refuses DT_RELR without
/// the `GLIBC_ABI_DT_RELR` version that only `-z pack-relative-relocs` adds, and knows nothing
/// of Android's tags: those programs are compared by structure only.
const RELR_VARIANTS: &[(&str, &[&str], bool)] = &[
    (
        "z_pack_relative_relocs",
        &["-Wl,-z,pack-relative-relocs"],
        true,
    ),
    ("pack_dyn_relocs", &["-Wl,--pack-dyn-relocs=relr"], false),
    (
        "android_tags",
        &["-Wl,--pack-dyn-relocs=relr", "-Wl,--use-android-relr-tags"],
        false,
    ),
    (
        "z_wins_over_none",
        &["-Wl,-z,pack-relative-relocs", "-Wl,--pack-dyn-relocs=none"],
        true,
    ),
];

/// The relocations `.relr.dyn` (or `SHT_ANDROID_RELR`) stands for, by the symbolic address
/// `llvm-readelf-22 -r` decodes them to (`table+0x8`), sorted; and the section's type.
fn relr_places(file: &Path) -> Result<(Vec<String>, Vec<String>), String> {
    let text = dynelf::readelf(&["-rW"], file)?;
    let mut places = Vec::new();
    let mut in_relr = false;
    for l in text.lines() {
        if l.starts_with("Relocation section") {
            in_relr = l.contains(".relr.dyn");
            continue;
        }
        // `0001:  ENTRY ADDRESS SYMBOL + OFF`, or for the further places of a bitmap entry
        // `ADDRESS SYMBOL + OFF` alone.
        let toks: Vec<&str> = l.split_whitespace().collect();
        if !in_relr || toks.is_empty() || toks[0] == "Index:" {
            continue;
        }
        let rest = if toks[0].ends_with(':') {
            &toks[3.min(toks.len())..]
        } else {
            &toks[1..]
        };
        if !rest.is_empty() {
            places.push(rest.join(" "));
        }
    }
    places.sort();
    let types = dynelf::readelf(&["-SW"], file)?
        .lines()
        .filter(|l| l.contains(".relr.dyn"))
        .map(|l| {
            l.split_whitespace()
                .skip_while(|t| *t != ".relr.dyn")
                .nth(1)
                .unwrap_or("")
                .to_string()
        })
        .collect();
    Ok((places, types))
}

/// `-z pack-relative-relocs` / `--pack-dyn-relocs=relr` (`--use-android-relr-tags`) on a
/// library with 80 relative relocations (more than one RELR bitmap) and a PIE using it, with
/// a pointer at an odd offset that stays in `.rela.dyn`: the places RELR stands for, the
/// section type, the dynamic sections (tags, `RELACOUNT`), the remaining `.rela.dyn`, the
/// version needs (`GLIBC_ABI_DT_RELR`), and the run.
fn relr(dir: &Path, flags: &[&str], runs: bool) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        let mut a = strings(&["-shared", "-Wl,-soname,librelr.so"]);
        a.push(arg(&obj("relr", "lib.c", c, &["-fPIC"])?));
        a.extend(strings(flags));
        let lib = s.link(c, false, &a, "librelr.so")?;
        let mut a = strings(&["-pie", "-Wl,-rpath,$ORIGIN"]);
        a.push(arg(&obj("relr", "main.c", c, &["-fPIE"])?));
        a.push(arg(&lib));
        a.extend(strings(flags));
        Ok((lib, s.link(c, false, &a, "a.out")?))
    };
    let (l_lib, l_exe) = reference(build(&lld))?;
    let (l_lib_places, l_lib_types) = relr_places(&l_lib)?;
    expect_lld(l_lib_places.len() >= 80 && !l_lib_types.is_empty(), || {
        format!(
            "ld.lld-22's librelr.so should pack at least 80 relocations in .relr.dyn, not \
             {l_lib_places:?} ({l_lib_types:?})"
        )
    })?;
    let l_run = if runs {
        let o = lld.run(&l_exe)?;
        expect_lld_run(&o, 0, "alpha beta gamma delta sum=157 lib=3160\n")?;
        Some(o)
    } else {
        None
    };

    let (w_lib, w_exe) = build(&weld)?;
    let mut p = Problems::default();
    for (what, w, l) in [
        ("librelr.so", &w_lib, &l_lib),
        ("the program", &w_exe, &l_exe),
    ] {
        let (wp, wt) = relr_places(w)?;
        let (lp, lt) = relr_places(l)?;
        p.check(same_lines(
            &format!("the places .relr.dyn of {what} relocates"),
            &wp,
            &lp,
        ));
        p.check(same_lines(
            &format!("the type of .relr.dyn of {what}"),
            &wt,
            &lt,
        ));
        p.check(same_dynamic(what, w, l));
        p.check(same_lines(
            &format!("the .rela.dyn relocations of {what}"),
            &reloc_set(w)?.into_iter().collect::<Vec<_>>(),
            &reloc_set(l)?.into_iter().collect::<Vec<_>>(),
        ));
        let needs = |f: &Path| -> Result<Vec<String>, String> {
            Ok(dynelf::readelf(&["-V"], f)?
                .lines()
                .filter(|l| l.contains("Name:"))
                .map(|l| l.split_whitespace().nth(2).unwrap_or("").to_string())
                .collect())
        };
        p.check(same_lines(
            &format!("the version names of {what}"),
            &needs(w)?,
            &needs(l)?,
        ));
    }
    if let Some(l_run) = l_run {
        p.check(same_run(&weld.run(&w_exe)?, &l_run));
    }
    p.done()
}

/// (variant, the `--just-symbols` file: `base.elf`, `base.o` or `libbase.so`).
const JUST_SYMBOLS_VARIANTS: &[(&str, &str)] = &[
    ("executable", "base.elf"),
    ("object", "base.o"),
    ("shared", "libbase.so"),
];

/// (variant, the `--just-symbols` argument: missing, not ELF, an archive).
const JUST_SYMBOLS_ERRORS: &[(&str, &str)] = &[
    ("missing_file", "nothere.elf"),
    ("not_elf", "{src}/main.c"),
    ("archive", "libbase.a"),
];

/// `just_symbols/base.c` made, by ld.lld-22, into what `--just-symbols` reads: `base.o`, a
/// static executable `base.elf` at 0x400000, `libbase.so`, and `libbase.a`.
fn just_symbols_inputs(dir: &Path) -> Result<(), String> {
    let o = obj("just_symbols", "base.c", Compiler::Clang, &["-fPIC"])?;
    std::fs::copy(&o, dir.join("base.o"))
        .map_err(|e| format!("cannot copy {}: {e}", o.display()))?;
    let lld = tools::find(tools::LLD)?;
    for args in [
        &[
            "base.o",
            "-o",
            "base.elf",
            "-e",
            "base_func",
            "--image-base=0x400000",
        ][..],
        &["-shared", "base.o", "-o", "libbase.so"],
    ] {
        let mut cmd = Command::new(&lld);
        cmd.current_dir(dir).args(args);
        run::run(&mut cmd, run::LINK_TIMEOUT)?.ok("ld.lld-22")?;
    }
    let mut ar = Command::new(tools::find(LLVM_AR)?);
    ar.current_dir(dir).args(["rcs", "libbase.a", "base.o"]);
    run::run(&mut ar, run::TOOL_TIMEOUT)?.ok(LLVM_AR)?;
    Ok(())
}

/// `--just-symbols=FILE`: `just_symbols/main.c` linked `-static -no-pie` against the symbols of
/// base.c's object, executable or shared library. The program prints their addresses (run
/// compared), and `.symtab` must list the file's symbols as lld does: absolute, with their
/// values, sizes, types, bindings and visibilities, in lld's order.
fn just_symbols(dir: &Path, source: &str) -> Check {
    just_symbols_inputs(dir)?;
    let main = obj("just_symbols", "main.c", Compiler::Clang, &["-fno-PIE"])?;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<PathBuf, String> {
        let a = vec![
            arg(&main),
            "-static".to_string(),
            "-no-pie".to_string(),
            format!("-Wl,--just-symbols={}", arg(&dir.join(source))),
        ];
        s.link(Compiler::Clang, false, &a, "a.out")
    };
    let names = [
        "base.c",
        "shared_counter",
        "private_counter",
        "hidden_value",
        "per_thread",
        "weak_value",
        "base_func",
    ];
    let base_symbols = |f: &Path| -> Result<Vec<String>, String> {
        let text = dynelf::readelf(&["-s"], f)?;
        Ok(text
            .lines()
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>())
            .filter(|f| f.len() == 7 && names.contains(&f[6]))
            .map(|f| f.join(" "))
            .collect())
    };
    let l_out = reference(build(&lld))?;
    let l_syms = base_symbols(&l_out)?;
    expect_lld(l_syms.iter().any(|l| l.ends_with("ABS base_func")), || {
        format!(
            "ld.lld-22's .symtab should have an absolute base_func:\n{}",
            l_syms.join("\n")
        )
    })?;
    let l_run = lld.run(&l_out)?;
    expect_lld(
        l_run.code == Some(0) && l_run.stdout_str().starts_with("base_func="),
        || {
            format!(
                "ld.lld-22's program should print the addresses\n{}",
                l_run.report()
            )
        },
    )?;
    let w_out = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "base.c's symbols in .symtab (in order)",
        &base_symbols(&w_out)?,
        &l_syms,
    ));
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    p.done()
}

/// lld's `.symtab` groups the local part by file: a hidden global (local in an executable)
/// sits with its own file's locals, not after every file's. `hidden1.c` and `hidden2.c` (each
/// a static and a hidden variable) linked directly; `.symtab` must be lld's, line for line.
fn hidden_grouping(dir: &Path) -> Check {
    let objs = [
        obj("just_symbols", "hidden1.c", Compiler::Clang, &[])?,
        obj("just_symbols", "hidden2.c", Compiler::Clang, &[])?,
    ];
    let (lld, weld) = sides(dir)?;
    let args: Vec<String> = objs.iter().map(|o| arg(o)).collect();
    let lines = |f: &Path| -> Result<Vec<String>, String> {
        Ok(dynelf::readelf(&["-s"], f)?
            .lines()
            .filter(|l| l.contains(':'))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect())
    };
    let lo = link_directly(dir, &lld, &args)?;
    let l_out = lld.dir.join("a.out");
    let l_syms = lines(&l_out)?;
    let pos = |n: &str| l_syms.iter().position(|l| l.ends_with(n));
    expect_lld(
        lo.code == Some(0) && pos(" first_hidden") < pos(" hidden2.c"),
        || {
            format!(
                "ld.lld-22 should list first_hidden before hidden2.c:\n{}",
                l_syms.join("\n")
            )
        },
    )?;
    link_directly(dir, &weld, &args)?;
    same_lines(".symtab", &lines(&weld.dir.join("a.out"))?, &l_syms)
}

/// `--just-symbols` naming a missing file, a C source, an archive: the linker called directly
/// must fail as lld does (exit code, diagnostics, no output).
fn just_symbols_error(dir: &Path, source: &str) -> Check {
    just_symbols_inputs(dir)?;
    let main = obj("just_symbols", "main.c", Compiler::Clang, &["-fno-PIE"])?;
    let (lld, weld) = sides(dir)?;
    let src = arg(&src_dir("just_symbols"));
    let args = vec![
        format!("--just-symbols={}", source.replace("{src}", &src)),
        arg(&main),
        "--unresolved-symbols=ignore-all".to_string(),
    ];
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(lo.code == Some(1), || {
        format!("ld.lld-22 should refuse the file\n{}", lo.report())
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// (variant, linker flags after `main.o`, whether the link succeeds). `{libs}` is the
/// directory with `libdeplib.a` and `libextra.a`.
const DEPLIBS_VARIANTS: &[(&str, &[&str], bool)] = &[
    ("found", &["-L{libs}"], true),
    (
        "explicit_default",
        &["--dependent-libraries", "-L{libs}"],
        true,
    ),
    ("not_found", &[], false),
    ("disabled", &["--no-dependent-libraries", "-L{libs}"], false),
];

/// `.deplibs`: `deplibs/main.c` names libm, `deplib` and `libextra.a`. Linked by the driver
/// when the link succeeds (run and dynamic section compared, libm must be needed), by the
/// linker directly when it fails (exit code, diagnostics, files left).
fn deplibs(dir: &Path, flags: &[&str], links: bool, bitcode: bool) -> Check {
    let c = Compiler::Clang;
    // In bitcode the specifiers are module metadata (`llvm.dependent-libraries`).
    let main = obj(
        "deplibs",
        "main.c",
        c,
        if bitcode { &["-flto=thin"] } else { &[] },
    )?;
    let libs = dir.join("libs");
    paths::fresh_dir(&libs)?;
    for (src, lib) in [("helper.c", "libdeplib.a"), ("extra.c", "libextra.a")] {
        let o = obj("deplibs", src, c, &[])?;
        let mut ar = Command::new(tools::find(LLVM_AR)?);
        ar.current_dir(&libs).arg("rcs").arg(lib).arg(&o);
        run::run(&mut ar, run::TOOL_TIMEOUT)?.ok(LLVM_AR)?;
    }
    if !bitcode {
        let sections = weld_tests::elf::section_names(&main)?;
        if !sections.iter().any(|s| s == ".deplibs") {
            return Err(format!("clang-22 wrote no .deplibs section: {sections:?}"));
        }
    }
    let (lld, weld) = sides(dir)?;
    let mut args = vec![arg(&main)];
    args.extend(flags.iter().map(|f| f.replace("{libs}", &arg(&libs))));
    if links {
        let mut driver_args: Vec<String> = args
            .iter()
            .map(|a| {
                if a.starts_with('-') && !a.starts_with("-L") {
                    format!("-Wl,{a}")
                } else {
                    a.clone()
                }
            })
            .collect();
        if bitcode {
            driver_args.push("-flto=thin".to_string());
        }
        let l_out = reference(lld.link(c, false, &driver_args, "a.out"))?;
        let l_run = lld.run(&l_out)?;
        expect_lld_run(&l_run, 0, "0.878 7 11\n")?;
        let w_out = weld.link(c, false, &driver_args, "a.out")?;
        let mut p = Problems::default();
        p.check(same_dynamic("the program", &w_out, &l_out));
        p.check(same_run(&weld.run(&w_out)?, &l_run));
        return p.done();
    }
    args.extend(strings(&["-e", "main"]));
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(lo.code == Some(1), || {
        format!("ld.lld-22 should fail\n{}", lo.report())
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// (variant, flags for the library and the program).
const APPLY_DYNAMIC_RELOCS_VARIANTS: &[(&str, &[&str])] = &[
    ("default", &[]),
    ("apply", &["-Wl,--apply-dynamic-relocs"]),
    (
        "apply_then_no",
        &[
            "-Wl,--apply-dynamic-relocs",
            "-Wl,--no-apply-dynamic-relocs",
        ],
    ),
    (
        "apply_with_relr",
        &["-Wl,--apply-dynamic-relocs", "-Wl,-z,pack-relative-relocs"],
    ),
    ("relr", &["-Wl,-z,pack-relative-relocs"]),
];

/// What a place with a dynamic relocation holds: 0 by default (lld on x86-64: the addend is
/// in the relocation), the link-time value with `--apply-dynamic-relocs`, always the value
/// for RELR. `relr`'s library and PIE (pointer tables, an odd place, GOT entries): the bytes
/// of every writable and RELRO section must be lld's, and the program must run as lld's.
fn apply_dynamic_relocs(dir: &Path, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        let mut a = strings(&["-shared", "-Wl,-soname,librelr.so"]);
        a.push(arg(&obj("relr", "lib.c", c, &["-fPIC"])?));
        a.extend(strings(flags));
        let lib = s.link(c, false, &a, "librelr.so")?;
        let mut a = strings(&["-pie", "-Wl,-rpath,$ORIGIN"]);
        a.push(arg(&obj("relr", "main.c", c, &["-fPIE"])?));
        a.push(arg(&lib));
        a.extend(strings(flags));
        Ok((lib, s.link(c, false, &a, "a.out")?))
    };
    const SECTIONS: &[&str] = &[
        ".data",
        ".data.rel.ro",
        ".got",
        ".init_array",
        ".fini_array",
    ];
    let contents = |f: &Path| -> Result<Vec<String>, String> {
        let mut v = Vec::new();
        for sec in SECTIONS {
            if weld_tests::elf::section_names(f)?.iter().any(|s| s == sec) {
                v.push(format!("{sec}:"));
                v.extend(section_bytes(f, sec)?);
            }
        }
        Ok(v)
    };
    let (l_lib, l_exe) = reference(build(&lld))?;
    let l_contents = contents(&l_lib)?;
    expect_lld(l_contents.iter().any(|l| l.starts_with(".data")), || {
        format!("ld.lld-22's librelr.so should have .data: {l_contents:?}")
    })?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "alpha beta gamma delta sum=157 lib=3160\n")?;
    let (w_lib, w_exe) = build(&weld)?;
    let mut p = Problems::default();
    for (what, w, l) in [
        ("librelr.so", &w_lib, &l_lib),
        ("the program", &w_exe, &l_exe),
    ] {
        p.check(same_lines(
            &format!("the writable and RELRO sections' bytes of {what}"),
            &contents(w)?,
            &contents(l)?,
        ));
    }
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// (variant, flags, whether the program is `android_packed`'s PIE with its library (else
/// `paging/main.c` linked `-static`, whose IFUNCs need IRELATIVE relocations)).
const Z_REL_VARIANTS: &[(&str, &[&str], bool)] = &[
    ("pie_and_library", &["-Wl,-z,rel"], true),
    ("rela_after_rel", &["-Wl,-z,rel", "-Wl,-z,rela"], true),
    (
        "rel_with_apply",
        &["-Wl,-z,rel", "-Wl,--apply-dynamic-relocs"],
        true,
    ),
    ("static", &["-Wl,-z,rel"], false),
];

/// `-z rel`: `.rel.dyn`/`.rel.plt` of `Elf64_Rel` entries, `DT_REL*` tags and `DT_PLTREL` =
/// `DT_REL`, the addends written at the places, `__rel_iplt_*` instead of `__rela_iplt_*`.
/// glibc's x86-64 loader refuses REL, so nothing runs: the relocations (decoded), the
/// relocation sections' headers, the dynamic section, the bytes of the data sections and the
/// IPLT bounds symbols must be lld's.
fn z_rel(dir: &Path, flags: &[&str], shared_lib: bool) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<Vec<PathBuf>, String> {
        if !shared_lib {
            let mut a = vec![
                arg(&obj("paging", "main.c", c, &["-fPIE"])?),
                "-static".to_string(),
            ];
            a.extend(strings(flags));
            return Ok(vec![s.link(c, false, &a, "a.out")?]);
        }
        let mut a = strings(&["-shared", "-Wl,-soname,libext.so"]);
        a.push(arg(&obj("android_packed", "lib.c", c, &["-fPIC"])?));
        a.extend(strings(flags));
        let lib = s.link(c, false, &a, "libext.so")?;
        let mut a = strings(&["-pie"]);
        a.push(arg(&obj("android_packed", "main.c", c, &["-fPIE"])?));
        a.push(arg(&lib));
        a.extend(strings(flags));
        Ok(vec![lib, s.link(c, false, &a, "a.out")?])
    };
    const DATA: &[&str] = &[
        ".data",
        ".data.rel.ro",
        ".got",
        ".got.plt",
        ".init_array",
        ".fini_array",
    ];
    let contents = |f: &Path| -> Result<Vec<String>, String> {
        let names = weld_tests::elf::section_names(f)?;
        let mut v = Vec::new();
        for sec in DATA.iter().filter(|s| names.iter().any(|n| n == *s)) {
            v.push(format!("{sec}:"));
            v.extend(section_bytes(f, sec)?);
        }
        Ok(v)
    };
    let iplt_symbols = |f: &Path| -> Result<Vec<String>, String> {
        Ok(dynelf::readelf(&["-s"], f)?
            .lines()
            .filter(|l| l.contains("iplt_"))
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
            .collect())
    };
    let l_outs = reference(build(&lld))?;
    let l_headers = reloc_section_headers(&l_outs[0])?;
    expect_lld(
        l_headers.iter().any(|h| h.starts_with(".rel.dyn REL ")) != flags.contains(&"-Wl,-z,rela"),
        || format!("ld.lld-22's relocation sections are not what the flags ask for: {l_headers:?}"),
    )?;
    let w_outs = build(&weld)?;
    let mut p = Problems::default();
    for (w, l) in w_outs.iter().zip(&l_outs) {
        let what = l
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        p.check(same_lines(
            &format!("the relocations of {what}"),
            &relocation_lines(w)?,
            &relocation_lines(l)?,
        ));
        p.check(same_lines(
            &format!("the relocation sections of {what}"),
            &reloc_section_headers(w)?,
            &reloc_section_headers(l)?,
        ));
        p.check(same_lines(
            &format!("the data sections' bytes of {what}"),
            &contents(w)?,
            &contents(l)?,
        ));
        p.check(same_lines(
            &format!("the IPLT bounds symbols of {what}"),
            &iplt_symbols(w)?,
            &iplt_symbols(l)?,
        ));
        if shared_lib {
            p.check(same_dynamic(&what, w, l));
        }
    }
    p.done()
}

/// (variant, driver flags, whether the order must be lld's). `*` patterns also match the
/// linker's own sections, whose list is lld's implementation detail: there the permutation is
/// weld's own (reproducible, a permutation, the program runs as lld's).
const SECTION_ORDER_VARIANTS: &[(&str, &[&str], bool)] = &[
    ("shuffle_text", &["-Wl,--shuffle-sections=.text.*=1"], true),
    (
        "shuffle_text_seed_42",
        &["-Wl,--shuffle-sections=.text.*=42"],
        true,
    ),
    (
        "shuffle_text_and_data",
        &[
            "-Wl,--shuffle-sections=.text.*=9",
            "-Wl,--shuffle-sections=.data.*=7",
        ],
        true,
    ),
    (
        "shuffle_gc_sections",
        &["-Wl,--shuffle-sections=.text.*=5", "-Wl,--gc-sections"],
        true,
    ),
    ("reverse_all", &["-Wl,--shuffle-sections=*=-1"], true),
    ("shuffle_all", &["-Wl,--shuffle-sections=*=3"], false),
    (
        "shuffle_random_seed",
        &["-Wl,--shuffle-sections=.text.*=0"],
        false,
    ),
    (
        "padding_seed_1",
        &["-Wl,--randomize-section-padding=1"],
        true,
    ),
    (
        "padding_seed_46",
        &["-Wl,--randomize-section-padding=46"],
        true,
    ),
    (
        "padding_and_shuffle",
        &[
            "-Wl,--randomize-section-padding=6",
            "-Wl,--shuffle-sections=.text.*=2",
        ],
        true,
    ),
];

/// (variant, the bad option).
const SECTION_ORDER_ERRORS: &[(&str, &str)] = &[
    ("shuffle_no_seed", "--shuffle-sections=.text"),
    ("shuffle_empty_glob", "--shuffle-sections==1"),
    ("shuffle_not_integer", "--shuffle-sections=.text=abc"),
    ("shuffle_bad_glob", "--shuffle-sections=[=1"),
    ("padding_not_integer", "--randomize-section-padding=abc"),
];

/// `--shuffle-sections` and `--randomize-section-padding` on `section_order/` (24 functions
/// and variables in sections of their own): the order of the functions and variables and
/// every allocated section's address and size must be lld's (where the permutation is lld's),
/// the program must run as lld's, and a second weld link must give the same output.
fn section_order(dir: &Path, flags: &[&str], same_order: bool) -> Check {
    let c = Compiler::Clang;
    let cflags = ["-ffunction-sections", "-fdata-sections"];
    let objs = [
        obj("section_order", "funcs.c", c, &cflags)?,
        obj("section_order", "main.c", c, &cflags)?,
    ];
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side, out: &str| -> Result<PathBuf, String> {
        let mut a: Vec<String> = objs.iter().map(|o| arg(o)).collect();
        a.extend(strings(flags));
        s.link(c, false, &a, out)
    };
    let order = |f: &Path| -> Result<Vec<String>, String> {
        let mut syms: Vec<(u64, String)> = dynelf::readelf(&["-s"], f)?
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let name = *f.get(7)?;
                let ours =
                    (name.starts_with('f') || name.starts_with('d') || name.starts_with("unused"))
                        && name[1..]
                            .chars()
                            .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase() || c == '_');
                (ours && (f[3] == "FUNC" || f[3] == "OBJECT"))
                    .then(|| Some((u64::from_str_radix(f[1], 16).ok()?, name.to_string())))
                    .flatten()
            })
            .collect();
        syms.sort();
        Ok(syms.into_iter().map(|(_, n)| n).collect())
    };
    let sections = |f: &Path| -> Result<Vec<String>, String> {
        Ok(dynelf::readelf(&["-SW"], f)?
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split_once(']')?.1.split_whitespace().collect();
                (f.len() == 10 && f[6].contains('A')).then(|| format!("{} {} {}", f[0], f[2], f[4]))
            })
            .collect())
    };
    let l_out = reference(build(&lld, "a.out"))?;
    let l_order = order(&l_out)?;
    let l_run = lld.run(&l_out)?;
    expect_lld_run(&l_run, 0, "section order 5224\n")?;
    expect_lld(l_order.len() >= 48, || {
        format!("ld.lld-22's output should list the functions and variables: {l_order:?}")
    })?;
    let w_out = build(&weld, "a.out")?;
    let mut p = Problems::default();
    if same_order {
        p.check(same_lines(
            "the functions' and variables' order",
            &order(&w_out)?,
            &l_order,
        ));
        p.check(same_lines(
            "the allocated sections (name, address, size)",
            &sections(&w_out)?,
            &sections(&l_out)?,
        ));
    } else {
        let (mut w_sorted, mut l_sorted) = (order(&w_out)?, l_order.clone());
        w_sorted.sort();
        l_sorted.sort();
        p.check(same_lines(
            "the functions and variables",
            &w_sorted,
            &l_sorted,
        ));
    }
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    if !flags.iter().any(|f| f.ends_with("=0")) {
        let again = build(&weld, "again.out")?;
        let (a, b) = (paths::read(&w_out)?, paths::read(&again)?);
        if a != b {
            p.0.push("two weld links with the same seed differ".to_string());
        }
    }
    p.done()
}

/// A malformed `--shuffle-sections` or `--randomize-section-padding`: the linker called
/// directly must fail as lld does (exit code, message, no output).
fn section_order_error(dir: &Path, flag: &str) -> Check {
    let o = obj(
        "section_order",
        "funcs.c",
        Compiler::Clang,
        &["-ffunction-sections"],
    )?;
    let (lld, weld) = sides(dir)?;
    let args = vec![
        flag.to_string(),
        arg(&o),
        "--unresolved-symbols=ignore-all".to_string(),
    ];
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(lo.code == Some(1), || {
        format!("ld.lld-22 should refuse {flag}\n{}", lo.report())
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// One `ordering` trial linked through the driver.
struct OrderingVariant {
    name: &'static str,
    /// Driver flags (`-Wl,...`); files are named relative to each side's directory.
    flags: &'static [&'static str],
    /// Compile `funcs.c` and `main.c` with `-flto=thin`.
    lto: bool,
    /// lld must order the sections differently from a link without any ordering.
    reorders: bool,
    /// A diagnostic lld must print (empty: none required).
    diagnostic: &'static str,
    /// The `--print-symbol-order` file both links must write (or both must not).
    printed: Option<&'static str>,
}

const fn ov(
    name: &'static str,
    flags: &'static [&'static str],
    reorders: bool,
    diagnostic: &'static str,
) -> OrderingVariant {
    OrderingVariant {
        name,
        flags,
        lto: false,
        reorders,
        diagnostic,
        printed: None,
    }
}

const SYMBOL_FILE: &str = "-Wl,--symbol-ordering-file=order.txt";
const CG_FILE: &str = "-Wl,--call-graph-ordering-file=cg.txt";

const ORDERING_VARIANTS: &[OrderingVariant] = &[
    ov(
        "symbol_file",
        &[SYMBOL_FILE],
        true,
        "unable to order shared symbol: shared_fn",
    ),
    ov(
        "symbol_file_gc_sections",
        &[SYMBOL_FILE, "-Wl,--gc-sections"],
        true,
        "unable to order discarded symbol: unused_fn",
    ),
    ov(
        "symbol_file_no_warn",
        &[SYMBOL_FILE, "-Wl,--no-warn-symbol-ordering"],
        true,
        "",
    ),
    ov(
        "symbol_file_and_shuffle",
        &[SYMBOL_FILE, "-Wl,--shuffle-sections=.text.*=7"],
        true,
        "no such symbol: nosuch_symbol",
    ),
    ov(
        "call_graph_file",
        &[CG_FILE],
        true,
        "cg.txt: no such symbol: nosuch",
    ),
    ov(
        "call_graph_file_cdsort",
        &[CG_FILE, "-Wl,--call-graph-profile-sort=cdsort"],
        true,
        "",
    ),
    ov(
        "call_graph_file_hfsort",
        &[CG_FILE, "-Wl,--call-graph-profile-sort=hfsort"],
        true,
        "",
    ),
    ov(
        "call_graph_file_none",
        &[CG_FILE, "-Wl,--call-graph-profile-sort=none"],
        false,
        "",
    ),
    ov("profile_default", &["{cg.o}"], true, ""),
    ov(
        "profile_hfsort",
        &["{cg.o}", "-Wl,--call-graph-profile-sort=hfsort"],
        true,
        "",
    ),
    ov("profile_crel", &["{cg_crel.o}"], true, ""),
    ov(
        "profile_without_relocations",
        &["{cg.o}", "{cg_norel.o}"],
        true,
        "SHT_LLVM_CALL_GRAPH_PROFILE exists, but relocation section doesn't",
    ),
    ov(
        "profile_none",
        &["{cg.o}", "-Wl,--no-call-graph-profile-sort"],
        false,
        "",
    ),
    ov(
        "profile_and_symbol_file",
        &["{cg.o}", SYMBOL_FILE],
        true,
        "duplicate ordered symbol: f12",
    ),
    OrderingVariant {
        printed: Some("order.out"),
        ..ov(
            "print_symbol_order",
            &[
                CG_FILE,
                "-Wl,--call-graph-profile-sort=hfsort",
                "-Wl,--print-symbol-order=order.out",
            ],
            true,
            "",
        )
    },
    OrderingVariant {
        printed: Some("order.out"),
        ..ov(
            "print_symbol_order_profile",
            &[
                "{cg.o}",
                "-Wl,--call-graph-profile-sort=hfsort",
                "-Wl,--print-symbol-order=order.out",
            ],
            true,
            "",
        )
    },
    OrderingVariant {
        printed: Some("order.out"),
        ..ov(
            "print_symbol_order_cdsort",
            &["{cg.o}", "-Wl,--print-symbol-order=order.out"],
            true,
            "",
        )
    },
    OrderingVariant {
        lto: true,
        ..ov(
            "lto_symbol_file",
            &[SYMBOL_FILE],
            true,
            "<internal>: unable to order undefined symbol",
        )
    },
    OrderingVariant {
        lto: true,
        ..ov(
            "lto_profile_hfsort",
            &["{cg.o}", "-Wl,--call-graph-profile-sort=hfsort"],
            true,
            "",
        )
    },
];

/// (variant, linker flags; the linker is called directly on `funcs.o`, `main.o` and `abs.o`).
const ORDERING_ERRORS: &[(&str, &[&str])] = &[
    (
        "missing_symbol_file",
        &["--symbol-ordering-file=nothere.txt"],
    ),
    (
        "missing_call_graph_file",
        &["--call-graph-ordering-file=nothere.txt"],
    ),
    (
        "both_files",
        &[
            "--symbol-ordering-file=order.txt",
            "--call-graph-ordering-file=cg.txt",
        ],
    ),
    ("bad_sort", &["--call-graph-profile-sort=bogus"]),
    (
        "call_graph_missing_count",
        &["--call-graph-ordering-file=cg_bad_fields.txt"],
    ),
    (
        "call_graph_bad_count",
        &["--call-graph-ordering-file=cg_bad_count.txt"],
    ),
    (
        "fatal_duplicate",
        &["--symbol-ordering-file=order.txt", "--fatal-warnings"],
    ),
    (
        "fatal_unorderable",
        &[
            "--symbol-ordering-file=order_unique.txt",
            "--fatal-warnings",
        ],
    ),
    ("profile_bad_entsize", &["{cg_bad_entsize.o}"]),
    (
        "print_symbol_order_unwritable",
        &[
            "--call-graph-ordering-file=cg.txt",
            "--call-graph-profile-sort=hfsort",
            "--print-symbol-order=nodir/order.out",
        ],
    ),
];

/// The ordering files of `ordering/`, copied where a link names them relatively.
fn copy_ordering_files(to: &Path) -> Check {
    for f in [
        "order.txt",
        "order_unique.txt",
        "cg.txt",
        "cg_bad_fields.txt",
        "cg_bad_count.txt",
    ] {
        std::fs::copy(src_dir("ordering").join(f), to.join(f))
            .map_err(|e| format!("copying {f}: {e}"))?;
    }
    Ok(())
}

/// The functions and variables of `ordering/funcs.c` and `main` in address order.
fn ordering_symbols(f: &Path) -> Result<Vec<String>, String> {
    let digits = |name: &str, p: &str| {
        name.strip_prefix(p)
            .is_some_and(|r| r.len() == 2 && r.chars().all(|c| c.is_ascii_digit()))
    };
    defined_in_address_order(f, |name| {
        digits(name, "f")
            || digits(name, "d")
            || name == "main"
            || name.starts_with("unused_")
            || name.starts_with("common_")
    })
}

/// The names of the functions and variables `f` defines that `ours` picks, in address order.
fn defined_in_address_order(f: &Path, ours: impl Fn(&str) -> bool) -> Result<Vec<String>, String> {
    let mut syms: Vec<(u64, String)> = dynelf::readelf(&["-s"], f)?
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let name = *f.get(7)?;
            (ours(name) && f[6] != "UND" && (f[3] == "FUNC" || f[3] == "OBJECT"))
                .then(|| Some((u64::from_str_radix(f[1], 16).ok()?, name.to_string())))
                .flatten()
        })
        .collect();
    syms.sort();
    Ok(syms.into_iter().map(|(_, n)| n).collect())
}

/// An `ordering` trial: `funcs.c` (20 functions of different sizes and 20 variables in
/// sections of their own), `main.c`, `calls_shared.c` (a shared and an undefined weak
/// function), `commons.c` (common symbols), `liblazy.a` (a member never loaded), `abs.s` (an absolute symbol), `cg.s` (a `.llvm.call-graph-profile` section) when
/// a variant names `{cg.o}`, and `libshared.so` (linked by ld.lld-22 for both). lld's order
/// must differ from a plain link's exactly when the variant reorders, and it must print the
/// expected diagnostic; weld's functions' and variables' order, allocated sections,
/// diagnostics, printed order and run must be lld's.
fn ordering(dir: &Path, v: &OrderingVariant) -> Check {
    let c = Compiler::Clang;
    let mut cflags = vec!["-ffunction-sections", "-fdata-sections"];
    if v.lto {
        cflags.push("-flto=thin");
    }
    let mut inputs = vec![
        arg(&obj("ordering", "funcs.c", c, &cflags)?),
        arg(&obj("ordering", "main.c", c, &cflags)?),
        arg(&obj("ordering", "calls_shared.c", c, &cflags[..2])?),
        arg(&obj("ordering", "commons.c", c, &["-fcommon"])?),
        arg(&obj("ordering", "abs.s", c, &[])?),
    ];
    let cg = arg(&obj("ordering", "cg.s", c, &[])?);
    let (lld, weld) = sides(dir)?;
    let shlib = obj("ordering", "shlib.c", c, &["-fPIC"])?;
    let lib = reference(lld.link(
        c,
        false,
        &strings(&["-shared", &arg(&shlib)]),
        "libshared.so",
    ))?;
    std::fs::copy(&lib, weld.dir.join("libshared.so")).map_err(|e| e.to_string())?;
    let lazy = obj("ordering", "lazy.c", c, &[])?;
    for s in [&lld, &weld] {
        let mut ar = Command::new(tools::find(LLVM_AR)?);
        ar.current_dir(&s.dir)
            .arg("rcs")
            .arg("liblazy.a")
            .arg(&lazy);
        run::run(&mut ar, run::TOOL_TIMEOUT)?.ok(LLVM_AR)?;
    }
    inputs.extend(strings(&[
        "libshared.so",
        "liblazy.a",
        "-Wl,-rpath,$ORIGIN",
    ]));
    if v.lto {
        inputs.push("-flto=thin".to_string());
    }
    for s in [&lld, &weld] {
        copy_ordering_files(&s.dir)?;
    }
    let crel = arg(&obj(
        "ordering",
        "cg.s",
        c,
        &["-Wa,--crel,--allow-experimental-crel"],
    )?);
    let norel = arg(&obj("ordering", "cg_norel.s", c, &[])?);
    let flags: Vec<String> = v
        .flags
        .iter()
        .map(|f| {
            f.replace("{cg.o}", &cg)
                .replace("{cg_crel.o}", &crel)
                .replace("{cg_norel.o}", &norel)
        })
        .collect();
    let build = |s: &Side, flags: &[String], out: &str| -> Result<(PathBuf, Output), String> {
        let mut a = inputs.clone();
        a.extend(flags.iter().cloned());
        s.link_in(None, c, false, &a, out)
    };
    let (plain, _) = reference(build(
        &lld,
        &strings(&["-Wl,--no-call-graph-profile-sort"]),
        "plain.out",
    ))?;
    let (l_out, l_link) = reference(build(&lld, &flags, "a.out"))?;
    let l_order = ordering_symbols(&l_out)?;
    // LTO folds the variables into their readers.
    let listed = if v.lto { 20 } else { 40 };
    expect_lld(l_order.len() >= listed, || {
        format!("ld.lld-22's output should list the functions and variables: {l_order:?}")
    })?;
    expect_lld((l_order != ordering_symbols(&plain)?) == v.reorders, || {
        format!(
            "ld.lld-22's order should {}differ from a plain link's: {l_order:?}",
            if v.reorders { "" } else { "not " }
        )
    })?;
    expect_lld(l_link.stderr_str().contains(v.diagnostic), || {
        format!(
            "ld.lld-22 should print {:?}\n{}",
            v.diagnostic,
            l_link.report()
        )
    })?;
    let l_run = lld.run(&l_out)?;
    expect_lld_run(&l_run, 0, "ordering 2892\n")?;
    let (w_out, w_link) = build(&weld, &flags, "a.out")?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the functions' and variables' order",
        &ordering_symbols(&w_out)?,
        &l_order,
    ));
    p.check(same_lines(
        "the allocated sections",
        &alloc_section_lines(&w_out)?,
        &alloc_section_lines(&l_out)?,
    ));
    p.check(same_diagnostics(&w_link, &l_link, &weld));
    if let Some(name) = v.printed {
        let (l_file, w_file) = (lld.dir.join(name), weld.dir.join(name));
        match (l_file.exists(), w_file.exists()) {
            (true, true) => {
                let (l, w) = (paths::read(&l_file)?, paths::read(&w_file)?);
                if l != w {
                    p.0.push(format!(
                        "--print-symbol-order's file differs: {}",
                        text_diff(
                            "weld",
                            &String::from_utf8_lossy(&w),
                            "lld",
                            &String::from_utf8_lossy(&l)
                        )
                    ));
                }
            }
            (false, false) => {}
            (l, w) => p.0.push(format!(
                "--print-symbol-order's file: ld.lld-22 wrote it: {l}, weld: {w}"
            )),
        }
    }
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    p.done()
}

/// Bad ordering input, the linker called directly: exit code, diagnostics but for the program
/// name, files left behind, as lld's.
fn ordering_error(dir: &Path, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    let cflags = ["-ffunction-sections", "-fdata-sections"];
    let objs = [
        obj("ordering", "funcs.c", c, &cflags)?,
        obj("ordering", "main.c", c, &cflags)?,
        obj("ordering", "abs.s", c, &[])?,
    ];
    copy_ordering_files(dir)?;
    let (lld, weld) = sides(dir)?;
    let bad = arg(&obj("ordering", "cg_bad_entsize.s", c, &[])?);
    let mut args: Vec<String> = flags
        .iter()
        .map(|f| f.replace("{cg_bad_entsize.o}", &bad))
        .collect();
    args.extend(objs.iter().map(|o| arg(o)));
    args.push("--unresolved-symbols=ignore-all".to_string());
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(lo.code == Some(1), || {
        format!("ld.lld-22 should refuse {flags:?}\n{}", lo.report())
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

// =============================================================================================
// bp_order

/// A `bp_order` variant.
struct BpVariant {
    name: &'static str,
    /// Driver flags; `{profile}` is the temporal profile of the program's run.
    flags: &'static [&'static str],
    /// ThinLTO objects (the profile comes from the native build).
    lto: bool,
    /// Whether lld's order differs from a plain link's.
    reorders: bool,
}

const BP_VARIANTS: &[BpVariant] = &[
    BpVariant {
        name: "compression_function",
        flags: &["-Wl,--bp-compression-sort=function"],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "compression_data",
        flags: &["-Wl,--bp-compression-sort=data"],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "compression_both",
        flags: &["-Wl,--bp-compression-sort=both"],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "compression_none",
        flags: &["-Wl,--bp-compression-sort=both,--bp-compression-sort=none"],
        lto: false,
        reorders: false,
    },
    BpVariant {
        name: "startup",
        flags: &["-Wl,--irpgo-profile={profile},--bp-startup-sort=function"],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "startup_and_compression",
        flags: &[
            "-Wl,--irpgo-profile={profile},--bp-startup-sort=function,--bp-compression-sort=both",
        ],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "startup_functions_compressed",
        flags: &[
            "-Wl,--irpgo-profile={profile},--bp-startup-sort=function",
            "-Wl,--bp-compression-sort=function,--bp-compression-sort-startup-functions",
        ],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "with_symbol_ordering_file",
        flags: &["-Wl,--bp-compression-sort=both,--symbol-ordering-file={order}"],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "gc_icf",
        flags: &["-Wl,--bp-compression-sort=both,--gc-sections,--icf=all"],
        lto: false,
        reorders: true,
    },
    // A static link: the C library's IFUNCs whose address is taken are `.iplt` entries by
    // then, and bring no section of their own (lld's order depends on it).
    BpVariant {
        name: "static",
        flags: &["-static", "-Wl,--bp-compression-sort=both"],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "static_startup",
        flags: &[
            "-static",
            "-Wl,--irpgo-profile={profile},--bp-startup-sort=function,--bp-compression-sort=function",
        ],
        lto: false,
        reorders: true,
    },
    BpVariant {
        name: "thinlto_startup",
        flags: &[
            "-Wl,--irpgo-profile={profile},--bp-startup-sort=function,--bp-compression-sort=both",
        ],
        lto: true,
        reorders: true,
    },
];

/// (variant, linker flags), the linker called directly on `funcs.o` and `main.o`.
const BP_ERRORS: &[(&str, &[&str])] = &[
    ("bad_compression_value", &["--bp-compression-sort=fast"]),
    ("bad_startup_value", &["--bp-startup-sort=data"]),
    ("startup_without_profile", &["--bp-startup-sort=function"]),
    (
        "startup_functions_without_profile",
        &["--bp-compression-sort-startup-functions"],
    ),
    (
        "compression_with_call_graph_file",
        &[
            "--bp-compression-sort=both",
            "--call-graph-ordering-file=cg.txt",
        ],
    ),
    (
        "startup_with_call_graph_file",
        &[
            "--bp-startup-sort=function",
            "--irpgo-profile=x.profdata",
            "--call-graph-ordering-file=cg.txt",
        ],
    ),
];

/// The temporal profile of `bp_order/`'s program: built with `-fprofile-generate -mllvm
/// -pgo-temporal-instrumentation` (linked by ld.lld-22), run once, merged by llvm-profdata-22
/// into `<dir>/bp.profdata`. The profile must name the startup functions.
fn bp_profile(dir: &Path, lld: &Side) -> Result<PathBuf, String> {
    let c = Compiler::Clang;
    let inst = [
        "-ffunction-sections",
        "-fdata-sections",
        "-fprofile-generate",
        "-mllvm",
        "-pgo-temporal-instrumentation",
    ];
    let objs = [
        arg(&obj("bp_order", "funcs.c", c, &inst)?),
        arg(&obj("bp_order", "main.c", c, &inst)?),
        "-fprofile-generate".to_string(),
    ];
    let (exe, _) = reference(lld.link_in(None, c, false, &objs, "instrumented"))?;
    let raw = dir.join("bp.profraw");
    let mut cmd = Command::new(&exe);
    cmd.current_dir(dir).env("LLVM_PROFILE_FILE", &raw);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("the instrumented program")?;
    let profile = dir.join("bp.profdata");
    let mut merge = Command::new(tools::find("llvm-profdata-22")?);
    merge.arg("merge").arg(&raw).arg("-o").arg(&profile);
    run::run(&mut merge, run::TOOL_TIMEOUT)?.ok("llvm-profdata-22 merge")?;
    let mut show = Command::new(tools::find("llvm-profdata-22")?);
    show.args(["show", "--temporal-profile-traces"])
        .arg(&profile);
    let shown = run::run(&mut show, run::TOOL_TIMEOUT)?;
    expect_lld(shown.stdout_str().contains("look5\n    arith2\n"), || {
        format!(
            "the temporal profile should record the startup calls\n{}",
            shown.report()
        )
    })?;
    Ok(profile)
}

/// Every function and variable of the output in address order: the program's, and the C
/// library's and the C runtime's, whose order balanced partitioning decides too.
fn bp_symbols(f: &Path) -> Result<Vec<String>, String> {
    defined_in_address_order(f, |_| true)
}

/// A `bp_order` trial: `funcs.c` (families of functions and data sharing bytes, interleaved,
/// and three identical functions) and `main.c`, linked with `--verbose-bp-section-orderer` and
/// the variant's flags. lld's order must differ from a plain link's exactly when the variant
/// reorders, and lld must report what it ordered; weld's functions' and variables' order, its
/// report (counts, bytes, the page fault area), allocated sections and run must be lld's.
fn bp_order(dir: &Path, v: &BpVariant) -> Check {
    let c = Compiler::Clang;
    let mut cflags = vec!["-ffunction-sections", "-fdata-sections"];
    if v.lto {
        cflags.push("-flto=thin");
    }
    let mut inputs = vec![
        arg(&obj("bp_order", "funcs.c", c, &cflags)?),
        arg(&obj("bp_order", "main.c", c, &cflags)?),
    ];
    if v.lto {
        inputs.push("-flto=thin".to_string());
    }
    let (lld, weld) = sides(dir)?;
    let profile = if v.flags.iter().any(|f| f.contains("{profile}")) {
        arg(&bp_profile(dir, &lld)?)
    } else {
        String::new()
    };
    let order = dir.join("order.txt");
    paths::write(&order, "same_c\nloop3\ntable6\n")?;
    let mut flags: Vec<String> = v
        .flags
        .iter()
        .map(|f| {
            f.replace("{profile}", &profile)
                .replace("{order}", &arg(&order))
        })
        .collect();
    flags.push("-Wl,--verbose-bp-section-orderer".to_string());
    let build = |s: &Side, flags: &[String], out: &str| -> Result<(PathBuf, Output), String> {
        let mut a = inputs.clone();
        a.extend(flags.iter().cloned());
        s.link_in(None, c, false, &a, out)
    };
    // The same link without the ordering options (`-static` stays).
    let plain_flags: Vec<String> = v
        .flags
        .iter()
        .filter(|f| !f.starts_with("-Wl,"))
        .map(|f| f.to_string())
        .collect();
    let (plain, _) = reference(build(&lld, &plain_flags, "plain.out"))?;
    let (l_out, l_link) = reference(build(&lld, &flags, "a.out"))?;
    let l_order = bp_symbols(&l_out)?;
    expect_lld(l_order.len() >= 30, || {
        format!("ld.lld-22's output should list the functions and variables: {l_order:?}")
    })?;
    expect_lld((l_order != bp_symbols(&plain)?) == v.reorders, || {
        format!(
            "ld.lld-22's order should {}differ from a plain link's: {l_order:?}",
            if v.reorders { "" } else { "not " }
        )
    })?;
    expect_lld(
        l_link.stderr_str().contains("using balanced partitioning:") == v.reorders,
        || {
            format!(
                "ld.lld-22 should {}report its ordering\n{}",
                if v.reorders { "" } else { "not " },
                l_link.report()
            )
        },
    )?;
    let l_run = lld.run(&l_out)?;
    expect_lld(
        l_run.code == Some(0) && l_run.stdout_str().starts_with("bp_order "),
        || {
            format!(
                "the program linked by ld.lld-22 should run\n{}",
                l_run.report()
            )
        },
    )?;
    let (w_out, w_link) = build(&weld, &flags, "a.out")?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the functions' and variables' order",
        &bp_symbols(&w_out)?,
        &l_order,
    ));
    p.check(same_lines(
        "the allocated sections",
        &alloc_section_lines(&w_out)?,
        &alloc_section_lines(&l_out)?,
    ));
    p.check(same_diagnostics(&w_link, &l_link, &weld));
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    p.done()
}

/// Bad balanced-partitioning options, the linker called directly: exit code, diagnostics but
/// for the program name, files left behind, as lld's.
fn bp_order_error(dir: &Path, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    let cflags = ["-ffunction-sections", "-fdata-sections"];
    let mut args: Vec<String> = strings(flags);
    args.push(arg(&obj("bp_order", "funcs.c", c, &cflags)?));
    args.push(arg(&obj("bp_order", "main.c", c, &cflags)?));
    args.push("--unresolved-symbols=ignore-all".to_string());
    paths::write(&dir.join("cg.txt"), "main arith0 10\n")?;
    let (lld, weld) = sides(dir)?;
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(lo.code == Some(1), || {
        format!("ld.lld-22 should refuse {flags:?}\n{}", lo.report())
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// `--irpgo-profile=` naming a file that does not exist. ld.lld-22 prints LLVM's message
/// without the file name and then crashes (a null reader), so weld is held to its own wording:
/// the message naming the file, exit code 1, no output.
fn bp_missing_profile(dir: &Path) -> Check {
    let c = Compiler::Clang;
    let cflags = ["-ffunction-sections", "-fdata-sections"];
    let (_, weld) = sides(dir)?;
    let args = vec![
        "--irpgo-profile=nothere.profdata".to_string(),
        "--bp-startup-sort=function".to_string(),
        arg(&obj("bp_order", "funcs.c", c, &cflags)?),
        arg(&obj("bp_order", "main.c", c, &cflags)?),
        "--unresolved-symbols=ignore-all".to_string(),
    ];
    let wo = link_directly(dir, &weld, &args)?;
    let want = format!(
        "{}: error: nothere.profdata: No such file or directory\n",
        tools::diag_name(&weld.linker.path)
    );
    let mut p = Problems::default();
    if wo.code != Some(1) || wo.stderr_str() != want {
        p.0.push(format!("weld should fail with {want:?}\n{}", wo.report()));
    }
    if weld.dir.join("a.out").exists() {
        p.0.push("weld left an output file behind".to_string());
    }
    p.done()
}

/// (variant, driver flags).
const UNIQUE_VARIANTS: &[(&str, &[&str])] = &[
    ("unique", &["-Wl,--unique"]),
    ("default", &[]),
    ("xosegment", &["-Wl,--xosegment"]),
    ("xosegment_unique", &["-Wl,--xosegment", "-Wl,--unique"]),
];

/// `--unique` (an output section per input section) and `--xosegment` (no execute-only
/// sections on x86-64: no effect): `unique/start.c` and `unique/parts.c` (`-ffunction-sections
/// -fdata-sections`, no C library, whose split `.init` would not run) linked `-static
/// -nostdlib`. Every allocated section header and program header must be lld's, and the
/// program must exit as lld's (with 21).
fn unique(dir: &Path, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    let cflags = ["-ffunction-sections", "-fdata-sections", "-fno-pic"];
    let objs = [
        obj("unique", "start.c", c, &cflags)?,
        obj("unique", "parts.c", c, &cflags)?,
    ];
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<PathBuf, String> {
        let mut a: Vec<String> = objs.iter().map(|o| arg(o)).collect();
        a.extend(strings(&["-static", "-nostdlib"]));
        a.extend(strings(flags));
        s.link(c, false, &a, "a.out")
    };
    let l_out = reference(build(&lld))?;
    let l_sections = alloc_section_lines(&l_out)?;
    let texts = l_sections
        .iter()
        .filter(|l| l.starts_with(".text "))
        .count();
    expect_lld((texts > 1) == flags.contains(&"-Wl,--unique"), || {
        format!("ld.lld-22's .text sections do not match the flags: {l_sections:?}")
    })?;
    let l_run = lld.run(&l_out)?;
    expect_lld(l_run.code == Some(21), || {
        format!(
            "ld.lld-22's program should exit with 21\n{}",
            l_run.report()
        )
    })?;
    let w_out = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the allocated sections",
        &alloc_section_lines(&w_out)?,
        &l_sections,
    ));
    p.check(same_lines(
        "the program headers",
        &program_header_lines(&w_out)?,
        &program_header_lines(&l_out)?,
    ));
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    p.done()
}

/// One `icf` trial: what is built, how it is linked, and what ld.lld-22's
/// `--print-icf-sections` lines must show for the trial to test anything.
struct IcfVariant {
    name: &'static str,
    /// `icf/except.cc` (else `icf/funcs.c` and `icf/main.c`).
    cxx: bool,
    /// Extra compiler flags (besides `-ffunction-sections -fdata-sections`).
    cflags: &'static [&'static str],
    /// `icf/funcs.c` alone as a shared library (nothing runs).
    shared: bool,
    /// Linker flags (each passed with `-Wl,`).
    flags: &'static [&'static str],
    /// Driver flags (`-static`).
    driver: &'static [&'static str],
    /// Sections whose bytes must be lld's (`__patchable_function_entries`).
    sections: &'static [&'static str],
    /// Compare the code addresses debug info gives (`DW_AT_low_pc`/`DW_AT_high_pc`).
    debug: bool,
    /// Text lld's report must contain, and must not contain.
    lld_has: &'static [&'static str],
    lld_lacks: &'static [&'static str],
    /// The last line of lld's run (the programs print whether addresses are shared).
    lld_run_ends: &'static str,
}

const ICF_VARIANTS: &[IcfVariant] = &[
    IcfVariant {
        name: "all",
        cxx: false,
        cflags: &[],
        shared: false,
        flags: &["--icf=all", "--print-icf-sections"],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[
            ".text.addr_b)",
            ".text.call_b)",
            ".text.pong_b)",
            ".text.ping_b)",
        ],
        lld_lacks: &[".text.call_other)", ".rodata.table_b)"],
        lld_run_ends: "same function address: 1\nsame data address: 0 0\n",
    },
    IcfVariant {
        name: "safe",
        cxx: false,
        cflags: &[],
        shared: false,
        flags: &["--icf=safe", "--print-icf-sections"],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[".text.leaf_b)", ".text.call_b)"],
        lld_lacks: &[".text.addr_b)", ".rodata.table_b)"],
        lld_run_ends: "same function address: 0\nsame data address: 0 0\n",
    },
    IcfVariant {
        name: "safe_without_addrsig",
        cxx: false,
        cflags: &["-fno-addrsig"],
        shared: false,
        flags: &["--icf=safe", "--print-icf-sections"],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &["removing identical section"],
        lld_lacks: &[".text.leaf_b)", ".text.call_b)"],
        lld_run_ends: "same function address: 0\nsame data address: 0 0\n",
    },
    IcfVariant {
        name: "all_without_addrsig",
        cxx: false,
        cflags: &["-fno-addrsig"],
        shared: false,
        flags: &["--icf=all", "--print-icf-sections"],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[".text.addr_b)", ".text.leaf_b)"],
        lld_lacks: &[".rodata.table_b)"],
        lld_run_ends: "same function address: 1\nsame data address: 0 0\n",
    },
    IcfVariant {
        name: "none_last",
        cxx: false,
        cflags: &[],
        shared: false,
        flags: &["--icf=all", "--icf=none", "--print-icf-sections"],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[],
        lld_lacks: &["selected section"],
        lld_run_ends: "same function address: 0\nsame data address: 0 0\n",
    },
    IcfVariant {
        name: "no_print",
        cxx: false,
        cflags: &[],
        shared: false,
        flags: &[
            "--print-icf-sections",
            "--icf=all",
            "--no-print-icf-sections",
        ],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[],
        lld_lacks: &["selected section"],
        lld_run_ends: "same function address: 1\nsame data address: 0 0\n",
    },
    IcfVariant {
        name: "keep_unique",
        cxx: false,
        cflags: &[],
        shared: false,
        flags: &[
            "--icf=all",
            "--keep-unique=leaf_b",
            "--keep-unique",
            "addr_a",
            "--print-icf-sections",
        ],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[".text.call_b)", ".text.pong_b)"],
        lld_lacks: &[".text.leaf_b)", ".text.addr_b)"],
        lld_run_ends: "same function address: 0\nsame data address: 0 0\n",
    },
    IcfVariant {
        name: "ignore_data_address_equality",
        cxx: false,
        cflags: &[],
        shared: false,
        flags: &[
            "--icf=all",
            "--ignore-data-address-equality",
            "--print-icf-sections",
        ],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[".rodata.table_b)", ".rodata.table_c)", ".text.addr_b)"],
        lld_lacks: &[".text.call_other)"],
        lld_run_ends: "same function address: 1\nsame data address: 1 1\n",
    },
    IcfVariant {
        name: "safe_ignore_data_address_equality",
        cxx: false,
        cflags: &[],
        shared: false,
        flags: &[
            "--icf=safe",
            "--ignore-data-address-equality",
            "--print-icf-sections",
        ],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[".text.leaf_b)"],
        lld_lacks: &[".rodata.table_b)", ".text.addr_b)"],
        lld_run_ends: "same function address: 0\nsame data address: 0 0\n",
    },
    IcfVariant {
        name: "shared",
        cxx: false,
        cflags: &["-fPIC", "-fsemantic-interposition"],
        shared: true,
        flags: &["--icf=all", "--print-icf-sections"],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[".text.hid_b)", ".text.use_hid_b)", ".text.leaf_b)"],
        lld_lacks: &[".text.call_b)", ".text.call_other)"],
        lld_run_ends: "",
    },
    IcfVariant {
        name: "shared_safe",
        cxx: false,
        cflags: &["-fPIC", "-fsemantic-interposition"],
        shared: true,
        flags: &["--icf=safe", "--print-icf-sections"],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &[".text.hid_b)"],
        lld_lacks: &[".text.leaf_b)", ".text.call_b)"],
        lld_run_ends: "",
    },
    IcfVariant {
        name: "cxx_templates_and_lsda",
        cxx: true,
        cflags: &[],
        shared: false,
        flags: &["--icf=all", "--print-icf-sections"],
        driver: &[],
        sections: &[],
        debug: false,
        lld_has: &["(.text._ZN3BoxIlE5twiceEi)", "(.text._ZN3BoxIcE5twiceEi)"],
        lld_lacks: &["catch_"],
        lld_run_ends: "caught 3\nsame template address: 1\n",
    },
    IcfVariant {
        name: "static_libstdcxx",
        cxx: true,
        cflags: &[],
        shared: false,
        flags: &["--icf=all", "--print-icf-sections"],
        driver: &["-static"],
        sections: &[],
        debug: false,
        lld_has: &["libstdc++.a(", "(.text._ZN3BoxIlE5twiceEi)"],
        lld_lacks: &["catch_"],
        lld_run_ends: "caught 3\nsame template address: 1\n",
    },
    IcfVariant {
        name: "patchable_entries_and_debug_info",
        cxx: false,
        cflags: &["-fpatchable-function-entry=2", "-g"],
        shared: false,
        flags: &["--icf=all", "--print-icf-sections"],
        driver: &[],
        sections: &["__patchable_function_entries"],
        debug: true,
        lld_has: &[".text.leaf_b)", ".text.addr_b)"],
        lld_lacks: &[".text.call_other)"],
        lld_run_ends: "same function address: 1\nsame data address: 0 0\n",
    },
];

/// The defined functions and objects of `file` that share an address with another, as sorted
/// `name name ...` lines, one per address.
fn shared_address_sets(file: &Path) -> Result<Vec<String>, String> {
    let mut by_addr: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for l in dynelf::readelf(&["-sW"], file)?.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() < 8 || !(f[3] == "FUNC" || f[3] == "OBJECT") || f[6] == "UND" {
            continue;
        }
        by_addr
            .entry(f[1].to_string())
            .or_default()
            .insert(f[7].to_string());
    }
    let mut sets: Vec<String> = by_addr
        .into_values()
        .filter(|s| s.len() > 1)
        .map(|s| s.into_iter().collect::<Vec<_>>().join(" "))
        .collect();
    sets.sort();
    Ok(sets)
}

/// The size of `.text`, as llvm-readelf-22 shows it.
fn text_size(file: &Path) -> Result<String, String> {
    dynelf::readelf(&["-SW"], file)?
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_once(']')?.1.split_whitespace().collect();
            (f.first() == Some(&".text")).then(|| f.get(4).map(|s| s.to_string()))?
        })
        .ok_or_else(|| format!("{} has no .text", file.display()))
}

/// `--icf=` and its companions on `icf/` (C twins, callers of twins, mutually recursive twins,
/// address-taken twins, read-only tables, hidden and exported functions; C++ template
/// instances and functions with different LSDAs), linked through clang-22 by each linker:
/// the `--print-icf-sections` lines must be lld's (which must show the scenario folds, or does
/// not fold, what it is about), and so must the sets of symbols sharing an address, `.text`'s
/// size and the program's run.
fn icf(dir: &Path, v: &IcfVariant) -> Check {
    let c = Compiler::Clang;
    let mut cflags = vec!["-ffunction-sections", "-fdata-sections"];
    cflags.extend(v.cflags);
    let objs = if v.cxx {
        vec![obj("icf", "except.cc", c, &cflags)?]
    } else if v.shared {
        vec![obj("icf", "funcs.c", c, &cflags)?]
    } else {
        vec![
            obj("icf", "funcs.c", c, &cflags)?,
            obj("icf", "main.c", c, &cflags)?,
        ]
    };
    let (lld, weld) = sides(dir)?;
    let out = if v.shared { "libicf.so" } else { "a.out" };
    let build = |s: &Side| -> Result<(PathBuf, Output), String> {
        let mut a: Vec<String> = objs.iter().map(|o| arg(o)).collect();
        if v.shared {
            a.push("-shared".to_string());
        }
        a.extend(v.flags.iter().map(|f| format!("-Wl,{f}")));
        a.extend(strings(v.driver));
        s.link_in(None, c, v.cxx, &a, out)
    };
    let lines = |o: &Output| -> Vec<String> { o.stdout_str().lines().map(String::from).collect() };
    let (l_out, l_link) = reference(build(&lld))?;
    let l_lines = lines(&l_link);
    let report = l_lines.join("\n");
    for want in v.lld_has {
        expect_lld(report.contains(want), || {
            format!("ld.lld-22's --print-icf-sections should mention {want}:\n{report}")
        })?;
    }
    for bad in v.lld_lacks {
        expect_lld(!report.contains(bad), || {
            format!("ld.lld-22's --print-icf-sections should not mention {bad}:\n{report}")
        })?;
    }
    let (w_out, w_link) = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the --print-icf-sections lines",
        &lines(&w_link),
        &l_lines,
    ));
    p.check(same_lines(
        "the symbols sharing an address",
        &shared_address_sets(&w_out)?,
        &shared_address_sets(&l_out)?,
    ));
    p.check(same_lines(
        "the size of .text",
        &[text_size(&w_out)?],
        &[text_size(&l_out)?],
    ));
    for name in v.sections {
        p.check(same_lines(
            &format!("the bytes of {name}"),
            &section_bytes(&w_out, name)?,
            &section_bytes(&l_out, name)?,
        ));
    }
    if v.debug {
        let l_pcs = debug_pc_lines(&l_out)?;
        expect_lld(
            l_pcs.iter().any(|l| l.contains("(0x0000000000000000)")),
            || {
                format!(
                    "ld.lld-22's debug info should give folded functions the tombstone:\n{l_pcs:?}"
                )
            },
        )?;
        p.check(same_lines(
            "the code addresses in .debug_info",
            &debug_pc_lines(&w_out)?,
            &l_pcs,
        ));
    }
    if !v.shared {
        let l_run = lld.run(&l_out)?;
        expect_lld(
            l_run.code == Some(0) && l_run.stdout_str().ends_with(v.lld_run_ends),
            || {
                format!(
                    "ld.lld-22's program should end with {:?}\n{}",
                    v.lld_run_ends,
                    l_run.report()
                )
            },
        )?;
        p.check(same_run(&weld.run(&w_out)?, &l_run));
    }
    p.done()
}

/// `DW_AT_name`, `DW_AT_low_pc` and `DW_AT_high_pc` lines of `.debug_info`, in order.
fn debug_pc_lines(file: &Path) -> Result<Vec<String>, String> {
    let mut cmd = Command::new(tools::find(tools::DWARFDUMP)?);
    cmd.arg("--debug-info").arg(file);
    let text = run::run(&mut cmd, run::TOOL_TIMEOUT)?
        .ok("llvm-dwarfdump-22")?
        .stdout_str();
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| {
            l.starts_with("DW_AT_low_pc")
                || l.starts_with("DW_AT_high_pc")
                || l.starts_with("DW_AT_name")
        })
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect())
}

/// (variant, linker flags): options the linker called directly must treat as lld does.
const ICF_ERRORS: &[(&str, &[&str])] = &[
    ("bad_value", &["--icf=bogus"]),
    ("missing_value", &["--icf"]),
    (
        "keep_unique_missing",
        &["--icf=all", "--keep-unique=nosuch"],
    ),
    ("keep_unique_without_icf", &["--keep-unique=nosuch"]),
];

/// Bad `--icf` values and `--keep-unique` naming no symbol, the linker called directly on
/// `icf/funcs.c`: exit code, diagnostics but for the program name, files left behind.
fn icf_direct(dir: &Path, flags: &[&str]) -> Check {
    let o = obj(
        "icf",
        "funcs.c",
        Compiler::Clang,
        &["-ffunction-sections", "-fdata-sections"],
    )?;
    let (lld, weld) = sides(dir)?;
    let mut args = strings(flags);
    args.push(arg(&o));
    args.push("--unresolved-symbols=ignore-all".to_string());
    let lo = link_directly(dir, &lld, &args)?;
    let refused = flags
        .iter()
        .any(|f| f.starts_with("--icf") && *f != "--icf=all");
    expect_lld((lo.code == Some(1)) == refused, || {
        format!(
            "ld.lld-22's outcome is not the one expected\n{}",
            lo.report()
        )
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// (variant, flags for the library and the program).
const ANDROID_PACKED_VARIANTS: &[(&str, &[&str])] = &[
    ("android", &["-Wl,--pack-dyn-relocs=android"]),
    ("android_relr", &["-Wl,--pack-dyn-relocs=android+relr"]),
    (
        "relr_then_android",
        &[
            "-Wl,--pack-dyn-relocs=relr",
            "-Wl,--pack-dyn-relocs=android",
        ],
    ),
];

/// `--pack-dyn-relocs=android[+relr]`: `android_packed/lib.c` as `libext.so` and
/// `android_packed/main.c` as a PIE using it, each linked by each linker with the flags. glibc
/// does not read APS2, so nothing runs; the outputs must be lld's: `.rela.dyn`'s bytes (the
/// encoding and its grouping), the relocations llvm-readelf-22 decodes from it, the headers of
/// the relocation sections, and the dynamic section.
fn android_packed(dir: &Path, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, PathBuf), String> {
        let mut a = strings(&["-shared", "-Wl,-soname,libext.so"]);
        a.push(arg(&obj("android_packed", "lib.c", c, &["-fPIC"])?));
        a.extend(strings(flags));
        let lib = s.link(c, false, &a, "libext.so")?;
        let mut a = strings(&["-pie"]);
        a.push(arg(&obj("android_packed", "main.c", c, &["-fPIE"])?));
        a.push(arg(&lib));
        a.extend(strings(flags));
        Ok((lib, s.link(c, false, &a, "a.out")?))
    };
    let (l_lib, l_exe) = reference(build(&lld))?;
    let l_bytes = section_bytes(&l_exe, ".rela.dyn")?;
    expect_lld(
        l_bytes.first().is_some_and(|l| l.starts_with("41505332")),
        || format!("ld.lld-22's .rela.dyn should start with APS2: {l_bytes:?}"),
    )?;
    let (w_lib, w_exe) = build(&weld)?;
    let mut p = Problems::default();
    for (what, w, l) in [
        ("libext.so", &w_lib, &l_lib),
        ("the program", &w_exe, &l_exe),
    ] {
        p.check(same_lines(
            &format!(".rela.dyn's bytes in {what}"),
            &section_bytes(w, ".rela.dyn")?,
            &section_bytes(l, ".rela.dyn")?,
        ));
        p.check(same_lines(
            &format!("the relocations of {what}"),
            &relocation_lines(w)?,
            &relocation_lines(l)?,
        ));
        p.check(same_lines(
            &format!("the relocation sections of {what}"),
            &reloc_section_headers(w)?,
            &reloc_section_headers(l)?,
        ));
        p.check(same_dynamic(what, w, l));
    }
    p.done()
}

/// A section's contents as `llvm-readelf -x` dumps them, the address column dropped.
fn section_bytes(file: &Path, section: &str) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-x", section], file)?;
    Ok(text
        .lines()
        .filter(|l| l.trim_start().starts_with("0x"))
        .map(|l| {
            let hex: String = l.split_whitespace().skip(1).take(4).collect();
            hex
        })
        .collect())
}

/// Every relocation `llvm-readelf -r` lists (decoded from packed formats): the section line,
/// then `offset type symbol+addend` of each.
fn relocation_lines(file: &Path) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-r"], file)?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("Offset"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect())
}

/// The headers of the relocation sections: `name type flags entsize link info align`.
fn reloc_section_headers(file: &Path) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-SW"], file)?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_once(']')?.1.split_whitespace().collect();
            (f.len() == 10 && f[0].starts_with(".rel")).then(|| {
                format!(
                    "{} {} {} {} {} {} {}",
                    f[0], f[1], f[6], f[5], f[7], f[8], f[9]
                )
            })
        })
        .collect())
}

/// (variant, linker arguments after `main.o`, the report file each linker writes in its
/// directory, `-` for stdout). The inputs are `trace`'s: `main.o`, `liba.a` (`a.o`, `b.o`),
/// `libt.so`, and `lib dir/libq.a` (a copy of `liba.a` in a directory with a space).
const REPORT_VARIANTS: &[(&str, &[&str], &str)] = &[
    (
        "dependency_file",
        &[
            "-Llib dir",
            "-lq",
            "liba.a",
            "libt.so",
            "--version-script=v.map",
            "--dependency-file={dir}/deps.d",
        ],
        "deps.d",
    ),
    (
        "archive_stats",
        &[
            "liba.a",
            "liba.a",
            "libt.so",
            "--print-archive-stats={dir}/stats.txt",
        ],
        "stats.txt",
    ),
    (
        "trace_symbol",
        &[
            "libt.so",
            "liba.a",
            "-y",
            "a_fn",
            "-y",
            "b_fn",
            "--trace-symbol=t_fn",
            "--trace-symbol=main",
        ],
        "-",
    ),
    (
        "trace_symbol_undefined_flag",
        &[
            "-u", "b_fn", "liba.a", "libt.so", "-y", "b_fn", "-y", "a_fn",
        ],
        "-",
    ),
    ("cref", &["liba.a", "libt.so", "-u", "b_fn", "--cref"], "-"),
    (
        "archive_stats_stdout",
        &[
            "--start-lib",
            "b.o",
            "--end-lib",
            "liba.a",
            "libt.so",
            "-u",
            "b_fn",
            "--print-archive-stats=-",
        ],
        "-",
    ),
];

/// A `reports` variant, the linker called directly in the trial's directory (relative paths,
/// so both reports name the same files): the report is byte for byte lld's.
fn reports(dir: &Path, args: &[&str], file: &str) -> Check {
    trace_inputs(dir)?;
    std::fs::create_dir_all(dir.join("lib dir")).map_err(|e| e.to_string())?;
    std::fs::copy(dir.join("liba.a"), dir.join("lib dir/libq.a")).map_err(|e| e.to_string())?;
    paths::write(&dir.join("v.map"), "{ global: *; };\n")?;

    let (lld, weld) = sides(dir)?;
    let link = |s: &Side| -> Result<String, String> {
        let label = s.label();
        let mut cmd = Command::new(&s.linker.path);
        cmd.current_dir(dir)
            .arg("main.o")
            .args(args.iter().map(|a| a.replace("{dir}", label)))
            .args(["--unresolved-symbols=ignore-all", "-e", "main", "-o"])
            .arg(format!("{label}/a.out"));
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&dir.join(format!("{label}.link.txt")), o.report())?;
        let o = o.ok(&format!("{label}'s link"))?;
        if file == "-" {
            Ok(o.stdout_str().to_string())
        } else {
            let text = std::fs::read_to_string(s.dir.join(file))
                .map_err(|e| format!("{label}/{file}: {e}"))?;
            // Each linker wrote its own output path: the rule's target differs by that only.
            Ok(text.replace(&format!("{label}/"), "OUT/"))
        }
    };
    let l = reference(link(&lld))?;
    expect_lld(l.lines().count() >= 2, || {
        format!("ld.lld-22's report says nothing:\n{l}")
    })?;
    let w = link(&weld)?;
    if w == l {
        Ok(())
    } else {
        Err(format!(
            "weld's report differs from ld.lld-22's:\n{}",
            text_diff("weld", &w, "lld", &l)
        ))
    }
}

/// (variant, sources of `noinhibit/`, flags): an undefined symbol, a duplicate definition (and
/// an undefined symbol), both under `--fatal-warnings`, and undefined symbols of non-default
/// visibility.
const NOINHIBIT_VARIANTS: &[(&str, &[&str], &[&str])] = &[
    ("undefined", &["undef.c"], &["--noinhibit-exec"]),
    ("duplicate", &["undef.c", "dup.c"], &["--noinhibit-exec"]),
    (
        "fatal_warnings",
        &["undef.c", "dup.c"],
        &["--noinhibit-exec", "--fatal-warnings"],
    ),
    ("without", &["undef.c", "dup.c"], &[]),
    // Undefined hidden, protected and internal symbols: errors (named with their visibility)
    // even with --unresolved-symbols=ignore-all or --warn-unresolved-symbols, warnings under
    // --noinhibit-exec.
    ("hidden", &["hidden.c"], &[]),
    ("hidden_noinhibit", &["hidden.c"], &["--noinhibit-exec"]),
    (
        "hidden_ignore_all",
        &["hidden.c"],
        &["--unresolved-symbols=ignore-all"],
    ),
    ("hidden_warn", &["hidden.c"], &["--warn-unresolved-symbols"]),
    // --error-handling-script (checked the same way): run for an undefined symbol and for a
    // missing library, succeeding, failing, or missing.
    (
        "error_script",
        &["undef.c"],
        &["--error-handling-script={src}/report.sh"],
    ),
    (
        "error_script_fails",
        &["undef.c"],
        &["--error-handling-script={src}/fail.sh"],
    ),
    (
        "error_script_missing",
        &["undef.c"],
        &["--error-handling-script={src}/nonexist.sh"],
    ),
    (
        "error_script_missing_lib",
        &["undef.c"],
        &["-lnothere", "--error-handling-script={src}/report.sh"],
    ),
];

/// `--noinhibit-exec`, the linker called directly: exit code, every diagnostic (warnings, or
/// errors under `--fatal-warnings`, blank lines between multi-line ones) but for the program
/// name, and whether the output was written, as ld.lld-22.
fn noinhibit_exec(dir: &Path, inputs: &[&str], flags: &[&str]) -> Check {
    let objs: Vec<PathBuf> = inputs
        .iter()
        .map(|f| obj("noinhibit", f, Compiler::Clang, &[]))
        .collect::<Result<_, _>>()?;
    let (lld, weld) = sides(dir)?;
    let src = arg(&src_dir("noinhibit"));
    let mut args: Vec<String> = objs.iter().map(|o| arg(o)).collect();
    args.extend(flags.iter().map(|f| f.replace("{src}", &src)));
    args.extend(strings(&["-e", "main"]));
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(
        lo.stderr_str().contains(" symbol: ") || lo.stderr_str().contains("-lnothere"),
        || {
            format!(
                "ld.lld-22 should report a symbol or the missing library\n{}",
                lo.report()
            )
        },
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// (variant, compiler, source in `symbols/`, shared library, flags).
const OUTPUT_SHAPE_VARIANTS: &[(&str, Compiler, &str, bool, &[&str])] = &[
    (
        "headers_and_package_note",
        Compiler::Clang,
        "startstop.c",
        false,
        &[
            "-Wl,-z,wxneeded",
            "-Wl,-z,nognustack",
            "-Wl,--package-metadata=%7B%22os%22:%22weld%22%7D",
        ],
    ),
    (
        "start_stop_default",
        Compiler::Clang,
        "startstop.c",
        false,
        &["-Wl,-z,start-stop-visibility=default"],
    ),
    (
        "start_stop_hidden",
        Compiler::Clang,
        "startstop.c",
        false,
        &["-Wl,-z,start-stop-visibility=hidden"],
    ),
    (
        "retain_symbols_file",
        Compiler::Clang,
        "startstop.c",
        false,
        &[
            "-Wl,--retain-symbols-file={src}/retain.txt",
            "-Wl,--export-dynamic",
        ],
    ),
    ("gnu_unique", Compiler::Gcc, "unique.cc", true, &[]),
    (
        "no_gnu_unique",
        Compiler::Gcc,
        "unique.cc",
        true,
        &["-Wl,--no-gnu-unique"],
    ),
];

/// The `.symtab` entries of `file` as sorted lines `name type bind vis defined|UND|ABS`.
fn symtab_lines(file: &Path) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-sW"], file)?;
    let mut v = Vec::new();
    let mut in_symtab = false;
    for l in text.lines() {
        if l.starts_with("Symbol table") {
            in_symtab = l.contains("'.symtab'");
            continue;
        }
        let t: Vec<&str> = l.split_whitespace().collect();
        if !in_symtab || t.len() < 8 || !t[0].ends_with(':') {
            continue;
        }
        let ndx = match t[6] {
            "UND" | "ABS" => t[6],
            _ => "DEF",
        };
        v.push(format!("{} {} {} {} {ndx}", t[7], t[3], t[4], t[5]));
    }
    v.sort();
    Ok(v)
}

/// Options that shape the output's headers and symbol tables (`-z wxneeded`, `-z nognustack`,
/// `--package-metadata`, `-z start-stop-visibility=`, `--no-gnu-unique`): program headers,
/// notes and `.note.package`'s bytes, `.symtab`, `.dynsym`, and the program's run.
/// `symbols/dso_handle.c` without crtbegin.o (`-nostdlib -static`, its own `_start`): the
/// linker defines the `__dso_handle` it refers to at the ELF header, hidden, as lld does; the
/// `.symtab` and the run (which compares it with `__ehdr_start`) equal lld's.
fn dso_handle(dir: &Path) -> Check {
    let c = Compiler::Clang;
    let o = obj("symbols", "dso_handle.c", c, &["-fno-pie"])?;
    let (lld, weld) = sides(dir)?;
    let args = strings(&[&arg(&o), "-nostdlib", "-static", "-no-pie"]);
    let l_out = reference(lld.link(c, false, &args, "a.out"))?;
    let l_run = lld.run(&l_out)?;
    expect_lld_run(&l_run, 0, "dso_handle at the ELF header\n")?;
    let w_out = weld.link(c, false, &args, "a.out")?;
    let mut p = Problems::default();
    p.check(same_lines(
        ".symtab",
        &symtab_lines(&w_out)?,
        &symtab_lines(&l_out)?,
    ));
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    p.done()
}

fn output_shape(dir: &Path, c: Compiler, src: &str, shared: bool, flags: &[&str]) -> Check {
    let cxx = src.ends_with(".cc");
    let pic: &[&str] = if shared { &["-fPIC"] } else { &[] };
    let o = obj("symbols", src, c, pic)?;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<PathBuf, String> {
        let mut a = Vec::new();
        if shared {
            a.push("-shared".to_string());
        }
        a.push(arg(&o));
        let src = arg(&src_dir("symbols"));
        a.extend(flags.iter().map(|f| f.replace("{src}", &src)));
        s.link(c, cxx, &a, if shared { "libx.so" } else { "a.out" })
    };
    let package = |f: &Path| -> Result<Vec<String>, String> {
        let text = dynelf::readelf(&["-x", ".note.package"], f).unwrap_or_default();
        Ok(text
            .lines()
            .filter(|l| l.trim_start().starts_with("0x"))
            // The address column goes: the bytes stay.
            .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
            .collect())
    };
    let l_out = reference(build(&lld))?;
    let l_run = if shared {
        None
    } else {
        let r = lld.run(&l_out)?;
        expect_lld_run(&r, 0, "myset=2\n")?;
        Some(r)
    };
    let w_out = build(&weld)?;
    let mut p = Problems::default();
    p.check(dynlink::same(
        "the program headers (type -> flags of each)",
        &elf::segments(&w_out)?,
        &elf::segments(&l_out)?,
    ));
    p.check(dynlink::same(
        "the notes",
        &elf::notes(&w_out)?,
        &elf::notes(&l_out)?,
    ));
    p.check(same_lines(
        ".note.package",
        &package(&w_out)?,
        &package(&l_out)?,
    ));
    p.check(same_lines(
        ".symtab",
        &symtab_lines(&w_out)?,
        &symtab_lines(&l_out)?,
    ));
    p.check(same_lines(
        ".dynsym",
        &dyn_sym_lines(&w_out)?,
        &dyn_sym_lines(&l_out)?,
    ));
    p.check(same_dynamic("the output", &w_out, &l_out));
    if let Some(l_run) = l_run {
        p.check(same_run(&weld.run(&w_out)?, &l_run));
    }
    p.done()
}

/// (variant, driver flags, what lld's program prints; `None`: not run, since lld's output
/// does not start either: `-n` maps unaligned segments of different permissions).
const PAGING_VARIANTS: &[(&str, &[&str], Option<&str>)] = &[
    ("omagic", &["-Wl,-N"], Some(PAGING_STDOUT)),
    ("omagic_long", &["-Wl,--omagic"], Some(PAGING_STDOUT)),
    ("no_omagic", &["-Wl,-N,--no-omagic"], Some(PAGING_STDOUT)),
    ("nmagic", &["-Wl,-n"], None),
    ("nmagic_long_pie", &["-Wl,--nmagic", "-static-pie"], None),
    (
        "page_size_warnings",
        &["-Wl,-N,-z,max-page-size=65536,-z,common-page-size=16384"],
        Some(PAGING_STDOUT),
    ),
];

const PAGING_STDOUT: &str = "paging 124 0\n";

/// The layout without pages: `paging/main.c` linked `-static` (`-fPIE` objects) with the
/// variant's flags. Program headers and allocated sections must be lld's in every column, and
/// so must the warnings.
fn paging(dir: &Path, flags: &[&str], stdout: Option<&str>) -> Check {
    let o = obj("paging", "main.c", Compiler::Clang, &["-fPIE"])?;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, Output), String> {
        let mut a = vec![arg(&o)];
        if !flags.contains(&"-static-pie") {
            a.push("-static".to_string());
        }
        a.extend(strings(flags));
        s.link_in(None, Compiler::Clang, false, &a, "a.out")
    };
    let (l_out, l_link) = reference(build(&lld))?;
    let l_phdrs = program_header_lines(&l_out)?;
    expect_lld(
        !l_phdrs.iter().any(|l| l.starts_with("PHDR ")) || flags.contains(&"-Wl,-N,--no-omagic"),
        || {
            format!(
                "ld.lld-22's output should have no PT_PHDR:\n{}",
                l_phdrs.join("\n")
            )
        },
    )?;
    let (w_out, w_link) = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the program headers",
        &program_header_lines(&w_out)?,
        &l_phdrs,
    ));
    p.check(same_lines(
        "the allocated sections",
        &alloc_section_lines(&w_out)?,
        &alloc_section_lines(&l_out)?,
    ));
    p.check(same_diagnostics(&w_link, &l_link, &weld));
    if let Some(stdout) = stdout {
        let l_run = lld.run(&l_out)?;
        expect_lld_run(&l_run, 0, stdout)?;
        p.check(same_run(&weld.run(&w_out)?, &l_run));
    }
    p.done()
}

/// `-N` works as `-Bstatic` for the `-l` options after it (lld, GNU ld): with only
/// `libpg.so` in the search path, `-N -lpg` fails as lld fails, `-N -Bdynamic -lpg` links.
fn paging_library_search(dir: &Path, static_lib: bool) -> Check {
    let o = obj("paging", "main.c", Compiler::Clang, &["-fPIE"])?;
    let (lld, weld) = sides(dir)?;
    let libs = dir.join("libs");
    paths::fresh_dir(&libs)?;
    let libm = libc_dir()?.join("libm.so.6");
    std::fs::copy(&libm, libs.join("libpg.so"))
        .map_err(|e| format!("cannot copy {}: {e}", libm.display()))?;
    let mut args = strings(&["-e", "main", "--unresolved-symbols=ignore-all", "-N"]);
    args.push(arg(&o));
    args.push(format!("-L{}", arg(&libs)));
    if !static_lib {
        args.push("-Bdynamic".to_string());
    }
    args.push("-lpg".to_string());
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(lo.code == Some(if static_lib { 1 } else { 0 }), || {
        format!(
            "ld.lld-22 should {} -lpg\n{}",
            if static_lib { "not find" } else { "find" },
            lo.report()
        )
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// Every program header of `file` as `llvm-readelf -lW` prints it (all columns).
fn program_header_lines(file: &Path) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-lW"], file)?;
    Ok(text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Type "))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| !l.trim_start().starts_with('['))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect())
}

/// The allocated sections of `file`: `name type address offset size flags align`.
fn alloc_section_lines(file: &Path) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-SW"], file)?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let rest = l.split_once(']')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            // name type address offset size entsize flags link info align
            (f.len() == 10 && f[6].contains('A')).then(|| {
                format!(
                    "{} {} {} {} {} {} {}",
                    f[0], f[1], f[2], f[3], f[4], f[6], f[9]
                )
            })
        })
        .collect())
}

/// (variant, flags, what lld's program prints).
const FORTRAN_COMMON_VARIANTS: &[(&str, &[&str], &str)] = &[
    ("default", &[], "x=0\n"),
    ("fortran_common", &["-Wl,--fortran-common"], "x=5\n"),
    (
        "no_fortran_common",
        &["-Wl,--fortran-common", "-Wl,--no-fortran-common"],
        "x=0\n",
    ),
];

/// `--fortran-common`: a common `x` (`symbols/common_main.c`, `-fcommon`) and an archive member
/// defining `x = 5` (`symbols/common_def.c` in `libdef.a`) that nothing else needs: loaded only
/// with the option. The run, `.symtab` and the `--why-extract` report.
fn fortran_common(dir: &Path, flags: &[&str], stdout: &str) -> Check {
    let c = Compiler::Clang;
    let main_o = obj("symbols", "common_main.c", c, &["-fcommon"])?;
    let def_o = obj("symbols", "common_def.c", c, &[])?;
    std::fs::copy(&def_o, dir.join("common_def.o")).map_err(|e| e.to_string())?;
    let mut cmd = Command::new(tools::find(LLVM_AR)?);
    cmd.current_dir(dir)
        .args(["rcs", "libdef.a", "common_def.o"]);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-ar-22 rcs libdef.a")?;
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<(PathBuf, String), String> {
        let mut a = vec![arg(&main_o), arg(&dir.join("libdef.a"))];
        a.extend(strings(flags));
        a.push(format!(
            "-Wl,--why-extract={}",
            s.dir.join("why.txt").display()
        ));
        let exe = s.link(c, false, &a, "a.out")?;
        let why = std::fs::read_to_string(s.dir.join("why.txt")).map_err(|e| e.to_string())?;
        // Paths differ by the side's directory only.
        Ok((exe, why.replace(&arg(dir), "DIR")))
    };
    let (l_exe, l_why) = reference(build(&lld))?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, stdout)?;
    let (w_exe, w_why) = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.check(same_lines(
        "the --why-extract report",
        &w_why.lines().map(String::from).collect::<Vec<_>>(),
        &l_why.lines().map(String::from).collect::<Vec<_>>(),
    ));
    p.check(same_lines(
        ".symtab",
        &symtab_lines(&w_exe)?,
        &symtab_lines(&l_exe)?,
    ));
    p.done()
}

/// (variant, flag, the trace file each linker writes in its directory).
const TIME_TRACE_VARIANTS: &[(&str, &str, &str)] = &[
    ("next_to_output", "--time-trace", "a.out.time-trace"),
    ("named", "--time-trace={dir}/trace.json", "trace.json"),
    (
        "plugin_opt",
        "-plugin-opt=time-trace={dir}/trace.json",
        "trace.json",
    ),
];

/// The complete ("X") events of a Chrome trace: (name, ts, dur).
fn trace_events(text: &str) -> Result<Vec<(String, u64, u64)>, String> {
    let json = weld_tests::json::Json::parse(text)?;
    let mut v = Vec::new();
    for e in json.at("traceEvents")?.as_arr()? {
        if e.at("ph")?.as_str()? == "X" {
            v.push((
                e.at("name")?.as_str()?.to_string(),
                e.at("ts")?.as_u64()?,
                e.at("dur")?.as_u64()?,
            ));
        }
    }
    Ok(v)
}

/// `--time-trace` (next to the output, named, LLVMgold's spelling) with
/// `--time-trace-granularity=0`: both linkers write a Chrome trace there; weld's must parse,
/// have a `Total ExecuteLinker` event, and phases inside it (the phases themselves are
/// weld's own, not lld's).
fn time_trace(dir: &Path, flag: &str, file: &str) -> Check {
    let main_o = obj("stack_size", "main.c", Compiler::Clang, &[])?;
    let (lld, weld) = sides(dir)?;
    let link = |s: &Side| -> Result<String, String> {
        let label = s.label();
        let mut cmd = Command::new(&s.linker.path);
        cmd.current_dir(dir)
            .arg(&main_o)
            .arg(flag.replace("{dir}", label))
            .args([
                "--time-trace-granularity=0",
                "--unresolved-symbols=ignore-all",
            ])
            .args(["-e", "main", "-o"])
            .arg(format!("{label}/a.out"));
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&dir.join(format!("{label}.link.txt")), o.report())?;
        o.ok(&format!("{label}'s link"))?;
        std::fs::read_to_string(s.dir.join(file)).map_err(|e| format!("{label}/{file}: {e}"))
    };
    let l = trace_events(&reference(link(&lld))?)?;
    expect_lld(l.iter().any(|e| e.0 == "Total ExecuteLinker"), || {
        format!("ld.lld-22's trace has no `Total ExecuteLinker` event: {l:?}")
    })?;
    let w = trace_events(&link(&weld)?)?;
    let total = w
        .iter()
        .find(|e| e.0 == "Total ExecuteLinker")
        .ok_or_else(|| format!("weld's trace has no `Total ExecuteLinker` event: {w:?}"))?;
    let phases: Vec<_> = w.iter().filter(|e| e.0 != total.0).collect();
    if phases.len() < 3 {
        return Err(format!("weld's trace should show its phases: {w:?}"));
    }
    if let Some(e) = phases.iter().find(|e| e.1 + e.2 > total.1 + total.2) {
        return Err(format!("phase {e:?} ends after the total {total:?}"));
    }
    Ok(())
}

/// `--reproduce`: `trace`'s program (objects, an archive member, a shared library, libc through
/// its linker script) linked through clang-22 by `maker` with `--reproduce=repro.tar`; the
/// archive is unpacked with tar and replayed (`cd repro && LINKER @response.txt`) by weld and by
/// ld.lld-22; both replays run like the original program.
fn reproduce(dir: &Path, maker: &str) -> Check {
    let c = Compiler::Clang;
    trace_inputs(dir)?;
    let (lld, weld) = sides(dir)?;
    let maker_side = if maker == "weld" { &weld } else { &lld };
    let a = strings(&[
        "main.o",
        "liba.a",
        "libt.so",
        "-Wl,-rpath,$ORIGIN/..",
        "-Wl,--reproduce=repro.tar",
    ]);
    let (exe, _) = maker_side.link_in(Some(dir), c, false, &a, "a.out")?;
    let original = maker_side.run(&exe)?;
    if original.code != Some(0) {
        return Err(format!(
            "the original program failed:\n{}",
            original.report()
        ));
    }
    let mut cmd = Command::new("tar");
    cmd.current_dir(dir).args(["xf", "repro.tar"]);
    run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("tar xf repro.tar")?;
    let mut p = Problems::default();
    for replayer in [&weld, &lld] {
        let label = replayer.label();
        let out = format!("replay-{label}.out");
        let mut cmd = Command::new(&replayer.linker.path);
        cmd.current_dir(dir.join("repro"))
            .arg("@response.txt")
            .args(["-o", &out]);
        let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&dir.join(format!("replay-{label}.link.txt")), o.report())?;
        if !o.success() {
            p.0.push(format!(
                "{label} cannot replay {maker}'s archive:\n{}",
                o.report()
            ));
            continue;
        }
        let exe = dir.join("repro").join(&out);
        let r = dynlink::run_exe(&exe, &[], None, &dir.join("repro"))?;
        // The replay sits one directory deeper: its run path reaches libt.so through repro/..
        if r.stdout_str() != original.stdout_str() || r.code != original.code {
            p.0.push(format!(
                "{label}'s replay of {maker}'s archive runs differently:\n{}\noriginal:\n{}",
                r.report(),
                original.report()
            ));
        }
    }
    p.done()
}

/// (variant, flags): lld's default tombstones, one rule, and two rules where the later wins.
const TOMBSTONE_VARIANTS: &[(&str, &[&str])] = &[
    ("default", &[]),
    (
        "one_rule",
        &["-Wl,-z,dead-reloc-in-nonalloc=.debug_info=0xaaaaaaaa"],
    ),
    (
        "last_rule_wins",
        &["-Wl,-z,dead-reloc-in-nonalloc=.debug_*=7,-z,dead-reloc-in-nonalloc=.debug_ranges=9"],
    ),
];

/// `-z dead-reloc-in-nonalloc=`: `tombstone/a.cc` and `b.cc` (`-gdwarf-4 -O0`) both define the
/// inline `sq`; the second copy is discarded and its debug info refers to dead code. The
/// address values llvm-dwarfdump-22 shows in `.debug_info` (`DW_AT_low_pc`) and
/// `.debug_ranges` outside the program's code, which is where the tombstones are, must be
/// lld's; and the program must run the same.
fn dead_reloc_in_nonalloc(dir: &Path, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    let objs = [
        obj("tombstone", "a.cc", c, &["-gdwarf-4", "-O0"])?,
        obj("tombstone", "b.cc", c, &["-gdwarf-4", "-O0"])?,
    ];
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side| -> Result<PathBuf, String> {
        let mut a: Vec<String> = objs.iter().map(|o| arg(o)).collect();
        a.extend(strings(flags));
        s.link(c, true, &a, "a.out")
    };
    // Small values (tombstones) are kept, code addresses (0x1000 and up in a PIE) dropped.
    let tombstones = |f: &Path| -> Result<Vec<String>, String> {
        let mut cmd = Command::new(tools::find("llvm-dwarfdump-22")?);
        cmd.args(["--debug-info", "--debug-ranges"]).arg(f);
        let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-dwarfdump-22")?;
        let mut v: Vec<String> = o
            .stdout_str()
            .split(|c: char| !c.is_ascii_hexdigit() && c != 'x')
            .filter(|t| t.starts_with("0x") && t.len() == 18)
            .filter(|t| {
                u64::from_str_radix(&t[2..], 16).is_ok_and(|n| !(0x1000..0xa000_0000).contains(&n))
            })
            .map(String::from)
            .collect();
        v.sort();
        Ok(v)
    };
    let l_exe = reference(build(&lld))?;
    let l_t = tombstones(&l_exe)?;
    expect_lld(!l_t.is_empty(), || {
        "ld.lld-22's debug info shows no tombstone".to_string()
    })?;
    let l_run = lld.run(&l_exe)?;
    let w_exe = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the tombstone values",
        &tombstones(&w_exe)?,
        &l_t,
    ));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// How a `plt_variants` program is built (sources in `testdata/options/plt_variants/`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum PltProgram {
    /// `start.c`, `main.c` and `ifunc.c`, all `-fcf-protection=full`, with `libpv.so`: a PIE
    /// linked `-nostartfiles` (Debian's crt1.o lacks the properties), every object IBT and SHSTK.
    IbtPie,
    /// The same with `ifunc.c` compiled without `-fcf-protection`: one object lacks both.
    MixedPie,
    /// `main.c` and `ifunc.c` without CET, the usual start files, `libpv.so`: a PIE.
    Pie,
    /// `smain.c` and `ifunc.c` without CET, `-static` with libc.a (IFUNCs of its own too).
    StaticLibc,
    /// `freestanding.c` and `ifunc.c`, `-fcf-protection=full`, `-static -nostdlib`: a static
    /// program whose every object is IBT and SHSTK.
    Freestanding,
}

/// One `plt_variants` trial linked through clang-22, and what lld's output must show.
struct PltVariant {
    name: &'static str,
    program: PltProgram,
    flags: &'static [&'static str],
    /// lld's PLT sections (`.plt`, `.plt.sec`, `.iplt`), in section order.
    sections: &'static [&'static str],
    /// An instruction lld's PLT code contains.
    insn: &'static str,
    /// Where lld's first PLT slot in `.got.plt` points (`""`: the output has no PLT entry).
    first_slot: &'static str,
    /// lld's `x86 feature:` line of `.note.gnu.property` (`""`: no note).
    features: &'static str,
    /// A warning lld prints (`""`: none).
    warning: &'static str,
}

const PV_DYNAMIC_STDOUT: &str = "pv_add=5 pv_mul=20\nfa=11 fb=22 same=1\ndone\n";
const PV_FORCE_IBT: &str =
    "-z force-ibt: file does not have GNU_PROPERTY_X86_FEATURE_1_IBT property";
const PV_REPORT_SHSTK: &str =
    "-z cet-report: file does not have GNU_PROPERTY_X86_FEATURE_1_SHSTK property";

const PLT_VARIANTS: &[PltVariant] = &[
    PltVariant {
        name: "ibt_lazy",
        program: PltProgram::IbtPie,
        flags: &[],
        sections: &[".plt", ".plt.sec", ".iplt"],
        insn: "endbr64",
        // The slots start at the lazy halves in .plt, past its 16-byte header.
        first_slot: ".plt+0x10",
        features: "IBT, SHSTK",
        warning: "",
    },
    PltVariant {
        name: "ibt_now",
        program: PltProgram::IbtPie,
        flags: &["-Wl,-z,now"],
        sections: &[".plt", ".plt.sec", ".iplt"],
        insn: "endbr64",
        first_slot: ".plt+0x10",
        features: "IBT, SHSTK",
        warning: "",
    },
    PltVariant {
        name: "force_ibt",
        program: PltProgram::Pie,
        flags: &["-Wl,-z,force-ibt"],
        sections: &[".plt", ".plt.sec", ".iplt"],
        insn: "endbr64",
        first_slot: ".plt+0x10",
        // crtbeginS.o has SHSTK, main.o does not.
        features: "IBT",
        warning: PV_FORCE_IBT,
    },
    PltVariant {
        name: "cet_report_warning",
        program: PltProgram::MixedPie,
        flags: &["-Wl,-z,cet-report=warning"],
        sections: &[".plt", ".iplt"],
        insn: "pushq",
        // The lazy entry's `pushq`, 6 bytes into the entry after the 16-byte header.
        first_slot: ".plt+0x16",
        features: "",
        warning: PV_REPORT_SHSTK,
    },
    PltVariant {
        // -z cet-report says it all: no -z force-ibt warning, but the IBT PLT.
        name: "cet_report_warning_force_ibt",
        program: PltProgram::MixedPie,
        flags: &["-Wl,-z,cet-report=warning,-z,force-ibt"],
        sections: &[".plt", ".plt.sec", ".iplt"],
        insn: "endbr64",
        first_slot: ".plt+0x10",
        features: "IBT",
        warning: PV_REPORT_SHSTK,
    },
    PltVariant {
        name: "retpoline",
        program: PltProgram::Pie,
        flags: &["-Wl,-z,retpolineplt"],
        sections: &[".plt", ".iplt"],
        insn: "lfence",
        // The entry's `pushq`: 17 bytes into the first 32-byte entry after the 48-byte header.
        first_slot: ".plt+0x41",
        features: "",
        warning: "",
    },
    PltVariant {
        name: "retpoline_now",
        program: PltProgram::Pie,
        flags: &["-Wl,-z,retpolineplt,-z,now"],
        sections: &[".plt", ".iplt"],
        insn: "lfence",
        first_slot: "0",
        features: "",
        warning: "",
    },
    PltVariant {
        // The .iplt entries need the retpoline header: a .plt without entries.
        name: "retpoline_static",
        program: PltProgram::StaticLibc,
        flags: &["-Wl,-z,retpolineplt"],
        sections: &[".plt", ".iplt"],
        insn: "lfence",
        first_slot: "",
        features: "",
        warning: "",
    },
    PltVariant {
        // lld's quirk: the IBT split, retpoline code in .plt.sec, a zero-filled .plt.
        name: "retpoline_ibt_inputs",
        program: PltProgram::IbtPie,
        flags: &["-Wl,-z,retpolineplt"],
        sections: &[".plt", ".plt.sec", ".iplt"],
        insn: "lfence",
        first_slot: ".plt.sec+0x41",
        features: "IBT, SHSTK",
        warning: "",
    },
    PltVariant {
        name: "static_ibt",
        program: PltProgram::Freestanding,
        flags: &[],
        sections: &[".iplt"],
        insn: "endbr64",
        first_slot: "",
        features: "IBT, SHSTK",
        warning: "",
    },
    PltVariant {
        // Every libc.a member lacks the property: hundreds of warnings, in lld's file order.
        name: "static_force_ibt",
        program: PltProgram::StaticLibc,
        flags: &["-Wl,-z,force-ibt"],
        sections: &[".iplt"],
        insn: "endbr64",
        first_slot: "",
        features: "IBT",
        warning: PV_FORCE_IBT,
    },
];

/// Compiles `file` of `plt_variants` with `flags` plus, if `cet`, `-fcf-protection=full`.
fn pv_obj(file: &str, cet: bool, flags: &[&str]) -> Result<String, String> {
    let mut f = flags.to_vec();
    if cet {
        f.push("-fcf-protection=full");
    }
    Ok(arg(&obj("plt_variants", file, Compiler::Clang, &f)?))
}

/// `libpv.so` in the trial's directory, linked by ld.lld-22 for both sides (the program's PLT
/// is what is compared); programs find it through `$ORIGIN/..`.
fn pv_library(dir: &Path, lld: &Side, cet: bool) -> Result<String, String> {
    let mut a = strings(&["-shared", "-Wl,-soname,libpv.so"]);
    a.push(pv_obj("lib.c", cet, &["-fPIC"])?);
    let lib = dir.join("libpv.so");
    reference(dynlink::link(Compiler::Clang, false, &lld.linker, &a, &lib))?;
    Ok(arg(&lib))
}

/// The driver arguments of a variant's program (objects, library, flags).
fn pv_args(dir: &Path, lld: &Side, v: &PltVariant) -> Result<Vec<String>, String> {
    let pie = ["-fPIE"];
    let mut a = Vec::new();
    match v.program {
        PltProgram::IbtPie | PltProgram::MixedPie => {
            a.extend(strings(&["-pie", "-nostartfiles"]));
            a.push(pv_obj("start.c", true, &pie)?);
            a.push(pv_obj("main.c", true, &pie)?);
            a.push(pv_obj("ifunc.c", v.program == PltProgram::IbtPie, &pie)?);
        }
        PltProgram::Pie => {
            a.push("-pie".to_string());
            a.push(pv_obj("main.c", false, &pie)?);
            a.push(pv_obj("ifunc.c", false, &pie)?);
        }
        PltProgram::StaticLibc => {
            a.push("-static".to_string());
            a.push(pv_obj("smain.c", false, &pie)?);
            a.push(pv_obj("ifunc.c", false, &pie)?);
        }
        PltProgram::Freestanding => {
            a.extend(strings(&["-static", "-nostdlib"]));
            let free = ["-fPIE", "-ffreestanding", "-fno-stack-protector"];
            a.push(pv_obj("freestanding.c", true, &free)?);
            a.push(pv_obj("ifunc.c", true, &pie)?);
        }
    }
    if matches!(
        v.program,
        PltProgram::IbtPie | PltProgram::MixedPie | PltProgram::Pie
    ) {
        a.push(pv_library(dir, lld, v.program == PltProgram::IbtPie)?);
        a.push("-Wl,-rpath,$ORIGIN/..".to_string());
    }
    a.extend(strings(v.flags));
    Ok(a)
}

/// What the variant's program prints.
fn pv_stdout(program: PltProgram) -> &'static str {
    match program {
        PltProgram::IbtPie | PltProgram::MixedPie | PltProgram::Pie => PV_DYNAMIC_STDOUT,
        PltProgram::StaticLibc => "fa=11 fb=22 len=6\n",
        PltProgram::Freestanding => "freestanding fa=11 fb=22\n",
    }
}

/// A `plt_variants` program linked by each linker through clang-22. lld's output must show the
/// variant (its PLT sections, an instruction of its PLT code, where its first `.got.plt` slot
/// points, its feature note, its warning, the program's output); weld's must be the same in
/// every compared property: the PLT-related section headers (all but address and offset), the
/// PLT code disassembled with every address as section+offset, the `.got.plt` slots as the
/// places they point to, the feature note, the dynamic section, the diagnostics, the run.
fn plt_variant(dir: &Path, v: &PltVariant) -> Check {
    let (lld, weld) = sides(dir)?;
    let args = pv_args(dir, &lld, v)?;
    let (l_out, l_link) = reference(lld.link_in(None, Compiler::Clang, false, &args, "a.out"))?;
    let l_secs = plt_section_lines(&l_out)?;
    let l_names: Vec<&str> = l_secs
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| [".plt", ".plt.sec", ".iplt"].contains(n))
        .collect();
    expect_lld(l_names == v.sections, || {
        format!(
            "ld.lld-22's PLT sections should be {:?}:\n{}",
            v.sections,
            l_secs.join("\n")
        )
    })?;
    let l_code = plt_code(&l_out)?;
    expect_lld(l_code.iter().any(|l| l.contains(v.insn)), || {
        format!(
            "ld.lld-22's PLT code should contain {}:\n{}",
            v.insn,
            l_code.join("\n")
        )
    })?;
    let l_slots = gotplt_targets(&l_out)?;
    if !v.first_slot.is_empty() {
        expect_lld(
            l_slots.get(3).map(String::as_str) == Some(v.first_slot),
            || {
                format!(
                    "ld.lld-22's first PLT slot should point to {}: {l_slots:?}",
                    v.first_slot
                )
            },
        )?;
    }
    let l_features = x86_features(&l_out)?;
    expect_lld(l_features == v.features, || {
        format!(
            "ld.lld-22's x86 features should be {:?}, not {l_features:?}",
            v.features
        )
    })?;
    expect_lld(
        v.warning.is_empty() || l_link.stderr_str().contains(v.warning),
        || format!("ld.lld-22 should warn {:?}\n{}", v.warning, l_link.report()),
    )?;
    let dynamic = v.program != PltProgram::StaticLibc && v.program != PltProgram::Freestanding;
    let l_dyn = dyn_lines(&l_out)?;
    expect_lld(!dynamic || l_dyn.iter().any(|l| l == "PLTGOT"), || {
        format!("ld.lld-22's dynamic section should have DT_PLTGOT: {l_dyn:?}")
    })?;
    let l_run = lld.run(&l_out)?;
    expect_lld_run(&l_run, 0, pv_stdout(v.program))?;

    let (w_out, w_link) = weld.link_in(None, Compiler::Clang, false, &args, "a.out")?;
    let (w_secs, w_code, w_slots) = (
        plt_section_lines(&w_out)?,
        plt_code(&w_out)?,
        gotplt_targets(&w_out)?,
    );
    // What was compared, for reading after a failure.
    for (s, secs, code, slots) in [
        (&lld, &l_secs, &l_code, &l_slots),
        (&weld, &w_secs, &w_code, &w_slots),
    ] {
        let text = [secs.join("\n"), code.join("\n"), slots.join("\n")].join("\n\n");
        paths::write(&s.dir.join("plt.txt"), text + "\n")?;
    }
    let mut p = Problems::default();
    p.check(same_lines("the PLT sections", &w_secs, &l_secs));
    p.check(same_lines("the PLT code", &w_code, &l_code));
    p.check(same_lines("the .got.plt slots", &w_slots, &l_slots));
    p.check(same_lines(
        "the x86 features",
        &[x86_features(&w_out)?],
        &[l_features],
    ));
    p.check(same_lines(
        "the dynamic section",
        &dyn_lines(&w_out)?,
        &l_dyn,
    ));
    p.check(same_diagnostics(&w_link, &l_link, &weld));
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    p.done()
}

/// The linker called directly (`plt_variants` objects, absolute paths): (variant, what lld's
/// stderr contains, arguments).
const PLT_OUTCOME_VARIANTS: &[(&str, &str, &[&str])] = &[
    // Errors for the object without the properties, then the undefined symbols (no libc): lld
    // reports both and writes nothing. (Only main.o has undefined references: lld scans files
    // in parallel, so its undefined-symbol errors for several files come in no fixed order.)
    (
        "cet_report_error",
        "error: {ifunc}: -z cet-report: file does not have GNU_PROPERTY_X86_FEATURE_1_IBT",
        &[
            "-pie",
            "-e",
            "main",
            "{main}",
            "{ifunc}",
            "-z",
            "cet-report=error",
        ],
    ),
    (
        "cet_report_error_only",
        "error: {ifunc}: -z cet-report: file does not have GNU_PROPERTY_X86_FEATURE_1_SHSTK",
        &[
            "-pie",
            "{start}",
            "{main}",
            "{ifunc}",
            "-zcet-report=error",
            "--unresolved-symbols=ignore-all",
        ],
    ),
    (
        "cet_report_bad_value",
        "unknown -z cet-report= value: bogus",
        &[
            "{main}",
            "-z",
            "cet-report=bogus",
            "--unresolved-symbols=ignore-all",
        ],
    ),
    (
        "cet_report_no_value",
        "unknown -z cet-report= value: ",
        &[
            "{main}",
            "-z",
            "cet-report",
            "--unresolved-symbols=ignore-all",
        ],
    ),
    (
        "force_ibt_with_retpoline",
        "-z force-ibt may not be used with -z retpolineplt",
        &[
            "{main}",
            "-z",
            "retpolineplt",
            "-z",
            "force-ibt",
            "--unresolved-symbols=ignore-all",
        ],
    ),
];

/// A `plt_variants` link ending in an error: exit code, diagnostics (program name replaced),
/// files left behind must be lld's; lld's stderr must say `want`.
fn plt_outcome(dir: &Path, want: &str, args: &[&str]) -> Check {
    let pie = ["-fPIE"];
    let objs = [
        ("{start}", pv_obj("start.c", true, &pie)?),
        ("{main}", pv_obj("main.c", true, &pie)?),
        ("{ifunc}", pv_obj("ifunc.c", false, &pie)?),
    ];
    let fill = |s: &str| {
        objs.iter()
            .fold(s.to_string(), |acc, (k, v)| acc.replace(k, v))
    };
    let args: Vec<String> = args.iter().map(|a| fill(a)).collect();
    let want = fill(want);
    let (lld, weld) = sides(dir)?;
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(
        lo.code == Some(1) && lo.stderr_str().contains(&want),
        || format!("ld.lld-22 should fail saying {want:?}\n{}", lo.report()),
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// `-z ifunc-noplt -z notext` on `main.c` and `ifunc.c` (no CET) with `libpv.so`: every
/// reference to an IFUNC defined in the program is left to the dynamic loader, as a dynamic
/// relocation of the reference's own type (`R_X86_64_PLT32`, `R_X86_64_REX_GOTPCRELX`,
/// `R_X86_64_64`) against the IFUNC, which is exported; no `.iplt`. glibc's loader refuses such
/// relocations, so both programs fail to start, the same way. Compared: `.rela.dyn` (each
/// relocation's place as section+offset, type, symbol, addend), the dynamic symbols and
/// section, the PLT sections, `main`'s code with addresses named (the relocated fields keep
/// the object's zeros), the failed run.
fn ifunc_noplt(dir: &Path) -> Check {
    let (lld, weld) = sides(dir)?;
    let v = PltVariant {
        name: "ifunc_noplt",
        program: PltProgram::Pie,
        flags: &["-Wl,-z,ifunc-noplt,-z,notext"],
        sections: &[],
        insn: "",
        first_slot: "",
        features: "",
        warning: "",
    };
    let args = pv_args(dir, &lld, &v)?;
    let l_out = reference(lld.link(Compiler::Clang, false, &args, "a.out"))?;
    let l_rela = rela_dyn_lines(&l_out)?;
    for want in [
        "R_X86_64_PLT32 fa -4",
        "R_X86_64_REX_GOTPCRELX fb -4",
        "R_X86_64_64 fb +0",
    ] {
        expect_lld(l_rela.iter().any(|l| l.ends_with(want)), || {
            format!(
                "ld.lld-22's .rela.dyn should have {want}:\n{}",
                l_rela.join("\n")
            )
        })?;
    }
    let l_secs = plt_section_lines(&l_out)?;
    expect_lld(!l_secs.iter().any(|l| l.starts_with(".iplt ")), || {
        format!(
            "ld.lld-22's output should have no .iplt:\n{}",
            l_secs.join("\n")
        )
    })?;
    let l_syms = dyn_sym_lines(&l_out)?;
    expect_lld(
        l_syms.contains(&"fa IFUNC GLOBAL DEFAULT DEF".to_string()),
        || format!("ld.lld-22 should export fa as an IFUNC: {l_syms:?}"),
    )?;
    const REFUSED: &str = "unexpected reloc type 0x04";
    let l_run = lld.run(&l_out)?;
    expect_lld(
        l_run.code == Some(127) && l_run.stderr_str().contains(REFUSED),
        || {
            format!(
                "glibc should refuse ld.lld-22's program\n{}",
                l_run.report()
            )
        },
    )?;
    let w_out = weld.link(Compiler::Clang, false, &args, "a.out")?;
    let mut p = Problems::default();
    p.check(same_lines(".rela.dyn", &rela_dyn_lines(&w_out)?, &l_rela));
    p.check(same_lines(
        "the dynamic symbols",
        &dyn_sym_lines(&w_out)?,
        &l_syms,
    ));
    p.check(same_dynamic("the program", &w_out, &l_out));
    p.check(same_lines(
        "the PLT sections",
        &plt_section_lines(&w_out)?,
        &l_secs,
    ));
    p.check(same_lines(
        "main's code",
        &function_code(&w_out, "main")?,
        &function_code(&l_out, "main")?,
    ));
    let w_run = weld.run(&w_out)?;
    let without_path = |o: &Output, exe: &Path| o.stderr_str().replace(&arg(exe), "a.out");
    if (w_run.code, without_path(&w_run, &w_out)) != (l_run.code, without_path(&l_run, &l_out)) {
        p.0.push(format!(
            "the programs fail differently:\nweld: {}\nlld: {}",
            w_run.report(),
            l_run.report()
        ));
    }
    p.done()
}

/// `-z ifunc-noplt` on a reference to a file-local IFUNC (gcc's `local_ifunc.c`): lld writes a
/// relocation against no symbol at all (the local has no `.dynsym` entry), which resolves to
/// nothing; weld refuses the link with one error per reference and writes no file.
fn ifunc_noplt_local(dir: &Path) -> Check {
    let o = arg(&obj(
        "plt_variants",
        "local_ifunc.c",
        Compiler::Gcc,
        &["-fPIE"],
    )?);
    let (lld, weld) = sides(dir)?;
    let args = strings(&[
        "-pie",
        "-z",
        "notext",
        "-z",
        "ifunc-noplt",
        "-e",
        "use_local",
    ]);
    let args: Vec<String> = args.into_iter().chain([o.clone()]).collect();
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(lo.code == Some(0), || {
        format!("ld.lld-22 should link\n{}", lo.report())
    })?;
    let l_rela = rela_dyn_lines(&lld.dir.join("a.out"))?;
    expect_lld(
        l_rela
            .iter()
            .any(|l| l.ends_with("R_X86_64_PLT32 - fffffffffffffffc")),
        || {
            format!(
                "ld.lld-22 should write an R_X86_64_PLT32 against no symbol:\n{}",
                l_rela.join("\n")
            )
        },
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    let mut p = Problems::default();
    let name = tools::diag_name(&weld.linker.path);
    let want = [("R_X86_64_PLT32", "use_local"), ("R_X86_64_64", "lp")]
        .iter()
        .map(|(r, at)| {
            format!(
                "{name}: error: relocation {r} cannot be used against local IFUNC symbol 'lf' with -z ifunc-noplt\n>>> defined in {o}\n>>> referenced by local_ifunc.c\n>>>               {o}:({at})\n"
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    if wo.code != Some(1) || wo.stderr_str() != want {
        p.0.push(format!(
            "weld should refuse the link with\n{want}\n{}",
            wo.report()
        ));
    }
    if !listing(&weld.dir)?.is_empty() {
        p.0.push(format!("weld left {:?}", listing(&weld.dir)?));
    }
    p.done()
}

/// `.rela.dyn`'s relocations: `place type symbol addend` (the place as section+offset; `-` for
/// no symbol; the addend signed, as llvm-readelf-22 prints it).
fn rela_dyn_lines(file: &Path) -> Result<Vec<String>, String> {
    let secs = alloc_sections(file)?;
    let text = dynelf::readelf(&["-rW"], file)?;
    let mut v = Vec::new();
    let mut in_dyn = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Relocation section") {
            in_dyn = t.contains("'.rela.dyn'");
            continue;
        }
        let f: Vec<&str> = t.split_whitespace().collect();
        if !in_dyn || f.len() < 3 || !f[2].starts_with("R_X86_64_") {
            continue;
        }
        let Ok(place) = u64::from_str_radix(f[0], 16) else {
            continue;
        };
        // offset info type [value name sign addend | addend]
        let (sym, addend) = match f.len() {
            7 => (f[4].to_string(), format!("{}{}", f[5], f[6])),
            _ => ("-".to_string(), f[3..].join("")),
        };
        v.push(format!(
            "{} {} {sym} {addend}",
            place_of(&secs, place),
            f[2]
        ));
    }
    Ok(v)
}

/// Function `name`'s code (its symbol's size, not the padding after it) disassembled by
/// llvm-objdump-22: place, bytes and text with addresses named as in [`plt_code`].
fn function_code(file: &Path, name: &str) -> Result<Vec<String>, String> {
    let secs = alloc_sections(file)?;
    let syms = dynelf::readelf(&["-sW"], file)?;
    // Num: Value Size Type Bind Vis Ndx Name
    let (start, size) = syms
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() == 8 && f[7] == name && f[3] == "FUNC")
        .and_then(|f| {
            Some((
                u64::from_str_radix(f[1], 16).ok()?,
                f[2].parse::<u64>().ok()?,
            ))
        })
        .ok_or_else(|| format!("{} has no function {name}", file.display()))?;
    let mut cmd = Command::new(tools::find(tools::OBJDUMP)?);
    cmd.arg("-d")
        .arg(format!("--disassemble-symbols={name}"))
        .arg(file);
    let text = run::run(&mut cmd, run::TOOL_TIMEOUT)?
        .ok("llvm-objdump-22")?
        .stdout_str();
    Ok(text
        .lines()
        .filter_map(|l| {
            let (addr, rest) = l.trim().split_once(':')?;
            let addr = u64::from_str_radix(addr, 16).ok()?;
            if addr >= start + size {
                return None;
            }
            let mut parts = rest.split('\t');
            let bytes = parts.next().unwrap_or("").trim().to_string();
            let insn: Vec<&str> = parts.collect();
            Some(format!(
                "{} {bytes} | {}",
                place_of(&secs, addr),
                name_addresses(&insn.join(" "), &secs)
            ))
        })
        .collect())
}

/// The PLT-related sections (`.plt`, `.plt.sec`, `.iplt`, `.got.plt`, `.rela.plt`,
/// `.note.gnu.property`), in section order: `name type size entsize flags align`.
fn plt_section_lines(file: &Path) -> Result<Vec<String>, String> {
    const NAMES: &[&str] = &[
        ".plt",
        ".plt.sec",
        ".iplt",
        ".got.plt",
        ".rela.plt",
        ".note.gnu.property",
    ];
    let text = dynelf::readelf(&["-SW"], file)?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_once(']')?.1.split_whitespace().collect();
            // name type address offset size entsize flags link info align
            (f.len() == 10 && NAMES.contains(&f[0]))
                .then(|| format!("{} {} {} {} {} {}", f[0], f[1], f[4], f[5], f[6], f[9]))
        })
        .collect())
}

/// The allocated sections of `file`: (name, address, size), for naming addresses.
fn alloc_sections(file: &Path) -> Result<Vec<(String, u64, u64)>, String> {
    let text = dynelf::readelf(&["-SW"], file)?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_once(']')?.1.split_whitespace().collect();
            if f.len() != 10 || !f[6].contains('A') {
                return None;
            }
            let addr = u64::from_str_radix(f[2], 16).ok()?;
            let size = u64::from_str_radix(f[4], 16).ok()?;
            Some((f[0].to_string(), addr, size))
        })
        .collect())
}

/// `addr` as `section+0xoff` (the first allocated section holding it, or ending at it), `0`
/// for 0, else the hex value.
fn place_of(secs: &[(String, u64, u64)], addr: u64) -> String {
    if addr == 0 {
        return "0".to_string();
    }
    secs.iter()
        .find(|(_, a, s)| addr >= *a && addr < a + s)
        .or_else(|| secs.iter().find(|(_, a, s)| addr == a + s))
        .map_or(format!("{addr:#x}"), |(n, a, _)| {
            format!("{n}+{:#x}", addr - a)
        })
}

/// Replaces the addresses in an instruction's text as llvm-objdump prints it: `<symbol>`
/// annotations go, RIP-relative displacements become `(%rip)` (the `# target` comment says where
/// they point), every other number but immediates (`$0x...`) is an address, named by
/// [`place_of`].
fn name_addresses(text: &str, secs: &[(String, u64, u64)]) -> String {
    let mut s = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => s.push(c),
            _ => {}
        }
    }
    let mut out = String::new();
    let mut rest = s.as_str();
    while let Some(i) = rest.find("0x") {
        let (before, after) = rest.split_at(i);
        out.push_str(before);
        let digits = after[2..]
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(after.len() - 2);
        let number = &after[2..2 + digits];
        let tail = &after[2 + digits..];
        if before.ends_with('$') {
            out.push_str(&after[..2 + digits]);
        } else if tail.starts_with("(%rip)") {
            // The displacement's sign goes with it.
            if out.ends_with('-') {
                out.pop();
            }
        } else {
            let v = u64::from_str_radix(number, 16).unwrap_or(0);
            out.push_str(&place_of(secs, v));
        }
        rest = tail;
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The code of `.plt`, `.plt.sec` and `.iplt` (those present), disassembled by llvm-objdump-22:
/// per instruction its place (section+offset), length and text with addresses named.
fn plt_code(file: &Path) -> Result<Vec<String>, String> {
    let secs = alloc_sections(file)?;
    let mut cmd = Command::new(tools::find(tools::OBJDUMP)?);
    cmd.arg("-d");
    for (n, _, _) in &secs {
        if [".plt", ".plt.sec", ".iplt"].contains(&n.as_str()) {
            cmd.arg("-j").arg(n);
        }
    }
    cmd.arg(file);
    let text = run::run(&mut cmd, run::TOOL_TIMEOUT)?
        .ok("llvm-objdump-22")?
        .stdout_str();
    let mut v = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Disassembly of section") || t == "..." {
            v.push(t.to_string());
        } else if let Some(label) = t.split_once(' ').filter(|(_, l)| l.ends_with(">:")) {
            v.push(label.1.to_string());
        } else if let Some((addr, rest)) = t.split_once(':') {
            let Ok(addr) = u64::from_str_radix(addr, 16) else {
                continue;
            };
            let mut parts = rest.split('\t');
            let bytes = parts.next().unwrap_or("").split_whitespace().count();
            let insn: Vec<&str> = parts.collect();
            v.push(format!(
                "{} [{bytes}] {}",
                place_of(&secs, addr),
                name_addresses(&insn.join(" "), &secs)
            ));
        }
    }
    Ok(v)
}

/// The 8-byte words of `.got.plt`, each as the place it points to ([`place_of`]).
fn gotplt_targets(file: &Path) -> Result<Vec<String>, String> {
    let secs = alloc_sections(file)?;
    let bytes: Vec<u8> = section_bytes(file, ".got.plt")?
        .concat()
        .as_bytes()
        .chunks(2)
        .filter_map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect();
    Ok(bytes
        .chunks(8)
        .map(|w| {
            let mut b = [0u8; 8];
            b[..w.len()].copy_from_slice(w);
            place_of(&secs, u64::from_le_bytes(b))
        })
        .collect())
}

/// What llvm-readelf-22 says of the `.note.gnu.property` x86 features (`""`: none).
fn x86_features(file: &Path) -> Result<String, String> {
    let text = dynelf::readelf(&["-n"], file)?;
    Ok(text
        .lines()
        .find_map(|l| {
            l.split_once("x86 feature: ")
                .map(|(_, f)| f.trim().to_string())
        })
        .unwrap_or_default())
}

/// Options of other targets, on an x86-64 link (the linker called directly on `main.o` of
/// `stack_size`): refused with lld's message, accepted and ignored, or warned about, exactly as
/// ld.lld-22 does. `{obj}` stands for the object's path.
const OTHER_TARGET_VARIANTS: &[(&str, &[&str])] = &[
    ("be8", &["--be8"]),
    ("fix_cortex_a53", &["--fix-cortex-a53-843419"]),
    ("fix_cortex_a8", &["--fix-cortex-a8"]),
    ("cmse_implib", &["--cmse-implib"]),
    ("in_implib_missing", &["--in-implib=missing.lib"]),
    ("in_implib", &["--in-implib={obj}"]),
    ("out_implib", &["--out-implib=x.lib"]),
    ("relax_gp", &["--relax-gp"]),
    ("execute_only", &["--execute-only"]),
    ("z_force_bti", &["-z", "force-bti"]),
    ("z_pac_plt", &["-z", "pac-plt"]),
    ("z_bti_report", &["-z", "bti-report=warning"]),
    ("z_bti_report_none", &["-z", "bti-report=none"]),
    ("z_bti_report_bad", &["-z", "bti-report=bogus"]),
    ("z_gcs", &["-z", "gcs=always"]),
    ("z_gcs_never", &["-z", "gcs=never"]),
    ("z_gcs_implicit", &["-z", "gcs=implicit"]),
    ("z_gcs_bad", &["-z", "gcs=bogus"]),
    ("z_gcs_report_none", &["-z", "gcs-report=none"]),
    ("z_gcs_report_bad", &["-z", "gcs-report=bogus"]),
    ("z_gcs_report_dynamic", &["-z", "gcs-report-dynamic=error"]),
    (
        "z_execute_only_report",
        &["-z", "execute-only-report=warning"],
    ),
    (
        "z_execute_only_report_none",
        &["-z", "execute-only-report=none"],
    ),
    ("z_zicfilp", &["-z", "zicfilp=func-sig"]),
    ("z_zicfilp_bad", &["-z", "zicfilp=bogus"]),
    ("z_zicfiss", &["-z", "zicfiss=always"]),
    ("z_zicfiss_implicit", &["-z", "zicfiss=implicit"]),
    (
        "z_zicfilp_unlabeled_report",
        &["-z", "zicfilp-unlabeled-report=warning"],
    ),
    (
        "z_zicfilp_func_sig_report",
        &["-z", "zicfilp-func-sig-report=error"],
    ),
    ("z_zicfiss_report", &["-z", "zicfiss-report=error"]),
    ("z_zicfiss_report_bad", &["-z", "zicfiss-report=x"]),
    ("z_nobtcfi", &["-z", "nobtcfi"]),
    // Not another target's, but decided on the command line the same way.
    (
        "z_nosectionheader_emit_relocs",
        &["-z", "nosectionheader", "--emit-relocs"],
    ),
    (
        "z_nosectionheader_relocatable",
        &["-z", "nosectionheader", "-r"],
    ),
    (
        "arm_ignored",
        &[
            "--no-merge-exidx-entries",
            "--pic-veneer",
            "--target1-rel",
            "--target2=got-rel",
        ],
    ),
    ("target2_bad", &["--target2=bogus"]),
    (
        "ppc_ignored",
        &[
            "--no-toc-optimize",
            "--no-pcrel-optimize",
            "--power10-stubs=auto",
            "--no-power10-stubs",
        ],
    ),
    ("mips_got_size", &["--mips-got-size=64"]),
    ("mips_got_size_bad", &["--mips-got-size=x"]),
    (
        "memtag_no_mode",
        &["--android-memtag-heap", "--android-memtag-stack"],
    ),
    (
        "memtag_mode",
        &["--android-memtag-mode=sync", "--android-memtag-heap"],
    ),
    ("memtag_mode_bad", &["--android-memtag-mode=bogus"]),
    ("eb", &["--EB"]),
    // Not another target's, but checked the same way: --chroot prefixes absolute input paths
    // (main.o's is absolute): under `/` the link works, under a missing directory it fails
    // naming the prefixed path.
    ("z_oe_aware", &["-z", "oe-aware"]),
    ("z_ifunc_noplt_with_text", &["-z", "ifunc-noplt"]),
    // --remap-inputs (checked the same way): an input remapped to /dev/null is dropped; a glob
    // remapped to main.o links main.o twice (lld's duplicate-symbol error, naming both);
    // malformed rules and a missing rules file are refused with lld's messages.
    (
        "remap_to_dev_null",
        &["missing.o", "--remap-inputs=missing.o=/dev/null"],
    ),
    ("remap_glob", &["x/*.o", "--remap-inputs=x/*.o={obj}"]),
    ("remap_bad", &["--remap-inputs=bad"]),
    ("remap_file_missing", &["--remap-inputs-file=nofile.txt"]),
    ("chroot_root", &["--chroot", "/"]),
    // No object, library or bitcode file tells the target (an empty archive): lld's error,
    // unless -m names it.
    ("no_target", &["--no-inputs-but", "empty.a"]),
    (
        "no_target_with_m",
        &["--no-inputs-but", "-m", "elf_x86_64", "empty.a"],
    ),
    ("chroot_missing", &["--chroot", "nowhere"]),
];

/// An `other_targets` variant: exit code, diagnostics (program name replaced) and the files left
/// behind must be lld's.
fn other_targets(dir: &Path, flags: &[&str]) -> Check {
    let main_o = obj("stack_size", "main.c", Compiler::Clang, &[])?;
    let (lld, weld) = sides(dir)?;
    // `--no-inputs-but` (a marker of this table, not an option): main.o is left out and an
    // empty archive `empty.a` is made in the trial's directory.
    if flags.first() == Some(&"--no-inputs-but") {
        let ar = dir.join("empty.a");
        paths::write(&ar, "!<arch>\n")?;
        let args = strings(&flags[1..]);
        let lo = link_directly(dir, &lld, &args)?;
        let wo = link_directly(dir, &weld, &args)?;
        return same_outcome(&wo, &lo, &weld, &lld)?.done();
    }
    let mut args = vec![arg(&main_o)];
    args.extend(flags.iter().map(|f| f.replace("{obj}", &arg(&main_o))));
    // main.o calls printf, which nothing defines here.
    args.extend(strings(&["-e", "main", "--unresolved-symbols=ignore-all"]));
    let lo = link_directly(dir, &lld, &args)?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// The linker a `gnu_compat` variant compares weld with.
#[derive(Clone, Copy)]
enum CompatReference {
    /// GNU ld (`ld.bfd`, gcc's own), with the same options.
    GnuLd,
    /// ld.lld-22 with lld's spelling of the same request.
    Lld,
}

/// `gnu_compat` variants: options GNU ld (or mold) has and lld lacks, which weld accepts, and
/// lld's `--force-group-allocation`.
const GNU_COMPAT_VARIANTS: &[(&str, CompatReference)] = &[
    ("audit", CompatReference::GnuLd),
    ("depaudit", CompatReference::GnuLd),
    ("depaudit_inherited", CompatReference::GnuLd),
    ("z_nodump", CompatReference::GnuLd),
    ("dynamic_list_data", CompatReference::GnuLd),
    ("z_ibt", CompatReference::GnuLd),
    ("z_isa_level", CompatReference::GnuLd),
    ("default_symver", CompatReference::GnuLd),
    ("default_symver_soname", CompatReference::GnuLd),
    ("spare_program_headers", CompatReference::Lld),
    ("section_align", CompatReference::Lld),
    ("hash_style_none", CompatReference::Lld),
    ("compress_levels", CompatReference::Lld),
    ("execstack_if_needed", CompatReference::Lld),
    ("reverse_sections", CompatReference::Lld),
    ("thread_count", CompatReference::Lld),
    ("no_threads", CompatReference::Lld),
    ("force_group_allocation", CompatReference::Lld),
    ("relocatable_merge_sections", CompatReference::Lld),
];

/// GNU ld as the reference: linked through gcc with `-B` pointing at `ld.bfd`.
fn gnu_ld() -> Result<Linker, String> {
    Ok(Linker {
        label: "bfd",
        path: tools::find("ld.bfd")?,
    })
}

/// `llvm-readelf-22 ARGS` lines containing one of `keys`, with hexadecimal numbers dropped.
fn readelf_matching(file: &Path, args: &[&str], keys: &[&str]) -> Result<Vec<String>, String> {
    Ok(dynelf::readelf(args, file)?
        .lines()
        .filter(|l| keys.iter().any(|k| l.contains(k)))
        .map(|l| {
            l.split_whitespace()
                .filter(|t| !t.starts_with("0x"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect())
}

/// The content sections of an object as `NAME TYPE`, relocation sections and `.llvm_addrsig`
/// left out.
fn content_sections(f: &Path) -> Result<BTreeSet<String>, String> {
    Ok(dynelf::readelf(&["-S", "-W"], f)?
        .lines()
        .filter(|l| l.trim_start().starts_with('[') && !l.contains("Nr]"))
        .filter_map(|l| {
            let (_, rest) = l.split_once(']')?;
            let toks: Vec<&str> = rest.split_whitespace().collect();
            let (name, ty) = (toks.first()?, toks.get(1)?);
            (!name.starts_with(".rela") && !name.starts_with(".llvm_addrsig"))
                .then(|| format!("{name} {ty}"))
        })
        .collect())
}

/// A `gnu_compat` variant: the same link by weld and by the reference (GNU ld with the same
/// options, or lld with its own spelling), what the option changes compared, and the runs.
fn gnu_compat(dir: &Path, name: &str, reference_linker: CompatReference) -> Check {
    let c = Compiler::Gcc;
    let main_o = obj("gnu_compat", "main.c", c, &[])?;
    let helper_o = obj("gnu_compat", "helper.c", c, &[])?;
    let (lld, weld) = sides(dir)?;
    let gnu = Side {
        linker: gnu_ld()?,
        dir: dir.join("bfd"),
    };
    paths::fresh_dir(&gnu.dir)?;
    let other = match reference_linker {
        CompatReference::GnuLd => &gnu,
        CompatReference::Lld => &lld,
    };
    let with = |extra: &[String]| -> Vec<String> {
        let mut a = vec![arg(&main_o), arg(&helper_o)];
        a.extend(extra.iter().cloned());
        a
    };
    let tags = ["(AUDIT)", "(DEPAUDIT)", "FLAGS_1", "Audit", "audit"];
    let mut p = Problems::default();
    match name {
        "audit" | "depaudit" | "z_nodump" | "depaudit_inherited" => {
            let flags = match name {
                "audit" => strings(&["-Wl,--audit=foo", "-Wl,--audit=bar"]),
                "depaudit" => strings(&["-Wl,--depaudit=foo", "-Wl,-P,bar"]),
                "z_nodump" => strings(&["-Wl,-z,nodump"]),
                _ => {
                    // libaudited.so carries DT_AUDIT (GNU ld's, for both links).
                    let lib_o = obj("gnu_compat", "audited.c", c, &["-fPIC"])?;
                    let lib = reference(gnu.link(
                        c,
                        false,
                        &strings(&["-shared", &arg(&lib_o), "-Wl,--audit=libaudit-a.so"]),
                        "libaudited.so",
                    ))?;
                    vec![arg(&lib), "-Wl,--depaudit=foo".to_string()]
                }
            };
            let a = with(&flags);
            let r = reference(other.link(c, false, &a, "a.out"))?;
            let w = weld.link(c, false, &a, "a.out")?;
            let rl = readelf_matching(&r, &["-d"], &tags)?;
            expect_lld(!rl.is_empty(), || {
                format!("GNU ld's output lacks the {name} tag")
            })?;
            p.check(same_lines(
                "the tags the option sets",
                &readelf_matching(&w, &["-d"], &tags)?,
                &rl,
            ));
        }
        "dynamic_list_data" => {
            let a = with(&strings(&["-Wl,--dynamic-list-data"]));
            let r = reference(other.link(c, false, &a, "a.out"))?;
            let w = weld.link(c, false, &a, "a.out")?;
            let exported = |f: &Path| -> Result<BTreeSet<String>, String> {
                Ok(
                    readelf_matching(f, &["--dyn-syms", "-W"], &["exported_", "other_data"])?
                        .into_iter()
                        .filter_map(|l| l.split_whitespace().last().map(str::to_string))
                        .collect(),
                )
            };
            let rs = exported(&r)?;
            expect_lld(
                rs.contains("exported_data") && !rs.contains("exported_function"),
                || format!("GNU ld should export exported_data and not exported_function: {rs:?}"),
            )?;
            p.check(dynlink::same("the exported symbols", &exported(&w)?, &rs));
        }
        "z_isa_level" => {
            let a = with(&strings(&["-Wl,-z,x86-64-v2", "-Wl,-z,x86-64-v3"]));
            let r = reference(other.link(c, false, &a, "a.out"))?;
            let w = weld.link(c, false, &a, "a.out")?;
            let isa = |f: &Path| readelf_matching(f, &["-n"], &["ISA"]);
            let rl = isa(&r)?;
            expect_lld(rl.iter().any(|l| l.contains("x86-64-v3")), || {
                format!("GNU ld's output should need x86-64-v3: {rl:?}")
            })?;
            p.check(same_lines("the ISA property", &isa(&w)?, &rl));
        }
        "default_symver" | "default_symver_soname" => {
            let lib_o = obj("gnu_compat", "audited.c", c, &["-fPIC"])?;
            let mut a = strings(&["-shared", &arg(&lib_o), "-Wl,--default-symver"]);
            if name == "default_symver_soname" {
                a.push("-Wl,-soname,libnamed.so.1".to_string());
            }
            let r = reference(other.link(c, false, &a, "libdef.so"))?;
            let w = weld.link(c, false, &a, "libdef.so")?;
            let versioned = |f: &Path| -> Result<Vec<String>, String> {
                Ok(readelf_matching(f, &["--dyn-syms", "-W"], &["audited"])?
                    .iter()
                    .filter_map(|l| l.split_whitespace().last().map(str::to_string))
                    .collect())
            };
            let rl = versioned(&r)?;
            expect_lld(rl.iter().any(|l| l.contains("audited@@")), || {
                format!("GNU ld should version audited: {rl:?}")
            })?;
            p.check(same_lines("the versioned symbol", &versioned(&w)?, &rl));
            let defs = |f: &Path| readelf_matching(f, &["-V"], &["Name:"]);
            p.check(same_lines(
                "the version definitions",
                &defs(&w)?,
                &defs(&r)?,
            ));
        }
        "spare_program_headers" | "section_align" => {
            // lld has neither: weld's output is its plain link plus exactly the change asked.
            let (flag, check) = match name {
                "spare_program_headers" => ("-Wl,--spare-program-headers=3", "NULL"),
                _ => ("-Wl,--section-align=.data=4096", ".data"),
            };
            let w = weld.link(c, false, &with(&strings(&[flag])), "a.out")?;
            let plain = weld.link(c, false, &with(&[]), "plain.out")?;
            let r = reference(lld.link(c, false, &with(&[]), "a.out"))?;
            let lines = readelf_matching(&w, &["-l", "-S", "-W"], &[check])?;
            let ok = if name == "spare_program_headers" {
                lines.iter().filter(|l| l.starts_with("NULL")).count() == 3
                    && readelf_matching(&plain, &["-l", "-W"], &["NULL"])?.is_empty()
            } else {
                lines
                    .iter()
                    .any(|l| l.contains(".data") && l.ends_with(" 4096"))
            };
            if !ok {
                p.0.push(format!("{flag} did not do what it says: {lines:?}"));
            }
            p.check(same_run(&weld.run(&w)?, &lld.run(&r)?));
        }
        "compress_levels" => {
            // mold's --compress-debug-sections=zlib:N / zstd:N: a higher level makes a .debug_info
            // no bigger than the default's (level 1, as `zlib`); levels out of range are refused.
            let g = obj("gnu_compat", "main.c", c, &["-g"])?;
            let h = obj("gnu_compat", "helper.c", c, &["-g"])?;
            let link = |s: &Side, v: &str, out: &str| {
                s.link(
                    c,
                    false,
                    &[
                        arg(&g),
                        arg(&h),
                        format!("-Wl,--compress-debug-sections={v}"),
                    ],
                    out,
                )
            };
            let info_size = |f: &Path| -> Result<u64, String> {
                let l = readelf_matching(f, &["-S", "-W"], &[".debug_info"])?;
                let line = l.first().ok_or("no .debug_info")?.clone();
                if !line.contains(" C ") && !line.ends_with(" C") && !line.contains("C ") {
                    return Err(format!(".debug_info is not compressed: {line}"));
                }
                let toks: Vec<&str> = line.split_whitespace().collect();
                // [Nr] name type address offset size: the hexadecimal columns were dropped.
                toks.iter()
                    .rev()
                    .find_map(|t| u64::from_str_radix(t, 16).ok().filter(|_| t.len() == 6))
                    .ok_or_else(|| format!("no size in {line}"))
            };
            let w1 = link(&weld, "zlib:1", "zlib1.out")?;
            let w9 = link(&weld, "zlib:9", "zlib9.out")?;
            let wd = link(&weld, "zlib", "zlib.out")?;
            let l1 = reference(link(&lld, "zlib", "zlib.out"))?;
            let z = link(&weld, "zstd:22", "zstd22.out")?;
            let (s1, s9, sd, sl) = (
                info_size(&w1)?,
                info_size(&w9)?,
                info_size(&wd)?,
                info_size(&l1)?,
            );
            info_size(&z)?;
            // lld's zlib is not weld's deflate (sizes differ by a few bytes): lld's link only
            // has to be compressed too.
            let _ = sl;
            if s9 > s1 || sd != s1 {
                p.0.push(format!(
                    ".debug_info sizes: zlib:1 {s1}, zlib:9 {s9}, zlib {sd}, lld's zlib {sl}"
                ));
            }
            for (v, msg) in [
                ("zlib:10", "zlib level must be between 0 and 9"),
                ("zstd:0", "zstd level must be between 1 and 22"),
            ] {
                let r = weld.link(
                    c,
                    false,
                    &[arg(&g), format!("-Wl,--compress-debug-sections={v}")],
                    "bad.out",
                );
                match r {
                    Err(e) if e.contains(msg) => {}
                    other => p.0.push(format!("{v} should fail with '{msg}': {other:?}")),
                }
            }
        }
        "hash_style_none" => {
            // mold's --hash-style=none: a library without .hash and .gnu.hash, else lld's.
            let lib_o = obj("gnu_compat", "audited.c", c, &["-fPIC"])?;
            let a = |extra: &[&str]| {
                let mut v = strings(&["-shared", &arg(&lib_o)]);
                v.extend(strings(extra));
                v
            };
            let w = weld.link(
                c,
                false,
                &a(&["-Wl,--hash-style=both", "-Wl,--hash-style=none"]),
                "lib.so",
            )?;
            let r = reference(lld.link(c, false, &a(&["-Wl,--hash-style=both"]), "lib.so"))?;
            let hashes = |f: &Path| readelf_matching(f, &["-S", "-d", "-W"], &["HASH"]);
            let (wh, rh) = (hashes(&w)?, hashes(&r)?);
            expect_lld(!rh.is_empty(), || {
                "lld's library should have hash tables".to_string()
            })?;
            if !wh.is_empty() {
                p.0.push(format!("--hash-style=none left hash tables: {wh:?}"));
            }
            let others = |f: &Path| -> Result<Vec<String>, String> {
                Ok(readelf_matching(f, &["-d"], &["("])?
                    .into_iter()
                    .filter(|l| !l.contains("HASH"))
                    .collect())
            };
            p.check(same_lines(
                "the other dynamic tags",
                &others(&w)?,
                &others(&r)?,
            ));
        }
        "execstack_if_needed" => {
            let o = obj("gnu_compat", "execstack.s", c, &[])?;
            let stack = |f: &Path| readelf_matching(f, &["-l", "-W"], &["GNU_STACK"]);
            let w = weld.link(
                c,
                false,
                &[arg(&o), "-Wl,-z,execstack-if-needed".to_string()],
                "a.out",
            )?;
            let r = reference(lld.link(
                c,
                false,
                &[arg(&o), "-Wl,-z,execstack".to_string()],
                "a.out",
            ))?;
            let rl = stack(&r)?;
            expect_lld(rl.iter().any(|l| l.contains("RWE")), || {
                format!("lld's -z execstack should give RWE: {rl:?}")
            })?;
            p.check(same_lines(
                "PT_GNU_STACK with the option (lld: -z execstack)",
                &stack(&w)?,
                &rl,
            ));
            p.check(same_run(&weld.run(&w)?, &lld.run(&r)?));
            // Without it, lld 22 refuses the object (a warning under --noinhibit-exec).
            for extra in [&[][..], &["--noinhibit-exec"][..]] {
                let mut args = vec![arg(&o), "-e".to_string(), "main".to_string()];
                args.extend(strings(extra));
                let (l2, w2) = sides(&dir.join(format!("direct{}", extra.len())))?;
                let lo = link_directly(dir, &l2, &args)?;
                let wo = link_directly(dir, &w2, &args)?;
                p.0.extend(same_outcome(&wo, &lo, &w2, &l2)?.0);
            }
        }
        "z_ibt" => {
            let a = with(&strings(&["-Wl,-z,ibt"]));
            let r = reference(other.link(c, false, &a, "a.out"))?;
            let w = weld.link(c, false, &a, "a.out")?;
            let ibt = |f: &Path| readelf_matching(f, &["-n"], &["feature"]);
            let rl = ibt(&r)?;
            expect_lld(rl.iter().any(|l| l.contains("IBT")), || {
                format!("GNU ld's output should have the IBT property: {rl:?}")
            })?;
            p.check(same_lines("the x86 feature property", &ibt(&w)?, &rl));
        }
        "reverse_sections" | "thread_count" | "no_threads" => {
            let (wf, lf): (&[&str], &[&str]) = match name {
                "reverse_sections" => (
                    &["-Wl,--reverse-sections"],
                    &["-Wl,--shuffle-sections=*=-1"],
                ),
                "thread_count" => (&["-Wl,--thread-count=1"], &["-Wl,--threads=1"]),
                _ => (&["-Wl,--no-threads"], &["-Wl,--threads=1"]),
            };
            let r = reference(lld.link(c, false, &with(&strings(lf)), "a.out"))?;
            let w = weld.link(c, false, &with(&strings(wf)), "a.out")?;
            let places =
                |f: &Path| readelf_matching(f, &["-s", "-W"], &["ctor_", "helper", " main"]);
            p.check(same_lines(
                "the symbols' places",
                &places(&w)?,
                &places(&r)?,
            ));
            p.check(same_lines(
                "the ELF header, program headers and allocated section headers",
                &layout_lines(&w)?,
                &layout_lines(&r)?,
            ));
            let rr = lld.run(&r)?;
            if name == "reverse_sections" {
                expect_lld_run(&rr, 0, "ctor helper\nctor main\nhelper\nmain 5 4\n")?;
            }
            p.check(same_run(&weld.run(&w)?, &rr));
        }
        _ => {
            // -r of C++ with COMDAT groups, then a program linked from it by each linker.
            let cc = Compiler::Clang;
            let force = name == "force_group_allocation";
            // A section per function: --relocatable-merge-sections must gather the ungrouped
            // ones (`use_box`, `main`) into `.text`, and leave the COMDAT groups as they are.
            let fs: &[&str] = if force { &[] } else { &["-ffunction-sections"] };
            let t = obj("gnu_compat", "tmpl.cc", cc, fs)?;
            let tm = obj("gnu_compat", "tmpl_main.cc", cc, fs)?;
            let rel = |s: &Side, flags: &[&str]| -> Result<PathBuf, String> {
                let out = s.dir.join("r.o");
                let mut cmd = Command::new(&s.linker.path);
                cmd.arg("-r")
                    .args(flags)
                    .arg(&t)
                    .arg(&tm)
                    .arg("-o")
                    .arg(&out);
                let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
                paths::write(&s.dir.join("r.o.link.txt"), o.report())?;
                if !o.success() || !out.is_file() {
                    return Err(format!("{}'s -r failed\n{}", s.label(), o.report()));
                }
                Ok(out)
            };
            let w_r = if force {
                rel(&weld, &["--force-group-allocation"])?
            } else {
                rel(&weld, &["--relocatable-merge-sections"])?
            };
            let ws = content_sections(&w_r)?;
            // lld has no --relocatable-merge-sections: then its plain -r is linked instead, and
            // weld's output must hold no `.text.*` section.
            let r_r = if force {
                reference(rel(&lld, &["--force-group-allocation"]))?
            } else {
                reference(rel(&lld, &[]))?
            };
            if force {
                let rs = content_sections(&r_r)?;
                expect_lld(!rs.iter().any(|l| l.contains("GROUP")), || {
                    format!("lld's -r --force-group-allocation output has groups: {rs:?}")
                })?;
                p.check(dynlink::same("the output sections", &ws, &rs));
            } else {
                let merged = !ws
                    .iter()
                    .any(|l| l.starts_with(".text.main ") || l.starts_with(".text._Z7use_boxi "));
                let groups_kept = ws.iter().any(|l| l.ends_with(" GROUP"));
                if !merged || !groups_kept {
                    p.0.push(format!(
                        "--relocatable-merge-sections should merge .text.main and \
                         .text._Z7use_boxi into .text and keep the groups: {ws:?}"
                    ));
                }
            }
            let r_exe = reference(lld.link(cc, true, &[arg(&r_r)], "a.out"))?;
            let w_exe = weld.link(cc, true, &[arg(&w_r)], "a.out")?;
            let rr = lld.run(&r_exe)?;
            expect_lld_run(&rr, 0, "8 2\n")?;
            p.check(same_run(&weld.run(&w_exe)?, &rr));
        }
    }
    p.done()
}

/// `headers_layout` variants: name, whether the program is a PIE, linker flags.
const HEADERS_LAYOUT_VARIANTS: &[(&str, bool, &[&str])] = &[
    ("large_default", false, &[]),
    ("large_pie", true, &[]),
    ("lrodata_after_bss", false, &["-Wl,-z,lrodata-after-bss"]),
    ("lrodata_after_bss_pie", true, &["-Wl,-z,lrodata-after-bss"]),
    (
        "lrodata_after_bss_undone",
        false,
        &["-Wl,-z,lrodata-after-bss", "-Wl,-z,nolrodata-after-bss"],
    ),
    (
        "keep_data_section_prefix",
        false,
        &["-Wl,-z,keep-data-section-prefix"],
    ),
    ("no_section_header", true, &["-Wl,-z,nosectionheader"]),
    (
        "no_section_header_static",
        false,
        &["-static", "-Wl,-z,nosectionheader"],
    ),
    (
        "section_header_again",
        true,
        &["-Wl,-z,nosectionheader", "-Wl,-z,sectionheader"],
    ),
];

/// The ELF header but for the entry point, the program headers and the allocated section
/// headers (`llvm-readelf-22 -h -l -S`), build IDs blanked: everything the layout decides.
fn layout_lines(file: &Path) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-h", "-l", "-S", "-W"], file)?;
    Ok(text
        .lines()
        .filter(|l| !l.contains("Entry point"))
        // Non-allocated sections (no A flag): .comment, .symtab and the string tables differ in
        // size between the linkers (the .comment string, symbol names); their presence counts.
        .map(|l| {
            let toks: Vec<&str> = l.split_whitespace().collect();
            let section = l.trim_start().starts_with('[') && !l.contains("Nr]");
            let alloc = toks.iter().skip(6).any(|t| t.contains('A'));
            if section && !alloc {
                toks.iter().take(3).copied().collect::<Vec<_>>().join(" ")
            } else {
                l.to_string()
            }
        })
        .filter(|l| {
            !l.contains("Start of section headers")
                && !l.contains("Size of this header")
                && !l.contains("starting at offset")
        })
        .collect())
}

/// A `headers_layout` variant: `large.c` (`-mcmodel=medium -mlarge-data-threshold=64`) linked
/// with FLAGS by both linkers: the same ELF header fields, program headers and allocated
/// section headers, the same file size under `-z nosectionheader`, and the same run.
fn headers_layout(dir: &Path, pie: bool, flags: &[&str]) -> Check {
    let pic: &[&str] = if pie { &["-fPIE"] } else { &["-fno-pic"] };
    let mut cflags = vec!["-mcmodel=medium", "-mlarge-data-threshold=64"];
    cflags.extend_from_slice(pic);
    let o = obj("headers_layout", "large.c", Compiler::Clang, &cflags)?;
    let (lld, weld) = sides(dir)?;
    let no_headers = flags.last().is_some_and(|f| f.ends_with("nosectionheader"));
    let build = |s: &Side| -> Result<PathBuf, String> {
        let mut a = vec![arg(&o), if pie { "-pie" } else { "-no-pie" }.to_string()];
        if !no_headers {
            a.extend(strings(flags));
            return s.link(Compiler::Clang, false, &a, "a.out");
        }
        // Without section headers there is no .comment naming the linker: the same link
        // without the option shows which linker the driver runs.
        s.link(Compiler::Clang, false, &a, "with-headers.out")?;
        a.extend(strings(flags));
        let path = s.dir.join("a.out");
        let mut cmd = dynlink::link_command(Compiler::Clang, false, &s.linker, &a, &path)?;
        let out = run::run(&mut cmd, run::LINK_TIMEOUT)?;
        paths::write(&s.dir.join("a.out.link.txt"), out.report())?;
        if !out.success() || !path.is_file() {
            return Err(format!("{}'s link failed\n{}", s.label(), out.report()));
        }
        Ok(path)
    };
    let l_out = reference(build(&lld))?;
    let l_run = lld.run(&l_out)?;
    expect_lld_run(&l_run, 0, "11 19 21 29 13 4 7 2 0\n")?;
    let w_out = build(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the ELF header, program headers and allocated section headers",
        &layout_lines(&w_out)?,
        &layout_lines(&l_out)?,
    ));
    let size = |f: &Path| {
        std::fs::metadata(f)
            .map(|m| m.len())
            .map_err(|e| e.to_string())
    };
    if no_headers {
        p.check(dynlink::same(
            "the file size",
            &size(&w_out)?,
            &size(&l_out)?,
        ));
    }
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    p.done()
}

// =============================================================================================
// x86-64 code rewrites: --branch-to-branch, --optimize-bb-jumps, split stacks

/// `llvm-objdump-22 -d ARGS FILE`, without the lines naming the file.
fn objdump(file: &Path, args: &[&str]) -> Result<Vec<String>, String> {
    let mut cmd = Command::new(tools::find("llvm-objdump-22")?);
    cmd.args(args).arg(file);
    let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    if o.code != Some(0) {
        return Err(format!("llvm-objdump-22 failed\n{}", o.report()));
    }
    Ok(o.stdout_str()
        .lines()
        .filter(|l| !l.contains("file format"))
        .map(str::to_string)
        .collect())
}

/// The whole disassembly (addresses and bytes): for links whose layouts agree.
fn disassembly(file: &Path) -> Result<Vec<String>, String> {
    objdump(file, &["-d"])
}

/// One disassembled instruction without its addresses: branch targets keep only their
/// `<symbol+offset>`, RIP-relative operands lose the displacement and comments (which name
/// data by address) go.
fn modulo_addresses(insn: &str) -> String {
    let insn = insn.split_once('#').map_or(insn, |(code, _)| code);
    let toks: Vec<&str> = insn.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    let is_hex = |t: &str| t.trim_start_matches('-').starts_with("0x");
    for (i, t) in toks.iter().enumerate() {
        if is_hex(t) && toks.get(i + 1).is_some_and(|n| n.starts_with('<')) {
            continue;
        }
        match t.find("(%rip)") {
            Some(at) => out.push(t[at..].to_string()),
            None => out.push(t.to_string()),
        }
    }
    out.join(" ")
}

/// The disassembly of the named functions, modulo addresses: for links whose layouts differ.
fn functions_modulo_addresses(file: &Path, names: &[&str]) -> Result<Vec<String>, String> {
    let lines = objdump(file, &["-d", "--no-show-raw-insn", "--no-leading-addr"])?;
    let mut out = Vec::new();
    for name in names {
        let header = format!("<{name}>:");
        let start = lines
            .iter()
            .position(|l| l.trim_end().ends_with(&header))
            .ok_or_else(|| format!("{}: no function {name}", file.display()))?;
        out.push(header);
        out.extend(
            lines[start + 1..]
                .iter()
                .take_while(|l| !l.trim().is_empty())
                .map(|l| modulo_addresses(l)),
        );
    }
    Ok(out)
}

/// `sh_size` of section `name` of `file`.
fn section_size(file: &Path, name: &str) -> Result<u64, String> {
    let text = dynelf::readelf(&["-SW"], file)?;
    text.lines()
        .filter_map(|l| {
            let l = l.split_once(']').map_or(l, |(_, rest)| rest);
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.first() == Some(&name))
                .then(|| t.get(4).and_then(|s| u64::from_str_radix(s, 16).ok()))
        })
        .next()
        .flatten()
        .ok_or_else(|| format!("{}: no section {name}", file.display()))
}

/// The functions of `branch_to_branch/` whose code the option changes.
const B2B_FUNCTIONS: &[&str] = &[
    "main",
    "w1",
    "w2",
    "hop1",
    "hop2",
    "via_local",
    "to_notcode",
];
const B2B_STDOUT: &str = "101 101 101 101\n101 101 8\n101 101 101\n";

/// (variant, flags, whether lld's output rewrites branches, whether layouts agree (lld's -O2
/// also tail-merges strings, so its addresses differ from weld's)).
const B2B_VARIANTS: &[(&str, &[&str], bool, bool)] = &[
    ("flag", &["-Wl,--branch-to-branch"], true, true),
    ("opt_level_2", &["-Wl,-O2"], true, false),
    (
        "opt_level_2_off",
        &["-Wl,-O2", "-Wl,--no-branch-to-branch"],
        false,
        false,
    ),
    (
        "last_wins",
        &["-Wl,--branch-to-branch", "-Wl,--no-branch-to-branch"],
        false,
        true,
    ),
    ("opt_level_1", &["-Wl,-O1"], false, true),
];

fn b2b_objects(pic: bool) -> Result<Vec<String>, String> {
    let c = Compiler::Clang;
    let flags: &[&str] = if pic { &["-O2", "-fPIC"] } else { &["-O2"] };
    let mut v = Vec::new();
    if !pic {
        v.push(arg(&obj("branch_to_branch", "main.c", c, flags)?));
    }
    v.push(arg(&obj("branch_to_branch", "wrappers.c", c, flags)?));
    v.push(arg(&obj("branch_to_branch", "table.s", c, &[])?));
    Ok(v)
}

/// `--branch-to-branch` on a program: lld's code (and the relative table in `.rodata`) must show
/// the redirections, or their absence, against a link without the option; weld's must be lld's
/// (all of it when the layouts agree, else the changed functions modulo addresses) and run so.
fn branch_to_branch(dir: &Path, flags: &[&str], rewrites: bool, same_layout: bool) -> Check {
    let (lld, weld) = sides(dir)?;
    let link = |s: &Side, flags: &[&str], out: &str| -> Result<PathBuf, String> {
        let mut a = b2b_objects(false)?;
        a.extend(strings(flags));
        s.link(Compiler::Clang, false, &a, out)
    };
    let l_plain = reference(link(&lld, &[], "plain"))?;
    let l_exe = reference(link(&lld, flags, "a.out"))?;
    let l_funcs = functions_modulo_addresses(&l_exe, B2B_FUNCTIONS)?;
    let l_plain_funcs = functions_modulo_addresses(&l_plain, B2B_FUNCTIONS)?;
    let table = |f: &Path| section_bytes(f, ".rodata");
    expect_lld((l_funcs != l_plain_funcs) == rewrites, || {
        format!(
            "ld.lld-22's code should {}differ from a link without the option:\n{}",
            if rewrites { "" } else { "not " },
            l_funcs.join("\n")
        )
    })?;
    if rewrites {
        // main's call to w1 and hop1's jump go straight to impl.
        expect_lld(
            l_funcs.iter().any(|l| l == "jmp <impl>")
                && l_funcs.iter().any(|l| l == "callq <impl>"),
            || format!("ld.lld-22 should send calls to impl: {l_funcs:?}"),
        )?;
    }
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, B2B_STDOUT)?;
    let w_exe = link(&weld, flags, "a.out")?;
    let mut p = Problems::default();
    if same_layout {
        p.check(same_lines(
            "the disassembly",
            &disassembly(&w_exe)?,
            &disassembly(&l_exe)?,
        ));
        p.check(same_lines(
            ".rodata (the relative table)",
            &table(&w_exe)?,
            &table(&l_exe)?,
        ));
    } else {
        p.check(same_lines(
            "the rewritten functions (modulo addresses)",
            &functions_modulo_addresses(&w_exe, B2B_FUNCTIONS)?,
            &l_funcs,
        ));
    }
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// `--branch-to-branch -shared`: preemptible symbols are not followed (hop1 still jumps to
/// hop2's PLT entry), a branch to a local label that jumps on still is (to impl's PLT entry).
fn branch_to_branch_shared(dir: &Path) -> Check {
    let (lld, weld) = sides(dir)?;
    let link = |s: &Side, flags: &[&str], out: &str| -> Result<PathBuf, String> {
        let mut a = strings(&["-shared"]);
        a.extend(b2b_objects(true)?);
        a.extend(strings(flags));
        s.link(Compiler::Clang, false, &a, out)
    };
    let l_lib = reference(link(&lld, &["-Wl,--branch-to-branch"], "libb2b.so"))?;
    let l_funcs = functions_modulo_addresses(&l_lib, &["hop1", "via_local"])?;
    expect_lld(
        l_funcs.iter().any(|l| l == "jmp <hop2@plt>")
            && l_funcs.iter().any(|l| l == "jmp <impl@plt>"),
        || {
            format!(
                "ld.lld-22 should keep hop1's jump to hop2 and redirect via_local's: {l_funcs:?}"
            )
        },
    )?;
    let w_lib = link(&weld, &["-Wl,--branch-to-branch"], "libb2b.so")?;
    same_lines(
        "the disassembly",
        &disassembly(&w_lib)?,
        &disassembly(&l_lib)?,
    )
}

/// (variant, flags): bad `-O` levels, the linker called directly.
const OPT_LEVEL_ERRORS: &[(&str, &[&str])] = &[("not_a_number", &["-Ofast"]), ("hex", &["-O0x2"])];

/// A bad `-O` level: exit code 1, lld's message, no output.
fn opt_level_error(dir: &Path, flags: &[&str]) -> Check {
    let main_o = obj("branch_to_branch", "wrappers.c", Compiler::Clang, &["-O2"])?;
    let (lld, weld) = sides(dir)?;
    let mut args = vec![arg(&main_o), "-e".to_string(), "impl".to_string()];
    args.extend(strings(flags));
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(
        lo.code == Some(1) && lo.stderr_str().contains("number expected"),
        || format!("ld.lld-22 should refuse {flags:?}\n{}", lo.report()),
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// (variant, flags, whether lld's `.text` shrinks).
const BB_JUMPS_VARIANTS: &[(&str, &[&str], bool)] = &[
    ("on", &["-Wl,--optimize-bb-jumps"], true),
    (
        "last_wins",
        &["-Wl,--optimize-bb-jumps", "-Wl,--no-optimize-bb-jumps"],
        false,
    ),
    (
        "with_branch_to_branch",
        &["-Wl,--optimize-bb-jumps", "-Wl,--branch-to-branch"],
        true,
    ),
];

/// `--optimize-bb-jumps` on a program whose every basic block is a section: lld's `.text` must
/// shrink (or not) against a link without the option; weld's disassembly (padding included),
/// `.text` size and symbol table (sizes of the shrunk blocks' symbols) must be lld's, and the
/// programs must run alike.
fn bb_jumps(dir: &Path, flags: &[&str], shrinks: bool) -> Check {
    let (lld, weld) = sides(dir)?;
    let link = |s: &Side, flags: &[&str], out: &str| -> Result<PathBuf, String> {
        let o = obj(
            "bb_jumps",
            "bb.c",
            Compiler::Clang,
            &["-O2", "-fbasic-block-sections=all", "-ffunction-sections"],
        )?;
        let mut a = vec![arg(&o)];
        a.extend(strings(flags));
        s.link(Compiler::Clang, false, &a, out)
    };
    let l_plain = reference(link(&lld, &[], "plain"))?;
    let l_exe = reference(link(&lld, flags, "a.out"))?;
    let (plain_size, size) = (
        section_size(&l_plain, ".text")?,
        section_size(&l_exe, ".text")?,
    );
    expect_lld(
        (size < plain_size) == shrinks && (size <= plain_size),
        || {
            format!(
                "ld.lld-22's .text should {}shrink: {plain_size:#x} -> {size:#x}",
                if shrinks { "" } else { "not " }
            )
        },
    )?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "129 4245\n")?;
    let w_exe = link(&weld, flags, "a.out")?;
    let mut p = Problems::default();
    let w_size = section_size(&w_exe, ".text")?;
    if w_size != size {
        p.0.push(format!(
            "weld's .text is {w_size:#x} bytes, ld.lld-22's {size:#x}"
        ));
    }
    p.check(same_lines(
        "the disassembly",
        &disassembly(&w_exe)?,
        &disassembly(&l_exe)?,
    ));
    p.check(same_lines(
        ".symtab",
        &symtab_lines(&w_exe)?,
        &symtab_lines(&l_exe)?,
    ));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// The functions of `split_stack/split.c`.
const SPLIT_FUNCTIONS: &[&str] = &["small", "big", "calls_split", "main"];

/// (variant, flags, whether nosplit.c is compiled with -fsplit-stack too).
const SPLIT_STACK_VARIANTS: &[(&str, &[&str], bool)] = &[
    ("adjusted", &[], false),
    // lld 22 reads the size but adjusts x86-64 prologues by 0x4000 whatever it says.
    (
        "adjust_size",
        &["-Wl,--split-stack-adjust-size=4096"],
        false,
    ),
    ("all_split", &[], true),
];

/// gcc `-fsplit-stack` code calling code compiled without it: lld's `small` starts with `stc`,
/// `big` asks for 0x4000 more bytes and both call `__morestack_non_split` (unless the callee is
/// split-stack too); weld's functions must be lld's modulo addresses (gcc's
/// `--wrap=pthread_create` gives the two outputs different dynamic symbol tables), and run alike.
fn split_stack(dir: &Path, flags: &[&str], callee_split: bool) -> Check {
    let c = Compiler::Gcc;
    let (lld, weld) = sides(dir)?;
    let link = |s: &Side| -> Result<PathBuf, String> {
        let callee_flags: &[&str] = if callee_split {
            &["-fsplit-stack"]
        } else {
            &[]
        };
        let mut a = strings(&["-fsplit-stack"]);
        a.push(arg(&obj("split_stack", "split.c", c, &["-fsplit-stack"])?));
        a.push(arg(&obj("split_stack", "nosplit.c", c, callee_flags)?));
        a.extend(strings(flags));
        s.link(c, false, &a, "a.out")
    };
    let l_exe = reference(link(&lld))?;
    let l_funcs = functions_modulo_addresses(&l_exe, SPLIT_FUNCTIONS)?;
    let small_adjusted = l_funcs
        .iter()
        .skip_while(|l| *l != "<small>:")
        .nth(1)
        .is_some_and(|l| l == "stc");
    let big_adjusted = l_funcs.iter().any(|l| l == "leaq -0x6008(%rsp), %r11");
    let non_split_calls = l_funcs
        .iter()
        .filter(|l| *l == "callq <__morestack_non_split>")
        .count();
    expect_lld(
        small_adjusted != callee_split
            && big_adjusted != callee_split
            && non_split_calls == if callee_split { 1 } else { 3 },
        || {
            format!(
                "ld.lld-22 should adjust small and big {}: {l_funcs:#?}",
                if callee_split {
                    "only if nosplit_fn is not split-stack"
                } else {
                    ""
                }
            )
        },
    )?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "42 42 3\n")?;
    let w_exe = link(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "split.c's functions (modulo addresses)",
        &functions_modulo_addresses(&w_exe, SPLIT_FUNCTIONS)?,
        &l_funcs,
    ));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// A split-stack object marked `.note.GNU-no-split-stack` whose function lld cannot adjust:
/// no error, the function left alone, the same code and run.
fn split_stack_marked(dir: &Path) -> Check {
    let c = Compiler::Gcc;
    let (lld, weld) = sides(dir)?;
    let link = |s: &Side| -> Result<PathBuf, String> {
        let mut a = strings(&["-fsplit-stack"]);
        a.push(arg(&obj("split_stack", "marked.s", c, &[])?));
        a.push(arg(&obj("split_stack", "nosplit.c", c, &[])?));
        s.link(c, false, &a, "a.out")
    };
    let l_exe = reference(link(&lld))?;
    let l_funcs = functions_modulo_addresses(&l_exe, &["bad", "main"])?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, "")?;
    let w_exe = link(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the functions (modulo addresses)",
        &functions_modulo_addresses(&w_exe, &["bad", "main"])?,
        &l_funcs,
    ));
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// (variant, objects (split_stack/ sources, compiled by gcc: .c with -fsplit-stack unless
/// named nosplit.c), flags): failing links, the linker called directly.
const SPLIT_STACK_ERRORS: &[(&str, &[&str], &[&str])] = &[
    (
        "cannot_adjust",
        &["unadjustable.s", "nosplit.c"],
        &[
            "-e",
            "main",
            "--defsym=__morestack=0",
            "--defsym=__morestack_non_split=0",
        ],
    ),
    (
        "no_morestack_non_split",
        &["split.c", "nosplit.c"],
        &[
            "-e",
            "main",
            "--unresolved-symbols=ignore-all",
            "--defsym=__morestack=0",
        ],
    ),
    (
        "negative_adjust_size",
        &["nosplit.c"],
        &["-e", "nosplit_fn", "--split-stack-adjust-size=-1"],
    ),
    (
        "adjust_size_not_a_number",
        &["nosplit.c"],
        &["-e", "nosplit_fn", "--split-stack-adjust-size", "0x10"],
    ),
];

/// A failing split-stack link: exit code 1, lld's message but for the program name, no file.
fn split_stack_error(dir: &Path, sources: &[&str], flags: &[&str]) -> Check {
    let (lld, weld) = sides(dir)?;
    let mut args = Vec::new();
    for src in sources {
        let f: &[&str] = if src.ends_with(".c") && *src != "nosplit.c" {
            &["-fsplit-stack"]
        } else {
            &[]
        };
        args.push(arg(&obj("split_stack", src, Compiler::Gcc, f)?));
    }
    args.extend(strings(flags));
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(
        lo.code == Some(1) && lo.stderr_str().contains("error:"),
        || format!("ld.lld-22 should fail\n{}", lo.report()),
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// What an `emit_relocs` trial links.
#[derive(Clone, Copy, PartialEq)]
enum ErOutput {
    Pie,
    Static,
    /// `other.c` as `libother.so`, and the program against it, both with the flags.
    Shared,
}

struct ErVariant {
    name: &'static str,
    /// `prog.cc` + `helper.cc` instead of `main.c` + `other.c`.
    cxx: bool,
    compiler: Compiler,
    output: ErOutput,
    flags: &'static [&'static str],
}

const ER: &str = "-Wl,--emit-relocs";
const ER_GC: &[&str] = &[ER, "-Wl,--gc-sections"];

const EMIT_RELOCS_VARIANTS: &[ErVariant] = &[
    ErVariant {
        name: "c_pie",
        cxx: false,
        compiler: Compiler::Clang,
        output: ErOutput::Pie,
        flags: &[ER],
    },
    ErVariant {
        name: "c_pie_q",
        cxx: false,
        compiler: Compiler::Clang,
        output: ErOutput::Pie,
        flags: &["-Wl,-q"],
    },
    ErVariant {
        name: "c_static",
        cxx: false,
        compiler: Compiler::Clang,
        output: ErOutput::Static,
        flags: &[ER],
    },
    ErVariant {
        name: "c_gc_sections",
        cxx: false,
        compiler: Compiler::Clang,
        output: ErOutput::Pie,
        flags: ER_GC,
    },
    ErVariant {
        name: "c_static_gc_sections",
        cxx: false,
        compiler: Compiler::Clang,
        output: ErOutput::Static,
        flags: ER_GC,
    },
    ErVariant {
        name: "c_shared",
        cxx: false,
        compiler: Compiler::Clang,
        output: ErOutput::Shared,
        flags: &[ER],
    },
    ErVariant {
        name: "c_discard_all",
        cxx: false,
        compiler: Compiler::Clang,
        output: ErOutput::Pie,
        flags: &[ER, "-Wl,-x"],
    },
    ErVariant {
        name: "c_discard_locals",
        cxx: false,
        compiler: Compiler::Clang,
        output: ErOutput::Pie,
        flags: &[ER, "-Wl,-X"],
    },
    ErVariant {
        name: "c_gcc",
        cxx: false,
        compiler: Compiler::Gcc,
        output: ErOutput::Pie,
        flags: &[ER],
    },
    ErVariant {
        name: "cxx_pie",
        cxx: true,
        compiler: Compiler::Clang,
        output: ErOutput::Pie,
        flags: &[ER],
    },
    ErVariant {
        name: "cxx_static",
        cxx: true,
        compiler: Compiler::Clang,
        output: ErOutput::Static,
        flags: &[ER],
    },
    ErVariant {
        name: "cxx_gc_sections",
        cxx: true,
        compiler: Compiler::Clang,
        output: ErOutput::Pie,
        flags: ER_GC,
    },
    ErVariant {
        name: "cxx_shared",
        cxx: true,
        compiler: Compiler::Clang,
        output: ErOutput::Shared,
        flags: &[ER],
    },
    ErVariant {
        name: "cxx_gcc",
        cxx: true,
        compiler: Compiler::Gcc,
        output: ErOutput::Pie,
        flags: &[ER],
    },
];

const EMIT_RELOCS_C_STDOUT: &str = "alpha beta 127 227 8\n";
const EMIT_RELOCS_CXX_STDOUT: &str = "caught too big: 3\ncaught too big: 4\n9 4 6 2\n";

/// `--emit-relocs` (`-q`): the programs of `testdata/options/emit_relocs/` (debug info, a
/// section per function and per datum) linked by both linkers. lld's output must hold what the
/// trial is about: `.rela.text`; a relaxable GOT reference and an initial-exec TLS reference
/// kept with their input types (clang's C); no relocation of the collected `dead_fn` under
/// `--gc-sections`; `.rela.eh_frame` (without `--gc-sections`, where lld drops it) and
/// `R_X86_64_NONE` for the discarded COMDAT copy (clang's C++ linked whole); under `-x`, `.L.str`
/// (named by a relocation) but no `main.c`. weld's must have the same relocation section
/// headers, the same relocations in every section `--emit-relocs` writes (offset, type, symbol
/// name and addend, in order), the same `.symtab` lines for the section symbols and the test's
/// own symbols (the whole `.symtab` where the layouts agree: not static, whose libc.a symbol
/// order differs for reasons of its own), and run as lld's.
fn emit_relocs(dir: &Path, v: &ErVariant) -> Check {
    let c = v.compiler;
    let (lld, weld) = sides(dir)?;
    let (main_src, other_src) = if v.cxx {
        ("prog.cc", "helper.cc")
    } else {
        ("main.c", "other.c")
    };
    const CFLAGS: &[&str] = &["-g", "-ffunction-sections", "-fdata-sections"];
    let compile = |src: &str, pic: &str| -> Result<PathBuf, String> {
        let mut f = CFLAGS.to_vec();
        f.push(pic);
        obj("emit_relocs", src, c, &f)
    };
    let main_o = compile(main_src, "-fPIE")?;
    let other_o = compile(
        other_src,
        if v.output == ErOutput::Shared {
            "-fPIC"
        } else {
            "-fPIE"
        },
    )?;
    let build = |s: &Side| -> Result<Vec<PathBuf>, String> {
        let mut outs = Vec::new();
        let mut a = vec![arg(&main_o)];
        match v.output {
            ErOutput::Pie => {
                a.push("-pie".into());
                a.push(arg(&other_o));
            }
            ErOutput::Static => {
                a.push("-static".into());
                a.push(arg(&other_o));
            }
            ErOutput::Shared => {
                let mut l = strings(&["-shared", "-Wl,-soname,libother.so"]);
                l.push(arg(&other_o));
                l.extend(strings(v.flags));
                outs.push(s.link(c, v.cxx, &l, "libother.so")?);
                a.extend(strings(&["-pie", "libother.so", "-Wl,-rpath,$ORIGIN"]));
            }
        }
        a.extend(strings(v.flags));
        outs.push(s.link(c, v.cxx, &a, "a.out")?);
        Ok(outs)
    };
    let l_outs = reference(build(&lld))?;
    let l_exe = l_outs.last().ok_or("no output")?;
    let l_relocs = emitted_reloc_lines(l_exe)?;
    let l_all = l_relocs.join("\n");
    let gc = v.flags.contains(&"-Wl,--gc-sections");
    expect_lld(l_all.contains("section .rela.text "), || {
        format!("ld.lld-22 wrote no .rela.text: {l_relocs:?}")
    })?;
    if !v.cxx && c == Compiler::Clang {
        expect_lld(
            l_all.contains("R_X86_64_REX_GOTPCRELX shared_counter - 4")
                && l_all.contains("R_X86_64_GOTTPOFF tls_other - 4"),
            || format!("ld.lld-22's relocations lack the GOT and TLS references: {l_relocs:?}"),
        )?;
    }
    if !v.cxx {
        let mut syms = String::new();
        for o in &l_outs {
            syms.push_str(&dynelf::readelf(&["-s"], o)?);
        }
        expect_lld(syms.contains(" dead_fn\n") != gc, || {
            format!("dead_fn should be in ld.lld-22's .symtab only without --gc-sections:\n{syms}")
        })?;
    }
    if v.flags.contains(&"-Wl,-x") {
        // -x drops the locals, but not those a written relocation names.
        let syms = dynelf::readelf(&["-s"], l_exe)?;
        expect_lld(
            syms.contains(" .L.str\n") && !syms.contains(" main.c\n"),
            || format!("ld.lld-22's .symtab under -x -q should keep .L.str, not main.c:\n{syms}"),
        )?;
    }
    // Both instantiations are in one output only when the program is linked whole.
    if v.cxx && c == Compiler::Clang && v.output != ErOutput::Shared {
        expect_lld(
            l_all.contains("section .rela.eh_frame ") != gc && l_all.contains("R_X86_64_NONE"),
            || {
                format!(
                    "ld.lld-22's .rela.eh_frame or R_X86_64_NONE is not as expected: {l_relocs:?}"
                )
            },
        )?;
    }
    let l_run = lld.run(l_exe)?;
    let stdout = if v.cxx {
        EMIT_RELOCS_CXX_STDOUT
    } else {
        EMIT_RELOCS_C_STDOUT
    };
    expect_lld_run(&l_run, 0, stdout)?;

    let w_outs = build(&weld)?;
    let own = own_symbols(&[&main_o, &other_o])?;
    let mut p = Problems::default();
    for (w, l) in w_outs.iter().zip(&l_outs) {
        let what = l
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        p.check(same_lines(
            &format!("the relocation section headers of {what}"),
            &reloc_section_headers(w)?,
            &reloc_section_headers(l)?,
        ));
        p.check(same_lines(
            &format!("the emitted relocations of {what}"),
            &emitted_reloc_lines(w)?,
            &emitted_reloc_lines(l)?,
        ));
        p.check(same_lines(
            &format!("the section symbols and the test's own symbols in {what}'s .symtab"),
            &symtab_lines_named(w, &own)?,
            &symtab_lines_named(l, &own)?,
        ));
        if v.output != ErOutput::Static {
            p.check(same_lines(
                &format!("the .symtab of {what}"),
                &symtab_all(w)?,
                &symtab_all(l)?,
            ));
        }
    }
    let w_exe = w_outs.last().ok_or("no output")?;
    p.check(same_run(&weld.run(w_exe)?, &l_run));
    p.done()
}

/// `--emit-relocs -s`: lld's error, exit code 1, no output.
fn emit_relocs_strip_all(dir: &Path) -> Check {
    let o = obj("emit_relocs", "other.c", Compiler::Clang, &["-fPIE"])?;
    let (lld, weld) = sides(dir)?;
    let args = vec![arg(&o), "--emit-relocs".into(), "-s".into()];
    let lo = link_directly(dir, &lld, &args)?;
    let l_files = listing(&lld.dir)?;
    expect_lld(
        lo.code == Some(1)
            && lo
                .stderr_str()
                .contains("error: --strip-all and --emit-relocs may not be used together")
            && l_files.is_empty(),
        || {
            format!(
                "ld.lld-22 should refuse --emit-relocs with -s\n{}",
                lo.report()
            )
        },
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// (variant, linker flags) of the discarded-section warning trials.
const EMIT_RELOCS_DISCARDED: &[(&str, &[&str])] = &[
    ("discarded_section", &["--emit-relocs"]),
    (
        "discarded_section_fatal",
        &["--emit-relocs", "--fatal-warnings"],
    ),
];

/// `comdat1.s` and `comdat2.s` linked directly with `--emit-relocs`: the second `.meta`'s
/// relocation names a section of the discarded COMDAT copy. lld warns (an error under
/// `--fatal-warnings`, with no output) and writes `R_X86_64_NONE`: exit code, diagnostics,
/// files left, and the emitted relocations.
fn emit_relocs_discarded(dir: &Path, flags: &[&str]) -> Check {
    let c = Compiler::Clang;
    let (lld, weld) = sides(dir)?;
    let mut args = vec![
        arg(&obj("emit_relocs", "comdat1.s", c, &[])?),
        arg(&obj("emit_relocs", "comdat2.s", c, &[])?),
    ];
    args.extend(strings(flags));
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(
        lo.stderr_str()
            .contains("relocation refers to a discarded section: .text.foo"),
        || format!("ld.lld-22 should warn about .text.foo\n{}", lo.report()),
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    let mut p = same_outcome(&wo, &lo, &weld, &lld)?;
    let (w, l) = (weld.dir.join("a.out"), lld.dir.join("a.out"));
    if l.is_file() && w.is_file() {
        let l_relocs = emitted_reloc_lines(&l)?;
        expect_lld(l_relocs.iter().any(|r| r.contains("R_X86_64_NONE")), || {
            format!("ld.lld-22 should write R_X86_64_NONE: {l_relocs:?}")
        })?;
        p.check(same_lines(
            "the emitted relocations",
            &emitted_reloc_lines(&w)?,
            &l_relocs,
        ));
    }
    p.done()
}

/// The relocations `llvm-readelf-22 -r` lists in every relocation section but the dynamic
/// ones: `section NAME N` for each section, then `offset type symbol + addend` (the symbol's
/// index and value, which the symbol-table comparison covers, left out).
fn emitted_reloc_lines(file: &Path) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-r"], file)?;
    let mut out = Vec::new();
    let mut skip = false;
    for l in text.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.first() == Some(&"Relocation") && f.get(1) == Some(&"section") {
            let name = f.get(2).map_or("", |n| n.trim_matches('\''));
            skip = name == ".rela.dyn" || name == ".rela.plt";
            if !skip {
                let count = f.iter().rev().nth(1).copied().unwrap_or("");
                out.push(format!("section {name} {count}"));
            }
            continue;
        }
        if skip || f.len() < 3 || f[0] == "Offset" {
            continue;
        }
        // offset, info, type, then `value name + addend` or, for symbol 0, the addend alone.
        let rest = if f.len() >= 7 { &f[4..] } else { &f[3..] };
        out.push(format!("{} {} {}", f[0], f[2], rest.join(" ")));
    }
    Ok(out)
}

/// The names of the symbols the objects define (what the trial's own code names).
fn own_symbols(objs: &[&Path]) -> Result<BTreeSet<String>, String> {
    let mut names = BTreeSet::new();
    for o in objs {
        for l in dynelf::readelf(&["-s"], o)?.lines() {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() == 8 && f[6] != "UND" && f[3] != "SECTION" && f[3] != "FILE" {
                names.insert(f[7].to_string());
            }
        }
    }
    Ok(names)
}

/// `.symtab` lines (index left out) of the section symbols and of the symbols named `names`,
/// sorted.
fn symtab_lines_named(file: &Path, names: &BTreeSet<String>) -> Result<Vec<String>, String> {
    let mut v: Vec<String> = symtab_all(file)?
        .into_iter()
        .filter(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.get(2) == Some(&"SECTION") || f.get(6).is_some_and(|n| names.contains(*n))
        })
        .collect();
    v.sort();
    Ok(v)
}

/// Every `.symtab` line, in order, without its index.
fn symtab_all(file: &Path) -> Result<Vec<String>, String> {
    let text = dynelf::readelf(&["-s"], file)?;
    let Some(start) = text.find("Symbol table '.symtab'") else {
        return Err(format!("{} has no .symtab", file.display()));
    };
    Ok(text[start..]
        .lines()
        .skip(2)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        .collect())
}

/// The linker of `s` called directly in `dir` with `args`, writing `<side>/a.out`; the report
/// is saved as `<label>.link.txt` in `dir`, outside the directory whose files are compared.
/// `compress`: (variant, driver flags, sections lld must have compressed, sections it must
/// have left alone).
type CompressVariant = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
);

const DEBUG_MAIN: &[&str] = &[".debug_abbrev", ".debug_info", ".debug_str", ".debug_line"];

const COMPRESS_VARIANTS: &[CompressVariant] = &[
    (
        "zlib",
        &["-Wl,--compress-debug-sections=zlib"],
        DEBUG_MAIN,
        &[".weld_meta", ".symtab", ".comment"],
    ),
    (
        "zstd",
        &["-Wl,--compress-debug-sections=zstd"],
        DEBUG_MAIN,
        &[".weld_meta", ".symtab", ".comment"],
    ),
    (
        "none_last_wins",
        &[
            "-Wl,--compress-debug-sections=zlib",
            "-Wl,--compress-debug-sections=none",
        ],
        &[],
        DEBUG_MAIN,
    ),
    (
        "sections_globs_levels",
        &[
            "-Wl,--compress-sections=.weld_meta=zstd:5",
            "-Wl,--compress-sections=.debug_[il]*=zlib:9",
        ],
        &[".weld_meta", ".debug_info", ".debug_line"],
        &[".debug_abbrev", ".debug_str"],
    ),
    (
        "sections_override_debug",
        &[
            "-Wl,--compress-debug-sections=zlib",
            "-Wl,--compress-sections=.debug_str*=none",
            "-Wl,--compress-sections=.debug_line=zstd:0x13",
        ],
        &[".debug_abbrev", ".debug_info", ".debug_line"],
        &[".debug_str", ".debug_str_offsets"],
    ),
    (
        "shards_zlib",
        &[
            "-Wl,--compress-sections=.weld_big=zlib",
            "-Wl,--compress-debug-sections=zlib",
        ],
        &[".weld_big", ".debug_info"],
        &[".weld_meta"],
    ),
    (
        "shards_zstd",
        &["-Wl,--compress-sections=.weld_*=zstd:1"],
        &[".weld_big", ".weld_meta"],
        &[".debug_info"],
    ),
    (
        "sections_over_debug_none",
        &[
            "-Wl,--compress-sections=.debug_info=zstd",
            "-Wl,--compress-debug-sections=none",
        ],
        &[".debug_info"],
        &[".debug_abbrev", ".debug_str", ".debug_line"],
    ),
];

/// The non-allocated section headers of `file` as `name type flags align entsize` (sizes and
/// offsets depend on the compressor's output).
fn non_alloc_headers(file: &Path) -> Result<Vec<String>, String> {
    Ok(dynelf::readelf(&["-SW"], file)?
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_once(']')?.1.split_whitespace().collect();
            // name type addr off size es [flags] lk inf al
            let (flags, tail) = match f.len() {
                10 => (f[6], &f[7..]),
                9 => ("-", &f[6..]),
                _ => return None,
            };
            (!flags.contains('A') && f[0] != "Name")
                .then(|| format!("{} {} {} {} {}", f[0], f[1], flags, tail[2], f[5]))
        })
        .collect())
}

/// The contents of every non-allocated section of `file`, decompressed, as `llvm-readelf -z -x`
/// dumps them (address column dropped), by section name.
fn non_alloc_contents(file: &Path) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut out = Vec::new();
    for h in non_alloc_headers(file)? {
        let name = h.split(' ').next().unwrap_or("").to_string();
        let text = dynelf::readelf(&["-z", "-x", &name], file)?;
        let lines = text
            .lines()
            .filter(|l| l.trim_start().starts_with("0x"))
            .map(|l| l.split_once(' ').map_or("", |x| x.1).to_string())
            .collect();
        out.push((name, lines));
    }
    Ok(out)
}

/// `llvm-dwarfdump-22 --verify`'s verdict on `file`.
fn dwarf_verifies(file: &Path) -> Result<bool, String> {
    let mut cmd = Command::new(tools::find("llvm-dwarfdump-22")?);
    cmd.arg("--verify").arg(file);
    Ok(run::run(&mut cmd, run::TOOL_TIMEOUT)?.code == Some(0))
}

/// What gdb makes of `file`'s debug information: the line of `compute`, a breakpoint in `area`
/// hit, the backtrace there (addresses blanked, gdb's own chatter dropped).
fn gdb_view(file: &Path) -> Result<Vec<String>, String> {
    let mut cmd = Command::new(tools::find("gdb")?);
    cmd.args([
        "-nx",
        "-batch",
        "-ex",
        "info line compute",
        "-ex",
        "break area",
    ])
    .args(["-ex", "run", "-ex", "bt"])
    .arg(file);
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?;
    Ok(o.stdout_str()
        .lines()
        .filter(|l| !l.contains("libthread_db") && !l.starts_with("[Inferior"))
        .map(gdb_words)
        .collect())
}

/// `--compress-debug-sections=` and `--compress-sections=` on `compress/main.c` and `util.c`
/// (`-g`): the non-allocated section headers (type, flags with `C`, alignment, entry size)
/// must be lld's and lld must have compressed what the variant says; every section decompressed
/// must be what weld writes without compression, and, where weld's and lld's uncompressed
/// sections are equal, what lld's decompresses to; `llvm-dwarfdump-22 --verify` must accept
/// weld's output if it accepts lld's; gdb must see the same lines and frames; the program runs.
fn compress(dir: &Path, flags: &[&str], compressed: &[&str], plain: &[&str]) -> Check {
    let c = Compiler::Clang;
    let mut objs = vec![
        obj("compress", "main.c", c, &["-g"])?,
        obj("compress", "util.c", c, &["-g"])?,
    ];
    // The section of several shards, only where a variant compresses it.
    if flags.iter().any(|f| f.contains(".weld_")) {
        objs.push(obj("compress", "big.c", c, &["-g"])?);
    }
    let (lld, weld) = sides(dir)?;
    let build = |s: &Side, flags: &[&str], out: &str| -> Result<PathBuf, String> {
        let mut a: Vec<String> = objs.iter().map(|o| arg(o)).collect();
        a.extend(strings(flags));
        s.link(c, false, &a, out)
    };
    let l_out = reference(build(&lld, flags, "a.out"))?;
    let l_plain = reference(build(&lld, &[], "plain.out"))?;
    let l_headers = non_alloc_headers(&l_out)?;
    for name in compressed.iter().chain(plain) {
        let is_compressed = l_headers.iter().any(|h| {
            h.split(' ').next() == Some(name)
                && h.split(' ').nth(2).is_some_and(|f| f.contains('C'))
        });
        expect_lld(is_compressed == compressed.contains(name), || {
            format!("ld.lld-22 should compress {compressed:?} and not {plain:?}: {l_headers:#?}")
        })?;
    }
    let l_run = lld.run(&l_out)?;
    expect_lld_run(&l_run, 0, "compress 9 112\n")?;
    let l_gdb = gdb_view(&l_out)?;
    expect_lld(
        l_gdb.iter().any(|l| l.starts_with("Breakpoint 1 area")),
        || format!("gdb should stop in area in ld.lld-22's program: {l_gdb:#?}"),
    )?;

    let w_out = build(&weld, flags, "a.out")?;
    let w_plain = build(&weld, &[], "plain.out")?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the non-allocated section headers (name type flags align entsize)",
        &non_alloc_headers(&w_out)?,
        &l_headers,
    ));
    let (w_got, w_want) = (non_alloc_contents(&w_out)?, non_alloc_contents(&w_plain)?);
    let (l_got, l_want) = (non_alloc_contents(&l_out)?, non_alloc_contents(&l_plain)?);
    for ((name, got), (_, want)) in w_got.iter().zip(&w_want) {
        p.check(same_lines(
            &format!("{name} decompressed against weld's uncompressed link"),
            got,
            want,
        ));
        let lld_plain = l_want.iter().find(|(n, _)| n == name);
        let lld_got = l_got.iter().find(|(n, _)| n == name);
        if let (Some((_, lp)), Some((_, lg))) = (lld_plain, lld_got) {
            if lp == want {
                p.check(same_lines(
                    &format!("{name} decompressed against ld.lld-22's decompressed"),
                    got,
                    lg,
                ));
            }
        }
    }
    if w_got.len() != w_want.len() {
        p.0.push(format!(
            "the compressed link has {} non-allocated sections, the plain one {}",
            w_got.len(),
            w_want.len()
        ));
    }
    if dwarf_verifies(&l_out)? && !dwarf_verifies(&w_out)? {
        p.0.push("llvm-dwarfdump-22 --verify rejects weld's output but accepts lld's".into());
    }
    p.check(same_lines("gdb's view", &gdb_view(&w_out)?, &l_gdb));
    p.check(same_run(&weld.run(&w_out)?, &l_run));
    p.done()
}

/// (variant, the linker's arguments before the object): bad values and an allocated section.
const COMPRESS_ERRORS: &[(&str, &[&str])] = &[
    // A level that is not a number stays lld's unknown value (weld reads mold's `zlib:N`).
    ("debug_level", &["--compress-debug-sections=zlib:x"]),
    (
        "debug_last_bad",
        &[
            "--compress-debug-sections=zstd",
            "--compress-debug-sections=gzip",
        ],
    ),
    (
        "debug_earlier_bad",
        &[
            "--compress-debug-sections=gzip",
            "--compress-debug-sections=zstd",
        ],
    ),
    ("sections_no_type", &["--compress-sections=.debug_info"]),
    ("sections_two_equals", &["--compress-sections=a=b=zlib"]),
    (
        "sections_unknown_type",
        &["--compress-sections=.debug_*=lz4"],
    ),
    (
        "sections_negative_level",
        &["--compress-sections=.debug_*=zlib:-1"],
    ),
    (
        "sections_empty_level",
        &["--compress-sections=.debug_*=zstd:"],
    ),
    ("sections_bad_glob", &["--compress-sections=.debug[=zlib"]),
    ("sections_alloc", &["--compress-sections=.text=zstd"]),
    (
        "sections_zlib_level_10",
        &["--compress-sections=.debug_info=zlib:10"],
    ),
];

/// A bad `--compress-*` value or an allocated section named: the linker called directly on
/// `compress/util.c` (`-g`) must fail as lld does (exit code, message, no output); the last
/// `--compress-debug-sections` alone counts, so `debug_earlier_bad` links.
fn compress_error(dir: &Path, flags: &[&str]) -> Check {
    let o = obj("compress", "util.c", Compiler::Clang, &["-g"])?;
    let (lld, weld) = sides(dir)?;
    let mut args = strings(flags);
    args.push(arg(&o));
    args.push("--unresolved-symbols=ignore-all".to_string());
    let lo = link_directly(dir, &lld, &args)?;
    let want = if flags[0].starts_with("--compress-debug-sections=gzip") {
        Some(0)
    } else {
        Some(1)
    };
    expect_lld(lo.code == want, || {
        format!(
            "ld.lld-22 should exit with {want:?} for {flags:?}\n{}",
            lo.report()
        )
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

fn link_directly(dir: &Path, s: &Side, args: &[String]) -> Result<Output, String> {
    let mut cmd = Command::new(&s.linker.path);
    cmd.current_dir(dir)
        .args(args)
        .arg("-o")
        .arg(s.dir.join("a.out"));
    let o = run::run(&mut cmd, run::LINK_TIMEOUT)?;
    paths::write(&dir.join(format!("{}.link.txt", s.label())), o.report())?;
    Ok(o)
}

/// A direct link of weld's must end as lld's did: the same exit status, the same diagnostics
/// but for the program name, the same files left in its directory. The problems found so far
/// (callers may add more; weld's report is appended on `done`).
fn same_outcome(wo: &Output, lo: &Output, weld: &Side, lld: &Side) -> Result<Problems, String> {
    let mut p = Problems::default();
    if wo.code != lo.code {
        p.0.push(format!(
            "weld should exit as ld.lld-22 does ({}), but: {}",
            lo.status_text(),
            wo.status_text()
        ));
    }
    p.check(same_diagnostics(wo, lo, weld));
    let (w_files, l_files) = (listing(&weld.dir)?, listing(&lld.dir)?);
    if w_files != l_files {
        p.0.push(format!(
            "weld left {w_files:?} in its directory, ld.lld-22 {l_files:?}"
        ));
    }
    if !p.0.is_empty() {
        p.0.push(wo.report());
    }
    Ok(p)
}

/// weld's stderr must be lld's with the program name replaced.
fn same_diagnostics(weld_out: &Output, lld_out: &Output, weld: &Side) -> Check {
    let lld_prefix = format!("{}: ", tools::LLD);
    let weld_name = tools::diag_name(&weld.linker.path);
    let want: String = lld_out
        .stderr_str()
        .lines()
        .map(|l| match l.strip_prefix(&lld_prefix) {
            Some(rest) => format!("{weld_name}: {rest}\n"),
            None => format!("{l}\n"),
        })
        .collect();
    let got = weld_out.stderr_str();
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "weld's diagnostics differ from ld.lld-22's (program name replaced): {}",
            text_diff("weld", &got, "lld", &want)
        ))
    }
}

// =============================================================================================
// The parsers, on canned llvm-readelf-22 output

fn self_test() -> Check {
    let symtab = "
Symbol table '.dynsym' contains 2 entries:
   Num:    Value          Size Type    Bind   Vis       Ndx Name
     0: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT   UND 
     1: 0000000000000000     0 FUNC    GLOBAL DEFAULT   UND prog_init

Symbol table '.symtab' contains 3 entries:
   Num:    Value          Size Type    Bind   Vis       Ndx Name
     0: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT   UND 
     1: 0000000000001784     0 FUNC    LOCAL  DEFAULT    13 _init
     2: 0000000000001750    11 FUNC    GLOBAL DEFAULT    14 prog_init
";
    let checks = [
        (
            parse_symbol_value(symtab, "prog_init") == Some(0x1750),
            "prog_init from .symtab, not .dynsym",
        ),
        (
            parse_symbol_value(symtab, "_init") == Some(0x1784),
            "a local symbol",
        ),
        (
            parse_symbol_value(symtab, "init").is_none(),
            "no prefix match",
        ),
        (parse_hex("0x1750") == Some(0x1750), "hex"),
        (parse_hex("1750").is_none(), "hex needs 0x"),
        (
            parse_gnu_stack(
                "  LOAD           0x000000 0x0000000000000000 0x0000000000000000 0x000718 \
                 0x000718 R   0x1000\n  GNU_STACK      0x000000 0x0000000000000000 \
                 0x0000000000000000 0x000000 0x900000 RW  0x0\n",
            ) == Some(("RW".to_string(), 0x90_0000)),
            "PT_GNU_STACK",
        ),
        (
            parse_gnu_stack("  LOAD  0x0 0x0 0x0 0x1 0x1 R E 0x1000\n").is_none(),
            "no PT_GNU_STACK",
        ),
    ];
    let failed: Vec<&str> = checks
        .iter()
        .filter(|(ok, _)| !ok)
        .map(|(_, what)| *what)
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("parser checks failed: {failed:?}"))
    }
}

// =============================================================================================
// gdb_index

/// One object of a `gdb_index` or `debug_names` variant: source in `testdata/options/<group>/`,
/// compiler, compile flags (after the harness's `-O1 -g0`).
type GdbObject = (&'static str, Compiler, &'static [&'static str]);

/// A `gdb_index` variant: the objects of the program (or of the library, for `shared`), the
/// driver flags of its link, the function gdb stops in and what the program prints.
struct GdbIndexVariant {
    name: &'static str,
    objects: &'static [GdbObject],
    flags: &'static [&'static str],
    /// The objects make `libgi.so` (`-shared`, with `flags`), used by `uselib.c`'s program
    /// (linked with `--gdb-index` too).
    shared: bool,
    breakpoint: &'static str,
    stdout: &'static str,
    /// The units are DWARF64: lld's CU list gives their length plus 4 (8 bytes short, which
    /// gdb aborts on), weld's their real size; the rest must be lld's.
    dwarf64: bool,
    /// lld must index fewer address ranges than in the same link without this flag.
    drops_ranges_of: Option<&'static str>,
    /// gdb reads the index (it ignores one without any name: no `-ggnu-pubnames`).
    gdb_uses_index: bool,
    /// The output's debug sections are compressed: lld's zlib (the C library's) compresses
    /// some small sections that weld's compressor (miniz) cannot make smaller, which weld then
    /// leaves uncompressed, so the `C` flag is left out of the header comparison.
    compressed_output: bool,
    /// The objects are first combined by `ld.lld-22 -r` into one object holding several units
    /// (and several name-table sets), which both linkers then link.
    partial_link: bool,
}

const GDB_C: &[&str] = &["-O0", "-g", "-ggnu-pubnames"];
const GDB_C_MIXED: &[GdbObject] = &[
    (
        "main.c",
        Compiler::Clang,
        &["-O0", "-g", "-ggnu-pubnames", "-gdwarf-5"],
    ),
    (
        "util.c",
        Compiler::Clang,
        &[
            "-O0",
            "-g",
            "-ggnu-pubnames",
            "-gdwarf-4",
            "-ffunction-sections",
        ],
    ),
];
const GDB_CXX: &[GdbObject] = &[
    (
        "shapes.cpp",
        Compiler::Clang,
        &["-O0", "-g", "-ggnu-pubnames", "-gdwarf-5"],
    ),
    (
        "report.cpp",
        Compiler::Clang,
        &["-O0", "-g", "-ggnu-pubnames", "-gdwarf-4"],
    ),
];
const GDB_C_STDOUT: &str = "gdb_index 1 42\n";
const GDB_CXX_STDOUT: &str = "area 12 sum 25 twice 2.5 report 40\n";

const GDB_INDEX_VARIANTS: &[GdbIndexVariant] = &[
    GdbIndexVariant {
        name: "c_dwarf4_and_5",
        objects: GDB_C_MIXED,
        flags: &["-Wl,--gdb-index"],
        shared: false,
        breakpoint: "trap",
        stdout: GDB_C_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "cxx",
        objects: GDB_CXX,
        flags: &["-Wl,--gdb-index"],
        shared: false,
        breakpoint: "geo::Shape::area",
        stdout: GDB_CXX_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "cxx_gcc",
        objects: &[
            ("shapes.cpp", Compiler::Gcc, GDB_C),
            (
                "report.cpp",
                Compiler::Gcc,
                &["-O0", "-g", "-ggnu-pubnames", "-gdwarf-4"],
            ),
        ],
        flags: &["-Wl,--gdb-index"],
        shared: false,
        breakpoint: "geo::Shape::area",
        stdout: GDB_CXX_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "cxx_icf",
        objects: GDB_CXX,
        flags: &["-Wl,--gdb-index", "-Wl,--icf=all"],
        shared: false,
        breakpoint: "report::add",
        stdout: GDB_CXX_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "without_pubnames",
        objects: &[
            ("main.c", Compiler::Clang, &["-O0", "-g"]),
            ("util.c", Compiler::Gcc, &["-O0", "-g"]),
        ],
        flags: &["-Wl,--gdb-index"],
        shared: false,
        breakpoint: "trap",
        stdout: GDB_C_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: false,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "split_dwarf",
        objects: &[
            (
                "main.c",
                Compiler::Clang,
                &["-O0", "-g", "-ggnu-pubnames", "-gsplit-dwarf"],
            ),
            (
                "util.c",
                Compiler::Gcc,
                &[
                    "-O0",
                    "-g",
                    "-ggnu-pubnames",
                    "-gdwarf-4",
                    "-gsplit-dwarf",
                    "-ffunction-sections",
                ],
            ),
        ],
        flags: &["-Wl,--gdb-index"],
        shared: false,
        breakpoint: "trap",
        stdout: GDB_C_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "dwarf64",
        objects: &[
            (
                "main.c",
                Compiler::Clang,
                &["-O0", "-g", "-ggnu-pubnames", "-gdwarf-5", "-gdwarf64"],
            ),
            (
                "util.c",
                Compiler::Gcc,
                &[
                    "-O0",
                    "-g",
                    "-ggnu-pubnames",
                    "-gdwarf-4",
                    "-gdwarf64",
                    "-ffunction-sections",
                ],
            ),
        ],
        flags: &["-Wl,--gdb-index"],
        shared: false,
        breakpoint: "trap",
        stdout: GDB_C_STDOUT,
        dwarf64: true,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "partial_link_input",
        objects: GDB_C_MIXED,
        flags: &["-Wl,--gdb-index"],
        shared: false,
        breakpoint: "scale",
        stdout: GDB_C_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: true,
    },
    GdbIndexVariant {
        name: "gc_sections",
        objects: GDB_C_MIXED,
        flags: &["-Wl,--gdb-index", "-Wl,--gc-sections"],
        shared: false,
        breakpoint: "trap",
        stdout: GDB_C_STDOUT,
        dwarf64: false,
        drops_ranges_of: Some("-Wl,--gc-sections"),
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "compress_output",
        objects: GDB_C_MIXED,
        flags: &["-Wl,--gdb-index", "-Wl,--compress-debug-sections=zlib"],
        shared: false,
        breakpoint: "trap",
        stdout: GDB_C_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: true,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "compressed_inputs",
        objects: &[
            (
                "main.c",
                Compiler::Clang,
                &["-O0", "-g", "-ggnu-pubnames", "-gz=zlib"],
            ),
            (
                "util.c",
                Compiler::Clang,
                &[
                    "-O0",
                    "-g",
                    "-ggnu-pubnames",
                    "-gz=zstd",
                    "-ffunction-sections",
                ],
            ),
        ],
        flags: &["-Wl,--gdb-index"],
        shared: false,
        breakpoint: "trap",
        stdout: GDB_C_STDOUT,
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
    GdbIndexVariant {
        name: "shared",
        objects: &[(
            "lib.c",
            Compiler::Clang,
            &["-O0", "-g", "-ggnu-pubnames", "-fPIC"],
        )],
        flags: &["-Wl,--gdb-index"],
        shared: true,
        breakpoint: "lib_add",
        stdout: "lib 6\n",
        dwarf64: false,
        drops_ranges_of: None,
        gdb_uses_index: true,
        compressed_output: false,
        partial_link: false,
    },
];

/// The objects of a `gdb_index` or `debug_names` variant, compiled from `testdata/options/GROUP/`;
/// with `partial_link`, combined into one object by `ld.lld-22 -r` first (several indexes, or
/// several units' sections, in one input).
fn debug_variant_objects(
    dir: &Path,
    group: &str,
    objects: &[(&str, Compiler, &[&str])],
    partial_link: bool,
) -> Result<Vec<String>, String> {
    let objs: Vec<String> = objects
        .iter()
        .map(|&(src, c, flags)| obj(group, src, c, flags).map(|o| arg(&o)))
        .collect::<Result<_, _>>()?;
    if !partial_link {
        return Ok(objs);
    }
    let combined = dir.join("combined.o");
    let mut cmd = Command::new(tools::find(tools::LLD)?);
    cmd.arg("-r").args(&objs).arg("-o").arg(&combined);
    reference(
        run::run(&mut cmd, run::LINK_TIMEOUT)?
            .ok("ld.lld-22 -r")
            .map(|_| ()),
    )?;
    Ok(vec![arg(&combined)])
}

/// `--gdb-index` on a variant: lld's output must have a `.gdb_index` gdb uses (`maint print
/// objfiles` names it) and stop in the variant's function; weld's index must decode
/// (`llvm-dwarfdump-22 --gdb-index`) as lld's and be byte for byte lld's (DWARF64: but for the
/// CU lengths, which must be the units' real sizes), the non-allocated section headers must be
/// lld's (no `.debug_gnu_pub*` left), gdb must see the same and print no warning lld's gdb does
/// not, and the program must run as lld's.
fn gdb_index(dir: &Path, v: &GdbIndexVariant) -> Check {
    let objs = debug_variant_objects(dir, "gdb_index", v.objects, v.partial_link)?;
    let (lld, weld) = sides(dir)?;
    let c = Compiler::Clang;
    // (the file gdb and the index checks look at, every file with an index).
    let build = |s: &Side, flags: &[&str], out: &str| -> Result<(PathBuf, Vec<PathBuf>), String> {
        let mut a = objs.clone();
        a.extend(strings(flags));
        if !v.shared {
            let exe = s.link(c, false, &a, out)?;
            return Ok((exe.clone(), vec![exe]));
        }
        a.push("-shared".into());
        let lib = s.link(c, false, &a, "libgi.so")?;
        let main = obj("gdb_index", "uselib.c", c, GDB_C)?;
        let args = strings(&[
            &arg(&main),
            "-Wl,--gdb-index",
            "-L.",
            "-lgi",
            "-Wl,-rpath,$ORIGIN",
        ]);
        let exe = s.link(c, false, &args, out)?;
        Ok((exe.clone(), vec![lib, exe]))
    };
    let (l_exe, l_files) = reference(build(&lld, v.flags, "a.out"))?;
    let l_run = lld.run(&l_exe)?;
    expect_lld_run(&l_run, 0, v.stdout)?;
    let uses_index = |view: &[String]| view.iter().any(|l| l.starts_with(".gdb_index: version 7"));
    let stops = |view: &[String]| {
        view.iter()
            .any(|l| l.starts_with(&format!("Breakpoint 1 {}", v.breakpoint)))
    };
    // lld's DWARF64 CU list makes gdb abort: that variant checks gdb on weld's output alone.
    let l_gdb = if v.dwarf64 {
        (Vec::new(), Vec::new())
    } else {
        gdb_index_view(&l_exe, v.breakpoint)?
    };
    if !v.dwarf64 {
        // With a library, gdb reads its index too (one line per objfile, twice for the program).
        let indexes = l_gdb
            .0
            .iter()
            .filter(|l| l.starts_with(".gdb_index"))
            .count();
        expect_lld(
            uses_index(&l_gdb.0) == v.gdb_uses_index
                && stops(&l_gdb.0)
                && (!v.shared || indexes >= 3),
            || {
                format!(
                    "gdb should {}use ld.lld-22's index and stop in {}: {l_gdb:#?}",
                    if v.gdb_uses_index { "" } else { "not " },
                    v.breakpoint
                )
            },
        )?;
    }
    if let Some(flag) = v.drops_ranges_of {
        let without: Vec<&str> = v.flags.iter().copied().filter(|f| *f != flag).collect();
        let (l_plain, _) = reference(build(&lld, &without, "plain.out"))?;
        let count = |f: &Path| -> Result<usize, String> {
            Ok(gdb_index_dump(f)?
                .iter()
                .filter(|l| l.contains("Low/High address"))
                .count())
        };
        let (with, plain) = (count(&l_exe)?, count(&l_plain)?);
        expect_lld(with < plain, || {
            format!(
                "ld.lld-22 should index fewer ranges with {flag} ({with}) than without ({plain})"
            )
        })?;
    }

    let (w_exe, w_files) = build(&weld, v.flags, "a.out")?;
    let mut p = Problems::default();
    for (w, l) in w_files.iter().zip(&l_files) {
        let name = w
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let (w_dump, l_dump) = (gdb_index_dump(w)?, gdb_index_dump(l)?);
        expect_lld(l_dump.iter().any(|l| l.contains("Version = 7")), || {
            format!("ld.lld-22's {name} should have a .gdb_index: {l_dump:#?}")
        })?;
        if v.dwarf64 {
            p.check(same_lines(
                &format!("{name}'s .gdb_index decoded (CU lengths aside)"),
                &without_cu_lengths(&w_dump),
                &without_cu_lengths(&l_dump),
            ));
            p.check(cu_lengths_are_unit_sizes(w, &w_dump));
        } else {
            p.check(same_lines(
                &format!("{name}'s .gdb_index decoded"),
                &w_dump,
                &l_dump,
            ));
            p.check(same_lines(
                &format!("{name}'s .gdb_index bytes"),
                &section_bytes(w, ".gdb_index")?,
                &section_bytes(l, ".gdb_index")?,
            ));
        }
        let headers = |f: &Path| -> Result<Vec<String>, String> {
            let h = non_alloc_headers(f)?;
            if !v.compressed_output {
                return Ok(h);
            }
            let uncompressed = |l: &String| {
                let mut f: Vec<String> = l.split(' ').map(str::to_string).collect();
                if let Some(flags) = f.get_mut(2) {
                    *flags = match flags.replace('C', "") {
                        f if f.is_empty() => "-".to_string(),
                        f => f,
                    };
                }
                f.join(" ")
            };
            Ok(h.iter().map(uncompressed).collect())
        };
        p.check(same_lines(
            &format!("{name}'s non-allocated section headers (name type flags align entsize)"),
            &headers(w)?,
            &headers(l)?,
        ));
        if v.compressed_output
            && !non_alloc_headers(w)?
                .iter()
                .any(|h| h.starts_with(".debug_info ") && h.contains(" C "))
        {
            p.0.push(format!("weld should have compressed {name}'s .debug_info"));
        }
    }
    let w_gdb = gdb_index_view(&w_exe, v.breakpoint)?;
    if v.dwarf64 {
        // The same lines as gdb reading weld's link without an index, and the index in use.
        let mut flags: Vec<&str> = v.flags.to_vec();
        flags.retain(|f| *f != "-Wl,--gdb-index");
        let (w_plain, _) = build(&weld, &flags, "noindex.out")?;
        let plain = gdb_index_view(&w_plain, v.breakpoint)?;
        if !uses_index(&w_gdb.0) || !stops(&w_gdb.0) {
            p.0.push(format!(
                "gdb should use weld's index and stop in {}: {w_gdb:#?}",
                v.breakpoint
            ));
        }
        let without_index = |view: &[String]| -> Vec<String> {
            view.iter()
                .filter(|l| !l.starts_with(".gdb_index"))
                .cloned()
                .collect()
        };
        p.check(same_lines(
            "gdb's view against weld's link without an index",
            &without_index(&w_gdb.0),
            &plain.0,
        ));
    } else {
        p.check(same_lines("gdb's view", &w_gdb.0, &l_gdb.0));
    }
    let new_warnings: Vec<&String> = w_gdb.1.iter().filter(|w| !l_gdb.1.contains(w)).collect();
    if !new_warnings.is_empty() {
        p.0.push(format!(
            "gdb warns about weld's output only: {new_warnings:#?}"
        ));
    }
    p.check(same_run(&weld.run(&w_exe)?, &l_run));
    p.done()
}

/// `llvm-dwarfdump-22 --gdb-index`'s lines (the file name line dropped).
fn gdb_index_dump(file: &Path) -> Result<Vec<String>, String> {
    dwarfdump_lines(file, "--gdb-index")
}

/// `llvm-dwarfdump-22 OPTION file` without the line naming the file and its format.
fn dwarfdump_lines(file: &Path, option: &str) -> Result<Vec<String>, String> {
    let mut cmd = Command::new(tools::find("llvm-dwarfdump-22")?);
    cmd.arg(option).arg(file);
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok(&format!("llvm-dwarfdump-22 {option}"))?;
    Ok(o.stdout_str()
        .lines()
        .filter(|l| !l.contains("file format"))
        .map(str::to_string)
        .collect())
}

/// The decoded index with the CU list's lengths blanked.
fn without_cu_lengths(dump: &[String]) -> Vec<String> {
    dump.iter()
        .map(|l| match l.split_once(", Length = ") {
            Some((head, _)) if l.contains("Offset = ") => format!("{head}, Length = LEN"),
            _ => l.clone(),
        })
        .collect()
}

/// Every CU-list entry of `file`'s index gives the whole size of the unit at its offset, as
/// `llvm-dwarfdump-22 --debug-info` reads the unit headers (length field plus 4 bytes, or 12
/// for DWARF64).
fn cu_lengths_are_unit_sizes(file: &Path, dump: &[String]) -> Check {
    let mut cmd = Command::new(tools::find("llvm-dwarfdump-22")?);
    cmd.arg("--debug-info").arg(file);
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?.ok("llvm-dwarfdump-22 --debug-info")?;
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    // "0x00000000: Compile Unit: length = 0x00000099, format = DWARF64, version = ..."
    let units: Vec<(u64, u64)> = o
        .stdout_str()
        .lines()
        .filter(|l| l.contains(" Unit: length = "))
        .filter_map(|l| {
            let offset = hex(l.split(':').next()?)?;
            let length = hex(l.split("length = ").nth(1)?.split(',').next()?)?;
            let header = if l.contains("format = DWARF64") {
                12
            } else {
                4
            };
            Some((offset, length + header))
        })
        .collect();
    // "    0: Offset = 0x0, Length = 0xa1"
    let listed: Vec<(u64, u64)> = dump
        .iter()
        .filter_map(|l| {
            let (_, rest) = l.split_once("Offset = ")?;
            let (off, len) = rest.split_once(", Length = ")?;
            Some((hex(off)?, hex(len.trim())?))
        })
        .collect();
    if !units.is_empty() && listed == units {
        Ok(())
    } else {
        Err(format!(
            "the CU list should give each unit's offset and whole size {units:x?}, but gives {listed:x?}"
        ))
    }
}

/// A line of gdb's output as words, addresses blanked (they differ between linkers).
fn gdb_words(line: &str) -> String {
    line.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')' || c == '=')
        .filter(|w| !w.is_empty())
        .map(|w| if w.starts_with("0x") { "ADDR" } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What gdb makes of `file`: `maint print objfiles`' index lines (before the run and once the
/// libraries are loaded), a breakpoint on `function` hit and the backtrace there (addresses
/// blanked), and separately every warning gdb printed.
fn gdb_index_view(file: &Path, function: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let mut cmd = Command::new(tools::find("gdb")?);
    // Anything gdb leaves (a core file if it aborts) stays with the trial's outputs.
    if let Some(dir) = file.parent() {
        cmd.current_dir(dir);
    }
    cmd.env("DEBUGINFOD_URLS", "")
        .args(["-nx", "-batch", "-ex", "maint print objfiles"])
        .args([
            "-ex",
            &format!("break {function}"),
            "-ex",
            "run",
            "-ex",
            "bt",
        ])
        // Again once the program runs: the libraries it loaded are objfiles now.
        .args(["-ex", "maint print objfiles"])
        .arg(file);
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?;
    let lines = o
        .stdout_str()
        .lines()
        .filter(|l| {
            l.starts_with(".gdb_index") || l.starts_with("Breakpoint") || l.starts_with('#')
        })
        .map(gdb_words)
        .collect();
    let warnings = o
        .stdout_str()
        .lines()
        .chain(o.stderr_str().lines())
        .filter(|l| l.to_ascii_lowercase().contains("warning"))
        .map(str::to_string)
        .collect();
    Ok((lines, warnings))
}

/// `gdb_index` variants linking directly: (variant, linker arguments before the objects, the
/// objects' sources, compiled `-O0 -g`, plus `-ggnu-pubnames` for `main.c`).
const GDB_INDEX_DIRECT: &[(&str, &[&str], &[&str])] = &[
    ("relocatable", &["-r", "--gdb-index"], &["main.c"]),
    (
        "relocatable_index_first",
        &["--gdb-index", "-r"],
        &["main.c"],
    ),
    (
        "no_gdb_index_last",
        &["--gdb-index", "--no-gdb-index"],
        &["main.c"],
    ),
    (
        "bad_name_tables",
        &["--gdb-index"],
        &["bad_pubnames.c", "bad_pubtypes.c"],
    ),
    (
        "bad_name_tables_fatal",
        &["--gdb-index", "--fatal-warnings"],
        &["bad_pubnames.c", "bad_pubtypes.c"],
    ),
];

/// The linker called directly: `-r` with `--gdb-index` must fail as lld fails (exit code,
/// message, no output); `--no-gdb-index` after `--gdb-index` links without an index and keeps
/// `.debug_gnu_pubnames` (non-allocated section headers); malformed name tables get lld's
/// warnings (errors, and no output, under `--fatal-warnings`) and the same index.
fn gdb_index_direct(dir: &Path, flags: &[&str], sources: &[&str]) -> Check {
    let mut args = strings(flags);
    for src in sources {
        let cflags: &[&str] = if *src == "main.c" {
            GDB_C
        } else {
            &["-O0", "-g"]
        };
        args.push(arg(&obj("gdb_index", src, Compiler::Clang, cflags)?));
    }
    let (lld, weld) = sides(dir)?;
    args.push("--unresolved-symbols=ignore-all".to_string());
    let lo = link_directly(dir, &lld, &args)?;
    let links = !flags.contains(&"-r") && !flags.contains(&"--fatal-warnings");
    expect_lld(lo.code == Some(if links { 0 } else { 1 }), || {
        format!("ld.lld-22's exit code for {flags:?}\n{}", lo.report())
    })?;
    let bad_tables = sources.contains(&"bad_pubnames.c");
    expect_lld(
        !bad_tables || lo.stderr_str().contains("name lookup table at offset"),
        || {
            format!(
                "ld.lld-22 should warn about the name tables\n{}",
                lo.report()
            )
        },
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    let mut p = if bad_tables {
        same_outcome_any_order(&wo, &lo, &weld, &lld)?
    } else {
        same_outcome(&wo, &lo, &weld, &lld)?
    };
    if links && bad_tables {
        let (l_out, w_out) = (lld.dir.join("a.out"), weld.dir.join("a.out"));
        p.check(same_lines(
            "the .gdb_index bytes",
            &section_bytes(&w_out, ".gdb_index")?,
            &section_bytes(&l_out, ".gdb_index")?,
        ));
    } else if links {
        let (l_out, w_out) = (lld.dir.join("a.out"), weld.dir.join("a.out"));
        let l_headers = non_alloc_headers(&l_out)?;
        expect_lld(
            l_headers
                .iter()
                .any(|h| h.starts_with(".debug_gnu_pubnames "))
                && !l_headers.iter().any(|h| h.starts_with(".gdb_index ")),
            || format!("ld.lld-22 should write no index and keep the pubnames: {l_headers:#?}"),
        )?;
        p.check(same_lines(
            "the non-allocated section headers",
            &non_alloc_headers(&w_out)?,
            &l_headers,
        ));
    }
    p.done()
}

/// `same_outcome` for diagnostics lld prints from several threads at once (its order varies
/// from run to run; weld's is the files' order): the same exit status, the same files left,
/// the same diagnostic lines (program name replaced) in any order.
fn same_outcome_any_order(
    wo: &Output,
    lo: &Output,
    weld: &Side,
    lld: &Side,
) -> Result<Problems, String> {
    let mut p = Problems::default();
    if wo.code != lo.code {
        p.0.push(format!(
            "weld should exit as ld.lld-22 does ({}), but: {}",
            lo.status_text(),
            wo.status_text()
        ));
    }
    let lld_prefix = format!("{}: ", tools::LLD);
    let weld_name = tools::diag_name(&weld.linker.path);
    let mut want: Vec<String> = lo
        .stderr_str()
        .lines()
        .map(|l| match l.strip_prefix(&lld_prefix) {
            Some(rest) => format!("{weld_name}: {rest}"),
            None => l.to_string(),
        })
        .collect();
    let mut got: Vec<String> = wo.stderr_str().lines().map(str::to_string).collect();
    want.sort();
    got.sort();
    p.check(same_lines("the diagnostics (sorted)", &got, &want));
    let (w_files, l_files) = (listing(&weld.dir)?, listing(&lld.dir)?);
    if w_files != l_files {
        p.0.push(format!(
            "weld left {w_files:?} in its directory, ld.lld-22 {l_files:?}"
        ));
    }
    Ok(p)
}

// =============================================================================================
// debug_names

/// A `debug_names` variant: the objects, the driver flags of the link (`--debug-names` added),
/// what gdb is asked about, what the program prints.
struct DebugNamesVariant {
    name: &'static str,
    objects: &'static [GdbObject],
    cxx: bool,
    flags: &'static [&'static str],
    /// Linked `-shared`: nothing is run and gdb only reads the file.
    shared: bool,
    /// The function gdb lists (`info functions`) and stops in.
    function: &'static str,
    stdout: &'static str,
    /// Some inputs have type units: lld warns for each such file, and `--verify` finds the
    /// entries' type unit indexes pointing nowhere (lld does not merge the TU lists yet).
    /// Otherwise lld's index must verify.
    type_units: bool,
    /// The output's debug sections are compressed: the index is compared decompressed.
    compressed: bool,
    /// The objects are first combined by `ld.lld-22 -r` into one object holding two name
    /// indexes (lld concatenates them), which both linkers then link.
    partial_link: bool,
}

const NAMES_C_FLAGS: &[&str] = &[
    "-O0",
    "-g",
    "-gdwarf-5",
    "-gpubnames",
    "-ffunction-sections",
];
const NAMES_C_PIC_FLAGS: &[&str] = &[
    "-O0",
    "-g",
    "-gdwarf-5",
    "-gpubnames",
    "-ffunction-sections",
    "-fPIC",
];
const NAMES_C_SPLIT_FLAGS: &[&str] = &[
    "-O0",
    "-g",
    "-gdwarf-5",
    "-gpubnames",
    "-ffunction-sections",
    "-gsplit-dwarf",
];
const NAMES_C: &[GdbObject] = &[
    ("main.c", Compiler::Clang, NAMES_C_FLAGS),
    ("util.c", Compiler::Clang, NAMES_C_FLAGS),
];
const NAMES_CXX_TU_FLAGS: &[&str] = &[
    "-O0",
    "-g",
    "-gdwarf-5",
    "-gpubnames",
    "-fdebug-types-section",
];
const NAMES_CXX_FLAGS: &[&str] = &["-O0", "-g", "-gdwarf-5", "-gpubnames"];
const NAMES_C_STDOUT: &str = "debug_names 16 58 8 1\n";
const NAMES_CXX_STDOUT: &str = "area 12 3 report 40\n";

const fn names_c(name: &'static str, flags: &'static [&'static str]) -> DebugNamesVariant {
    DebugNamesVariant {
        name,
        objects: NAMES_C,
        cxx: false,
        flags,
        shared: false,
        function: "local_step",
        stdout: NAMES_C_STDOUT,
        type_units: false,
        compressed: false,
        partial_link: false,
    }
}

const DEBUG_NAMES_VARIANTS: &[DebugNamesVariant] = &[
    names_c("c", &[]),
    names_c("c_gc_sections", &["-Wl,--gc-sections"]),
    names_c("c_icf", &["-Wl,--icf=all"]),
    DebugNamesVariant {
        compressed: true,
        ..names_c("c_compressed", &["-Wl,--compress-debug-sections=zlib"])
    },
    DebugNamesVariant {
        shared: true,
        objects: &[
            ("main.c", Compiler::Clang, NAMES_C_PIC_FLAGS),
            ("util.c", Compiler::Clang, NAMES_C_PIC_FLAGS),
        ],
        ..names_c("c_shared", &["-shared"])
    },
    DebugNamesVariant {
        objects: &[
            ("main.c", Compiler::Clang, NAMES_C_SPLIT_FLAGS),
            ("util.c", Compiler::Clang, NAMES_C_FLAGS),
        ],
        ..names_c("c_split_dwarf", &[])
    },
    DebugNamesVariant {
        partial_link: true,
        ..names_c("c_two_indexes_in_one_object", &[])
    },
    DebugNamesVariant {
        name: "cxx",
        objects: &[
            ("shapes.cpp", Compiler::Clang, NAMES_CXX_FLAGS),
            ("report.cpp", Compiler::Clang, NAMES_CXX_FLAGS),
        ],
        cxx: true,
        flags: &[],
        shared: false,
        function: "area",
        stdout: NAMES_CXX_STDOUT,
        type_units: false,
        compressed: false,
        partial_link: false,
    },
    DebugNamesVariant {
        name: "cxx_stl",
        objects: &[
            ("stl_a.cpp", Compiler::Clang, NAMES_CXX_FLAGS),
            ("stl_b.cpp", Compiler::Clang, NAMES_CXX_FLAGS),
        ],
        cxx: true,
        flags: &[],
        shared: false,
        function: "inventory::tally",
        stdout: "bolt=7 nut=5 \n",
        type_units: false,
        compressed: false,
        partial_link: false,
    },
    DebugNamesVariant {
        name: "cxx_type_units",
        objects: &[
            ("shapes.cpp", Compiler::Clang, NAMES_CXX_TU_FLAGS),
            ("report.cpp", Compiler::Clang, NAMES_CXX_TU_FLAGS),
        ],
        cxx: true,
        flags: &[],
        shared: false,
        function: "area",
        stdout: NAMES_CXX_STDOUT,
        type_units: true,
        compressed: false,
        partial_link: false,
    },
];

/// `--debug-names` on a variant: lld's output must have one merged name index over every unit;
/// weld's must decode (`llvm-dwarfdump-22 --debug-names`) as lld's and be byte for byte lld's
/// (the rest of the debug layout, `.debug_info` and the merged `.debug_str` the offsets point
/// into, being lld's too), with lld's non-allocated section headers (the inputs' indexes gone),
/// the same `--verify` verdict, the same warnings, the same gdb view, and the same run.
fn debug_names(dir: &Path, v: &DebugNamesVariant) -> Check {
    let objs = debug_variant_objects(dir, "debug_names", v.objects, v.partial_link)?;
    let (lld, weld) = sides(dir)?;
    let out = if v.shared { "libdn.so" } else { "a.out" };
    let mut args = objs.clone();
    args.push("-Wl,--debug-names".into());
    args.extend(strings(v.flags));
    let link = |s: &Side| s.link_in(None, Compiler::Clang, v.cxx, &args, out);
    let (l_out, l_link) = reference(link(&lld))?;
    let l_dump = debug_names_dump(&l_out)?;
    let units = v.objects.len();
    expect_lld(
        l_dump
            .iter()
            .filter(|l| l.starts_with("Name Index @"))
            .count()
            == 1
            && l_dump.contains(&format!("    CU count: {units}")),
        || format!("ld.lld-22 should write one name index over {units} units: {l_dump:#?}"),
    )?;
    let warnings = |o: &Output| -> Vec<String> {
        o.stderr_str()
            .lines()
            .filter_map(|l| l.split_once("warning: ").map(|(_, w)| w.to_string()))
            .collect()
    };
    let l_warnings = warnings(&l_link);
    expect_lld(
        l_warnings
            .iter()
            .any(|w| w.ends_with("type units are not implemented"))
            == v.type_units,
        || format!("ld.lld-22's warnings about type units: {l_warnings:#?}"),
    )?;
    let (_, l_verify) = elf::dwarf_verify(&l_out)?;
    let l_names_errors = names_verify_errors(&l_verify);
    expect_lld(l_names_errors.is_empty() != v.type_units, || {
        format!(
            "llvm-dwarfdump-22 --verify's .debug_names findings on ld.lld-22's output:\n{l_verify}"
        )
    })?;
    let l_gdb = debug_names_gdb_view(&l_out, v.function, !v.shared)?;
    expect_lld(l_gdb.iter().any(|l| l == ".debug_names: exists"), || {
        format!("gdb should take ld.lld-22's .debug_names as the index: {l_gdb:#?}")
    })?;
    let l_run = if v.shared {
        None
    } else {
        let o = lld.run(&l_out)?;
        expect_lld_run(&o, 0, v.stdout)?;
        Some(o)
    };

    let (w_out, w_link) = link(&weld)?;
    let mut p = Problems::default();
    p.check(same_lines(
        "the .debug_names decoded",
        &debug_names_dump(&w_out)?,
        &l_dump,
    ));
    // Compressed outputs: compared decompressed, as zlib and weld's compressor may differ.
    let bytes = |f: &Path| -> Result<Vec<String>, String> {
        if !v.compressed {
            return section_bytes(f, ".debug_names");
        }
        let text = dynelf::readelf(&["-z", "-x", ".debug_names"], f)?;
        Ok(text
            .lines()
            .filter(|l| l.trim_start().starts_with("0x"))
            .map(|l| l.split_whitespace().skip(1).take(4).collect())
            .collect())
    };
    p.check(same_lines(
        "the .debug_names bytes",
        &bytes(&w_out)?,
        &bytes(&l_out)?,
    ));
    let headers = |f: &Path| -> Result<Vec<String>, String> {
        // lld's zlib compresses some small sections miniz cannot shrink (see `gdb_index`).
        let uncompressed = |h: String| -> String {
            let mut f: Vec<String> = h.split(' ').map(str::to_string).collect();
            if let Some(flags) = f.get_mut(2) {
                *flags = match flags.replace('C', "") {
                    f if f.is_empty() => "-".to_string(),
                    f => f,
                };
            }
            f.join(" ")
        };
        Ok(non_alloc_headers(f)?
            .into_iter()
            .map(|h| if v.compressed { uncompressed(h) } else { h })
            .collect())
    };
    p.check(same_lines(
        "the non-allocated section headers (name type flags align entsize)",
        &headers(&w_out)?,
        &headers(&l_out)?,
    ));
    p.check(same_lines(
        "the link's warnings",
        &warnings(&w_link),
        &l_warnings,
    ));
    // Every finding of the verifier (those about other sections too, such as the tombstoned
    // ranges of discarded COMDAT copies in C++ units) must be lld's: none about the index
    // unless the inputs have type units.
    let (_, w_verify) = elf::dwarf_verify(&w_out)?;
    let errors = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.trim_start().starts_with("error:"))
            .map(str::to_string)
            .collect()
    };
    p.check(same_lines(
        "llvm-dwarfdump-22 --verify's errors",
        &errors(&w_verify),
        &errors(&l_verify),
    ));
    p.check(same_lines(
        "gdb's view",
        &debug_names_gdb_view(&w_out, v.function, !v.shared)?,
        &l_gdb,
    ));
    if let Some(l_run) = l_run {
        p.check(same_run(&weld.run(&w_out)?, &l_run));
    }
    p.done()
}

/// The errors `llvm-dwarfdump-22 --verify` reports while it checks `.debug_names` (before its
/// summary of all findings).
fn names_verify_errors(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("Verifying .debug_names"))
        .take_while(|l| !l.starts_with("error: Aggregated error counts"))
        .filter(|l| l.trim_start().starts_with("error:"))
        .map(str::to_string)
        .collect()
}

/// `llvm-dwarfdump-22 --debug-names`'s lines (the file name line dropped).
fn debug_names_dump(file: &Path) -> Result<Vec<String>, String> {
    dwarfdump_lines(file, "--debug-names")
}

/// What gdb makes of `file`: whether it takes `.debug_names` as its index (`maint print
/// objfiles`), the functions named `function` it lists, and (`run`) the breakpoint on it and
/// the backtrace there, addresses blanked. gdb 13 takes the merged index but finds no name
/// through LLVM 22's entries, so it answers from the symbol table alone (with lld's output as
/// with weld's): what is checked is that both outputs get the same answers.
fn debug_names_gdb_view(file: &Path, function: &str, run: bool) -> Result<Vec<String>, String> {
    let mut cmd = Command::new(tools::find("gdb")?);
    if let Some(dir) = file.parent() {
        cmd.current_dir(dir);
    }
    cmd.env("DEBUGINFOD_URLS", "")
        .args(["-nx", "-batch", "-ex", "maint print objfiles"])
        .args(["-ex", &format!("info functions ^{function}$")]);
    if run {
        cmd.args([
            "-ex",
            &format!("break {function}"),
            "-ex",
            "run",
            "-ex",
            "bt",
        ]);
    }
    cmd.arg(file);
    let o = run::run(&mut cmd, run::TOOL_TIMEOUT)?;
    Ok(o.stdout_str()
        .lines()
        .filter(|l| {
            !l.trim().is_empty()
                && !l.starts_with("Object file ")
                && !l.contains("process ")
                && !l.contains("libthread_db")
        })
        .map(gdb_words)
        .map(|l| {
            if l == ".debug_names: exists" {
                l
            } else {
                l.replace("exists", "EXISTS")
            }
        })
        .collect())
}

/// `debug_names` trials linking directly `main.c` and `util.c` (C flags of the variants) with
/// these arguments before the objects.
const DEBUG_NAMES_DIRECT: &[(&str, &[&str])] = &[
    ("concatenated_without_option", &[]),
    (
        "no_debug_names_last",
        &["--debug-names", "--no-debug-names"],
    ),
    ("relocatable", &["-r", "--debug-names"]),
];

/// The linker called directly: without `--debug-names` (or with `--no-debug-names` last) the
/// inputs' indexes are concatenated as lld concatenates them (two name indexes, the same bytes
/// and headers); `-r --debug-names` fails as lld fails (exit code, message, no output).
fn debug_names_direct(dir: &Path, flags: &[&str]) -> Check {
    let mut args = strings(flags);
    for src in ["main.c", "util.c"] {
        args.push(arg(&obj(
            "debug_names",
            src,
            Compiler::Clang,
            NAMES_C_FLAGS,
        )?));
    }
    args.push("--unresolved-symbols=ignore-all".to_string());
    let (lld, weld) = sides(dir)?;
    let lo = link_directly(dir, &lld, &args)?;
    let links = !flags.contains(&"-r");
    expect_lld(lo.code == Some(if links { 0 } else { 1 }), || {
        format!("ld.lld-22's exit code for {flags:?}\n{}", lo.report())
    })?;
    let wo = link_directly(dir, &weld, &args)?;
    let mut p = same_outcome(&wo, &lo, &weld, &lld)?;
    if links {
        let (l_out, w_out) = (lld.dir.join("a.out"), weld.dir.join("a.out"));
        let l_dump = debug_names_dump(&l_out)?;
        expect_lld(
            l_dump
                .iter()
                .filter(|l| l.starts_with("Name Index @"))
                .count()
                == 2,
            || format!("ld.lld-22 should keep both objects' name indexes: {l_dump:#?}"),
        )?;
        p.check(same_lines(
            "the .debug_names decoded",
            &debug_names_dump(&w_out)?,
            &l_dump,
        ));
        p.check(same_lines(
            "the .debug_names bytes",
            &section_bytes(&w_out, ".debug_names")?,
            &section_bytes(&l_out, ".debug_names")?,
        ));
        p.check(same_lines(
            "the non-allocated section headers",
            &non_alloc_headers(&w_out)?,
            &non_alloc_headers(&l_out)?,
        ));
    }
    p.done()
}

/// Objects with type units linked with `--debug-names --fatal-warnings`: lld's "type units are
/// not implemented" warnings become errors (one per file, in file order), and no output.
fn debug_names_type_units_fatal(dir: &Path) -> Check {
    let mut args = strings(&[
        "--debug-names",
        "--fatal-warnings",
        "--unresolved-symbols=ignore-all",
    ]);
    for src in ["shapes.cpp", "report.cpp"] {
        args.push(arg(&obj(
            "debug_names",
            src,
            Compiler::Clang,
            NAMES_CXX_TU_FLAGS,
        )?));
    }
    let (lld, weld) = sides(dir)?;
    let lo = link_directly(dir, &lld, &args)?;
    expect_lld(
        lo.code == Some(1)
            && lo
                .stderr_str()
                .lines()
                .filter(|l| l.ends_with("(.debug_names): type units are not implemented"))
                .count()
                == 2,
        || format!("ld.lld-22 should fail on the type units\n{}", lo.report()),
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// How a corruption trial changes `main.o`'s `.debug_names` (clang's single-unit index:
/// header, CU list, buckets, hashes, string and entry offsets, abbreviations, entry pool).
#[derive(Clone, Copy)]
enum NamesPatch {
    /// The 16-bit field at this offset of the header.
    Header16(usize, u16),
    /// The 32-bit field at this offset of the header.
    Header32(usize, u32),
    /// This byte of the first abbreviation (0: code, 1: tag, 2/3: first attribute's index and
    /// form, 4/5: second attribute's).
    Abbrev(usize, u8),
    /// The first byte of the entry pool (an abbreviation code).
    FirstEntry(u8),
    /// The first name's entry offset.
    FirstEntryOffset(u32),
    /// The byte this far before the end of the section.
    FromEnd(usize, u8),
}

/// (trial, corruption, lld's message after `file:(.debug_names): `, or none when lld links).
const DEBUG_NAMES_CORRUPT: &[(&str, NamesPatch, Option<&str>)] = &[
    // The last entry list's terminator made 0x80, which with the padding after it reads as a
    // padded LEB128 0: lld reads an entry of code 0 without attributes and links.
    (
        "padded_zero_abbrev_code",
        NamesPatch::FromEnd(4, 0x80),
        None,
    ),
    (
        "bad_version",
        NamesPatch::Header16(4, 4),
        Some("unsupported version: 4"),
    ),
    (
        "reserved_unit_length",
        NamesPatch::Header32(0, 0xffff_fff5),
        Some("parsing .debug_names header at 0x0: unsupported reserved unit length of value 0xfffffff5"),
    ),
    (
        "abbrev_table_too_big",
        NamesPatch::Header32(28, 0x00ff_ffff),
        Some("Section too small: cannot read abbreviations."),
    ),
    (
        "augmentation_too_big",
        NamesPatch::Header32(32, 0x0010_0000),
        Some("parsing .debug_names header at 0x0: cannot read header augmentation"),
    ),
    (
        "unknown_abbrev_code",
        NamesPatch::FirstEntry(0x7f),
        Some("abbrev code not found in abbrev table: 127"),
    ),
    (
        "unknown_form",
        NamesPatch::Abbrev(3, 0x0f),
        Some("unrecognized form encoding 15 in abbrev table"),
    ),
    (
        "bad_parent_form",
        NamesPatch::Abbrev(5, 0x0b),
        Some("invalid form for DW_IDX_parent"),
    ),
    (
        "entry_out_of_bounds",
        NamesPatch::FirstEntryOffset(0x00ff_ffff),
        Some("index entry is out of bounds"),
    ),
];

/// A copy of `main.c`'s object with its `.debug_names` corrupted by `patch`, linked with
/// `util.c`'s and `--debug-names`: lld must fail with `message` (exit code 1, no output), and
/// weld exactly as lld; without a message lld must link, and weld's index must be lld's.
fn debug_names_corrupt(dir: &Path, patch: NamesPatch, message: Option<&str>) -> Check {
    let main = obj("debug_names", "main.c", Compiler::Clang, NAMES_C_FLAGS)?;
    let util = obj("debug_names", "util.c", Compiler::Clang, NAMES_C_FLAGS)?;
    let mut bytes = std::fs::read(&main).map_err(|e| format!("{}: {e}", main.display()))?;
    let (start, size) = elf_section(&bytes, ".debug_names")?;
    let names = bytes
        .get_mut(start..start + size)
        .ok_or("main.o's .debug_names is out of the file")?;
    patch_debug_names(names, patch)?;
    let bad = dir.join("main.o");
    paths::write(&bad, &bytes)?;
    let args = strings(&[
        "--debug-names",
        "--unresolved-symbols=ignore-all",
        &arg(&bad),
        &arg(&util),
    ]);
    let (lld, weld) = sides(dir)?;
    let lo = link_directly(dir, &lld, &args)?;
    let Some(message) = message else {
        expect_lld(lo.code == Some(0), || {
            format!("ld.lld-22 should link\n{}", lo.report())
        })?;
        let wo = link_directly(dir, &weld, &args)?;
        let mut p = same_outcome(&wo, &lo, &weld, &lld)?;
        let (l_out, w_out) = (lld.dir.join("a.out"), weld.dir.join("a.out"));
        p.check(same_lines(
            "the .debug_names bytes",
            &section_bytes(&w_out, ".debug_names")?,
            &section_bytes(&l_out, ".debug_names")?,
        ));
        return p.done();
    };
    let want = format!("{}:(.debug_names): {message}", arg(&bad));
    expect_lld(
        lo.code == Some(1) && lo.stderr_str().lines().any(|l| l.ends_with(&want)),
        || format!("ld.lld-22 should fail with {want:?}\n{}", lo.report()),
    )?;
    let wo = link_directly(dir, &weld, &args)?;
    same_outcome(&wo, &lo, &weld, &lld)?.done()
}

/// The file offset and size of the section named `name` of the ELF64 little-endian `file`.
fn elf_section(file: &[u8], name: &str) -> Result<(usize, usize), String> {
    let u16_at = |o: usize| -> Result<usize, String> {
        let b = file.get(o..o + 2).ok_or("truncated ELF")?;
        Ok(usize::from(u16::from_le_bytes([b[0], b[1]])))
    };
    let u32_at = |o: usize| -> Result<usize, String> {
        let b = file.get(o..o + 4).ok_or("truncated ELF")?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    let u64_at = |o: usize| -> Result<usize, String> {
        let b = file.get(o..o + 8).ok_or("truncated ELF")?;
        let mut v = [0u8; 8];
        v.copy_from_slice(b);
        usize::try_from(u64::from_le_bytes(v)).map_err(|e| e.to_string())
    };
    let (shoff, shentsize, shnum, shstrndx) =
        (u64_at(0x28)?, u16_at(0x3a)?, u16_at(0x3c)?, u16_at(0x3e)?);
    let header = |i: usize| shoff + i * shentsize;
    let strtab = u64_at(header(shstrndx) + 0x18)?;
    for i in 0..shnum {
        let at = strtab + u32_at(header(i))?;
        let rest = file.get(at..).ok_or("bad section name offset")?;
        let end = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or("unterminated name")?;
        if &rest[..end] == name.as_bytes() {
            return Ok((u64_at(header(i) + 0x18)?, u64_at(header(i) + 0x20)?));
        }
    }
    Err(format!("no section {name}"))
}

/// Applies `patch` to a single-unit, DWARF32 `.debug_names` section.
fn patch_debug_names(names: &mut [u8], patch: NamesPatch) -> Result<(), String> {
    let field = |names: &[u8], o: usize| -> Result<usize, String> {
        let b = names.get(o..o + 4).ok_or("truncated .debug_names")?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    let (cus, local_tus, foreign_tus) = (field(names, 8)?, field(names, 12)?, field(names, 16)?);
    let (buckets, count, abbrev_size) = (field(names, 20)?, field(names, 24)?, field(names, 28)?);
    let augmentation = (field(names, 32)? + 3) & !3;
    let entry_offsets =
        36 + augmentation + (cus + local_tus) * 4 + foreign_tus * 8 + buckets * 4 + count * 8;
    let abbrevs = entry_offsets + count * 4;
    let entries = abbrevs + abbrev_size;
    let (at, new): (usize, Vec<u8>) = match patch {
        NamesPatch::Header16(o, v) => (o, v.to_le_bytes().to_vec()),
        NamesPatch::Header32(o, v) => (o, v.to_le_bytes().to_vec()),
        NamesPatch::Abbrev(o, v) => (abbrevs + o, vec![v]),
        NamesPatch::FirstEntry(v) => (entries, vec![v]),
        NamesPatch::FirstEntryOffset(v) => (entry_offsets, v.to_le_bytes().to_vec()),
        NamesPatch::FromEnd(o, v) => (
            names
                .len()
                .checked_sub(o)
                .ok_or("patch before the section")?,
            vec![v],
        ),
    };
    names
        .get_mut(at..at + new.len())
        .ok_or("patch out of the section")?
        .copy_from_slice(&new);
    Ok(())
}
