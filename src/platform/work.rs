//! Where the app's opponents think. A decision is work done in steps (each a slice of a
//! few ms, `ai::background::Decision`). On the desktop and Android the steps run one after
//! another on a worker thread and the answer comes back to the UI thread through Slint's
//! event loop, so the window never freezes. The browser has no threads
//! (`std::thread::spawn` panics there): each step runs on its own turn of the event loop,
//! so taps and frames are handled between two steps (the first step waits one frame, so
//! that the banner saying who is thinking is drawn first).

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
        next_turn(Box::new(step), Box::new(done), ONE_FRAME);
    }
}

#[cfg(target_arch = "wasm32")]
fn next_turn<R: 'static>(
    mut step: Box<dyn FnMut() -> Option<R>>,
    done: Box<dyn FnOnce(R)>,
    after: Duration,
) {
    slint::Timer::single_shot(after, move || {
        timing::begin(timing::SLICE);
        let result = step();
        timing::end(timing::SLICE);
        match result {
            Some(result) => {
                timing::end(timing::THINKING);
                done(result)
            }
            None => next_turn(step, done, BETWEEN_STEPS),
        }
    });
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
        if let Some(p) = performance() {
            let _ = p.mark(name);
        }
    }

    pub fn end(name: &str) {
        if let Some(p) = performance() {
            let _ = p.measure_with_start_mark(name, name);
            p.clear_marks_with_mark_name(name);
        }
    }
}

/// Long enough for the browser to paint the frame that shows who is thinking.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const ONE_FRAME: Duration = Duration::from_millis(20);

/// The pause between two steps in the browser: the event loop handles what came in.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const BETWEEN_STEPS: Duration = Duration::from_millis(1);
