//! `hotseat selfplay`: app opponents play each other with no UI, every step checked
//! against the rules core's invariants, and a table of the results.
//!
//! Usage: `hotseat selfplay --game ovo|iota|omiga [--players N] [--games K]
//! [--levels a,b,...] [--seed S] [--untimed] [--slice MS]`. Seat `i` of game `k` plays
//! `levels[(i + k) % len]`, so every level sits in every seat. Omiga is played on a
//! simulated clock: each seat acts when its level's think time ([`omiga_bot::pace`]) has
//! passed. The same seed plays the same games (and prints the same checksum) as long as
//! no decision hit its deadline; `--untimed` lifts the deadlines to make that certain.
//! `--slice MS` makes every decision through `Bot::think` in slices of MS milliseconds,
//! as the browser does, and reports the longest slice and the slices per decision.

mod matrix;

use matrix::matrix_command;
pub use matrix::wilson;
pub use matrix::{
    matrix_tables, replace_section, run_matrix, Cell, MatrixConfig, MATRIX_END, MATRIX_START,
    MATRIX_USAGE,
};

use super::{omiga_bot, Level, Opponents, Thought, Told};
use crate::games::iota::Iota;
use crate::games::omiga::Omiga;
use crate::games::ovo::Ovo;
use crate::games::registry::GameKind;
use crate::games::{rng_from_seed, Game, Outcome, Params, Seat};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::hash_map::DefaultHasher;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// Ovo games between bots that never finish are cut off here and counted as draws.
pub const OVO_MAX_PLIES: usize = 600;
/// A safety cap for the other games (they always end well before it).
pub const OTHER_MAX_PLIES: usize = 2000;

/// What to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Which game.
    pub game: GameKind,
    /// Seats per game.
    pub players: usize,
    /// How many games.
    pub games: usize,
    /// The levels, dealt to seats in rotation.
    pub levels: Vec<Level>,
    /// The seed of everything.
    pub seed: u64,
    /// No deadlines: every search runs its full budget (exactly reproducible).
    pub untimed: bool,
    /// Decide through `Bot::think` in slices this long (the browser's way); `None`:
    /// `Bot::choose` in one call (the desktop's worker thread).
    pub slice: Option<Duration>,
}

impl Config {
    /// Reads the command line after `selfplay`.
    pub fn parse(args: &[String]) -> Result<Config, String> {
        let mut game = None;
        let mut c = Config {
            game: GameKind::Ovo,
            players: 2,
            games: 100,
            levels: vec![Level::Hard, Level::Random],
            seed: 1,
            untimed: false,
            slice: None,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            if flag == "--untimed" {
                c.untimed = true;
                continue;
            }
            let value = it
                .next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
            let number = |what: &str| -> Result<u64, String> {
                value
                    .parse()
                    .map_err(|_| format!("{what} must be a whole number, got '{value}'"))
            };
            match flag.as_str() {
                "--game" => game = Some(value.parse::<GameKind>().map_err(|e| e.to_string())?),
                "--players" => c.players = usize::try_from(number("--players")?).unwrap_or(0),
                "--games" => c.games = usize::try_from(number("--games")?).unwrap_or(0),
                "--seed" => c.seed = number("--seed")?,
                "--slice" => c.slice = Some(Duration::from_millis(number("--slice")?)),
                "--levels" => {
                    c.levels = value
                        .split(',')
                        .map(|l| l.parse::<Level>().map_err(|e| e.to_string()))
                        .collect::<Result<_, _>>()?;
                }
                _ => return Err(format!("unknown option '{flag}'\n{USAGE}")),
            }
        }
        c.game = game.ok_or_else(|| format!("--game is required\n{USAGE}"))?;
        let allowed = c.game.seat_counts();
        if !allowed.contains(&c.players) {
            let allowed: Vec<String> = allowed.iter().map(|n| n.to_string()).collect();
            return Err(format!(
                "{} is played by {} players, not {}",
                c.game,
                allowed.join(" or "),
                c.players
            ));
        }
        if c.games == 0 {
            return Err("--games must be at least 1".into());
        }
        Ok(c)
    }
}

/// The command line help.
pub const USAGE: &str = "usage: hotseat selfplay --game ovo|iota|omiga [--players N] [--games K] [--levels a,b,...] [--seed S] [--untimed] [--slice MS]
  levels: random, easy, medium, hard (default hard,random); seat i of game k plays levels[(i+k) % len]
  --slice MS: decide in slices of MS ms through Bot::think, as the browser does";

/// One finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The level of each seat.
    pub levels: Vec<Level>,
    /// How it ended (`Draw` also for a game cut off at the ply cap).
    pub outcome: Outcome,
    /// Cut off at the ply cap.
    pub cut_off: bool,
    /// Actions played.
    pub plies: usize,
    /// Every action line, in order (for the checksum).
    pub actions: Vec<String>,
    /// The position at the end.
    pub last_position: String,
}

