//! The native data channel over real UDP on this machine's loopback: the texts a player
//! would carry, a whole Omiga game through the page drivers, and the channel's rules.

use super::*;
use crate::games::omiga::Action;
use crate::net::host_match::MatchSetup;
use crate::net::joiner::JoinerEvent;
use crate::net::page::{PageHost, PageJoiner, RTC_TIMING};
use crate::net::pairing::{self, PairingKind};
use crate::net::protocol::{ClientMsg, HostMsg};
use crate::net::{legal_from_view, HostEvent};
use std::net::Ipv4Addr;

const LOOPBACK: [IpAddr; 1] = [IpAddr::V4(Ipv4Addr::LOCALHOST)];

/// Polls both sides until `done` or 10 s (real time: real sockets).
fn poll_until(
    a: &mut NativePairing,
    b: &mut NativePairing,
    mut done: impl FnMut(&NativePairing, &NativePairing) -> bool,
) -> bool {
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        a.poll(Instant::now());
        b.poll(Instant::now());
        if done(a, b) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// The host's offer and the joiner's answer carried as the players carry them: each
/// side's SDP through its pairing text and back. Returns both open pairings.
fn paired(code: &str) -> (NativePairing, NativePairing) {
    let now = Instant::now();
    let mut host = NativePairing::offer(&LOOPBACK, now).expect("an offer on loopback");
    let offer_text = pairing::encode(PairingKind::Offer, host.local_sdp(), Some(code))
        .unwrap_or_else(|e| panic!("{e}\n{}", host.local_sdp()));
    let offer = pairing::decode(&offer_text)
        .and_then(|p| p.expect(PairingKind::Offer))
        .expect("the offer text reads back");
    assert_eq!(offer.join_code.as_deref(), Some(code));
    let mut join = NativePairing::answer(&offer.sdp, &LOOPBACK, now)
        .unwrap_or_else(|e| panic!("{e}\n{}", offer.sdp));
    let answer_text = pairing::encode(PairingKind::Answer, join.local_sdp(), None)
        .unwrap_or_else(|e| panic!("{e}\n{}", join.local_sdp()));
    let answer = pairing::decode(&answer_text)
        .and_then(|p| p.expect(PairingKind::Answer))
        .expect("the answer text reads back");
    host.take_answer(&answer.sdp)
        .unwrap_or_else(|e| panic!("{e}\n{}", answer.sdp));
    assert!(
        poll_until(&mut host, &mut join, |h, j| h.is_open() && j.is_open()),
        "the data channel opened: {:?} {:?}",
        host.failure(),
        join.failure()
    );
    (host, join)
}

/// str0m's offer and answer go through the pairing text (within a QR code's reach) and
/// come back with the same credentials, fingerprint, role and address; an answer that is
/// not an SDP, or a second answer, is refused with a reason.
#[test]
fn str0m_offers_and_answers_round_trip_through_the_pairing_text() {
    let now = Instant::now();
    let mut host = NativePairing::offer(&LOOPBACK, now).unwrap();
    let sdp = host.local_sdp().to_string();
    let text = pairing::encode(PairingKind::Offer, &sdp, Some("4821")).unwrap();
    assert!(text.len() <= pairing::MAX_QR_CHARS, "{text}");
    let back = pairing::decode(&text).unwrap();
    for field in ["a=ice-ufrag:", "a=ice-pwd:", "a=fingerprint:", "a=setup:"] {
        let line = |s: &str| s.lines().find(|l| l.starts_with(field)).map(str::to_string);
        assert_eq!(line(&sdp), line(&back.sdp), "{field}\n{sdp}\n{}", back.sdp);
    }
    let port = sdp
        .lines()
        .find(|l| l.starts_with("a=candidate:"))
        .and_then(|l| l.split(' ').nth(5))
        .unwrap()
        .to_string();
    assert!(
        back.sdp.contains(&format!("127.0.0.1 {port} typ host")),
        "{}",
        back.sdp
    );
    assert!(matches!(
        host.take_answer("not an sdp"),
        Err(NativeRtcError::Refused(_))
    ));
    // The refusal leaves the offer waiting: the real answer is taken in, once.
    let join = NativePairing::answer(&back.sdp, &LOOPBACK, now).unwrap();
    let answer = pairing::encode(PairingKind::Answer, join.local_sdp(), None).unwrap();
    let answer = pairing::decode(&answer).unwrap();
    assert!(answer.sdp.contains("a=setup:"), "{}", answer.sdp);
    assert_eq!(host.take_answer(&answer.sdp), Ok(()));
    assert_eq!(
        host.take_answer(&answer.sdp),
        Err(NativeRtcError::NotWaiting)
    );
    assert_eq!(
        NativePairing::offer(&[], now).err(),
        Some(NativeRtcError::NoAddress)
    );
    assert!(matches!(
        NativePairing::answer("v=0\r\nnonsense", &LOOPBACK, now),
        Err(NativeRtcError::Refused(_))
    ));
}

fn host_page(now: Instant) -> PageHost<NativeChannel<HostMsg, ClientMsg>> {
    // The in-memory pairings' deal and code; nothing kept on disk.
    let setup = MatchSetup {
        keeps: false,
        ..crate::net::mem_pair::setup(11, RTC_TIMING).unwrap()
    };
    PageHost::new(setup, None, now).unwrap()
}

type Host = PageHost<NativeChannel<HostMsg, ClientMsg>>;
type Join = PageJoiner<NativeChannel<ClientMsg, HostMsg>>;

/// Steps both drivers for `d` of real time.
fn run(h: &mut Host, j: &mut Join, d: Duration) -> (Vec<HostEvent>, Vec<JoinerEvent>) {
    let (mut he, mut je) = (Vec::new(), Vec::new());
    let end = Instant::now() + d;
    loop {
        he.extend(h.step(Instant::now()));
        je.extend(j.step(Instant::now()));
        if Instant::now() >= end {
            return (he, je);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Steps both drivers until the joiner hears an answer to its action (at most 5 s).
fn until_answered(h: &mut Host, j: &mut Join) -> (Vec<HostEvent>, Vec<JoinerEvent>) {
    let (mut he, mut je) = (Vec::new(), Vec::new());
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end && j.pending().is_some() {
        let (h2, j2) = run(h, j, Duration::from_millis(1));
        he.extend(h2);
        je.extend(j2);
    }
    (he, je)
}

/// Two apps paired by texts over real UDP play a whole Omiga game through the page
/// drivers: every action answered, both tables and the result equal at the end; then
/// the host leaves and the joiner hears it.
#[test]
fn two_apps_over_webrtc_play_a_whole_game() {
    let (host, join) = paired("4821");
    let (Ok(hc), Ok(jc)) = (host.channel(), join.channel()) else {
        panic!("both channels open");
    };
    let now = Instant::now();
    let mut h = host_page(now);
    h.connect(hc, now);
    let mut j: Join = PageJoiner::join(h.code(), RTC_TIMING, jc, None, now);
    let end = Instant::now() + Duration::from_secs(5);
    while !(j.connected() && h.has_device()) && Instant::now() < end {
        run(&mut h, &mut j, Duration::from_millis(5));
    }
    assert!(j.connected() && h.has_device(), "the joiner was welcomed");
    run(
        &mut h,
        &mut j,
        RTC_TIMING.countdown + Duration::from_millis(100),
    );

    let mut turns = 0;
    let mut trips = Vec::new();
    while !h.view().outcome.is_over() {
        turns += 1;
        assert!(turns < 400, "the game did not end");
        let white = h.legal();
        let place = white.iter().find(|a| matches!(a, Action::Place { .. }));
        if let Some(a) = place.or(white.first()) {
            h.act(a, Instant::now()).unwrap();
        }
        // The joiner sees the host's move before it may move.
        let end = Instant::now() + Duration::from_secs(5);
        while j.view().map(|v| v.cells.len()) != Some(h.view().cells.len()) && Instant::now() < end
        {
            run(&mut h, &mut j, Duration::from_millis(1));
        }
        if h.view().outcome.is_over() {
            break;
        }
        let black = legal_from_view(j.view().unwrap());
        let place = black.iter().find(|a| matches!(a, Action::Place { .. }));
        let sent = Instant::now();
        j.act(*place.or(black.first()).unwrap(), sent).unwrap();
        let (he, je) = until_answered(&mut h, &mut j);
        trips.push(sent.elapsed());
        assert!(
            !he.iter().any(|e| matches!(e, HostEvent::Paused { .. })),
            "{he:?}"
        );
        assert!(
            je.iter().any(|e| matches!(e, JoinerEvent::Accepted { .. })),
            "{je:?}"
        );
    }
    let end = Instant::now() + Duration::from_secs(5);
    while j.view().map(|v| &v.outcome) != Some(&h.view().outcome) && Instant::now() < end {
        run(&mut h, &mut j, Duration::from_millis(5));
    }
    assert_eq!(j.view().unwrap().outcome, h.view().outcome);
    assert_eq!(j.view().unwrap().cells, h.view().cells);
    trips.sort();
    eprintln!(
        "native-native over loopback: {} actions, round trip median {:?}, max {:?}",
        trips.len(),
        trips[trips.len() / 2],
        trips[trips.len() - 1]
    );
}

/// The channel's rules, as the browser's: a whole message each way, binary data
/// unreadable with the link kept, a message over 16 KiB ends the link, and a closed end
/// is seen closed by the other.
#[test]
fn the_channel_keeps_the_browsers_rules() {
    let (host, join) = paired("1234");
    let (Ok(mut hc), Ok(mut jc)) = (
        host.channel::<HostMsg, ClientMsg>(),
        join.channel::<ClientMsg, HostMsg>(),
    ) else {
        panic!("both channels open");
    };
    // The sender is polled too, as its driver does: SCTP sends a long message as the
    // other side's acknowledgements come in.
    fn recv(
        c: &mut NativeChannel<HostMsg, ClientMsg>,
        from: &mut NativeChannel<ClientMsg, HostMsg>,
    ) -> Received<ClientMsg> {
        let end = Instant::now() + Duration::from_secs(5);
        loop {
            from.engine.as_mut().unwrap().poll(Instant::now());
            match c.recv() {
                Received::Nothing if Instant::now() < end => {
                    std::thread::sleep(Duration::from_millis(1))
                }
                other => return other,
            }
        }
    }
    jc.send(&ClientMsg::Ping).unwrap();
    assert_eq!(recv(&mut hc, &mut jc), Received::Msg(ClientMsg::Ping));
    // Binary data straight through str0m: unreadable, and the link stays.
    // Bytes written on the channel as they are, past the channel's own checks.
    fn write_raw(c: &mut NativeChannel<ClientMsg, HostMsg>, binary: bool, bytes: &[u8]) {
        let engine = c.engine.as_mut().unwrap();
        let id = engine.channel.unwrap();
        let wrote = engine.rtc.channel(id).unwrap().write(binary, bytes);
        assert_eq!(wrote.ok(), Some(true));
        engine.drain();
    }
    write_raw(&mut jc, true, b"{}");
    assert_eq!(
        recv(&mut hc, &mut jc),
        Received::Bad(ProtocolError::NotText)
    );
    jc.send(&ClientMsg::Ping).unwrap();
    assert_eq!(recv(&mut hc, &mut jc), Received::Msg(ClientMsg::Ping));
    // Over 16 KiB: the link ends, on both sides.
    let big = format!("\"{}\"", "x".repeat(MAX_LINE + 10));
    write_raw(&mut jc, false, big.as_bytes());
    assert_eq!(
        recv(&mut hc, &mut jc),
        Received::Closed(ProtocolError::TooLong)
    );
    assert!(hc.send(&HostMsg::Ping).is_err());
    let end = Instant::now() + Duration::from_secs(5);
    let mut seen = Received::Nothing;
    while Instant::now() < end {
        hc.engine.as_mut().unwrap().poll(Instant::now());
        seen = MessageChannel::<ClientMsg, HostMsg>::recv(&mut jc);
        if seen != Received::Nothing {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(matches!(seen, Received::Closed(_)), "{seen:?}");
}

/// Every engine's real offer (the fixtures `net::pairing` proves), carried as its pairing
/// text and rebuilt, is taken by the app's joining side, and the answer it makes fits a
/// text: the app can answer Chromium, Firefox and Safari alike, also an offer whose only
/// candidates are mDNS names (str0m takes the SDP; it cannot resolve the names, so such a
/// pairing connects only by the page's own checks reaching the app).
#[test]
fn the_app_answers_every_engines_offer() {
    let offers = [
        (
            "chromium mdns",
            include_str!("../pairing/fixtures/chromium-mdns-offer.sdp"),
        ),
        (
            "chromium ip",
            include_str!("../pairing/fixtures/chromium-ip-offer.sdp"),
        ),
        (
            "chrome 92",
            include_str!("../pairing/fixtures/chrome92-win-offer.sdp"),
        ),
        (
            "firefox 153",
            include_str!("../pairing/fixtures/firefox153-offer.sdp"),
        ),
        (
            "firefox 90 android",
            include_str!("../pairing/fixtures/firefox90-android-offer.sdp"),
        ),
        (
            "firefox 90 mac",
            include_str!("../pairing/fixtures/firefox90-mac-offer.sdp"),
        ),
        (
            "safari 14",
            include_str!("../pairing/fixtures/safari14-mac-offer.sdp"),
        ),
    ];
    for (engine, sdp) in offers {
        let text = pairing::encode(PairingKind::Offer, sdp, Some("1234")).unwrap();
        let offer = pairing::decode(&text).unwrap();
        let join = NativePairing::answer(&offer.sdp, &LOOPBACK, Instant::now())
            .unwrap_or_else(|e| panic!("{engine}: {e}\n{}", offer.sdp));
        let answer = pairing::encode(PairingKind::Answer, join.local_sdp(), None)
            .unwrap_or_else(|e| panic!("{engine}: {e}\n{}", join.local_sdp()));
        let back = pairing::decode(&answer).unwrap();
        assert!(back.sdp.contains("a=setup:"), "{engine}: {}", back.sdp);
    }
}
