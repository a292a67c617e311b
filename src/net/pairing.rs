//! The pairing text of two browsers (issue 31, docs/network.md "Two browsers over a
//! WebRTC data channel"): what one phone shows as a QR code and the other scans, instead of
//! a signalling server.
//!
//! A browser's SDP is ~600 characters of which only ~100 bytes matter for a data channel
//! between two pages on the same Wi-Fi: the ICE credentials, the DTLS certificate's
//! fingerprint and the host candidates. Everything else is the same in every Hotseat
//! pairing, so [`encode`] keeps only those, [`decode`] puts them back into a fixed
//! template the browser accepts through `setRemoteDescription`, and the QR code stays a
//! version 7 ([`crate::net::qr`]).
//!
//! The text: `HS` (Hotseat), the format's version (`1`), `O` (offer) or `A` (answer), then
//! the body in base32 (RFC 4648, upper case, no padding): letters and digits only, all in
//! the QR code's alphanumeric alphabet, so a QR code carries 5.5 bits per character.
//! The body, version 1:
//!
//! | bytes | what |
//! | --- | --- |
//! | 2 | the join code (offer only), `0..=9999` big-endian |
//! | 1 + n | ICE ufrag: length, then its characters |
//! | 1 + n | ICE pwd: length, then its characters |
//! | 32 | the DTLS certificate's SHA-256 fingerprint |
//! | 1 | how many candidates (1 to [`MAX_CANDIDATES`]), then each: |
//! | 1 + 4/16 + 2 | tag (1 IPv4, 2 IPv6, 3 an mDNS name `<uuid>.local` as its 16 bytes), address, UDP port |
//! | 2 | the first two bytes of the SHA-256 of all the above: a pasted text cut short or mistyped reads as damaged, not as a wrong address |
//!
//! The setup role is implied (the offer `actpass`, the answer `active`); candidates are
//! kept in priority order, and the foundation and priority are rebuilt from the position.
//! Nothing here panics on any text (tested with random bytes); it builds for wasm32 as
//! for the desktop: no I/O, no clock, no UI.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::net::{Ipv4Addr, Ipv6Addr};

/// The format's version this build writes and reads.
pub const VERSION: u32 = 1;
/// The longest text [`decode`] looks at (a real one is ~170 characters): anything longer
/// is refused before any work is done on it.
pub const MAX_TEXT: usize = 1024;
/// At most this many candidates are carried (the best by priority): a phone with many
/// interfaces or IPv6 addresses would otherwise grow the QR code past what a camera reads
/// easily, and on one Wi-Fi the first few are the ones that work.
pub const MAX_CANDIDATES: usize = 6;
/// Every text starts so.
const MAGIC: &str = "HS";
/// The longest ICE ufrag or pwd carried (RFC 8839 allows 256; browsers make 4 and 24).
const MAX_ICE_CHARS: usize = 64;
/// The checksum's bytes at the end of the body.
const CHECK: usize = 2;

/// Which half of the pairing a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PairingKind {
    /// The hosting phone's first code (with the join code).
    Offer,
    /// The joining phone's reply to it.
    Answer,
}

impl PairingKind {
    /// The letter after the version.
    fn letter(self) -> char {
        match self {
            PairingKind::Offer => 'O',
            PairingKind::Answer => 'A',
        }
    }

    /// The DTLS role the template states (the offer lets the answer choose; the answer,
    /// as browsers do, takes the client's role).
    fn setup(self) -> &'static str {
        match self {
            PairingKind::Offer => "actpass",
            PairingKind::Answer => "active",
        }
    }
}

/// A decoded pairing text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// Offer or answer.
    pub kind: PairingKind,
    /// The join code, 4 digits (an offer's only).
    pub join_code: Option<String>,
    /// A whole SDP for `setRemoteDescription` (`\r\n` line ends).
    pub sdp: String,
}

impl Pairing {
    /// This pairing if it is the `wanted` kind, else the reason to show (a phone scanning
    /// the wrong screen is the usual mistake).
    pub fn expect(self, wanted: PairingKind) -> Result<Pairing, PairingError> {
        match (wanted, self.kind) {
            (PairingKind::Offer, PairingKind::Answer) => Err(PairingError::AnswerNotOffer),
            (PairingKind::Answer, PairingKind::Offer) => Err(PairingError::OfferNotAnswer),
            _ => Ok(self),
        }
    }
}

