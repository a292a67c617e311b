//! The pairing text against SDPs a real Chromium made (fixtures/, captured by
//! tools/rtc/capture.py: with host addresses hidden behind mDNS names, the browser's
//! default, and with them shown, as for a page with camera permission).

use super::*;
use rand::{Rng, SeedableRng};

const MDNS_OFFER: &str = include_str!("fixtures/chromium-mdns-offer.sdp");
const MDNS_ANSWER: &str = include_str!("fixtures/chromium-mdns-answer.sdp");
const IP_OFFER: &str = include_str!("fixtures/chromium-ip-offer.sdp");
const IP_ANSWER: &str = include_str!("fixtures/chromium-ip-answer.sdp");

/// The lines of an SDP the pairing must keep word for word.
fn kept(sdp: &str) -> Vec<String> {
    sdp.lines()
        .filter(|l| {
            ["a=ice-ufrag:", "a=ice-pwd:", "a=fingerprint:", "a=setup:"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(str::to_string)
        .collect()
}

/// `(address, port)` of each candidate line, in order.
fn candidates(sdp: &str) -> Vec<(String, String)> {
    sdp.lines()
        .filter_map(|l| l.strip_prefix("a=candidate:"))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[4].to_string(), f[5].to_string())
        })
        .collect()
}

fn round_trip(kind: PairingKind, sdp: &str, code: Option<&str>) -> (String, Pairing) {
    let text = encode(kind, sdp, code).expect("encodes");
    let back = decode(&text).expect("decodes");
    assert_eq!(back.kind, kind);
    assert_eq!(back.join_code.as_deref(), code);
    assert_eq!(kept(&back.sdp), kept(sdp), "{}", back.sdp);
    let mut original = candidates(sdp);
    let mut rebuilt = candidates(&back.sdp);
    original.sort();
    rebuilt.sort();
    assert_eq!(rebuilt, original);
    for l in [
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
        "a=sctp-port:5000",
        "a=mid:0",
        "a=group:BUNDLE 0",
    ] {
        assert!(back.sdp.lines().any(|x| x == l), "{l} missing");
    }
    assert!(back.sdp.ends_with("\r\n") && !back.sdp.contains("\n\n"));
    // The text is all in the QR code's alphanumeric alphabet.
    assert!(
        text.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()),
        "{text}"
    );
    (text, back)
}

#[test]
fn chromium_offers_and_answers_round_trip() {
    let (offer, _) = round_trip(PairingKind::Offer, MDNS_OFFER, Some("0427"));
    assert!(offer.starts_with("HS2O"), "{offer}");
    let (answer, _) = round_trip(PairingKind::Answer, MDNS_ANSWER, None);
    assert!(answer.starts_with("HS2A"), "{answer}");
    round_trip(PairingKind::Offer, IP_OFFER, Some("9999"));
    round_trip(PairingKind::Answer, IP_ANSWER, None);
    // IPv4 alone (a phone on a Wi-Fi without IPv6).
    let v4: String = IP_OFFER
        .split_inclusive('\n')
        .filter(|l| !l.contains("fd00::2"))
        .collect();
    let (text, back) = round_trip(PairingKind::Offer, &v4, Some("1234"));
    assert_eq!(
        candidates(&back.sdp),
        [("192.0.2.2".into(), "53833".into())]
    );
    // The sizes docs/network.md quotes: two mDNS candidates, the usual case.
    assert_eq!(offer.len(), 176, "{offer}");
    assert_eq!(answer.len(), 172, "{answer}");
    assert!(text.len() < offer.len());
}

#[test]
fn candidates_keep_the_browsers_priority_order() {
    // Chromium lists the lower priority first here; the rebuilt SDP has the best first.
    let back = decode(&encode(PairingKind::Offer, MDNS_OFFER, Some("0001")).unwrap()).unwrap();
    let c = candidates(&back.sdp);
    assert_eq!(c[0].0, "8a45d005-3380-45ba-9925-6c2b18892f74.local");
    assert_eq!(c[1].0, "2381c905-a8ab-44ec-bea0-85ca5a3ca607.local");
}

#[test]
fn scanners_lower_case_and_spaces_are_read() {
    let text = encode(PairingKind::Answer, MDNS_ANSWER, None).unwrap();
    let want = decode(&text).unwrap();
    assert_eq!(decode(&text.to_ascii_lowercase()).unwrap(), want);
    assert_eq!(decode(&format!("  \n{text}\r\n\t")).unwrap(), want);
    let wrapped: String = text
        .chars()
        .enumerate()
        .flat_map(|(i, c)| (i % 40 == 39).then_some('\n').into_iter().chain([c]))
        .collect();
    assert_eq!(decode(&wrapped).unwrap(), want);
}

