//! The UI bridge sees views only (issue #18): no file of `src/ui` reaches the rules state
//! past the privacy gate. (That its modules form no import circle is now checked for all
//! of `src/` by tests/architecture.rs.)

use std::path::Path;

/// Every source file under `src/ui`, with its test module cut off (and no test file).
fn ui_code() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
            {
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
