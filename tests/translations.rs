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

/// Whether `c` is a Cyrillic letter.
fn cyrillic(c: char) -> bool {
    ('\u{0400}'..='\u{04FF}').contains(&c)
}

/// Rust holds no Russian: every word a player reads comes from a .slint `@tr` and the .po
/// file. Allowed: `#[cfg(test)]` modules (expected Russian texts, fixtures), comments, and
/// a line marked `// Russian on purpose:` with the reason (a language's own name).
#[test]
fn no_russian_in_rust_sources() {
    fn rs_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in fs::read_dir(dir).expect("src/ is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                rs_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rs_files(&root.join("src"), &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("readable .rs");
        let mut in_tests = false;
        let mut previous = "";
        for (n, line) in text.lines().enumerate() {
            // A test module runs to the end of its file (the layout every file here keeps).
            if line.starts_with("mod tests") && previous.trim() == "#[cfg(test)]" {
                in_tests = true;
            }
            previous = line;
            let code = line.split("//").next().unwrap_or("");
            if in_tests || !code.chars().any(cyrillic) {
                continue;
            }
            if line.contains("// Russian on purpose:") {
                continue;
            }
            found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
        }
    }
    assert!(
        found.is_empty(),
        "Russian in Rust (move it to a .slint @tr and the .po file):\n{}",
        found.join("\n")
    );
}

/// Every text the Rust bridges make (`texts::examples`, one of each variant of each
/// area) reads in Russian through ui/texts/ and the .po file: not the English, no
/// placeholder left, the names, cells and counts kept; in English it reads exactly as its
/// `Display`.
#[cfg(feature = "devtools")]
#[test]
fn every_text_has_a_russian_text() {
    use hotseat::ui::{build, texts};
    i_slint_backend_testing::init_no_event_loop();
    let (app, _controller) = build(None).expect("the window builds");
    let examples = texts::examples();
    assert!(examples.len() > 150, "only {} examples", examples.len());
    let mut ids = BTreeSet::new();
    for text in examples {
        let what = format!("{}/{}", text.area(), text.id());
        assert!(ids.insert(what.clone()), "{what} twice");
        let english = text.to_string();
        slint::select_bundled_translation("").expect("English is the default");
        assert_eq!(texts::in_window(&app, text.as_ref()), english, "{what}");
        assert_eq!(texts::say(text.as_ref(), "en"), english, "{what}");
        slint::select_bundled_translation("ru").expect("Russian is bundled");
        let russian = texts::in_window(&app, text.as_ref());
        assert_eq!(texts::say(text.as_ref(), "ru"), russian, "{what}");
        assert_ne!(russian, english, "{what} has no Russian text");
        assert!(russian.chars().any(cyrillic), "{what}: {russian}");
        assert!(
            !russian.contains("{}") && !russian.contains("{n}"),
            "{what}: {russian}"
        );
        for arg in text.args() {
            assert!(
                russian.contains(&arg),
                "{what}: '{arg}' is missing in {russian}"
            );
        }
    }
    slint::select_bundled_translation("").expect("English is the default");
}

/// A count picks the Russian plural form: 1 карта, 3 карты, 5 карт, 11 карт, 21 карта.
#[cfg(feature = "devtools")]
#[test]
fn russian_counts_take_their_plural_form() {
    use hotseat::ui::build;
    use hotseat::ui::texts::{in_window, IotaText, ShellText};
    i_slint_backend_testing::init_no_event_loop();
    let (app, _controller) = build(None).expect("the window builds");
    slint::select_bundled_translation("ru").expect("Russian is bundled");
    let pass = |n| in_window(&app, &ShellText::ReplayPass { n });
    assert_eq!(pass(1), "пас, в колоду: 1 карта");
    assert_eq!(pass(3), "пас, в колоду: 3 карты");
    assert_eq!(pass(5), "пас, в колоду: 5 карт");
    assert_eq!(pass(11), "пас, в колоду: 11 карт");
    assert_eq!(pass(21), "пас, в колоду: 21 карта");
    assert_eq!(in_window(&app, &IotaText::Points { n: 2 }), "2 очка");
    slint::select_bundled_translation("").expect("English is the default");
    assert_eq!(pass(1), "pass, 1 card back to the pile");
    assert_eq!(
        in_window(&app, &ShellText::ReplayPass { n: 2 }),
        "pass, 2 cards back to the pile"
    );
    assert_eq!(in_window(&app, &IotaText::Points { n: 1 }), "1 point");
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

/// Every reason the network gives (`NetReason::examples`: a host's refusal or rejection,
/// an ended pairing, a notice, a failed join or host, every protocol error and every
/// Omiga refusal sent typed) reads in Russian through ui/texts/lan.slint, ui/refusals.slint
/// and the .po file, keeping what varies; in English it reads exactly as its `Display`
/// (what `hotseat host` / `join` print and the wire's `reason` carries).
#[cfg(feature = "devtools")]
#[test]
fn every_network_reason_has_a_russian_text() {
    use hotseat::net::NetReason;
    use hotseat::ui::{build, reasons};
    i_slint_backend_testing::init_no_event_loop();
    let (app, _controller) = build(None).expect("the window builds");
    let examples = NetReason::examples();
    assert!(examples.len() > 70, "only {} examples", examples.len());
    for r in examples {
        assert!(
            !matches!(r, NetReason::Other { .. }),
            "an untyped example: {r}"
        );
        let english = r.to_string();
        slint::select_bundled_translation("").expect("English is the default");
        assert_eq!(reasons::in_window(&app, &r), english, "{r:?}");
        assert_eq!(reasons::say(&r, "en"), english, "{r:?}");
        slint::select_bundled_translation("ru").expect("Russian is bundled");
        let russian = reasons::in_window(&app, &r);
        assert_eq!(reasons::say(&r, "ru"), russian, "{r:?}");
        assert_ne!(russian, english, "{r:?} has no Russian text");
        assert!(russian.chars().any(cyrillic), "{r:?}: {russian}");
        assert!(!russian.contains("{}"), "{r:?}: {russian}");
        for arg in reasons::arguments(&r) {
            // A reason inside a reason is worded in Russian too; the rest stays.
            let inner_english = inner_english(&r);
            if Some(&arg) != inner_english.as_ref() {
                assert!(
                    russian.contains(&arg),
                    "{r:?}: '{arg}' is missing in {russian}"
                );
            }
        }
    }
    // A reason inside a reason reads in Russian, not as its English.
    let inner = NetReason::RefusedDevice {
        why: Box::new(NetReason::WrongCode),
    };
    let russian = reasons::in_window(&app, &inner);
    assert!(!russian.contains("wrong join code"), "{russian}");
    assert_eq!(
        russian,
        format!(
            "устройство не принято: {}",
            reasons::in_window(&app, &NetReason::WrongCode)
        )
    );
    // English-only reasons stay English.
    let other = NetReason::from("unknown option --fly");
    assert_eq!(reasons::in_window(&app, &other), "unknown option --fly");
    slint::select_bundled_translation("").expect("English is the default");
}

/// The English of the reason inside `r`, if it holds one (it is worded, not kept).
#[cfg(feature = "devtools")]
fn inner_english(r: &hotseat::net::NetReason) -> Option<String> {
    use hotseat::net::NetReason as R;
    match r {
        R::NotTakenBack { why }
        | R::SendDropped { why }
        | R::RefusedDevice { why }
        | R::RefusedFlood { why }
        | R::RefusedMessage { why }
        | R::ConnectionLost { why } => Some(why.to_string()),
        R::FromHost { problem } | R::Unreadable { problem } => Some(problem.to_string()),
        _ => None,
    }
}