#[test]
fn wrong_and_damaged_texts_say_why() {
    let text = encode(PairingKind::Offer, MDNS_OFFER, Some("1234")).unwrap();
    assert_eq!(decode("https://example.com"), Err(PairingError::NotHotseat));
    assert_eq!(decode(""), Err(PairingError::Empty));
    assert_eq!(decode(" \n\t "), Err(PairingError::Empty));
    assert_eq!(decode("HSX"), Err(PairingError::NotHotseat));
    assert_eq!(decode("HS0OAAAA"), Err(PairingError::NotHotseat));
    assert_eq!(
        decode(&text.replacen("HS2", "HS3", 1)),
        Err(PairingError::Newer { version: 3 })
    );
    assert_eq!(
        decode("HS99999999999999999999O"),
        Err(PairingError::Newer { version: u32::MAX })
    );
    assert_eq!(decode("HS2XAAAA"), Err(PairingError::Damaged));
    assert_eq!(decode("HS2O"), Err(PairingError::Damaged));
    // Cut short, one character changed, one dropped, one added, a character base32 lacks.
    assert_eq!(decode(&text[..text.len() - 8]), Err(PairingError::Damaged));
    for i in 4..text.len() {
        let mut changed = text.clone().into_bytes();
        changed[i] = if changed[i] == b'A' { b'B' } else { b'A' };
        let changed = String::from_utf8(changed).unwrap();
        assert_eq!(decode(&changed), Err(PairingError::Damaged), "at {i}");
        let mut dropped = text.clone();
        dropped.remove(i);
        assert_eq!(decode(&dropped), Err(PairingError::Damaged), "at {i}");
    }
    assert_eq!(decode(&format!("{text}A")), Err(PairingError::Damaged));
    assert_eq!(decode(&format!("{text}1")), Err(PairingError::Damaged));
    // Offer and answer: the letter decides, so swapping it is damage, not the other kind.
    assert_eq!(
        decode(&text.replacen("HS2O", "HS2A", 1)),
        Err(PairingError::Damaged)
    );
    let long = format!("{text}{}", "A".repeat(MAX_TEXT));
    assert_eq!(decode(&long), Err(PairingError::TooLong { max: MAX_TEXT }));
    let huge = " ".repeat(10 * MAX_TEXT);
    assert_eq!(decode(&huge), Err(PairingError::TooLong { max: MAX_TEXT }));
}

#[test]
fn the_wrong_kind_is_named() {
    let offer = decode(&encode(PairingKind::Offer, MDNS_OFFER, Some("1234")).unwrap()).unwrap();
    let answer = decode(&encode(PairingKind::Answer, MDNS_ANSWER, None).unwrap()).unwrap();
    assert_eq!(
        offer.clone().expect(PairingKind::Answer),
        Err(PairingError::OfferNotAnswer)
    );
    assert_eq!(
        answer.clone().expect(PairingKind::Offer),
        Err(PairingError::AnswerNotOffer)
    );
    assert_eq!(offer.clone().expect(PairingKind::Offer), Ok(offer));
    assert_eq!(answer.clone().expect(PairingKind::Answer), Ok(answer));
}

#[test]
fn what_a_browser_sdp_lacks_is_refused() {
    let bad_code = |c: &str| encode(PairingKind::Offer, MDNS_OFFER, Some(c));
    for c in ["123", "12345", "12a4", "١٢٣٤"] {
        assert!(
            matches!(bad_code(c), Err(PairingError::BadCode { .. })),
            "{c}"
        );
    }
    assert!(matches!(
        encode(PairingKind::Offer, MDNS_OFFER, None),
        Err(PairingError::BadCode { .. })
    ));
    let without = |sdp: &str, what: &str| -> String {
        sdp.split_inclusive('\n')
            .filter(|l| !l.starts_with(what))
            .collect()
    };
    assert_eq!(
        encode(
            PairingKind::Answer,
            &without(MDNS_ANSWER, "a=candidate"),
            None
        ),
        Err(PairingError::NoAddress)
    );
    for what in ["a=ice-ufrag", "a=ice-pwd", "a=fingerprint", "a=setup"] {
        assert!(
            matches!(
                encode(PairingKind::Answer, &without(MDNS_ANSWER, what), None),
                Err(PairingError::Unsupported { .. })
            ),
            "{what}"
        );
    }
    // An offer is not an answer: its setup role is not the one the template states.
    assert!(matches!(
        encode(PairingKind::Answer, MDNS_OFFER, None),
        Err(PairingError::Unsupported { .. })
    ));
    // A ufrag that would put a line of its own into the rebuilt SDP.
    let evil = MDNS_ANSWER.replace("a=ice-ufrag:9yE4", "a=ice-ufrag:9y E4");
    assert!(matches!(
        encode(PairingKind::Answer, &evil, None),
        Err(PairingError::Unsupported { .. })
    ));
    // TCP and relayed candidates are left out; another `.local` name is carried as it is.
    let extra = MDNS_ANSWER.replace(
        "a=ice-ufrag",
        "a=candidate:9 1 tcp 1518280447 192.0.2.9 9 typ host tcptype active\r\n\
         a=candidate:8 1 udp 100 203.0.113.1 3478 typ relay raddr 0.0.0.0 rport 0\r\n\
         a=candidate:7 1 udp 2113937151 Printer-3.local 4000 typ host\r\n\
         a=ice-ufrag",
    );
    let back = decode(&encode(PairingKind::Answer, &extra, None).unwrap()).unwrap();
    let c = candidates(&back.sdp);
    assert_eq!(c.len(), 3, "{}", back.sdp);
    assert!(
        c.contains(&("printer-3.local".into(), "4000".into())),
        "{c:?}"
    );
    // A UDP host candidate that cannot be carried is refused by name, not dropped: the
    // pairing would lose an address without a word.
    for line in [
        "a=candidate:6 1 udp",
        "a=candidate:6 1 udp 2113937151 printer.example 4000 typ host",
        "a=candidate:6 1 udp 2113937151 ../etc.local 4000 typ host",
        "a=candidate:6 1 udp 2113937151 192.0.2.7 0 typ host",
        "a=candidate:6 1 udp high 192.0.2.7 4000 typ host",
    ] {
        let sdp = MDNS_ANSWER.replace("a=ice-ufrag", &format!("{line}\r\na=ice-ufrag"));
        match encode(PairingKind::Answer, &sdp, None) {
            Err(PairingError::Unsupported { what }) => {
                assert!(what.starts_with("a=candidate:6 1 udp"), "{what}")
            }
            other => panic!("{line}: {other:?}"),
        }
    }
}

