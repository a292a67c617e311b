//! The camera reading the other phone's QR code (the browser; the desktop shows no Scan
//! button, `engine::CAN_SCAN`): what it reads goes where a pasted text goes.

use super::{message, say, take_text, PageLink, PageState};
use crate::platform::camera::{self, CameraScan};
use crate::ui::texts::LanText;
use crate::ui::{AppWindow, LanBridge};
use slint::{ComponentHandle, Image, Rgba8Pixel, SharedPixelBuffer};
use std::cell::RefCell;
use std::rc::Rc;

/// Scan pressed, and from there to the other phone's text read (`tests/browser/rtc.py`).
const SCAN_MARK: &str = "hotseat-scan-start";
const SCAN_READ: &str = "hotseat-scan-read";

/// A camera frame for the viewfinder: width, height, RGBA.
type Frame = (u32, u32, Vec<u8>);

/// The camera reading the other phone's code: what it has read and seen waits here for the
/// page's next beat (the camera's own timer never reaches into the page's state).
pub(super) struct Scan {
    camera: CameraScan,
    read: Rc<RefCell<Option<String>>>,
    /// The latest frame for the viewfinder.
    frame: Rc<RefCell<Option<Frame>>>,
}

impl Scan {
    fn failed(&self) -> Option<String> {
        self.camera.failed()
    }
}

impl PageLink {
    /// Starts the camera to read the other phone's code (Scan pressed); what it reads goes
    /// where a pasted text goes. A camera that cannot start says why; paste still works.
    pub fn scan(&self, app: &AppWindow) {
        let mut state = self.state.borrow_mut();
        if state.scan.is_some() {
            return;
        }
        let language = state.language;
        crate::platform::mark(SCAN_MARK);
        let read = Rc::new(RefCell::new(None));
        let frame = Rc::new(RefCell::new(None));
        let started = {
            let (read, frame) = (read.clone(), frame.clone());
            camera::start(
                move |text| *read.borrow_mut() = Some(text),
                move |w, h, rgba: &[u8]| *frame.borrow_mut() = Some((w, h, rgba.to_vec())),
            )
        };
        match started {
            Ok(camera) => {
                state.scan = Some(Scan {
                    camera,
                    read,
                    frame,
                });
                let b = app.global::<LanBridge>();
                b.set_scan_view(Image::default());
                b.set_scanning(true);
                message(app, "", false);
            }
            Err(why) => message(app, &say(language, camera_text(why)), true),
        }
    }

    /// Switches the camera off (Cancel pressed).
    pub fn stop_scan(&self, app: &AppWindow) {
        self.state.borrow_mut().scan = None;
        scan_off(app);
    }
}

/// The camera's failure in the player's words: refused, none there, or the browser's own.
fn camera_text(why: String) -> LanText {
    if why.contains("NotAllowedError") || why.contains("SecurityError") {
        LanText::CameraRefused
    } else if why.contains("NotFoundError")
        || why.contains("OverconstrainedError")
        || why.contains("cannot use a camera")
    {
        LanText::NoCamera
    } else {
        LanText::CameraFailed { why }
    }
}

/// The scanning state off the screen: no viewfinder, the Scan button back.
pub(super) fn scan_off(app: &AppWindow) {
    let b = app.global::<LanBridge>();
    b.set_scanning(false);
    b.set_scan_view(Image::default());
}

/// The camera's news on the page's beat: a text read goes where a pasted one goes (the
/// camera is off by then); a failure is said; a new frame shows in the viewfinder.
pub(super) fn scan_step(app: &AppWindow, s: &mut PageState) {
    let Some(scan) = s.scan.as_ref() else {
        return;
    };
    let read = scan.read.borrow_mut().take();
    if let Some(text) = read {
        crate::platform::measure(SCAN_READ, SCAN_MARK);
        // Shown in the paste field too, so that the player sees what was read.
        app.global::<LanBridge>()
            .set_pasted_text(text.as_str().into());
        // take_text ends the scan.
        take_text(app, s, &text);
        return;
    }
    if let Some(why) = scan.failed() {
        s.scan = None;
        scan_off(app);
        message(app, &say(s.language, camera_text(why)), true);
        return;
    }
    let frame = scan.frame.borrow_mut().take();
    if let Some((w, h, rgba)) = frame {
        let mut pixels = SharedPixelBuffer::<Rgba8Pixel>::new(w, h);
        let bytes = pixels.make_mut_bytes();
        if bytes.len() == rgba.len() {
            bytes.copy_from_slice(&rgba);
            app.global::<LanBridge>()
                .set_scan_view(Image::from_rgba8(pixels));
        }
    }
}
