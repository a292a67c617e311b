//! Thinking off the UI thread: the UI hands the bot and its view to a worker thread and
//! polls for the answer, so the window never freezes while a bot searches.

use super::Bot;
use crate::games::Game;
use rand_chacha::ChaCha8Rng;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;

/// A finished decision: the bot back (with its memory) and its choice.
pub type Answer<G> = (Box<dyn Bot<G>>, Option<<G as Game>::Action>);

/// A decision being made on another thread.
pub struct Thinking<G: Game> {
    answer: Receiver<Answer<G>>,
}

/// What [`Thinking::poll`] found.
pub enum Poll<G: Game> {
    /// Still thinking.
    Pending(Thinking<G>),
    /// Done: the bot back (with its memory) and its choice.
    Ready(Box<dyn Bot<G>>, Option<G::Action>),
    /// The worker thread died (a bug); the bot is lost.
    Failed,
}

/// Starts `bot` choosing from `view` on a worker thread.
pub fn think<G: Game>(mut bot: Box<dyn Bot<G>>, view: G::View, mut rng: ChaCha8Rng) -> Thinking<G> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let action = bot.choose(&view, &mut rng);
        // The receiver may be gone (the match was closed): nothing to do then.
        let _ = tx.send((bot, action));
    });
    Thinking { answer: rx }
}

impl<G: Game> Thinking<G> {
    /// Looks for the answer without waiting.
    pub fn poll(self) -> Poll<G> {
        match self.answer.try_recv() {
            Ok((bot, action)) => Poll::Ready(bot, action),
            Err(TryRecvError::Empty) => Poll::Pending(self),
            Err(TryRecvError::Disconnected) => Poll::Failed,
        }
    }

    /// Waits for the answer (tests, the self-play bench).
    pub fn wait(self) -> Option<Answer<G>> {
        self.answer.recv().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{Level, Opponents};
    use crate::games::{ovo::Ovo, rng_from_seed, Params};

    #[test]
    fn a_bot_thinks_on_another_thread_and_comes_back() {
        let game = Ovo::new_game(&Params::new()).unwrap();
        let mut thinking = think(Ovo::bot(Level::Hard, None), game.view(0), rng_from_seed(1));
        let (bot, action) = loop {
            match thinking.poll() {
                Poll::Pending(t) => {
                    thinking = t;
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                Poll::Ready(bot, action) => break (bot, action),
                Poll::Failed => panic!("the worker died"),
            }
        };
        let action = action.expect("an action");
        assert!(game.legal_actions(0).contains(&action));
        // Same bot, same view, same seed: the same choice, waited for this time.
        let again = think(Ovo::bot(Level::Hard, None), game.view(0), rng_from_seed(1))
            .wait()
            .and_then(|(_, a)| a);
        assert_eq!(again, Some(action));
        drop(bot);
    }
}
