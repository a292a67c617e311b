//! The page's two live regions (the app's announcements, polite; the summary, assertive),
//! written so that phone readers hear them (issue 41, docs/research phone-screen-readers):
//! - They are in the page from its first frame, empty (`web/index.html`): a region made
//!   with its words, or made after them, is not announced.
//! - Each message is a new child of its region; one equal to the last one written gets a
//!   no-break space at its end (the next equal one loses it again): VoiceOver does not
//!   speak a message equal to the one it spoke last (flutter#142250, the lichess
//!   blind-mode tutorial).
//! - One that comes at a reader's activation waits until `HOLD_MS` after it: VoiceOver
//!   reads the control it has just pressed, and an announcement that came before that is
//!   cut off (flutter#122101; Flutter's web engine delays it too). Those that come while
//!   one waits are said after it, in one message.
//!
//! They are never inside an `aria-modal` element, nor is one ever open: the cover takes
//! what is under it out of the layer instead, since VoiceOver ignores live regions
//! outside an open modal dialog.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

/// How long after an activation (a click, a key, a finger's release) a message waits.
pub const HOLD_MS: f64 = 500.0;

/// Live regions are read, not seen: one pixel, clipped (never `display: none`,
/// `visibility: hidden` or `aria-hidden`, which silence them). web/index.html has the same.
const LIVE_STYLE: &str = "position:fixed;left:0;top:0;width:1px;height:1px;overflow:hidden;\
    clip-path:inset(50%);white-space:nowrap;";

pub struct Region {
    element: Element,
    /// What the app last said here.
    said: String,
    /// What was last written (with its no-break space, if it had one).
    written: String,
    /// Said but not written yet (an activation is being read).
    pending: Option<String>,
}

impl Region {
    /// The page's region of this id (web/index.html has both), or a new one in the body.
    pub fn adopt(document: &Document, id: &str, how: &str) -> Option<Region> {
        let element = match document.get_element_by_id(id) {
            Some(e) => e,
            None => {
                let e = document.create_element("div").ok()?;
                e.set_id(id);
                document.body()?.append_child(&e).ok()?;
                e
            }
        };
        element.set_attribute("aria-live", how).ok()?;
        element.set_attribute("aria-atomic", "true").ok()?;
        element.set_attribute("style", LIVE_STYLE).ok()?;
        Some(Region {
            element,
            said: String::new(),
            written: String::new(),
            pending: None,
        })
    }

    /// What the app says here now; written at the next `flush` that may. A message still
    /// waiting (an activation is being read) is kept and this one said after it: in
    /// Omiga the app's next card can come within the wait, and the player's own card,
    /// announced first, was lost under it. One that repeats the waiting one and goes on
    /// (a game's end added to its last move's words) replaces it.
    pub fn say(&mut self, text: &str) {
        if text == self.said {
            return;
        }
        self.said = text.to_string();
        let words = match self.pending.take() {
            Some(waiting)
                if !waiting.is_empty() && !text.is_empty() && !text.starts_with(&waiting) =>
            {
                hotseat::ui::texts::sentences(&waiting, text)
            }
            _ => text.to_string(),
        };
        self.pending = Some(words);
    }

    /// Writes what waits, unless an activation is being read (`ready` false).
    pub fn flush(&mut self, document: &Document, ready: bool) {
        if !ready {
            return;
        }
        let Some(text) = self.pending.take() else {
            return;
        };
        self.element.set_text_content(None);
        if text.is_empty() {
            return;
        }
        let words = if text == self.written {
            format!("{text}\u{a0}")
        } else {
            text
        };
        let Ok(line) = document.create_element("div") else {
            return;
        };
        line.set_text_content(Some(&words));
        let _ = self.element.append_child(&line);
        self.written = words;
    }
}

/// When the page last saw an activation: a click, a key, a pointer's release, anywhere
/// (listened to before anything else sees them, in the capture phase on the window).
pub struct Activations {
    last: Rc<Cell<f64>>,
    _listeners: Vec<Closure<dyn FnMut(web_sys::Event)>>,
}

impl Activations {
    pub fn listen() -> Option<Activations> {
        let window = web_sys::window()?;
        let last = Rc::new(Cell::new(f64::NEG_INFINITY));
        let mut listeners = Vec::new();
        for name in ["click", "keydown", "pointerup"] {
            let last = last.clone();
            let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
                last.set(now());
            });
            let options = web_sys::AddEventListenerOptions::new();
            options.set_capture(true);
            options.set_passive(true);
            window
                .add_event_listener_with_callback_and_add_event_listener_options(
                    name,
                    listener.as_ref().unchecked_ref(),
                    &options,
                )
                .ok()?;
            listeners.push(listener);
        }
        Some(Activations {
            last,
            _listeners: listeners,
        })
    }

    /// No activation in the last `HOLD_MS`.
    pub fn quiet(&self) -> bool {
        now() - self.last.get() >= HOLD_MS
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}