/// Times of the decisions of one level.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DecisionTimes {
    /// How many decisions.
    pub count: u64,
    /// Their total.
    pub total: Duration,
    /// The longest.
    pub max: Duration,
    /// How many were cut short by the deadline.
    pub deadline_hits: u64,
    /// The processor time the deciding thread used (Linux; zero elsewhere): on a
    /// machine shared with other work the wall times above grow, this does not.
    pub cpu: Duration,
    /// Made in slices (`--slice`): how many `think` calls in all.
    pub slices: u64,
    /// The most `think` calls one decision took.
    pub most_slices: u64,
    /// How long each `think` call took (the longest is how long the browser's page
    /// would not answer). Wall times: the processor time of one call cannot be read
    /// precisely enough here (`schedstat` is updated at scheduler ticks), so a shared
    /// machine shows in the longest; the 99th percentile shows less of it.
    pub slice_times: Vec<Duration>,
}

impl DecisionTimes {
    /// The `q` quantile (0 to 1) of the slice times, and zero without any.
    pub fn slice_quantile(&self, q: f64) -> Duration {
        let mut sorted = self.slice_times.clone();
        sorted.sort();
        let at = ((sorted.len() as f64 - 1.0) * q.clamp(0.0, 1.0)).round() as usize;
        sorted.get(at).copied().unwrap_or_default()
    }
}

/// Processor time used so far by the calling thread, where the system tells it
/// (Linux's `/proc/thread-self/schedstat`, nanoseconds on a CPU); `None` elsewhere.
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Everything a run produced.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The games in order.
    pub games: Vec<GameRecord>,
    /// Decision times per level (indexed like [`Level::ALL`]).
    pub times: [DecisionTimes; 4],
    /// Wall time of the run.
    pub elapsed: Duration,
}

fn level_index(level: Level) -> usize {
    Level::ALL.iter().position(|&l| l == level).unwrap_or(0)
}

/// The parameters of game number `k`.
fn params_for(game: GameKind, players: usize, rng: &mut ChaCha8Rng) -> Params {
    let seed: u64 = rng.random();
    let first = rng.random_range(0..players);
    match game {
        GameKind::Ovo => Params::new().with("players", players).with("first", first),
        GameKind::Iota => Params::new()
            .with("players", players)
            .with("first", first)
            .with("seed", seed),
        GameKind::Omiga => Params::new().with("seed", seed),
    }
}

/// Checks the rules core's invariants after a step: the position reads back to the
/// same position, and the action's notation reads back to the action.
fn check_step<G: Game>(game: &G, action: &G::Action) -> Result<(), String> {
    let line = action.to_string();
    let back: G::Action = line
        .parse()
        .map_err(|e| format!("'{line}' does not read back: {e}"))?;
    if &back != action {
        return Err(format!("'{line}' reads back as a different action"));
    }
    if !game.outcome().is_over() {
        let pos = game.position();
        let again = G::from_position(&pos)
            .map_err(|e| format!("position '{pos}' does not read back: {e}"))?;
        if again.position() != pos {
            return Err(format!(
                "position '{pos}' reads back as '{}'",
                again.position()
            ));
        }
    }
    Ok(())
}

