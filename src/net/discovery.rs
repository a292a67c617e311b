//! Finding a host on the local network: the host announces a small JSON beacon by UDP
//! multicast once a second; a joining device listens and lists what it hears. The join
//! code is never in the beacon (it is what proves a player saw the host's screen); typing
//! the address is the fallback when multicast is blocked.
//!
//! Plain UDP multicast with `std::net` rather than mDNS (`mdns-sd`): one beacon type on one
//! group needs no service registry, no extra threads of a library and no new dependency,
//! and the code stays small enough to test on loopback.

use super::NetError;
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
        let bind: SocketAddr = if target.ip().is_loopback() {
            SocketAddr::from((Ipv4Addr::LOCALHOST, 0))
        } else {
            SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0))
        };
        let socket =
            UdpSocket::bind(bind).map_err(|e| NetError::Setup(format!("cannot announce: {e}")))?;
        // Beacons stay on the local network.
        let _ = socket.set_multicast_ttl_v4(1);
        let bytes = serde_json::to_vec(beacon).map_err(|e| NetError::Setup(e.to_string()))?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = thread::spawn(move || {
            let mut last: Option<Instant> = None;
            while !flag.load(Ordering::SeqCst) {
                if last.is_none_or(|t| t.elapsed() >= every) {
                    // A failed send (no network yet) is retried at the next beat.
                    let _ = socket.send_to(&bytes, target);
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

    /// Announces on the LAN group.
    pub fn on_lan(beacon: &Beacon) -> Result<Self, NetError> {
        Self::start(
            beacon,
            SocketAddr::V4(SocketAddrV4::new(GROUP, PORT)),
            ANNOUNCE_EVERY,
        )
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

/// Listens for beacons.
pub struct Browser {
    socket: UdpSocket,
}

impl Browser {
    /// Listens on `bind`; joins the multicast group unless `bind` is a loopback address.
    pub fn open(bind: SocketAddr) -> Result<Self, NetError> {
        let socket = UdpSocket::bind(bind)
            .map_err(|e| NetError::Setup(format!("cannot listen for hosts on {bind}: {e}")))?;
        if !bind.ip().is_loopback() {
            socket
                .join_multicast_v4(&GROUP, &Ipv4Addr::UNSPECIFIED)
                .map_err(|e| NetError::Setup(format!("cannot join the LAN group: {e}")))?;
        }
        socket
            .set_read_timeout(Some(Duration::from_millis(50)))
            .map_err(|e| NetError::Setup(e.to_string()))?;
        Ok(Browser { socket })
    }

    /// Listens on the LAN group.
    pub fn on_lan() -> Result<Self, NetError> {
        Self::open(SocketAddr::from((Ipv4Addr::UNSPECIFIED, PORT)))
    }

    /// Where this browser listens.
    pub fn addr(&self) -> Result<SocketAddr, NetError> {
        self.socket
            .local_addr()
            .map_err(|e| NetError::Setup(e.to_string()))
    }

    /// Listens for `wait` and returns every host heard, once each, by address.
    pub fn listen(&self, wait: Duration) -> Vec<Found> {
        let deadline = Instant::now() + wait;
        let mut found = BTreeMap::new();
        let mut buf = [0u8; MAX_BEACON + 1];
        while Instant::now() < deadline {
            if let Ok((n, from)) = self.socket.recv_from(&mut buf) {
                if let Some(beacon) = Beacon::decode(&buf[..n]) {
                    let addr = SocketAddr::new(from.ip(), beacon.port);
                    found.insert(addr, Found { addr, beacon });
                }
            }
        }
        found.into_values().collect()
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
