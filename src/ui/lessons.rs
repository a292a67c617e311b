//! A lesson on screen (docs/lessons.md): the step's position on the game's own board,
//! played by the same taps as a game, each try judged by the lessons core.
//!
//! The board is the game's usual table (`OvoTable`, `IotaTable`, `OmigaTable`) around a
//! match set up from the step's position (`Match::lesson`): the learner's seat is open,
//! the other seats move only by the step's scripted replies. The table turns taps into an
//! action and plays it on that match, as in a game; after every change this bridge hands
//! the learner's action to `LessonRun`, which judges it on its own copy. A try that misses
//! puts the step's position back (the board as it was); a refused tap never reached the
//! match, and the table's own refusal stays in the message line beside the hint.
//!
//! The lesson rides on the table ([`LessonTable`]): it lives and ends with the board on
//! screen, so no other game can ever be taken for a lesson, and a lesson is never saved
//! as a game, recorded in the history or taken back.

use super::play::{GameScreen, Note, Table};
use super::staged::{staged_table, StagedGame, Staging};
use super::texts::{self, LessonText};
use super::{AppWindow, Controller, GameChrome, LessonBridge, Screen};
use crate::games::registry::GameKind;
use crate::games::{iota::Iota, omiga::Omiga, ovo::Ovo, RuleResult, Seat};
use crate::lessons::{Lesson, LessonRun, Verdict};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Rc;

/// A game the app teaches: its lesson (its table on screen is the staged one).
trait Taught: StagedGame {
    fn lesson() -> Lesson<Self>;
}

impl Taught for Ovo {
    fn lesson() -> Lesson<Self> {
        crate::lessons::ovo::lesson()
    }
}

impl Taught for Iota {
    fn lesson() -> Lesson<Self> {
        crate::lessons::iota::lesson()
    }
}

impl Taught for Omiga {
    fn lesson() -> Lesson<Self> {
        crate::lessons::omiga::lesson()
    }
}

/// What the screen asks of a lesson, whatever the game.
trait Running {
    fn kind(&self) -> GameKind;
    /// The current step's board, as it was before any try.
    fn fresh_table(&self, language: &str) -> RuleResult<Box<dyn Table>>;
    /// Judges the learner's action on `table`, if one was played since the step began,
    /// and plays the step's scripted replies on it after a pass.
    fn judge(&mut self, table: &mut dyn Table) -> Option<Verdict>;
    fn index(&self) -> usize;
    fn len(&self) -> usize;
    fn is_last(&self) -> bool;
    fn passed(&self) -> bool;
    /// The step's name, words, task and hint (English sources).
    fn texts(&self) -> StepTexts;
    fn next(&mut self) -> RuleResult<bool>;
}

/// A step's own words, in English as the lesson holds them.
struct StepTexts {
    name: &'static str,
    words: &'static str,
    task: &'static str,
    hint: &'static str,
}

struct Run<G: Taught> {
    run: LessonRun<G>,
}

impl<G: Taught> Running for Run<G> {
    fn kind(&self) -> GameKind {
        self.run.kind()
    }
    fn fresh_table(&self, language: &str) -> RuleResult<Box<dyn Table>> {
        let step = self.run.step();
        G::staged_table(step.position, step.seat, language)
    }
    fn judge(&mut self, table: &mut dyn Table) -> Option<Verdict> {
        if self.run.done().is_some() {
            return None;
        }
        let (screen, line) = G::played(table, self.run.step().seat)?;
        let verdict = self.run.try_line(&line);
        if verdict == Verdict::Passed {
            let replies: Vec<(Seat, G::Action)> = self
                .run
                .done()
                .map(|d| d.replies.iter().map(|(s, a, _)| (*s, a.clone())).collect())
                .unwrap_or_default();
            for (seat, action) in replies {
                // The core played these on its copy already; the board follows.
                if let Err(e) = screen.game_match_mut().act_scripted(seat, &action) {
                    crate::note!("a lesson's scripted reply was refused on the board: {e}");
                    break;
                }
            }
        }
        Some(verdict)
    }
    fn index(&self) -> usize {
        self.run.index()
    }
    fn len(&self) -> usize {
        self.run.len()
    }
    fn is_last(&self) -> bool {
        self.run.is_last()
    }
    fn passed(&self) -> bool {
        self.run.done().is_some()
    }
    fn texts(&self) -> StepTexts {
        let step = self.run.step();
        StepTexts {
            name: step.name,
            words: step.words,
            task: step.task,
            hint: step.hint,
        }
    }
    fn next(&mut self) -> RuleResult<bool> {
        self.run.next_step()
    }
}

