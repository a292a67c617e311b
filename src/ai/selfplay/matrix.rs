//! `hotseat selfplay matrix`: every level against every other, in every seat, for each
//! game and player count, with a Wilson interval on each win rate; the tables can replace
//! a section of a document (docs/opponents.md).

use super::super::Level;
use super::{run, Config, DecisionTimes, Report, OVO_MAX_PLIES};
use crate::games::registry::GameKind;
use crate::games::Outcome;
use std::fmt::Write as _;
use std::time::Instant;

/// The matrix's command line help.
pub const MATRIX_USAGE: &str = "usage: hotseat selfplay matrix [--games K] [--seed S] [--game ovo|iota|omiga]... [--players N]... [--untimed] [--write FILE]
  plays, for each game and player count, every stronger level against each weaker one
  (one seat of the stronger, the others of the weaker, seats rotating) and prints the
  strength and decision-time tables; --write replaces them in FILE (docs/opponents.md)
  between its '<!-- matrix:start -->' and '<!-- matrix:end -->' lines";

/// What the matrix plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatrixConfig {
    /// Games per pairing.
    pub games: usize,
    /// The seed of every pairing.
    pub seed: u64,
    /// (game, players) tables to play, in order.
    pub tables: Vec<(GameKind, usize)>,
    /// No deadlines.
    pub untimed: bool,
    /// The document whose matrix section is replaced.
    pub write: Option<String>,
}

/// Every game with each of its player counts.
const TABLES: [(GameKind, usize); 6] = [
    (GameKind::Ovo, 2),
    (GameKind::Ovo, 4),
    (GameKind::Iota, 2),
    (GameKind::Iota, 3),
    (GameKind::Iota, 4),
    (GameKind::Omiga, 2),
];

impl MatrixConfig {
    /// Reads the command line after `selfplay matrix`.
    pub fn parse(args: &[String]) -> Result<MatrixConfig, String> {
        let (mut games, mut seed, mut untimed, mut write) = (100usize, 11u64, false, None);
        let (mut only_games, mut only_players) = (Vec::new(), Vec::new());
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            if flag == "--untimed" {
                untimed = true;
                continue;
            }
            let value = it
                .next()
                .ok_or_else(|| format!("{flag} needs a value\n{MATRIX_USAGE}"))?;
            let number = |what: &str| -> Result<u64, String> {
                value
                    .parse()
                    .map_err(|_| format!("{what} must be a whole number, got '{value}'"))
            };
            match flag.as_str() {
                "--games" => games = usize::try_from(number("--games")?).unwrap_or(0),
                "--seed" => seed = number("--seed")?,
                "--players" => {
                    only_players.push(usize::try_from(number("--players")?).unwrap_or(0))
                }
                "--game" => only_games.push(value.parse::<GameKind>().map_err(|e| e.to_string())?),
                "--write" => write = Some(value.clone()),
                _ => return Err(format!("unknown option '{flag}'\n{MATRIX_USAGE}")),
            }
        }
        if games == 0 {
            return Err("--games must be at least 1".into());
        }
        let tables: Vec<(GameKind, usize)> = TABLES
            .into_iter()
            .filter(|(g, _)| only_games.is_empty() || only_games.contains(g))
            .filter(|(_, p)| only_players.is_empty() || only_players.contains(p))
            .collect();
        if tables.is_empty() {
            return Err("no game is played by those player counts".into());
        }
        Ok(MatrixConfig {
            games,
            seed,
            tables,
            untimed,
            write,
        })
    }
}

/// The Wilson 95 % interval of `wins` out of `n`, in percent.
pub fn wilson(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 100.0);
    }
    let (n, z) = (n as f64, 1.96f64);
    let p = wins as f64 / n;
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (
        (100.0 * (centre - half) / denom).max(0.0),
        (100.0 * (centre + half) / denom).min(100.0),
    )
}

/// One pairing's result.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The game.
    pub game: GameKind,
    /// Seats per game.
    pub players: usize,
    /// The level in one seat.
    pub strong: Level,
    /// The level in every other seat.
    pub weak: Level,
    /// The run.
    pub report: Report,
}

impl Cell {
    /// Games the strong seat won alone, shared, and lost or drew.
    fn counts(&self) -> (usize, usize, usize) {
        let (mut won, mut shared) = (0, 0);
        for g in &self.report.games {
            match &g.outcome {
                Outcome::Win { seat } if g.levels.get(*seat) == Some(&self.strong) => won += 1,
                Outcome::SharedWin { seats }
                    if seats.iter().any(|s| g.levels.get(*s) == Some(&self.strong)) =>
                {
                    shared += 1
                }
                _ => {}
            }
        }
        (won, shared, self.report.games.len())
    }
}

/// Plays the whole matrix, telling `progress` of each pairing as it ends.
pub fn run_matrix(
    config: &MatrixConfig,
    mut progress: impl FnMut(&Cell),
) -> Result<Vec<Cell>, String> {
    let mut cells = Vec::new();
    for (game, players) in &config.tables {
        for (i, &strong) in Level::ALL.iter().enumerate().rev() {
            for &weak in Level::ALL[..i].iter().rev() {
                let mut levels = vec![strong];
                levels.extend(std::iter::repeat_n(weak, players - 1));
                let run_config = Config {
                    game: *game,
                    players: *players,
                    games: config.games,
                    levels,
                    seed: config.seed,
                    untimed: config.untimed,
                    slice: None,
                };
                let report = run(&run_config)
                    .map_err(|e| format!("{game} {players} players, {strong} vs {weak}: {e}"))?;
                let cell = Cell {
                    game: *game,
                    players: *players,
                    strong,
                    weak,
                    report,
                };
                progress(&cell);
                cells.push(cell);
            }
        }
    }
    Ok(cells)
}

