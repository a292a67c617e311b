//! One decision, made in slices wherever the platform runs background work (a worker
//! thread on the desktop and Android, turns of the event loop in the browser:
//! `platform::work`). A bot that panics is a bug, but it must not take the match with it:
//! the answer is then `None` and the table plays on with a fresh bot.

use super::Bot;
use crate::games::Game;
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A finished decision: the bot back (with its memory) and its choice.
pub type Answer<G> = (Box<dyn Bot<G>>, Option<<G as Game>::Action>);

/// How long one slice of thinking may take before the event loop gets a turn: well
/// inside a 60 Hz frame.
pub const SLICE: std::time::Duration = std::time::Duration::from_millis(8);

/// A decision in progress, made one slice at a time ([`Bot::think`]).
pub struct Decision<G: Game> {
    bot: Option<Box<dyn Bot<G>>>,
    view: G::View,
    rng: ChaCha8Rng,
}

/// What [`Decision::step`] came to.
pub enum Step<G: Game> {
    /// Not decided yet: step again.
    Thinking,
    /// Decided (`None`: the bot panicked, it is lost).
    Done(Option<Answer<G>>),
}

impl<G: Game> Decision<G> {
    /// `bot` is to choose from `view` (its seat's view: nothing else goes in).
    pub fn new(bot: Box<dyn Bot<G>>, view: G::View, rng: ChaCha8Rng) -> Self {
        Decision {
            bot: Some(bot),
            view,
            rng,
        }
    }

    /// Thinks for about [`SLICE`].
    pub fn step(&mut self) -> Step<G> {
        let Some(mut bot) = self.bot.take() else {
            return Step::Done(None);
        };
        let (view, rng) = (&self.view, &mut self.rng);
        let thought = catch_unwind(AssertUnwindSafe(|| {
            let t = bot.think(view, rng, SLICE);
            (bot, t)
        }));
        match thought {
            Ok((bot, super::Thought::Decided(action))) => Step::Done(Some((bot, action))),
            Ok((bot, super::Thought::Thinking)) => {
                self.bot = Some(bot);
                Step::Thinking
            }
            Err(_) => Step::Done(None),
        }
    }

    /// Steps until decided (tests, and a worker thread).
    pub fn finish(mut self) -> Option<Answer<G>> {
        loop {
            if let Step::Done(answer) = self.step() {
                return answer;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{Level, Opponents, Told};
    use crate::games::{ovo::Ovo, rng_from_seed, Params};

    #[test]
    fn a_decision_is_legal_and_the_same_seed_gives_the_same_choice() {
        let game = Ovo::new_game(&Params::new()).unwrap();
        let (_, action) =
            Decision::new(Ovo::bot(Level::Hard, None), game.view(0), rng_from_seed(1))
                .finish()
                .expect("the bot answers");
        let action = action.expect("an action");
        assert!(game.legal_actions(0).contains(&action));
        let again = Decision::new(Ovo::bot(Level::Hard, None), game.view(0), rng_from_seed(1))
            .finish()
            .and_then(|(_, a)| a);
        assert_eq!(again, Some(action));
    }

    /// A bot with a bug.
    struct Panics;
    impl Bot<Ovo> for Panics {
        fn choose(
            &mut self,
            _: &<Ovo as Game>::View,
            _: &mut ChaCha8Rng,
        ) -> Option<<Ovo as Game>::Action> {
            panic!("a bug in a bot")
        }
        fn observe(&mut self, _: &Told<Ovo>) {}
        fn hit_deadline(&self) -> bool {
            false
        }
    }

    #[test]
    fn a_bot_that_panics_is_reported_lost_instead_of_ending_the_match() {
        let game = Ovo::new_game(&Params::new()).unwrap();
        let mut decision = Decision::new(
            Box::new(Panics) as Box<dyn Bot<Ovo>>,
            game.view(0),
            rng_from_seed(1),
        );
        assert!(matches!(decision.step(), Step::Done(None)));
        // Stepping on after the loss answers the same, rather than panicking again.
        assert!(matches!(decision.step(), Step::Done(None)));
    }
}