fn start(kind: GameKind, at: usize) -> RuleResult<Box<dyn Running>> {
    fn boxed<G: Taught>(at: usize) -> RuleResult<Box<dyn Running>> {
        Ok(Box::new(Run {
            run: LessonRun::new(G::lesson(), at)?,
        }))
    }
    match kind {
        GameKind::Ovo => boxed::<Ovo>(at),
        GameKind::Iota => boxed::<Iota>(at),
        GameKind::Omiga => boxed::<Omiga>(at),
    }
}

/// How the last try went, as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shown {
    Nothing,
    Wrong(String),
    Passed(String),
}

/// The board of a lesson step with the lesson riding on it.
pub struct LessonTable {
    board: Box<dyn Table>,
    run: Box<dyn Running>,
    shown: Shown,
    /// What the board said of the last tap, until the lesson has judged it.
    told: Note,
}

impl LessonTable {
    /// The game taught.
    pub fn kind(&self) -> GameKind {
        self.run.kind()
    }

    /// The current step, from 0.
    pub fn index(&self) -> usize {
        self.run.index()
    }

    /// The current step's short name (docs/lessons.md lists the steps by it).
    pub fn step_name(&self) -> &'static str {
        self.run.texts().name
    }

    /// Whether the current step has been passed.
    pub fn passed(&self) -> bool {
        self.run.passed()
    }
}

/// A step's words in the window's language (ui/texts/lesson-steps.slint), English when
/// the translations do not know them.
fn step_text(app: &AppWindow, kind: GameKind, name: &str, field: &str, english: &str) -> String {
    let id = format!("{}-{name}-{field}", kind.name());
    let said = app
        .global::<super::LessonStepTexts>()
        .invoke_text(id.into());
    if said.is_empty() {
        english.to_string()
    } else {
        said.into()
    }
}

impl Staging for LessonTable {
    const LESSON: bool = true;
    fn board(&self) -> &dyn Table {
        self.board.as_ref()
    }
    fn board_mut(&mut self) -> &mut dyn Table {
        self.board.as_mut()
    }
    fn fill_panel(&self, app: &AppWindow, _language: &str) {
        let bridge = app.global::<LessonBridge>();
        let t = self.run.texts();
        let kind = self.run.kind();
        bridge.set_active(true);
        bridge.set_step(self.run.index() as i32 + 1);
        bridge.set_steps(self.run.len() as i32);
        bridge.set_words(step_text(app, kind, t.name, "words", t.words).into());
        bridge.set_task(step_text(app, kind, t.name, "task", t.task).into());
        bridge.set_last(self.run.is_last());
        let (kind, verdict) = match &self.shown {
            Shown::Nothing => (0, String::new()),
            Shown::Wrong(text) => (1, text.clone()),
            Shown::Passed(text) => (2, text.clone()),
        };
        bridge.set_verdict_kind(kind);
        bridge.set_verdict(verdict.into());
        let title = texts::in_window(
            app,
            &LessonText::Title {
                game: self.run.kind().title().into(),
            },
        );
        app.global::<GameChrome>().set_title(title.into());
    }
    fn keep_told(&mut self, note: &Note) {
        self.told = note.clone();
    }
}

staged_table!(LessonTable);
/// The lesson on the table, if the board on screen is a lesson's.
fn on_table(c: &mut Controller) -> Option<&mut LessonTable> {
    c.table
        .as_mut()
        .and_then(|t| t.wrapper_mut())
        .and_then(|any| any.downcast_mut::<LessonTable>())
}

/// Opens `kind`'s lesson at the step it was left at.
pub fn open(app: &AppWindow, c: &mut Controller, kind: GameKind) {
    let at = c.settings.lessons.get(kind.name()).copied().unwrap_or(0);
    let language = c.language();
    let made = start(kind, at).and_then(|run| {
        let board = run.fresh_table(language)?;
        Ok(LessonTable {
            board,
            run,
            shown: Shown::Nothing,
            told: None,
        })
    });
    let table = match made {
        Ok(table) => table,
        Err(e) => {
            crate::note!("the {} lesson could not start: {e}", kind.name());
            return;
        }
    };
    super::access::reset(app);
    super::chrome::show_message(app, "", false);
    c.replay = None;
    app.global::<GameChrome>().set_replaying(false);
    enter_step(app, c, table);
    app.set_screen(Screen::Game);
}

/// Puts `table` on screen at its step: remembers the step, says its words. (The
/// controller's `after_change` draws a lesson's board and panel: `after_change` below.)
fn enter_step(app: &AppWindow, c: &mut Controller, table: LessonTable) {
    remember(c, table.kind(), table.index());
    c.table = Some(Box::new(table));
    c.after_change(app);
    // The panel now shows the step: it is heard as shown.
    super::access::announce(app, &super::access::lesson_step(app));
}

/// Writes the step a lesson is at, so that it resumes there. A kiosk keeps it only for
/// the running app: it remembers nothing of one group for the next.
fn remember(c: &mut Controller, kind: GameKind, at: usize) {
    c.settings.lessons.insert(kind.name().to_string(), at);
    if c.kiosk.is_none() {
        c.save();
    }
}

