//! The puzzle of the day on screen (docs/puzzles.md): the puzzles screen (today's three,
//! each game's last 30 days) and a puzzle played on the game's own board.
//!
//! As a lesson's step does (src/ui/lessons.rs), a puzzle rides on the game's usual table
//! around a match staged from its position (`Match::lesson`): the solver's seat is open,
//! the other seats never move. The table turns taps into an action and plays it on that
//! match, as in a game; after every change this bridge hands the solver's action to
//! `PuzzleRun`, which judges it on its own copy. A try that misses puts the position back;
//! a solve leaves the winning move on the board; giving up shows the proven answer in
//! words and plays it on the board. Each judged try is written to the `PuzzleBook`
//! (`puzzles.json`), except in a kiosk, whose book lives in memory only. Omiga's optional
//! clock is in `clock.rs`; the answer's cells marked on the board and the share text
//! drawn for the screen in `marks.rs`.

mod clock;
mod marks;
#[cfg(feature = "devtools")]
mod pictures;
pub use clock::{Clock, LIMIT as CLOCK_SECONDS};
pub use marks::{answer_cells, share_lines, AnswerCells};
#[cfg(feature = "devtools")]
pub use pictures::stage;

use super::play::{GameScreen, Note, Table};
use super::staged::{staged_table, StagedGame, Staging};
use super::texts::{self, OmigaText, PuzzleText};
use super::{AppWindow, Controller, GameChrome, PuzzleBridge, PuzzleDay, PuzzleRow, Screen};
use crate::games::registry::GameKind;
use crate::games::{iota::Iota, omiga::Omiga, ovo::Ovo, RuleResult};
use crate::puzzles::{Day, Goal, Puzzle, PuzzleRun, Verdict};
use crate::store::puzzle_share::{share_text, Plural, ShareWords};
use crate::store::puzzles::{DayResult, PuzzleBook};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::RefCell;
use std::rc::Rc;

/// What the screen asks of a puzzle being played, whatever the game.
trait Solving {
    fn puzzle(&self) -> &Puzzle;
    /// The puzzle's board, as it was before any try.
    fn fresh_table(&self, language: &str) -> RuleResult<Box<dyn Table>>;
    /// Judges the solver's action on `table`, if one was played since the board was set.
    fn judge(&mut self, table: &mut dyn Table) -> Option<Verdict>;
    /// Gives up: the proven answers.
    fn give_up(&mut self) -> Vec<String>;
    /// The clock ran out: a try that missed.
    fn time_up(&mut self) -> Verdict;
    /// Plays `line` for the solver on `table`, as the board's taps would (the answer
    /// shown after giving up; the pictures' tries).
    fn play(&self, table: &mut dyn Table, line: &str);
    /// A legal try that misses the goal, the shortest in the notation (the pictures').
    #[cfg(feature = "devtools")]
    fn a_wrong_try(&self) -> Option<String>;
    fn tries(&self) -> u32;
    fn finished(&self) -> bool;
}

struct Run<G: StagedGame> {
    run: PuzzleRun<G>,
}

impl<G: StagedGame> Solving for Run<G> {
    fn puzzle(&self) -> &Puzzle {
        self.run.puzzle()
    }
    fn fresh_table(&self, language: &str) -> RuleResult<Box<dyn Table>> {
        let p = self.run.puzzle();
        G::staged_table(&p.position, p.seat, language)
    }
    fn judge(&mut self, table: &mut dyn Table) -> Option<Verdict> {
        if self.run.finished() {
            return None;
        }
        let (_, line) = G::played(table, self.run.puzzle().seat)?;
        Some(self.run.try_line(&line))
    }
    fn give_up(&mut self) -> Vec<String> {
        self.run.give_up().to_vec()
    }
    fn time_up(&mut self) -> Verdict {
        self.run.time_up()
    }
    fn play(&self, table: &mut dyn Table, line: &str) {
        let seat = self.run.puzzle().seat;
        let Ok(action) = line.parse::<G::Action>() else {
            return;
        };
        if let Some(screen) = table.as_any_mut().downcast_mut::<G::Screen>() {
            if let Err(e) = screen.game_match_mut().act(seat, &action) {
                crate::note!("a puzzle's move was refused on the board: {e}");
            }
        }
    }
    #[cfg(feature = "devtools")]
    fn a_wrong_try(&self) -> Option<String> {
        let p = self.run.puzzle();
        // IOTA's best-scoring miss (the picture reads "14 of 16"), else the shortest.
        self.run
            .legal_actions()
            .into_iter()
            .filter_map(|a| {
                let mut run = PuzzleRun::<G>::new(p.clone()).ok()?;
                match run.try_action(&a) {
                    Verdict::Scored { score, .. } => Some((score, a.to_string())),
                    Verdict::DoesNotWin => Some((0, a.to_string())),
                    _ => None,
                }
            })
            .min_by_key(|(score, line)| (std::cmp::Reverse(*score), line.len()))
            .map(|(_, line)| line)
    }
    fn tries(&self) -> u32 {
        self.run.tries()
    }
    fn finished(&self) -> bool {
        self.run.finished()
    }
}

