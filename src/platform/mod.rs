//! The seam to what differs by target: the desktop (Linux, Windows, macOS), Android and
//! the browser (WebAssembly). Everything else in the crate is written once against this
//! module, so a `cfg` on the target appears here and nowhere else in the app's logic.
//!
//! - [`camera`]: reading the other phone's pairing QR code (the browser's camera; none
//!   elsewhere, said as an error);
//! - [`storage`]: the files Hotseat keeps (a folder on the desktop and Android, the
//!   browser's `localStorage` on the web), with the same atomic replacement and the same
//!   errors;
//! - [`time`]: the clock (`std::time::Instant` panics in the browser);
//! - [`touch`]: one finger at a time for Slint, so that no finger's tap is lost (the
//!   desktop's winit window event filter);
//! - `work` (with the UI): where an opponent thinks — a worker thread, or the browser's
//!   event loop, which has no threads;
//! - `audio` (with the UI): where the table's cues are heard;
//! - [`vibrator`]: the phone's buzz (Android's `Vibrator` through JNI, the browser's
//!   `navigator.vibrate`);
//! - [`MulticastLock`]: what only Android asks for before LAN discovery;
//! - [`HAS_LAN`]: whether this target can open network sockets at all;
//! - [`WINDOW_TAKES_FULL_SCREEN`]: whether the app's window may ask for full screen itself.
//!
//! In the browser the page does what [`touch`] does: `web/touch.js` hands the page's
//! touch pointers to the app one finger at a time, so that every finger's tap reaches what
//! it touched although Slint makes one pointer of all fingers (docs/omiga-touch.md). It
//! must see each event before winit's listeners on the canvas, which only a listener of
//! the page's own, in the capture phase, can.

#[cfg(feature = "ui")]
pub mod audio;
pub mod camera;
mod multicast;
pub mod storage;
pub mod time;
pub mod touch;
pub mod vibrator;
#[cfg(feature = "ui")]
pub mod work;

pub use multicast::MulticastLock;

/// Whether this build can talk to another device on the local network. A web page cannot
/// open a LAN socket, so the browser build offers no two-device play (it says why).
pub const HAS_LAN: bool = !cfg!(target_arch = "wasm32");

/// Whether kiosk mode's window asks for full screen itself. A browser grants full screen
/// only from a tap, so there the page asks on the first tap (web/index.html). Asked by the
/// window at start, the browser refuses; Slint then sees a window that is not full screen
/// and tells winit to leave full screen, and `document.exitFullscreen()` throws on a page
/// that is not full screen ("Document not active", an error in the page's console; seen
/// by tests/browser/play.py's kiosk check).
pub const WINDOW_TAKES_FULL_SCREEN: bool = !cfg!(target_arch = "wasm32");

/// Tells whoever looks after the device something went wrong that the player need not be
/// stopped for (a damaged settings file set aside, a save that failed): the standard
/// error on the desktop and Android, the page's console in the browser (which has no
/// standard error).
pub fn note(text: &str) {
    #[cfg(all(target_arch = "wasm32", feature = "ui"))]
    web_sys::console::warn_1(&format!("hotseat: {text}").into());
    #[cfg(not(all(target_arch = "wasm32", feature = "ui")))]
    eprintln!("hotseat: {text}");
}

/// A User Timing mark in the page (`performance.mark`): the phases of the browser's start
/// that `web/startup.py` times (docs/web-first-frame.md); nothing elsewhere.
pub fn mark(name: &str) {
    #[cfg(all(target_arch = "wasm32", feature = "ui"))]
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "ui")))]
    let _ = name;
}

/// In the browser, a User Timing measure `name` from the mark `since` to now (for the
/// benches, read from the page); the mark is cleared. Elsewhere nothing.
pub fn measure(name: &str, since: &str) {
    #[cfg(all(target_arch = "wasm32", feature = "ui"))]
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        if p.get_entries_by_name_with_entry_type(since, "mark")
            .length()
            > 0
        {
            let _ = p.measure_with_start_mark(name, since);
            p.clear_marks_with_mark_name(since);
        }
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "ui")))]
    let _ = (name, since);
}

/// The page's language (`<html lang>`), the app's: a screen reader reading the page's layer
/// (web/a11y) chooses its voice and pronunciation by it. Elsewhere nothing.
pub fn set_page_language(code: &str) {
    #[cfg(all(target_arch = "wasm32", feature = "ui"))]
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", code);
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "ui")))]
    let _ = code;
}

/// `note!("…", args)`: [`note`] with `format!` arguments.
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::platform::note(&format!($($arg)*))
    };
}
