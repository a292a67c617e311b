//! What the UI tests share: finding and pressing elements by what a screen reader reads,
//! and a fresh data folder for each test. Each test binary uses only some of it.
#![allow(dead_code)]

use hotseat::ui::AppWindow;
use i_slint_backend_testing::{AccessibleRole, ElementHandle, ElementQuery};
use std::path::PathBuf;

/// An empty data folder of this test binary's own for the test `tag`.
pub fn temp_data(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hotseat-{}-{tag}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Every non-empty accessible label on screen, in tree order.
pub fn labels(app: &AppWindow) -> Vec<String> {
    ElementQuery::from_root(app)
        .match_descendants()
        .find_all()
        .into_iter()
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        .filter(|l| !l.is_empty())
        .collect()
}

/// Every accessible label on screen that starts with `prefix`, once each, in tree order.
pub fn labels_starting(app: &AppWindow, prefix: &str) -> Vec<String> {
    let prefix = prefix.to_string();
    ElementQuery::from_root(app)
        .match_descendants()
        .match_predicate(move |e| {
            e.accessible_role()
                .is_some_and(|r| r != AccessibleRole::None)
                && e.accessible_label()
                    .is_some_and(|l| l.starts_with(prefix.as_str()))
        })
        .find_all()
        .into_iter()
        .filter_map(|e| e.accessible_label().map(|l| l.to_string()))
        // One element may be reached through several of its inner items: count it once.
        .fold(Vec::new(), |mut seen, l| {
            if !seen.contains(&l) {
                seen.push(l);
            }
            seen
        })
}

/// Whether an element reads `label`.
pub fn present(app: &AppWindow, label: &str) -> bool {
    ElementHandle::find_by_accessible_label(app, label)
        .next()
        .is_some()
}

/// Invokes the default action of the element reading `label`, as a screen reader's
/// double tap would; fails the test, listing what is on screen, when there is none.
pub fn press(app: &AppWindow, label: &str) {
    ElementHandle::find_by_accessible_label(app, label)
        .next()
        .unwrap_or_else(|| panic!("no element labelled '{label}' in {:?}", labels(app)))
        .invoke_accessible_default_action();
}
