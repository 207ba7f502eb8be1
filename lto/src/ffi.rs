//! The C ABI of `shim/lto_shim.cpp`, and safe wrappers the rest of the crate
//! uses. `ffi_stub.rs` provides the same wrappers when the crate is built
//! without LLVM, so no other file depends on the feature.
//!
//! Everything LLVM hands back is copied into Rust-owned memory before the
//! wrapper returns, except the open `InputFile` ([`RawInput`]) and the `LTO`
//! object ([`RawLto`]), which stay opaque.

use std::ffi::{c_char, CStr};
use std::os::unix::ffi::OsStrExt;
use std::ptr::{self, NonNull};

use crate::config::{BasicBlockSections, LtoConfig, LtoKind, RelocModel};
use crate::records::{InputData, Resolution, Severity, SummaryGraph, SummaryNode, SymbolRecord};

/// Declares the shim's C functions and loads them from `libweld_llvm.so` on first use: each
/// `sys::NAME(...)` calls the function of that name in the shim. Nothing maps the shim (and
/// libLLVM behind it) until [`sys::load`] is called, which every entry point of this file does
/// before it calls into the shim.
macro_rules! shim_functions {
    ($(pub fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?;)*) => {
        /// The shim's functions, resolved once.
        #[allow(non_snake_case)]
        struct Shim {
            $($name: unsafe extern "C" fn($($ty),*) $(-> $ret)?,)*
        }

        static SHIM: std::sync::OnceLock<Result<Shim, String>> = std::sync::OnceLock::new();

        /// Opens the shim and resolves its functions, once; the error says what is missing.
        pub fn load() -> Result<(), String> {
            SHIM.get_or_init(|| {
                let lib = super::open_shim()?;
                // SAFETY: each symbol is the shim's function of that name, with the C
                // signature declared here (the shim's sources declare the same).
                unsafe {
                    Ok(Shim {
                        $($name: std::mem::transmute::<*mut std::ffi::c_void, unsafe extern "C" fn($($ty),*) $(-> $ret)?>(
                            super::symbol(lib, concat!(stringify!($name), "\0"))?,
                        ),)*
                    })
                }
            })
            .as_ref()
            .map(|_| ())
            .map_err(Clone::clone)
        }

        /// Whether the shim has been loaded (without loading it).
        pub fn loaded() -> bool {
            matches!(SHIM.get(), Some(Ok(_)))
        }

        fn shim() -> &'static Shim {
            match SHIM.get() {
                Some(Ok(s)) => s,
                // Every entry point loads the shim first; reaching here is a bug in this file.
                _ => {
                    eprintln!("weld: error: internal error: LLVM called before the LTO shim was loaded");
                    std::process::exit(1)
                }
            }
        }

        $(
            /// # Safety
            /// As the shim's function of this name.
            pub unsafe fn $name($($arg: $ty),*) $(-> $ret)? {
                unsafe { (shim().$name)($($arg),*) }
            }
        )*
    };
}

/// The file name of the shim library (`lto/build.rs` builds it).
const SHIM_NAME: &str = "libweld_llvm.so";

/// Opens the shim: beside the running executable (an installed weld), else where the build
/// put it. `RTLD_NOW`: a missing LLVM symbol is an error here, not a crash later.
/// `RTLD_GLOBAL`: pass plugins (`--load-pass-plugin`) take LLVM's symbols from the process,
/// as they do from a host that links LLVM.
fn open_shim() -> Result<*mut std::ffi::c_void, String> {
    let beside_exe = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join(SHIM_NAME)))
        .filter(|p| p.is_file());
    let built = std::path::PathBuf::from(env!("WELD_LLVM_SHIM"));
    let path = beside_exe.unwrap_or(built);
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| format!("{}: invalid library path", path.display()))?;
    // SAFETY: a NUL-terminated path; dlopen has no other preconditions.
    let handle = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
    if handle.is_null() {
        // SAFETY: dlerror returns null or a NUL-terminated message.
        let why = unsafe { libc::dlerror() };
        let why = if why.is_null() {
            "unknown error".to_string()
        } else {
            unsafe { CStr::from_ptr(why) }
                .to_string_lossy()
                .into_owned()
        };
        return Err(format!(
            "cannot load LLVM for bitcode inputs ({SHIM_NAME}, which needs libLLVM-{}): {why}",
            env!("WELD_LLVM_VERSION").split('.').next().unwrap_or("22")
        ));
    }
    Ok(handle)
}

/// The address of `name` (NUL-terminated) in the shim.
fn symbol(lib: *mut std::ffi::c_void, name: &str) -> Result<*mut std::ffi::c_void, String> {
    // SAFETY: `lib` is a dlopen handle; `name` ends with NUL.
    let p = unsafe { libc::dlsym(lib, name.as_ptr().cast()) };
    if p.is_null() {
        return Err(format!(
            "{SHIM_NAME} lacks {}: it does not match this weld (rebuild it)",
            name.trim_end_matches('\0')
        ));
    }
    Ok(p)
}

