//! A staticlib compiled to bitcode with `-C linker-plugin-lto`, called from C (bitcode too) and
//! calling back into C: cross-language LTO.
use std::ffi::CStr;
use std::os::raw::c_char;

extern "C" {
    fn c_scale(x: i64) -> i64;
}

#[no_mangle]
pub extern "C" fn rust_sum(p: *const i32, n: usize) -> i64 {
    let s = unsafe { std::slice::from_raw_parts(p, n) };
    s.iter().map(|&x| x as i64).sum()
}

#[no_mangle]
pub extern "C" fn rust_describe(n: i64) -> i64 {
    let v: Vec<String> = (0..n).map(|i| format!("{i}")).collect();
    unsafe { c_scale(v.join(",").len() as i64) }
}

#[no_mangle]
pub extern "C" fn rust_count_vowels(s: *const c_char) -> usize {
    let s = unsafe { CStr::from_ptr(s) }.to_string_lossy();
    s.chars().filter(|c| "aeiouAEIOU".contains(*c)).count()
}