/// Why a pairing text could not be made or read; typed, so that the app words it in its
/// player's language (inside `NetReason::Pairing`); `Display` is the English.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PairingError {
    /// The text does not start as a Hotseat pairing code does.
    #[error("this is not a Hotseat pairing code")]
    NotHotseat,
    /// A later version of the format.
    #[error("this code comes from a newer Hotseat (pairing version {version}): update the app on this phone")]
    Newer {
        /// The version the text says.
        version: u32,
    },
    /// The text starts right but does not read (a character lost or changed, cut short).
    #[error("this code is damaged: scan it again, or copy it whole")]
    Damaged,
    /// Far longer than any pairing code.
    #[error("this text is too long to be a Hotseat pairing code (at most {max} characters)")]
    TooLong {
        /// The limit, [`MAX_TEXT`].
        max: usize,
    },
    /// An answer was scanned where the host's first code was wanted.
    #[error("this is an answer: scan the first code, the one the hosting phone shows")]
    AnswerNotOffer,
    /// A host's first code was scanned where the answer was wanted.
    #[error("this is a hosting phone's first code: scan the answer the joining phone shows")]
    OfferNotAnswer,
    /// The browser gathered no address the other phone could reach.
    #[error(
        "this phone has no local network address to offer: join a Wi-Fi network and try again"
    )]
    NoAddress,
    /// The browser's description lacks something a pairing needs, or has it in a form
    /// this version cannot carry (another browser's quirk: a bug to report, not a player's
    /// mistake).
    #[error("the browser's connection description cannot be carried: {what}")]
    Unsupported {
        /// What is missing or odd, in the SDP's own words.
        what: String,
    },
    /// A join code that is not 4 digits.
    #[error("the join code must be 4 digits, got '{got}'")]
    BadCode {
        /// What was given (at most 12 characters).
        got: String,
    },
    /// The text does not fit in a QR code.
    #[error("this code does not fit in a QR code ({chars} characters)")]
    TooBigForQr {
        /// The text's length.
        chars: usize,
    },
}

impl PairingError {
    /// One of every variant, for the translation tests (`NetReason::examples`). No
    /// wildcard below: a new variant does not compile until it is listed.
    pub fn examples() -> Vec<PairingError> {
        let all = vec![
            PairingError::NotHotseat,
            PairingError::Newer { version: 2 },
            PairingError::Damaged,
            PairingError::TooLong { max: MAX_TEXT },
            PairingError::AnswerNotOffer,
            PairingError::OfferNotAnswer,
            PairingError::NoAddress,
            PairingError::Unsupported {
                what: "a=fingerprint:sha-256".into(),
            },
            PairingError::BadCode { got: "12a".into() },
            PairingError::TooBigForQr { chars: 3000 },
        ];
        for e in &all {
            match e {
                PairingError::NotHotseat
                | PairingError::Newer { .. }
                | PairingError::Damaged
                | PairingError::TooLong { .. }
                | PairingError::AnswerNotOffer
                | PairingError::OfferNotAnswer
                | PairingError::NoAddress
                | PairingError::Unsupported { .. }
                | PairingError::BadCode { .. }
                | PairingError::TooBigForQr { .. } => {}
            }
        }
        all
    }
}

/// Where a host candidate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Address {
    V4(Ipv4Addr),
    V6(Ipv6Addr),
    /// `<uuid>.local`: the browser hides the address behind an mDNS name it answers for.
    Mdns([u8; 16]),
}

impl Address {
    const TAG_V4: u8 = 1;
    const TAG_V6: u8 = 2;
    const TAG_MDNS: u8 = 3;

    /// An SDP candidate's address, if it is one this format carries.
    fn parse(text: &str) -> Option<Address> {
        if let Ok(ip) = text.parse::<Ipv4Addr>() {
            return Some(Address::V4(ip));
        }
        if let Ok(ip) = text.parse::<Ipv6Addr>() {
            return Some(Address::V6(ip));
        }
        let name = text.strip_suffix(".local")?;
        uuid_bytes(name).map(Address::Mdns)
    }

    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Address::V4(ip) => {
                out.push(Self::TAG_V4);
                out.extend(ip.octets());
            }
            Address::V6(ip) => {
                out.push(Self::TAG_V6);
                out.extend(ip.octets());
            }
            Address::Mdns(id) => {
                out.push(Self::TAG_MDNS);
                out.extend(id);
            }
        }
    }

    fn read(r: &mut Reader) -> Option<Address> {
        match r.byte()? {
            Self::TAG_V4 => Some(Address::V4(Ipv4Addr::from(r.array::<4>()?))),
            Self::TAG_V6 => Some(Address::V6(Ipv6Addr::from(r.array::<16>()?))),
            Self::TAG_MDNS => Some(Address::Mdns(r.array::<16>()?)),
            _ => None,
        }
    }
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Address::V4(ip) => ip.fmt(f),
            Address::V6(ip) => ip.fmt(f),
            Address::Mdns(b) => {
                for (i, byte) in b.iter().enumerate() {
                    if matches!(i, 4 | 6 | 8 | 10) {
                        f.write_char('-')?;
                    }
                    write!(f, "{byte:02x}")?;
                }
                f.write_str(".local")
            }
        }
    }
}

