//! The host's match and the joiner's state machine driven with no socket and no thread:
//! raw messages into [`HostMatch`], and a host and a [`JoinerCore`] against each other
//! over the in-memory channel pair with a fake clock (time passes only when a test says
//! so, so the 60 s resume time and the 5 s silence take no time at all).

use super::channel::{MessageChannel, Received};
use super::host_match::{ConnId, HostMatch, HostOut, MatchSetup};
use super::joiner::{JoinerCore, JoinerEvent, JoinerOut};
use super::mem_pair::MemPairing as Sim;
use super::protocol::{ClientMsg, HostMsg, ProtocolError, Timing, PROTOCOL_VERSION};
use super::reason::NetReason;
use super::{legal_from_view, HostEvent, NetError};
use crate::games::omiga::{Action, Omiga, OmigaView};
use crate::games::{Game, Outcome};
use crate::platform::time::{Duration, Instant};

use super::mem_pair::{self, CODE};

fn setup(seed: u64, timing: Timing) -> MatchSetup {
    mem_pair::setup(seed, timing).expect("a deal from a seed")
}

fn hello(resume: Option<&str>) -> ClientMsg {
    ClientMsg::Hello {
        version: PROTOCOL_VERSION,
        code: CODE.into(),
        resume: resume.map(str::to_string),
    }
}

/// What the host sent on `conn`, in order.
fn sent(outs: &[HostOut], conn: ConnId) -> Vec<HostMsg> {
    outs.iter()
        .filter_map(|o| match o {
            HostOut::Send(c, m) | HostOut::Welcome(c, m) if *c == conn => Some(m.clone()),
            _ => None,
        })
        .collect()
}

fn events(outs: &[HostOut]) -> Vec<HostEvent> {
    outs.iter()
        .filter_map(|o| match o {
            HostOut::Event(e) => Some(e.clone()),
            _ => None,
        })
        .collect()
}

/// The `why` of the one refusal sent on `conn`, and that the connection is closed after it.
fn refused(outs: &[HostOut], conn: ConnId) -> NetReason {
    let why = sent(outs, conn).into_iter().find_map(|m| match m {
        HostMsg::Refused { why, reason } => Some(why.unwrap_or_else(|| reason.into())),
        _ => None,
    });
    assert!(
        outs.contains(&HostOut::Close(conn)),
        "a refused connection is closed: {outs:?}"
    );
    why.unwrap_or_else(|| panic!("no refusal in {outs:?}"))
}

/// A host with the device on connection 1 welcomed (its token returned), at `now`.
fn joined(timing: Timing, now: Instant) -> (HostMatch, String) {
    let (mut host, _) = HostMatch::new(setup(3, timing), now).unwrap();
    host.on_connect(1, now);
    let outs = host.on_message(1, hello(None), now);
    let Some(HostMsg::Welcome { token, .. }) = sent(&outs, 1).pop() else {
        panic!("no welcome: {outs:?}");
    };
    let outs = host.welcomed(1, Ok(()), now);
    assert!(events(&outs).contains(&HostEvent::Joined));
    (host, token)
}

fn no_countdown() -> Timing {
    Timing {
        countdown: Duration::ZERO,
        ..Timing::default()
    }
}

