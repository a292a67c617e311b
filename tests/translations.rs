//! Every string the UI marks with `@tr("…")` has a Russian translation, so that switching
//! to Russian never leaves English words behind.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

fn slint_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("ui/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            slint_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "slint") {
            out.push(path);
        }
    }
}

/// Reads one Slint string literal at the start of `rest` (just after its opening quote),
/// unescaped as Slint reads it; returns it and what follows its closing quote.
fn literal(rest: &str) -> (String, &str) {
    let mut s = String::new();
    let mut chars = rest.char_indices();
    while let Some((j, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, n)) = chars.next() {
                    s.push(n);
                }
            }
            '"' => return (s, &rest[j + 1..]),
            c => s.push(c),
        }
    }
    (s, "")
}

/// Every `@tr(…)` as (context, msgid): `@tr("…", …)` has no context, `@tr("ctx" => "…")`
/// has one (the .po file's `msgctxt`).
fn tr_strings(text: &str) -> Vec<(Option<String>, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("@tr(\"") {
        let (first, after) = literal(&rest[i + 5..]);
        rest = after;
        let arrow = after.trim_start();
        if let Some(tail) = arrow.strip_prefix("=>") {
            if let Some(tail) = tail.trim_start().strip_prefix('"') {
                let (id, after) = literal(tail);
                rest = after;
                found.push((Some(first), id));
                continue;
            }
        }
        found.push((None, first));
    }
    found
}

/// The .po file's entries as (context, msgid), from `msgctxt` and `msgid` lines (a
/// plural's `msgid_plural` belongs to the `msgid` before it).
fn po_ids(po: &str) -> BTreeSet<(Option<String>, String)> {
    let unquote = |l: &str| l.strip_suffix('"').map(|s| s.replace("\\\"", "\""));
    let mut ids = BTreeSet::new();
    let mut context = None;
    for line in po.lines() {
        if let Some(c) = line.strip_prefix("msgctxt \"") {
            context = unquote(c);
        } else if let Some(id) = line.strip_prefix("msgid \"").and_then(unquote) {
            if !id.is_empty() {
                ids.insert((context.take(), id));
            }
            context = None;
        }
    }
    ids
}

#[test]
fn every_ui_string_has_a_russian_translation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    slint_files(&root.join("ui"), &mut files);
    let po = fs::read_to_string(root.join("ui/translations/ru/LC_MESSAGES/hotseat.po"))
        .expect("the Russian translation exists");
    let ids = po_ids(&po);
    let mut missing = BTreeSet::new();
    let mut used = BTreeSet::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("readable .slint");
        for s in tr_strings(&text) {
            if !ids.contains(&s) {
                missing.insert(format!("{}: {s:?}", file.display()));
            }
            used.insert(s);
        }
    }
    assert!(used.len() > 20, "found only {} strings", used.len());
    assert!(
        missing.is_empty(),
        "untranslated:\n{}",
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );
    let stale: Vec<_> = ids.difference(&used).collect();
    assert!(
        stale.is_empty(),
        "translations no UI string uses: {stale:?}"
    );
}

/// The same English may mean two things ("Start" the button, "Start" the first position
/// of a replay): a context tells them apart, and each keeps its own Russian.
#[test]
fn a_context_keeps_two_meanings_of_one_word_apart() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let po = fs::read_to_string(root.join("ui/translations/ru/LC_MESSAGES/hotseat.po"))
        .expect("the Russian translation exists");
    let ids = po_ids(&po);
    assert!(ids.contains(&(None, "Start".to_string())));
    assert!(ids.contains(&(Some("replay position".to_string()), "Start".to_string())));
    let ids: Vec<_> = po.lines().filter(|l| l.starts_with("msgid ")).collect();
    let mut seen = BTreeSet::new();
    let mut context = None;
    let mut twice = Vec::new();
    for line in po.lines() {
        if line.starts_with("msgctxt ") {
            context = Some(line);
        } else if line.starts_with("msgid ")
            && line != "msgid \"\""
            && !seen.insert((context.take(), line))
        {
            twice.push(line);
        }
    }
    assert!(ids.len() > 200);
    assert!(
        twice.is_empty(),
        "one msgid twice without a context: {twice:?}"
    );
    assert_eq!(
        tr_strings(r#"x: @tr("replay position" => "Start"); y: @tr("Move {} of {}", a, b);"#),
        vec![
            (Some("replay position".into()), "Start".into()),
            (None, "Move {} of {}".into())
        ]
    );
}

/// Every refusal a player can meet (`RuleError::examples`, one of each variant) reads in
/// Russian through ui/refusals.slint and the .po file: a text that is not the English,
/// with no placeholder left, keeping the cells, cards and counts; and in English it reads
/// exactly as the referee prints it.
#[cfg(feature = "devtools")]
#[test]
fn every_refusal_has_a_russian_text() {
    use hotseat::games::RuleError;
    use hotseat::ui::{build, refusals};
    i_slint_backend_testing::init_no_event_loop();
    let (app, _controller) = build(None).expect("the window builds");
    let examples = RuleError::examples();
    assert!(examples.len() > 40, "only {} examples", examples.len());
    for e in examples {
        assert!(!matches!(e, RuleError::Other(_)), "an untyped example: {e}");
        let english = e.to_string();
        slint::select_bundled_translation("").expect("English is the default");
        assert_eq!(refusals::in_window(&app, &e), english, "{e:?}");
        assert_eq!(refusals::say(&e, "en"), english, "{e:?}");
        slint::select_bundled_translation("ru").expect("Russian is bundled");
        let russian = refusals::in_window(&app, &e);
        assert_eq!(refusals::say(&e, "ru"), russian, "{e:?}");
        assert_ne!(russian, english, "{e:?} has no Russian text");
        assert!(
            russian
                .chars()
                .any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)),
            "{e:?}: {russian}"
        );
        assert!(!russian.contains("{}"), "{e:?}: {russian}");
        for arg in refusals::arguments(&e) {
            // Colour and shape words are translated; cells, cards, seats and counts stay.
            let words_only = arg
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == ',' || c == ' ');
            if !words_only {
                assert!(
                    russian.contains(&arg),
                    "{e:?}: '{arg}' is missing in {russian}"
                );
            }
        }
    }
}