/// Plays one game between bots of `levels` (one per seat), at most `cap` actions
/// (`None`: the game's own cap); a game cut off counts as a draw. With `slice`, every
/// decision is made through `Bot::think` in slices that long.
pub fn play_one<G: Opponents>(
    params: &Params,
    levels: &[Level],
    rng: &mut ChaCha8Rng,
    untimed: bool,
    slice: Option<Duration>,
    times: &mut [DecisionTimes; 4],
    cap: Option<usize>,
) -> Result<GameRecord, String> {
    if levels.is_empty() {
        return Err("no levels given".into());
    }
    let mut game = G::new_game(params).map_err(|e| e.to_string())?;
    let seats = game.seats();
    let mut bots: Vec<_> = (0..seats)
        .map(|s| {
            let level = levels[s % levels.len()];
            G::bot(level, (!untimed).then(|| level.think_limit()))
        })
        .collect();
    let mut bot_rngs: Vec<ChaCha8Rng> = (0..seats)
        .map(|_| ChaCha8Rng::seed_from_u64(rng.random()))
        .collect();
    // Omiga's simulated clock: when each seat next lays a card, in milliseconds.
    let mut clock: Vec<u64> = (0..seats)
        .map(|s| think_ms(levels[s % levels.len()], rng))
        .collect();
    let cap = cap.unwrap_or(if G::NAME == "ovo" {
        OVO_MAX_PLIES
    } else {
        OTHER_MAX_PLIES
    });
    let mut actions = Vec::new();
    while !game.outcome().is_over() && actions.len() < cap {
        let acting = game.to_act();
        let seat: Seat = match acting.as_slice() {
            [] => return Err("the game is not over but nobody may act".into()),
            [one] => *one,
            many => *many
                .iter()
                .min_by_key(|&&s| (clock[s], s))
                .ok_or("nobody may act")?,
        };
        let level = levels[seat % levels.len()];
        let view = game.view(seat);
        let cpu_before = thread_cpu_time();
        let t = &mut times[level_index(level)];
        let started = Instant::now();
        let action = match slice {
            None => bots[seat].choose(&view, &mut bot_rngs[seat]),
            Some(slice) => {
                // One slice after another with nothing in between: the browser draws
                // frames there, so its decisions end later, in as many slices.
                let mut calls = 0u64;
                let action = loop {
                    let sliced = Instant::now();
                    let thought = bots[seat].think(&view, &mut bot_rngs[seat], slice);
                    t.slice_times.push(sliced.elapsed());
                    calls += 1;
                    if let Thought::Decided(action) = thought {
                        break action;
                    }
                };
                t.slices += calls;
                t.most_slices = t.most_slices.max(calls);
                action
            }
        };
        let took = started.elapsed();
        let cpu = thread_cpu_time()
            .zip(cpu_before)
            .map_or(Duration::ZERO, |(after, before)| {
                after.saturating_sub(before)
            });
        t.cpu += cpu;
        t.count += 1;
        t.total += took;
        t.max = t.max.max(took);
        t.deadline_hits += u64::from(bots[seat].hit_deadline());
        let action = action.ok_or_else(|| {
            format!(
                "the {level} bot of seat {seat} found nothing to play in {}",
                game.position()
            )
        })?;
        let legal = game.legal_actions(seat);
        if !legal.contains(&action) {
            return Err(format!(
                "the {level} bot of seat {seat} chose '{action}', not legal in {}",
                game.position()
            ));
        }
        // Any legal action applies (a few others are tried on copies).
        for other in legal.choose_multiple(rng, 2) {
            game.clone()
                .play(seat, other)
                .map_err(|e| format!("legal '{other}' refused in {}: {e}", game.position()))?;
        }
        let event = game
            .play(seat, &action)
            .map_err(|e| format!("'{action}' refused in {}: {e}", game.position()))?;
        for (s, bot) in bots.iter_mut().enumerate() {
            bot.observe(&Told::<G>::new(&event, s));
        }
        check_step(&game, &action)?;
        actions.push(action.to_string());
        clock[seat] += think_ms(level, rng);
    }
    let cut_off = !game.outcome().is_over();
    Ok(GameRecord {
        levels: (0..seats).map(|s| levels[s % levels.len()]).collect(),
        outcome: if cut_off {
            Outcome::Draw
        } else {
            game.outcome()
        },
        cut_off,
        plies: actions.len(),
        actions,
        last_position: game.position(),
    })
}

/// One Omiga think time for `level`, in simulated milliseconds.
fn think_ms(level: Level, rng: &mut ChaCha8Rng) -> u64 {
    let p = omiga_bot::pace(level);
    let (mean, spread) = (p.think.as_millis() as u64, p.spread.as_millis() as u64);
    mean - spread + rng.random_range(0..=2 * spread)
}

