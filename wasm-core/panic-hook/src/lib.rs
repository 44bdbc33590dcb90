//! slub-panic-hook: the panic hook both wasm modules (slub-wasm, slub-lab-wasm) install.
//!
//! A Rust panic in the browser is a bug: the wasm call traps, and the page's crash screen wants
//! the panic's message (with its source location). The hook keeps it here; each module exports
//! it as `lastPanic` (its `#[wasm_bindgen]` entry points stay in the module itself, since an
//! export or a start function of a shared crate would be linked into both modules). Plain Rust,
//! no wasm-bindgen: what the two modules share is exactly this state and its two functions.

use std::sync::Mutex;

/// The message of the last panic, kept for the crash screen.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Install the hook that records every panic's message (call once, at module start).
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = Some(info.to_string());
        }
    }));
}

/// The message of the last panic, or `None` if none. Reading it forgets it: the caller keeps it
/// with the crash it reports, and a later error (a bad link after the crash) is then not
/// mistaken for the old panic.
pub fn take_last() -> Option<String> {
    LAST_PANIC.lock().ok().and_then(|mut last| last.take())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_is_recorded_once() {
        super::install();
        let caught = std::panic::catch_unwind(|| panic!("recorded"));
        assert!(caught.is_err());
        let msg = super::take_last().expect("the hook recorded the panic");
        assert!(msg.contains("recorded"), "{msg}");
        assert_eq!(super::take_last(), None, "reading it forgets it");
        let _ = std::panic::take_hook();
    }
}