mod sys {
    use std::ffi::c_char;

    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct WeldStr {
        pub ptr: *const c_char,
        pub len: usize,
    }

    #[repr(C)]
    pub struct WeldSymbol {
        pub name: WeldStr,
        pub ir_name: WeldStr,
        pub section: WeldStr,
        pub flags: u32,
        pub visibility: u32,
        pub comdat_index: i32,
        pub common_align: u32,
        pub common_size: u64,
        pub guid: u64,
    }

    #[repr(C)]
    pub struct WeldComdat {
        pub name: WeldStr,
        pub selection_kind: u32,
    }

    #[repr(C)]
    pub struct WeldInputInfo {
        pub target_triple: WeldStr,
        pub source_filename: WeldStr,
        pub num_modules: u32,
        pub is_thin: u8,
        pub has_summary: u8,
        pub unified_lto: u8,
        pub split_lto_unit: u8,
    }

    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct WeldSummaryNode {
        pub guid: u64,
        pub flags: u32,
        pub edges_begin: u32,
        pub edges_end: u32,
        pub reserved: u32,
        pub name_begin: u64,
        pub name_len: u64,
    }

    #[repr(C)]
    pub struct WeldLtoConfig {
        pub opt_level: u32,
        pub cg_opt_level: u32,
        pub cpu: WeldStr,
        pub mllvm: *const WeldStr,
        pub num_mllvm: usize,
        pub thin_jobs: u32,
        pub partitions: u32,
        pub cache_dir: WeldStr,
        pub cache_policy: WeldStr,
        pub save_temps_prefix: WeldStr,
        pub reloc_model: u32,
        pub emit_asm: u8,
        pub function_sections: u8,
        pub data_sections: u8,
        pub always_emit_regular_obj: u8,
        pub debug_pass_manager: u8,
        pub disable_verify: u8,
        pub emit_llvm: u8,
        pub reserved: u8,
        pub save_temps_stages: *const WeldStr,
        pub num_save_temps_stages: usize,
        pub opt_pipeline: WeldStr,
        pub aa_pipeline: WeldStr,
        pub remarks_filename: WeldStr,
        pub remarks_passes: WeldStr,
        pub remarks_format: WeldStr,
        pub stats_file: WeldStr,
        pub sample_profile: WeldStr,
        pub cs_profile: WeldStr,
        pub dwo_dir: WeldStr,
        pub bb_sections_list: WeldStr,
        pub pass_plugins: *const WeldStr,
        pub num_pass_plugins: usize,
        pub remarks_hotness_threshold: u64,
        pub lto_kind: u32,
        pub bb_sections: u32,
        pub remarks_with_hotness: u8,
        pub remarks_hotness_auto: u8,
        pub run_cs_instr: u8,
        pub pgo_warn_mismatch: u8,
        pub whole_program_visibility: u8,
        pub validate_all_vtables_have_type_infos: u8,
        pub all_vtables_have_type_infos: u8,
        pub bb_addr_map: u8,
        pub unique_bb_section_names: u8,
        pub thin_index_only: u8,
        pub thin_emit_index_files: u8,
        pub thin_emit_imports_files: u8,
        pub reserved2: [u8; 4],
        pub thin_prefix_old: WeldStr,
        pub thin_prefix_new: WeldStr,
        pub thin_native_prefix: WeldStr,
        pub thin_linked_objects_file: WeldStr,
        pub thin_modules_to_compile: *const WeldStr,
        pub num_thin_modules_to_compile: usize,
        pub dtlto_distributor: WeldStr,
        pub dtlto_distributor_args: *const WeldStr,
        pub num_dtlto_distributor_args: usize,
        pub dtlto_compiler: WeldStr,
        pub dtlto_compiler_prepend_args: *const WeldStr,
        pub num_dtlto_compiler_prepend_args: usize,
        pub dtlto_compiler_args: *const WeldStr,
        pub num_dtlto_compiler_args: usize,
        pub dtlto_linker_output: WeldStr,
    }

    #[repr(C)]
    pub struct WeldResolution {
        pub prevailing: u8,
        pub visible_to_regular_obj: u8,
        pub final_definition_in_linkage_unit: u8,
        pub export_dynamic: u8,
        pub linker_redefined: u8,
    }

    pub enum WeldInput {}
    pub enum WeldSummary {}
    pub enum WeldLto {}
    pub enum WeldLtoResult {}

