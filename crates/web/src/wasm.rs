//! The module's exports and imports. Exports: `kestrel_input(len)` gives a
//! buffer for one input of `len` bytes (UTF-8); `kestrel_command(len)`
//! handles the UCI command line written there; `kestrel_search(len)` runs
//! the search ordered there (a [`SearchOrder`] as JSON, from the game's
//! Worker), its reports written as lines; `kestrel_game(len)` gives the
//! page's games ([`Games`]) the input written there (an [`Input`] as JSON)
//! and writes what follows (an [`Output`](crate::games::Output)) as one
//! line. The engine's Worker uses the first three, the game's Worker the
//! first and the last: one module, two instances. Imports (module
//! `kestrel`): `output(ptr, len)` takes output text (whole lines), `now()`
//! the milliseconds of a monotonic clock, `poll()` what came for the
//! running search (bit 0: `stop`, bit 1: `ponderhit`), `pause(ms)` waits at
//! most so long, `random()` 32 random bits.

use std::cell::RefCell;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use engine::host::{Host, Interrupt};
use engine::Engine;

use crate::games::{Games, Input};
use crate::search::SearchOrder;
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
    /// The engine of the game Worker's searches (not the UCI session's).
    static SEARCH_ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
    static GAMES: RefCell<Option<Games>> = const { RefCell::new(None) };
}

/// Registers the browser as the engine's host, once, before the first
/// engine is made.
fn ensure_host() {
    let _ = engine::host::set_host(Host {
        now: host_now,
        poll: host_poll,
        pause: host_pause,
        seed: host_seed,
    });
}

/// The input written to the buffer, `len` bytes of it.
fn input_text(len: usize) -> String {
    INPUT.with_borrow(|input| String::from_utf8_lossy(&input[..len.min(input.len())]).into_owned())
}

/// Writes `text` and a line end to the page.
#[allow(unsafe_code)]
fn emit_line(text: &str) {
    let line = format!("{text}\n");
    // SAFETY: the import reads `len` bytes at `ptr`, which `line` holds for the call.
    unsafe { output(line.as_ptr(), line.len()) };
}

/// Output text, one `output` call per flush (the session flushes each line).
struct Output(Vec<u8>);

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    #[allow(unsafe_code)]
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

#[allow(unsafe_code)]
fn host_now() -> Duration {
    // SAFETY: the imports take and give plain numbers.
    let ms = unsafe { now() };
    Duration::from_secs_f64(ms.max(0.0) / 1000.0)
}

#[allow(unsafe_code)]
fn host_poll() -> Interrupt {
    // SAFETY: as above.
    let bits = unsafe { poll() };
    Interrupt {
        stop: bits & 1 != 0,
        ponderhit: bits & 2 != 0,
    }
}

#[allow(unsafe_code)]
fn host_pause(duration: Duration) {
    // SAFETY: as above.
    unsafe { pause(duration.as_secs_f64() * 1000.0) }
}

#[allow(unsafe_code)]
fn host_seed() -> u64 {
    // SAFETY: as above.
    let (high, low) = unsafe { (random(), random()) };
    (u64::from(high) << 32) | u64::from(low)
}

/// The buffer for the next command line, `len` bytes long.
// SAFETY: exported under its own name, which nothing else in the module uses.
#[allow(unsafe_code)]
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
// SAFETY: exported under its own name, which nothing else in the module uses.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn kestrel_command(len: usize) {
    let line = input_text(len);
    SESSION.with_borrow_mut(|session| {
        let session = session.get_or_insert_with(|| {
            // The host comes before the first engine (the session makes one).
            ensure_host();
            Session::new(Box::new(Output(Vec::new())))
        });
        session.handle(&line);
    });
}

/// Runs the search ordered in the buffer (a `SearchOrder` as JSON); its
/// reports are written one a line, the last a `best` one, before this
/// returns. An order that does not read is answered by nothing: the game's
/// Worker only sends orders it wrote.
// SAFETY: exported under its own name, which nothing else in the module uses.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn kestrel_search(len: usize) {
    let Ok(order) = serde_json::from_str::<SearchOrder>(&input_text(len)) else {
        return;
    };
    SEARCH_ENGINE.with_borrow_mut(|engine| {
        let engine = engine.get_or_insert_with(|| {
            ensure_host();
            Engine::new()
        });
        crate::search::run(engine, &order, Arc::new(|line: String| emit_line(&line)));
    });
}

/// Gives the page's games the input in the buffer (an `Input` as JSON)
/// and writes what follows (an `Output`) as one line.
// SAFETY: exported under its own name, which nothing else in the module uses.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn kestrel_game(len: usize) {
    // No engine searches here, but the engine's clock is the host's too.
    ensure_host();
    let text = input_text(len);
    let output = match serde_json::from_str::<Input>(&text) {
        Ok(input) => GAMES.with_borrow_mut(|games| {
            games
                .get_or_insert_with(|| Games::seeded(host_seed()))
                .handle(input)
        }),
        // The game Worker's own messages: a bad one is a bug there.
        Err(_) => crate::games::Output::default(),
    };
    emit_line(&serde_json::to_string(&output).unwrap_or_default());
}

/// The random bytes the standard library's users ask for (the book's
/// random choice), from the browser's `crypto.getRandomValues`.
///
/// # Safety
/// `dest` points to `len` writable bytes (getrandom's contract).
// SAFETY: the name getrandom links to (its custom backend), defined once.
#[allow(unsafe_code)]
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
