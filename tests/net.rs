//! Two-device Omiga on loopback (127.0.0.1 only): pairing, a whole game and a rematch, a
//! simultaneous placement, drop and resume, every bad input of issue 6, and the raw bytes
//! the joined device receives.

use hotseat::games::omiga::{full_deck, Act, Action, OmigaError, OmigaView};
use hotseat::games::Outcome;
use hotseat::net::protocol::{decode_host, ClientMsg, HostMsg, LineReader, Read1, MAX_LINE};
use hotseat::net::saved::{self, SeatSave};
use hotseat::net::{
    legal_from_view, Client, ClientEvent, Host, HostConfig, HostEvent, Joiner, JoinerEvent,
    NetError, NetReason, RateLimit, Timing,
};
use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

const CODE: &str = "4821";

fn fast() -> Timing {
    Timing {
        heartbeat: Duration::from_millis(50),
        silent_after: Duration::from_millis(1500),
        hello_within: Duration::from_millis(1500),
        resume_within: Duration::from_secs(3),
        countdown: Duration::ZERO,
    }
}

fn start_host(seed: u64, timing: Timing) -> Host {
    let mut config = HostConfig::new("127.0.0.1:0".parse().unwrap(), CODE, seed);
    config.timing = timing;
    // These tests play as fast as the machine allows; the flood test has its own host.
    config.rate = RateLimit {
        burst: 1000.0,
        per_second: 100_000.0,
    };
    Host::start(config).unwrap()
}

/// The next host event that `pick` accepts, skipping others; panics after 5 s.
fn expect_host(host: &Host, mut pick: impl FnMut(&HostEvent) -> bool) -> HostEvent {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match host.events().recv_timeout(left) {
            Ok(e) if pick(&e) => return e,
            Ok(_) => {}
            Err(_) => panic!("the host event did not come"),
        }
    }
}

fn expect_client(client: &Client, mut pick: impl FnMut(&ClientEvent) -> bool) -> ClientEvent {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match client.events().recv_timeout(left) {
            Ok(e) if pick(&e) => return e,
            Ok(_) => {}
            Err(_) => panic!("the client event did not come"),
        }
    }
}

/// A hand-driven connection that sends any bytes and keeps every byte it receives.
struct Raw {
    stream: TcpStream,
    reader: LineReader<TcpStream>,
    bytes: Vec<u8>,
}

