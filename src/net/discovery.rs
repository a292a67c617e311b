//! Finding a host on the local network: the host announces a small JSON beacon by UDP
//! multicast once a second; a joining device listens and lists what it hears. The join
//! code is never in the beacon (it is what proves a player saw the host's screen); typing
//! the address is the fallback when multicast is blocked.
//!
//! Plain UDP multicast with `std::net` rather than mDNS (`mdns-sd`): one beacon type on one
//! group needs no service registry, no extra threads of a library and no new dependency,
//! and the code stays small enough to test on loopback.
//!
//! A phone's hotspot often gives only the subnet route: no default route and no route
//! for multicast, so sending to the group fails and joining it "on any interface" fails
//! with "No such device". So the beacon also goes to each interface's broadcast address
//! (the subnet route carries it), and the browser joins the group on each interface by
//! its address and hears broadcasts as well.

use super::{NetError, NetReason};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The multicast group hosts announce on (administratively scoped, site-local).
pub const GROUP: Ipv4Addr = Ipv4Addr::new(239, 255, 72, 83);
/// The UDP port of the announcements.
pub const PORT: u16 = 47_683;
/// How often a host announces itself.
pub const ANNOUNCE_EVERY: Duration = Duration::from_secs(1);
/// The largest beacon accepted.
const MAX_BEACON: usize = 512;

/// What a host announces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Beacon {
    /// Always `"hotseat"`, so other traffic on the group is ignored.
    pub app: String,
    /// The protocol version the host speaks.
    pub version: u32,
    /// The game (`omiga`).
    pub game: String,
    /// The host's name as players see it.
    pub name: String,
    /// The TCP port the host listens on (the address is where the beacon came from).
    pub port: u16,
}

impl Beacon {
    /// A beacon for an Omiga host called `name` on `port`.
    pub fn omiga(name: &str, port: u16) -> Self {
        Beacon {
            app: "hotseat".into(),
            version: super::protocol::PROTOCOL_VERSION,
            game: "omiga".into(),
            name: name.chars().take(40).collect(),
            port,
        }
    }

    /// Reads a datagram; anything that is not a Hotseat beacon is `None`.
    pub fn decode(bytes: &[u8]) -> Option<Beacon> {
        if bytes.len() > MAX_BEACON {
            return None;
        }
        let beacon: Beacon = serde_json::from_slice(bytes).ok()?;
        (beacon.app == "hotseat").then_some(beacon)
    }
}

/// A host heard on the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Where to connect.
    pub addr: SocketAddr,
    /// What it announced.
    pub beacon: Beacon,
}

/// Announces a beacon until dropped.
pub struct Announcer {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Announcer {
    /// Sends `beacon` to `target` every `every` (the multicast group on the LAN; a
    /// loopback address in tests).
    pub fn start(beacon: &Beacon, target: SocketAddr, every: Duration) -> Result<Self, NetError> {
        Self::start_to(beacon, vec![target], every)
    }

