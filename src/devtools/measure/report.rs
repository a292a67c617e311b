//! The table `hotseat bench` prints: one row per figure, with its goal and how it was
//! measured, as aligned text for a terminal or as Markdown for `docs/performance.md`.

/// One measured figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The benchmark it belongs to (`startup`, `idle`, …).
    pub bench: String,
    /// What was measured.
    pub what: String,
    /// The figure, with its unit.
    pub value: String,
    /// The goal, or empty.
    pub goal: String,
    /// Whether the goal is met (`None`: no goal, or not comparable).
    pub met: Option<bool>,
    /// Anything a reader needs to judge the figure (renderer, runs, dirty area…).
    pub note: String,
}

impl Row {
    /// A row without a goal.
    pub fn new(bench: &str, what: impl Into<String>, value: impl Into<String>) -> Self {
        Row {
            bench: bench.into(),
            what: what.into(),
            value: value.into(),
            goal: String::new(),
            met: None,
            note: String::new(),
        }
    }

    /// The same row with a goal and whether it is met.
    pub fn goal(mut self, goal: impl Into<String>, met: bool) -> Self {
        self.goal = goal.into();
        self.met = Some(met);
        self
    }

    /// The same row with a note.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = note.into();
        self
    }
}

const HEADERS: [&str; 5] = ["bench", "what", "value", "goal", "note"];

fn cells(row: &Row) -> [String; 5] {
    let goal = match row.met {
        Some(true) => format!("{} ✓", row.goal),
        Some(false) => format!("{} ✗", row.goal),
        None => row.goal.clone(),
    };
    [
        row.bench.clone(),
        row.what.clone(),
        row.value.clone(),
        goal,
        row.note.clone(),
    ]
}

/// The rows as a text table with aligned columns (widths in characters, not bytes).
pub fn text(rows: &[Row]) -> String {
    let all: Vec<[String; 5]> = rows.iter().map(cells).collect();
    let mut widths = HEADERS.map(|h| h.chars().count());
    for r in &all {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |r: &[String; 5]| {
        let padded: Vec<String> = r
            .iter()
            .zip(widths)
            .map(|(cell, w)| format!("{cell}{}", " ".repeat(w - cell.chars().count())))
            .collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(&HEADERS.map(String::from));
    out += &line(&widths.map(|w| "-".repeat(w)));
    for r in &all {
        out += &line(r);
    }
    out
}

/// The rows as a Markdown table (`|` inside a cell is escaped).
pub fn markdown(rows: &[Row]) -> String {
    let line = |r: &[String; 5]| {
        let escaped: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |\n", escaped.join(" | "))
    };
    let mut out = line(&HEADERS.map(String::from));
    out += "| --- | --- | --- | --- | --- |\n";
    for r in rows {
        out += &line(&cells(r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Row> {
        vec![
            Row::new("startup", "home screen", "180.00 ms")
                .goal("≤ 1.2× floor", true)
                .note("Xvfb"),
            Row::new("binary", "release size", "20.1 MiB"),
            Row::new("frame", "ovo4 | phone", "9.00 ms").goal("< 8 ms", false),
        ]
    }

    #[test]
    fn text_columns_line_up_even_with_non_ascii_cells() {
        let out = text(&rows());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2 + 3);
        let value_col = lines[0].find("value").expect("a value header");
        for line in &lines[2..] {
            let chars: Vec<char> = line.chars().collect();
            let prefix: String = chars[..value_col].iter().collect();
            assert!(prefix.ends_with("  "), "{line:?}");
            assert_ne!(chars[value_col], ' ', "{line:?}");
        }
    }

    #[test]
    fn goals_say_whether_they_are_met() {
        let out = text(&rows());
        assert!(out.contains("≤ 1.2× floor ✓"));
        assert!(out.contains("< 8 ms ✗"));
    }

    #[test]
    fn markdown_has_one_row_per_figure_and_escapes_bars() {
        let out = markdown(&rows());
        assert_eq!(out.lines().count(), 2 + 3);
        assert!(out.contains("ovo4 \\| phone"));
        assert!(out
            .lines()
            .all(|l| l.starts_with("| ") && l.ends_with(" |")));
    }
}