/// The wrong code, another version, a message before the hello, a hello that never
/// comes: each refused with its reason and the connection closed; the right code joins.
#[test]
fn hostile_or_wrong_first_messages_are_refused_with_their_reason() {
    let t0 = Instant::now();
    let (mut host, _) = HostMatch::new(setup(1, Timing::default()), t0).unwrap();
    host.on_connect(1, t0);
    let outs = host.on_message(
        1,
        ClientMsg::Hello {
            version: PROTOCOL_VERSION,
            code: "1111".into(),
            resume: None,
        },
        t0,
    );
    assert_eq!(refused(&outs, 1), NetReason::WrongCode);
    host.on_connect(2, t0);
    let outs = host.on_message(
        2,
        ClientMsg::Hello {
            version: 99,
            code: CODE.into(),
            resume: None,
        },
        t0,
    );
    assert_eq!(
        refused(&outs, 2),
        NetReason::Version {
            host: PROTOCOL_VERSION,
            device: 99
        }
    );
    host.on_connect(3, t0);
    let outs = host.on_message(
        3,
        ClientMsg::Act {
            id: 1,
            action: "discard".into(),
        },
        t0,
    );
    assert_eq!(refused(&outs, 3), NetReason::HelloFirst);
    host.on_connect(4, t0);
    let outs = host.on_bad(4, ProtocolError::NotText.into(), t0);
    assert_eq!(refused(&outs, 4), ProtocolError::NotText.into());
    // A silent stranger is cut when its hello time runs out, not before.
    host.on_connect(5, t0);
    assert!(host.on_tick(t0 + Duration::from_millis(4900)).is_empty());
    let outs = host.on_tick(t0 + Duration::from_secs(5));
    assert_eq!(refused(&outs, 5), NetReason::NoHello { ms: 5000 });
    // Nobody got in; the right code still joins.
    host.on_connect(6, t0);
    let outs = host.on_message(6, hello(None), t0 + Duration::from_secs(5));
    assert!(matches!(
        sent(&outs, 6).as_slice(),
        [HostMsg::Welcome { seat: 1, .. }]
    ));
}

/// Only the token brings a device back: a second device is refused while one plays,
/// another token while the seat waits; the token itself comes back within the resume
/// time, and the game ends at its end.
#[test]
fn the_token_and_the_resume_time_decide_who_comes_back() {
    let t0 = Instant::now();
    let (mut host, token) = joined(no_countdown(), t0);
    host.on_connect(2, t0);
    let outs = host.on_message(2, hello(None), t0);
    assert_eq!(refused(&outs, 2), NetReason::AlreadyJoined);
    let outs = host.on_closed(1, NetReason::DeviceClosed, t0);
    assert!(matches!(
        events(&outs).as_slice(),
        [HostEvent::Paused { .. }]
    ));
    // While paused, neither seat can act.
    let white = host.legal()[0];
    assert_eq!(
        host.act(&white, t0).0.unwrap_err().reason(),
        NetReason::Paused
    );
    host.on_connect(3, t0);
    let outs = host.on_message(3, hello(Some("not-the-token")), t0);
    assert_eq!(refused(&outs, 3), NetReason::AwaitingOwnPlayer);
    // 59 s later the token comes back; it counts as back once it speaks.
    let t59 = t0 + Duration::from_secs(59);
    assert!(events(&host.on_tick(t59)).is_empty());
    host.on_connect(4, t59);
    let outs = host.on_message(4, hello(Some(&token)), t59);
    assert!(matches!(
        sent(&outs, 4).as_slice(),
        [HostMsg::Welcome { .. }]
    ));
    let outs = host.welcomed(4, Ok(()), t59);
    assert!(!events(&outs).contains(&HostEvent::Resumed));
    let outs = host.on_message(4, ClientMsg::Ping, t59);
    assert_eq!(events(&outs), vec![HostEvent::Resumed]);
    // Lost again: after 60 s more without it, the game ends and goes to the history.
    host.on_closed(4, NetReason::DeviceClosed, t59);
    assert!(events(&host.on_tick(t59 + Duration::from_millis(59_900))).is_empty());
    let outs = host.on_tick(t59 + Duration::from_secs(60));
    assert_eq!(
        events(&outs),
        vec![HostEvent::Ended {
            reason: NetReason::DeviceGoneKept { secs: 60 }
        }]
    );
    assert!(outs.contains(&HostOut::Clear));
    host.on_connect(5, t59 + Duration::from_secs(61));
    let outs = host.on_message(5, hello(Some(&token)), t59 + Duration::from_secs(61));
    assert_eq!(refused(&outs, 5), NetReason::PairingOver);
}

