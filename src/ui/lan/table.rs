//! The networked table: one game as this device's seat knows it ([`NetGame`]), drawn on
//! the Omiga screen from that seat only, and the taps on it, sent to the host to judge.

use super::{said, say, Lan, Link};
use crate::games::omiga::{Action, Omiga, OmigaEvent, OmigaView, Side};
use crate::games::Game;
use crate::games::{Outcome, Seat};
use crate::net::{legal_from_view, NetError};
use crate::platform::time::{Duration, Instant};
use crate::ui::omiga_models::{board_cells, fits_nowhere, hand_models, side_word};
use crate::ui::rows;
use crate::ui::texts::{LanText, OmigaText};
use crate::ui::{AppWindow, GameChrome, OmigaBridge};
use slint::{ComponentHandle, ModelRc, VecModel};

/// One game on the networked table, as this device's seat knows it.
pub(super) struct NetGame {
    pub(super) seat: Seat,
    pub(super) view: OmigaView,
    pub(super) selected: Option<usize>,
    pub(super) turned: bool,
    pub(super) note: (String, bool),
    pub(super) countdown_until: Option<Instant>,
    /// "Connection lost — waiting …" while paused.
    pub(super) paused: Option<String>,
    /// The pairing is over, with why.
    pub(super) ended: Option<String>,
    /// The joined device's placement sent and not answered yet.
    pub(super) pending: Option<Action>,
    pub(super) last: Option<(u8, u8)>,
    pub(super) rematch_offered: bool,
    pub(super) rematch_asked: bool,
    /// The game's public events as this device received them, each with the side that
    /// acted (this device's card or the other's): what the ear hears new.
    pub(super) log: Vec<(crate::sound::Side, OmigaEvent)>,
    /// Hears this game only: a rematch is a new `NetGame`, with a new ear.
    pub(super) ear: crate::sound::Ear,
    /// The host refused this device's action since the last listen.
    pub(super) refused: bool,
}

impl NetGame {
    pub(super) fn new(seat: Seat, view: OmigaView, countdown: Duration) -> Self {
        NetGame {
            seat,
            view,
            selected: None,
            turned: false,
            note: Default::default(),
            countdown_until: (!countdown.is_zero()).then(|| Instant::now() + countdown),
            paused: None,
            ended: None,
            pending: None,
            last: None,
            rematch_offered: false,
            rematch_asked: false,
            log: Vec::new(),
            ear: crate::sound::Ear::new(),
            refused: false,
        }
    }

    pub(super) fn countdown_left(&self) -> i32 {
        self.countdown_until.map_or(0, |until| {
            let left = until.saturating_duration_since(Instant::now());
            left.as_millis().div_ceil(1000) as i32
        })
    }

    pub(super) fn selected_card(&self) -> Option<crate::games::omiga::Card> {
        self.selected.and_then(|i| self.view.hand.get(i).copied())
    }

    /// A new view from the host: keep the selection when the card is still in hand.
    pub(super) fn set_view(&mut self, view: OmigaView) {
        let card = self.selected_card();
        self.view = view;
        self.selected = card.and_then(|c| self.view.hand.iter().position(|h| *h == c));
        if self.selected.is_none() {
            self.turned = false;
        }
    }

    /// An action taken on the table: `mine` when this device's seat acted. Kept in its
    /// public form only (what the other side's device may know), for the ear.
    pub(super) fn acted(&mut self, event: &OmigaEvent, mine: bool) {
        if let crate::games::omiga::view::Act::Placed { x, y, .. } = event.act {
            self.last = Some((x, y));
        }
        let side = if mine {
            crate::sound::Side::Near
        } else {
            crate::sound::Side::Far
        };
        self.log.push((side, Omiga::public_event(event)));
    }

    /// What changed on this table since the last listen, heard by the same ear and the
    /// same Omiga cues as a table on one device (`sound::Ear::hear`).
    pub(super) fn heard(&mut self) -> crate::sound::Heard {
        let glance = crate::sound::Glance {
            actions: self.log.len(),
            // This device's own seat always sees its own hand: no cover, no hand-off.
            gate: crate::session::Gate::Open(self.seat),
            thinking: false,
            outcome: self.view.outcome.clone(),
            countdown: u8::try_from(self.countdown_left()).unwrap_or(u8::MAX),
        };
        let log = &self.log;
        self.ear
            .hear::<Omiga, _>(glance, |from| log.iter().skip(from).cloned())
    }