/// The 16 bytes of a UUID written `8-4-4-4-12` in hex.
fn uuid_bytes(text: &str) -> Option<[u8; 16]> {
    let groups: Vec<&str> = text.split('-').collect();
    if groups.iter().map(|g| g.len()).collect::<Vec<_>>() != [8, 4, 4, 4, 12] {
        return None;
    }
    let hex: String = groups.concat();
    let mut out = [0u8; 16];
    for (i, slot) in out.iter_mut().enumerate() {
        let pair = hex.get(2 * i..2 * i + 2)?;
        *slot = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(out)
}

/// What a pairing carries, between the SDP and the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Body {
    code: Option<u16>,
    ufrag: String,
    pwd: String,
    fingerprint: [u8; 32],
    candidates: Vec<(Address, u16)>,
}

/// The pairing text of the browser's local SDP (read once ICE gathering is complete:
/// no trickle), `join_code` with an offer.
pub fn encode(
    kind: PairingKind,
    sdp: &str,
    join_code: Option<&str>,
) -> Result<String, PairingError> {
    let code = match (kind, join_code) {
        (PairingKind::Offer, Some(code)) => Some(parse_code(code)?),
        (PairingKind::Offer, None) => return Err(PairingError::BadCode { got: String::new() }),
        (PairingKind::Answer, _) => None,
    };
    let body = read_sdp(kind, sdp, code)?;
    let bytes = body_bytes(&body);
    Ok(format!(
        "{MAGIC}{VERSION}{}{}",
        kind.letter(),
        base32(&bytes)
    ))
}

/// The pairing in `text` (a scanned or pasted code: upper or lower case, spaces and line
/// breaks anywhere are ignored), with its SDP rebuilt from the template.
pub fn decode(text: &str) -> Result<Pairing, PairingError> {
    // Bounded before anything else, whitespace included, so that a huge paste costs nothing.
    if text.len() > 4 * MAX_TEXT {
        return Err(PairingError::TooLong { max: MAX_TEXT });
    }
    let text: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if text.len() > MAX_TEXT {
        return Err(PairingError::TooLong { max: MAX_TEXT });
    }
    let rest = text.strip_prefix(MAGIC).ok_or(PairingError::NotHotseat)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(PairingError::NotHotseat);
    }
    let version: u32 = rest
        .get(..digits)
        .and_then(|d| d.parse().ok())
        .unwrap_or(u32::MAX);
    if version > VERSION {
        return Err(PairingError::Newer { version });
    }
    if version != VERSION {
        return Err(PairingError::NotHotseat);
    }
    let rest = rest.get(digits..).unwrap_or("");
    let kind = match rest.chars().next() {
        Some('O') => PairingKind::Offer,
        Some('A') => PairingKind::Answer,
        _ => return Err(PairingError::Damaged),
    };
    let bytes = unbase32(rest.get(1..).unwrap_or("")).ok_or(PairingError::Damaged)?;
    let body = read_body(kind, &bytes).ok_or(PairingError::Damaged)?;
    Ok(Pairing {
        kind,
        join_code: body.code.map(|c| format!("{c:04}")),
        sdp: write_sdp(kind, &body),
    })
}

/// A join code of exactly 4 digits.
fn parse_code(code: &str) -> Result<u16, PairingError> {
    let bad = || PairingError::BadCode {
        got: code.chars().take(12).collect(),
    };
    if code.len() != 4 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    code.parse().map_err(|_| bad())
}