    shim_functions! {
        pub fn weld_demangle(name: *const c_char, len: usize) -> *mut c_char;
        pub fn weld_lto_free_string(s: *mut c_char);
        pub fn weld_lto_failure() -> *mut c_char;
        pub fn weld_lto_exit(code: i32) -> !;

        pub fn weld_lto_input_open(
            data: *const u8,
            len: usize,
            id: *const c_char,
            id_len: usize,
            out: *mut *mut WeldInput,
            err: *mut *mut c_char,
        ) -> i32;
        pub fn weld_lto_input_free(input: *mut WeldInput);
        pub fn weld_lto_input_set_origin(
            input: *mut WeldInput,
            archive: *const c_char,
            archive_len: usize,
            member: *const c_char,
            member_len: usize,
            fat_lto_object: u8,
        );
        pub fn weld_lto_input_info(input: *const WeldInput, out: *mut WeldInputInfo);
        pub fn weld_lto_input_num_symbols(input: *const WeldInput) -> usize;
        pub fn weld_lto_input_symbol(input: *const WeldInput, i: usize, out: *mut WeldSymbol);
        pub fn weld_lto_input_num_dependent_libraries(input: *const WeldInput) -> usize;
        pub fn weld_lto_input_dependent_library(
            input: *const WeldInput,
            i: usize,
            out: *mut WeldStr,
        );
        pub fn weld_lto_input_num_comdats(input: *const WeldInput) -> usize;
        pub fn weld_lto_input_comdat(input: *const WeldInput, i: usize, out: *mut WeldComdat);

        pub fn weld_lto_input_summary(
            input: *const WeldInput,
            out: *mut *mut WeldSummary,
            err: *mut *mut c_char,
        ) -> i32;
        pub fn weld_lto_summary_get(
            s: *const WeldSummary,
            nodes: *mut *const WeldSummaryNode,
            num_nodes: *mut usize,
            edges: *mut *const u64,
            num_edges: *mut usize,
            built_modules: *mut u32,
            names: *mut WeldStr,
        );
        pub fn weld_lto_summary_free(s: *mut WeldSummary);

        pub fn weld_lto_new(
            config: *const WeldLtoConfig,
            out: *mut *mut WeldLto,
            err: *mut *mut c_char,
        ) -> i32;
        pub fn weld_lto_free(lto: *mut WeldLto);
        pub fn weld_lto_add(
            lto: *mut WeldLto,
            input: *mut WeldInput,
            res: *const WeldResolution,
            num_res: usize,
            err: *mut *mut c_char,
        ) -> i32;
        pub fn weld_lto_run(
            lto: *mut WeldLto,
            out: *mut *mut WeldLtoResult,
            err: *mut *mut c_char,
        ) -> i32;
        pub fn weld_lto_result_num_tasks(r: *const WeldLtoResult) -> usize;
        pub fn weld_lto_result_object(
            r: *const WeldLtoResult,
            task: usize,
            data: *mut WeldStr,
            name: *mut WeldStr,
            from_cache: *mut u8,
        );
        pub fn weld_lto_result_cache_hits(r: *const WeldLtoResult) -> u32;
        pub fn weld_lto_result_num_diags(r: *const WeldLtoResult) -> usize;
        pub fn weld_lto_result_diag(
            r: *const WeldLtoResult,
            i: usize,
            severity: *mut u32,
            text: *mut WeldStr,
        );
        pub fn weld_lto_config_size() -> usize;
        pub fn weld_lto_write_empty_index(
            path: *const c_char,
            len: usize,
            err: *mut *mut c_char,
        ) -> i32;
        pub fn weld_lto_result_bitcode(r: *const WeldLtoResult, task: usize, data: *mut WeldStr);
        pub fn weld_lto_result_release_task(r: *mut WeldLtoResult, task: usize);
        pub fn weld_lto_result_free(r: *mut WeldLtoResult);

        pub fn weld_lto_set_options(
            args: *const WeldStr,
            num_args: usize,
            err: *mut *mut c_char,
        ) -> i32;
        pub fn weld_lto_input_asm(
            input: *const WeldInput,
            out: *mut *mut c_char,
            out_len: *mut usize,
            err: *mut *mut c_char,
        ) -> i32;
        pub fn weld_lto_runtime_libcalls(
            triple: *const c_char,
            len: usize,
            out_len: *mut usize,
        ) -> *mut c_char;

        pub fn weld_balanced_partitioning(
            ids: *const u64,
            num_nodes: usize,
            starts: *const usize,
            uns: *const u32,
            out_ids: *mut u64,
        );
        pub fn weld_read_temporal_traces(
            path: *const c_char,
            path_len: usize,
            out: *mut *mut c_char,
            out_len: *mut usize,
            err: *mut *mut c_char,
        ) -> i32;
    }
}

use sys::WeldStr;

impl WeldStr {
    fn from_bytes(b: &[u8]) -> WeldStr {
        WeldStr {
            ptr: b.as_ptr().cast(),
            len: b.len(),
        }
    }

    /// # Safety
    /// `ptr..ptr+len` must be readable for `'a` (or `len` must be 0).
    unsafe fn as_bytes<'a>(self) -> &'a [u8] {
        if self.len == 0 {
            &[]
        } else {
            std::slice::from_raw_parts(self.ptr.cast(), self.len)
        }
    }
}

/// Turns the shim's status + malloc'ed message into a `Result`, freeing it.
fn check(status: i32, err: *mut c_char) -> Result<(), String> {
    if status == 0 {
        return Ok(());
    }
    if err.is_null() {
        return Err("LLVM reported an error without a message (out of memory?)".to_string());
    }
    // SAFETY: the shim returns a NUL-terminated string from malloc, which we own.
    let msg = unsafe { CStr::from_ptr(err) }
        .to_string_lossy()
        .into_owned();
    unsafe { sys::weld_lto_free_string(err) };
    Err(msg)
}