impl Raw {
    fn connect(host: &Host) -> Raw {
        let stream = TcpStream::connect(host.addr()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        let reader = LineReader::new(stream.try_clone().unwrap());
        Raw {
            stream,
            reader,
            bytes: Vec::new(),
        }
    }

    fn hello(host: &Host) -> (Raw, OmigaView) {
        let mut raw = Raw::connect(host);
        raw.send(&ClientMsg::Hello {
            version: 1,
            code: CODE.into(),
            resume: None,
        });
        match raw.recv() {
            Some(HostMsg::Welcome { view, .. }) => (raw, view),
            other => panic!("expected welcome, got {other:?}"),
        }
    }

    fn send(&mut self, msg: &ClientMsg) {
        let line = hotseat::net::protocol::encode(msg);
        self.stream.write_all(&line).unwrap();
    }

    fn write(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    /// The next message other than a heartbeat; `None` when the host closed the connection.
    fn recv(&mut self) -> Option<HostMsg> {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            match self.reader.read_line() {
                Ok(Read1::Line(line)) => {
                    self.bytes.extend_from_slice(&line);
                    self.bytes.push(b'\n');
                    match decode_host(&line).unwrap() {
                        HostMsg::Ping => {}
                        msg => return Some(msg),
                    }
                }
                Ok(Read1::Idle) => {
                    // Keep the connection alive like a real client.
                    let _ = self
                        .stream
                        .write_all(&hotseat::net::protocol::encode(&ClientMsg::Ping));
                }
                Err(_) => return None,
            }
        }
        panic!("no message from the host within 5 s")
    }
}

fn place_of(action: &Action) -> Option<(i32, i32)> {
    match *action {
        Action::Place { x, y, .. } => Some((x, y)),
        Action::Discard => None,
    }
}

/// The other seat's copy of an act: a placement is the same, a discard hides its cards.
fn assert_public_copy(seen: &Act, done: &Act) {
    match (seen, done) {
        (Act::Discarded { count, cards }, Act::Discarded { count: n, .. }) => {
            assert_eq!((count, cards), (n, &None));
        }
        _ => assert_eq!(seen, done),
    }
}

#[test]
fn only_the_right_code_joins_and_a_second_joiner_is_refused() {
    let host = start_host(7, fast());
    let wrong = Client::join(host.addr(), "1111", fast()).err().unwrap();
    assert_eq!(wrong.to_string(), "wrong join code");
    // Typed, so the joining phone words it in its player's language.
    assert_eq!(wrong, NetError::Refused(NetReason::WrongCode));
    expect_host(&host, |e| {
        *e == HostEvent::Notice(NetReason::RefusedDevice {
            why: Box::new(NetReason::WrongCode),
        })
    });
    let client = Client::join(host.addr(), CODE, fast()).unwrap();
    assert_eq!(client.seat(), 1);
    assert_eq!(client.first_view().seat, 1);
    expect_host(&host, |e| *e == HostEvent::Joined);
    let second = Client::join(host.addr(), CODE, fast()).err().unwrap();
    assert!(second.to_string().contains("already joined"), "{second}");
    // The first device still plays.
    let view = client.first_view().clone();
    let action = legal_from_view(&view)[0];
    client
        .act_and_wait(&action, Duration::from_secs(5), |_| {})
        .unwrap();
}

#[test]
fn a_whole_game_is_played_and_a_rematch_needs_no_pairing() {
    let host = start_host(11, fast());
    let client = Client::join(host.addr(), CODE, fast()).unwrap();
    let mut black = client.first_view().clone();
    let mut turns = 0;
    let outcome = loop {
        turns += 1;
        assert!(turns < 400, "the game did not end");
        // White acts; Black sees it.
        let white = host.legal().unwrap();
        if let Some(a) = white.first() {
            let event = host.act(*a).unwrap();
            let ClientEvent::OpponentActed { event: seen, view } =
                expect_client(&client, |e| matches!(e, ClientEvent::OpponentActed { .. }))
            else {
                unreachable!()
            };
            assert_public_copy(&seen.act, &event.act);
            black = view;
            if event.outcome.is_over() {
                break event.outcome;
            }
        }
        let legal = legal_from_view(&black);
        if let Some(a) = legal.last() {
            let (event, view) = client
                .act_and_wait(a, Duration::from_secs(5), |_| {})
                .unwrap();
            black = view;
            let HostEvent::OpponentActed { event: seen, .. } =
                expect_host(&host, |e| matches!(e, HostEvent::OpponentActed { .. }))
            else {
                unreachable!()
            };
            assert_public_copy(&seen.act, &event.act);
            if event.outcome.is_over() {
                break event.outcome;
            }
        }
    };
    assert!(outcome.is_over());
    assert_eq!(host.view().unwrap().outcome, outcome);
    assert_eq!(black.outcome, outcome);
    let (_, actions) = host.position().unwrap();
    assert!(actions.len() >= 2);
    // Once over, no more actions; a rematch needs both, then deals a new game.
    assert!(host
        .act(
            host.legal()
                .unwrap()
                .first()
                .copied()
                .unwrap_or(Action::Discard)
        )
        .is_err());
    client.rematch().unwrap();
    expect_host(&host, |e| *e == HostEvent::RematchOffered);
    host.rematch().unwrap();
    let ClientEvent::Started { game, view, .. } =
        expect_client(&client, |e| matches!(e, ClientEvent::Started { .. }))
    else {
        unreachable!()
    };
    assert_eq!(game, 2);
    assert_eq!(view.outcome, Outcome::Ongoing);
    assert_eq!(view.cells.len(), 2);
    expect_host(&host, |e| matches!(e, HostEvent::Started { game: 2, .. }));
    let a = legal_from_view(&view)[0];
    client
        .act_and_wait(&a, Duration::from_secs(5), |_| {})
        .unwrap();
}

#[test]
fn a_simultaneous_placement_on_one_cell_is_refused_for_the_later_one() {
    let host = start_host(3, fast());
    let client = Client::join(host.addr(), CODE, fast()).unwrap();
    let mut black = client.first_view().clone();
    // Play until both seats can place on one cell.
    for _ in 0..60 {
        let white = host.legal().unwrap();
        let mine = legal_from_view(&black);
        let shared = white.iter().find_map(|w| {
            let cell = place_of(w)?;
            mine.iter()
                .find(|b| place_of(b) == Some(cell))
                .map(|b| (*w, *b))
        });
        if let Some((w, b)) = shared {
            // Both send at once; the host applies them in arrival order.
            let id = client.act(&b).unwrap();
            let white_result = host.act(w);
            let answer = expect_client(
                &client,
                |e| matches!(e, ClientEvent::Accepted { id: i, .. } | ClientEvent::Rejected { id: i, .. } if *i == id),
            );
            match (white_result, answer) {
                (Ok(_), ClientEvent::Rejected { reason, .. }) => {
                    // The rules core's refusal arrives typed.
                    assert!(reason.rule().is_some(), "{reason:?}");
                    let reason = reason.to_string();
                    assert!(
                        reason.contains("taken")
                            || reason.contains("occupied")
                            || reason.contains("empty"),
                        "{reason}"
                    )
                }
                (Err(e), ClientEvent::Accepted { .. }) => {
                    let e = e.to_string();
                    assert!(
                        e.contains("taken") || e.contains("occupied") || e.contains("empty"),
                        "{e}"
                    )
                }
                (w, b) => panic!("exactly one placement must win: {w:?} / {b:?}"),
            }
            let view = host.view().unwrap();
            let (x, y) = place_of(&w).unwrap();
            let cell = view
                .cells
                .iter()
                .filter(|c| (i32::from(c.x), i32::from(c.y)) == (x, y))
                .count();
            assert_eq!(cell, 1);
            return;
        }
        let Some(a) = white.first() else { break };
        if host.act(*a).unwrap().outcome.is_over() {
            break;
        }
        let ClientEvent::OpponentActed { view, .. } =
            expect_client(&client, |e| matches!(e, ClientEvent::OpponentActed { .. }))
        else {
            unreachable!()
        };
        black = view;
        if let Some(b) = legal_from_view(&black).last() {
            let (event, view) = client
                .act_and_wait(b, Duration::from_secs(5), |_| {})
                .unwrap();
            black = view;
            if event.outcome.is_over() {
                break;
            }
        }
    }
    panic!("seed 3 never offered both seats one cell");
}

#[test]
fn a_dropped_device_resumes_where_it_was() {
    let host = start_host(5, fast());
    let client = Client::join(host.addr(), CODE, fast()).unwrap();
    let a = legal_from_view(client.first_view())[0];
    client
        .act_and_wait(&a, Duration::from_secs(5), |_| {})
        .unwrap();
    let (before, actions) = host.position().unwrap();
    client.drop_connection();
    let HostEvent::Paused { reason } =
        expect_host(&host, |e| matches!(e, HostEvent::Paused { .. }))
    else {
        unreachable!()
    };
    assert!(
        reason.to_string().starts_with("Connection lost — waiting"),
        "{reason}"
    );
    // While paused, nobody plays, and only the same device may come back.
    let white = host.legal().unwrap()[0];
    assert!(host.act(white).unwrap_err().to_string().contains("paused"));
    let stranger = Client::join(host.addr(), CODE, fast()).err().unwrap();
    assert!(
        stranger.to_string().contains("waiting for its own player"),
        "{stranger}"
    );
    let back = client.resume(fast()).unwrap();
    expect_host(&host, |e| *e == HostEvent::Resumed);
    assert_eq!(host.position().unwrap(), (before, actions));
    assert_eq!(back.first_view(), &host_view_for_black(&host));
    host.act(white).unwrap();
    expect_client(&back, |e| matches!(e, ClientEvent::OpponentActed { .. }));
}

/// Black's view as the host's own next messages show it: via a fresh update.
fn host_view_for_black(host: &Host) -> OmigaView {
    let (position, _) = host.position().unwrap();
    use hotseat::games::Game;
    hotseat::games::omiga::Omiga::from_position(&position)
        .unwrap()
        .view(1)
}

#[test]
fn a_device_that_does_not_come_back_in_time_ends_the_game() {
    let mut timing = fast();
    timing.resume_within = Duration::from_millis(300);
    let host = start_host(5, timing);
    let client = Client::join(host.addr(), CODE, timing).unwrap();
    client.drop_connection();
    expect_host(&host, |e| matches!(e, HostEvent::Paused { .. }));
    let HostEvent::Ended { reason } = expect_host(&host, |e| matches!(e, HostEvent::Ended { .. }))
    else {
        unreachable!()
    };
    assert!(reason.to_string().contains("did not come back"), "{reason}");
    let late = client.resume(timing).err().unwrap();
    assert!(late.to_string().contains("over"), "{late}");
    // Nothing was corrupted: the position is still the dealt one.
    assert!(host.position().unwrap().1.is_empty());
}

#[test]
fn bad_first_messages_are_refused_with_a_reason() {
    let host = start_host(1, fast());
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"{not json\n".to_vec(), "malformed"),
        (
            b"{\"type\":\"hello\",\"version\":99,\"code\":\"4821\"}\n".to_vec(),
            "protocol version 1",
        ),
        (b"{\"type\":\"ping\"}\n".to_vec(), "say hello first"),
        (vec![b'x'; MAX_LINE + 10], "longer than"),
    ];
    for (bytes, reason) in cases {
        let mut raw = Raw::connect(&host);
        raw.write(&bytes);
        match raw.recv() {
            Some(HostMsg::Refused { reason: got, why }) => {
                assert!(got.contains(reason), "{got}");
                // The typed reason says the same as the English.
                assert_eq!(why.map(|w| w.to_string()), Some(got));
            }
            other => panic!("{reason}: {other:?}"),
        }
        assert_eq!(raw.recv(), None, "the connection is closed after a refusal");
    }
    // A peer that connects and says nothing is timed out.
    let mut silent = Raw::connect(&host);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(5);
    let refused = loop {
        match silent.reader.read_line() {
            Ok(Read1::Line(line)) => break decode_host(&line).unwrap(),
            Ok(Read1::Idle) if Instant::now() < deadline => {}
            other => panic!("{other:?}"),
        }
    };
    assert!(
        matches!(refused, HostMsg::Refused { ref reason, why: Some(NetReason::NoHello { .. }) } if reason.contains("no hello"))
    );
    // The host still pairs after all that.
    Client::join(host.addr(), CODE, fast()).unwrap();
}

