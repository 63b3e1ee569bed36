//! What the page gives the engine when it runs in a browser (`wasm32-unknown-unknown`,
//! in a Web Worker): a clock, a way to write a line, and a stop flag. The worker supplies
//! them as the imports of module `fivefold` when it instantiates the `.wasm`
//! (`web/worker.js`; `docs/web.md` has the whole interface).
//!
//! These three calls into JavaScript are this build's only `unsafe` blocks. Each is
//! sound for the same reason: the import takes and returns plain numbers, keeps no
//! pointer past the call, and does not call back into the module.

#[link(wasm_import_module = "fivefold")]
extern "C" {
    /// `performance.now()`: milliseconds since the worker started, never going back.
    #[link_name = "now_ms"]
    fn host_now_ms() -> f64;
    /// Hands the page one line of output: `len` bytes of UTF-8 at `ptr` in the module's
    /// memory, read at once (the page copies them before the call returns).
    #[link_name = "emit"]
    fn host_emit(ptr: *const u8, len: usize);
    /// Nonzero once the page has asked the running search to stop (a flag in shared
    /// memory where the page is cross-origin isolated; always 0 elsewhere, where the
    /// page stops the engine by ending its worker).
    #[link_name = "stop_requested"]
    fn host_stop_requested() -> u32;
}

/// Milliseconds on the page's monotonic clock.
pub fn now_ms() -> f64 {
    // SAFETY: a call with no arguments that returns a number (module text).
    #[allow(unsafe_code)]
    unsafe {
        host_now_ms()
    }
}

/// Writes one line (without its line end) to the page.
pub fn emit(line: &str) {
    // SAFETY: the page reads `line.len()` bytes from `line`'s address during the call,
    // while `line` is borrowed, and keeps nothing.
    #[allow(unsafe_code)]
    unsafe {
        host_emit(line.as_ptr(), line.len())
    }
}

/// Whether the page has asked the running search to stop.
pub fn stop_requested() -> bool {
    // SAFETY: a call with no arguments that returns a number (module text).
    #[allow(unsafe_code)]
    unsafe {
        host_stop_requested() != 0
    }
}