fn start(puzzle: Puzzle) -> RuleResult<Box<dyn Solving>> {
    fn boxed<G: StagedGame>(puzzle: Puzzle) -> RuleResult<Box<dyn Solving>> {
        Ok(Box::new(Run {
            run: PuzzleRun::<G>::new(puzzle)?,
        }))
    }
    match puzzle.kind {
        GameKind::Ovo => boxed::<Ovo>(puzzle),
        GameKind::Iota => boxed::<Iota>(puzzle),
        GameKind::Omiga => boxed::<Omiga>(puzzle),
    }
}

/// How the last try went, as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shown {
    Nothing,
    Wrong(String),
    Solved(String),
    Answer(String),
}

/// The board of a puzzle with the puzzle riding on it.
pub struct PuzzleTable {
    board: Box<dyn Table>,
    run: Box<dyn Solving>,
    shown: Shown,
    /// What the board said of the last tap, until the puzzle has judged it.
    told: Note,
    /// The text to share, once asked for.
    share: String,
    /// Omiga's clock, when the player wants it.
    clock: Option<Clock>,
    /// The answer played on the board after giving up, its cells marked there.
    answer: Option<String>,
}

impl PuzzleTable {
    /// The puzzle played.
    pub fn puzzle(&self) -> &Puzzle {
        self.run.puzzle()
    }
}

impl Staging for PuzzleTable {
    const LESSON: bool = false;
    fn board(&self) -> &dyn Table {
        self.board.as_ref()
    }
    fn board_mut(&mut self) -> &mut dyn Table {
        self.board.as_mut()
    }
    fn fill_panel(&self, app: &AppWindow, language: &str) {
        let bridge = app.global::<PuzzleBridge>();
        let p = self.run.puzzle();
        bridge.set_active(true);
        bridge.set_goal(goal(p, language).into());
        bridge.set_level(level(p.day, language).into());
        let tries = self.run.tries();
        bridge.set_tries(if tries == 0 {
            "".into()
        } else {
            texts::say(&PuzzleText::Tries { n: tries }, language).into()
        });
        let (kind, verdict, answer) = match &self.shown {
            Shown::Nothing => (0, String::new(), String::new()),
            Shown::Wrong(t) => (1, t.clone(), String::new()),
            Shown::Solved(t) => (2, t.clone(), String::new()),
            Shown::Answer(a) => (3, texts::say(&PuzzleText::AnswerShown, language), a.clone()),
        };
        bridge.set_verdict_kind(kind);
        bridge.set_verdict(verdict.into());
        bridge.set_answer(answer.into());
        bridge.set_share_text(self.share.clone().into());
        let (head, marks, tail) = share_lines(&self.share);
        bridge.set_share_head(head.into());
        bridge.set_share_marks(ModelRc::new(VecModel::from(marks)));
        bridge.set_share_tail(tail.into());
        clock::fill(app, self.clock.as_ref(), self.run.finished(), language);
        if let Some(line) = &self.answer {
            marks::mark_answer(app, p.kind, line, language);
        }
        let title = texts::say(
            &PuzzleText::Title {
                game: p.kind.title().into(),
            },
            language,
        );
        app.global::<GameChrome>().set_title(title.into());
    }
    fn keep_told(&mut self, note: &Note) {
        self.told = note.clone();
    }
}

