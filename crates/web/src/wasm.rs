//! The module's exports and imports. Exports: `kestrel_input(len)` gives a
//! buffer for one command line of `len` bytes (UTF-8), `kestrel_command(len)`
//! handles the line written there. Imports (module `kestrel`): `output(ptr,
//! len)` takes output text (whole lines), `now()` the milliseconds of a
//! monotonic clock, `poll()` what came for the running search (bit 0:
//! `stop`, bit 1: `ponderhit`), `pause(ms)` waits at most so long,
//! `random()` 32 random bits.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::io::Write;
use std::time::Duration;

use engine::host::{Host, Interrupt};

use crate::session::Session;

#[link(wasm_import_module = "kestrel")]
extern "C" {
    fn output(ptr: *const u8, len: usize);
    fn now() -> f64;
    fn poll() -> u32;
    fn pause(ms: f64);
    fn random() -> u32;
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Output text, one `output` call per flush (the session flushes each line).
struct Output(Vec<u8>);

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.0.is_empty() {
            // SAFETY: the import reads `len` bytes at `ptr`, which the
            // vector holds for the call.
            unsafe { output(self.0.as_ptr(), self.0.len()) };
            self.0.clear();
        }
        Ok(())
    }
}

fn host_now() -> Duration {
    // SAFETY: the imports take and give plain numbers.
    let ms = unsafe { now() };
    Duration::from_secs_f64(ms.max(0.0) / 1000.0)
}

fn host_poll() -> Interrupt {
    // SAFETY: as above.
    let bits = unsafe { poll() };
    Interrupt {
        stop: bits & 1 != 0,
        ponderhit: bits & 2 != 0,
    }
}

fn host_pause(duration: Duration) {
    // SAFETY: as above.
    unsafe { pause(duration.as_secs_f64() * 1000.0) }
}

fn host_seed() -> u64 {
    // SAFETY: as above.
    let (high, low) = unsafe { (random(), random()) };
    (u64::from(high) << 32) | u64::from(low)
}

/// The buffer for the next command line, `len` bytes long.
#[no_mangle]
pub extern "C" fn kestrel_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|input| {
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// Handles the command line written to the buffer (`kestrel_input`). The
/// first call starts the session; a search is answered before this returns.
#[no_mangle]
pub extern "C" fn kestrel_command(len: usize) {
    let line = INPUT
        .with_borrow(|input| String::from_utf8_lossy(&input[..len.min(input.len())]).into_owned());
    SESSION.with_borrow_mut(|session| {
        let session = session.get_or_insert_with(|| {
            // The host comes before the first engine (the session makes one).
            let _ = engine::host::set_host(Host {
                now: host_now,
                poll: host_poll,
                pause: host_pause,
                seed: host_seed,
            });
            Session::new(Box::new(Output(Vec::new())))
        });
        session.handle(&line);
    });
}

/// The random bytes the standard library's users ask for (the book's
/// random choice), from the browser's `crypto.getRandomValues`.
///
/// # Safety
/// `dest` points to `len` writable bytes (getrandom's contract).
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(
    dest: *mut u8,
    len: usize,
) -> Result<(), getrandom::Error> {
    for i in 0..len {
        // SAFETY: `i < len`, and `dest` holds `len` bytes.
        unsafe { *dest.add(i) = random() as u8 };
    }
    Ok(())
}
