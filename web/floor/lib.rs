//! The floor for docs/performance.md's browser figures: the least a Slint page can be —
//! one line of text in a window — built with the same profile and served the same way as
//! the app. It marks its first frame the way the app does (`hotseat-first-frame`).

slint::slint! {
    export component Floor inherits Window {
        background: #F3EBDD;
        Text { text: "Hotseat"; font-size: 24px; }
    }
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    use slint::ComponentHandle;
    let mark = |name: &str| {
        if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
            let _ = p.mark(name);
        }
    };
    mark("hs-start");
    let Ok(floor) = Floor::new() else { return };
    let _ = floor.window().set_rendering_notifier(move |state, _| {
        if matches!(state, slint::RenderingState::AfterRendering) {
            mark("hotseat-first-frame");
        }
        if matches!(state, slint::RenderingState::BeforeRendering) {
            mark("hs-before-render");
        }
    });
    mark("hs-run");
    let _ = floor.run();
    std::mem::forget(floor);
}