staged_table!(PuzzleTable);
/// The puzzle on the table, if the board on screen is a puzzle's.
fn on_table(c: &mut Controller) -> Option<&mut PuzzleTable> {
    c.table
        .as_mut()
        .and_then(|t| t.wrapper_mut())
        .and_then(|any| any.downcast_mut::<PuzzleTable>())
}

impl Controller {
    /// Pins the day the puzzles are made for (tests and pictures; otherwise today by the
    /// clock).
    pub fn set_puzzle_day(&mut self, day: Day) {
        self.puzzle_day = Some(day);
    }

    /// The day whose puzzles are "today's": the pinned one, or today's date (UTC, so
    /// that everyone has the same puzzle at the same moment).
    pub fn puzzle_today(&self) -> Day {
        self.puzzle_day
            .unwrap_or_else(|| Day((crate::platform::time::unix_seconds() / 86_400) as i64))
    }

    /// The puzzles' results: read once from the data folder (a kiosk starts empty and
    /// keeps its book in memory).
    pub fn puzzle_book(&mut self) -> &mut PuzzleBook {
        if self.puzzle_book.is_none() {
            let dir = self.data_dir.as_deref().filter(|_| self.kiosk.is_none());
            self.puzzle_book = Some(super::load_or_default(dir, PuzzleBook::load));
        }
        self.puzzle_book.get_or_insert_with(PuzzleBook::default)
    }

    /// Writes the book, except in a kiosk (nothing is written there).
    fn save_puzzles(&mut self) {
        let today = self.puzzle_today();
        let dir = self.data_dir.clone().filter(|_| self.kiosk.is_none());
        if let Err(e) = self.puzzle_book().save(dir.as_deref(), today) {
            crate::note!("the puzzles' results could not be written: {e}");
        }
    }

    /// `kind`'s puzzle of `day`, made once per run.
    fn puzzle(&mut self, kind: GameKind, day: Day) -> Option<Puzzle> {
        if let Some(p) = self
            .puzzles_made
            .iter()
            .find(|p| p.kind == kind && p.day == day)
        {
            return Some(p.clone());
        }
        match crate::puzzles::daily(kind, day) {
            Ok(p) => {
                self.puzzles_made.push(p.clone());
                Some(p)
            }
            Err(e) => {
                crate::note!("{e}");
                None
            }
        }
    }
}

/// What the puzzle asks, in words.
fn goal(p: &Puzzle, language: &str) -> String {
    let text = match (p.kind, &p.goal) {
        (_, Goal::BestScore { best }) => PuzzleText::GoalBest { best: *best },
        (GameKind::Ovo, _) => PuzzleText::GoalOvo {
            eggs: p.known.join(", "),
        },
        _ => PuzzleText::GoalOmiga,
    };
    texts::say(&text, language)
}

/// "Level 3 of 7 · Wednesday".
fn level(day: Day, language: &str) -> String {
    texts::say(
        &PuzzleText::Level {
            n: day.level(),
            weekday: weekday(day, language),
        },
        language,
    )
}

fn weekday(day: Day, language: &str) -> String {
    use PuzzleText::*;
    let names = [
        Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday,
    ];
    let at = usize::from(day.level().clamp(1, 7) - 1);
    texts::say(&names[at], language)
}