    /// This seat's legal actions now, from the rules core (none while a card it sent is
    /// on its way).
    fn legal_actions(&self) -> Vec<Action> {
        if self.pending.is_some() {
            return Vec::new();
        }
        legal_from_view(&self.view)
    }

    /// The cells among `legal` the selected card may go to, as it is turned.
    fn cells_of_selected(&self, legal: &[Action]) -> Vec<(u8, u8)> {
        let Some(card) = self.selected_card() else {
            return Vec::new();
        };
        legal
            .iter()
            .filter_map(|a| match *a {
                Action::Place {
                    card: c,
                    rotated,
                    x,
                    y,
                } if c == card && rotated == self.turned => {
                    Some((u8::try_from(x).ok()?, u8::try_from(y).ok()?))
                }
                _ => None,
            })
            .collect()
    }
}

/// Fills the Omiga screen from this device's seat only.
pub fn show(app: &AppWindow, lan: &Lan, language: &str) {
    let Some(g) = lan.game.as_ref() else {
        return;
    };
    app.set_playing("omiga".into());
    app.set_cover_up(false);
    let chrome = app.global::<GameChrome>();
    chrome.set_title(say(language, LanText::Title).into());
    chrome.set_undo_label("".into());
    let you = say(language, LanText::You);
    let them = say(language, LanText::OtherPhone);
    let name = |seat: Seat| {
        if seat == g.seat {
            you.clone()
        } else {
            them.clone()
        }
    };
    let (banner, banner_seat) = match (&g.ended, g.view.outcome.clone()) {
        (Some(text), _) => (text.clone(), None),
        (None, Outcome::Win { seat }) => (
            if seat == g.seat {
                say(language, LanText::YouWin)
            } else {
                say(language, LanText::OtherWins)
            },
            Some(seat),
        ),
        (None, Outcome::Draw) => (say(language, OmigaText::Draw), None),
        _ if g.paused.is_some() => (say(language, LanText::ConnectionLost), None),
        _ => (
            say(
                language,
                LanText::PlayYouAre {
                    side: side_word(g.seat, language).to_string(),
                },
            ),
            Some(g.seat),
        ),
    };
    // The game's end is announced with the move that made it, as on one device
    // (`chrome::show_message`); a pairing that ended says so in its own message.
    let ended = g.ended.is_none() && g.view.outcome.is_over();
    chrome.set_end_words(if ended { banner.as_str() } else { "" }.into());
    chrome.set_banner(banner.into());
    chrome.set_banner_seat(banner_seat.map_or(-1, |s| s as i32));
    chrome.set_banner_color(banner_seat.map_or(0, |s| s as i32));

    let bridge = app.global::<OmigaBridge>();
    let (w, h) = (g.view.width, g.view.height);
    // Asked of the rules core once a redraw: the lit cells and the hand's words use it.
    let actions = if lan.playing() {
        g.legal_actions()
    } else {
        Vec::new()
    };
    let legal = g.cells_of_selected(&actions);
    let empty: Vec<(u8, u8)> = Vec::new();
    let legal_by_seat = if g.seat == 0 {
        [&legal[..], &empty[..]]
    } else {
        [&empty[..], &legal[..]]
    };
    let own_side = if g.seat == 0 {
        Side::White
    } else {
        Side::Black
    };
    let pending = g.pending.as_ref().and_then(|a| match a {
        Action::Place {
            card,
            rotated,
            x,
            y,
        } => Some((
            u8::try_from(*x).ok()?,
            u8::try_from(*y).ok()?,
            own_side,
            card.oriented(*rotated),
        )),
        Action::Discard => None,
    });
    let cells = board_cells(
        (w, h),
        |x, y| {
            g.view
                .cells
                .iter()
                .find(|c| c.x == x && c.y == y)
                .map(|c| (c.side, c.card))
        },
        legal_by_seat,
        g.last,
        g.view.outcome.is_over(),
        pending,
        g.seat == 1,
        language,
    );
    bridge.set_columns(w.into());
    bridge.set_rows(h.into());
    rows::update_rows(bridge.get_cells(), cells, |m| bridge.set_cells(m));
    // Only this seat's hand exists here; a card sent and not yet confirmed leaves it.
    let mut hand = g.view.hand.clone();
    let mut selected = g.selected;
    if g.pending.is_some() {
        if let Some(i) = g.selected {
            if i < hand.len() {
                hand.remove(i);
            }
        }
        selected = None;
    }
    let nowhere = if actions.is_empty() {
        Vec::new()
    } else {
        fits_nowhere(&hand, &actions)
    };
    let own = ModelRc::new(VecModel::from(hand_models(
        g.seat, &hand, selected, g.turned, &nowhere, language,
    )));
    let none = ModelRc::new(VecModel::from(Vec::new()));
    let far = 1 - g.seat;
    let far_count = g.view.hand_sizes.get(far).copied().unwrap_or(0);
    let deck = |seat: Seat| {
        say(
            language,
            OmigaText::InDeck {
                n: g.view.deck_counts.get(seat).copied().unwrap_or(0),
            },
        )
    };
    let playing = lan.playing();
    let can_discard = playing && g.view.can_discard && g.pending.is_none();
    let (note, warn) = g.note.clone();
    for seat in 0..2 {
        let mine = seat == g.seat;
        let hand = if mine { own.clone() } else { none.clone() };
        let label = say(
            language,
            OmigaText::Hand {
                name: name(seat).to_string(),
            },
        );
        let (note, warn) = if mine {
            (note.clone(), warn)
        } else {
            (String::new(), false)
        };
        if seat == 0 {
            bridge.set_white_hand(hand);
            bridge.set_white_name(name(0).into());
            bridge.set_white_color(0);
            bridge.set_white_deck(deck(0).into());
            bridge.set_white_can_discard(mine && can_discard);
            bridge.set_white_note(note.into());
            bridge.set_white_note_warning(warn);
            bridge.set_white_hand_label(label.into());
        } else {
            bridge.set_black_hand(hand);
            bridge.set_black_name(name(1).into());
            bridge.set_black_color(1);
            bridge.set_black_deck(deck(1).into());
            bridge.set_black_can_discard(mine && can_discard);
            bridge.set_black_note(note.into());
            bridge.set_black_note_warning(warn);
            bridge.set_black_hand_label(label.into());
        }
    }
    bridge.set_remote(true);
    bridge.set_near_seat(g.seat as i32);
    bridge.set_far_count(far_count as i32);
    bridge.set_far_label(
        format!(
            "{}: {}",
            say(
                language,
                OmigaText::Hand {
                    name: name(far).to_string()
                }
            ),
            say(language, LanText::FarCards { n: far_count })
        )
        .into(),
    );
    bridge.set_can_turn(g.view.allow_rotation);
    let over = g.view.outcome.is_over() || g.ended.is_some();
    bridge.set_countdown(if over || g.paused.is_some() {
        0
    } else {
        g.countdown_left()
    });
    bridge.set_paused(g.paused.clone().unwrap_or_default().into());
    bridge.set_over(over);
    let result = if let Some(text) = &g.ended {
        text.clone()
    } else if g.rematch_asked {
        say(language, LanText::RematchAsked)
    } else if g.rematch_offered {
        say(language, LanText::PhoneAsksRematch)
    } else {
        match g.view.outcome {
            Outcome::Win { seat } if seat == g.seat => say(language, LanText::YouWin),
            Outcome::Win { .. } => say(language, LanText::OtherWins),
            Outcome::Draw => say(language, OmigaText::Draw),
            _ => String::new(),
        }
    };
    bridge.set_result(result.into());
}

