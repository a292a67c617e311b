//! Each game's lesson as data: a short sequence of steps, each a small position, a few
//! words on what to notice, one thing to do on the real board, and a goal the rules core
//! judges. No UI lives here; the screens (and the tests) drive a [`LessonRun`].
//!
//! How a try is judged (docs/lessons.md): the action is played on a copy of the step's
//! game through the same `Game::play` every match uses, so an illegal try gets the
//! engine's own refusal; a legal one passes when the step's goal holds for the action,
//! what it did and the state after it. Any action that meets the goal passes, not one
//! fixed answer. A failed try leaves the board exactly as it was.

pub mod iota;
pub mod omiga;
pub mod ovo;
#[cfg(test)]
mod tests;

use crate::games::registry::GameKind;
use crate::games::{Game, RuleError, Seat};

/// Whether a legal action met a step's goal, judged from the action, the event as the
/// learner's seat learns it, and the whole state after it.
pub type Goal<G> = fn(&<G as Game>::Action, &<G as Game>::Event, &G) -> bool;

/// One step of a lesson.
pub struct Step<G: Game> {
    /// A short stable name (docs/lessons.md lists the steps by it).
    pub name: &'static str,
    /// The position, in the `setup` format of docs/rules.md §5.
    pub position: &'static str,
    /// The seat the learner plays (it must be able to act in the position).
    pub seat: Seat,
    /// What to notice, one or two sentences (English source; the UI translates).
    pub words: &'static str,
    /// The one thing to do on the board (English source).
    pub task: &'static str,
    /// Said after a try that failed, beside the engine's reason if it refused.
    pub hint: &'static str,
    /// What a try must achieve, once the engine has accepted it.
    pub goal: Goal<G>,
    /// Scripted actions of other seats, played in order after a try that passed (in
    /// notation), so that a step can show the table answering.
    pub replies: &'static [(Seat, &'static str)],
}

/// A game's lesson: its steps in order.
pub struct Lesson<G: Game> {
    /// Which game it teaches.
    pub kind: GameKind,
    /// The steps, first to last.
    pub steps: Vec<Step<G>>,
}

/// The judgement of one try.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The engine accepted it and it met the goal: the board shows what it did.
    Passed,
    /// The engine refused it (or it was not an action at all): its reason, and the hint.
    Refused {
        /// The engine's reason, which the UI says in words (`ui::refusals`).
        reason: RuleError,
        /// The step's hint.
        hint: &'static str,
    },
    /// Legal, but not what the step asks: the hint.
    NotTheGoal {
        /// The step's hint.
        hint: &'static str,
    },
    /// The step was already passed; nothing more is judged until the next step.
    AlreadyPassed,
}

/// What the passing try and the scripted replies did, for the board to show.
#[derive(Debug, Clone)]
pub struct Done<G: Game> {
    /// The learner's action.
    pub action: G::Action,
    /// What it did, as the learner's seat learns it (a peek's symbol included).
    pub event: G::Event,
    /// Each scripted reply and what it did, as the learner's seat learns it.
    pub replies: Vec<(Seat, G::Action, G::Event)>,
}

/// A lesson being played: the current step's game, and what its passing try did.
pub struct LessonRun<G: Game> {
    lesson: Lesson<G>,
    at: usize,
    game: G,
    done: Option<Done<G>>,
}

impl<G: Game> LessonRun<G> {
    /// Starts `lesson` at step `at` (a saved step past the end starts at the first, so a
    /// stale progress record never strands the learner).
    pub fn new(lesson: Lesson<G>, at: usize) -> Result<Self, RuleError> {
        let at = if at < lesson.steps.len() { at } else { 0 };
        let step = lesson
            .steps
            .get(at)
            .ok_or_else(|| RuleError::new("the lesson has no steps"))?;
        let game = G::from_position(step.position)?;
        Ok(LessonRun {
            lesson,
            at,
            game,
            done: None,
        })
    }

    /// The current step's index, from 0.
    pub fn index(&self) -> usize {
        self.at
    }