/// An action counts once: it is saved (with its number) before its answer goes out; the
/// same number sent again is refused "already received" and changes nothing; the welcome
/// after a drop carries the number, so the device learns it was applied.
#[test]
fn an_action_sent_twice_counts_once_and_is_saved_before_its_answer() {
    let t0 = Instant::now();
    let (mut host, token) = joined(no_countdown(), t0);
    host.on_message(1, ClientMsg::Ping, t0);
    let view = welcome_view_of(&mut host, t0);
    let action = legal_from_view(&view)[0].to_string();
    let act = ClientMsg::Act { id: 5, action };
    let outs = host.on_message(1, act.clone(), t0);
    let save_at = outs
        .iter()
        .position(
            |o| matches!(o, HostOut::Save(s) if s.last_act == 5 && s.saved.actions.len() == 1),
        )
        .expect("saved with its number");
    let answer_at = outs
        .iter()
        .position(|o| matches!(o, HostOut::Send(1, HostMsg::Accepted { id: 5, .. })))
        .expect("accepted");
    assert!(save_at < answer_at, "{outs:?}");
    let outs = host.on_message(1, act, t0);
    assert!(matches!(
        sent(&outs, 1).as_slice(),
        [HostMsg::Rejected {
            id: 5,
            why: Some(NetReason::AlreadyReceived),
            ..
        }]
    ));
    assert_eq!(host.position().1.len(), 1);
    assert!(!outs.iter().any(|o| matches!(o, HostOut::Save(_))));
    // The answer was lost with the connection: the welcome tells.
    host.on_closed(1, NetReason::DeviceClosed, t0);
    host.on_connect(2, t0);
    let outs = host.on_message(2, hello(Some(&token)), t0);
    assert!(matches!(
        sent(&outs, 2).as_slice(),
        [HostMsg::Welcome { last_act: 5, .. }]
    ));
}

/// The joined device's view, as a welcome on a fresh comeback would carry it.
fn welcome_view_of(host: &mut HostMatch, _now: Instant) -> OmigaView {
    let (position, _) = host.position();
    Omiga::from_position(&position).unwrap().view(1)
}

/// In play: an unreadable message is answered with its reason and the game goes on; a
/// flood is refused; a device silent for 5 s is dropped and the game pauses.
#[test]
fn bad_messages_floods_and_silence_in_play() {
    let t0 = Instant::now();
    let (mut host, _) = joined(no_countdown(), t0);
    let why = NetReason::from(ProtocolError::Malformed("expected value".into()));
    let outs = host.on_bad(1, why.clone(), t0);
    assert!(matches!(
        sent(&outs, 1).as_slice(),
        [HostMsg::Error { why: Some(w), .. }] if *w == why
    ));
    assert!(!outs.contains(&HostOut::Close(1)));
    // A burst of 10 passes the bucket (each refused by the rules: not a real card);
    // the 11th in the same instant is a flood.
    for id in 1..=10 {
        let outs = host.on_message(
            1,
            ClientMsg::Act {
                id,
                action: "place AA-AA@1,1".into(),
            },
            t0,
        );
        assert!(!events(&outs)
            .iter()
            .any(|e| matches!(e, HostEvent::Notice(NetReason::RefusedFlood { .. }))));
    }
    let outs = host.on_message(
        1,
        ClientMsg::Act {
            id: 11,
            action: "discard".into(),
        },
        t0,
    );
    assert!(matches!(
        sent(&outs, 1).as_slice(),
        [HostMsg::Rejected {
            id: 11,
            why: Some(NetReason::Flood { .. }),
            ..
        }]
    ));
    // Heartbeats go out when quiet; silence from the device pauses the game.
    let outs = host.on_tick(t0 + Duration::from_secs(1));
    assert_eq!(sent(&outs, 1), vec![HostMsg::Ping]);
    let outs = host.on_tick(t0 + Duration::from_secs(5));
    assert!(outs.contains(&HostOut::Close(1)));
    assert!(matches!(
        events(&outs).as_slice(),
        [HostEvent::Paused { reason: NetReason::ConnectionLost { why } }]
            if **why == NetReason::DeviceSilent { ms: 5000 }
    ));
}