/// A tap from the Omiga screen while a networked game is on. `seat` is ignored: this
/// device only ever acts for its own seat.
pub enum Tap {
    /// A hand card.
    Hand(usize),
    /// A cell.
    Cell(i32, i32),
    /// The discard button.
    Discard,
    /// The countdown's second passed.
    Tick,
    /// Rematch.
    Rematch,
}

/// Handles a tap; a refusal comes back as a message (never a panic).
pub fn tap(lan: &mut Lan, tap: Tap, language: &str) -> Result<(), String> {
    let playing = lan.playing();
    let Some(g) = lan.game.as_mut() else {
        return Ok(());
    };
    let not_now = |g: &NetGame| {
        if let Some(p) = &g.paused {
            p.clone()
        } else if g.ended.is_some() || g.view.outcome.is_over() {
            say(language, OmigaText::GameOver)
        } else {
            say(language, OmigaText::WaitCountdown)
        }
    };
    match tap {
        Tap::Tick => {
            if g.countdown_left() == 0 {
                g.countdown_until = None;
            }
            Ok(())
        }
        Tap::Hand(index) => {
            if !playing {
                return Err(not_now(g));
            }
            if g.pending.is_some() {
                return Err(say(language, LanText::WaitForHost));
            }
            if index >= g.view.hand.len() {
                return Err(say(language, OmigaText::CardGone));
            }
            if g.selected == Some(index) {
                if g.view.allow_rotation {
                    g.turned = !g.turned;
                } else {
                    g.selected = None;
                }
            } else {
                g.selected = Some(index);
                g.turned = false;
            }
            g.note = Default::default();
            Ok(())
        }
        Tap::Cell(x, y) => {
            if !playing {
                return Err(not_now(g));
            }
            if g.pending.is_some() {
                return Err(say(language, LanText::WaitForHost));
            }
            let Some(card) = g.selected_card() else {
                return Err(say(language, OmigaText::PickFirst));
            };
            let action = Action::Place {
                card,
                rotated: g.turned,
                x,
                y,
            };
            send(&lan.link, g, action, language)
        }
        Tap::Discard => {
            if !playing {
                return Err(not_now(g));
            }
            send(&lan.link, g, Action::Discard, language)
        }
        Tap::Rematch => {
            let result = match &lan.link {
                Link::Host { host, .. } => host.rematch().map_err(|e| said(language, &e.reason())),
                Link::Client(joiner) => joiner.rematch().map_err(|e| said(language, &e.reason())),
                #[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
                Link::Page(page) => page.rematch().map_err(|e| said(language, &e.reason())),
                _ => Err(not_now(g)),
            };
            if result.is_ok() {
                g.rematch_asked = true;
            }
            result
        }
    }
}

