//! Finding the address behind the other side's `<uuid>.local` host candidates (issue 40):
//! a browser that may not capture (a phone that pasted the offer instead of scanning it:
//! iOS Safari, desktop Chrome) hides its address behind a random mDNS name and answers
//! for it itself. str0m knows no mDNS, so the app asks: a one-shot query (RFC 6762 §5.1)
//! to 224.0.0.251:5353 out of each of this device's addresses, again at 1 s and 3 s (a
//! query or its answer may be lost on Wi-Fi), then given up after [`GIVE_UP`]; what
//! answers becomes a remote candidate for str0m. Polled like the engine: nothing here
//! blocks or owns a thread.
//!
//! The socket listens on port 5353 itself, beside the system's own responder (address
//! reuse): Chromium's responder sends every answer to the group's port 5353, never back to
//! the asking port (services/network/mdns_responder.cc), so a querier on another port
//! would not hear it. Where port 5353 cannot be had, the query goes from any port and only
//! responders that answer such a query directly (Apple's, Avahi: RFC 6762 §6.7) are heard.

use super::mdns;
use socket2::{Domain, Protocol, SockRef, Socket, Type};
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, SocketAddrV4, UdpSocket};
use std::time::{Duration, Instant};

/// When the query goes out, from the moment the other side's description was taken in.
const ASK_AT: [Duration; 3] = [
    Duration::ZERO,
    Duration::from_secs(1),
    Duration::from_secs(3),
];
/// After this, no answer is waited for: the pairing goes on with the other side's own
/// checks, as before.
pub(super) const GIVE_UP: Duration = Duration::from_secs(6);
/// `.local` candidates taken from one description at most (a browser gives one or two).
const MAX_CANDIDATES: usize = 8;
/// Addresses taken for one name at most.
const MAX_ADDRESSES: usize = 4;
/// Packets read in one poll at most: a busy network's mDNS chatter cannot hold the caller.
const PER_POLL: usize = 64;
/// The largest mDNS packet (RFC 6762 §17); a longer one is cut and so refused.
const PACKET: usize = 9000;

/// One `.local` candidate of the other side: its name and port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Wanted {
    pub name: String,
    pub port: u16,
}

/// The `.local` host candidates of an SDP (component 1, UDP, as the pairing reads them),
/// at most [`MAX_CANDIDATES`]; a name that cannot be asked is left out.
pub(super) fn local_names(sdp: &str) -> Vec<Wanted> {
    let mut wanted: Vec<Wanted> = Vec::new();
    for (name, port) in crate::net::pairing::host_candidates(sdp) {
        let fits = name.ends_with(".local") && mdns::query(&name).is_some();
        if fits && !wanted.iter().any(|w| w.name == name && w.port == port) {
            wanted.push(Wanted { name, port });
            if wanted.len() == MAX_CANDIDATES {
                break;
            }
        }
    }
    wanted
}

/// A lookup under way: the names, what was found, when to ask again.
pub(super) struct Lookup {
    socket: Option<UdpSocket>,
    /// This device's IPv4 addresses: the query leaves by each one's interface.
    from: Vec<Ipv4Addr>,
    wanted: Vec<Wanted>,
    /// What each name gave, so an answer repeated adds nothing twice.
    found: BTreeMap<String, Vec<Ipv4Addr>>,
    started: Instant,
    asked: usize,
    buf: Vec<u8>,
}

impl Lookup {
    /// Starts looking up `wanted` from this device's `addrs`; `None` when there is
    /// nothing to look up. A socket that cannot be opened is noted, and the lookup ends
    /// quietly (the pairing goes on as without it).
    pub(super) fn start(wanted: Vec<Wanted>, addrs: &[IpAddr], now: Instant) -> Option<Lookup> {
        if wanted.is_empty() {
            return None;
        }
        let from: Vec<Ipv4Addr> = addrs
            .iter()
            .filter_map(|ip| match ip {
                IpAddr::V4(v4) if !v4.is_unspecified() => Some(*v4),
                _ => None,
            })
            .collect();
        let socket = match open(&from) {
            Ok(socket) => Some(socket),
            Err(e) => {
                crate::note!("WebRTC: cannot ask for the other device's mDNS names: {e}");
                None
            }
        };
        Some(Lookup {
            socket,
            from,
            wanted,
            found: BTreeMap::new(),
            started: now,
            asked: 0,
            buf: vec![0; PACKET],
        })
    }

