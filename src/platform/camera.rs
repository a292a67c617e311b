//! The camera reading the other phone's pairing code (issue 31): in the browser,
//! `getUserMedia` with the back camera into a hidden `<video>`; every 200 ms a frame is
//! drawn on an offscreen canvas and read, by the browser's own `BarcodeDetector` where it
//! has one (fast, native) or by `net::qr::read_qr` (rqrr) over the frame's grey levels.
//! The first text starting with `HS` is handed over and the camera is switched off; so it
//! is when the [`CameraScan`] is dropped. Each read also hands over a small copy of the
//! frame (RGBA, at most [`PREVIEW_SIDE`] pixels a side) for the screen's viewfinder.
//!
//! Elsewhere there is no camera to read: the desktop and Android builds pair over TCP with
//! the typed address and code, so [`start`] says so as an error.
//!
//! How to test it without a phone (docs/network.md): Chromium's fake camera,
//! `--use-fake-device-for-media-stream --use-fake-ui-for-media-stream
//! --use-file-for-fake-video-capture=code.y4m`, shows a QR code written as a Y4M video.

/// The viewfinder's frames are at most this wide or high: enough to aim the camera on a
/// phone's screen, small enough to copy five times a second.
pub const PREVIEW_SIDE: u32 = 320;

/// Why the camera cannot be used here (the desktop and Android): not a failure, a fact.
#[cfg(not(target_arch = "wasm32"))]
pub const NO_CAMERA: &str =
    "no camera here: only the browser build scans pairing codes; paste the code as text";

/// A running scan; dropping it switches the camera off.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
pub struct CameraScan(());

#[cfg(not(target_arch = "wasm32"))]
impl CameraScan {
    /// Why the scan stopped before reading a code (never, here: there is no scan).
    pub fn failed(&self) -> Option<String> {
        None
    }
}

/// Starts the camera and reads codes until one starts with `HS`: `on_text` gets it, once;
/// `on_frame` gets each frame read, small (width, height, RGBA bytes).
/// Outside the browser there is no camera: the error says so.
#[cfg(not(target_arch = "wasm32"))]
pub fn start(
    on_text: impl FnMut(String) + 'static,
    on_frame: impl FnMut(u32, u32, &[u8]) + 'static,
) -> Result<CameraScan, String> {
    drop((on_text, on_frame));
    Err(NO_CAMERA.into())
}

#[cfg(target_arch = "wasm32")]
pub use web::{start, CameraScan};

#[cfg(target_arch = "wasm32")]
mod web {
    use super::PREVIEW_SIDE;
    use crate::net::qr::read_qr;
    use js_sys::{Array, Object, Reflect};
    use std::cell::{Cell, RefCell};
    use std::rc::{Rc, Weak};
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::{
        CanvasRenderingContext2d, HtmlCanvasElement, HtmlVideoElement, MediaStream,
        MediaStreamConstraints, MediaStreamTrack,
    };

    /// How often a frame is read: five a second finds a code held up within a moment and
    /// leaves the phone's one thread to the page.
    const EVERY_MS: i32 = 200;
    /// Frames are read at most this wide or high: rqrr's time grows with the pixels, and a
    /// code held up to the camera spans far more than the few pixels a module needs.
    const MAX_SIDE: u32 = 800;

    /// A running scan; dropping it switches the camera off.
    pub struct CameraScan {
        inner: Rc<Inner>,
    }

    impl CameraScan {
        /// Why the scan stopped before reading a code (camera refused, none found, …), once
        /// it has: the page asks for the camera after `start` has returned, so this comes
        /// later. The words are the browser's (`NotAllowedError: Permission denied`).
        pub fn failed(&self) -> Option<String> {
            self.inner.failed.borrow().clone()
        }
    }

    impl Drop for CameraScan {
        fn drop(&mut self) {
            self.inner.stop();
        }
    }

    /// What a read code is handed to.
    type OnText = Box<dyn FnMut(String)>;
    /// What the viewfinder's frames are handed to.
    type OnFrame = Box<dyn FnMut(u32, u32, &[u8])>;