#[test]
fn at_most_six_candidates_the_best_ones() {
    let mut sdp = String::new();
    for line in IP_OFFER.split_inclusive('\n') {
        if line.starts_with("a=ice-ufrag") {
            for i in 0..10u32 {
                sdp.push_str(&format!(
                    "a=candidate:{i} 1 udp {} 10.0.0.{i} {} typ host generation 0\r\n",
                    1000 + i,
                    5000 + i
                ));
            }
        }
        sdp.push_str(line);
    }
    let back = decode(&encode(PairingKind::Offer, &sdp, Some("1111")).unwrap()).unwrap();
    let c = candidates(&back.sdp);
    assert_eq!(c.len(), MAX_CANDIDATES);
    // The two Chromium gathered (priority ~2.1e9) beat all of the made-up ones.
    assert_eq!(c[0].0, "fd00::2");
    assert_eq!(c[1].0, "192.0.2.2");
    assert_eq!(c[2].0, "10.0.0.9");
}

#[test]
fn base32_is_rfc_4648() {
    // RFC 4648 §10's vectors, without the padding.
    for (plain, coded) in [
        ("", ""),
        ("f", "MY"),
        ("fo", "MZXQ"),
        ("foo", "MZXW6"),
        ("foob", "MZXW6YQ"),
        ("fooba", "MZXW6YTB"),
        ("foobar", "MZXW6YTBOI"),
    ] {
        assert_eq!(base32(plain.as_bytes()), coded);
        assert_eq!(unbase32(coded).as_deref(), Some(plain.as_bytes()));
    }
    assert_eq!(unbase32("MZ"), None, "stray bits in the last character");
    assert_eq!(unbase32("MZX"), None, "a length no encoder makes");
}

#[test]
fn no_random_text_panics() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let good = encode(PairingKind::Offer, MDNS_OFFER, Some("1234")).unwrap();
    for round in 0..20_000 {
        let len = rng.random_range(0..400);
        let text: String = match round % 4 {
            // Any bytes read as text.
            0 => {
                let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            // The right prefix and base32 characters: reaches the body's reader.
            1 => format!(
                "HS2{}{}",
                if rng.random() { 'O' } else { 'A' },
                (0..len)
                    .map(|_| char::from(BASE32[rng.random_range(0..32)]))
                    .collect::<String>()
            ),
            // A real code with bytes changed.
            2 => {
                let mut b = good.clone().into_bytes();
                for _ in 0..rng.random_range(1..4) {
                    let i = rng.random_range(0..b.len());
                    b[i] = rng.random_range(0x20..0x7f);
                }
                String::from_utf8_lossy(&b).into_owned()
            }
            // Random SDP-ish lines for the encoder.
            _ => {
                let lines = [
                    "a=candidate:1 1 udp 5 ",
                    "a=ice-ufrag:",
                    "a=ice-pwd:",
                    "a=fingerprint:sha-256 ",
                    "a=setup:active",
                    ".local",
                    "::",
                    ":",
                    " ",
                ];
                let sdp: String = (0..len / 8)
                    .map(|_| {
                        let mut l = lines[rng.random_range(0..lines.len())].to_string();
                        l.push_str(&format!("{:x}", rng.random::<u32>()));
                        l.push_str("\r\n");
                        l
                    })
                    .collect();
                let _ = encode(PairingKind::Answer, &sdp, None);
                sdp
            }
        };
        let _ = decode(&text);
    }
}

#[test]
fn every_error_round_trips_through_json() {
    for e in PairingError::examples() {
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(
            serde_json::from_str::<PairingError>(&json).unwrap(),
            e,
            "{json}"
        );
    }
}
