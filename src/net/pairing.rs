//! The pairing text of two browsers (issues 31 and 40, docs/network.md "Two browsers over
//! a WebRTC data channel"): what one phone shows as a QR code and the other scans, instead
//! of a signalling server.
//!
//! A browser's SDP is ~600 to 1800 characters of which only ~100 bytes matter for a data
//! channel between two pages on the same Wi-Fi: the ICE credentials, the DTLS certificate's
//! fingerprint, the setup role, the mid, the largest message and the host candidates.
//! Chromium, Safari and Firefox write those in different words; [`encode`] keeps only the
//! values ([`sdp`] reads any engine's SDP), and [`decode`] writes them into a standard SDP
//! every engine accepts through `setRemoteDescription`. The QR code stays within version
//! 10 at error correction M ([`crate::net::qr`], [`MAX_QR_CHARS`]).
//!
//! The text: `HS` (Hotseat), the format's version (`2`), `O` (offer) or `A` (answer), then
//! the body in base32 (RFC 4648, upper case, no padding): letters and digits only, all in
//! the QR code's alphanumeric alphabet, so a QR code carries 5.5 bits per character.
//! The body, version 2:
//!
//! | bytes | what |
//! | --- | --- |
//! | 2 | the join code (offer only), `0..=9999` big-endian |
//! | 1 | flags: the setup role (bits 0–1: actpass, active, passive), the mid is `0` (bit 2), `max-message-size` (bits 3–4: none, 262144, 1073741823, or 4 bytes below), the ICE credentials are lower-case hex (bit 5) |
//! | 1 + n | ICE ufrag: its length, then its characters (hex: two digits a byte) |
//! | 1 + n | ICE pwd, likewise |
//! | 1 + n | the fingerprint's hash (1 SHA-1, 2 SHA-224, 3 SHA-256, 4 SHA-384, 5 SHA-512), then its bytes |
//! | 1 + n | the mid, when it is not `0` |
//! | 4 | `max-message-size`, when it is neither of the usual two |
//! | 1 | how many candidates (1 to [`MAX_CANDIDATES`]), then each: |
//! | 1 + a + 2 | tag (1 IPv4, 2 IPv6, 3 an mDNS name `<uuid>.local` as its 16 bytes, 4 another `.local` name, length-prefixed), address, UDP port |
//! | 2 | the first two bytes of the SHA-256 of all the above: a pasted text cut short or mistyped reads as damaged, not as a wrong address |
//!
//! Version 1 (issue 31, Chromium's values implied) is still read. Candidates are kept in
//! priority order; the foundation and priority are rebuilt from the position. Nothing
//! here panics on any text (tested with random bytes); it builds for wasm32 as for the
//! desktop: no I/O, no clock, no UI.

mod sdp;

use sdp::{
    ice_chars, mdns_name, mid_chars, read_sdp, write_sdp, Address, Description, Hash, Setup,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::net::{Ipv4Addr, Ipv6Addr};

/// The format's version this build writes (and the newest it reads).
pub const VERSION: u32 = 2;
/// The longest text [`decode`] looks at (a real one is ~170 to 300 characters): anything
/// longer is refused before any work is done on it.
pub const MAX_TEXT: usize = 1024;
/// At most this many candidates are carried (the best by priority): a phone with many
/// interfaces or IPv6 addresses would otherwise grow the QR code past what a camera reads
/// easily, and on one Wi-Fi the first few are the ones that work.
pub const MAX_CANDIDATES: usize = 6;
/// The longest text [`encode`] makes: what a version 10 QR code holds at error correction
/// M in its alphanumeric mode (ISO 18004 table 7). Past it, candidates of lowest priority
/// are left out.
pub const MAX_QR_CHARS: usize = 311;
/// Every text starts so.
const MAGIC: &str = "HS";
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
    /// Nothing but spaces was pasted (the copy on the other phone did not take, or Paste
    /// was pressed first): said apart from a wrong text, which needs another remedy.
    #[error("nothing was pasted: copy the other phone's pairing text, then paste it here")]
    Empty,
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
            PairingError::Empty,
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
                PairingError::Empty
                | PairingError::NotHotseat
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

/// What a pairing text carries: the join code (an offer's) and the description.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Body {
    code: Option<u16>,
    description: Description,
}