    struct Inner {
        window: web_sys::Window,
        video: HtmlVideoElement,
        canvas: HtmlCanvasElement,
        context: CanvasRenderingContext2d,
        stream: RefCell<Option<MediaStream>>,
        interval: Cell<Option<i32>>,
        stopped: Cell<bool>,
        failed: RefCell<Option<String>>,
        on_text: RefCell<Option<OnText>>,
        /// The viewfinder's canvas, its context, and who gets its frames.
        preview: HtmlCanvasElement,
        preview_context: CanvasRenderingContext2d,
        on_frame: RefCell<OnFrame>,
        /// The browser's `BarcodeDetector`, where there is one.
        detector: Option<JsValue>,
        /// A detection is under way (they are promises; one at a time).
        detecting: Cell<bool>,
        /// The timer's closure: kept while the timer runs, freed after the scan stops.
        tick: RefCell<Option<Closure<dyn FnMut()>>>,
    }

    /// What a browser error says, as text.
    fn words(e: &JsValue) -> String {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| format!("{}: {}", e.name(), e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| format!("{e:?}"))
    }

    /// Starts the back camera and reads codes until one starts with `HS`: `on_text` gets
    /// it, once, and the camera is switched off; `on_frame` gets each frame read, small. An error at once when the page has no
    /// camera at all (an insecure page: `getUserMedia` needs https or localhost); a refusal
    /// that comes later (the player said no) is [`CameraScan::failed`].
    pub fn start(
        on_text: impl FnMut(String) + 'static,
        on_frame: impl FnMut(u32, u32, &[u8]) + 'static,
    ) -> Result<CameraScan, String> {
        let window = web_sys::window().ok_or("no window")?;
        let document = window.document().ok_or("no document")?;
        let devices = window
            .navigator()
            .media_devices()
            .map_err(|e| format!("this page cannot use a camera ({})", words(&e)))?;
        let video: HtmlVideoElement = document
            .create_element("video")
            .map_err(|e| words(&e))?
            .dyn_into()
            .map_err(|_| "no video element")?;
        // iOS plays a camera only inline and muted, and only from an element in the page:
        // it is there, 1 pixel and transparent.
        video.set_muted(true);
        for (name, value) in [
            ("playsinline", ""),
            ("muted", ""),
            ("aria-hidden", "true"),
            (
                "style",
                "position:fixed;left:0;top:0;width:1px;height:1px;opacity:0;pointer-events:none",
            ),
        ] {
            video.set_attribute(name, value).map_err(|e| words(&e))?;
        }
        let (canvas, context) = read_back_canvas(&document)?;
        let (preview, preview_context) = read_back_canvas(&document)?;
        let detector = barcode_detector(&window);
        if let Some(body) = document.body() {
            body.append_child(&video).map_err(|e| words(&e))?;
        }

        let video_constraints = Object::new();
        Reflect::set(
            &video_constraints,
            &"facingMode".into(),
            &"environment".into(),
        )
        .map_err(|e| words(&e))?;
        let constraints = MediaStreamConstraints::new();
        constraints.set_video(&video_constraints);
        constraints.set_audio(&false.into());
        let asked = devices
            .get_user_media_with_constraints(&constraints)
            .map_err(|e| format!("this page cannot use a camera ({})", words(&e)))?;

        let inner = Rc::new(Inner {
            window,
            video,
            canvas,
            context,
            stream: RefCell::new(None),
            interval: Cell::new(None),
            stopped: Cell::new(false),
            failed: RefCell::new(None),
            on_text: RefCell::new(Some(Box::new(on_text))),
            preview,
            preview_context,
            on_frame: RefCell::new(Box::new(on_frame)),
            detector,
            detecting: Cell::new(false),
            tick: RefCell::new(None),
        });
        let granted = {
            let inner = Rc::downgrade(&inner);
            Closure::once_into_js(move |stream: JsValue| {
                let Ok(stream) = stream.dyn_into::<MediaStream>() else {
                    return;
                };
                match inner.upgrade() {
                    Some(inner) if !inner.stopped.get() => inner.play(stream),
                    // Stopped while the player was asked: the camera goes off at once.
                    _ => stop_tracks(&stream),
                }
            })
        };
        let refused = {
            let inner = Rc::downgrade(&inner);
            Closure::once_into_js(move |e: JsValue| {
                if let Some(inner) = inner.upgrade() {
                    inner.fail(format!("the camera could not be used ({})", words(&e)));
                }
            })
        };
        settled(&asked, &granted, &refused);
        Ok(CameraScan { inner })
    }

