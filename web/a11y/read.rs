//! Reads what the app exposes to accessibility, at run time, from Slint's own item tree:
//! the same walk and the same `accessible-*` properties that Slint's AccessKit adapter reads
//! on the desktop (`i-slint-backend-winit`'s `accesskit.rs`), so the layer can say only what
//! the desktop tree says — no list per screen.

use i_slint_core::accessibility::{
    accessible_descendents, AccessibleStringProperty as P, SupportedAccessibilityAction,
};
use i_slint_core::item_tree::{ItemRc, ItemTreeRc, ItemTreeRef, ItemWeak};
use i_slint_core::items::AccessibleRole;

/// One accessible element on show, in tree order.
pub struct Node {
    /// The element's identity for as long as its component lives (component address and
    /// item index, as AccessKit's node ids): the DOM element is reused under this key, so a
    /// screen reader's focus survives a sync.
    pub key: (usize, u32),
    /// The key of the nearest ancestor that is in the layer too, if any.
    pub parent: Option<(usize, u32)>,
    pub item: ItemWeak,
    pub role: AccessibleRole,
    pub label: String,
    pub description: String,
    pub value: String,
    pub placeholder: String,
    pub checkable: bool,
    pub checked: bool,
    pub selectable: bool,
    pub selected: bool,
    pub enabled: bool,
    /// It has an accessible default action (`accessible-action-default`): a click on its
    /// DOM element performs it.
    pub actionable: bool,
    /// Logical pixels from the window's top left corner: CSS pixels in the page, since the
    /// web backend's scale factor is the device pixel ratio.
    pub rect: [f32; 4],
}

/// What a sync finds: the elements on show and the live regions' words.
#[derive(Default)]
pub struct Snapshot {
    pub nodes: Vec<Node>,
    pub polite: String,
    pub assertive: String,
}

/// Walks the window's tree. `size` is the window's logical size: what lies wholly outside it
/// (a parked screen, `Stage.away` to the right) is not on show.
pub fn snapshot(root: &ItemTreeRc, size: (f32, f32)) -> Snapshot {
    let mut out = Snapshot::default();
    walk(&ItemRc::new_root(root.clone()), None, size, &mut out);
    out
}

fn walk(item: &ItemRc, parent: Option<(usize, u32)>, size: (f32, f32), out: &mut Snapshot) {
    for child in accessible_descendents(item) {
        // An item clipped away (in the browser a parked screen is clipped: `Stage.skip-away`)
        // is drawn nowhere, and nor is anything inside it.
        if !child.is_visible() {
            continue;
        }
        let here = read(&child, parent, size, out);
        walk(&child, here.or(parent), size, out);
    }
}

/// Reads one element; gives its key when it went into the layer.
fn read(
    item: &ItemRc,
    parent: Option<(usize, u32)>,
    size: (f32, f32),
    out: &mut Snapshot,
) -> Option<(usize, u32)> {
    let text = |p| {
        item.accessible_string_property(p)
            .map(|s| s.to_string())
            .unwrap_or_default()
    };
    let flag = |p| {
        item.accessible_string_property(p)
            .is_some_and(|s| s == "true")
    };
    let label = text(P::Label);
    // The app's announcements (`ui/app.slint`) and the summary (`game-frame.slint`) are live
    // regions: their words go to the page's own live regions, which exist from the start so
    // that a change is heard (a region made with its words is not announced).
    match text(P::LiveRegion).as_str() {
        "polite" => {
            join(&mut out.polite, &label);
            return None;
        }
        "assertive" => {
            join(&mut out.assertive, &label);
            return None;
        }
        _ => {}
    }
    let role = item.accessible_role();
    let description = text(P::Description);
    let value = text(P::Value);
    // A parked or folded element says nothing (`Stage.shown`, docs/accessibility.md): the
    // desktop tree holds it wordless; here it has no element at all.
    if role == AccessibleRole::None
        || (label.is_empty() && description.is_empty() && value.is_empty())
    {
        return None;
    }
    let g = item.geometry();
    let origin = item.map_to_window(g.origin);
    let rect = [origin.x, origin.y, g.size.width, g.size.height];
    // Off the window (a screen or a cover parked at `Stage.away`), or folded (`folded` in
    // `ui/widgets/buttons.slint`: no room, nothing drawn, no action): not on show.
    let outside = rect[0] >= size.0
        || rect[1] >= size.1
        || rect[0] + rect[2] <= 0.0
        || rect[1] + rect[3] <= 0.0;
    if outside || rect[2] <= 0.0 || rect[3] <= 0.0 {
        return None;
    }
    let key = key_of(item);
    out.nodes.push(Node {
        key,
        parent,
        item: item.downgrade(),
        role,
        label,
        description,
        value,
        placeholder: text(P::PlaceholderText),
        checkable: flag(P::Checkable),
        checked: flag(P::Checked),
        selectable: flag(P::ItemSelectable),
        selected: flag(P::ItemSelected),
        // Absent means enabled, as AccessKit reads it.
        enabled: item
            .accessible_string_property(P::Enabled)
            .is_none_or(|s| s == "true"),
        actionable: item
            .supported_accessibility_actions()
            .contains(SupportedAccessibilityAction::Default),
        rect,
    });
    Some(key)
}

/// An element's identity: its component's address and its index there.
pub fn key_of(item: &ItemRc) -> (usize, u32) {
    let tree: &ItemTreeRc = item.item_tree();
    (
        ItemTreeRef::as_ptr(ItemTreeRc::borrow(tree)).as_ptr() as usize,
        item.index(),
    )
}

fn join(to: &mut String, words: &str) {
    if words.is_empty() {
        return;
    }
    if !to.is_empty() {
        to.push_str(". ");
    }
    to.push_str(words);
}
