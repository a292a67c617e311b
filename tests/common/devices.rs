//! Apps as devices of one two-device Omiga game, all in this test process: each window is
//! driven through its own accessible labels, the network runs for real, and net events are
//! taken in with `lan::drain` (the testing backend has no event loop to forward them to).

use hotseat::ui::{build, lan, AppWindow, Controller};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// One device: its window and its controller.
pub struct Device {
    pub app: AppWindow,
    pub c: Rc<RefCell<Controller>>,
}

thread_local! {
    static PLATFORM: () = i_slint_backend_testing::init_no_event_loop();
}

/// An app on show keeping its files in `dir` (its LAN seat is kept there), or nowhere.
pub fn device_in(dir: Option<PathBuf>) -> Device {
    PLATFORM.with(|_| {});
    let (app, c) = build(dir).expect("the app builds");
    app.show().expect("the window shows");
    Device { app, c }
}

/// Takes in the devices' net events until `done` holds (10 s at most, real time: the
/// sockets and the drivers' clocks are real), moving Slint's mock clock on by `tick` each
/// round for the screens that a Slint timer drives (zero: no timer moves).
pub fn pump(devices: &[&Device], what: &str, tick: Duration, done: impl Fn() -> bool) {
    let start = Instant::now();
    loop {
        if !tick.is_zero() {
            i_slint_backend_testing::mock_elapsed_time(tick);
        }
        for d in devices {
            lan::drain(&d.app, &mut d.c.borrow_mut());
        }
        if done() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
