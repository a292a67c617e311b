//! The page's side of the layer: one transparent DOM element per accessible element on
//! show, placed over the canvas where the control is drawn, with its ARIA role, name and
//! state; and the two live regions. Elements are kept under the Slint element's identity
//! and only their changed attributes are written, so a sync that changed nothing touches
//! nothing and a screen reader's focus stays on its element.

use std::collections::{HashMap, HashSet};

use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlElement};

use super::live::{Activations, Region};
use super::read::{Node, Snapshot};

/// The layer over the canvas. It takes no pointer event itself; its elements do
/// (`ELEMENT_STYLE`), so that a finger exploring the screen with a reader on finds each
/// element's name where it is drawn, as on a native screen, and a reader's activation
/// (VoiceOver sends a touch at the element's centre) lands on the element. The page
/// hands every pointer that lands on the layer to the canvas (web/touch.js), so a
/// sighted tap still reaches the app, and drops the click that follows it.
const LAYER_STYLE: &str = "position:fixed;pointer-events:none;overflow:hidden;\
    top:env(safe-area-inset-top,0px);left:env(safe-area-inset-left,0px);\
    right:env(safe-area-inset-right,0px);bottom:env(safe-area-inset-bottom,0px);\
    color:transparent;background:transparent;z-index:1;";

pub struct Layer {
    document: Document,
    root: Element,
    polite: Region,
    assertive: Region,
    activations: Activations,
    /// The DOM element of each Slint element on show, with what was last written to it.
    shown: HashMap<(usize, u32), Shown>,
    /// A reader's focus was in the layer when last looked (`reader_here`).
    reader: bool,
    /// The element the app's focus was last followed to (`focus`). If it is no control
    /// (a screen's title, the board), it keeps `tabindex="-1"`, without which a `div` takes
    /// no focus: the page's focus would stay on the body and a reader would lose its place.
    target: Option<(usize, u32)>,
    /// Syncs made and the time they took in all (ms).
    syncs: u32,
    spent: f64,
}

/// An event listener of an element (the event's name and the callback), kept as long as
/// the element is shown and taken off the element when it goes: whoever still holds a
/// removed element (a screen reader, or a test, that found it just before the layer
/// replaced it) may still send it a click, and a callback dropped without being taken off
/// throws "closure invoked recursively or after being dropped" into the page.
pub struct Listener {
    pub name: &'static str,
    pub callback: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)>,
}

struct Shown {
    element: HtmlElement,
    listeners: Vec<Listener>,
    tag: &'static str,
    attributes: HashMap<&'static str, String>,
    parent: Option<(usize, u32)>,
}

impl Drop for Shown {
    fn drop(&mut self) {
        for l in &self.listeners {
            let _ = self
                .element
                .remove_event_listener_with_callback(l.name, l.callback.as_ref().unchecked_ref());
        }
    }
}

impl Layer {
    /// Takes the layer and the live regions the page has from its first frame
    /// (web/index.html), or adds them to the page's body.
    pub fn new() -> Option<Layer> {
        let document = web_sys::window()?.document()?;
        let polite = Region::adopt(&document, "a11y-live", "polite")?;
        let assertive = Region::adopt(&document, "a11y-summary", "assertive")?;
        let root = match document.get_element_by_id("a11y") {
            Some(root) => root,
            None => {
                let root = document.create_element("div").ok()?;
                root.set_id("a11y");
                document.body()?.append_child(&root).ok()?;
                root
            }
        };
        root.set_attribute("style", LAYER_STYLE).ok()?;
        Some(Layer {
            document,
            root,
            polite,
            assertive,
            activations: Activations::listen()?,
            shown: HashMap::new(),
            reader: false,
            target: None,
            syncs: 0,
            spent: 0.0,
        })
    }

    /// Writes what the live regions wait to say, once no activation is being read
    /// (web/a11y/live.rs); called at every tick.
    pub fn flush(&mut self) {
        let quiet = self.activations.quiet();
        self.polite.flush(&self.document, quiet);
        self.assertive.flush(&self.document, quiet);
    }