pub(crate) fn demangle(name: &[u8]) -> Option<String> {
    sys::load().ok()?;
    // SAFETY: `name` is valid for `len` bytes; the result is a malloc'ed
    // NUL-terminated string (or null), freed below.
    let out = unsafe { sys::weld_demangle(name.as_ptr().cast(), name.len()) };
    if out.is_null() {
        return None;
    }
    // SAFETY: non-null, NUL-terminated, owned by us until freed.
    let s = unsafe { CStr::from_ptr(out) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: allocated by the shim with malloc.
    unsafe { sys::weld_lto_free_string(out) };
    Some(s)
}

pub(crate) fn balanced_partitioning(
    ids: &[u64],
    starts: &[usize],
    uns: &[u32],
) -> Result<Vec<u64>, String> {
    sys::load()?;
    if starts.len() != ids.len() + 1 || starts.windows(2).any(|w| w[0] > w[1] || w[1] > uns.len()) {
        return Err("balanced partitioning: malformed node list".to_string());
    }
    let mut out = vec![0u64; ids.len()];
    // SAFETY: `ids` has `ids.len()` entries, `starts` one more, every range of
    // `uns` they describe is in bounds (checked above), and `out` has room for
    // every id.
    unsafe {
        sys::weld_balanced_partitioning(
            ids.as_ptr(),
            ids.len(),
            starts.as_ptr(),
            uns.as_ptr(),
            out.as_mut_ptr(),
        )
    };
    Ok(out)
}

pub(crate) fn read_temporal_traces(path: &[u8]) -> Result<Vec<u8>, String> {
    sys::load()?;
    let mut out: *mut c_char = std::ptr::null_mut();
    let mut len = 0usize;
    let mut err: *mut c_char = std::ptr::null_mut();
    // SAFETY: `path` is valid for its length; the shim writes a malloc'ed
    // buffer of `len` bytes (or an error message) that we own and free.
    let status = unsafe {
        sys::weld_read_temporal_traces(
            path.as_ptr().cast(),
            path.len(),
            &mut out,
            &mut len,
            &mut err,
        )
    };
    check(status, err)?;
    // SAFETY: on success `out` is non-null and holds `len` bytes.
    let bytes = unsafe { WeldStr { ptr: out, len }.as_bytes() }.to_vec();
    // SAFETY: allocated by the shim with malloc.
    unsafe { sys::weld_lto_free_string(out) };
    Ok(bytes)
}

pub(crate) fn llvm_failure() -> Option<String> {
    // Nothing failed in LLVM if it was never loaded.
    if !sys::loaded() {
        return None;
    }
    // SAFETY: null, or a malloc'ed NUL-terminated string we own.
    let p = unsafe { sys::weld_lto_failure() };
    if p.is_null() {
        return None;
    }
    let msg = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    unsafe { sys::weld_lto_free_string(p) };
    Some(msg)
}

pub(crate) fn exit_now(code: i32) -> ! {
    if !sys::loaded() {
        std::process::exit(code);
    }
    // SAFETY: ends the process; nothing is borrowed.
    unsafe { sys::weld_lto_exit(code) }
}

pub(crate) fn llvm_version() -> Option<&'static str> {
    // The version the shim was built against (llvm-config's), known without loading LLVM.
    Some(env!("WELD_LLVM_VERSION"))
}

/// An open `lto::InputFile`. It points into the file's bytes, which the owner
/// (`BitcodeFile`, later `Lto`) keeps alive longer than this handle.
pub(crate) struct RawInput(NonNull<sys::WeldInput>);

// SAFETY: the handle is only read through `&self` (symbol table and summary
// reads allocate their own state; LLVM's InputFile is immutable after
// creation), and it is consumed by value in `lto_add`, so sharing or sending
// it between threads is sound.
unsafe impl Send for RawInput {}
unsafe impl Sync for RawInput {}

impl Drop for RawInput {
    fn drop(&mut self) {
        // SAFETY: we own the handle; `lto_add` forgets it after transferring it.
        unsafe { sys::weld_lto_input_free(self.0.as_ptr()) }
    }
}

