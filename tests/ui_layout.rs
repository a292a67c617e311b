//! Every screen at the four sizes a phone and a tablet give the app (portrait and
//! landscape): no control a player can reach lies outside the window, no two controls
//! overlap, and buttons are big enough for a finger. Geometry comes from the testing
//! backend, the same element tree a screen reader sees.
// Staged with the developer tools' fixtures (the example tables), hence `devtools`.
#![cfg(feature = "devtools")]

use hotseat::devtools::screenshot::{stage, SCREENS, SIZES};
use hotseat::ui::{build, AppWindow};
use i_slint_backend_testing::{init_no_event_loop, AccessibleRole, ElementHandle};
use slint::{ComponentHandle, LogicalSize};

mod common;

/// An axis-aligned rectangle in logical px.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
}

impl Rect {
    fn of(e: &ElementHandle) -> Rect {
        let p = e.absolute_position();
        let s = e.size();
        Rect {
            x: p.x,
            y: p.y,
            w: s.width,
            h: s.height,
        }
    }

    /// Overlap of more than a hairline (rounding puts neighbours 0.5 px into each other).
    fn overlaps(&self, o: &Rect) -> bool {
        let dx = (self.x + self.w).min(o.x + o.w) - self.x.max(o.x);
        let dy = (self.y + self.h).min(o.y + o.h) - self.y.max(o.y);
        dx > 1.0 && dy > 1.0
    }

    fn inside(&self, o: &Rect) -> bool {
        self.x >= o.x - 0.5
            && self.y >= o.y - 0.5
            && self.x + self.w <= o.x + o.w + 0.5
            && self.y + self.h <= o.y + o.h + 0.5
    }
}

/// The components that are one cell of a game board (Omiga's table, Ovo's tray).
const BOARD_CELLS: &[&str] = &["Cell", "TrayCell"];

/// What a finger can act on.
fn interactive(role: AccessibleRole) -> bool {
    matches!(
        role,
        AccessibleRole::Button
            | AccessibleRole::Checkbox
            | AccessibleRole::Switch
            | AccessibleRole::Slider
            | AccessibleRole::Spinbox
            | AccessibleRole::TextInput
            | AccessibleRole::Tab
            | AccessibleRole::Combobox
            | AccessibleRole::RadioButton
    )
}

/// One control as laid out: its label, rectangle, and the scroll area holding it (if any).
#[derive(Debug)]
struct Control {
    kind: String,
    label: String,
    role: AccessibleRole,
    rect: Rect,
    scroller: Option<usize>,
}

fn is_flickable(e: &ElementHandle) -> bool {
    e.type_name().is_some_and(|t| t == "Flickable")
        || e.bases().is_some_and(|mut b| b.any(|t| t == "Flickable"))
}