/// ICE's characters (RFC 8839 `ice-char`): letters, digits, `+` and `/`. Also what keeps
/// a decoded ufrag from smuggling a line into the rebuilt SDP.
fn ice_chars(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_ICE_CHARS
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// Takes what the pairing carries out of a browser's SDP.
fn read_sdp(kind: PairingKind, sdp: &str, code: Option<u16>) -> Result<Body, PairingError> {
    let missing = |what: &str| PairingError::Unsupported { what: what.into() };
    let mut ufrag = None;
    let mut pwd = None;
    let mut fingerprint = None;
    let mut setup = None;
    // (priority, address, port), in the SDP's order.
    let mut found: Vec<(u32, Address, u16)> = Vec::new();
    for line in sdp.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("a=ice-ufrag:") {
            ufrag.get_or_insert(v);
        } else if let Some(v) = line.strip_prefix("a=ice-pwd:") {
            pwd.get_or_insert(v);
        } else if let Some(v) = line.strip_prefix("a=fingerprint:") {
            if let Some(hex) = v
                .strip_prefix("sha-256 ")
                .or_else(|| v.strip_prefix("SHA-256 "))
            {
                fingerprint.get_or_insert(hex.trim());
            }
        } else if let Some(v) = line.strip_prefix("a=setup:") {
            setup.get_or_insert(v);
        } else if let Some(v) = line.strip_prefix("a=candidate:") {
            if let Some(c) = host_candidate(v) {
                found.push(c);
            }
        }
    }
    let ufrag = ufrag
        .filter(|u| ice_chars(u))
        .ok_or_else(|| missing("a=ice-ufrag"))?;
    let pwd = pwd
        .filter(|p| ice_chars(p))
        .ok_or_else(|| missing("a=ice-pwd"))?;
    let fingerprint = fingerprint
        .and_then(fingerprint_bytes)
        .ok_or_else(|| missing("a=fingerprint:sha-256"))?;
    if setup != Some(kind.setup()) {
        return Err(missing(&format!("a=setup:{}", kind.setup())));
    }
    // Best first (stable: equal priorities keep the browser's order), each address once.
    found.sort_by_key(|c| std::cmp::Reverse(c.0));
    let mut candidates: Vec<(Address, u16)> = Vec::new();
    for (_, address, port) in found {
        if !candidates.iter().any(|(a, _)| *a == address) && candidates.len() < MAX_CANDIDATES {
            candidates.push((address, port));
        }
    }
    if candidates.is_empty() {
        return Err(PairingError::NoAddress);
    }
    Ok(Body {
        code,
        ufrag: ufrag.into(),
        pwd: pwd.into(),
        fingerprint,
        candidates,
    })
}

/// `foundation component transport priority address port typ host …` of a UDP host
/// candidate of component 1; anything else (TCP, relayed, reflexive, RTCP) is not needed
/// on one Wi-Fi.
fn host_candidate(v: &str) -> Option<(u32, Address, u16)> {
    let f: Vec<&str> = v.split_ascii_whitespace().collect();
    let [_foundation, component, transport, priority, address, port, typ, kind, ..] = f[..] else {
        return None;
    };
    if component != "1" || !transport.eq_ignore_ascii_case("udp") || typ != "typ" || kind != "host"
    {
        return None;
    }
    let port: u16 = port.parse().ok().filter(|p| *p != 0)?;
    Some((priority.parse().ok()?, Address::parse(address)?, port))
}

/// `AB:CD:…` (32 bytes) as bytes.
fn fingerprint_bytes(hex: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    let mut parts = hex.split(':');
    for slot in out.iter_mut() {
        let part = parts.next()?;
        if part.len() != 2 {
            return None;
        }
        *slot = u8::from_str_radix(part, 16).ok()?;
    }
    parts.next().is_none().then_some(out)
}

fn body_bytes(body: &Body) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    if let Some(code) = body.code {
        out.extend(code.to_be_bytes());
    }
    for s in [&body.ufrag, &body.pwd] {
        // ice_chars bounded both to MAX_ICE_CHARS.
        out.push(s.len() as u8);
        out.extend(s.bytes());
    }
    out.extend(body.fingerprint);
    out.push(body.candidates.len() as u8);
    for (address, port) in &body.candidates {
        address.write(&mut out);
        out.extend(port.to_be_bytes());
    }
    let check = Sha256::digest(&out);
    out.extend(&check[..CHECK]);
    out
}

