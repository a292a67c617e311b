//! The browser's entry: the page loads the module and this runs the same app as the
//! desktop (`hotseat::web::start`), drawing into the page's `<canvas id="canvas">`, with
//! the screen-reader layer over it (`a11y`).

#[cfg(target_arch = "wasm32")]
mod a11y;

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    hotseat::web::start(a11y::install);
}
