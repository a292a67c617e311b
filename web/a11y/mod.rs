//! The screen-reader layer of the browser build (issue #29, docs/accessibility.md
//! "Screen reader in the browser"). Slint 1.18's web port gives the page no accessibility tree: the app
//! is one canvas. This keeps a DOM tree of transparent elements over it, read at run time
//! from the same accessible data AccessKit gets on the desktop (`read`), written into the
//! page (`dom`), and turns a screen reader's click on an element back into that element's
//! accessible default action.
//!
//! When: the walk runs inside a property tracker, so it knows which properties it read;
//! a timer looks ten times a second whether any of them changed and only then walks again.
//! An idle page costs a flag test per tick. A walk runs in a timer task of its own, never
//! inside a frame (web/bench.py `--a11y` measures both).

mod aria;
mod dom;
mod live;
mod read;

use std::cell::RefCell;
use std::collections::HashMap;
use std::pin::Pin;
use std::rc::Rc;

use i_slint_core::accessibility::{nearest_accessible_item, AccessibilityAction};
use i_slint_core::api::Window;
use i_slint_core::item_tree::ItemWeak;
use i_slint_core::properties::PropertyTracker;
use i_slint_core::window::WindowInner;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// How often a change is looked for: a reader hears a new screen within this much.
const TICK: std::time::Duration = std::time::Duration::from_millis(100);

struct State {
    layer: dom::Layer,
    /// The Slint element behind each DOM element, for its actions.
    items: HashMap<(usize, u32), ItemWeak>,
    tracker: Pin<Box<PropertyTracker>>,
    /// The app's focused element as last followed (`follow_focus`).
    focused: Option<(usize, u32)>,
}

/// Starts the layer for the app's window (`hotseat::web::start` calls it once the first
/// frame is drawn, so that the first walk never delays it). `?a11y=off` in the
/// page's address leaves it out: only for measuring what it costs (web/bench.py).
pub fn install(window: &Window) {
    let off = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| q.contains("a11y=off"));
    if off {
        return;
    }
    let Some(layer) = dom::Layer::new() else {
        web_sys::console::warn_1(&"hotseat: no screen-reader layer: the page has no body".into());
        return;
    };
    let state = Rc::new(RefCell::new(State {
        layer,
        items: HashMap::new(),
        tracker: Box::pin(PropertyTracker::default()),
        focused: None,
    }));
    let adapter = Rc::downgrade(&WindowInner::from_pub(window).window_adapter());
    let timer = slint_timer(move || {
        if let Some(adapter) = adapter.upgrade() {
            sync(&state, adapter.window());
        }
    });
    // The layer lives as long as the page.
    std::mem::forget(timer);
}

/// One look: walks the tree again if anything it read last time has changed, and follows
/// the app's focus.
fn sync(state: &Rc<RefCell<State>>, window: &Window) {
    let walk = {
        let s = state.borrow();
        s.tracker.is_dirty() || s.items.is_empty()
    };
    if walk {
        walk_tree(state, window);
    } else {
        // A message held while an activation was read goes out now (web/a11y/live.rs).
        state.borrow_mut().layer.flush();
    }
    follow_focus(state, window);
}

/// The app moves its focus to each new screen's named element, to the cover's reveal button
/// when the cover rises, to «Got it» with a peek's result (docs/accessibility.md): a reader
/// in the layer is moved there too. Only a reader's: while the page's focus is not in the
/// layer (the canvas has it, as for a keyboard), it is left alone.
fn follow_focus(state: &Rc<RefCell<State>>, window: &Window) {
    let inner = WindowInner::from_pub(window);
    let item = inner.focus_item.borrow().upgrade();
    let focused = item.map(|i| read::key_of(&nearest_accessible_item(i)));
    let mut s = state.borrow_mut();
    // Looked at every tick, so that a reader's leaving an element that then goes is known.
    // A reader whose element went with its screen is on the page's body, nowhere to read
    // from: it is given the app's focus again even if that did not move (one element
    // names every screen, `screen-name` in ui/app.slint: the app's focus stays on it from
    // screen to screen while its name changes).
    let lost = s.layer.reader_lost();
    if focused == s.focused && !lost {
        return;
    }
    // Not in the layer yet (its walk comes at the next change): looked for again next tick.
    if focused.is_none_or(|key| s.layer.focus(key)) {
        s.focused = focused;
    }
}

