//! The UI bridge's modules form no import cycle (issue #18): each game's bridge sits on
//! the shared pieces (`play`, `chrome`, `rows`, …) and nothing shared reaches back into a
//! game, so a game can be read, changed or left out on its own. Read from the sources:
//! a module of `src/ui` uses another when its code names it through `super::` or
//! `crate::ui::` (test modules left out).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules of `src/ui` (a file `x.rs` or a folder `x/`) and the sources of each.
fn sources() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&root).expect("src/ui is readable") {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .expect("a file name")
            .to_string();
        let mut text = String::new();
        if path.is_dir() {
            for file in std::fs::read_dir(&path).expect("a module folder") {
                let file = file.expect("a directory entry").path();
                text += &std::fs::read_to_string(file).unwrap_or_default();
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            text = std::fs::read_to_string(&path).expect("a source file");
        } else {
            continue;
        }
        if name != "mod" {
            // The tests of a module may use anything.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            out.entry(name).or_insert_with(String::new).push_str(code);
        }
    }
    out
}

/// The identifiers a path prefix is followed by: `super::play`, `super::{chrome, rows}`.
fn named_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices(prefix) {
        let rest = &text[at + prefix.len()..];
        let group = if let Some(inner) = rest.strip_prefix('{') {
            inner.split('}').next().unwrap_or_default()
        } else {
            rest
        };
        for part in group.split(',') {
            let ident: String = part
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !ident.is_empty() {
                out.insert(ident);
            }
            if !rest.starts_with('{') {
                break;
            }
        }
    }
    out
}

/// Which modules each module uses.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let sources = sources();
    let names: BTreeSet<String> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(module, text)| {
            let mut used = BTreeSet::new();
            for prefix in ["crate::ui::", "super::super::", "super::"] {
                used.extend(named_after(text, prefix));
            }
            used.retain(|m| names.contains(m) && m != module);
            (module.clone(), used)
        })
        .collect()
}

/// A cycle through `from`, as a path of modules, if there is one.
fn cycle_through(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    let mut stack = vec![(from.to_string(), vec![from.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in graph.get(&at).into_iter().flatten() {
            if next == from {
                let mut found = path.clone();
                found.push(from.to_string());
                return Some(found);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn the_ui_modules_form_no_import_cycle() {
    let graph = graph();
    assert!(
        graph.get("ovo").is_some_and(|u| u.contains("play")),
        "the reading of the sources found nothing: {graph:?}"
    );
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|m| cycle_through(&graph, m))
        .map(|c| c.join(" → "))
        .collect();
    assert!(cycles.is_empty(), "import cycles in src/ui: {cycles:#?}");
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    graph.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycle_through(&graph, "a").map(|c| c.join(" → ")),
        Some("a → b → c → a".to_string())
    );
    graph.insert("c".to_string(), BTreeSet::new());
    assert_eq!(cycle_through(&graph, "a"), None);
    assert_eq!(
        named_after("use super::{chrome, rows}; super::play::Table", "super::"),
        BTreeSet::from(["chrome".into(), "play".into(), "rows".into()])
    );
}

/// Every source file under `src/ui`, with its test module cut off.
fn ui_code() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                out.push((path.display().to_string(), code.to_string()));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui"),
        &mut out,
    );
    out
}

/// Issue #18, point 3: a screen sees views only. The UI holds a `session::Match`, which
/// gives out the public view and, through the privacy gate, a seat's `Desk`; it never
/// holds a `Session` (whose `game()` is the whole rules state, secrets included).
#[test]
fn the_ui_never_reaches_the_rules_state() {
    let code = ui_code();
    assert!(code.len() > 20, "the reading of src/ui found too little");
    let mut found = Vec::new();
    for (file, text) in &code {
        for needle in [".game()", "Session<", "Session::"] {
            if text.contains(needle) {
                found.push(format!("{file}: {needle}"));
            }
        }
    }
    assert!(found.is_empty(), "the UI reaches past the gate: {found:#?}");
}
