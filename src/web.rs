//! The browser build (`web/`, docs/web.md): the same app as the desktop, drawn by Slint's
//! winit backend with FemtoVG into the page's WebGL canvas. What differs in a browser is
//! behind `platform` (storage, clock, background work, no LAN); this only starts the app.

use slint::ComponentHandle;

/// Starts the app in the page: `?kiosk` in the address (or the setting) starts kiosk mode.
/// `with_window` gets the app's window once its first frame is drawn (the page's
/// screen-reader layer, `web/a11y`, which lives in the web crate with its own dependency):
/// its first walk of the tree then never delays the first frame.
pub fn start(with_window: impl FnOnce(&slint::Window) + 'static) {
    // A panic would otherwise vanish (the browser has no standard error): show it in the
    // page's console, where a bug report can quote it, and keep it short in the page's
    // `hotseatPanic`, which `index.html` adds to "Hotseat could not start: …" when the
    // start fails (wasm has no unwinding: the page sees only "Unreachable code").
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("hotseat: {info}").into());
        if let Some(window) = web_sys::window() {
            let _ = js_sys::Reflect::set(&window, &"hotseatPanic".into(), &panic_line(info).into());
        }
    }));
    let kiosk = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| crate::kiosk::query_asks_for_kiosk(&q));
    crate::platform::mark("hs-start");
    match crate::ui::start_app(kiosk) {
        Ok((app, controller)) => {
            mark_first_frame(&app, with_window);
            follow_visibility();
            crate::platform::mark("hs-run");
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

/// A panic in one line, for the page: its message and where it happened in the code (the
/// file's last two parts: the crate's folder and name for a dependency, without the
/// builder's registry path).
fn panic_line(info: &std::panic::PanicHookInfo) -> String {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic");
    let Some(at) = info.location() else {
        return message.to_owned();
    };
    let file = at.file();
    let short = file
        .rmatch_indices(['/', '\\'])
        .nth(1)
        .map_or(file, |(i, _)| &file[i + 1..]);
    format!("{message} ({short}:{})", at.line())
}

/// The User Timing mark `hotseat-first-frame` once the first frame is drawn: the browser
/// bench (`web/bench.py`, docs/performance.md) reads it as the time from navigation to
/// the first frame. (Later frames it times from outside, around the page's animation
/// frames: Slint's rendering notifier is called for the first frame only in the browser.)
/// `hs-before-render` marks the first frame's start, for `web/startup.py`'s phases.
/// `then` gets the window right after the first frame.
fn mark_first_frame(app: &crate::ui::AppWindow, then: impl FnOnce(&slint::Window) + 'static) {
    let performance = web_sys::window().and_then(|w| w.performance());
    let first = std::cell::Cell::new(true);
    let then = std::rc::Rc::new(std::cell::Cell::new(Some(then)));
    let later = then.clone();
    let weak = app.as_weak();
    let notified = app
        .window()
        .set_rendering_notifier(move |state, _| match state {
            slint::RenderingState::BeforeRendering if first.get() => {
                if let Some(p) = &performance {
                    let _ = p.mark("hs-before-render");
                }
            }
            slint::RenderingState::AfterRendering if first.replace(false) => {
                if let Some(p) = &performance {
                    let _ = p.mark("hotseat-first-frame");
                }
                if let (Some(then), Some(app)) = (later.take(), weak.upgrade()) {
                    then(app.window());
                }
            }
            _ => {}
        });
    if let Err(e) = notified {
        crate::note!("frame timing is not available: {e}");
        // No first frame to wait for: the window is handed over at once.
        if let Some(then) = then.take() {
            then(app.window());
        }
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