/// Plays the whole run.
pub fn run(config: &Config) -> Result<Report, String> {
    let mut rng = rng_from_seed(config.seed);
    let mut report = Report::default();
    let started = Instant::now();
    for k in 0..config.games {
        let levels: Vec<Level> = (0..config.players)
            .map(|i| config.levels[(i + k) % config.levels.len()])
            .collect();
        let params = params_for(config.game, config.players, &mut rng);
        let mut game_rng = ChaCha8Rng::seed_from_u64(rng.random());
        let t = &mut report.times;
        let (untimed, slice) = (config.untimed, config.slice);
        let record = match config.game {
            GameKind::Ovo => {
                play_one::<Ovo>(&params, &levels, &mut game_rng, untimed, slice, t, None)
            }
            GameKind::Iota => {
                play_one::<Iota>(&params, &levels, &mut game_rng, untimed, slice, t, None)
            }
            GameKind::Omiga => {
                play_one::<Omiga>(&params, &levels, &mut game_rng, untimed, slice, t, None)
            }
        }
        .map_err(|e| format!("game {k} ({params}): {e}"))?;
        report.games.push(record);
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

/// A checksum of every action of every game: equal runs print equal checksums.
pub fn checksum(report: &Report) -> u64 {
    let mut h = DefaultHasher::new();
    for g in &report.games {
        g.actions.hash(&mut h);
    }
    h.finish()
}

/// The printed result table.
pub fn table(config: &Config, report: &Report) -> String {
    let mut out = String::new();
    let n = report.games.len();
    let secs = report.elapsed.as_secs_f64().max(1e-9);
    let plies: usize = report.games.iter().map(|g| g.plies).sum();
    let levels: Vec<Level> = {
        let mut l = config.levels.clone();
        l.sort();
        l.dedup();
        l
    };
    let _ = writeln!(
        out,
        "{} selfplay: {} games, {} players, levels {}, seed {}{}",
        config.game,
        n,
        config.players,
        config
            .levels
            .iter()
            .map(|l| l.name())
            .collect::<Vec<_>>()
            .join(","),
        config.seed,
        if config.untimed { ", untimed" } else { "" }
    );
    if let Some(slice) = config.slice {
        let _ = writeln!(
            out,
            "decisions made in slices of {} ms (Bot::think)",
            slice.as_millis()
        );
    }
    let _ = writeln!(
        out,
        "games per second: {:.2} ({:.0} actions per second, {:.1} s)",
        n as f64 / secs,
        plies as f64 / secs,
        secs
    );
    let mut header = format!("{:<8}", "level");
    for s in 0..config.players {
        let _ = write!(header, " {:>9}", format!("seat {s}"));
    }
    let _ = write!(
        header,
        " {:>7} {:>7} {:>7} {:>7}",
        "wins", "shared", "played", "win %"
    );
    let _ = writeln!(out, "{header}");
    for &level in &levels {
        let mut per_seat = vec![0usize; config.players];
        let (mut wins, mut shared, mut played) = (0usize, 0usize, 0usize);
        for g in &report.games {
            let seats: Vec<Seat> = (0..g.levels.len())
                .filter(|&s| g.levels[s] == level)
                .collect();
            if seats.is_empty() {
                continue;
            }
            played += 1;
            match &g.outcome {
                Outcome::Win { seat } if g.levels.get(*seat) == Some(&level) => {
                    wins += 1;
                    per_seat[*seat] += 1;
                }
                Outcome::SharedWin { seats: w }
                    if w.iter().any(|s| g.levels.get(*s) == Some(&level)) =>
                {
                    shared += 1;
                }
                _ => {}
            }
        }
        let mut row = format!("{:<8}", level.name());
        for w in &per_seat {
            let _ = write!(row, " {w:>9}");
        }
        let pct = if played == 0 {
            0.0
        } else {
            100.0 * wins as f64 / played as f64
        };
        let _ = write!(row, " {wins:>7} {shared:>7} {played:>7} {pct:>6.1}%");
        let _ = writeln!(out, "{row}");
    }
    let draws = report
        .games
        .iter()
        .filter(|g| g.outcome == Outcome::Draw)
        .count();
    let cut = report.games.iter().filter(|g| g.cut_off).count();
    let _ = writeln!(
        out,
        "draws: {draws} (of which cut off at the ply cap: {cut}); average length: {:.1} actions",
        plies as f64 / n.max(1) as f64
    );
    for &level in &levels {
        let t = &report.times[level_index(level)];
        if t.count > 0 {
            let _ = writeln!(
                out,
                "decisions {:<7} {:>7}: mean {:>7.2} ms, max {:>7.1} ms, deadline hits {}, processor mean {:.2} ms",
                level.name(),
                t.count,
                t.total.as_secs_f64() * 1000.0 / t.count as f64,
                t.max.as_secs_f64() * 1000.0,
                t.deadline_hits,
                t.cpu.as_secs_f64() * 1000.0 / t.count as f64
            );
        }
    }
    if let Some(slice) = config.slice {
        for &level in &levels {
            let t = &report.times[level_index(level)];
            if t.count > 0 {
                let thinking = t.total.as_secs_f64().max(1e-9);
                let _ = writeln!(
                    out,
                    "slices of {} ms {:<7}: longest {:>6.2} ms, 99th percentile {:.2} ms, median {:.2} ms; per decision mean {:.1} max {}; {:.1} decisions per second of thinking",
                    slice.as_millis(),
                    level.name(),
                    t.slice_quantile(1.0).as_secs_f64() * 1000.0,
                    t.slice_quantile(0.99).as_secs_f64() * 1000.0,
                    t.slice_quantile(0.5).as_secs_f64() * 1000.0,
                    t.slices as f64 / t.count as f64,
                    t.most_slices,
                    t.count as f64 / thinking,
                );
            }
        }
    }
    if let Some(g) = report.games.iter().find(|g| g.cut_off) {
        let _ = writeln!(out, "a game cut off ended at: {}", g.last_position);
    }
    let _ = writeln!(out, "checksum: {:016x}", checksum(report));
    out
}

/// The `selfplay` subcommand (`selfplay matrix ...`: the strength matrix).
pub fn command(args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("matrix") {
        return matrix_command(&args[1..]);
    }
    let config = Config::parse(args)?;
    let report = run(&config)?;
    print!("{}", table(&config, &report));
    Ok(())
}
