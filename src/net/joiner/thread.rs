//! A [`Joiner`] on a thread of its own, for a UI that must never block.

use super::super::NetError;
use super::{Joiner, JoinerEvent};
use crate::games::omiga::{Action, OmigaView};
use crate::platform::time::Duration;

/// What a [`JoinerThread`] is asked to do.
enum Command {
    Act(Action),
    Rematch,
    Drop,
    Leave,
}

/// One thing that happened, with the view after it, as a [`JoinerThread`] reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct JoinerUpdate {
    /// What happened.
    pub event: JoinerEvent,
    /// This seat's view after it (none before the host's first welcome).
    pub view: Option<OmigaView>,
    /// The countdown the last welcome or start announced.
    pub countdown: Duration,
}

/// A [`Joiner`] on a thread of its own, for a UI that must never block: commands go in,
/// [`JoinerUpdate`]s come out on a channel. Dropping it leaves the connection as a dropped
/// Wi-Fi would (the seat stays on disk); [`JoinerThread::leave`] ends the pairing.
pub struct JoinerThread {
    commands: std::sync::mpsc::Sender<Command>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl JoinerThread {
    /// Starts the thread; the updates arrive on the returned channel.
    pub fn spawn(mut joiner: Joiner) -> (JoinerThread, std::sync::mpsc::Receiver<JoinerUpdate>) {
        let (commands, inbox) = std::sync::mpsc::channel();
        let (updates, out) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let tell = |joiner: &Joiner, event: JoinerEvent| {
                updates
                    .send(JoinerUpdate {
                        event,
                        view: joiner.view().cloned(),
                        countdown: joiner.countdown(),
                    })
                    .is_ok()
            };
            loop {
                loop {
                    let command = match inbox.try_recv() {
                        Ok(command) => command,
                        Err(std::sync::mpsc::TryRecvError::Empty) => break,
                        // The handle is gone: the connection drops with the joiner.
                        Err(std::sync::mpsc::TryRecvError::Disconnected) => return,
                    };
                    match command {
                        Command::Act(action) => {
                            if let Err(e) = joiner.act(action) {
                                if joiner.pending().is_none() {
                                    let reason = e.reason();
                                    if !tell(&joiner, JoinerEvent::Rejected { action, reason }) {
                                        return;
                                    }
                                }
                            }
                        }
                        Command::Rematch => {
                            if let Err(e) = joiner.rematch() {
                                if !tell(&joiner, JoinerEvent::Notice(e.reason())) {
                                    return;
                                }
                            }
                        }
                        Command::Drop => joiner.drop_connection(),
                        Command::Leave => {
                            joiner.leave();
                            return;
                        }
                    }
                }
                for event in joiner.poll(Duration::from_millis(20)) {
                    if !tell(&joiner, event) {
                        return;
                    }
                }
                if joiner.over() {
                    return;
                }
            }
        });
        (
            JoinerThread {
                commands,
                thread: Some(thread),
            },
            out,
        )
    }

    fn send(&self, command: Command) -> Result<(), NetError> {
        self.commands.send(command).map_err(|_| NetError::Stopped)
    }

    /// Plays an action; its fate arrives as an update.
    pub fn act(&self, action: Action) -> Result<(), NetError> {
        self.send(Command::Act(action))
    }

    /// Asks for (or agrees to) a rematch.
    pub fn rematch(&self) -> Result<(), NetError> {
        self.send(Command::Rematch)
    }

    /// Cuts the connection as a dropped Wi-Fi would; it comes back on its own.
    pub fn drop_connection(&self) {
        let _ = self.send(Command::Drop);
    }

    /// Ends the pairing on purpose: the host is told and the seat forgotten.
    pub fn leave(mut self) {
        let _ = self.send(Command::Leave);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for JoinerThread {
    fn drop(&mut self) {
        // The thread ends when it sees the command channel gone at its next poll; it is
        // not joined here, so dropping never waits on the network.
        let (dead, _) = std::sync::mpsc::channel();
        self.commands = dead;
    }
}