/// A welcome that cannot be written changes nothing: the seat still waits for its own
/// device with the same deadline.
#[test]
fn a_welcome_that_cannot_be_written_changes_nothing() {
    let t0 = Instant::now();
    let (mut host, token) = joined(no_countdown(), t0);
    host.on_closed(1, NetReason::DeviceClosed, t0);
    host.on_connect(2, t0);
    host.on_message(2, hello(Some(&token)), t0);
    let outs = host.welcomed(2, Err("broken pipe".into()), t0);
    assert!(matches!(
        events(&outs).as_slice(),
        [HostEvent::Notice(NetReason::LostAgain { .. })]
    ));
    let white = host.legal()[0];
    assert_eq!(
        host.act(&white, t0).0.unwrap_err().reason(),
        NetReason::Paused
    );
    let outs = host.on_tick(t0 + Duration::from_secs(60));
    assert!(matches!(
        events(&outs).as_slice(),
        [HostEvent::Ended { .. }]
    ));
}

/// A whole game over the in-memory link: both devices agree on the table and the result,
/// the match is saved after every action, and actions during the countdown are refused.
#[test]
fn a_whole_game_over_the_memory_link_ends_the_same_on_both_devices() {
    let mut sim = Sim::new(11, Timing::default()).unwrap();
    assert!(sim.joiner.connected() && !sim.failed);
    assert_eq!(sim.joiner.countdown(), Duration::from_secs(3));
    let early = legal_from_view(&sim.joiner_view())[0];
    let outs = sim.joiner.act(early, sim.now).unwrap();
    sim.joiner_do(outs);
    sim.settle();
    assert!(matches!(
        sim.joiner_events.pop(),
        Some(JoinerEvent::Rejected {
            reason: NetReason::Countdown,
            ..
        })
    ));
    sim.pass(Duration::from_secs(3));
    let mut turns = 0;
    while !sim.host.view().outcome.is_over() {
        turns += 1;
        assert!(turns < 400, "the game did not end");
        if let Some(white) = sim.host.legal().first().copied() {
            let (result, outs) = sim.host.act(&white, sim.now);
            result.unwrap();
            sim.host_do(outs);
        }
        sim.settle();
        let view = sim.joiner_view();
        if let (Some(black), None) = (legal_from_view(&view).last(), sim.joiner.pending()) {
            let outs = sim.joiner.act(*black, sim.now).unwrap();
            sim.joiner_do(outs);
        }
        sim.pass(Duration::from_millis(100));
        let saved = sim.last_save.as_ref().expect("saved after every action");
        assert_eq!(saved.saved.actions, sim.host.position().1);
    }
    let white = sim.host.view();
    let black = sim.joiner_view();
    assert_eq!(white.cells, black.cells);
    assert_eq!(white.outcome, black.outcome);
    assert_eq!(sim.records, vec![white.outcome]);
    assert!(!sim
        .joiner_events
        .iter()
        .any(|e| matches!(e, JoinerEvent::Lost(_))));
}

