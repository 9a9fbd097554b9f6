//! kyaml for WebAssembly: three `extern "C"` functions over the library's
//! `alloc` entry points (`Options::to_string`, `Options::warnings`,
//! `Options::check`), for web/pkg (Node) and web/page (the browser), which
//! share one JavaScript wrapper (web/pkg/core.js).
//!
//! The library has no `alloc` entry point that returns the text and the
//! warnings of one reading (`to_writer_with_warnings` needs `std`), so a
//! YAML input is read twice: `to_string`, then `warnings`. Hand-written,
//! not wasm-bindgen: the interface is one call with one result buffer, and
//! the build needs no tool but cargo.
//!
//! The caller copies its UTF-8 input into a buffer from [`kyaml_alloc`],
//! calls [`kyaml_render`] (which frees that buffer), reads the result
//! buffer it returns, and gives it back with [`kyaml_free`]. The result is
//! little-endian `u32`s and UTF-8 bytes:
//!
//! ```text
//! total length (these 4 bytes included)
//! status: 0 = output, 1 = error
//! status 0: output length, output bytes
//! status 1: line, column, message length, message bytes
//! warning count, then each: line, column, message length, message bytes
//! ```
//!
//! Lines and columns are 1-based, as the library gives them. Nothing here
//! panics on any input: the library does not, and the rest is copying.

use std::alloc::{self, Layout};

use kyaml::{Input, Options, Schema};

/// Bits of [`kyaml_render`]'s `flags`, as web/pkg/index.js sets them: the
/// input language (0 JSON, 1 YAML, 2 JSON if the whole input is valid
/// JSON, else YAML), then the schema and the layout.
const INPUT_MASK: u32 = 0b11;
const INPUT_JSON: u32 = 0;
const INPUT_AUTO: u32 = 2;
const SCHEMA_YAML12: u32 = 1 << 2;
const COMPACT: u32 = 1 << 3;

/// A buffer of `len` bytes for the caller to fill (its input); null when
/// there is no memory for it.
#[no_mangle]
pub extern "C" fn kyaml_alloc(len: usize) -> *mut u8 {
    match Layout::array::<u8>(len.max(1)) {
        // SAFETY: the layout's size is not zero.
        Ok(layout) => unsafe { alloc::alloc(layout) },
        Err(_) => core::ptr::null_mut(),
    }
}

/// Gives back a buffer from [`kyaml_alloc`] or [`kyaml_render`] (`len`:
/// its length).
///
/// # Safety
/// `ptr` and `len` are a buffer this module handed out, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn kyaml_free(ptr: *mut u8, len: usize) {
    if let Ok(layout) = Layout::array::<u8>(len.max(1)) {
        // SAFETY: the caller's promise: `kyaml_alloc(len)` gave `ptr`, with
        // this layout.
        unsafe { alloc::dealloc(ptr, layout) }
    }
}

/// Renders the `len` bytes at `ptr` (a [`kyaml_alloc`] buffer, freed here)
/// as `flags` say; returns the result buffer (see the module docs), null
/// when there is no memory for it.
///
/// # Safety
/// `ptr` and `len` are a buffer from [`kyaml_alloc`], filled and not freed.
#[no_mangle]
pub unsafe extern "C" fn kyaml_render(ptr: *mut u8, len: usize, flags: u32) -> *mut u8 {
    // SAFETY: the caller's promise; the buffer is freed once read.
    let input = unsafe { core::slice::from_raw_parts(ptr, len) };
    let result = render(input, flags);
    unsafe { kyaml_free(ptr, len) };
    let out = kyaml_alloc(result.len());
    if !out.is_null() {
        // SAFETY: `out` has room for `result.len()` bytes.
        unsafe { core::ptr::copy_nonoverlapping(result.as_ptr(), out, result.len()) };
    }
    out
}

/// The result buffer of [`kyaml_render`] for `input`.
fn render(input: &[u8], flags: u32) -> Vec<u8> {
    let schema = match flags & SCHEMA_YAML12 {
        0 => Schema::Kubectl,
        _ => Schema::Yaml12,
    };
    let json = Options::new().input(Input::Json);
    let language = match flags & INPUT_MASK {
        INPUT_JSON => Input::Json,
        // JSON unless its syntax is not JSON's: a JSON text JSON refuses
        // for its data (`{"b": 1e400}`, a number past float64's range)
        // is refused, as kubectl and the CLI refuse it, not read as YAML.
        INPUT_AUTO => match json.check(input) {
            Err(e) if e.is_syntax() => Input::Yaml,
            _ => Input::Json,
        },
        _ => Input::Yaml,
    };
    let opts = Options::new()
        .input(language)
        .schema(schema)
        .compact(flags & COMPACT != 0);
    let mut out = Vec::new();
    push(&mut out, 0); // the total, set last
    match opts.to_string(input) {
        Ok(text) => {
            push(&mut out, 0);
            push_text(&mut out, &text);
        }
        Err(e) => {
            push(&mut out, 1);
            push(&mut out, e.line());
            push(&mut out, e.column());
            push_text(&mut out, &e.message().to_string());
        }
    }
    let warnings = opts.warnings(input);
    push(&mut out, warnings.len());
    for w in &warnings {
        push(&mut out, w.line);
        push(&mut out, w.column);
        push_text(&mut out, &w.message);
    }
    let total = (out.len() as u32).to_le_bytes();
    out[..4].copy_from_slice(&total);
    out
}

fn push(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&(n as u32).to_le_bytes());
}

fn push_text(out: &mut Vec<u8>, text: &str) {
    push(out, text.len());
    out.extend_from_slice(text.as_bytes());
}