/// A cursor over the body that never reads past its end.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn ice(&mut self) -> Option<String> {
        let n = usize::from(self.byte()?);
        let s = std::str::from_utf8(self.take(n)?).ok()?;
        ice_chars(s).then(|| s.to_string())
    }
}

fn read_body(kind: PairingKind, bytes: &[u8]) -> Option<Body> {
    let (data, check) = bytes.split_at_checked(bytes.len().checked_sub(CHECK)?)?;
    if Sha256::digest(data)[..CHECK] != *check {
        return None;
    }
    let mut r = Reader { rest: data };
    let code = match kind {
        PairingKind::Offer => Some(u16::from_be_bytes(r.array()?)).filter(|c| *c <= 9999),
        PairingKind::Answer => None,
    };
    if kind == PairingKind::Offer && code.is_none() {
        return None;
    }
    let ufrag = r.ice()?;
    let pwd = r.ice()?;
    let fingerprint = r.array::<32>()?;
    let n = usize::from(r.byte()?);
    if n == 0 || n > MAX_CANDIDATES {
        return None;
    }
    let mut candidates = Vec::with_capacity(n);
    for _ in 0..n {
        let address = Address::read(&mut r)?;
        let port = u16::from_be_bytes(r.array()?);
        if port == 0 {
            return None;
        }
        candidates.push((address, port));
    }
    r.rest.is_empty().then_some(Body {
        code,
        ufrag,
        pwd,
        fingerprint,
        candidates,
    })
}

/// The SDP a browser accepts, modelled on Chromium's own for a data channel only
/// (captured in src/net/pairing/fixtures/).
fn write_sdp(kind: PairingKind, body: &Body) -> String {
    // A session id of the certificate's bytes: any number works; this one is stable.
    let mut id = [0u8; 8];
    id.copy_from_slice(&body.fingerprint[..8]);
    let session = u64::from_be_bytes(id) & 0x3FFF_FFFF_FFFF_FFFF;
    let mut s = String::with_capacity(700);
    let mut line = |l: &str| {
        s.push_str(l);
        s.push_str("\r\n");
    };
    line("v=0");
    line(&format!("o=- {session} 2 IN IP4 127.0.0.1"));
    line("s=-");
    line("t=0 0");
    line("a=group:BUNDLE 0");
    line("a=extmap-allow-mixed");
    line("a=msid-semantic: WMS");
    line("m=application 9 UDP/DTLS/SCTP webrtc-datachannel");
    line("c=IN IP4 0.0.0.0");
    for (i, (address, port)) in body.candidates.iter().enumerate() {
        // Host type preference 126, a local preference falling with the position (so the
        // order survives), component 1 (RFC 8445 §5.1.2.1).
        let priority = (126u32 << 24) | ((0xFFFF - i as u32) << 8) | 255;
        line(&format!(
            "a=candidate:{} 1 udp {priority} {address} {port} typ host generation 0",
            i + 1
        ));
    }
    line(&format!("a=ice-ufrag:{}", body.ufrag));
    line(&format!("a=ice-pwd:{}", body.pwd));
    line("a=ice-options:trickle");
    let hex: Vec<String> = body
        .fingerprint
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    line(&format!("a=fingerprint:sha-256 {}", hex.join(":")));
    line(&format!("a=setup:{}", kind.setup()));
    line("a=mid:0");
    line("a=sctp-port:5000");
    line("a=max-message-size:262144");
    s
}

/// RFC 4648 base32's alphabet: all of it in the QR code's alphanumeric mode.
const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Base32 without padding.
fn base32(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 8 / 5 + 1);
    let mut buffer: u32 = 0;
    let mut bits = 0;
    for &b in bytes {
        buffer = (buffer << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(BASE32[((buffer >> bits) & 31) as usize]));
        }
    }
    if bits > 0 {
        out.push(char::from(BASE32[((buffer << (5 - bits)) & 31) as usize]));
    }
    out
}

/// Base32 without padding, strictly: a length no encoder makes or stray bits set in the
/// last character read as damage.
fn unbase32(text: &str) -> Option<Vec<u8>> {
    if matches!(text.len() % 8, 1 | 3 | 6) {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let mut buffer: u32 = 0;
    let mut bits = 0;
    for c in text.bytes() {
        let v = BASE32.iter().position(|&a| a == c)? as u32;
        buffer = ((buffer << 5) | v) & 0xFFFF;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    (buffer & ((1 << bits) - 1) == 0).then_some(out)
}

#[cfg(test)]
mod tests;