pub(crate) fn open_input(bytes: &[u8], module_id: &str) -> Result<(RawInput, InputData), String> {
    sys::load()?;
    let mut out = ptr::null_mut();
    let mut err = ptr::null_mut();
    // SAFETY: pointers and lengths describe live slices; out-params are valid.
    let status = unsafe {
        sys::weld_lto_input_open(
            bytes.as_ptr(),
            bytes.len(),
            module_id.as_ptr().cast(),
            module_id.len(),
            &mut out,
            &mut err,
        )
    };
    check(status, err)?;
    let raw = RawInput(NonNull::new(out).ok_or("LLVM returned no input file")?);
    let h = raw.0.as_ptr();

    let mut data = InputData::default();
    // SAFETY: `h` is a valid input; every string returned points into the
    // InputFile or the file's bytes, both alive until `raw` is dropped, and is
    // copied here before returning.
    unsafe {
        let mut info = std::mem::zeroed::<sys::WeldInputInfo>();
        sys::weld_lto_input_info(h, &mut info);
        data.target_triple = String::from_utf8_lossy(info.target_triple.as_bytes()).into_owned();
        data.source_filename =
            String::from_utf8_lossy(info.source_filename.as_bytes()).into_owned();
        data.num_modules = info.num_modules;
        data.is_thin = info.is_thin != 0;
        data.has_summary = info.has_summary != 0;

        let n = sys::weld_lto_input_num_symbols(h);
        data.symbols.reserve_exact(n);
        for i in 0..n {
            let mut s = std::mem::zeroed::<sys::WeldSymbol>();
            sys::weld_lto_input_symbol(h, i, &mut s);
            let name = data.intern(s.name.as_bytes());
            // The IR name is nearly always the mangled name on ELF: share it.
            let ir_name = if s.ir_name.as_bytes() == s.name.as_bytes() {
                name
            } else {
                data.intern(s.ir_name.as_bytes())
            };
            let section = data.intern(s.section.as_bytes());
            data.symbols.push(SymbolRecord {
                name,
                ir_name,
                section,
                flags: s.flags,
                visibility: s.visibility as u8,
                comdat: s.comdat_index,
                common_size: s.common_size,
                common_align: s.common_align,
                guid: s.guid,
            });
        }
        let n = sys::weld_lto_input_num_comdats(h);
        for i in 0..n {
            let mut c = std::mem::zeroed::<sys::WeldComdat>();
            sys::weld_lto_input_comdat(h, i, &mut c);
            let name = data.intern(c.name.as_bytes());
            data.comdats.push((name, c.selection_kind));
        }
        let n = sys::weld_lto_input_num_dependent_libraries(h);
        for i in 0..n {
            let mut l = sys::WeldStr {
                ptr: ptr::null(),
                len: 0,
            };
            sys::weld_lto_input_dependent_library(h, i, &mut l);
            data.dependent_libraries
                .push(String::from_utf8_lossy(l.as_bytes()).into_owned());
        }
    }
    Ok((raw, data))
}

/// Node flag from the shim: the compiler marked the value live.
const NODE_LIVE: u32 = 1 << 0;

pub(crate) fn read_summary(raw: &RawInput) -> Result<SummaryGraph, String> {
    let mut s = ptr::null_mut();
    let mut err = ptr::null_mut();
    // SAFETY: valid handle and out-params.
    check(
        unsafe { sys::weld_lto_input_summary(raw.0.as_ptr(), &mut s, &mut err) },
        err,
    )?;
    if s.is_null() {
        return Err("LLVM returned no summary".to_string());
    }
    let mut graph = SummaryGraph::default();
    // SAFETY: `s` is a valid summary until freed below; its arrays are copied.
    unsafe {
        let (mut nodes, mut num_nodes, mut edges, mut num_edges, mut built) =
            (ptr::null(), 0, ptr::null(), 0, 0);
        let mut names = sys::WeldStr {
            ptr: ptr::null(),
            len: 0,
        };
        sys::weld_lto_summary_get(
            s,
            &mut nodes,
            &mut num_nodes,
            &mut edges,
            &mut num_edges,
            &mut built,
            &mut names,
        );
        let names: &[u8] = if names.len == 0 {
            &[]
        } else {
            std::slice::from_raw_parts(names.ptr.cast::<u8>(), names.len)
        };
        let nodes: &[sys::WeldSummaryNode] = if num_nodes == 0 {
            &[]
        } else {
            std::slice::from_raw_parts(nodes, num_nodes)
        };
        let edges: &[u64] = if num_edges == 0 {
            &[]
        } else {
            std::slice::from_raw_parts(edges, num_edges)
        };
        graph.edges = edges.to_vec();
        graph.nodes = nodes
            .iter()
            .map(|n| SummaryNode {
                guid: n.guid,
                live: n.flags & NODE_LIVE != 0,
                edges: n.edges_begin..n.edges_end,
                // An out-of-range name is only a missing label, never an error.
                name: usize::try_from(n.name_begin)
                    .ok()
                    .zip(usize::try_from(n.name_len).ok())
                    .and_then(|(b, l)| names.get(b..b.checked_add(l)?))
                    .map(|b| String::from_utf8_lossy(b).into_owned())
                    .unwrap_or_default(),
            })
            .collect();
        graph.built_modules = built;
        sys::weld_lto_summary_free(s);
    }
    // Never trust ranges from across the boundary with slicing later.
    if graph
        .nodes
        .iter()
        .any(|n| n.edges.start > n.edges.end || n.edges.end as usize > graph.edges.len())
    {
        return Err("malformed summary graph from the LLVM shim".to_string());
    }
    Ok(graph)
}

/// An `lto::LTO` object with its diagnostics sink.
pub(crate) struct RawLto(NonNull<sys::WeldLto>);

// SAFETY: `lto::LTO` is not tied to the creating thread; the handle is used
// through `&mut self` only, so it is never accessed concurrently.
unsafe impl Send for RawLto {}

