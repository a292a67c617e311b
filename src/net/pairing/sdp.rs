//! What a data channel needs out of any browser engine's SDP, and the standard SDP rebuilt
//! from it (issue 40). Chromium, Safari and Firefox describe the same data channel in
//! different words (research/webrtc-engines.md §1.4: Firefox's `o=` line, its session-level
//! fingerprint and `a=sendrecv`, upper-case `UDP` candidates without libwebrtc's tails,
//! `a=end-of-candidates`, 8/32 hex credentials; Safari 14's `b=AS:30` and no
//! `a=extmap-allow-mixed`; a `max-message-size` of 262144 or 1073741823). None of those
//! words matter to the other engine; the values below do, and each is kept as sent. What
//! cannot be placed in the rebuilt SDP is refused with the SDP's own name for it
//! ([`PairingError::Unsupported`]), never guessed.

use super::{PairingError, PairingKind};
use std::fmt::Write as _;
use std::net::{Ipv4Addr, Ipv6Addr};

/// The longest ICE ufrag or pwd carried: one length byte (RFC 8839 allows 256; browsers
/// make 4/24 or 8/32).
pub(super) const MAX_ICE_CHARS: usize = 255;
/// The longest `a=mid` carried (browsers write `0`; old Firefox `sdparta_0`).
pub(super) const MAX_MID: usize = 32;
/// The longest mDNS name that is not a UUID (`printer-3.local`).
pub(super) const MAX_NAME: usize = 63;
/// The SCTP port the rebuilt SDP states: every engine's, and the only one carried.
const SCTP_PORT: &str = "5000";

/// The DTLS role, as the browser stated it (RFC 5763): the offer `actpass`; the answer
/// `active` in every capture, but `passive` is allowed, and turning it into `active` would
/// make both ends DTLS clients, a silent failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Setup {
    ActPass,
    Active,
    Passive,
}

impl Setup {
    pub(super) fn word(self) -> &'static str {
        match self {
            Setup::ActPass => "actpass",
            Setup::Active => "active",
            Setup::Passive => "passive",
        }
    }

    pub(super) fn code(self) -> u8 {
        match self {
            Setup::ActPass => 0,
            Setup::Active => 1,
            Setup::Passive => 2,
        }
    }

    pub(super) fn from_code(code: u8) -> Option<Setup> {
        [Setup::ActPass, Setup::Active, Setup::Passive]
            .into_iter()
            .find(|s| s.code() == code)
    }
}

/// The certificate fingerprint's hash (RFC 8122's names; browsers use SHA-256 today).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Hash {
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
}

impl Hash {
    const ALL: [Hash; 5] = [
        Hash::Sha1,
        Hash::Sha224,
        Hash::Sha256,
        Hash::Sha384,
        Hash::Sha512,
    ];

    pub(super) fn name(self) -> &'static str {
        match self {
            Hash::Sha1 => "sha-1",
            Hash::Sha224 => "sha-224",
            Hash::Sha256 => "sha-256",
            Hash::Sha384 => "sha-384",
            Hash::Sha512 => "sha-512",
        }
    }

    /// The digest's length in bytes.
    pub(super) fn len(self) -> usize {
        match self {
            Hash::Sha1 => 20,
            Hash::Sha224 => 28,
            Hash::Sha256 => 32,
            Hash::Sha384 => 48,
            Hash::Sha512 => 64,
        }
    }

    pub(super) fn code(self) -> u8 {
        match self {
            Hash::Sha1 => 1,
            Hash::Sha224 => 2,
            Hash::Sha256 => 3,
            Hash::Sha384 => 4,
            Hash::Sha512 => 5,
        }
    }

    pub(super) fn from_code(code: u8) -> Option<Hash> {
        Hash::ALL.into_iter().find(|h| h.code() == code)
    }

    fn from_name(name: &str) -> Option<Hash> {
        Hash::ALL
            .into_iter()
            .find(|h| h.name().eq_ignore_ascii_case(name))
    }
}

/// Where a host candidate is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Address {
    V4(Ipv4Addr),
    V6(Ipv6Addr),
    /// `<uuid>.local`: the browser hides the address behind an mDNS name it answers for.
    Mdns([u8; 16]),
    /// Another `.local` name (lower-case letters, digits, `-` and `.`), without `.local`.
    Name(String),
}

impl Address {
    pub(super) const TAG_V4: u8 = 1;
    pub(super) const TAG_V6: u8 = 2;
    pub(super) const TAG_MDNS: u8 = 3;
    pub(super) const TAG_NAME: u8 = 4;

    /// An SDP candidate's address, if it is one this format carries.
    fn parse(text: &str) -> Option<Address> {
        if let Ok(ip) = text.parse::<Ipv4Addr>() {
            return Some(Address::V4(ip));
        }
        if let Ok(ip) = text.parse::<Ipv6Addr>() {
            return Some(Address::V6(ip));
        }
        // Names are read in lower case, as DNS compares them.
        let text = text.to_ascii_lowercase();
        let name = text.strip_suffix(".local")?;
        if let Some(id) = uuid_bytes(name) {
            return Some(Address::Mdns(id));
        }
        mdns_name(name).then(|| Address::Name(name.to_owned()))
    }
}

