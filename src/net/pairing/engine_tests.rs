//! The pairing text against every engine's SDP (issue 40): real captures of Chrome,
//! Safari and Firefox, offers and answers, each round-tripped, and every offer paired with
//! every answer. The captures (fixtures/, verbatim, only the JSON's `\r\n` unescaped) are
//! the example beacons of StoneCypher/short_offer, `src/ts/example_beacons.js` (2021,
//! gathered with a STUN server, so reflexive candidates are in them):
//! `win_10_chrome_92_*` (Chrome 92 on Windows: six host addresses, IPv4 and IPv6, TCP
//! candidates), `mac_saf_14_*` (Safari 14: an mDNS name; `b=AS:30` in the answer; no
//! `a=extmap-allow-mixed`), `mac_ff_90_*` (Firefox 90: session-level fingerprint, upper-case
//! `UDP`, TCP candidates, `a=end-of-candidates`, hex credentials 8/32, max-message-size
//! 1073741823) and `and_chr_92_*`, which its `o=` line shows is Firefox 90.0.3 (on Android:
//! plain private addresses, IPv4 and IPv6). `firefox153-*` are Debian's Firefox ESR 153.8
//! (2026-12-05, this machine, tests/browser/firefox.py: a page's data-channel offer and
//! another connection's answer to it, mDNS names, session-level `a=ice-options:trickle`).
//! Chromium 156's own (issue 31) are in tests.rs. tools/rtc/connect.py proved the rebuilt
//! SDPs with real browsers: Chromium 156 and Firefox ESR 153 open a channel both ways.

use super::*;

const CHROMIUM_OFFER: &str = include_str!("fixtures/chromium-mdns-offer.sdp");
const CHROMIUM_ANSWER: &str = include_str!("fixtures/chromium-mdns-answer.sdp");
const CHROME_OFFER: &str = include_str!("fixtures/chrome92-win-offer.sdp");
const CHROME_ANSWER: &str = include_str!("fixtures/chrome92-win-answer.sdp");
const SAFARI_OFFER: &str = include_str!("fixtures/safari14-mac-offer.sdp");
const SAFARI_ANSWER: &str = include_str!("fixtures/safari14-mac-answer.sdp");
const FIREFOX_OFFER: &str = include_str!("fixtures/firefox90-mac-offer.sdp");
const FIREFOX_ANSWER: &str = include_str!("fixtures/firefox90-mac-answer.sdp");
const FIREFOX_ANDROID_OFFER: &str = include_str!("fixtures/firefox90-android-offer.sdp");
const FIREFOX_ANDROID_ANSWER: &str = include_str!("fixtures/firefox90-android-answer.sdp");
const FIREFOX_ESR_OFFER: &str = include_str!("fixtures/firefox153-offer.sdp");
const FIREFOX_ESR_ANSWER: &str = include_str!("fixtures/firefox153-answer.sdp");

const OFFERS: [(&str, &str); 6] = [
    ("Chromium 156", CHROMIUM_OFFER),
    ("Chrome 92", CHROME_OFFER),
    ("Safari 14", SAFARI_OFFER),
    ("Firefox 90", FIREFOX_OFFER),
    ("Firefox 90 Android", FIREFOX_ANDROID_OFFER),
    ("Firefox ESR 153", FIREFOX_ESR_OFFER),
];
const ANSWERS: [(&str, &str); 6] = [
    ("Chromium 156", CHROMIUM_ANSWER),
    ("Chrome 92", CHROME_ANSWER),
    ("Safari 14", SAFARI_ANSWER),
    ("Firefox 90", FIREFOX_ANSWER),
    ("Firefox 90 Android", FIREFOX_ANDROID_ANSWER),
    ("Firefox ESR 153", FIREFOX_ESR_ANSWER),
];

/// The value of the first line starting `prefix` (media level before session level does
/// not matter here: each capture states each value once).
fn value<'a>(sdp: &'a str, prefix: &str) -> Option<&'a str> {
    sdp.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .map(str::trim)
}

/// `(address, port)` of each UDP host candidate of component 1, the address as the
/// other engine must see it (mDNS names and IPv6 in lower case), sorted.
fn udp_hosts(sdp: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = sdp
        .lines()
        .filter_map(|l| l.strip_prefix("a=candidate:"))
        .map(|l| l.split_ascii_whitespace().collect::<Vec<_>>())
        .filter(|f| f[1] == "1" && f[2].eq_ignore_ascii_case("udp") && f[7] == "host")
        .map(|f| (f[4].to_ascii_lowercase(), f[5].to_string()))
        .collect();
    out.sort();
    out
}