    /// An offscreen canvas whose frames are read back every time (the browser is told to
    /// keep them in memory).
    fn read_back_canvas(
        document: &web_sys::Document,
    ) -> Result<(HtmlCanvasElement, CanvasRenderingContext2d), String> {
        let canvas: HtmlCanvasElement = document
            .create_element("canvas")
            .map_err(|e| words(&e))?
            .dyn_into()
            .map_err(|_| "no canvas element")?;
        let options = Object::new();
        Reflect::set(&options, &"willReadFrequently".into(), &true.into())
            .map_err(|e| words(&e))?;
        let context: CanvasRenderingContext2d = canvas
            .get_context_with_context_options("2d", &options)
            .map_err(|e| words(&e))?
            .ok_or("no 2D canvas")?
            .dyn_into()
            .map_err(|_| "no 2D canvas")?;
        Ok((canvas, context))
    }

    /// `(w, h)` shrunk to fit `side` pixels on its longer edge (never grown).
    fn fit(w: u32, h: u32, side: u32) -> (u32, u32) {
        let shrink = f64::from(side) / f64::from(w.max(h).max(1));
        if shrink < 1.0 {
            (
                (f64::from(w) * shrink) as u32,
                (f64::from(h) * shrink) as u32,
            )
        } else {
            (w, h)
        }
    }

    /// `new BarcodeDetector({formats: ["qr_code"]})` where the browser has one.
    fn barcode_detector(window: &web_sys::Window) -> Option<JsValue> {
        if !Reflect::has(window, &"BarcodeDetector".into()).unwrap_or(false) {
            return None;
        }
        let class: js_sys::Function = Reflect::get(window, &"BarcodeDetector".into())
            .ok()?
            .dyn_into()
            .ok()?;
        let options = Object::new();
        Reflect::set(&options, &"formats".into(), &Array::of1(&"qr_code".into())).ok()?;
        Reflect::construct(&class, &Array::of1(&options)).ok()
    }

    /// `promise.then(ok, err)` with closures made by `Closure::once_into_js` (they free
    /// themselves when called): through `Reflect`, so it does not depend on how a version
    /// of js-sys types its promises. False if `promise` has no `then`.
    fn settled(promise: &JsValue, ok: &JsValue, err: &JsValue) -> bool {
        Reflect::get(promise, &"then".into())
            .ok()
            .and_then(|then| then.dyn_into::<js_sys::Function>().ok())
            .is_some_and(|then| then.call2(promise, ok, err).is_ok())
    }

    fn stop_tracks(stream: &MediaStream) {
        for track in stream.get_tracks().iter() {
            if let Ok(track) = track.dyn_into::<MediaStreamTrack>() {
                track.stop();
            }
        }
    }

    impl Inner {
        /// The camera is granted: show it to the hidden video and read a frame every
        /// [`EVERY_MS`].
        fn play(self: &Rc<Self>, stream: MediaStream) {
            self.video.set_src_object(Some(&stream));
            *self.stream.borrow_mut() = Some(stream);
            if let Ok(playing) = self.video.play() {
                let weak = Rc::downgrade(self);
                let failed = Closure::once_into_js(move |e: JsValue| {
                    if let Some(inner) = weak.upgrade() {
                        inner.fail(format!(
                            "the camera's picture did not start ({})",
                            words(&e)
                        ));
                    }
                });
                settled(&playing, &JsValue::UNDEFINED, &failed);
            }
            let weak: Weak<Inner> = Rc::downgrade(self);
            let tick = Closure::<dyn FnMut()>::new(move || {
                // Held for the tick: the scan may be dropped by `on_text` inside it.
                if let Some(inner) = weak.upgrade() {
                    inner.tick();
                }
            });
            match self
                .window
                .set_interval_with_callback_and_timeout_and_arguments_0(
                    tick.as_ref().unchecked_ref(),
                    EVERY_MS,
                ) {
                Ok(id) => {
                    self.interval.set(Some(id));
                    *self.tick.borrow_mut() = Some(tick);
                }
                Err(e) => self.fail(format!("no timer ({})", words(&e))),
            }
        }

        /// Reads one frame, unless one is still being read.
        fn tick(self: &Rc<Self>) {
            // HAVE_CURRENT_DATA: a frame to draw.
            if self.stopped.get() || self.video.ready_state() < 2 {
                return;
            }
            self.preview();
            if self.detecting.get() {
                return;
            }
            if let Some(detector) = &self.detector {
                self.detect(detector);
                return;
            }
            let (w, h) = (self.video.video_width(), self.video.video_height());
            let (cw, ch) = fit(w, h, MAX_SIDE);
            if cw == 0 || ch == 0 {
                return;
            }
            if self.canvas.width() != cw || self.canvas.height() != ch {
                self.canvas.set_width(cw);
                self.canvas.set_height(ch);
            }
            let (fw, fh) = (f64::from(cw), f64::from(ch));
            if self
                .context
                .draw_image_with_html_video_element_and_dw_and_dh(&self.video, 0.0, 0.0, fw, fh)
                .is_err()
            {
                return;
            }
            let Ok(frame) = self.context.get_image_data(0.0, 0.0, fw, fh) else {
                return;
            };
            let rgba = frame.data();
            // Rec. 601 luma in integers: what rqrr thresholds.
            let grey: Vec<u8> = rgba
                .chunks_exact(4)
                .map(|p| {
                    ((77 * u32::from(p[0]) + 150 * u32::from(p[1]) + 29 * u32::from(p[2])) >> 8)
                        as u8
                })
                .collect();
            if let Some(text) = read_qr(cw as usize, ch as usize, &grey) {
                self.found(text);
            }
        }