/// A `.local` name's part before `.local` that the rebuilt SDP can carry safely.
pub(super) fn mdns_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.starts_with(['.', '-'])
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
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
            Address::Name(name) => write!(f, "{name}.local"),
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

/// What a data channel's description carries between two engines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Description {
    pub ufrag: String,
    pub pwd: String,
    pub hash: Hash,
    pub fingerprint: Vec<u8>,
    pub setup: Setup,
    pub mid: String,
    /// `a=max-message-size` as sent; `None` when the engine wrote none (the other end
    /// then assumes 64 KiB, RFC 8841).
    pub max_message_size: Option<u32>,
    /// UDP host candidates, best priority first, each address once.
    pub candidates: Vec<(Address, u16)>,
}

/// ICE's characters (RFC 8839 `ice-char`): letters, digits, `+` and `/`. Also what keeps
/// a decoded ufrag from smuggling a line into the rebuilt SDP.
pub(super) fn ice_chars(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_ICE_CHARS
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// An `a=mid` value the rebuilt SDP can carry (RFC 5888 allows any token; these are the
/// safe ones every engine writes).
pub(super) fn mid_chars(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_MID
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'~'))
}

/// The SDP's own name for what cannot be carried, at most 80 characters of it.
fn unsupported(what: &str) -> PairingError {
    PairingError::Unsupported {
        what: what.chars().take(80).collect(),
    }
}

/// Takes what a data channel needs out of a browser's SDP of `kind`, whichever engine made
/// it: values at session level count where the media section has none (Firefox writes
/// its fingerprint there).
pub(super) fn read_sdp(kind: PairingKind, sdp: &str) -> Result<Description, PairingError> {
    let mut media: Vec<&str> = Vec::new();
    let mut session: Vec<&str> = Vec::new();
    let mut m_lines = 0;
    for line in sdp.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(m) = line.strip_prefix("m=") {
            m_lines += 1;
            if m_lines > 1 {
                return Err(unsupported(&format!("{line} (a second media section)")));
            }
            let f: Vec<&str> = m.split_ascii_whitespace().collect();
            if f.first() != Some(&"application") {
                return Err(unsupported(line));
            }
            if f.get(2..) != Some(&["UDP/DTLS/SCTP", "webrtc-datachannel"][..]) {
                // The pre-2019 form (`DTLS/SCTP 5000` with `a=sctpmap`) among others.
                return Err(unsupported(line));
            }
            continue;
        }
        if m_lines == 0 {
            session.push(line);
        } else {
            media.push(line);
        }
    }
    if m_lines == 0 {
        return Err(unsupported("m=application"));
    }
    // The media section's value, else the session's (RFC 8866 §5.13).
    let value = |name: &str| -> Option<&str> {
        media
            .iter()
            .chain(&session)
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
    };
    if value("a=ice-lite").is_some() {
        return Err(unsupported("a=ice-lite"));
    }
    let ufrag = value("a=ice-ufrag:")
        .filter(|u| ice_chars(u))
        .ok_or_else(|| unsupported("a=ice-ufrag"))?;
    let pwd = value("a=ice-pwd:")
        .filter(|p| ice_chars(p))
        .ok_or_else(|| unsupported("a=ice-pwd"))?;
    let (hash, fingerprint) = fingerprint(value("a=fingerprint:"))?;
    let setup = match value("a=setup:") {
        Some("actpass") if kind == PairingKind::Answer => {
            // RFC 5763 §5: an answer chooses; `actpass` there leaves both ends undecided.
            return Err(unsupported("a=setup:actpass (in an answer)"));
        }
        Some("actpass") => Setup::ActPass,
        Some("active") => Setup::Active,
        Some("passive") => Setup::Passive,
        Some(other) => return Err(unsupported(&format!("a=setup:{other}"))),
        None => return Err(unsupported("a=setup")),
    };
    let mid = value("a=mid:")
        .filter(|m| mid_chars(m))
        .ok_or_else(|| unsupported("a=mid"))?;
    if let Some(port) = value("a=sctp-port:") {
        if port != SCTP_PORT {
            return Err(unsupported(&format!("a=sctp-port:{port}")));
        }
    }
    let max_message_size = match value("a=max-message-size:") {
        Some(v) => Some(
            v.parse::<u32>()
                .map_err(|_| unsupported(&format!("a=max-message-size:{v}")))?,
        ),
        None => None,
    };
    // (priority, address, port), in the SDP's order.
    let mut found: Vec<(u32, Address, u16)> = Vec::new();
    for line in media.iter().chain(&session) {
        if let Some(v) = line.strip_prefix("a=candidate:") {
            if let Some(c) = host_candidate(v)? {
                found.push(c);
            }
        }
    }
    // Best first (stable: equal priorities keep the browser's order), each address once.
    found.sort_by_key(|c| std::cmp::Reverse(c.0));
    let mut candidates: Vec<(Address, u16)> = Vec::new();
    for (_, address, port) in found {
        if !candidates.iter().any(|(a, _)| *a == address) {
            candidates.push((address, port));
        }
    }
    if candidates.is_empty() {
        return Err(PairingError::NoAddress);
    }
    Ok(Description {
        ufrag: ufrag.into(),
        pwd: pwd.into(),
        hash,
        fingerprint,
        setup,
        mid: mid.into(),
        max_message_size,
        candidates,
    })
}