/// Encodes, decodes, and checks what the other engine gets: every value a data channel
/// needs as the engine sent it, the UDP host candidates and nothing else, a standard SDP.
fn round_trip(engine: &str, kind: PairingKind, sdp: &str) -> (String, Pairing) {
    let code = (kind == PairingKind::Offer).then_some("2718");
    let text = encode(kind, sdp, code).unwrap_or_else(|e| panic!("{engine}: {e}"));
    let back = decode(&text).unwrap_or_else(|e| panic!("{engine}: {e}"));
    let got = &back.sdp;
    assert_eq!(back.kind, kind);
    assert_eq!(back.join_code.as_deref(), code);
    for field in [
        "a=ice-ufrag:",
        "a=ice-pwd:",
        "a=setup:",
        "a=mid:",
        "a=max-message-size:",
    ] {
        assert_eq!(
            value(got, field),
            value(sdp, field),
            "{engine} {field}\n{got}"
        );
    }
    // The fingerprint: the same hash and bytes, wherever the engine put it (Firefox: at
    // session level), written in the usual case.
    let fp = |s: &str| value(s, "a=fingerprint:").map(str::to_ascii_uppercase);
    assert_eq!(fp(got), fp(sdp), "{engine}");
    assert_eq!(udp_hosts(got), udp_hosts(sdp), "{engine}");
    assert!(
        !got.contains(" tcp ") && !got.contains(" TCP ") && !got.contains("srflx"),
        "{engine}: {got}"
    );
    let mid = value(sdp, "a=mid:").unwrap();
    for line in [
        "v=0".to_string(),
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel".into(),
        "c=IN IP4 0.0.0.0".into(),
        format!("a=group:BUNDLE {mid}"),
        "a=sctp-port:5000".into(),
    ] {
        assert!(got.lines().any(|l| l == line), "{engine}: {line} missing");
    }
    assert!(got.ends_with("\r\n") && !got.contains("\n\n") && !got.contains("b=AS"));
    // The rebuilt SDP reads back to the same text: nothing was lost or guessed on the way.
    assert_eq!(encode(kind, got, code).as_ref(), Ok(&text), "{engine}");
    assert!(text.len() <= MAX_QR_CHARS, "{engine}: {}", text.len());
    assert!(
        crate::net::qr::qr_version(&text).is_ok_and(|v| v <= 10),
        "{engine}: {text}"
    );
    (text, back)
}

#[test]
fn every_engines_offer_and_answer_round_trips() {
    let mut sizes = Vec::new();
    for (engine, sdp) in OFFERS {
        sizes.push((
            engine,
            "offer",
            round_trip(engine, PairingKind::Offer, sdp).0.len(),
        ));
    }
    for (engine, sdp) in ANSWERS {
        sizes.push((
            engine,
            "answer",
            round_trip(engine, PairingKind::Answer, sdp).0.len(),
        ));
    }
    // The sizes docs/network.md quotes (the text's characters; all within QR version 10).
    assert_eq!(
        sizes,
        [
            ("Chromium 156", "offer", 176),
            ("Chrome 92", "offer", 220),
            ("Safari 14", "offer", 145),
            ("Firefox 90", "offer", 163),
            ("Firefox 90 Android", "offer", 144),
            ("Firefox ESR 153", "offer", 163),
            ("Chromium 156", "answer", 172),
            ("Chrome 92", "answer", 217),
            ("Safari 14", "answer", 142),
            ("Firefox 90", "answer", 129),
            ("Firefox 90 Android", "answer", 110),
            ("Firefox ESR 153", "answer", 160),
        ]
    );
}