/// After any change on a lesson's board: judge the learner's try, if there was one.
pub(crate) fn after_change(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(lesson) = on_table(c) else {
        return;
    };
    // The board's own words for the tap just made, if this change came from one.
    let told = lesson.told.take();
    let hint = {
        let t = lesson.run.texts();
        step_text(app, lesson.run.kind(), t.name, "hint", t.hint)
    };
    let said = match lesson.run.judge(lesson.board.as_mut()) {
        Some(Verdict::Passed) => {
            let text = if lesson.run.is_last() {
                texts::in_window(app, &LessonText::PassedLast)
            } else {
                texts::in_window(app, &LessonText::Passed)
            };
            lesson.shown = Shown::Passed(text.clone());
            // What the move did (the table's own words), then the verdict.
            Some(match told {
                Some((did, _)) if !did.is_empty() => format!("{did} {text}"),
                _ => text,
            })
        }
        Some(Verdict::Refused { reason, .. }) => {
            let text = texts::in_window(app, &LessonText::TryAgain { hint });
            super::chrome::show_message(app, &super::refusals::say(&reason, language), true);
            put_back(lesson, language);
            lesson.shown = Shown::Wrong(text.clone());
            Some(text)
        }
        Some(Verdict::NotTheGoal { .. }) => {
            let text = texts::in_window(app, &LessonText::NotTheTask { hint });
            super::chrome::show_message(app, "", false);
            put_back(lesson, language);
            lesson.shown = Shown::Wrong(text.clone());
            Some(text)
        }
        Some(Verdict::AlreadyPassed) => None,
        None if !lesson.run.passed() && matches!(&told, Some((why, true)) if !why.is_empty()) => {
            // The board refused the tap itself (its reason stays in the message line).
            let text = texts::in_window(app, &LessonText::TryAgain { hint });
            lesson.shown = Shown::Wrong(text.clone());
            Some(text)
        }
        None => None,
    };
    lesson.show(app, language);
    if let Some(said) = said {
        super::access::announce(app, &said);
    }
}

/// The board as it was before the try that missed.
fn put_back(lesson: &mut LessonTable, language: &str) {
    match lesson.run.fresh_table(language) {
        Ok(board) => lesson.board = board,
        Err(e) => crate::note!("a lesson step could not be set up again: {e}"),
    }
}

/// "Next step": the next step's board and words.
fn next(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(lesson) = on_table(c) else {
        return;
    };
    match lesson.run.next() {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => {
            crate::note!("the next lesson step could not be set up: {e}");
            return;
        }
    }
    put_back(lesson, language);
    lesson.shown = Shown::Nothing;
    let (kind, at) = (lesson.kind(), lesson.index());
    super::access::reset(app);
    super::chrome::show_message(app, "", false);
    // Drawn by `after_change`, as every change of a lesson's board is.
    remember(c, kind, at);
    c.after_change(app);
    super::access::announce(app, &super::access::lesson_step(app));
}

/// Wires the lesson panel and the "Learn to play" buttons.
pub fn wire(app: &AppWindow, controller: &Rc<RefCell<Controller>>) {
    let bridge = app.global::<LessonBridge>();
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        bridge.on_open(move |game| {
            let Some(app) = weak.upgrade() else { return };
            // The edge where a game's name comes in from the screens.
            let Ok(kind) = game.parse::<GameKind>() else {
                return;
            };
            open(&app, &mut controller.borrow_mut(), kind);
        });
    }
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        bridge.on_next(move || {
            let Some(app) = weak.upgrade() else { return };
            next(&app, &mut controller.borrow_mut());
        });
    }
    {
        let weak = app.as_weak();
        let controller = controller.clone();
        bridge.on_practice(move || {
            let Some(app) = weak.upgrade() else { return };
            if practice_setup(&app, &mut controller.borrow_mut()) {
                // Started through the usual Start, once the controller is free again.
                app.invoke_start_game();
            }
        });
    }
}

/// The setup of a practice game after the last step: the learner against the app at
/// easy, the rest as the game's setup screen would have it.
fn practice_setup(app: &AppWindow, c: &mut Controller) -> bool {
    let Some(kind) = on_table(c).map(|l| l.kind()) else {
        return false;
    };
    let language = c.language();
    let source = c.setup_source();
    c.setup = super::setup::SetupState::new(kind, &source, language);
    c.setup.set_count(2, &source, language);
    c.setup.set_kind(0, 0);
    // 1: the app at easy (setup's kinds: 0 a person, 1–3 the app at easy, medium, hard).
    c.setup.set_kind(1, 1);
    c.table = None;
    super::show_setup(app, c);
    true
}