impl Drop for RawLto {
    fn drop(&mut self) {
        // SAFETY: we own the handle.
        unsafe { sys::weld_lto_free(self.0.as_ptr()) }
    }
}

pub(crate) fn lto_new(cfg: &LtoConfig) -> Result<RawLto, String> {
    sys::load()?;
    // SAFETY: a pure function of the shim's declarations.
    let shim_size = unsafe { sys::weld_lto_config_size() };
    if shim_size != std::mem::size_of::<sys::WeldLtoConfig>() {
        return Err(format!(
            "the LTO shim's WeldLtoConfig has {shim_size} bytes, its Rust mirror {}: \
             rebuild weld after updating both",
            std::mem::size_of::<sys::WeldLtoConfig>()
        ));
    }
    let strs = |v: &[String]| -> Vec<WeldStr> {
        v.iter()
            .map(|a| WeldStr::from_bytes(a.as_bytes()))
            .collect()
    };
    let mllvm = strs(&cfg.llvm_args);
    let stages = strs(&cfg.save_temps_stages);
    let plugins: Vec<WeldStr> = cfg
        .pass_plugins
        .iter()
        .map(|p| WeldStr::from_bytes(p.as_os_str().as_bytes()))
        .collect();
    let empty = WeldStr::from_bytes(&[]);
    let path_str = |p: &Option<std::path::PathBuf>| {
        p.as_ref()
            .map_or(empty, |p| WeldStr::from_bytes(p.as_os_str().as_bytes()))
    };
    let opt_str = |s: &Option<String>| {
        s.as_ref()
            .map_or(empty, |s| WeldStr::from_bytes(s.as_bytes()))
    };
    let single: Vec<WeldStr> = cfg
        .thin_modules_to_compile
        .iter()
        .map(|m| WeldStr::from_bytes(m.as_bytes()))
        .collect();
    let idx = &cfg.thin_index_files;
    // lld's index-only mode wins over a distributor.
    let dtlto = cfg
        .dtlto
        .as_ref()
        .filter(|d| !d.distributor.is_empty() && !idx.as_ref().is_some_and(|i| i.index_only));
    let no_args: &[String] = &[];
    let dist_args = strs(dtlto.map_or(no_args, |d| &d.distributor_args));
    let prepend_args = strs(dtlto.map_or(no_args, |d| &d.remote_compiler_prepend_args));
    let compiler_args = strs(dtlto.map_or(no_args, |d| &d.remote_compiler_args));
    let (bb_sections, bb_list) = match &cfg.basic_block_sections {
        BasicBlockSections::Default => (0, empty),
        BasicBlockSections::All => (1, empty),
        BasicBlockSections::None => (2, empty),
        BasicBlockSections::List(text) => (3, WeldStr::from_bytes(text)),
    };
    let c = sys::WeldLtoConfig {
        opt_level: u32::from(cfg.opt_level),
        cg_opt_level: u32::from(cfg.effective_cg_opt_level()),
        cpu: opt_str(&cfg.cpu),
        mllvm: mllvm.as_ptr(),
        num_mllvm: mllvm.len(),
        thin_jobs: cfg.thin_jobs,
        partitions: cfg.partitions,
        cache_dir: path_str(&cfg.cache_dir),
        cache_policy: opt_str(&cfg.cache_policy),
        save_temps_prefix: opt_str(&cfg.save_temps),
        reloc_model: match cfg.reloc_model {
            RelocModel::Default => 0,
            RelocModel::Static => 1,
            RelocModel::Pic => 2,
            RelocModel::DynamicNoPic => 3,
        },
        emit_asm: cfg.emit_asm.into(),
        function_sections: cfg.function_sections.into(),
        data_sections: cfg.data_sections.into(),
        always_emit_regular_obj: cfg.obj_path.is_some().into(),
        debug_pass_manager: cfg.debug_pass_manager.into(),
        disable_verify: cfg.disable_verify.into(),
        emit_llvm: cfg.emit_llvm.into(),
        reserved: 0,
        save_temps_stages: stages.as_ptr(),
        num_save_temps_stages: stages.len(),
        opt_pipeline: opt_str(&cfg.opt_pipeline),
        aa_pipeline: opt_str(&cfg.aa_pipeline),
        remarks_filename: path_str(&cfg.remarks_filename),
        remarks_passes: opt_str(&cfg.remarks_passes),
        remarks_format: opt_str(&cfg.remarks_format),
        stats_file: path_str(&cfg.stats_file),
        sample_profile: path_str(&cfg.sample_profile),
        cs_profile: path_str(&cfg.cs_profile),
        dwo_dir: path_str(&cfg.dwo_dir),
        bb_sections_list: bb_list,
        pass_plugins: plugins.as_ptr(),
        num_pass_plugins: plugins.len(),
        remarks_hotness_threshold: cfg.remarks_hotness_threshold.unwrap_or(0),
        lto_kind: match cfg.kind {
            LtoKind::Default => 0,
            LtoKind::UnifiedRegular => 1,
            LtoKind::UnifiedThin => 2,
        },
        bb_sections,
        remarks_with_hotness: cfg.remarks_with_hotness.into(),
        remarks_hotness_auto: cfg.remarks_hotness_threshold.is_none().into(),
        run_cs_instr: cfg.cs_profile_generate.into(),
        pgo_warn_mismatch: cfg.pgo_warn_mismatch.into(),
        whole_program_visibility: cfg.whole_program_visibility.into(),
        validate_all_vtables_have_type_infos: cfg.validate_all_vtables_have_type_infos.into(),
        all_vtables_have_type_infos: cfg.all_vtables_have_type_infos.into(),
        bb_addr_map: cfg.basic_block_address_map.into(),
        unique_bb_section_names: cfg.unique_basic_block_section_names.into(),
        thin_index_only: idx.as_ref().is_some_and(|i| i.index_only).into(),
        thin_emit_index_files: idx.is_some().into(),
        thin_emit_imports_files: idx.as_ref().is_some_and(|i| i.emit_imports_files).into(),
        reserved2: [0; 4],
        thin_prefix_old: idx
            .as_ref()
            .map_or(empty, |i| WeldStr::from_bytes(i.prefix_old.as_bytes())),
        thin_prefix_new: idx
            .as_ref()
            .map_or(empty, |i| WeldStr::from_bytes(i.prefix_new.as_bytes())),
        thin_native_prefix: idx
            .as_ref()
            .map_or(empty, |i| WeldStr::from_bytes(i.native_prefix.as_bytes())),
        thin_linked_objects_file: idx
            .as_ref()
            .map_or(empty, |i| path_str(&i.linked_objects_file)),
        thin_modules_to_compile: single.as_ptr(),
        num_thin_modules_to_compile: single.len(),
        dtlto_distributor: dtlto.map_or(empty, |d| WeldStr::from_bytes(d.distributor.as_bytes())),
        dtlto_distributor_args: dist_args.as_ptr(),
        num_dtlto_distributor_args: dist_args.len(),
        dtlto_compiler: dtlto.map_or(empty, |d| WeldStr::from_bytes(d.remote_compiler.as_bytes())),
        dtlto_compiler_prepend_args: prepend_args.as_ptr(),
        num_dtlto_compiler_prepend_args: prepend_args.len(),
        dtlto_compiler_args: compiler_args.as_ptr(),
        num_dtlto_compiler_args: compiler_args.len(),
        dtlto_linker_output: dtlto
            .map_or(empty, |d| WeldStr::from_bytes(d.linker_output.as_bytes())),
    };
    let mut out = ptr::null_mut();
    let mut err = ptr::null_mut();
    // SAFETY: `c` and the slices it points to outlive the call (the shim copies).
    check(unsafe { sys::weld_lto_new(&c, &mut out, &mut err) }, err)?;
    Ok(RawLto(
        NonNull::new(out).ok_or("LLVM returned no LTO object")?,
    ))
}

