//! The browser build (`web/`, docs/web.md): the same app as the desktop, drawn by Slint's
//! winit backend with FemtoVG into the page's WebGL canvas. What differs in a browser is
//! behind `platform` (storage, clock, background work, no LAN); this only starts the app.

use slint::ComponentHandle;

/// Starts the app in the page: `?kiosk` in the address (or the setting) starts kiosk mode.
pub fn start() {
    // A panic would otherwise vanish (the browser has no standard error): show it in the
    // page's console, where a bug report can quote it.
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("hotseat: {info}").into());
    }));
    let kiosk = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| crate::kiosk::query_asks_for_kiosk(&q));
    match crate::ui::start_app(kiosk) {
        Ok((app, controller)) => {
            mark_frames(&app);
            follow_visibility();
            if let Err(e) = app.run() {
                web_sys::console::error_1(&format!("hotseat: {e}").into());
            }
            // The browser's event loop goes on after `run` has returned to it: the window
            // and its controller live as long as the page.
            std::mem::forget(app);
            std::mem::forget(controller);
        }
        Err(e) => web_sys::console::error_1(&format!("hotseat: cannot start: {e}").into()),
    }
}

/// Timing for the browser benchmarks (`web/bench.py`, docs/performance.md): a User
/// Timing mark `hotseat-first-frame` once the first frame is drawn, and each frame's
/// rendering time in ms appended to `window.hotseatFrames` (at most 10,000; the bench
/// empties it). Two clock readings a frame.
fn mark_frames(app: &crate::ui::AppWindow) {
    let Some(performance) = web_sys::window().and_then(|w| w.performance()) else {
        return;
    };
    let first = std::cell::Cell::new(true);
    let started = std::cell::Cell::new(0.0);
    let notified = app
        .window()
        .set_rendering_notifier(move |state, _| match state {
            slint::RenderingState::BeforeRendering => started.set(performance.now()),
            slint::RenderingState::AfterRendering => {
                if first.replace(false) {
                    let _ = performance.mark("hotseat-first-frame");
                }
                record_frame(performance.now() - started.get());
            }
            _ => {}
        });
    if let Err(e) = notified {
        crate::note!("frame timing is not available: {e}");
    }
}

fn record_frame(ms: f64) {
    use wasm_bindgen::JsValue;
    let Some(window) = web_sys::window() else {
        return;
    };
    let key = JsValue::from_str("hotseatFrames");
    let frames = match js_sys::Reflect::get(&window, &key) {
        Ok(v) if js_sys::Array::is_array(&v) => js_sys::Array::from(&v),
        _ => {
            let a = js_sys::Array::new();
            let _ = js_sys::Reflect::set(&window, &key, &a);
            a
        }
    };
    if frames.length() < 10_000 {
        frames.push(&JsValue::from_f64(ms));
    }
}

/// The page going to the background (another app, another tab, the phone locked) is what
/// Android calls a pause: the game is saved and the cover comes up, so whoever picks the
/// phone up next sees no hand; coming back shows the cover (Omiga: its countdown).
fn follow_visibility() {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let watched = document.clone();
    let changed = Closure::<dyn FnMut()>::new(move || {
        if watched.hidden() {
            crate::ui::mobile::on_pause();
        } else {
            crate::ui::mobile::on_resume();
        }
    });
    if document
        .add_event_listener_with_callback("visibilitychange", changed.as_ref().unchecked_ref())
        .is_err()
    {
        crate::note!("the page cannot tell when it goes to the background");
    }
    // The listener lives as long as the page.
    changed.forget();
}