/// The controls on screen now, and the viewports of the scroll areas.
fn controls(app: &AppWindow) -> (Vec<Control>, Vec<Rect>) {
    let all = common::elements(app);
    let mut flickables: Vec<ElementHandle> = Vec::new();
    for f in all.iter().filter(|e| is_flickable(e)) {
        // One scroll area is found once per level of the components it is built from.
        if !flickables.iter().any(|g| Rect::of(g) == Rect::of(f)) {
            flickables.push(f.clone());
        }
    }
    // Which scroll area holds an element: the innermost (smallest) one that has it among its
    // descendants, compared by position, size and label (handles have no identity to compare).
    let key = |e: &ElementHandle| (Rect::of(e), e.accessible_label(), e.accessible_role());
    let inner: Vec<Vec<_>> = flickables
        .iter()
        .map(|f| {
            f.query_descendants()
                .find_all()
                .iter()
                .map(key)
                .collect::<Vec<_>>()
        })
        .collect();
    let viewports: Vec<Rect> = flickables.iter().map(Rect::of).collect();
    // Areas turned 180° (Black's side of the Omiga table): the testing backend maps an
    // element's origin through the turn (`ItemRc::map_to_window`), so the point it reports
    // is the bottom-right corner of what is drawn.
    let turned: Vec<Vec<_>> = all
        .iter()
        .filter(|e| e.id().is_some_and(|id| id.ends_with("turned-to-black")))
        .map(|t| t.query_descendants().find_all().iter().map(key).collect())
        .collect();
    let mut out: Vec<Control> = Vec::new();
    let mut seen = Vec::new();
    for e in &all {
        let Some(role) = e.accessible_role() else {
            continue;
        };
        if !interactive(role) || e.computed_opacity() < 0.01 {
            continue;
        }
        let mut rect = Rect::of(e);
        if turned.iter().any(|inside| inside.contains(&key(e))) {
            rect.x -= rect.w;
            rect.y -= rect.h;
        }
        if rect.w < 0.5 || rect.h < 0.5 {
            continue;
        }
        let k = key(e);
        // An element built from a component appears once per level of its inheritance.
        if seen.contains(&k) {
            continue;
        }
        seen.push(k.clone());
        let scroller = (0..flickables.len())
            .filter(|i| inner[*i].contains(&k))
            .min_by(|a, b| {
                let area = |r: &Rect| r.w * r.h;
                area(&viewports[*a]).total_cmp(&area(&viewports[*b]))
            });
        out.push(Control {
            kind: e.type_name().unwrap_or_default().to_string(),
            label: e.accessible_label().unwrap_or_default().to_string(),
            role,
            rect,
            scroller,
        });
    }
    (out, viewports)
}

/// What is wrong with `screen` at `w`×`h`, one line per problem.
fn problems(screen: &str, w: f32, h: f32) -> Vec<String> {
    let (app, controller) = build(None).expect("the app builds");
    app.window().set_size(LogicalSize::new(w, h));
    stage(&app, &controller, screen, "en");
    app.show().expect("the window shows");
    let window = Rect {
        x: 0.0,
        y: 0.0,
        w,
        h,
    };
    let (controls, viewports) = controls(&app);
    let mut out = Vec::new();
    if controls.is_empty() {
        out.push(format!("{screen} {w}x{h}: no controls found"));
    }
    for (i, v) in viewports.iter().enumerate() {
        if !v.inside(&window) {
            out.push(format!(
                "{screen} {w}x{h}: scroll area {i} {v:?} leaves the window"
            ));
        }
    }
    // Only what is showing counts: a control scrolled out of its area's viewport is reached
    // by scrolling, one half-shown at the viewport's edge is clipped by it.
    let shown: Vec<&Control> = controls
        .iter()
        .filter(|c| match c.scroller {
            Some(s) => c.rect.overlaps(&viewports[s]),
            None => true,
        })
        .collect();
    for c in &shown {
        if c.scroller.is_none() && !c.rect.inside(&window) {
            out.push(format!(
                "{screen} {w}x{h}: '{}' {:?} is not inside the window",
                c.label, c.rect
            ));
        }
        // Buttons are for fingers (text fields and switches are judged by their rows). A
        // board's cells touch each other and share the screen by the board's size: Omiga's
        // 9 columns on a 412 px phone leave 45 px at most, so cells have a lower floor.
        let floor = if BOARD_CELLS.contains(&c.kind.as_str()) {
            30.0
        } else {
            47.5
        };
        if c.role == AccessibleRole::Button && (c.rect.w < floor || c.rect.h < floor) {
            out.push(format!(
                "{screen} {w}x{h}: '{}' ({}) is {}x{}, under {floor} px",
                c.label, c.kind, c.rect.w, c.rect.h
            ));
        }
    }
    for (i, a) in shown.iter().enumerate() {
        for b in &shown[i + 1..] {
            // A control floating over a scrolling board is meant to cover what scrolls
            // beneath it; controls that scroll together, or stand still together, must not
            // touch.
            // A layer over the whole window ("tap anywhere to play" over the kiosk's
            // demo game) covers everything by design.
            let whole = |r: &Rect| r.x <= 0.0 && r.y <= 0.0 && r.w >= w && r.h >= h;
            if whole(&a.rect) || whole(&b.rect) {
                continue;
            }
            if a.scroller == b.scroller && a.rect.overlaps(&b.rect) {
                out.push(format!(
                    "{screen} {w}x{h}: '{}' {:?} overlaps '{}' {:?}",
                    a.label, a.rect, b.label, b.rect
                ));
            }
        }
    }
    out.extend(cut_at_the_end(&app, &format!("{screen} {w}x{h}")));
    out
}