pub(crate) fn write_empty_index(path: &std::path::Path) -> Result<(), String> {
    sys::load()?;
    let p = path.as_os_str().as_bytes();
    let mut err = ptr::null_mut();
    // SAFETY: `p` is valid for its length; the shim copies it.
    check(
        unsafe { sys::weld_lto_write_empty_index(p.as_ptr().cast(), p.len(), &mut err) },
        err,
    )
}

/// Where an input's bitcode came from: `member` of `archive` (both empty: not
/// an archive member), or a fat object's `.llvm.lto` section.
pub(crate) fn set_input_origin(input: &mut RawInput, archive: &[u8], member: &[u8], fat: bool) {
    // SAFETY: a valid handle; the shim copies both strings.
    unsafe {
        sys::weld_lto_input_set_origin(
            input.0.as_ptr(),
            archive.as_ptr().cast(),
            archive.len(),
            member.as_ptr().cast(),
            member.len(),
            fat.into(),
        )
    }
}

pub(crate) fn lto_add(lto: &mut RawLto, input: RawInput, res: &[Resolution]) -> Result<(), String> {
    let r: Vec<sys::WeldResolution> = res
        .iter()
        .map(|r| sys::WeldResolution {
            prevailing: r.prevailing.into(),
            visible_to_regular_obj: r.visible_to_regular_obj.into(),
            final_definition_in_linkage_unit: r.final_definition_in_linkage_unit.into(),
            export_dynamic: r.export_dynamic.into(),
            linker_redefined: r.linker_redefined.into(),
        })
        .collect();
    let handle = input.0.as_ptr();
    // The shim takes ownership of the input whatever the outcome.
    std::mem::forget(input);
    let mut err = ptr::null_mut();
    // SAFETY: valid handles; the resolution slice outlives the call.
    check(
        unsafe { sys::weld_lto_add(lto.0.as_ptr(), handle, r.as_ptr(), r.len(), &mut err) },
        err,
    )
}

/// What one run produced, copied out of LLVM.
pub(crate) struct RawOutput {
    /// Per task: (object bytes, module name, came from the cache). Empty bytes
    /// for tasks that produced nothing.
    pub tasks: Vec<(Vec<u8>, String, bool)>,
    /// Per task with `emit_llvm`: the module's bitcode (empty when none).
    pub bitcode: Vec<Vec<u8>>,
    pub cache_hits: u32,
    pub diagnostics: Vec<(Severity, String)>,
}