/// One answer in words: Ovo's path, IOTA's cards and cells, Omiga's card and cell.
fn answer_words(kind: GameKind, line: &str, language: &str) -> String {
    match kind {
        GameKind::Ovo => {
            let (path, declare) = match line.strip_suffix(" ovo") {
                Some(path) => (path, true),
                None => (line, false),
            };
            let cells: Vec<&str> = path.split(['-', 'x']).collect();
            let mut words = cells.join(" → ");
            if declare {
                words.push_str(", «Ovo!»");
            }
            words
        }
        GameKind::Iota => match line.parse::<crate::games::iota::Action>() {
            Ok(crate::games::iota::Action::Place(cards)) => cards
                .iter()
                .map(|(card, cell)| {
                    texts::say(
                        &PuzzleText::OnCell {
                            what: super::iota::card_words(*card, language),
                            cell: super::iota::cell_words(*cell, language),
                        },
                        language,
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
            _ => line.to_string(),
        },
        GameKind::Omiga => match line.parse::<crate::games::omiga::Action>() {
            Ok(crate::games::omiga::Action::Place {
                card,
                rotated,
                x,
                y,
            }) => {
                let mut what = super::omiga_models::card_parts(card, language);
                if rotated {
                    what = texts::say(&OmigaText::Turned { label: what }, language);
                }
                texts::say(
                    &PuzzleText::OnCell {
                        what,
                        cell: format!("x {x}, y {y}"),
                    },
                    language,
                )
            }
            _ => line.to_string(),
        },
    }
}

/// The proven answers in words: the first three, joined by "or".
fn answers_words(kind: GameKind, answers: &[String], language: &str) -> String {
    let or = format!(" {} ", texts::say(&PuzzleText::Or, language));
    let words: Vec<String> = answers
        .iter()
        .take(3)
        .map(|a| answer_words(kind, a, language))
        .collect();
    texts::say(
        &PuzzleText::Answer {
            answer: words.join(&or),
        },
        language,
    )
}

/// The share text's words in `language`, from the translations.
fn share_words(language: &str) -> ShareWords {
    let mut words = ShareWords::english();
    if language == "en" {
        return words;
    }
    let hole = || "{}".to_string();
    words.points = texts::say(
        &PuzzleText::SharePoints {
            score: hole(),
            best: hole(),
            tries: hole(),
        },
        language,
    );
    words.solved = texts::say(&PuzzleText::ShareSolved { tries: hole() }, language);
    words.gave_up = texts::say(&PuzzleText::ShareGaveUp { tries: hole() }, language);
    words.open = texts::say(&PuzzleText::ShareOpen { tries: hole() }, language);
    words.streak = texts::say(&PuzzleText::ShareStreak { days: hole() }, language);
    words.clock = texts::say(&PuzzleText::ShareClock { seconds: hole() }, language);
    // The forms of "try" after 1, 2 and 5, with the number taken off.
    let form = |n: u32| {
        let said = texts::say(&PuzzleText::Tries { n }, language);
        said.trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string()
    };
    words.tries = [form(1), form(2), form(5)];
    words.plural = if language == "ru" {
        Plural::Russian
    } else {
        Plural::English
    };
    words.day_first = language == "ru";
    words
}

/// A day's result in words, for the puzzles screen and the archive.
fn status(result: Option<&DayResult>, language: &str) -> String {
    let Some(r) = result.filter(|r| r.tries > 0 || r.gave_up) else {
        return texts::say(&PuzzleText::NotTried, language);
    };
    let tries = texts::say(&PuzzleText::Tries { n: r.tries }, language);
    let text = match (r.score, r.best) {
        (Some(score), Some(best)) if !r.solved => PuzzleText::SharePoints {
            score: score.to_string(),
            best: best.to_string(),
            tries,
        },
        _ if r.solved => PuzzleText::ShareSolved { tries },
        _ if r.gave_up => PuzzleText::ShareGaveUp { tries },
        _ => PuzzleText::ShareOpen { tries },
    };
    let said = texts::say(&text, language);
    // Sentence case on the screen (the share text keeps its lower case mid-line).
    let mut chars = said.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => said,
    }
}

/// Fills the puzzles screen: today's three with their results and streaks.
pub fn show_list(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let today = c.puzzle_today();
    let mut rows = Vec::new();
    for kind in GameKind::ALL {
        let Some(p) = c.puzzle(kind, today) else {
            continue;
        };
        let book = c.puzzle_book();
        let result = book.get(kind, today).cloned();
        let streak = book.streak(kind, today);
        rows.push(PuzzleRow {
            game: kind.name().into(),
            title: kind.title().into(),
            goal: goal(&p, language).into(),
            level: level(today, language).into(),
            status: status(result.as_ref(), language).into(),
            streak: if streak > 0 {
                texts::say(&PuzzleText::Streak { n: streak }, language).into()
            } else {
                "".into()
            },
            solved: result.is_some_and(|r| r.solved),
        });
    }
    // In place: rows made again would take recycled accessibility ids.
    super::rows::update_rows(app.global::<PuzzleBridge>().get_today(), rows, |m| {
        app.global::<PuzzleBridge>().set_today(m)
    });
    app.global::<PuzzleBridge>()
        .set_clock_on(c.settings.puzzle_clock);
}

/// Shows `kind`'s last 30 days on the puzzles screen ("": today's three again).
pub fn show_archive(app: &AppWindow, c: &mut Controller, game: &str) {
    let bridge = app.global::<PuzzleBridge>();
    let Ok(kind) = game.parse::<GameKind>() else {
        bridge.set_archive_game("".into());
        show_list(app, c);
        return;
    };
    let language = c.language();
    let today = c.puzzle_today();
    let days: Vec<PuzzleDay> = c
        .puzzle_book()
        .archive(kind, today)
        .into_iter()
        .map(|(day, result)| PuzzleDay {
            day: day.0 as i32,
            date: format!("{day} · {}", weekday(day, language)).into(),
            status: status(result, language).into(),
            solved: result.is_some_and(|r| r.solved),
        })
        .collect();
    bridge.set_archive(ModelRc::new(VecModel::from(days)));
    bridge.set_archive_game(kind.name().into());
}

/// Opens `kind`'s puzzle of `day` on its board.
pub fn open(app: &AppWindow, c: &mut Controller, kind: GameKind, day: Day) {
    let language = c.language();
    let Some(puzzle) = c.puzzle(kind, day) else {
        return;
    };
    let clock = Clock::wanted(c, kind, day);
    let made = start(puzzle).and_then(|run| {
        let board = run.fresh_table(language)?;
        Ok(PuzzleTable {
            board,
            run,
            shown: Shown::Nothing,
            told: None,
            share: String::new(),
            clock,
            answer: None,
        })
    });
    let table = match made {
        Ok(table) => table,
        Err(e) => {
            crate::note!("the {} puzzle could not start: {e}", kind.name());
            return;
        }
    };
    super::access::reset(app);
    super::chrome::show_message(app, "", false);
    c.replay = None;
    app.global::<GameChrome>().set_replaying(false);
    let said = goal(table.puzzle(), language);
    c.table = Some(Box::new(table));
    c.after_change(app);
    app.set_screen(Screen::Game);
    // The goal is heard as the puzzle opens.
    super::access::announce(app, &said);
}

/// After any change on a puzzle's board: judge the solver's try, if there was one, keep
/// the result, and draw the panel.
pub(crate) fn after_change(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(table) = on_table(c) else {
        return;
    };
    let told = table.told.take();
    let verdict = table.run.judge(table.board.as_mut());
    let mut seconds = None;
    let said = match &verdict {
        Some(Verdict::Solved { score }) => {
            let on_clock = table.clock.as_mut().filter(|k| k.running).map(Clock::stop);
            seconds = on_clock;
            let text = match (score, on_clock) {
                (Some(score), _) => PuzzleText::SolvedBest { score: *score },
                (None, Some(n)) => PuzzleText::ClockTaken { n },
                (None, None) => PuzzleText::Solved,
            };
            let text = texts::say(&text, language);
            table.shown = Shown::Solved(text.clone());
            Some(match told {
                Some((did, _)) if !did.is_empty() => format!("{did} {text}"),
                _ => text,
            })
        }
        Some(Verdict::Scored { score, best }) => Some(missed(
            app,
            table,
            PuzzleText::Scored {
                score: *score,
                best: *best,
            },
            language,
        )),
        Some(Verdict::DoesNotWin) => Some(missed(app, table, PuzzleText::DoesNotWin, language)),
        Some(Verdict::Refused(reason)) => {
            let reason = super::refusals::say(reason, language);
            super::chrome::show_message(app, &reason, true);
            Some(missed(app, table, PuzzleText::Refused { reason }, language))
        }
        Some(Verdict::Finished) => None,
        None if !table.run.finished() && matches!(&told, Some((why, true)) if !why.is_empty()) => {
            // The board refused the tap itself (its reason stays in the message line).
            let reason = told.map(|(why, _)| why).unwrap_or_default();
            let text = texts::say(&PuzzleText::Refused { reason }, language);
            table.shown = Shown::Wrong(text.clone());
            Some(text)
        }
        None => None,
    };
    let puzzle = table.run.puzzle().clone();
    table.show(app, language);
    if let Some(v) = &verdict {
        c.puzzle_book().note_try(&puzzle, v);
        if let Some(seconds) = seconds {
            c.puzzle_book().note_seconds(&puzzle, seconds);
        }
        c.save_puzzles();
    }
    if let Some(said) = said {
        super::access::announce(app, &said);
    }
}

/// A try that counted but missed: the verdict shown, the board put back.
fn missed(app: &AppWindow, table: &mut PuzzleTable, text: PuzzleText, language: &str) -> String {
    // A try that counted has used its minute (a refused one has not).
    if let (Some(k), false) = (
        table.clock.as_mut(),
        matches!(text, PuzzleText::Refused { .. }),
    ) {
        k.next_try();
    }
    let text = texts::say(&text, language);
    if !app.global::<GameChrome>().get_message_is_warning() {
        super::chrome::show_message(app, "", false);
    }
    put_back(table, language);
    table.shown = Shown::Wrong(text.clone());
    text
}

/// The board as it was before the try that missed.
fn put_back(table: &mut PuzzleTable, language: &str) {
    match table.run.fresh_table(language) {
        Ok(board) => table.board = board,
        Err(e) => crate::note!("a puzzle could not be set up again: {e}"),
    }
}

/// "Give up": the answer in words and on the board; the day is settled.
fn give_up(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(table) = on_table(c) else {
        return;
    };
    if table.run.finished() {
        return;
    }
    let answers = table.run.give_up();
    let kind = table.run.puzzle().kind;
    let words = answers_words(kind, &answers, language);
    put_back(table, language);
    if let Some(first) = answers.first() {
        table.run.play(table.board.as_mut(), first);
    }
    // The answer's cells are marked on the board (and in their labels) from now on.
    table.answer = answers.first().cloned();
    if let Some(k) = table.clock.as_mut() {
        k.stop();
    }
    table.shown = Shown::Answer(words.clone());
    let puzzle = table.run.puzzle().clone();
    super::chrome::show_message(app, "", false);
    c.puzzle_book().note_gave_up(&puzzle);
    c.save_puzzles();
    c.after_change(app);
    super::access::announce(app, &words);
}

/// "Share": the result as text, shown selectable (the panel copies it too).
fn share(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(puzzle) = on_table(c).map(|t| t.run.puzzle().clone()) else {
        return;
    };
    let today = c.puzzle_today();
    let book = c.puzzle_book();
    let result = book
        .get(puzzle.kind, puzzle.day)
        .cloned()
        .unwrap_or_default();
    let streak = book.streak(puzzle.kind, today);
    let text = share_text(
        puzzle.kind,
        puzzle.day,
        &result,
        streak,
        &share_words(language),
    );
    if let Some(table) = on_table(c) {
        table.share = text;
        table.show(app, language);
    }
}

/// Leaving a puzzle's board goes back to the puzzles screen, its results up to date.
pub(crate) fn back_to_list(app: &AppWindow, c: &mut Controller) {
    app.global::<PuzzleBridge>().set_active(false);
    let game = app.global::<PuzzleBridge>().get_archive_game();
    show_archive(app, c, &game);
    app.set_screen(Screen::Puzzles);
}

/// Wires "Puzzle of the day", the puzzles screen and the panel's buttons.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let bridge = app.global::<PuzzleBridge>();
    let with = |f| super::on_tap(app, controller, f);
    bridge.on_show(with(|app, c| {
        app.global::<PuzzleBridge>().set_archive_game("".into());
        show_list(app, c);
        app.set_screen(Screen::Puzzles);
    }));
    bridge.on_give_up(with(give_up));
    bridge.on_share(with(share));
    bridge.on_clock_tick(with(clock::tick));
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        bridge.on_set_clock(move |on| {
            let Some(app) = weak.upgrade() else { return };
            clock::set_wanted(&app, &mut controller.borrow_mut(), on);
        });
    }
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        bridge.on_show_archive(move |game| {
            let Some(app) = weak.upgrade() else { return };
            show_archive(&app, &mut controller.borrow_mut(), &game);
        });
    }
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        bridge.on_open(move |game, day| {
            let Some(app) = weak.upgrade() else { return };
            // The edge where a game's name comes in from the screens.
            let Ok(kind) = game.parse::<GameKind>() else {
                return;
            };
            let mut c = controller.borrow_mut();
            let day = if day < 0 {
                c.puzzle_today()
            } else {
                Day(i64::from(day))
            };
            open(&app, &mut c, kind, day);
        });
    }
}