/// Walks the tree and brings the layer in line.
fn walk_tree(state: &Rc<RefCell<State>>, window: &Window) {
    let mut s = state.borrow_mut();
    let began = hotseat::platform::time::Instant::now();
    let inner = WindowInner::from_pub(window);
    let Some(root) = inner.try_component() else {
        return;
    };
    let scale = window.scale_factor();
    let size = window.size();
    let logical = (size.width as f32 / scale, size.height as f32 / scale);
    let snapshot = s
        .tracker
        .as_ref()
        .evaluate(|| read::snapshot(&root, logical));
    let made = {
        let state = Rc::downgrade(state);
        move |key: (usize, u32), element: &web_sys::HtmlElement| listen(&state, key, element)
    };
    let State { layer, items, .. } = &mut *s;
    layer.sync(&snapshot, made);
    layer.count(began.elapsed().as_secs_f64() * 1000.0);
    items.clear();
    items.extend(snapshot.nodes.iter().map(|n| (n.key, n.item.clone())));
}

/// Which action an event asks for, if any.
type ActionOf = dyn Fn(&web_sys::Event) -> Option<AccessibilityAction>;

/// A click on an element — a screen reader's activation (TalkBack's and VoiceOver's double
/// tap, Enter or Space on a focused element) — performs the element's default action; a
/// text field's typing sets its value; its taking the focus scrolls it into view. A click
/// that follows a pointer the app was given (a sighted tap, VoiceOver's touch at the
/// element's centre) never gets here: web/touch.js drops it, so each acts once.
fn listen(
    state: &std::rc::Weak<RefCell<State>>,
    key: (usize, u32),
    element: &web_sys::HtmlElement,
) -> Vec<dom::Listener> {
    // Looked up at the time of the event: the element may have gone meanwhile. None while
    // the layer is at work: a `focus` event comes at once when the layer itself moves the
    // page's focus to where the app's went (`follow_focus`), and Slint has scrolled that
    // element into view already, as it does for every item that takes its focus.
    let item_of = move |state: &std::rc::Weak<RefCell<State>>| {
        let state = state.upgrade()?;
        let s = state.try_borrow().ok()?;
        s.items.get(&key).and_then(ItemWeak::upgrade)
    };
    let act = |action: Box<ActionOf>| {
        let state = state.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            let Some(action) = action(&event) else { return };
            if let Some(item) = item_of(&state) {
                event.prevent_default();
                // What is acted on is seen acted on: scrolled into view first.
                read::reveal(&item);
                item.accessible_action(&action);
            }
        })
    };
    // A reader's focus on an element (its next/previous, Tab, or the app's focus followed
    // there) scrolls it into view if a scroll view had it out of view: then what is read is
    // what is seen, and the next element is the next one down.
    let focus = {
        let state = state.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            if let Some(item) = item_of(&state) {
                read::reveal(&item);
            }
        })
    };
    let click = act(Box::new(|_| Some(AccessibilityAction::Default)));
    let typed = act(Box::new(|event| {
        let input = event
            .target()?
            .dyn_into::<web_sys::HtmlInputElement>()
            .ok()?;
        Some(AccessibilityAction::SetValue(input.value().into()))
    }));
    let keys = act(Box::new(|event| {
        // Enter or Space on a focused control, as on a native button (a `div` has no such
        // behaviour of its own); a text field keeps its keys.
        let key = event.dyn_ref::<web_sys::KeyboardEvent>()?.key();
        let field = event
            .target()?
            .dyn_ref::<web_sys::HtmlInputElement>()
            .is_some();
        (!field && (key == "Enter" || key == " ")).then_some(AccessibilityAction::Default)
    }));
    let target: &web_sys::EventTarget = element.as_ref();
    [
        ("click", click),
        ("input", typed),
        ("keydown", keys),
        ("focus", focus),
    ]
    .into_iter()
    .map(|(name, callback)| {
        let _ = target.add_event_listener_with_callback(name, callback.as_ref().unchecked_ref());
        // Kept with the element, taken off it when it goes.
        dom::Listener { name, callback }
    })
    .collect()
}

fn slint_timer(tick: impl FnMut() + 'static) -> i_slint_core::timers::Timer {
    let timer = i_slint_core::timers::Timer::default();
    timer.start(i_slint_core::timers::TimerMode::Repeated, TICK, tick);
    timer
}
