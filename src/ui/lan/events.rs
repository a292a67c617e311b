//! What the network threads report, taken in on the UI thread: the host's and the joiner's
//! events change the networked table, its message line and what is heard.

use super::discovery::show_found;
use super::join_screen::joined;
use super::table::{show, NetGame};
use super::{said, say, Lan};
use crate::net::joiner::JoinerUpdate;
use crate::net::{HostEvent, JoinerEvent, NetReason};
use crate::platform::time::{Duration, Instant};
use crate::ui::chrome;
use crate::ui::inbox::LanMsg;
use crate::ui::texts::LanText;
use crate::ui::{AppWindow, Controller, LanBridge, Screen};
use slint::ComponentHandle;

/// Takes in everything the network threads left in the inbox, then redraws.
pub fn drain(app: &AppWindow, c: &mut Controller) {
    let language = c.language();
    let Some(lan) = c.lan.as_mut() else {
        return;
    };
    let msgs = lan.inbox.take();
    if msgs.is_empty() {
        return;
    }
    for msg in msgs {
        take_in(app, lan, msg, language);
    }
    if lan.game.is_some() {
        show(app, lan, language);
    }
    sound(c);
}

/// Plays what the networked game's last change sounds like, the way a table on one
/// device is heard (`ui::sound`): the refusal first, then the game's cues and buzz.
pub(super) fn sound(c: &mut Controller) {
    let Some(g) = c.lan.as_mut().and_then(|l| l.game.as_mut()) else {
        return;
    };
    if std::mem::take(&mut g.refused) {
        c.sound.refused();
    }
    let heard = g.heard();
    c.sound.after_heard(heard, &c.settings, c.kiosk.is_some());
}

fn take_in(app: &AppWindow, lan: &mut Lan, msg: LanMsg, language: &str) {
    // The player reads that the connection is lost (the why is for `hotseat host`).
    let lost_text = || say(language, LanText::ConnectionLost);
    match msg {
        LanMsg::Found(found) => show_found(app, lan, found, language),
        LanMsg::Host(event) => match event {
            HostEvent::Joined => {
                app.global::<LanBridge>()
                    .set_host_status(say(language, LanText::Joined).into());
            }
            HostEvent::Started {
                view, countdown, ..
            } => {
                lan.game = Some(NetGame::new(0, view, countdown));
                chrome::show_message(app, "", false);
                app.set_screen(Screen::Game);
            }
            HostEvent::OpponentActed { event, view } => {
                if let Some(g) = lan.game.as_mut() {
                    g.acted(&event, false);
                    g.set_view(view);
                }
            }
            HostEvent::Paused { .. } => {
                if let Some(g) = lan.game.as_mut() {
                    g.paused = Some(lost_text());
                }
                chrome::show_message(app, &lost_text(), true);
            }
            HostEvent::Resumed => {
                if lan.game.is_none() {
                    // A host opened again on its saved match (the app was killed, the
                    // page reloaded): the table comes up as the other device is back.
                    if let Some(view) = lan.host_view() {
                        lan.game = Some(NetGame::new(0, view, Duration::ZERO));
                    }
                }
                if let Some(g) = lan.game.as_mut() {
                    g.paused = None;
                    // A browser's host paired again on its pairing screen.
                    app.set_screen(Screen::Game);
                }
                chrome::show_message(app, &say(language, LanText::ConnectedAgain), false);
            }
            HostEvent::RematchOffered => rematch_offered(app, lan, language),
            HostEvent::Ended { reason } => end(app, lan, &reason, language),
            HostEvent::Notice(reason) => {
                let text = said(language, &reason);
                if lan.game.is_some() {
                    chrome::show_message(app, &text, true);
                } else {
                    app.global::<LanBridge>().set_host_status(text.into());
                }
            }
        },
        LanMsg::Joiner(update) => joiner_update(app, lan, update, language),
        LanMsg::Joined(result) => joined(app, lan, result, language),
        LanMsg::PageJoined { view, countdown } => {
            lan.game = Some(NetGame::new(1, view, countdown));
            app.global::<LanBridge>().set_join_message("".into());
            chrome::show_message(app, "", false);
            app.set_screen(Screen::Game);
        }
    }
}