    /// Brings the page's elements in line with the snapshot, in its order. `made` is called
    /// for each new element (the caller listens to it).
    pub fn sync(
        &mut self,
        snapshot: &Snapshot,
        mut made: impl FnMut((usize, u32), &HtmlElement) -> Vec<Listener>,
    ) {
        self.polite.say(&snapshot.polite);
        self.assertive.say(&snapshot.assertive);
        self.flush();
        let mut rects: HashMap<(usize, u32), [f32; 4]> = HashMap::new();
        let parents: HashSet<(usize, u32)> =
            snapshot.nodes.iter().filter_map(|n| n.parent).collect();
        // What is no longer on show leaves the page first: an element moved in the page
        // loses the focus (it is taken out and put back), so the elements that stay must
        // already stand in order when they are placed. Were the leaving ones still there,
        // each one gone before the reader's element (a Take back button folding when an
        // egg is picked) would move that element and its parent, and the page's focus
        // would fall from the reader's cell to the body.
        let seen: HashSet<(usize, u32)> = snapshot.nodes.iter().map(|n| n.key).collect();
        self.shown.retain(|key, shown| {
            let keep = seen.contains(key);
            if !keep {
                shown.element.remove();
            }
            keep
        });
        // Each parent's children in order: where the next child of each parent goes.
        let mut next_index: HashMap<Option<(usize, u32)>, u32> = HashMap::new();
        for node in &snapshot.nodes {
            rects.insert(node.key, node.rect);
            let tag = if node.role == i_slint_core::items::AccessibleRole::TextInput {
                "input"
            } else {
                "div"
            };
            let reuse = self.shown.get(&node.key).is_some_and(|s| s.tag == tag);
            if !reuse {
                if let Some(old) = self.shown.remove(&node.key) {
                    old.element.remove();
                }
                let Some(element) = self
                    .document
                    .create_element(tag)
                    .ok()
                    .and_then(|e| e.dyn_into::<HtmlElement>().ok())
                else {
                    continue;
                };
                let listeners = made(node.key, &element);
                self.shown.insert(
                    node.key,
                    Shown {
                        element,
                        listeners,
                        tag,
                        attributes: HashMap::new(),
                        parent: None,
                    },
                );
            }
            // The parent is already in the map: tree order puts it first.
            let parent_rect = node.parent.and_then(|p| rects.get(&p).copied());
            let parent_element: Element = match node.parent.and_then(|p| self.shown.get(&p)) {
                Some(p) => p.element.clone().into(),
                None => self.root.clone(),
            };
            let index = next_index.entry(node.parent).or_insert(0);
            let Some(shown) = self.shown.get_mut(&node.key) else {
                continue;
            };
            // Children are placed from their parent's corner (both are absolutely placed).
            let [px, py] = parent_rect.map_or([0.0, 0.0], |r| [r[0], r[1]]);
            let [x, y, w, h] = node.rect;
            // Unseen: a text field's `<input>` has a white box and ink of its own in the
            // browser's style sheet (neither is inherited from the layer), which showed as
            // a white bar over every name field the app draws.
            let style = format!(
                "position:absolute;margin:0;padding:0;border:0;overflow:hidden;\
                 background:transparent;color:transparent;caret-color:transparent;\
                 left:{}px;top:{}px;width:{}px;height:{}px;touch-action:none;pointer-events:{};",
                x - px,
                y - py,
                w.max(1.0),
                h.max(1.0),
                // Scrolled out of its view, it is placed at the view's edge, over what
                // is drawn there: a finger must find that, not this.
                if node.away { "none" } else { "auto" }
            );
            let content = as_content(node, &parents);
            let target = self.target == Some(node.key);
            for (name, value) in attributes(node, content, target, style) {
                shown.set(name, value);
            }
            if tag == "input" {
                // The field's text is the value (what the player typed), not an attribute
                // to keep: the reader and the keyboard change it.
                if let Some(input) = shown.element.dyn_ref::<web_sys::HtmlInputElement>() {
                    if input.value() != node.value {
                        input.set_value(&node.value);
                    }
                }
            } else if content {
                if shown.element.text_content().unwrap_or_default() != node.label {
                    shown.element.set_text_content(Some(&node.label));
                }
            } else if shown.element.first_element_child().is_none()
                && shown.element.has_child_nodes()
            {
                // It was a text before (the same item, another role): its words go.
                shown.element.set_text_content(None);
            }
            // In place: the i-th child of its parent, moved only when it is not.
            let here = parent_element.children().item(*index);
            let element: &Element = shown.element.as_ref();
            if here.as_ref() != Some(element) || shown.parent != node.parent {
                let _ = parent_element.insert_before(element, here.as_ref().map(|e| e.as_ref()));
                shown.parent = node.parent;
            }
            *index += 1;
        }
    }
}

impl Layer {
    /// Notes a sync's time on the layer itself (`data-syncs`, `data-sync-ms`): the bench
    /// reads what the layer cost (web/bench.py `--a11y`); a page without it pays one
    /// attribute write per sync.
    pub fn count(&mut self, took_ms: f64) {
        self.syncs += 1;
        self.spent += took_ms;
        let _ = self
            .root
            .set_attribute("data-syncs", &self.syncs.to_string());
        let _ = self
            .root
            .set_attribute("data-sync-ms", &format!("{:.1}", self.spent));
    }
}