    /// Sends the queries that are due and reads what came: the other side's candidates
    /// newly found (address and the candidate's port).
    pub(super) fn poll(&mut self, now: Instant) -> Vec<SocketAddr> {
        let Some(socket) = self.socket.as_ref() else {
            return Vec::new();
        };
        let since = now.saturating_duration_since(self.started);
        if self.asked < ASK_AT.len() && since >= ASK_AT[self.asked] {
            self.asked += 1;
            for name in self.unresolved() {
                let Some(query) = mdns::query(&name) else {
                    continue;
                };
                for ip in &self.from {
                    // Out of this address's interface; a failure (no multicast route
                    // there) is that interface's, and the next query tries again.
                    if SockRef::from(socket).set_multicast_if_v4(ip).is_ok() {
                        let _ = socket.send_to(&query, (mdns::GROUP, mdns::PORT));
                    }
                }
            }
        }
        let mut packets = Vec::new();
        for _ in 0..PER_POLL {
            match socket.recv_from(&mut self.buf) {
                Ok((n, _)) => packets.push(self.buf[..n].to_vec()),
                // WouldBlock: nothing more; another error is one datagram's.
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => continue,
            }
        }
        let mut new = Vec::new();
        for packet in packets {
            new.extend(self.take(&packet));
        }
        new
    }

    /// Reads one packet: the candidates it newly resolves. Anything malformed, or about
    /// other names, gives nothing.
    pub(super) fn take(&mut self, packet: &[u8]) -> Vec<SocketAddr> {
        let mut new = Vec::new();
        for name in self.names_with(|found| found < MAX_ADDRESSES) {
            let Ok(ips) = mdns::addresses_for(packet, &name) else {
                return new;
            };
            for ip in ips.into_iter().filter(|ip| usable(*ip)) {
                let known = self.found.entry(name.clone()).or_default();
                if known.contains(&ip) || known.len() >= MAX_ADDRESSES {
                    continue;
                }
                known.push(ip);
                crate::note!(
                    "WebRTC: mDNS: {name} is {ip} ({:.1} ms after the first query)",
                    // The real time of reading, not the poll's `now`, which may be older.
                    Instant::now()
                        .saturating_duration_since(self.started)
                        .as_secs_f64()
                        * 1000.0
                );
                for w in self.wanted.iter().filter(|w| w.name == name) {
                    new.push(SocketAddr::new(IpAddr::V4(ip), w.port));
                }
            }
        }
        new
    }

    /// Whether the lookup is over: every name found, or [`GIVE_UP`] has passed.
    pub(super) fn done(&self, now: Instant) -> bool {
        let over = now.saturating_duration_since(self.started) >= GIVE_UP;
        if over && !self.unresolved().is_empty() && self.socket.is_some() {
            crate::note!(
                "WebRTC: no mDNS answer for {} within {} s; waiting for the other device's checks",
                self.unresolved().join(", "),
                GIVE_UP.as_secs()
            );
        }
        over || self.socket.is_none() || self.unresolved().is_empty()
    }

    /// The names nothing was found for yet.
    fn unresolved(&self) -> Vec<String> {
        self.names_with(|found| found == 0)
    }

    /// The wanted names, each once, whose number of addresses found so far passes `keep`.
    fn names_with(&self, keep: impl Fn(usize) -> bool) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for w in &self.wanted {
            let found = self.found.get(&w.name).map_or(0, Vec::len);
            if !names.contains(&w.name) && keep(found) {
                names.push(w.name.clone());
            }
        }
        names
    }
}

/// An address a candidate may have: not loopback, multicast, broadcast or unspecified
/// (a hostile answer must not point this device's checks at itself or at a group).
fn usable(ip: Ipv4Addr) -> bool {
    !(ip.is_loopback() || ip.is_multicast() || ip.is_broadcast() || ip.is_unspecified())
}

/// The socket: port 5353 shared with the system's responder, the group joined on each of
/// `from`'s interfaces, non-blocking; any port when 5353 cannot be had.
fn open(from: &[Ipv4Addr]) -> std::io::Result<UdpSocket> {
    let at = |port| SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, port));
    let shared = Socket::new(Domain::IPV4, Type::DGRAM, Some(Protocol::UDP)).and_then(|s| {
        s.set_reuse_address(true)?;
        // Apple's systems share a multicast port only with SO_REUSEPORT (its
        // mDNSResponder sets it); Linux and Android need SO_REUSEADDR alone.
        #[cfg(any(target_os = "macos", target_os = "ios"))]
        s.set_reuse_port(true)?;
        s.bind(&at(mdns::PORT).into())?;
        Ok(s)
    });
    let socket = match shared {
        Ok(s) => s,
        Err(_) => {
            let s = Socket::new(Domain::IPV4, Type::DGRAM, Some(Protocol::UDP))?;
            s.bind(&at(0).into())?;
            s
        }
    };
    socket.set_nonblocking(true)?;
    // RFC 6762 §11: sent with IP TTL 255, on the link only.
    let _ = socket.set_multicast_ttl_v4(255);
    for ip in from {
        // Joined per interface, by its address: "any interface" needs a multicast route,
        // which a phone's hotspot often lacks. A failed join is that interface's.
        let _ = socket.join_multicast_v4(&mdns::GROUP, ip);
    }
    Ok(socket.into())
}