#[test]
fn bad_messages_in_play_are_refused_and_lose_nothing() {
    let mut config = HostConfig::new("127.0.0.1:0".parse().unwrap(), CODE, 9);
    config.timing = fast();
    let host = Host::start(config).unwrap();
    let (mut raw, view) = Raw::hello(&host);
    expect_host(&host, |e| *e == HostEvent::Joined);
    // Malformed JSON: an error, and the connection stays.
    raw.write(b"{\"type\":\"act\",\"id\":\n");
    assert!(
        matches!(raw.recv(), Some(HostMsg::Error { reason, .. }) if reason.contains("malformed"))
    );
    // An action that is not notation, and a card Black does not hold (White's): refused.
    raw.send(&ClientMsg::Act {
        id: 1,
        action: "fly".into(),
    });
    assert!(
        matches!(raw.recv(), Some(HostMsg::Rejected { id: 1, reason, why: None }) if reason.contains("not an Omiga action"))
    );
    let white_only = host
        .view()
        .unwrap()
        .hand
        .into_iter()
        .find(|c| !view.hand.contains(c))
        .unwrap();
    let steal = format!("place {white_only}@4,6");
    raw.send(&ClientMsg::Act {
        id: 2,
        action: steal,
    });
    match raw.recv() {
        Some(HostMsg::Rejected {
            id: 2,
            reason,
            why: Some(why),
        }) => {
            assert!(reason.contains("hand"), "{reason}");
            assert!(
                matches!(
                    why,
                    NetReason::Omiga {
                        refusal: OmigaError::NotInHand { .. }
                    }
                ),
                "{why:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    // A second hello is refused, the connection stays.
    raw.send(&ClientMsg::Hello {
        version: 1,
        code: CODE.into(),
        resume: None,
    });
    assert!(matches!(raw.recv(), Some(HostMsg::Error { .. })));
    let (position, actions) = host.position().unwrap();
    assert!(actions.is_empty());
    // A flood: far more actions than the limit, at once; the excess is refused.
    let flood: Vec<u8> = (100..400)
        .flat_map(|id| {
            hotseat::net::protocol::encode(&ClientMsg::Act {
                id,
                action: "place DD-GG@0,0".into(),
            })
        })
        .collect();
    raw.write(&flood);
    let mut too_many = 0;
    for _ in 100..400 {
        match raw.recv() {
            Some(HostMsg::Rejected { reason, .. }) if reason.contains("too many actions") => {
                too_many += 1
            }
            Some(HostMsg::Rejected { .. }) => {}
            other => panic!("{other:?}"),
        }
    }
    assert!(too_many >= 250, "{too_many} refused as a flood");
    assert_eq!(host.position().unwrap(), (position.clone(), Vec::new()));
    // A peer that vanishes mid-line: the game pauses and keeps its position.
    raw.write(b"{\"type\":\"act\",\"id\":5,\"act");
    raw.stream.shutdown(Shutdown::Both).unwrap();
    let HostEvent::Paused { reason } =
        expect_host(&host, |e| matches!(e, HostEvent::Paused { .. }))
    else {
        unreachable!()
    };
    assert!(
        reason.to_string().contains("middle of a message"),
        "{reason}"
    );
    assert_eq!(host.position().unwrap(), (position, Vec::new()));
}

#[test]
fn an_oversized_line_or_silence_in_play_drops_the_connection_and_the_game_waits() {
    let host = start_host(9, fast());
    let (mut raw, _) = Raw::hello(&host);
    let mut big = vec![b' '; MAX_LINE + 100];
    big.push(b'\n');
    raw.write(&big);
    let HostEvent::Paused { reason } =
        expect_host(&host, |e| matches!(e, HostEvent::Paused { .. }))
    else {
        unreachable!()
    };
    assert!(reason.to_string().contains("longer than"), "{reason}");
    let host = start_host(9, fast());
    let mut quiet = TcpStream::connect(host.addr()).unwrap();
    quiet
        .write_all(&hotseat::net::protocol::encode(&ClientMsg::Hello {
            version: 1,
            code: CODE.into(),
            resume: None,
        }))
        .unwrap();
    // No heartbeat from here on.
    let HostEvent::Paused { reason } =
        expect_host(&host, |e| matches!(e, HostEvent::Paused { .. }))
    else {
        unreachable!()
    };
    assert!(reason.to_string().contains("silent"), "{reason}");
}

#[test]
fn the_joined_device_never_receives_the_other_hand_or_any_deck() {
    // A position where White's cards and Black's cards are different cards, so that any
    // White card name in Black's bytes is a leak unless White laid it on the table.
    let deck: Vec<String> = full_deck()
        .iter()
        .map(|c| c.to_string())
        .filter(|c| c != "PD-GG" && c != "DN-GG")
        .collect();
    let white: Vec<&str> = deck.iter().step_by(2).map(String::as_str).collect();
    let black: Vec<&str> = deck.iter().skip(1).step_by(2).map(String::as_str).collect();
    let position = format!(
        "table=9x10 cells=4,4:w:PD-GG;4,5:b:DN-GG hands={}|{} decks={}|{}",
        white[..3].join(","),
        black[..3].join(","),
        white[3..].join(","),
        black[3..].join(",")
    );
    let mut config = HostConfig::new("127.0.0.1:0".parse().unwrap(), CODE, 1);
    config.timing = fast();
    config.position = Some(position);
    let host = Host::start(config).unwrap();
    let (mut raw, mut view) = Raw::hello(&host);
    let mut moves = 0;
    for round in 0..12 {
        if let Some(w) = host.legal().unwrap().first() {
            if host.act(*w).is_ok() {
                moves += 1;
                if let Some(HostMsg::Update { view: v, .. }) = raw.recv() {
                    view = v;
                }
            }
        }
        if let Some(b) = legal_from_view(&view).first() {
            // Numbers grow: the host applies each number once.
            raw.send(&ClientMsg::Act {
                id: round + 1,
                action: b.to_string(),
            });
            match raw.recv() {
                Some(HostMsg::Accepted { view: v, .. }) => {
                    moves += 1;
                    view = v;
                }
                other => panic!("{other:?}"),
            }
        }
        if view.outcome.is_over() {
            break;
        }
    }
    assert!(moves >= 4, "only {moves} actions were played");
    let text = String::from_utf8(raw.bytes.clone()).unwrap();
    let on_table: Vec<String> = host
        .view()
        .unwrap()
        .cells
        .iter()
        .map(|c| c.card.to_string())
        .collect();
    for card in &white {
        // A laid card may be turned; both spellings count as on the table.
        let turned: String = {
            let c: hotseat::games::omiga::Card = card.parse().unwrap();
            c.turned().to_string()
        };
        if on_table.contains(&card.to_string()) || on_table.contains(&turned) {
            continue;
        }
        assert!(!text.contains(card), "White's {card} reached Black: {text}");
    }
    assert!(!text.contains("\"hands\"") && !text.contains("\"decks\""));
    assert!(text.contains("\"hand_sizes\"") && text.contains("\"deck_counts\""));
}

#[test]
fn the_countdown_holds_actions_and_a_host_that_leaves_ends_the_pairing() {
    let mut timing = fast();
    timing.countdown = Duration::from_millis(400);
    let host = start_host(2, timing);
    let client = Client::join(host.addr(), CODE, timing).unwrap();
    assert!(client.countdown() > Duration::from_millis(200));
    let a = legal_from_view(client.first_view())[0];
    let early = client
        .act_and_wait(&a, Duration::from_secs(5), |_| {})
        .unwrap_err();
    assert!(early.to_string().contains("countdown"), "{early}");
    let w = host.legal().unwrap()[0];
    assert!(host.act(w).unwrap_err().to_string().contains("countdown"));
    std::thread::sleep(Duration::from_millis(450));
    client
        .act_and_wait(&a, Duration::from_secs(5), |_| {})
        .unwrap();
    host.leave();
    let ClientEvent::Ended(reason) = expect_client(&client, |e| matches!(e, ClientEvent::Ended(_)))
    else {
        unreachable!()
    };
    assert_eq!(reason, NetReason::HostLeft);
    assert!(reason.to_string().contains("host left"), "{reason}");
}

/// Polls the joiner until `done` says so; every event seen is returned.
fn joiner_until(
    joiner: &mut Joiner,
    mut done: impl FnMut(&JoinerEvent) -> bool,
) -> Vec<JoinerEvent> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        for e in joiner.poll(Duration::from_millis(20)) {
            let stop = done(&e);
            seen.push(e);
            if stop {
                return seen;
            }
        }
    }
    panic!("the joiner never got there: {seen:#?}");
}

#[test]
fn an_action_whose_answer_is_lost_is_on_both_devices_or_neither() {
    for seed in 0..4 {
        let host = start_host(seed, fast());
        let mut joiner = Joiner::join(host.addr(), CODE, fast(), None).unwrap();
        let action = joiner.legal()[0];
        joiner.act(action).unwrap();
        // The connection is cut right behind the action: its answer is lost, and whether
        // the host got the action first is up to the race.
        joiner.drop_connection();
        let seen = joiner_until(&mut joiner, |e| {
            matches!(
                e,
                JoinerEvent::Settled { .. } | JoinerEvent::Accepted { .. }
            )
        });
        let applied = match seen.last() {
            Some(JoinerEvent::Settled { applied, .. }) => *applied,
            _ => true,
        };
        assert!(seen.contains(&JoinerEvent::Resumed), "{seen:?}");
        let (_, actions) = host.position().unwrap();
        assert_eq!(
            actions.contains(&(1, action.to_string())),
            applied,
            "seed {seed}: {seen:?}"
        );
        // Whatever happened, both devices see the same game.
        assert_eq!(joiner.view(), Some(&host_view_for_black(&host)));
        assert!(joiner.pending().is_none());
    }
}

#[test]
fn a_restarted_joiner_learns_that_its_unsent_action_was_not_applied() {
    let dir = std::env::temp_dir().join(format!("hotseat-net-seat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let host = start_host(9, fast());
    let mut joiner = Joiner::join(host.addr(), CODE, fast(), Some(dir.clone())).unwrap();
    let first = joiner.legal()[0];
    joiner.act(first).unwrap();
    joiner_until(&mut joiner, |e| matches!(e, JoinerEvent::Accepted { .. }));
    let next = joiner.legal()[0];
    // The app dies after keeping the action on disk and before it left the device.
    let mut seat: SeatSave = saved::load_seat(&dir).unwrap().unwrap();
    seat.pending = Some((seat.next_id, next.to_string()));
    seat.next_id += 1;
    saved::save_seat(&dir, &seat).unwrap();
    drop(joiner);
    expect_host(&host, |e| matches!(e, HostEvent::Paused { .. }));
    let mut again = Joiner::restore(dir.clone(), fast()).unwrap().unwrap();
    let seen = joiner_until(&mut again, |e| matches!(e, JoinerEvent::Settled { .. }));
    assert_eq!(
        seen.last(),
        Some(&JoinerEvent::Settled {
            action: next,
            applied: false
        })
    );
    expect_host(&host, |e| *e == HostEvent::Resumed);
    let (_, actions) = host.position().unwrap();
    assert_eq!(actions, vec![(1, first.to_string())]);
    // It may be played now, and it counts once.
    again.act(next).unwrap();
    joiner_until(&mut again, |e| matches!(e, JoinerEvent::Accepted { .. }));
    assert_eq!(host.position().unwrap().1.len(), 2);
    again.leave();
    assert!(saved::load_seat(&dir).unwrap().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_comeback_that_its_device_abandoned_is_not_taken_for_the_device() {
    let host = start_host(5, fast());
    let client = Client::join(host.addr(), CODE, fast()).unwrap();
    client.drop_connection();
    expect_host(&host, |e| matches!(e, HostEvent::Paused { .. }));
    // Two tries queued while the host was busy, given up by their device: one closed
    // before the host read its hello, one that took the welcome and never spoke.
    let mut gone = Raw::connect(&host);
    gone.send(&ClientMsg::Hello {
        version: 1,
        code: CODE.into(),
        resume: Some(client.token().into()),
    });
    gone.stream.shutdown(Shutdown::Both).unwrap();
    let silent = TcpStream::connect(host.addr()).unwrap();
    (&silent)
        .write_all(&hotseat::net::protocol::encode(&ClientMsg::Hello {
            version: 1,
            code: CODE.into(),
            resume: Some(client.token().into()),
        }))
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    drop(silent);
    std::thread::sleep(Duration::from_millis(300));
    let said: Vec<HostEvent> = host.events().try_iter().collect();
    assert!(!said.contains(&HostEvent::Resumed), "{said:?}");
    // The device itself comes back, and only that is told.
    let _back = client.resume(fast()).unwrap();
    expect_host(&host, |e| *e == HostEvent::Resumed);
}