/// The link is cut while an action is on its way: the host never saw it, the device
/// retries (the host unreachable for 10 s), comes back within the resume time, learns
/// that nothing changed, and plays it again; it counts once.
#[test]
fn a_cut_link_heals_and_an_action_lost_on_the_way_counts_on_neither() {
    let mut sim = Sim::new(5, no_countdown()).unwrap();
    let black = legal_from_view(&sim.joiner_view())[0];
    let outs = sim.joiner.act(black, sim.now).unwrap();
    // The message is on its way; the link dies before it arrives.
    sim.joiner_do(outs);
    if let Some(l) = &sim.link {
        l.cut();
    }
    sim.reachable = false;
    sim.pass(Duration::from_secs(10));
    assert!(sim
        .host_events
        .iter()
        .any(|e| matches!(e, HostEvent::Paused { .. })));
    assert!(sim
        .joiner_events
        .iter()
        .any(|e| matches!(e, JoinerEvent::Lost(_))));
    let tries = sim
        .joiner_events
        .iter()
        .filter(|e| matches!(e, JoinerEvent::Retrying(_)))
        .count();
    assert!((9..=11).contains(&tries), "one try a second: {tries}");
    assert!(sim.host.position().1.is_empty());
    sim.reachable = true;
    sim.pass(Duration::from_secs(2));
    assert!(sim.host_events.contains(&HostEvent::Resumed));
    assert!(sim.joiner_events.contains(&JoinerEvent::Settled {
        action: black,
        applied: false
    }));
    assert_eq!(sim.joiner.pending(), None);
    let outs = sim.joiner.act(black, sim.now).unwrap();
    sim.joiner_do(outs);
    sim.settle();
    assert!(matches!(
        sim.joiner_events.last(),
        Some(JoinerEvent::Accepted { action, .. }) if *action == black
    ));
    assert_eq!(sim.host.position().1, vec![(1, black.to_string())]);
    assert_eq!(sim.host.view().cells, sim.joiner_view().cells);
}

/// The device sends its first legal card and the host reads it; what the host would do
/// next comes back not yet carried out, for the test to lose what it means to lose.
fn first_card_read_by_host(sim: &mut Sim) -> (Action, Vec<HostOut>) {
    let card = legal_from_view(&sim.joiner_view())[0];
    let outs = sim.joiner.act(card, sim.now).unwrap();
    sim.joiner_do(outs);
    let mut host_outs = Vec::new();
    let conns: Vec<ConnId> = sim.links.keys().copied().collect();
    for c in conns {
        if let Received::Msg(m) = sim.links.get_mut(&c).unwrap().recv() {
            host_outs.extend(sim.host.on_message(c, m, sim.now));
        }
    }
    (card, host_outs)
}

/// The host applied the action and its answer was lost: the device learns on coming back
/// that it was applied, and the same card is on both tables.
#[test]
fn an_action_whose_answer_is_lost_counts_on_both() {
    let mut sim = Sim::new(6, no_countdown()).unwrap();
    let (black, outs) = first_card_read_by_host(&mut sim);
    // The host applies it; the answer vanishes (a Wi-Fi gone quiet).
    sim.link.as_ref().unwrap().stall(true);
    sim.host_do(outs);
    assert_eq!(sim.host.position().1, vec![(1, black.to_string())]);
    // Both notice the silence after 5 s; the device comes back on a new link.
    sim.pass(Duration::from_secs(7));
    assert!(sim.joiner_events.contains(&JoinerEvent::Settled {
        action: black,
        applied: true
    }));
    assert!(sim.host_events.contains(&HostEvent::Resumed));
    assert_eq!(sim.host.view().cells, sim.joiner_view().cells);
    assert_eq!(sim.host.position().1.len(), 1);
}

/// A host that never comes back: the device tries for the resume time, then ends plainly
/// and forgets the seat; the host, alone, ends too and keeps the game as unfinished.
#[test]
fn nobody_back_within_the_resume_time_ends_on_both_sides() {
    let mut sim = Sim::new(8, no_countdown()).unwrap();
    let white = sim.host.legal()[0];
    let (result, outs) = sim.host.act(&white, sim.now);
    result.unwrap();
    sim.host_do(outs);
    sim.settle();
    assert!(sim.kept.is_some());
    sim.link.as_ref().unwrap().cut();
    sim.reachable = false;
    sim.pass(Duration::from_secs(61));
    assert!(sim.joiner.over());
    assert_eq!(
        sim.joiner_events.last(),
        Some(&JoinerEvent::Ended(NetReason::HostGone { secs: 60 }))
    );
    assert_eq!(sim.kept, None);
    assert!(sim.host.over());
    assert_eq!(sim.records, vec![Outcome::Ongoing]);
    assert_eq!(sim.last_save, None);
}