    /// How many steps the lesson has.
    pub fn len(&self) -> usize {
        self.lesson.steps.len()
    }

    /// Always false: a run exists only for a lesson with steps (`new` refuses others).
    pub fn is_empty(&self) -> bool {
        self.lesson.steps.is_empty()
    }

    /// True on the last step.
    pub fn is_last(&self) -> bool {
        self.at + 1 == self.lesson.steps.len()
    }

    /// The game the lesson teaches.
    pub fn kind(&self) -> GameKind {
        self.lesson.kind
    }

    /// The current step.
    pub fn step(&self) -> &Step<G> {
        // `at` is kept inside the steps by `new` and `next_step`.
        &self.lesson.steps[self.at]
    }

    /// What the passing try did, once the step is passed.
    pub fn done(&self) -> Option<&Done<G>> {
        self.done.as_ref()
    }

    /// The board as the learner's seat sees it.
    pub fn view(&self) -> G::View {
        self.game.view(self.step().seat)
    }

    /// The learner's legal actions now (none once the step is passed).
    pub fn legal_actions(&self) -> Vec<G::Action> {
        if self.done.is_some() {
            return Vec::new();
        }
        self.game.legal_actions(self.step().seat)
    }

    /// Judges a try written in the game's notation.
    pub fn try_line(&mut self, line: &str) -> Verdict {
        match line.trim().parse::<G::Action>() {
            Ok(action) => self.try_action(&action),
            Err(reason) => Verdict::Refused {
                reason,
                hint: self.step().hint,
            },
        }
    }

    /// Judges a try: played on a copy, kept only when it passes.
    pub fn try_action(&mut self, action: &G::Action) -> Verdict {
        if self.done.is_some() {
            return Verdict::AlreadyPassed;
        }
        let step = &self.lesson.steps[self.at];
        let mut after = self.game.clone();
        let event = match after.play(step.seat, action) {
            Ok(event) => G::event_for(&event, step.seat),
            Err(reason) => {
                return Verdict::Refused {
                    reason,
                    hint: step.hint,
                }
            }
        };
        if !(step.goal)(action, &event, &after) {
            return Verdict::NotTheGoal { hint: step.hint };
        }
        let replies = play_replies(&mut after, step.replies, step.seat);
        self.game = after;
        self.done = Some(Done {
            action: action.clone(),
            event,
            replies,
        });
        Verdict::Passed
    }

    /// Moves to the next step once this one is passed; false on the last step or before
    /// the step is passed.
    pub fn next_step(&mut self) -> Result<bool, RuleError> {
        if self.done.is_none() || self.is_last() {
            return Ok(false);
        }
        self.go_to(self.at + 1)?;
        Ok(true)
    }

    /// Sets the step `at` up afresh (its first try again).
    pub fn go_to(&mut self, at: usize) -> Result<(), RuleError> {
        let step = self
            .lesson
            .steps
            .get(at)
            .ok_or_else(|| RuleError::new(format!("the lesson has no step {}", at + 1)))?;
        self.game = G::from_position(step.position)?;
        self.at = at;
        self.done = None;
        Ok(())
    }

    /// The whole game of the step (every secret included): for the tests only.
    #[cfg(test)]
    pub(crate) fn game(&self) -> &G {
        &self.game
    }
}

/// Plays the scripted replies in order. The tests prove each is legal after every
/// action that meets its step's goal; should one still be refused (a lesson edited
/// without running them), the rest are skipped rather than shown out of order.
fn play_replies<G: Game>(
    game: &mut G,
    replies: &[(Seat, &str)],
    learner: Seat,
) -> Vec<(Seat, G::Action, G::Event)> {
    let mut played = Vec::new();
    for (seat, line) in replies {
        let Ok(action) = line.parse::<G::Action>() else {
            break;
        };
        match game.play(*seat, &action) {
            Ok(event) => played.push((*seat, action, G::event_for(&event, learner))),
            Err(_) => break,
        }
    }
    played
}
