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

/// The slices a decision is made in where this build runs. In the browser, [`SLICE`]:
/// the page answers taps only between two. Elsewhere the decision runs on a worker
/// thread with nothing to give way to, so it is [`Bot::choose`] in one call (`None`),
/// as it always was there.
pub const PLATFORM_SLICE: Option<std::time::Duration> = if cfg!(target_arch = "wasm32") {
    Some(SLICE)
} else {
    None
};

/// A decision in progress, made one slice at a time ([`Bot::think`]).
pub struct Decision<G: Game> {
    bot: Option<Box<dyn Bot<G>>>,
    view: G::View,
    rng: ChaCha8Rng,
    /// How long each step may think (`None`: a step decides, with [`Bot::choose`]).
    slice: Option<std::time::Duration>,
}

/// What [`Decision::step`] came to.
pub enum Step<G: Game> {
    /// Not decided yet: step again.
    Thinking,
    /// Decided (`None`: the bot panicked, it is lost).
    Done(Option<Answer<G>>),
}

impl<G: Game> Decision<G> {
    /// `bot` is to choose from `view` (its seat's view: nothing else goes in), in
    /// this platform's slices ([`PLATFORM_SLICE`]).
    pub fn new(bot: Box<dyn Bot<G>>, view: G::View, rng: ChaCha8Rng) -> Self {
        Self::in_slices(bot, view, rng, PLATFORM_SLICE)
    }

    /// The same with slices of `slice` (`None`: one step decides).
    pub fn in_slices(
        bot: Box<dyn Bot<G>>,
        view: G::View,
        rng: ChaCha8Rng,
        slice: Option<std::time::Duration>,
    ) -> Self {
        Decision {
            bot: Some(bot),
            view,
            rng,
            slice,
        }
    }

    /// Thinks for one slice (in the browser about [`SLICE`]).
    pub fn step(&mut self) -> Step<G> {
        let Some(mut bot) = self.bot.take() else {
            return Step::Done(None);
        };
        let (view, rng, slice) = (&self.view, &mut self.rng, self.slice);
        let thought = catch_unwind(AssertUnwindSafe(|| {
            let t = match slice {
                Some(slice) => bot.think(view, rng, slice),
                None => super::Thought::Decided(bot.choose(view, rng)),
            };
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
    use crate::games::{iota::Iota, ovo::Ovo, rng_from_seed, Params};

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

    #[test]
    fn in_the_browser_s_slices_an_iota_decision_takes_many_steps_and_answers_the_same() {
        // The browser's page answers a tap between two steps; a step is at most about a
        // frame of thinking.
        assert!(SLICE > std::time::Duration::ZERO && SLICE <= std::time::Duration::from_millis(10));
        assert_eq!(PLATFORM_SLICE, None, "a native build decides in one step");
        let game = Iota::new_game(&Params::new().with("seed", 4)).unwrap();
        let seat = game.turn();
        let decide = |slice| {
            let mut decision = Decision::in_slices(
                Iota::bot(Level::Hard, None),
                game.view(seat),
                rng_from_seed(2),
                slice,
            );
            let mut steps = 0;
            loop {
                steps += 1;
                if let Step::Done(answer) = decision.step() {
                    return (answer.and_then(|(_, a)| a), steps);
                }
            }
        };
        let (whole, one) = decide(None);
        assert_eq!(one, 1);
        // A zero slice: one candidate's round per step, as on the slowest page.
        let (sliced, steps) = decide(Some(std::time::Duration::ZERO));
        assert_eq!(sliced, whole);
        assert!(steps > 20, "{steps} steps");
        let action = whole.expect("an action");
        assert!(game.legal_actions(seat).contains(&action), "{action}");
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