    /// Sends `beacon` to every one of `targets` every `every`.
    fn start_to(
        beacon: &Beacon,
        targets: Vec<SocketAddr>,
        every: Duration,
    ) -> Result<Self, NetError> {
        let loopback = targets.iter().all(|t| t.ip().is_loopback());
        let bind: SocketAddr = if loopback {
            SocketAddr::from((Ipv4Addr::LOCALHOST, 0))
        } else {
            SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0))
        };
        let socket = UdpSocket::bind(bind).map_err(|e| {
            NetError::Setup(NetReason::CannotAnnounce {
                detail: e.to_string(),
            })
        })?;
        // Beacons stay on the local network.
        let _ = socket.set_multicast_ttl_v4(1);
        // Directed broadcasts are refused without it (EACCES).
        let _ = socket.set_broadcast(true);
        let bytes =
            serde_json::to_vec(beacon).map_err(|e| NetError::Setup(e.to_string().into()))?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = thread::spawn(move || {
            let mut last: Option<Instant> = None;
            while !flag.load(Ordering::SeqCst) {
                if last.is_none_or(|t| t.elapsed() >= every) {
                    // A failed send (no network yet, no multicast route) is retried at
                    // the next beat; the other targets still get theirs.
                    for target in &targets {
                        let _ = socket.send_to(&bytes, target);
                    }
                    last = Some(Instant::now());
                }
                thread::sleep(Duration::from_millis(20));
            }
        });
        Ok(Announcer {
            stop,
            thread: Some(thread),
        })
    }

    /// Announces on the LAN group and to each interface's broadcast address.
    pub fn on_lan(beacon: &Beacon) -> Result<Self, NetError> {
        let mut targets = vec![SocketAddr::V4(SocketAddrV4::new(GROUP, PORT))];
        for broadcast in broadcast_addresses() {
            targets.push(SocketAddr::V4(SocketAddrV4::new(broadcast, PORT)));
        }
        Self::start_to(beacon, targets, ANNOUNCE_EVERY)
    }
}

impl Drop for Announcer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// This device's IPv4 addresses that another device on the network can reach: every
/// interface's but loopback's, private (home and hotspot) networks first, link-local last.
/// Empty when the device has no network.
pub fn lan_addresses() -> Vec<Ipv4Addr> {
    let mut found: Vec<Ipv4Addr> = interfaces().into_iter().map(|(ip, _)| ip).collect();
    found.sort_by_key(|ip| (!ip.is_private(), ip.is_link_local(), *ip));
    found.dedup();
    found
}

/// The broadcast address of each interface that has one.
fn broadcast_addresses() -> Vec<Ipv4Addr> {
    interfaces().into_iter().filter_map(|(_, b)| b).collect()
}

/// Each non-loopback IPv4 interface address, with its broadcast address. None in the
/// browser build, which has no network interfaces to read (nor sockets: it offers no LAN
/// play, `platform::HAS_LAN`).
#[cfg(target_arch = "wasm32")]
fn interfaces() -> Vec<(Ipv4Addr, Option<Ipv4Addr>)> {
    Vec::new()
}

/// Each non-loopback IPv4 interface address, with its broadcast address.
#[cfg(not(target_arch = "wasm32"))]
fn interfaces() -> Vec<(Ipv4Addr, Option<Ipv4Addr>)> {
    // No interfaces readable means no network to offer: the caller says so.
    let Ok(all) = if_addrs::get_if_addrs() else {
        return Vec::new();
    };
    all.into_iter()
        .filter_map(|i| match i.addr {
            if_addrs::IfAddr::V4(v4) if !v4.ip.is_loopback() => Some((v4.ip, v4.broadcast)),
            _ => None,
        })
        .collect()
}

/// Listens for beacons.
pub struct Browser {
    socket: UdpSocket,
    multicast: bool,
}

impl Browser {
    /// Listens on `bind`; joins the multicast group unless `bind` is a loopback address.
    pub fn open(bind: SocketAddr) -> Result<Self, NetError> {
        let socket = UdpSocket::bind(bind).map_err(|e| {
            NetError::Setup(NetReason::CannotBrowse {
                addr: bind.to_string(),
                detail: e.to_string(),
            })
        })?;
        let mut multicast = false;
        if !bind.ip().is_loopback() {
            // Joined on each interface by its address: "any interface" needs a multicast
            // (or default) route, which a hotspot often lacks. Broadcast beacons arrive
            // either way, so a failed join is not an error.
            for ip in lan_addresses() {
                multicast |= socket.join_multicast_v4(&GROUP, &ip).is_ok();
            }
            if !multicast {
                multicast = socket
                    .join_multicast_v4(&GROUP, &Ipv4Addr::UNSPECIFIED)
                    .is_ok();
            }
        }
        socket
            .set_read_timeout(Some(Duration::from_millis(50)))
            .map_err(|e| NetError::Setup(e.to_string().into()))?;
        Ok(Browser { socket, multicast })
    }