/// The strength table and the decision-time table, in Markdown.
pub fn matrix_tables(config: &MatrixConfig, cells: &[Cell]) -> String {
    let mut out = String::new();
    let every_table = config.tables.len() == TABLES.len();
    let filters: String = if every_table {
        String::new()
    } else {
        let mut games: Vec<GameKind> = Vec::new();
        let mut players: Vec<usize> = Vec::new();
        for (g, p) in &config.tables {
            if !games.contains(g) {
                games.push(*g);
            }
            if !players.contains(p) {
                players.push(*p);
            }
        }
        let mut f: String = games.iter().map(|g| format!(" --game {g}")).collect();
        f.extend(players.iter().map(|p| format!(" --players {p}")));
        f
    };
    let _ = writeln!(
        out,
        "Regenerated by `hotseat selfplay matrix --games {} --seed {}{}{filters} --write \
         docs/opponents.md` (release build, `--no-default-features`). One seat of the \
         stronger level, every other seat of the weaker, seats and first player rotating; \
         a win is finishing first alone (shared wins and Ovo games cut off at \
         {OVO_MAX_PLIES} actions are not wins). 95 % Wilson interval. With N players, \
         chance is 1/N.",
        config.games,
        config.seed,
        if config.untimed { " --untimed" } else { "" },
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| game | players | stronger | vs | games | stronger wins | 95 % interval | shared | draws / cut off | avg length |"
    );
    let _ = writeln!(
        out,
        "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for c in cells {
        let (won, shared, n) = c.counts();
        let (lo, hi) = wilson(won, n);
        let draws = c
            .report
            .games
            .iter()
            .filter(|g| g.outcome == Outcome::Draw)
            .count();
        let cut = c.report.games.iter().filter(|g| g.cut_off).count();
        let plies: usize = c.report.games.iter().map(|g| g.plies).sum();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {n} | {won} ({:.0} %) | {lo:.0}–{hi:.0} % | {shared} | {draws} / {cut} | {:.0} |",
            c.game.title(),
            c.players,
            c.strong,
            c.weak,
            100.0 * won as f64 / n.max(1) as f64,
            plies as f64 / n.max(1) as f64,
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Decision times in the same games (this machine, 2 cores shared with other work): \
         wall-clock mean / max (decisions cut short by the level's deadline); processor \
         time mean (what the decision costs on a free core)."
    );
    let _ = writeln!(out);
    let mut header = "| game | players |".to_string();
    let mut rule = "| --- | ---: |".to_string();
    for level in Level::ALL {
        let _ = write!(header, " {level} |");
        rule.push_str(" ---: |");
    }
    let _ = writeln!(out, "{header}\n{rule}");
    for (game, players) in &config.tables {
        let mut row = format!("| {} | {players} |", game.title());
        for (li, _) in Level::ALL.iter().enumerate() {
            let mut t = DecisionTimes::default();
            for c in cells
                .iter()
                .filter(|c| &c.game == game && c.players == *players)
            {
                let x = &c.report.times[li];
                t.count += x.count;
                t.total += x.total;
                t.max = t.max.max(x.max);
                t.deadline_hits += x.deadline_hits;
                t.cpu += x.cpu;
            }
            if t.count == 0 {
                row.push_str(" — |");
            } else {
                let _ = write!(
                    row,
                    " {} / {} ({}); {} |",
                    millis(t.total.as_secs_f64() * 1000.0 / t.count as f64),
                    millis(t.max.as_secs_f64() * 1000.0),
                    t.deadline_hits,
                    millis(t.cpu.as_secs_f64() * 1000.0 / t.count as f64),
                );
            }
        }
        let _ = writeln!(out, "{row}");
    }
    out
}

/// A duration in milliseconds, with the digits that matter.
fn millis(ms: f64) -> String {
    if ms < 1.0 {
        format!("{ms:.2} ms")
    } else if ms < 10.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

/// The start and end markers of the generated section.
pub const MATRIX_START: &str = "<!-- matrix:start -->";
/// See [`MATRIX_START`].
pub const MATRIX_END: &str = "<!-- matrix:end -->";

/// `doc` with the text between its markers replaced by `tables`.
pub fn replace_section(doc: &str, tables: &str) -> Result<String, String> {
    let start = doc
        .find(MATRIX_START)
        .ok_or_else(|| format!("no '{MATRIX_START}' line to write after"))?;
    let end = doc
        .find(MATRIX_END)
        .filter(|&e| e > start)
        .ok_or_else(|| format!("no '{MATRIX_END}' line after '{MATRIX_START}'"))?;
    Ok(format!(
        "{}{MATRIX_START}\n{tables}{}",
        &doc[..start],
        &doc[end..]
    ))
}

/// `selfplay matrix`.
pub fn matrix_command(args: &[String]) -> Result<(), String> {
    let config = MatrixConfig::parse(args)?;
    // Read the document first: a wrong path fails before an hour of games, not after.
    let doc = match &config.write {
        Some(path) => {
            Some(std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?)
        }
        None => None,
    };
    let started = Instant::now();
    let cells = run_matrix(&config, |c| {
        let (won, shared, n) = c.counts();
        eprintln!(
            "{} {}p {} vs {}: {won}/{n} won, {shared} shared ({:.0} s so far)",
            c.game,
            c.players,
            c.strong,
            c.weak,
            started.elapsed().as_secs_f64()
        );
    })?;
    let tables = matrix_tables(&config, &cells);
    print!("{tables}");
    if let (Some(path), Some(doc)) = (&config.write, doc) {
        let new = replace_section(&doc, &tables)?;
        std::fs::write(path, new).map_err(|e| format!("cannot write {path}: {e}"))?;
        eprintln!("wrote the tables into {path}");
    }
    Ok(())
}