/// The pairing text of the browser's local SDP (read once ICE gathering is complete:
/// no trickle), `join_code` with an offer. Whichever engine wrote the SDP; what cannot be
/// carried is refused by name ([`PairingError::Unsupported`]). When the text would not fit
/// a version 10 QR code ([`MAX_QR_CHARS`]), the candidates of lowest priority are left out
/// (the first ones are those that work on one Wi-Fi); if even one does not fit, it is
/// [`PairingError::TooBigForQr`].
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
    let mut description = read_sdp(kind, sdp)?;
    description.candidates.truncate(MAX_CANDIDATES);
    loop {
        let text = text_of(kind, &body_bytes(code, &description));
        if text.len() <= MAX_QR_CHARS {
            return Ok(text);
        }
        if description.candidates.len() <= 1 {
            return Err(PairingError::TooBigForQr { chars: text.len() });
        }
        description.candidates.pop();
    }
}

fn text_of(kind: PairingKind, bytes: &[u8]) -> String {
    format!("{MAGIC}{VERSION}{}{}", kind.letter(), base32(bytes))
}

/// The UDP host candidates of a description (`sdp`, as [`decode`] rebuilds it): each
/// address as written (an IP, or a `….local` name) with its port, in the SDP's order.
pub fn host_candidates(sdp: &str) -> Vec<(String, u16)> {
    sdp::host_candidates(sdp)
}