        /// The current frame, small, to `on_frame` (the screen's viewfinder).
        fn preview(&self) {
            let (w, h) = fit(
                self.video.video_width(),
                self.video.video_height(),
                PREVIEW_SIDE,
            );
            if w == 0 || h == 0 {
                return;
            }
            if self.preview.width() != w || self.preview.height() != h {
                self.preview.set_width(w);
                self.preview.set_height(h);
            }
            let (fw, fh) = (f64::from(w), f64::from(h));
            if self
                .preview_context
                .draw_image_with_html_video_element_and_dw_and_dh(&self.video, 0.0, 0.0, fw, fh)
                .is_err()
            {
                return;
            }
            if let Ok(frame) = self.preview_context.get_image_data(0.0, 0.0, fw, fh) {
                (self.on_frame.borrow_mut())(w, h, &frame.data().0);
            }
        }

        /// Asks the browser's `BarcodeDetector` about the video's current frame.
        fn detect(self: &Rc<Self>, detector: &JsValue) {
            let Ok(detect) = Reflect::get(detector, &"detect".into())
                .and_then(|f| f.dyn_into::<js_sys::Function>())
            else {
                return;
            };
            let Ok(promise) = detect.call1(detector, &self.video) else {
                return;
            };
            self.detecting.set(true);
            let weak = Rc::downgrade(self);
            let seen = Closure::once_into_js(move |codes: JsValue| {
                let Some(inner) = weak.upgrade() else { return };
                inner.detecting.set(false);
                let text = Array::from(&codes).iter().find_map(|code| {
                    let text = Reflect::get(&code, &"rawValue".into()).ok()?.as_string()?;
                    let text = text.trim();
                    text.get(..2)
                        .is_some_and(|p| p.eq_ignore_ascii_case("HS"))
                        .then(|| text.to_string())
                });
                if let Some(text) = text {
                    inner.found(text);
                }
            });
            let weak = Rc::downgrade(self);
            let failed = Closure::once_into_js(move |_: JsValue| {
                if let Some(inner) = weak.upgrade() {
                    inner.detecting.set(false);
                }
            });
            if !settled(&promise, &seen, &failed) {
                self.detecting.set(false);
            }
        }

        /// A code is read: the camera goes off, then `on_text` has it.
        fn found(&self, text: String) {
            if self.stopped.get() {
                return;
            }
            self.stop();
            let on_text = self.on_text.borrow_mut().take();
            if let Some(mut on_text) = on_text {
                on_text(text);
            }
        }

        fn fail(&self, why: String) {
            if !self.stopped.get() {
                *self.failed.borrow_mut() = Some(why);
                self.stop();
            }
        }

        /// Switches the camera off, removes the video, ends the timer. The timer's
        /// closure may be the one running now, so it is freed on the next turn of the
        /// event loop, not here.
        fn stop(&self) {
            self.stopped.set(true);
            if let Some(id) = self.interval.take() {
                self.window.clear_interval_with_handle(id);
            }
            if let Some(stream) = self.stream.borrow_mut().take() {
                stop_tracks(&stream);
            }
            self.video.set_src_object(None);
            self.video.remove();
            if let Some(tick) = self.tick.borrow_mut().take() {
                let free = Closure::once_into_js(move || drop(tick));
                let _ = self
                    .window
                    .set_timeout_with_callback_and_timeout_and_arguments_0(free.unchecked_ref(), 0);
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    #[test]
    fn outside_the_browser_the_camera_says_it_is_not_there() {
        let e = super::start(
            |_| unreachable!("no text without a camera"),
            |_, _, _| unreachable!("no frame without a camera"),
        )
        .unwrap_err();
        assert!(e.contains("no camera here"), "{e}");
    }
}