/// Sends an action: the host judges its own player's at once; the joined device's answer
/// comes back as an event (its card waits on the cell until then).
fn send(link: &Link, g: &mut NetGame, action: Action, language: &str) -> Result<(), String> {
    let judged = match link {
        Link::Host { host, .. } => host.act(action).map(|event| (event, host.view().ok())),
        #[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
        Link::Page(page) if page.hosts() => page.host_act(action).map(|(e, v)| (e, Some(v))),
        #[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
        Link::Page(_) if g.paused.is_some() => return Err(g.paused.clone().unwrap_or_default()),
        #[cfg(any(target_arch = "wasm32", feature = "webrtc"))]
        Link::Page(page) => return sent(g, action, page.join_act(action), language),
        Link::Client(_) | Link::Idle if g.paused.is_some() => {
            return Err(g.paused.clone().unwrap_or_default())
        }
        Link::Client(joiner) => return sent(g, action, joiner.act(action), language),
        Link::Idle => return Err(String::new()),
    };
    match judged {
        Ok((event, view)) => {
            g.acted(&event, true);
            if let Action::Place { .. } = action {
                g.selected = None;
                g.turned = false;
            }
            g.note = Default::default();
            if let Some(view) = view {
                g.set_view(view);
            }
            Ok(())
        }
        Err(e) => {
            let text = said(language, &e.reason());
            g.note = (text.clone(), true);
            Err(text)
        }
    }
}

/// The joined device's action on its way to the host: a card waits on its cell for the
/// host's answer.
fn sent(
    g: &mut NetGame,
    action: Action,
    result: Result<(), NetError>,
    language: &str,
) -> Result<(), String> {
    result.map_err(|e| said(language, &e.reason()))?;
    g.note = Default::default();
    if let Action::Place { .. } = action {
        g.pending = Some(action);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::NetGame;
    use crate::games::omiga::Omiga;
    use crate::games::Game;
    use crate::platform::time::Duration;
    use crate::sound::Cue;

    /// White's card at 4,6 lies behind Black's 4,5 and wins at once (docs/rules-omiga.md).
    const WIN: &str =
        "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG;3,6:w:DD-GG hands=ND-GG|DD-KK decks=PN-GK|";

    #[test]
    fn a_winning_card_buzzes_and_ends_the_game_on_both_devices() {
        let mut game = Omiga::from_position(WIN).unwrap();
        let mut host = NetGame::new(0, game.view(0), Duration::ZERO);
        let mut joiner = NetGame::new(1, game.view(1), Duration::ZERO);
        assert!(host.heard().is_empty() && joiner.heard().is_empty());
        let event = game.play(0, &"place ND-GG@4,6".parse().unwrap()).unwrap();
        // The host placed it; the joined device is told of the other side's card.
        host.acted(&event, true);
        host.set_view(game.view(0));
        joiner.acted(&event, false);
        joiner.set_view(game.view(1));
        let (here, there) = (host.heard(), joiner.heard());
        assert_eq!(here.cues, [Cue::PlacedNear, Cue::Won]);
        assert_eq!(there.cues, [Cue::PlacedFar, Cue::Won]);
        assert!(
            here.buzz && there.buzz,
            "both phones buzz at the winning card"
        );
        assert!(host.heard().is_empty(), "heard once");
    }
}
