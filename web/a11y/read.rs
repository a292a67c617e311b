//! Reads what the app exposes to accessibility, at run time, from Slint's own item tree:
//! the same walk and the same `accessible-*` properties that Slint's AccessKit adapter reads
//! on the desktop (`i-slint-backend-winit`'s `accesskit.rs`), so the layer can say only what
//! the desktop tree says — no list per screen.

use i_slint_core::accessibility::{
    accessible_descendents, AccessibleStringProperty as P, SupportedAccessibilityAction,
};
use i_slint_core::item_tree::{
    ItemRc, ItemTreeRc, ItemTreeRef, ItemWeak, ParentItemTraversalMode as Up,
};
use i_slint_core::items::{
    AccessibleRole, BasicBorderRectangle, BorderRectangle, Flickable, Rectangle,
};
use i_slint_core::lengths::LogicalLength;

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
    /// web backend's scale factor is the device pixel ratio. Always inside the window: cut
    /// to it, or for an element scrolled out of its scroll view, the nearest place inside
    /// the view (`read`).
    pub rect: [f32; 4],
    /// Scrolled out of its scroll view (placed at the view's edge, `read`): a reader's
    /// next/previous reaches it, but a finger exploring the screen must not find it there,
    /// over the element the screen really draws at that place.
    pub away: bool,
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
    let root = ItemRc::new_root(root.clone());
    let cover = covering(&root, size, 2);
    // The elements come in the tree's order, which is the order they are drawn in: those
    // before the cover's own are under it, those after (a question over the cover) not.
    let mut past_cover = false;
    for child in accessible_descendents(&root) {
        // Under an opaque element that fills the window (the privacy cover, while up)
        // nothing is seen, so nothing is in the layer either: a reader exploring under the
        // cover would read the board, and a screen's hand or peek is one sync from being
        // read by the wrong seat (issue 41). Only its live regions are kept: they are the
        // page's, outside every element, and what they say is public.
        if let Some(cover) = &cover {
            past_cover = past_cover || within(&child, cover);
        }
        let hidden = cover.is_some() && !past_cover;
        visit(&child, None, size, hidden, &mut out);
    }
    out
}

/// The last element that is opaque and fills the window: what comes before it in the
/// tree is drawn under it. The privacy cover is one while up (it stands off the window
/// when down); so is each screen's background, under which only parked screens lie. Looked
/// for among the window's children and, two levels down, inside those that fill the
/// window too (the cover and the screens are in `safe-area`, ui/app.slint).
fn covering(parent: &ItemRc, size: (f32, f32), depth: u32) -> Option<ItemRc> {
    let mut found = None;
    let mut child = parent.first_child();
    while let Some(item) = child {
        if same_tree(&item, parent) && item.is_visible() && fills(&item, size) {
            let background = item
                .downcast::<Rectangle>()
                .map(|r| r.as_pin_ref().background())
                .or_else(|| {
                    item.downcast::<BasicBorderRectangle>()
                        .map(|r| r.as_pin_ref().background())
                })
                .or_else(|| {
                    item.downcast::<BorderRectangle>()
                        .map(|r| r.as_pin_ref().background())
                });
            if background.is_some_and(|b| b.is_opaque()) {
                found = Some(item.clone());
            } else if depth > 0 {
                found = covering(&item, size, depth - 1).or(found);
            }
        }
        child = item.next_sibling();
    }
    found
}

fn fills(item: &ItemRc, size: (f32, f32)) -> bool {
    let [x, y, w, h] = window_rect(item);
    x <= 0.0 && y <= 0.0 && x + w >= size.0 && y + h >= size.1
}

fn same_tree(a: &ItemRc, b: &ItemRc) -> bool {
    key_of(a).0 == key_of(b).0
}

/// Whether this element is the cover or inside it.
fn within(item: &ItemRc, cover: &ItemRc) -> bool {
    let mut at = Some(item.clone());
    while let Some(here) = at {
        if here == *cover {
            return true;
        }
        at = here.parent_item(Up::StopAtPopups);
    }
    false
}

fn walk(
    item: &ItemRc,
    parent: Option<(usize, u32)>,
    size: (f32, f32),
    hidden: bool,
    out: &mut Snapshot,
) {
    for child in accessible_descendents(item) {
        visit(&child, parent, size, hidden, out);
    }
}

/// One accessible element and what lies inside it.
fn visit(
    child: &ItemRc,
    parent: Option<(usize, u32)>,
    size: (f32, f32),
    hidden: bool,
    out: &mut Snapshot,
) {
    // An item clipped away (in the browser a parked screen is clipped: `Stage.skip-away`)
    // is drawn nowhere, and nor is anything inside it; but one that a scroll view's
    // scrolling hides is still on its screen: a reader reaches it, and reaching it
    // scrolls it into view (`reveal`). It is written where the view shows the nearest.
    let view = if child.is_visible() {
        None
    } else {
        match scrolled_away(child) {
            Some(flickable) => Some(window_rect(&flickable)),
            None => return,
        }
    };
    let here = read(child, parent, size, view, hidden, out);
    walk(child, here.or(parent), size, hidden, out);
}

/// Where an item lies in the window: x, y, width, height in logical pixels.
pub fn window_rect(item: &ItemRc) -> [f32; 4] {
    let g = item.geometry();
    let origin = item.map_to_window(g.origin);
    [origin.x, origin.y, g.size.width, g.size.height]
}

fn meets(a: [f32; 4], b: [f32; 4]) -> bool {
    a[0] <= b[0] + b[2] && b[0] <= a[0] + a[2] && a[1] <= b[1] + b[3] && b[1] <= a[1] + a[3]
}