#[cfg(test)]
mod tests {
    use super::super::mdns::tests::chromium_reply as reply;
    use super::*;

    const NAME: &str = "df01c2bb-ec48-4b45-9a3a-2b0035e4af35.local";

    #[test]
    fn the_local_names_of_a_description_are_its_mdns_host_candidates() {
        let sdp = format!(
            "v=0\r\n\
             a=candidate:1 1 udp 2113937151 {NAME} 52283 typ host generation 0\r\n\
             a=candidate:2 1 UDP 2113937151 {} 52284 typ host\r\n\
             a=candidate:3 1 udp 2113937151 10.0.0.2 52285 typ host\r\n\
             a=candidate:4 1 TCP 2105524479 {NAME} 9 typ host tcptype active\r\n\
             a=candidate:5 2 udp 2113937151 {NAME} 52286 typ host\r\n\
             a=candidate:6 1 udp 2113937151 {NAME} 0 typ host\r\n\
             a=candidate:7 1 udp 2113937151 {NAME} 52283 typ host\r\n\
             a=candidate:8 1 udp 2113937151 bad..local 52287 typ host\r\n\
             a=candidate:9 1 udp\r\n",
            NAME.to_uppercase()
        );
        let names = local_names(&sdp);
        assert_eq!(
            names,
            vec![
                Wanted {
                    name: NAME.into(),
                    port: 52283
                },
                Wanted {
                    name: NAME.into(),
                    port: 52284
                },
            ]
        );
        // At most MAX_CANDIDATES from a hostile description.
        let many: String = (0..50)
            .map(|i| format!("a=candidate:{i} 1 udp 1 n{i}.local 1000 typ host\r\n"))
            .collect();
        assert_eq!(local_names(&many).len(), MAX_CANDIDATES);
    }

    /// A lookup with no socket: what `take` makes of packets, without a network.
    fn offline(wanted: Vec<Wanted>, now: Instant) -> Lookup {
        Lookup {
            socket: None,
            from: vec![Ipv4Addr::new(10, 78, 0, 1)],
            wanted,
            found: BTreeMap::new(),
            started: now,
            asked: 0,
            buf: vec![0; PACKET],
        }
    }

    #[test]
    fn an_answer_gives_each_port_of_the_name_once() {
        let now = Instant::now();
        let mut lookup = offline(
            vec![
                Wanted {
                    name: NAME.into(),
                    port: 52283,
                },
                Wanted {
                    name: NAME.into(),
                    port: 52284,
                },
            ],
            now,
        );
        assert_eq!(lookup.unresolved(), vec![NAME.to_string()]);
        let got = lookup.take(&reply(NAME, [10, 78, 0, 2]));
        assert_eq!(
            got,
            vec![
                "10.78.0.2:52283".parse().unwrap(),
                "10.78.0.2:52284".parse().unwrap()
            ]
        );
        assert!(lookup.unresolved().is_empty());
        assert!(lookup.take(&reply(NAME, [10, 78, 0, 2])).is_empty());
    }

    #[test]
    fn garbage_other_names_and_unusable_addresses_give_nothing() {
        let now = Instant::now();
        let mut lookup = offline(
            vec![Wanted {
                name: NAME.into(),
                port: 5000,
            }],
            now,
        );
        assert!(lookup.take(b"\x00\x01garbage").is_empty());
        assert!(lookup.take(&reply("other.local", [10, 0, 0, 9])).is_empty());
        for ip in [
            [127, 0, 0, 1],
            [224, 0, 0, 251],
            [255, 255, 255, 255],
            [0, 0, 0, 0],
        ] {
            assert!(lookup.take(&reply(NAME, ip)).is_empty(), "{ip:?}");
        }
        assert_eq!(lookup.unresolved(), vec![NAME.to_string()]);
        // A flood of different addresses for the name is cut at MAX_ADDRESSES.
        let taken: usize = (1..=20)
            .map(|i| lookup.take(&reply(NAME, [10, 0, 1, i])).len())
            .sum();
        assert_eq!(taken, MAX_ADDRESSES);
    }

    #[test]
    fn a_lookup_ends_when_found_or_after_the_bound() {
        let now = Instant::now();
        assert!(Lookup::start(Vec::new(), &[], now).is_none());
        let mut lookup = offline(
            vec![Wanted {
                name: NAME.into(),
                port: 5000,
            }],
            now,
        );
        // No socket: nothing to wait for.
        assert!(lookup.done(now));
        lookup.socket = UdpSocket::bind("127.0.0.1:0").ok();
        assert!(!lookup.done(now));
        assert!(lookup.done(now + GIVE_UP));
        lookup.take(&reply(NAME, [10, 78, 0, 2]));
        assert!(lookup.done(now));
    }
}
