//! The map of `src/` holds (issue #42): no import circle among its files, and each part
//! uses only the parts docs/architecture.md says it may (its table "Who may use whom" is
//! read from the page, so the page and this test cannot disagree). Read from the sources, so it
//! runs in the rules-only build too (`cargo test --no-default-features --test architecture`).
//!
//! A file uses another when its code (tests and comments left out) names a module path
//! that resolves to it: `crate::net::host::Host`, `super::reason`, `use super::{a, b}`,
//! or a child module by its bare name. A path resolves to the deepest module it names
//! (`crate::net::Host` is net/mod.rs, which re-exports it). A file's use of a folder it
//! sits in (`super::NetError` from net/host.rs) is not counted: a folder's mod.rs is its
//! front door, declaring its files and holding what they share.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root: `["net", "host"]`; the root is `[]`.
type ModPath = Vec<String>;

/// One source file: its module path, its code without tests and comments, and the
/// names of the modules it declares.
struct Source {
    module: ModPath,
    code: String,
    children: BTreeSet<String>,
}

/// Removes comments (line and block) and string literals' contents, so that neither a
/// doc link nor a message text counts as a use.
fn strip_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < bytes.len() {
                if bytes[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if bytes[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if bytes[i] == b'"' && (i == 0 || bytes[i - 1] != b'\'') {
            // A string (a raw string's `r#"` ends at its own `"#`).
            let raw = i > 0 && (bytes[i - 1] == b'#' || bytes[i - 1] == b'r');
            out.push('"');
            i += 1;
            while i < bytes.len() {
                if !raw && bytes[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if bytes[i] == b'"' {
                    break;
                }
                if bytes[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The code without the items marked `#[cfg(test)]` (a test module, inline or a file,
/// and test-only helpers), and the names of the test-only modules declared.
fn strip_tests(code: &str) -> (String, BTreeSet<String>) {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::new();
    let mut test_mods = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let semi = item.find(';').unwrap_or(item.len());
        let brace = item.find('{').unwrap_or(item.len());
        let end = if semi < brace {
            let head = item[..semi].trim();
            if let Some(name) = head.strip_prefix("mod ").or(head.strip_prefix("pub mod ")) {
                test_mods.insert(name.trim().to_string());
            }
            semi + 1
        } else {
            let mut depth = 0;
            let mut end = item.len();
            for (i, c) in item.char_indices().skip(brace) {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            end
        };
        rest = &item[end.min(item.len())..];
    }
    out.push_str(rest);
    (out, test_mods)
}

/// The module names a file declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn declared_children(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim();
        let Some(at) = line.find("mod ") else {
            continue;
        };
        let before = line[..at].trim();
        if !(before.is_empty() || before.starts_with("pub")) || !line.ends_with(';') {
            continue;
        }
        let name = line[at + 4..].trim_end_matches(';').trim();
        if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            out.insert(name.to_string());
        }
    }
    out
}

/// Every library source file under `src/` (the binary's main.rs is its own crate),
/// test-only files left out.
fn sources(root: &Path) -> Vec<Source> {
    fn module_of(root: &Path, file: &Path) -> ModPath {
        let rel = file.strip_prefix(root).expect("a file under src");
        let mut parts: ModPath = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
            parts.pop();
        }
        parts
    }
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("a readable folder")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(root, &mut files);
    let mut all = Vec::new();
    let mut test_only: BTreeSet<ModPath> = BTreeSet::new();
    for file in files {
        if file == root.join("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        let (code, test_mods) = strip_tests(&strip_comments(&text));
        let module = module_of(root, &file);
        for name in test_mods {
            let mut child = module.clone();
            child.push(name);
            test_only.insert(child);
        }
        let children = declared_children(&code);
        all.push(Source {
            module,
            code,
            children,
        });
    }
    all.retain(|s| !test_only.iter().any(|t| s.module.starts_with(t)));
    all
}

/// The paths of a use tree written after a prefix: `{a, b::{C, d}}` gives `a`, `b::C`,
/// `b::d`; `x::y::Z` gives `x::y::Z`.
fn use_paths(text: &str) -> Vec<Vec<String>> {
    /// Reads one tree from `chars[*at..]` below `prefix`.
    fn tree(chars: &[char], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let skip_space = |at: &mut usize| {
            while chars.get(*at).is_some_and(|c| c.is_whitespace()) {
                *at += 1;
            }
        };
        skip_space(at);
        if chars.get(*at) == Some(&'{') {
            *at += 1;
            loop {
                skip_space(at);
                if chars.get(*at) == Some(&'}') {
                    *at += 1;
                    return;
                }
                tree(chars, at, prefix.clone(), out);
                skip_space(at);
                match chars.get(*at) {
                    Some(',') => *at += 1,
                    Some('}') => {
                        *at += 1;
                        return;
                    }
                    _ => return,
                }
            }
        }
        let start = *at;
        while chars
            .get(*at)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            *at += 1;
        }
        let mut path = prefix;
        if *at > start {
            path.push(chars[start..*at].iter().collect());
            if chars.get(*at) == Some(&':') && chars.get(*at + 1) == Some(&':') {
                *at += 2;
                return tree(chars, at, path, out);
            }
        }
        out.push(path);
    }
    let chars: Vec<char> = text.chars().take(2000).collect();
    let mut out = Vec::new();
    tree(&chars, &mut 0, Vec::new(), &mut out);
    out
}

/// Which files each file uses, by module path.
fn graph(sources: &[Source]) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let modules: BTreeSet<ModPath> = sources.iter().map(|s| s.module.clone()).collect();
    // The deepest module of `modules` a path names, walked from `base`.
    let resolve = |base: &ModPath, path: &[String]| -> Option<ModPath> {
        let mut at = base.clone();
        let mut found = None;
        for part in path {
            match part.as_str() {
                "super" => {
                    at.pop();
                }
                "self" => {}
                _ => {
                    at.push(part.clone());
                    if !modules.contains(&at) {
                        break;
                    }
                }
            }
            if modules.contains(&at) {
                found = Some(at.clone());
            }
        }
        found
    };
    let mut out = BTreeMap::new();
    for source in sources {
        let mut used = BTreeSet::new();
        let parent: ModPath = source.module[..source.module.len().saturating_sub(1)].to_vec();
        let code = &source.code;
        let mut starts: Vec<(usize, ModPath, usize)> = Vec::new();
        for (at, _) in code.match_indices("crate::") {
            starts.push((at, Vec::new(), "crate::".len()));
        }
        for (at, _) in code.match_indices("super::") {
            // `super::super::x` is found once, from its first `super`.
            if at >= 2 && &code[at - 2..at] == "::" {
                continue;
            }
            starts.push((at, parent.clone(), "super::".len()));
        }
        for (at, _) in code.match_indices("self::") {
            if at >= 2 && &code[at - 2..at] == "::" {
                continue;
            }
            starts.push((at, source.module.clone(), "self::".len()));
        }
        for child in &source.children {
            let needle = format!("{child}::");
            for (at, _) in code.match_indices(&needle) {
                let before = code[..at].chars().next_back().unwrap_or(' ');
                if before.is_alphanumeric() || before == '_' || before == ':' {
                    continue;
                }
                starts.push((at, source.module.clone(), 0));
            }
        }
        for (at, base, skip) in starts {
            for path in use_paths(&code[at + skip..]) {
                if let Some(target) = resolve(&base, &path) {
                    if !source.module.starts_with(&target) {
                        used.insert(target);
                    }
                }
            }
        }
        out.insert(source.module.clone(), used);
    }
    out
}

/// The import circles: each strongly connected set of more than one file, with one
/// circle through it spelled out.
fn circles(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<String> {
    let name = |m: &ModPath| {
        if m.is_empty() {
            "crate".to_string()
        } else {
            m.join("::")
        }
    };
    // A circle through `from`, found by a breadth-first walk back to it.
    let circle_through = |from: &ModPath| -> Option<Vec<ModPath>> {
        let mut came_from: BTreeMap<ModPath, ModPath> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([from.clone()]);
        while let Some(at) = queue.pop_front() {
            for next in graph.get(&at).into_iter().flatten() {
                if next == from {
                    let mut path = vec![at.clone()];
                    let mut back = &at;
                    while back != from {
                        back = &came_from[back];
                        path.push(back.clone());
                    }
                    path.reverse();
                    path.push(from.clone());
                    return Some(path);
                }
                if next != from && !came_from.contains_key(next) {
                    came_from.insert(next.clone(), at.clone());
                    queue.push_back(next.clone());
                }
            }
        }
        None
    };
    let mut seen: BTreeSet<ModPath> = BTreeSet::new();
    let mut out = Vec::new();
    for module in graph.keys() {
        if seen.contains(module) {
            continue;
        }
        if let Some(path) = circle_through(module) {
            seen.extend(path.iter().cloned());
            out.push(path.iter().map(name).collect::<Vec<_>>().join(" → "));
        }
    }
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_import_circle_among_the_files_of_src() {
    let sources = sources(&src());
    let graph = graph(&sources);
    let uses = |a: &str, b: &str| {
        let a: ModPath = a.split("::").map(String::from).collect();
        let b: ModPath = b.split("::").map(String::from).collect();
        graph.get(&a).is_some_and(|u| u.contains(&b))
    };
    // The reading found the uses it must: a use list, a crate path, a bare child.
    assert!(uses("ui::ovo", "ui::play"), "the reading found too little");
    assert!(
        uses("net::host", "net::host_match"),
        "the reading found too little"
    );
    assert!(uses("ui", "ui::ovo"), "the reading found too little");
    let circles = circles(&graph);
    assert!(
        circles.is_empty(),
        "import circles among src/ files: {circles:#?}"
    );
}

/// The reading and the search, on made-up code: a circle is found when there is one.
#[test]
fn a_circle_is_found_when_there_is_one() {
    let file = |module: &str, code: &str| Source {
        module: module.split("::").map(String::from).collect(),
        code: strip_tests(&strip_comments(code)).0,
        children: declared_children(code),
    };
    let mut sources = vec![
        file("net", "pub mod a;\npub mod b;\npub mod c;\npub struct E;"),
        file(
            "net::a",
            "use super::{b::{X, Y}, E};\n// super::c::Z is a comment\nlet s = \"crate::net::c\";",
        ),
        file("net::b", "fn f() { crate::net::c::go() }"),
        file("net::c", "use super::a::W;"),
    ];
    let graph_of = |s: &[Source]| circles(&graph(s));
    assert_eq!(
        graph_of(&sources),
        vec!["net::a → net::b → net::c → net::a"]
    );
    // The use of its own folder (`E` from net/mod.rs) is not a circle; a test's use is not a use.
    sources[3] = file(
        "net::c",
        "use super::E;\n#[cfg(test)]\nmod tests {\n    use super::super::a::W;\n}",
    );
    assert!(graph_of(&sources).is_empty());
    assert_eq!(
        use_paths(" {a::{B, C}, d, e::f::G }"),
        vec![
            vec!["a".to_string(), "B".into()],
            vec!["a".into(), "C".into()],
            vec!["d".into()],
            vec!["e".into(), "f".into(), "G".into()]
        ]
    );
}

/// The parts (the top-level modules of `src/`) each part may use, read from the table in
/// docs/architecture.md: `| part | may use |` rows, the parts in backticks.
fn may_use() -> BTreeMap<String, BTreeSet<String>> {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md");
    let text = std::fs::read_to_string(page).expect("docs/architecture.md is readable");
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(|s| s.trim_end_matches('/').to_string())
            .collect()
    };
    let mut out = BTreeMap::new();
    let table = text
        .split("## Who may use whom")
        .nth(1)
        .expect("the page has its section \"Who may use whom\"");
    for line in table.lines().skip_while(|l| !l.starts_with('|')) {
        let Some(row) = line.strip_prefix('|') else {
            break;
        };
        let cells: Vec<&str> = row.split('|').collect();
        if cells.len() < 2 {
            continue;
        }
        if let [part] = ticked(cells[0]).as_slice() {
            out.insert(part.clone(), ticked(cells[1]).into_iter().collect());
        }
    }
    out
}

#[test]
fn each_part_uses_only_the_parts_the_architecture_page_allows() {
    let rules = may_use();
    assert!(
        rules.get("games").is_some_and(|r| r.is_empty()) && rules.len() > 10,
        "the page's table was not read: {rules:?}"
    );
    let graph = graph(&sources(&src()));
    let part = |m: &ModPath| m.first().cloned().unwrap_or_else(|| "lib.rs".into());
    let mut unknown = BTreeSet::new();
    let mut broken = Vec::new();
    for (from, used) in &graph {
        let a = part(from);
        if a == "lib.rs" {
            continue;
        }
        let Some(allowed) = rules.get(&a) else {
            unknown.insert(a);
            continue;
        };
        for to in used {
            let b = part(to);
            if b != a && b != "lib.rs" && !allowed.contains(&b) {
                broken.push(format!("{} uses {}", from.join("::"), to.join("::")));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "parts the page does not list: {unknown:?}"
    );
    assert!(
        broken.is_empty(),
        "uses docs/architecture.md does not allow: {broken:#?}"
    );
}