/// The scroll view (a `Flickable`, a `ScrollView`'s inside) whose scrolling alone hides this
/// item, if it is so: the first ancestor that clips it away is a `Flickable` that is itself
/// on show. The same test as Slint's own for Tab (`is_visible_or_clipped_by_flickable`,
/// i-slint-core 1.18.1 `item_tree.rs`, which is not public), one level deep.
fn scrolled_away(item: &ItemRc) -> Option<ItemRc> {
    // First without geometry: most hidden items are on a parked screen, whose scroll views
    // are hidden too; the rectangles below cost a walk to the root for each ancestor.
    let mut parent = item.parent_item(Up::StopAtPopups);
    let mut shown_view = false;
    while let Some(ancestor) = parent {
        if ancestor.downcast::<Flickable>().is_some() && ancestor.is_visible() {
            shown_view = true;
            break;
        }
        parent = ancestor.parent_item(Up::StopAtPopups);
    }
    if !shown_view {
        return None;
    }
    let rect = window_rect(item);
    let mut parent = item.parent_item(Up::StopAtPopups);
    while let Some(ancestor) = parent {
        if ancestor.borrow().as_ref().clips_children() && !meets(rect, window_rect(&ancestor)) {
            let scrolls = ancestor.downcast::<Flickable>().is_some() && ancestor.is_visible();
            return scrolls.then_some(ancestor);
        }
        parent = ancestor.parent_item(Up::StopAtPopups);
    }
    None
}

/// Scrolls every scroll view around this item so that it is in view, as Slint does for an
/// item that takes the keyboard focus (`try_scroll_into_visible`, not public): a reader's
/// focus on an element scrolled out of view brings it in, as in a page. The innermost view
/// first; a little room is left round it where the content has it.
pub fn reveal(item: &ItemRc) {
    const ROOM: f32 = 8.0;
    let mut parent = item.parent_item(Up::StopAtPopups);
    while let Some(ancestor) = parent {
        if let Some(flickable) = ancestor.downcast::<Flickable>() {
            let flickable = flickable.as_pin_ref();
            let [x, y, w, h] = window_rect(item);
            let [vx, vy, vw, vh] = window_rect(&ancestor);
            let shift = |at: f32, len: f32, view_at: f32, view_len: f32, content: f32, now: f32| {
                let (top, bottom) = (at - view_at, at - view_at + len);
                let moved = if top < 0.0 || len > view_len {
                    now - top + ROOM
                } else if bottom > view_len {
                    now - (bottom - view_len) - ROOM
                } else {
                    return now;
                };
                // The viewport's offset runs from 0 (its top shown) down to the view's size
                // less the content's (its end shown).
                moved.clamp((view_len - content).min(0.0), 0.0)
            };
            let new_y = shift(
                y,
                h,
                vy,
                vh,
                flickable.content_height().0,
                flickable.content_y().0,
            );
            let new_x = shift(
                x,
                w,
                vx,
                vw,
                flickable.content_width().0,
                flickable.content_x().0,
            );
            if new_y != flickable.content_y().0 {
                Flickable::FIELD_OFFSETS
                    .content_y()
                    .apply_pin(flickable)
                    .set(LogicalLength::new(new_y));
            }
            if new_x != flickable.content_x().0 {
                Flickable::FIELD_OFFSETS
                    .content_x()
                    .apply_pin(flickable)
                    .set(LogicalLength::new(new_x));
            }
        }
        parent = ancestor.parent_item(Up::StopAtPopups);
    }
}

/// Reads one element; gives its key when it went into the layer.
fn read(
    item: &ItemRc,
    parent: Option<(usize, u32)>,
    size: (f32, f32),
    view: Option<[f32; 4]>,
    hidden: bool,
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
    if hidden {
        return None;
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
    let rect = window_rect(item);
    // Off the window (a screen or a cover parked at `Stage.away`), or folded (`folded` in
    // `ui/widgets/buttons.slint`: no room, nothing drawn, no action): not on show. One
    // scrolled out of its view is on show if the view is.
    let seen = view.unwrap_or(rect);
    let outside = seen[0] >= size.0
        || seen[1] >= size.1
        || seen[0] + seen[2] <= 0.0
        || seen[1] + seen[3] <= 0.0;
    if outside || rect[2] <= 0.0 || rect[3] <= 0.0 {
        return None;
    }
    // Written inside the window: a browser scrolls a focused element into view, and the
    // layer clips (so it scrolls): an element placed below the window would scroll the
    // layer and set every element off from what is drawn under it. What sticks out (a long
    // text in a scroll view) is cut to the window; what a scroll view has scrolled away is
    // placed inside the part of the view that is in the window, at the edge it comes in
    // from (`reveal` brings it in when a reader reaches it).
    let rect = match view {
        Some(view) => {
            let left = view[0].max(0.0);
            let top = view[1].max(0.0);
            let right = (view[0] + view[2]).min(size.0);
            let bottom = (view[1] + view[3]).min(size.1);
            let inside = |at: f32, len: f32, from: f32, to: f32| {
                let len = len.min(to - from).max(1.0);
                (at.clamp(from, (to - len).max(from)), len)
            };
            let (x, w) = inside(rect[0], rect[2], left, right);
            let (y, h) = inside(rect[1], rect[3], top, bottom);
            [x, y, w, h]
        }
        None => {
            let (x, y) = (rect[0].max(0.0), rect[1].max(0.0));
            let w = (rect[0] + rect[2]).min(size.0) - x;
            let h = (rect[1] + rect[3]).min(size.1) - y;
            [x, y, w, h]
        }
    };
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
        away: view.is_some(),
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