/// `sha-256 AB:CD:…` as its hash and bytes.
fn fingerprint(value: Option<&str>) -> Result<(Hash, Vec<u8>), PairingError> {
    let value = value.ok_or_else(|| unsupported("a=fingerprint"))?;
    let (name, hex) = value
        .split_once(' ')
        .ok_or_else(|| unsupported("a=fingerprint"))?;
    let hash =
        Hash::from_name(name).ok_or_else(|| unsupported(&format!("a=fingerprint:{name}")))?;
    let bytes: Option<Vec<u8>> = hex
        .trim()
        .split(':')
        .map(|p| {
            (p.len() == 2)
                .then(|| u8::from_str_radix(p, 16).ok())
                .flatten()
        })
        .collect();
    match bytes {
        Some(b) if b.len() == hash.len() => Ok((hash, b)),
        _ => Err(unsupported(&format!("a=fingerprint:{}", hash.name()))),
    }
}

/// `foundation component transport priority address port typ type …`: a UDP host
/// candidate of component 1, or `None` for one a data channel on one Wi-Fi does without
/// (TCP, reflexive, relayed; RTCP's component 2). A UDP host candidate that cannot be
/// carried is refused, not dropped: the pairing would silently lose an address.
fn host_candidate(v: &str) -> Result<Option<(u32, Address, u16)>, PairingError> {
    let bad = || unsupported(&format!("a=candidate:{v}"));
    let f: Vec<&str> = v.split_ascii_whitespace().collect();
    let [_foundation, component, transport, priority, address, port, typ, kind, ..] = f[..] else {
        return Err(bad());
    };
    if typ != "typ" {
        return Err(bad());
    }
    if component != "1" || !transport.eq_ignore_ascii_case("udp") || kind != "host" {
        return Ok(None);
    }
    let priority: u32 = priority.parse().map_err(|_| bad())?;
    let port: u16 = port.parse().ok().filter(|p| *p != 0).ok_or_else(bad)?;
    let address = Address::parse(address).ok_or_else(bad)?;
    Ok(Some((priority, address, port)))
}

/// The UDP host candidates of component 1 in `sdp`, in its order, each as its address is
/// written (an IP, or a `….local` name in lower case) and its port; a line that
/// [`read_sdp`] would refuse or leave out is skipped. What the app's end of the channel
/// reads back from a rebuilt description (`net::rtc_native`).
pub(super) fn host_candidates(sdp: &str) -> Vec<(String, u16)> {
    sdp.lines()
        .filter_map(|line| line.trim().strip_prefix("a=candidate:"))
        .filter_map(|v| host_candidate(v).ok().flatten())
        .map(|(_, address, port)| (address.to_string(), port))
        .collect()
}

/// The standard SDP of a data channel that every engine takes through
/// `setRemoteDescription`: the carried values, the rest what all three engines write.
pub(super) fn write_sdp(d: &Description) -> String {
    // A session id of the certificate's bytes: any number works; this one is stable.
    let mut id = [0u8; 8];
    for (slot, b) in id.iter_mut().zip(&d.fingerprint) {
        *slot = *b;
    }
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
    line(&format!("a=group:BUNDLE {}", d.mid));
    line("a=extmap-allow-mixed");
    line("a=msid-semantic: WMS");
    line("m=application 9 UDP/DTLS/SCTP webrtc-datachannel");
    line("c=IN IP4 0.0.0.0");
    for (i, (address, port)) in d.candidates.iter().enumerate() {
        // Host type preference 126, a local preference falling with the position (so the
        // order survives), component 1 (RFC 8445 §5.1.2.1).
        let priority = (126u32 << 24) | ((0xFFFF - i as u32) << 8) | 255;
        line(&format!(
            "a=candidate:{} 1 udp {priority} {address} {port} typ host generation 0",
            i + 1
        ));
    }
    line(&format!("a=ice-ufrag:{}", d.ufrag));
    line(&format!("a=ice-pwd:{}", d.pwd));
    line("a=ice-options:trickle");
    let hex: Vec<String> = d.fingerprint.iter().map(|b| format!("{b:02X}")).collect();
    line(&format!(
        "a=fingerprint:{} {}",
        d.hash.name(),
        hex.join(":")
    ));
    line(&format!("a=setup:{}", d.setup.word()));
    line(&format!("a=mid:{}", d.mid));
    line(&format!("a=sctp-port:{SCTP_PORT}"));
    if let Some(size) = d.max_message_size {
        line(&format!("a=max-message-size:{size}"));
    }
    s
}