#[test]
fn every_offer_pairs_with_every_answer() {
    for (offerer, offer_sdp) in OFFERS {
        let offer = decode(&encode(PairingKind::Offer, offer_sdp, Some("0001")).unwrap()).unwrap();
        for (answerer, answer_sdp) in ANSWERS {
            let answer = decode(&encode(PairingKind::Answer, answer_sdp, None).unwrap()).unwrap();
            let pair = format!("{offerer} offers, {answerer} answers");
            // The answer names the offer's one m-section, and takes the role the offer left
            // open: one DTLS client, one server.
            assert_eq!(
                value(&answer.sdp, "a=mid:"),
                value(&offer.sdp, "a=mid:"),
                "{pair}"
            );
            assert_eq!(value(&offer.sdp, "a=setup:"), Some("actpass"), "{pair}");
            assert!(
                matches!(value(&answer.sdp, "a=setup:"), Some("active" | "passive")),
                "{pair}"
            );
            // Two certificates, two sets of credentials, and an address each.
            assert_ne!(
                value(&answer.sdp, "a=fingerprint:"),
                value(&offer.sdp, "a=fingerprint:"),
                "{pair}"
            );
            assert_ne!(
                value(&answer.sdp, "a=ice-ufrag:"),
                value(&offer.sdp, "a=ice-ufrag:")
            );
            assert!(!udp_hosts(&offer.sdp).is_empty() && !udp_hosts(&answer.sdp).is_empty());
            // Each side's largest message as it said it: the other engine sends no more.
            assert_eq!(
                value(&answer.sdp, "a=max-message-size:"),
                value(answer_sdp, "a=max-message-size:"),
                "{pair}"
            );
        }
    }
}

