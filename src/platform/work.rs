//! Where the app's opponents think. A decision is work done in steps (each a slice of a
//! few ms, `ai::background::Decision`). On the desktop and Android the steps run one after
//! another on a worker thread and the answer comes back to the UI thread through Slint's
//! event loop, so the window never freezes.
//!
//! The browser has no threads (`std::thread::spawn` panics there), so the steps share the
//! page's one thread with its frames and taps. They run in *turns*, one per frame: right
//! after the browser has drawn a frame, steps run until the next would overrun [`TURN`]
//! (by the longest so far), then the page has the rest of the frame to itself. A tap arriving during a turn waits for the step
//! in progress, no longer; the frame after it is drawn on time. (Before, steps ran back
//! to back with 1 ms between them: each was short, yet the page's frames came 30–200 ms
//! late and a tap on Back was drawn after 143 ms, docs/performance.md.) The hard level's
//! time limit counts only the thinking (`ai::Budget`), so giving the page its frames
//! does not make the opponent weaker, only slower by the wall clock.

use std::time::Duration;

/// Runs `step` until it returns `Some`, in the background, then `done` with the result on
/// the UI thread.
#[cfg_attr(target_arch = "wasm32", allow(unused_mut))]
pub fn run_in_steps<R: Send + 'static>(
    mut step: impl FnMut() -> Option<R> + Send + 'static,
    done: impl FnOnce(R) + Send + 'static,
) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::spawn(move || {
            let result = loop {
                if let Some(r) = step() {
                    break r;
                }
            };
            // The window may be gone (the app quit): nothing to do then.
            let _ = slint::invoke_from_event_loop(move || done(result));
        });
    }
    #[cfg(target_arch = "wasm32")]
    {
        timing::begin_decision();
        // The first turn comes after the next frame: the banner saying who is thinking
        // is drawn first.
        next_turn(Thinking {
            step: Box::new(step),
            done: Box::new(done),
            longest: Duration::ZERO,
        });
    }
}

/// A decision being made in the browser, between two turns.
#[cfg(target_arch = "wasm32")]
struct Thinking<R> {
    step: Box<dyn FnMut() -> Option<R>>,
    done: Box<dyn FnOnce(R) + Send>,
    /// The longest step so far: a turn starts no step that would overrun it.
    longest: Duration,
}

/// Waits for the next frame, then runs one turn of steps.
#[cfg(target_arch = "wasm32")]
fn next_turn<R: Send + 'static>(thinking: Thinking<R>) {
    after_next_frame(Box::new(move || turn(thinking)));
}

/// Steps until the decision is made or the next step would overrun [`TURN`] (by the
/// longest so far). A turn runs at least one step, so the decision always advances.
#[cfg(target_arch = "wasm32")]
fn turn<R: Send + 'static>(mut thinking: Thinking<R>) {
    use crate::platform::time::Instant;
    let started = Instant::now();
    loop {
        let before = Instant::now();
        timing::begin(timing::SLICE);
        let result = (thinking.step)();
        timing::end(timing::SLICE);
        thinking.longest = thinking.longest.max(before.elapsed());
        if let Some(result) = result {
            timing::end(timing::THINKING);
            let done = thinking.done;
            // Through Slint's event loop, which then redraws what the answer changed
            // (this runs in a task of the page's own, outside that loop).
            if slint::invoke_from_event_loop(move || done(result)).is_err() {
                crate::note!("the app's answer came after the window closed");
            }
            return;
        }
        if started.elapsed() + thinking.longest > TURN {
            return next_turn(thinking);
        }
    }
}

/// Runs `then` once the browser has drawn its next frame: queued from the frame's
/// animation callback, a task runs after that frame is painted, with the rest of the
/// frame before the next one. (A page hidden in the background gets no frames: an
/// opponent's thinking waits there, as the game itself does behind the cover.)
#[cfg(target_arch = "wasm32")]
fn after_next_frame(then: Box<dyn FnOnce()>) {
    use wasm_bindgen::{closure::Closure, JsCast};
    let Some(window) = web_sys::window() else {
        crate::note!("no page to think in: the app's thinking stops");
        return;
    };
    let queue = window.clone();
    let on_frame = Closure::once_into_js(move || {
        let task = Closure::once_into_js(then);
        if queue
            .set_timeout_with_callback(task.unchecked_ref())
            .is_err()
        {
            crate::note!("the page refused a task: the app's thinking stops");
        }
    });
    if window
        .request_animation_frame(on_frame.unchecked_ref())
        .is_err()
    {
        crate::note!("the page refused a frame callback: the app's thinking stops");
    }
}

/// The page's User Timing entries for the browser bench (`web/bench.py`, docs/performance.md):
/// a measure `hotseat-slice` for each step (the page answers nothing while one runs) and
/// `hotseat-thinking` for the whole decision, from the call to the answer. Each decision
/// clears the last one's, so that a long game does not pile them up.
#[cfg(target_arch = "wasm32")]
mod timing {
    pub const SLICE: &str = "hotseat-slice";
    pub const THINKING: &str = "hotseat-thinking";

    fn performance() -> Option<web_sys::Performance> {
        web_sys::window().and_then(|w| w.performance())
    }

    pub fn begin_decision() {
        if let Some(p) = performance() {
            p.clear_measures_with_measure_name(SLICE);
            p.clear_measures_with_measure_name(THINKING);
        }
        begin(THINKING);
    }

    pub fn begin(name: &str) {
        crate::platform::mark(name);
    }

    pub fn end(name: &str) {
        if let Some(p) = performance() {
            let _ = p.measure_with_start_mark(name, name);
            p.clear_marks_with_mark_name(name);
        }
    }
}

/// How long the opponent thinks in one turn, at most one per frame: half of a 60 Hz
/// frame, the other half is the page's (drawing, taps).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const TURN: Duration = Duration::from_millis(8);