/// Every scroll area scrolled to its end, as far as a finger's flings or the wheel take it:
/// each control it holds is then whole inside it. One left past the end cannot be reached
/// at all. (Seen: Slint 1.18.1 measures a conditional element's wrapped text at the
/// element's unwrapped width when a layout states its own height, so a scroll area sized
/// from its column's preferred height ended before the column did: Omiga's setup in the
/// browser, its "Two phones" card cut by 36 px at 412x915.)
fn cut_at_the_end(app: &AppWindow, what: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut areas: Vec<ElementHandle> = Vec::new();
    for f in common::elements(app).iter().filter(|e| is_flickable(e)) {
        if !areas.iter().any(|g| Rect::of(g) == Rect::of(f)) {
            areas.push(f.clone());
        }
    }
    for area in &areas {
        // Far past any end: a scroll area stops at its own.
        for _ in 0..3 {
            area.scroll(-100_000.0, -100_000.0);
        }
    }
    let (controls, viewports) = controls(app);
    for c in &controls {
        let Some(s) = c.scroller else { continue };
        let v = &viewports[s];
        let (bottom, right) = (c.rect.y + c.rect.h, c.rect.x + c.rect.w);
        if bottom > v.y + v.h + 0.5 || right > v.x + v.w + 0.5 {
            out.push(format!(
                "{what}: '{}' {:?} is cut by its scroll area's end {v:?} scrolled as far as it goes",
                c.label, c.rect
            ));
        }
    }
    out
}

fn check_size(name: &str) {
    init_no_event_loop();
    let (_, w, h) = SIZES
        .iter()
        .find(|(n, _, _)| *n == name)
        .expect("a known size");
    let all: Vec<String> = SCREENS
        .iter()
        .flat_map(|s| problems(s, *w as f32, *h as f32))
        .collect();
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn every_screen_fits_a_phone_in_portrait() {
    check_size("phone");
}

#[test]
fn every_screen_fits_a_phone_in_landscape() {
    check_size("phone-landscape");
}

#[test]
fn every_screen_fits_a_tablet_in_landscape() {
    check_size("tablet");
}

#[test]
fn every_screen_fits_a_tablet_in_portrait() {
    check_size("tablet-portrait");
}

/// Omiga's setup as the browser shows it (no local network: the "Two phones" card with
/// its longer text, issue 41 point 6) scrolls to its very end at every size.
#[test]
fn the_browsers_omiga_setup_scrolls_to_its_end() {
    init_no_event_loop();
    let mut all = Vec::new();
    for (name, w, h) in SIZES {
        let (app, _controller) = build(None).expect("the app builds");
        app.window()
            .set_size(LogicalSize::new(*w as f32, *h as f32));
        app.set_lan_available(false);
        app.invoke_open_game("omiga".into());
        app.show().expect("the window shows");
        all.extend(cut_at_the_end(
            &app,
            &format!("the browser's Omiga setup, {name}"),
        ));
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// The checker itself: a button pushed out of the window, and two on top of each other,
/// are found (so the size tests above can fail).
#[test]
fn the_checker_sees_overflow_and_overlap() {
    let a = Rect {
        x: 0.0,
        y: 0.0,
        w: 100.0,
        h: 50.0,
    };
    let b = Rect { x: 60.0, ..a };
    let c = Rect { x: 100.0, ..a };
    let window = Rect {
        x: 0.0,
        y: 0.0,
        w: 150.0,
        h: 400.0,
    };
    assert!(a.overlaps(&b));
    assert!(!a.overlaps(&c), "touching edges are not an overlap");
    assert!(a.inside(&window));
    assert!(!c.inside(&window));
}