#[test]
fn what_an_engine_may_say_otherwise_is_kept_as_sent() {
    // A passive answer (RFC 5763 allows it) stays passive.
    let passive = FIREFOX_ANSWER.replace("a=setup:active", "a=setup:passive");
    round_trip("passive", PairingKind::Answer, &passive);
    // Old Firefox's mid, another largest message, none at all.
    let sdparta = FIREFOX_OFFER.replace("a=mid:0", "a=mid:sdparta_0");
    let (_, back) = round_trip("sdparta", PairingKind::Offer, &sdparta);
    assert!(back.sdp.contains("a=group:BUNDLE sdparta_0\r\n"));
    round_trip(
        "65536",
        PairingKind::Offer,
        &SAFARI_OFFER.replace("max-message-size:262144", "max-message-size:65536"),
    );
    let none: String = SAFARI_OFFER
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("a=max-message-size"))
        .collect();
    let (_, back) = round_trip("no max-message-size", PairingKind::Offer, &none);
    assert!(!back.sdp.contains("max-message-size"));
    // Other hashes of the certificate.
    let bytes = |n: usize| {
        (0..n)
            .map(|i| format!("{i:02X}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    for (hash, n) in [("sha-1", 20), ("sha-384", 48), ("sha-512", 64)] {
        let sdp = FIREFOX_ANSWER.replace(
            value(FIREFOX_ANSWER, "a=fingerprint:").unwrap(),
            &format!("{hash} {}", bytes(n)),
        );
        round_trip(hash, PairingKind::Answer, &sdp);
    }
    // Long credentials of upper-case hex or of ICE's whole alphabet.
    let long = CHROMIUM_ANSWER
        .replace("a=ice-ufrag:9yE4", "a=ice-ufrag:ABCDEF0123456789")
        .replace("a=ice-pwd:", "a=ice-pwd:x+/Y0123456789");
    round_trip("long credentials", PairingKind::Answer, &long);
}

#[test]
fn what_cannot_be_placed_is_refused_by_name() {
    let refused = |kind: PairingKind, sdp: &str| -> String {
        let code = (kind == PairingKind::Offer).then_some("1234");
        match encode(kind, sdp, code) {
            Err(PairingError::Unsupported { what }) => what,
            other => panic!("{other:?}"),
        }
    };
    let fp = value(FIREFOX_OFFER, "a=fingerprint:").unwrap();
    let cases: [(PairingKind, String, &str); 9] = [
        (
            PairingKind::Offer,
            FIREFOX_OFFER.replace(fp, &fp.replace("sha-256", "md5")),
            "a=fingerprint:md5",
        ),
        (
            PairingKind::Offer,
            FIREFOX_OFFER.replace(fp, &fp.replace("sha-256", "sha-384")),
            "a=fingerprint:sha-384",
        ),
        (
            PairingKind::Answer,
            SAFARI_ANSWER.replace("a=setup:active", "a=setup:actpass"),
            "a=setup:actpass (in an answer)",
        ),
        (
            PairingKind::Offer,
            SAFARI_OFFER.replace("a=setup:actpass", "a=setup:holdconn"),
            "a=setup:holdconn",
        ),
        (
            PairingKind::Offer,
            SAFARI_OFFER.replace("a=sctp-port:5000", "a=sctp-port:5001"),
            "a=sctp-port:5001",
        ),
        (
            PairingKind::Offer,
            SAFARI_OFFER.replace("max-message-size:262144", "max-message-size:9999999999"),
            "a=max-message-size:9999999999",
        ),
        (
            PairingKind::Offer,
            SAFARI_OFFER.replace("a=mid:0", "a=mid:a b"),
            "a=mid",
        ),
        (
            PairingKind::Offer,
            SAFARI_OFFER.replace(
                "m=application 52283 UDP/DTLS/SCTP webrtc-datachannel",
                "m=application 9 DTLS/SCTP 5000",
            ),
            "m=application 9 DTLS/SCTP 5000",
        ),
        (
            PairingKind::Offer,
            format!("{SAFARI_OFFER}m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:1\r\n"),
            "m=audio 9 UDP/TLS/RTP/SAVPF 111 (a second media section)",
        ),
    ];
    for (kind, sdp, what) in cases {
        assert_eq!(refused(kind, &sdp), what);
    }
    // A credential outside ICE's alphabet could not be written back safely.
    let evil = FIREFOX_ANSWER.replace("a=ice-ufrag:8042d877", "a=ice-ufrag:8042=877");
    assert_eq!(refused(PairingKind::Answer, &evil), "a=ice-ufrag");
    // No m-section at all.
    assert_eq!(refused(PairingKind::Offer, "v=0\r\n"), "m=application");
}

#[test]
fn a_text_too_big_for_the_qr_code_drops_the_last_candidates_or_is_refused() {
    // Six IPv6 host candidates and Firefox's credentials: the worst case a phone makes.
    let mut sdp = String::new();
    for line in FIREFOX_OFFER.split_inclusive('\n') {
        if line.starts_with("a=candidate") {
            continue;
        }
        if line.starts_with("a=sendrecv") && sdp.contains("m=application") {
            for i in 0..8u32 {
                sdp.push_str(&format!(
                    "a=candidate:{i} 1 UDP {} 2001:db8::{i}:1 {} typ host\r\n",
                    2_000_000 - i,
                    5000 + i
                ));
            }
        }
        sdp.push_str(line);
    }
    let text = encode(PairingKind::Offer, &sdp, Some("1234")).unwrap();
    assert_eq!(
        (text.len(), crate::net::qr::qr_version(&text)),
        (284, Ok(10))
    );
    assert_eq!(udp_hosts(&decode(&text).unwrap().sdp).len(), MAX_CANDIDATES);
    // Credentials long enough to push it past version 10: the best candidates that fit.
    let long_pwd = "a".repeat(60);
    let long = sdp.replace(
        "a=ice-pwd:7a9acb1e1b8628b0326baa18fa5b0041",
        &format!("a=ice-pwd:{long_pwd}Z"),
    );
    let text = encode(PairingKind::Offer, &long, Some("1234")).unwrap();
    assert!(text.len() <= MAX_QR_CHARS);
    let kept = udp_hosts(&decode(&text).unwrap().sdp);
    assert!(kept.len() < MAX_CANDIDATES && kept.contains(&("2001:db8::1".into(), "5000".into())));
    // So long that not even one candidate fits.
    let huge = sdp.replace(
        "a=ice-pwd:7a9acb1e1b8628b0326baa18fa5b0041",
        &format!("a=ice-pwd:{}", "Z".repeat(250)),
    );
    assert!(matches!(
        encode(PairingKind::Offer, &huge, Some("1234")),
        Err(PairingError::TooBigForQr { .. })
    ));
}

#[test]
fn an_older_hotseats_version_1_text_still_reads() {
    // Made by the version 1 encoder (issue 31) from chromium-mdns-offer.sdp, join code 0427.
    let v1 = "HS1OAGVQIT2CIR4BQSLBGZIHSNZUKNVUCWBLGQ3FCS3ENNBHG53VLAYLATWP22UOM5KVNKXYOYBURJNJLLL2SXF6NMBQIVIM67ALMMHIOQQCAOFELUAFGOAELOUZEVWCWGEJF52MRLIDEOA4SBNIVNCOZPVAQXFFUPFGA7IHVP36";
    let back = decode(v1).unwrap();
    assert_eq!(back.join_code.as_deref(), Some("0427"));
    let now = decode(&encode(PairingKind::Offer, CHROMIUM_OFFER, Some("0427")).unwrap()).unwrap();
    assert_eq!(back, now);
}