/// What the joined device's joiner reports, on screen.
fn joiner_update(app: &AppWindow, lan: &mut Lan, update: JoinerUpdate, language: &str) {
    let JoinerUpdate {
        event,
        view,
        countdown,
    } = update;
    if lan.game.is_none() {
        // Back in a game restored from disk: now there is a view to draw.
        if let (JoinerEvent::Resumed, Some(view)) = (&event, &view) {
            lan.game = Some(NetGame::new(1, view.clone(), countdown));
            app.global::<LanBridge>().set_join_message("".into());
            app.set_screen(Screen::Game);
        }
    }
    match event {
        JoinerEvent::Started { .. } => {
            if let Some(view) = view {
                lan.game = Some(NetGame::new(1, view, countdown));
            }
            chrome::show_message(app, "", false);
        }
        JoinerEvent::Accepted { event, .. } => {
            if let Some(g) = lan.game.as_mut() {
                g.pending = None;
                g.acted(&event, true);
                if let Some(view) = view {
                    g.set_view(view);
                }
                if let crate::games::omiga::view::Act::Placed { .. } = event.act {
                    g.selected = None;
                    g.turned = false;
                }
            }
        }
        JoinerEvent::Rejected { reason, .. } => {
            let text = said(language, &reason);
            if let Some(g) = lan.game.as_mut() {
                g.pending = None;
                g.note = (text.clone(), true);
                g.refused = true;
            }
            chrome::show_message(app, &text, true);
        }
        JoinerEvent::OpponentActed { event } => {
            if let Some(g) = lan.game.as_mut() {
                g.acted(&event, false);
                if let Some(view) = view {
                    g.set_view(view);
                }
            }
        }
        JoinerEvent::RematchOffered => rematch_offered(app, lan, language),
        JoinerEvent::Notice(reason) => chrome::show_message(app, &said(language, &reason), true),
        JoinerEvent::Lost(_) => {
            let text = say(language, LanText::ConnectionLost);
            if let Some(g) = lan.game.as_mut() {
                g.paused = Some(text.clone());
            }
            chrome::show_message(app, &text, true);
        }
        JoinerEvent::Retrying(_) => {}
        JoinerEvent::Resumed => {
            if let Some(g) = lan.game.as_mut() {
                g.paused = None;
                // A browser's joiner paired again on its pairing screen.
                app.set_screen(Screen::Game);
                if let Some(view) = view {
                    g.set_view(view);
                }
                if !countdown.is_zero() {
                    g.countdown_until = Some(Instant::now() + countdown);
                }
            }
            chrome::show_message(app, &say(language, LanText::ConnectedAgain), false);
        }
        JoinerEvent::Settled { applied, .. } => {
            let text = if applied {
                say(language, LanText::SettledApplied)
            } else {
                say(language, LanText::SettledLost)
            };
            if let Some(g) = lan.game.as_mut() {
                g.pending = None;
                if !applied {
                    // The action sent before the drop was lost: heard as refused.
                    g.note = (text.clone(), true);
                    g.refused = true;
                }
            }
            chrome::show_message(app, &text, !applied);
        }
        JoinerEvent::Ended(reason) => end(app, lan, &reason, language),
    }
}

/// The other device asks for a rematch (host or client alike).
fn rematch_offered(app: &AppWindow, lan: &mut Lan, language: &str) {
    if let Some(g) = lan.game.as_mut() {
        g.rematch_offered = true;
    }
    chrome::show_message(app, &say(language, LanText::PlayerAsksRematch), false);
}

fn end(app: &AppWindow, lan: &mut Lan, reason: &NetReason, language: &str) {
    let text = say(
        language,
        LanText::Ended {
            why: said(language, reason),
        },
    );
    if let Some(g) = lan.game.as_mut() {
        g.paused = None;
        g.ended = Some(text.clone());
    }
    chrome::show_message(app, &text, true);
}
