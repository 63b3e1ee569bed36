//! The module's exports (see the parent module): buffers, the session, and the typed
//! helpers.

use crate::engine::params::Params;
use crate::gomocup::here::Driver;
use crate::gomocup::output::Output;
use crate::web::{renlib_read, renlib_write, status};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;
/// Where the session's replies go: each whole line to the host.
struct PageLines(Vec<u8>);

impl Write for PageLines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        while let Some(end) = self.0.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.0.drain(..=end).collect();
            crate::core::host::emit(String::from_utf8_lossy(&line[..end]).trim_end_matches('\r'));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The module's state: the session, the page's buffers by address, the last result.
#[derive(Default)]
struct State {
    driver: Option<Driver>,
    buffers: HashMap<u32, Vec<u8>>,
    result: Vec<u8>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// The bytes the page wrote into its buffer at `ptr` (the first `len`; none for an
/// address this module did not hand out).
fn input(ptr: u32, len: u32) -> Vec<u8> {
    STATE.with_borrow(|s| {
        s.buffers
            .get(&ptr)
            .map(|b| b[..(len as usize).min(b.len())].to_vec())
            .unwrap_or_default()
    })
}

/// Leaves `bytes` as the result; 0 for success, 1 for an error.
fn set_result(bytes: Vec<u8>, ok: bool) -> u32 {
    STATE.with_borrow_mut(|s| s.result = bytes);
    u32::from(!ok)
}

fn json_result(r: Result<Value, String>) -> u32 {
    match r {
        Ok(v) => set_result(v.to_string().into_bytes(), true),
        Err(e) => set_result(
            json!({"ok": false, "error": e}).to_string().into_bytes(),
            false,
        ),
    }
}

/// A buffer of `len` bytes for the page to write into; its address.
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_alloc(len: u32) -> u32 {
    let mut buf = vec![0u8; len.max(1) as usize];
    let ptr = buf.as_mut_ptr() as usize as u32;
    STATE.with_borrow_mut(|s| s.buffers.insert(ptr, buf));
    ptr
}

/// Gives back a buffer from [`ff_alloc`].
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_free(ptr: u32, _len: u32) {
    STATE.with_borrow_mut(|s| s.buffers.remove(&ptr));
}

/// The address of the last result.
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_result_ptr() -> u32 {
    STATE.with_borrow(|s| s.result.as_ptr() as usize as u32)
}

/// The length of the last result in bytes.
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_result_len() -> u32 {
    STATE.with_borrow(|s| s.result.len() as u32)
}

/// Starts the protocol session (again, if there was one).
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_init() {
    let out = Arc::new(Output::new(Box::new(PageLines(Vec::new()))));
    STATE.with_borrow_mut(|s| s.driver = Some(Driver::new(out)));
}

/// One protocol line from the buffer at `ptr` (its first `len` bytes, no line end). A
/// search the line starts runs to its answer before this returns. 1 once the session is
/// over (`END`), else 0.
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_line(ptr: u32, len: u32) -> u32 {
    let text = String::from_utf8_lossy(&input(ptr, len)).into_owned();
    // The driver is taken out while it works: the replies it writes meanwhile go to the
    // host, not through this state.
    let Some(mut driver) = STATE.with_borrow_mut(|s| s.driver.take()) else {
        crate::core::host::emit("ERROR the engine was not started (ff_init)");
        return 0;
    };
    let going = driver.line(&text);
    STATE.with_borrow_mut(|s| s.driver = Some(driver));
    u32::from(!going)
}

/// A position's state for the page: `{"rule":4,"width":15,"height":15,"moves":[[7,7],…]}`
/// in the buffer; the result as in [`status`].
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_status(ptr: u32, len: u32) -> u32 {
    json_result(status(&input(ptr, len)))
}

/// A RenLib `.lib` file in the buffer; the result `{"ok":true,"nodes":[…]}` ([`renlib_read`]).
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_renlib_read(ptr: u32, len: u32) -> u32 {
    json_result(renlib_read(&input(ptr, len)))
}

/// A move tree `{"nodes":[…]}` in the buffer; the result the `.lib` file's bytes.
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_renlib_write(ptr: u32, len: u32) -> u32 {
    match renlib_write(&input(ptr, len)) {
        Ok(bytes) => set_result(bytes, true),
        Err(e) => json_result(Err(e)),
    }
}

/// The bench (`pbrain-fivefold bench`): its positions to `depth` (0: the bench's own),
/// with the search parameters in the buffer (`use_net=0`; empty for the defaults); its
/// lines go to the host as they would to standard output.
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_bench(depth: u32, ptr: u32, len: u32) -> u32 {
    let spec = String::from_utf8_lossy(&input(ptr, len)).into_owned();
    let mut params = Params::default();
    if let Err(e) = params.apply(spec.trim()) {
        crate::core::host::emit(&format!("ERROR bench: {e}"));
        return 1;
    }
    let depth = if depth == 0 {
        crate::cli::bench::BENCH_DEPTH
    } else {
        depth.min(64) as i32
    };
    for l in crate::cli::bench::run_search_with(depth, 1, &params) {
        crate::core::host::emit(&l);
    }
    0
}

/// Runs search helpers for ever: what each of the page's helper workers calls, on the
/// stack and thread-local block the page set up for it (the build with shared memory
/// only; [`crate::engine::threads`]).
#[cfg(target_feature = "atomics")]
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_thread_main() {
    crate::engine::threads::worker_loop()
}

/// How many helper workers run [`ff_thread_main`] (0 in the builds without shared memory):
/// a search uses at most one more thread than this, whatever `INFO thread_num` says.
#[no_mangle]
#[allow(unsafe_code)] // `no_mangle` is an export, not an unsafe operation
pub extern "C" fn ff_helpers() -> u32 {
    #[cfg(target_feature = "atomics")]
    return crate::engine::threads::workers() as u32;
    #[cfg(not(target_feature = "atomics"))]
    return 0;
}