/// Runs LTO. On failure, the messages: LLVM's error diagnostics in the order
/// they came, then LTO's own error when it is not one of them.
pub(crate) fn lto_run(lto: &mut RawLto) -> Result<RawOutput, Vec<String>> {
    let mut r = ptr::null_mut();
    let mut err = ptr::null_mut();
    // SAFETY: valid handle and out-params.
    let status = unsafe { sys::weld_lto_run(lto.0.as_ptr(), &mut r, &mut err) };
    let failure = check(status, err).err();
    if r.is_null() {
        return Err(vec![
            failure.unwrap_or_else(|| "LLVM returned no LTO result".to_string())
        ]);
    }
    let out = read_result(r);
    match failure {
        None => Ok(out),
        Some(own) => {
            let mut messages: Vec<String> = Vec::new();
            for (sev, text) in out.diagnostics {
                if sev == Severity::Error && !messages.contains(&text) {
                    messages.push(text);
                }
            }
            if !own.is_empty() && !messages.contains(&own) {
                messages.push(own);
            }
            if messages.is_empty() {
                messages.push("LTO failed without a message".to_string());
            }
            Err(messages)
        }
    }
}

/// Copies a result out of LLVM and frees it, each task's buffers as soon as they are copied.
fn read_result(r: *mut sys::WeldLtoResult) -> RawOutput {
    let mut out = RawOutput {
        tasks: Vec::new(),
        bitcode: Vec::new(),
        cache_hits: 0,
        diagnostics: Vec::new(),
    };
    // SAFETY: `r` is a valid result until freed below; everything read is copied.
    unsafe {
        let n = sys::weld_lto_result_num_tasks(r);
        for task in 0..n {
            let empty = WeldStr::from_bytes(&[]);
            let (mut data, mut name, mut cached) = (empty, empty, 0u8);
            sys::weld_lto_result_object(r, task, &mut data, &mut name, &mut cached);
            out.tasks.push((
                data.as_bytes().to_vec(),
                String::from_utf8_lossy(name.as_bytes()).into_owned(),
                cached != 0,
            ));
            let mut bc = empty;
            sys::weld_lto_result_bitcode(r, task, &mut bc);
            out.bitcode.push(bc.as_bytes().to_vec());
            // Copied: LLVM's buffers go now, not after the last task's copy.
            sys::weld_lto_result_release_task(r, task);
        }
        out.cache_hits = sys::weld_lto_result_cache_hits(r);
        for i in 0..sys::weld_lto_result_num_diags(r) {
            let mut sev = 0u32;
            let mut text = WeldStr::from_bytes(&[]);
            sys::weld_lto_result_diag(r, i, &mut sev, &mut text);
            out.diagnostics.push((
                Severity::from_llvm(sev),
                String::from_utf8_lossy(text.as_bytes()).into_owned(),
            ));
        }
        sys::weld_lto_result_free(r);
    }
    out
}

/// The strings of every inline-asm constant and module-level asm of the input's modules, read
/// from the bitstream without materializing IR.
pub(crate) fn read_asm(raw: &RawInput) -> Result<Vec<String>, String> {
    let mut out = ptr::null_mut();
    let mut len = 0usize;
    let mut err = ptr::null_mut();
    // SAFETY: `raw` is a live input; on success `out` is a malloc'ed buffer of `len` bytes.
    check(
        unsafe { sys::weld_lto_input_asm(raw.0.as_ptr(), &mut out, &mut len, &mut err) },
        err,
    )?;
    if out.is_null() {
        return Err("out of memory reading inline asm".to_string());
    }
    let bytes = unsafe { std::slice::from_raw_parts(out.cast::<u8>(), len) }.to_vec();
    unsafe { sys::weld_lto_free_string(out) };
    Ok(bytes
        .split(|&b| b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect())
}

pub(crate) fn runtime_libcalls(triple: &str) -> Result<Vec<String>, String> {
    sys::load()?;
    let mut len = 0usize;
    // SAFETY: valid slice; the result is a malloc'ed buffer of `len` bytes.
    let p =
        unsafe { sys::weld_lto_runtime_libcalls(triple.as_ptr().cast(), triple.len(), &mut len) };
    if p.is_null() {
        return Err("out of memory listing runtime library calls".to_string());
    }
    let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }.to_vec();
    unsafe { sys::weld_lto_free_string(p) };
    Ok(bytes
        .split(|&b| b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect())
}

pub(crate) fn set_options(args: &[String]) -> Result<(), String> {
    sys::load()?;
    let v: Vec<WeldStr> = args
        .iter()
        .map(|a| WeldStr::from_bytes(a.as_bytes()))
        .collect();
    let mut err = ptr::null_mut();
    // SAFETY: the slices outlive the call; the shim copies them.
    check(
        unsafe { sys::weld_lto_set_options(v.as_ptr(), v.len(), &mut err) },
        err,
    )
}