/// The pairing in `text` (a scanned or pasted code: upper or lower case, spaces and line
/// breaks anywhere are ignored), with a standard SDP rebuilt from what it carries. Reads
/// this version's texts and version 1's (an older Hotseat's, Chromium's values implied).
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
    if text.is_empty() {
        return Err(PairingError::Empty);
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
    if version == 0 {
        return Err(PairingError::NotHotseat);
    }
    let rest = rest.get(digits..).unwrap_or("");
    let kind = match rest.chars().next() {
        Some('O') => PairingKind::Offer,
        Some('A') => PairingKind::Answer,
        _ => return Err(PairingError::Damaged),
    };
    let bytes = unbase32(rest.get(1..).unwrap_or("")).ok_or(PairingError::Damaged)?;
    let body = read_body(version, kind, &bytes).ok_or(PairingError::Damaged)?;
    Ok(Pairing {
        kind,
        join_code: body.code.map(|c| format!("{c:04}")),
        sdp: write_sdp(&body.description),
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

// The flags byte of version 2.
/// Bits 0–1: the setup role ([`Setup::code`]).
const SETUP_BITS: u8 = 0b11;
/// The mid is `0` (every engine's today); else it follows, length-prefixed.
const MID_ZERO: u8 = 1 << 2;
/// Bits 3–4: `max-message-size` absent, 262144 (Chromium, Safari), 1073741823 (Firefox),
/// or the 4 bytes that follow.
const MMS_SHIFT: u8 = 3;
const MMS_KNOWN: [u32; 2] = [262_144, 1_073_741_823];
/// The ufrag and pwd are lower-case hex of even length (Firefox's), two digits a byte.
const ICE_HEX: u8 = 1 << 5;
/// Bits 6–7: none yet (set, the text is damaged or newer).
const FLAGS_USED: u8 = 0b0011_1111;

/// Lower-case hex of even length: carried at half the size.
fn hex_pair(s: &str) -> bool {
    s.len() % 2 == 0
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn body_bytes(code: Option<u16>, d: &Description) -> Vec<u8> {
    let mut out = Vec::with_capacity(160);
    if let Some(code) = code {
        out.extend(code.to_be_bytes());
    }
    let hex = hex_pair(&d.ufrag) && hex_pair(&d.pwd);
    let mms = match d.max_message_size {
        None => 0,
        Some(m) => MMS_KNOWN
            .iter()
            .position(|k| *k == m)
            .map_or(3, |i| i as u8 + 1),
    };
    let mut flags = d.setup.code() | (mms << MMS_SHIFT);
    if d.mid == "0" {
        flags |= MID_ZERO;
    }
    if hex {
        flags |= ICE_HEX;
    }
    out.push(flags);
    for s in [&d.ufrag, &d.pwd] {
        // ice_chars bounded both to MAX_ICE_CHARS (255): the length is one byte.
        out.push(s.len() as u8);
        if hex {
            out.extend(
                (0..s.len())
                    .step_by(2)
                    .filter_map(|i| s.get(i..i + 2).and_then(|p| u8::from_str_radix(p, 16).ok())),
            );
        } else {
            out.extend(s.bytes());
        }
    }
    out.push(d.hash.code());
    out.extend(&d.fingerprint);
    if d.mid != "0" {
        // mid_chars bounded it to MAX_MID.
        out.push(d.mid.len() as u8);
        out.extend(d.mid.bytes());
    }
    if let (3, Some(m)) = (mms, d.max_message_size) {
        out.extend(m.to_be_bytes());
    }
    out.push(d.candidates.len() as u8);
    for (address, port) in &d.candidates {
        match address {
            Address::V4(ip) => {
                out.push(Address::TAG_V4);
                out.extend(ip.octets());
            }
            Address::V6(ip) => {
                out.push(Address::TAG_V6);
                out.extend(ip.octets());
            }
            Address::Mdns(id) => {
                out.push(Address::TAG_MDNS);
                out.extend(id);
            }
            Address::Name(name) => {
                // mdns_name bounded it to MAX_NAME.
                out.push(Address::TAG_NAME);
                out.push(name.len() as u8);
                out.extend(name.bytes());
            }
        }
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

    /// A length byte and that many characters (or, `hex`, half as many bytes).
    fn text(&mut self, hex: bool) -> Option<String> {
        let n = usize::from(self.byte()?);
        if hex {
            if n % 2 != 0 {
                return None;
            }
            let bytes = self.take(n / 2)?;
            Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
        } else {
            Some(std::str::from_utf8(self.take(n)?).ok()?.to_string())
        }
    }

    fn ice(&mut self, hex: bool) -> Option<String> {
        self.text(hex).filter(|s| ice_chars(s))
    }

    fn address(&mut self) -> Option<Address> {
        match self.byte()? {
            Address::TAG_V4 => Some(Address::V4(Ipv4Addr::from(self.array::<4>()?))),
            Address::TAG_V6 => Some(Address::V6(Ipv6Addr::from(self.array::<16>()?))),
            Address::TAG_MDNS => Some(Address::Mdns(self.array::<16>()?)),
            Address::TAG_NAME => self.text(false).filter(|n| mdns_name(n)).map(Address::Name),
            _ => None,
        }
    }
}

/// The body of a text of `version` (1 or 2); `None` is damage.
fn read_body(version: u32, kind: PairingKind, bytes: &[u8]) -> Option<Body> {
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
    let description = if version == 1 {
        // Version 1 carried Chromium's values and implied the rest: SHA-256, `actpass` /
        // `active`, mid 0, 262144.
        let ufrag = r.ice(false)?;
        let pwd = r.ice(false)?;
        let fingerprint = r.array::<32>()?.to_vec();
        Description {
            ufrag,
            pwd,
            hash: Hash::Sha256,
            fingerprint,
            setup: match kind {
                PairingKind::Offer => Setup::ActPass,
                PairingKind::Answer => Setup::Active,
            },
            mid: "0".into(),
            max_message_size: Some(MMS_KNOWN[0]),
            candidates: Vec::new(),
        }
    } else {
        let flags = r.byte()?;
        if flags & !FLAGS_USED != 0 {
            return None;
        }
        let setup = Setup::from_code(flags & SETUP_BITS)?;
        if kind == PairingKind::Answer && setup == Setup::ActPass {
            return None;
        }
        let hex = flags & ICE_HEX != 0;
        let ufrag = r.ice(hex)?;
        let pwd = r.ice(hex)?;
        let hash = Hash::from_code(r.byte()?)?;
        let fingerprint = r.take(hash.len())?.to_vec();
        let mid = if flags & MID_ZERO != 0 {
            "0".to_string()
        } else {
            r.text(false).filter(|m| mid_chars(m) && m != "0")?
        };
        let max_message_size = match (flags >> MMS_SHIFT) & 0b11 {
            0 => None,
            3 => Some(u32::from_be_bytes(r.array()?)).filter(|m| !MMS_KNOWN.contains(m)),
            known => Some(MMS_KNOWN[usize::from(known) - 1]),
        };
        if (flags >> MMS_SHIFT) & 0b11 == 3 && max_message_size.is_none() {
            return None;
        }
        Description {
            ufrag,
            pwd,
            hash,
            fingerprint,
            setup,
            mid,
            max_message_size,
            candidates: Vec::new(),
        }
    };
    let n = usize::from(r.byte()?);
    if n == 0 || n > MAX_CANDIDATES {
        return None;
    }
    let mut candidates = Vec::with_capacity(n);
    for _ in 0..n {
        let address = if version == 1 {
            // Version 1 knew tags 1 to 3 only.
            r.address().filter(|a| !matches!(a, Address::Name(_)))?
        } else {
            r.address()?
        };
        let port = u16::from_be_bytes(r.array()?);
        if port == 0 {
            return None;
        }
        candidates.push((address, port));
    }
    r.rest.is_empty().then_some(Body {
        code,
        description: Description {
            candidates,
            ..description
        },
    })
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
mod engine_tests;
#[cfg(test)]
mod tests;