/// A host restarted from its save (the same match, token and `last_act`) takes its device
/// back; a device restored from its kept seat comes back with its pending action settled.
#[test]
fn both_sides_restart_from_what_they_kept() {
    let mut sim = Sim::new(9, no_countdown()).unwrap();
    let (black, outs) = first_card_read_by_host(&mut sim);
    // The host applies it and "dies" before answering; the device's app dies too: only
    // the save happens, the answer never leaves.
    for out in outs {
        if let HostOut::Save(save) = out {
            sim.last_save = Some(*save);
        }
    }
    let save = sim.last_save.clone().expect("saved");
    assert_eq!(save.last_act, 1);
    let kept = sim.kept.clone().expect("kept");
    assert_eq!(kept.pending, Some((1, black.to_string())));
    let mut restart = setup(9, no_countdown());
    restart.game = save.game().unwrap();
    restart.resume = Some(save);
    let (host, outs) = HostMatch::new(restart, sim.now).unwrap();
    sim.host = host;
    sim.links.clear();
    sim.link = None;
    sim.host_do(outs);
    sim.joiner = JoinerCore::restore(kept, no_countdown(), sim.now);
    sim.pass(Duration::from_millis(200));
    assert!(sim.joiner.connected());
    assert!(sim.joiner_events.contains(&JoinerEvent::Settled {
        action: black,
        applied: true
    }));
    assert_eq!(sim.host.view().cells, sim.joiner_view().cells);
    assert!(sim.host_events.contains(&HostEvent::Resumed));
}

/// A first join that does not work says why: refused by the host (its reason), a host
/// that closes, one that never answers, something that is not a host.
#[test]
fn a_first_join_that_fails_says_why() {
    let t0 = Instant::now();
    let cases: [(HostMsg, NetError); 2] = [
        (
            HostMsg::refused(&NetReason::WrongCode),
            NetError::Refused(NetReason::WrongCode),
        ),
        (HostMsg::Ping, NetError::Connection(NetReason::HostMute)),
    ];
    for (answer, expected) in cases {
        let (mut joiner, outs) = JoinerCore::join(CODE, Timing::default());
        assert_eq!(outs, vec![JoinerOut::Connect]);
        let outs = joiner.on_open(t0);
        assert!(matches!(
            outs.as_slice(),
            [JoinerOut::Send(ClientMsg::Hello { resume: None, .. })]
        ));
        let mut outs = joiner.on_message(answer, t0);
        outs.extend(joiner.on_tick(t0 + Duration::from_secs(5)));
        assert!(outs.contains(&JoinerOut::Failed(expected)), "{outs:?}");
        assert!(joiner.over());
    }
    let (mut joiner, _) = JoinerCore::join(CODE, Timing::default());
    joiner.on_open(t0);
    let outs = joiner.on_closed(ProtocolError::Closed.into(), t0);
    assert!(outs.contains(&JoinerOut::Failed(NetError::Connection(
        NetReason::HostClosed
    ))));
    let (mut joiner, _) = JoinerCore::join(CODE, Timing::default());
    joiner.on_open(t0);
    let outs = joiner.on_message(HostMsg::RematchOffered, t0);
    assert!(outs.contains(&JoinerOut::Failed(NetError::Connection(
        NetReason::NotAHost
    ))));
    // Nothing was kept: there is no seat to come back to.
    assert!(!outs.iter().any(|o| matches!(o, JoinerOut::Keep(_))));
}
