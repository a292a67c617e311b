//! Nothing runs on a screen nobody touches: no timer, no animation, no redraw. An app
//! that keeps ticking while people think drains the battery of the phone on the table.
// Staged with the developer tools' fixtures (the example tables), hence `devtools`.
#![cfg(feature = "devtools")]

use hotseat::devtools::bench::{frame, scenes};

#[test]
fn every_screen_left_alone_schedules_nothing() {
    // One headless platform per process: every scene is checked with the same one.
    let mut bench = frame::Bench::new().expect("the headless renderer starts");
    for scene in scenes::SCENES {
        let busy = frame::idle_check(&mut bench, scene).expect("the scene opens");
        assert!(busy.is_empty(), "{scene} left alone: {}", busy.join("; "));
    }
}