impl Layer {
    /// Moves the page's focus to this element if a reader is in the layer. False when the
    /// element is not in the layer.
    pub fn focus(&mut self, key: (usize, u32)) -> bool {
        let reader = self.reader_here();
        let Some(shown) = self.shown.get_mut(&key) else {
            return false;
        };
        self.target = Some(key);
        // What takes no focus of its own (no tab stop) takes it from a script, and keeps
        // it across syncs (`attributes`).
        if shown
            .attributes
            .get("tabindex")
            .is_none_or(|t| t.is_empty())
        {
            shown.set("tabindex", "-1".to_string());
        }
        let element: &Element = shown.element.as_ref();
        // A reader already inside it (on a cell of the board the app focuses again after a
        // pick) stays where it is: it is in the app's focus, and moving it would make the
        // next Tab start over from the board's first cell.
        let active = self.document.active_element();
        let inside = active
            .as_ref()
            .is_some_and(|a| element.contains(Some(a.as_ref())));
        if reader && !inside {
            let _ = shown.element.focus();
        }
        true
    }

    /// Whether a reader's focus was in the layer and is now on the page's body (the element
    /// it was on has left the layer).
    pub fn reader_lost(&mut self) -> bool {
        let reader = self.reader_here();
        let active = self.document.active_element();
        let body = self.document.body().map(Element::from);
        reader && (active.is_none() || active == body)
    }

    /// Whether the page's focus is a reader's in the layer: on one of its elements, or on
    /// the page's body after the element it was on has left the layer (a screen changed
    /// under it). On the canvas or anywhere else, it is not.
    pub fn reader_here(&mut self) -> bool {
        let active = self.document.active_element();
        let body = self.document.body().map(Element::from);
        match active {
            Some(a) if Some(&a) == body.as_ref() => {}
            Some(a) => self.reader = self.root.contains(Some(a.as_ref())),
            None => {}
        }
        self.reader
    }
}

impl Shown {
    /// Writes an attribute only when it changed (an empty value removes it).
    fn set(&mut self, name: &'static str, value: String) {
        if self.attributes.get(name) == Some(&value) {
            return;
        }
        let _ = if value.is_empty() {
            self.element.remove_attribute(name)
        } else {
            self.element.set_attribute(name, &value)
        };
        self.attributes.insert(name, value);
    }
}

/// A text gives its words as its content (read by every reader as what it says); every
/// other element as its name (`aria-label`), since content would be read after its
/// children's and writing it would replace them.
fn as_content(node: &Node, parents: &HashSet<(usize, u32)>) -> bool {
    node.role == i_slint_core::items::AccessibleRole::Text
        && !node.actionable
        && !parents.contains(&node.key)
}

/// `target`: the app's focus is on it (`Layer::focus`).
fn attributes(
    node: &Node,
    content: bool,
    target: bool,
    style: String,
) -> Vec<(&'static str, String)> {
    use i_slint_core::items::AccessibleRole as R;
    let role = super::aria::role(node.role);
    let yes = |b: bool| if b { "true" } else { "false" }.to_string();
    let is = |b: bool, s: &str| if b { s.to_string() } else { String::new() };
    let label = if content {
        String::new()
    } else {
        node.label.clone()
    };
    // A value is read as `aria-valuetext` only by range roles; elsewhere (a cell's content,
    // a score) it is said after the name, as the description's first words.
    let range = matches!(node.role, R::Slider | R::Spinbox | R::ProgressIndicator);
    let description = match (range || node.role == R::TextInput, node.value.is_empty()) {
        (false, false) if !node.description.is_empty() => {
            format!("{}. {}", node.value, node.description)
        }
        (false, false) => node.value.clone(),
        _ => node.description.clone(),
    };
    let checked = match node.role {
        R::Checkbox | R::Switch | R::RadioButton => yes(node.checked),
        _ => String::new(),
    };
    vec![
        ("style", style),
        // A field is an `input`, a text plain text: both need no role.
        (
            "role",
            if matches!(node.role, R::TextInput | R::Text) {
                String::new()
            } else {
                role.to_string()
            },
        ),
        ("aria-label", label),
        ("aria-description", description),
        ("aria-valuetext", is(range, &node.value)),
        ("aria-checked", checked),
        (
            "aria-pressed",
            is(node.role == R::Button && node.checkable, &yes(node.checked)),
        ),
        ("aria-selected", is(node.selectable, &yes(node.selected))),
        ("aria-disabled", is(!node.enabled, "true")),
        ("placeholder", node.placeholder.clone()),
        // Scrolled out of its view (`pointer-events: none`, see `sync`): said, for a test
        // and a developer's eye, so that no other element goes unfound unnoticed.
        ("data-away", is(node.away, "true")),
        // What can be acted on is a stop for a keyboard and a reader's next/previous; the
        // app's focus, if elsewhere, can be given the page's focus too, by script only. A
        // control that cannot act now (Omiga's cell where the chosen card does not fit) is
        // no Tab stop but stays focusable: the focus a reader left on it stays there when
        // a move closes it, and Enter then hears the app's reason.
        (
            "tabindex",
            match (node.actionable, node.enabled, target) {
                (true, true, _) => "0".to_string(),
                (true, false, _) | (false, _, true) => "-1".to_string(),
                (false, _, false) => String::new(),
            },
        ),
    ]
}
