//! Watchdogs: interrupt Z3 when `--timeout` runs out, or at Ctrl-C.
//!
//! Z3 4.8.12 does not reliably honour a `timeout` parameter set on a solver
//! that already served checks: on 64-bit multiplication chains (a hash
//! inverted by a branch) one check ran 137 s under `--timeout 3`. So a
//! thread sleeps until the deadline and then calls `Z3_interrupt` on the
//! backend's context, which makes the running check return `unknown`
//! ("canceled"); the search then stops on its own clock. The thread is
//! told to stand down when the deadline changes or the backend goes away.
//!
//! Ctrl-C sets a flag that the search reads between queries; a hard check
//! would keep running for as long as it takes. A second watchdog polls
//! the flag (every 50 ms) and interrupts Z3 when it is set, so the run
//! stops and writes its tests at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The raw context pointer, sent to the watchdog thread. Z3 documents
/// `Z3_interrupt` as callable from another thread while a check runs.
struct RawContext(z3_sys::Z3_context);

// SAFETY: the pointer is only passed to `Z3_interrupt`, which Z3 makes
// thread-safe for this purpose; the context is the thread-local one of the
// `z3` crate, which lives as long as the thread that owns the backend (the
// watchdog is stood down when the backend is dropped).
unsafe impl Send for RawContext {}

/// A running watchdog; dropping it stands the thread down and waits for
/// it, so that no interrupt reaches a context after its backend is gone,
/// nor the next check after the one a float query's budget watched
/// (`Z3_interrupt` outside a check does nothing).
pub(crate) struct Watchdog {
    stand_down: Option<Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// Interrupt `ctx` at `deadline` unless dropped first.
    pub(crate) fn start(ctx: z3_sys::Z3_context, deadline: Instant) -> Watchdog {
        let (tx, rx) = channel::<()>();
        let raw = RawContext(ctx);
        let thread = std::thread::spawn(move || {
            let raw = raw;
            let wait = deadline.saturating_duration_since(Instant::now());
            if let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(wait) {
                // SAFETY: see `RawContext`.
                unsafe { z3_sys::Z3_interrupt(raw.0) };
            }
        });
        Watchdog { stand_down: Some(tx), thread: Some(thread) }
    }

    /// Interrupt `ctx` as soon as `flag` is set, unless dropped first.
    pub(crate) fn on_flag(ctx: z3_sys::Z3_context, flag: Arc<AtomicBool>) -> Watchdog {
        let (tx, rx) = channel::<()>();
        let raw = RawContext(ctx);
        let thread = std::thread::spawn(move || {
            let raw = raw;
            while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(Duration::from_millis(50)) {
                if flag.load(Ordering::SeqCst) {
                    // SAFETY: see `RawContext`.
                    unsafe { z3_sys::Z3_interrupt(raw.0) };
                    return;
                }
            }
        });
        Watchdog { stand_down: Some(tx), thread: Some(thread) }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        // The thread wakes at once (the channel closes or gets the
        // message) and returns; an interrupt it was making is done by
        // then, while the context still lives.
        drop(self.stand_down.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