    /// Whether the multicast group could be joined (without it only broadcast beacons
    /// are heard, and typing the host's address may be needed).
    pub fn multicast(&self) -> bool {
        self.multicast
    }

    /// Listens on the LAN group.
    pub fn on_lan() -> Result<Self, NetError> {
        Self::open(SocketAddr::from((Ipv4Addr::UNSPECIFIED, PORT)))
    }

    /// Where this browser listens.
    pub fn addr(&self) -> Result<SocketAddr, NetError> {
        self.socket
            .local_addr()
            .map_err(|e| NetError::Setup(e.to_string().into()))
    }

    /// Listens for `wait` and returns every host heard, once each, by address.
    pub fn listen(&self, wait: Duration) -> Vec<Found> {
        let deadline = Instant::now() + wait;
        let mut found = BTreeMap::new();
        while Instant::now() < deadline {
            if let Some(f) = self.receive() {
                found.insert(f.addr, f);
            }
        }
        found.into_values().collect()
    }

    /// Listens until the first Omiga host is heard, or `wait` has passed: a host that
    /// answers at once is joined at once.
    pub fn first(&self, wait: Duration) -> Option<Found> {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Some(f) = self.receive().filter(|f| f.beacon.game == "omiga") {
                return Some(f);
            }
        }
        None
    }

    /// One beacon, if one arrives within the socket's read timeout.
    fn receive(&self) -> Option<Found> {
        let mut buf = [0u8; MAX_BEACON + 1];
        let (n, from) = self.socket.recv_from(&mut buf).ok()?;
        let beacon = Beacon::decode(&buf[..n])?;
        let addr = SocketAddr::new(from.ip(), beacon.port);
        Some(Found { addr, beacon })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_is_heard_on_loopback_and_other_traffic_is_ignored() {
        let browser = Browser::open("127.0.0.1:0".parse().unwrap()).unwrap();
        let target = browser.addr().unwrap();
        let _announcer = Announcer::start(
            &Beacon::omiga("Anna's phone", 40_001),
            target,
            Duration::from_millis(30),
        )
        .unwrap();
        let noise = UdpSocket::bind("127.0.0.1:0").unwrap();
        noise.send_to(b"{\"not\":\"hotseat\"}", target).unwrap();
        noise.send_to(&[0xff; 600], target).unwrap();
        let found = browser.listen(Duration::from_millis(300));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].addr, "127.0.0.1:40001".parse().unwrap());
        assert_eq!(found[0].beacon.name, "Anna's phone");
        assert_eq!(found[0].beacon.game, "omiga");
    }

    #[test]
    fn the_first_host_heard_is_returned_at_once() {
        let browser = Browser::open("127.0.0.1:0".parse().unwrap()).unwrap();
        let _announcer = Announcer::start(
            &Beacon::omiga("Anna's phone", 40_002),
            browser.addr().unwrap(),
            Duration::from_millis(20),
        )
        .unwrap();
        let started = Instant::now();
        let found = browser.first(Duration::from_secs(5)).expect("a host");
        assert_eq!(found.beacon.port, 40_002);
        // Three seconds was the old fixed wait; an answering host is found far sooner.
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn the_addresses_offered_are_never_loopback() {
        assert!(lan_addresses().iter().all(|ip| !ip.is_loopback()));
    }

    #[test]
    fn beacons_never_carry_the_code_and_reject_strangers() {
        let b = serde_json::to_string(&Beacon::omiga("x", 1)).unwrap();
        assert!(!b.contains("code"));
        assert_eq!(
            Beacon::decode(br#"{"app":"other","version":1,"game":"omiga","name":"x","port":1}"#),
            None
        );
        assert_eq!(Beacon::decode(b"garbage"), None);
    }
}
