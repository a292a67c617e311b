//! Hotseat: Ovo, IOTA and Omiga for phones and tablets.
//!
//! `games` is the pure rules core; `ai` the opponents and the self-play bench; `session`
//! one match and its privacy gate; `referee` the headless text protocol; `store` what is
//! kept on the device; `net` two-device Omiga on the LAN. Everything with a window lives
//! in `ui`, behind the `ui` feature.

pub mod ai;
// The makers' tools; their pure half's tests run in the rules-only build too.
#[cfg(any(test, feature = "devtools"))]
pub mod devtools;
pub mod games;
pub mod kiosk;
pub mod lessons;
pub mod net;
pub mod platform;
pub mod puzzles;
pub mod referee;
pub mod session;
pub mod sound;
pub mod store;
#[cfg(feature = "ui")]
pub mod ui;
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub mod web;

#[cfg(feature = "ui")]
pub use ui::run_app;

/// The Android entry point: the same app as the desktop, in the activity's window, with
/// its files in the activity's own data folder, and the activity's lifecycle connected to
/// `ui::mobile` (pausing saves and covers the game; resuming shows the cover or Omiga's
/// countdown). Back arrives as Slint's `Key.Back`, handled in `ui/app.slint`.
#[cfg(all(target_os = "android", feature = "android"))]
#[no_mangle]
fn android_main(app: slint::android::AndroidApp) {
    use slint::android::android_activity::{MainEvent, PollEvent};
    if let Some(dir) = app.internal_data_path() {
        // `directories` has no answer on Android; the store reads this instead.
        std::env::set_var("HOTSEAT_DATA_DIR", dir);
    }
    let listener = |event: &PollEvent<'_>| match event {
        // SaveState comes before the activity may be destroyed; Pause when it leaves the
        // screen (home button, a call). Both save: the second costs one small file write.
        PollEvent::Main(MainEvent::Pause) | PollEvent::Main(MainEvent::SaveState { .. }) => {
            ui::mobile::on_pause()
        }
        PollEvent::Main(MainEvent::Resume { .. }) => ui::mobile::on_resume(),
        _ => {}
    };
    if let Err(e) = slint::android::init_with_event_listener(app, listener) {
        crate::note!("cannot start on Android: {e}");
        return;
    }
    if let Err(e) = run_app() {
        crate::note!("{e}");
    }
}
