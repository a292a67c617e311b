//! What a LAN game keeps on disk, so that no crash loses it: the host's match
//! (`lan-host.json`, written after every action like a local game's save) and the joined
//! device's seat (`lan-seat.json`: the host's address (or, in the browser, only that it
//! was paired by a text), the join code, the resume token,
//! the game id and its action numbering). Both are written atomically; a file that cannot
//! be read is reported and ignored, never trusted.

use crate::games::omiga::Omiga;
use crate::games::{Game, Outcome, Params, Seat};
use crate::session::{FinishedGame, Player, SavedGame, SeatKind, Sharing};
use crate::store::{history, write_atomically};
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::path::Path;

/// The host's running LAN match in the data folder.
pub const HOST_FILE: &str = "lan-host.json";
/// The joined device's seat in the data folder.
pub const SEAT_FILE: &str = "lan-seat.json";

/// The host's match as saved after every action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostSave {
    /// Names this match; the joiner keeps it with its token.
    pub game_id: String,
    /// The join code (the same code lets the same device back in).
    pub code: String,
    /// The TCP port the host listened on: a restarted host listens there again, where
    /// the joiner looks for it.
    pub port: u16,
    /// The joiner's resume token (absent until a device joined).
    pub token: Option<String>,
    /// Which game of the pairing is running (1 for the first).
    pub game: u32,
    /// The number of the joiner's last applied action.
    pub last_act: u64,
    /// When it was written (seconds since 1970, UTC): the resume window counts from here.
    pub saved_at: u64,
    /// The match in the format of local saves (parameters, players, actions, position).
    pub saved: SavedGame,
}

impl HostSave {
    /// The game as it stands in the save (the position holds decks and hands).
    pub fn game(&self) -> Result<Omiga, String> {
        Omiga::from_position(&self.saved.position)
            .map_err(|e| format!("the saved LAN game cannot be read: {e}"))
    }

    /// The game and the deal's parameters (rematches deal from them) a host goes on
    /// with. Only a damaged file fails: its words stay English.
    pub fn resumed(&self) -> Result<(Omiga, Params), super::NetError> {
        let bad = |detail: String| super::NetError::Setup(super::NetReason::BadSave { detail });
        let params =
            Params::parse(self.saved.params.split_whitespace()).map_err(|e| bad(e.to_string()))?;
        Ok((self.game().map_err(bad)?, params))
    }
}

/// Where the joined device finds its host again.
///
/// Written as the address itself (`"192.168.1.20:40123"`, what every older seat file
/// holds, so those still read) or as the word `"rtc"`: a browser's host has no address to
/// dial, the players pair the two pages again (docs/network.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SeatHost {
    /// A host on the LAN, reached over TCP at this address.
    Tcp(SocketAddr),
    /// A host reached some other way than by an address.
    Other(Transport),
}

/// A transport whose host is not found by an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// A WebRTC data channel between two browser pages, paired by a pairing text.
    Rtc,
}

impl std::fmt::Display for SeatHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeatHost::Tcp(addr) => write!(f, "{addr}"),
            SeatHost::Other(Transport::Rtc) => f.write_str("the other phone"),
        }
    }
}

/// The joined device's seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSave {
    /// Where the host was.
    pub host: SeatHost,
    /// The host's join code.
    pub code: String,
    /// The token that proves this device holds the seat.
    pub token: String,
    /// The match it plays.
    pub game_id: String,
    /// The number the next action gets (numbers never repeat within a pairing).
    pub next_id: u64,
    /// An action sent whose answer had not arrived, with its number: after a restart the
    /// host's welcome says whether it was applied.
    pub pending: Option<(u64, String)>,
}

/// Seconds since 1970 (0 if the clock is before it).
pub fn now_secs() -> u64 {
    crate::platform::time::unix_seconds()
}

fn write<T: Serialize>(dir: &Path, name: &str, value: &T) -> Result<(), String> {
    let json = serde_json::to_vec(value).map_err(|e| e.to_string())?;
    write_atomically(&dir.join(name), &json)
        .map_err(|e| format!("cannot save the LAN game in {}: {e}", dir.display()))
}

fn read<T: for<'de> Deserialize<'de>>(dir: &Path, name: &str) -> Result<Option<T>, String> {
    let path = dir.join(name);
    match crate::platform::storage::read(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("{} is damaged ({e}); it is ignored", path.display())),
    }
}

/// Saves the host's match.
pub fn save_host(dir: &Path, save: &HostSave) -> Result<(), String> {
    write(dir, HOST_FILE, save)
}

/// The host's saved match, if any.
pub fn load_host(dir: &Path) -> Result<Option<HostSave>, String> {
    read(dir, HOST_FILE)
}

/// The host's saved match if it was left at most `within` ago (a host opened again in that
/// time goes on with it); an older match, an unreadable file or none gives `None`.
pub fn recent_host(dir: &Path, within: std::time::Duration) -> Option<HostSave> {
    load_host(dir)
        .ok()
        .flatten()
        .filter(|save| now_secs().saturating_sub(save.saved_at) <= within.as_secs())
}

/// Forgets the host's match (it ended, or went to the history).
pub fn clear_host(dir: &Path) {
    let _ = crate::platform::storage::remove(&dir.join(HOST_FILE));
}

/// Saves the joined device's seat.
pub fn save_seat(dir: &Path, seat: &SeatSave) -> Result<(), String> {
    write(dir, SEAT_FILE, seat)
}

/// The joined device's seat, if any.
pub fn load_seat(dir: &Path) -> Result<Option<SeatSave>, String> {
    read(dir, SEAT_FILE)
}

/// Forgets the joined device's seat (the pairing is over).
pub fn clear_seat(dir: &Path) {
    let _ = crate::platform::storage::remove(&dir.join(SEAT_FILE));
}

/// The players of a LAN match as the history names them.
pub fn players() -> Vec<Player> {
    vec![
        Player {
            name: "White (this device)".into(),
            color: 0,
            kind: SeatKind::Human,
            level: None,
        },
        Player {
            name: "Black (other device)".into(),
            color: 1,
            kind: SeatKind::Remote,
            level: None,
        },
    ]
}

/// The match in the local save format.
pub fn to_saved(params: &str, actions: &[(Seat, String)], game: &Omiga) -> SavedGame {
    SavedGame {
        format: crate::session::SAVE_FORMAT.to_string(),
        version: crate::session::SAVE_VERSION,
        game: "omiga".into(),
        params: params.to_string(),
        players: players(),
        // Each device shows only its own seat's hand: no cover, as face to face.
        sharing: Sharing::FaceToFace,
        actions: actions.to_vec(),
        position: game.position(),
    }
}

/// Puts a match into the history: finished (with its winners) or, when the other device
/// never came back, unfinished.
pub fn record(dir: &Path, save: &SavedGame, game: &Omiga) -> Result<(), String> {
    record_outcome(dir, save, &game.outcome())
}

/// Puts a match into the history with the outcome it reached (unfinished if ongoing).
pub fn record_outcome(dir: &Path, save: &SavedGame, outcome: &Outcome) -> Result<(), String> {
    let entry = FinishedGame {
        finished_at: now_secs(),
        game: "omiga".into(),
        names: players().into_iter().map(|p| p.name).collect(),
        winners: outcome.winners(),
        duration_secs: None,
        best_turns: vec![0, 0],
        saved: save.clone(),
        unfinished: !outcome.is_over(),
    };
    history::record(dir, entry).map_err(|e| format!("cannot write the history: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seat file from before the browser's transport (the host as a bare address) still
    /// reads; a browser's seat says `"rtc"` and reads back as such.
    #[test]
    fn seat_files_old_and_new_read_leniently() {
        let old = r#"{"host":"192.168.1.20:40123","code":"1234","token":"t","game_id":"g","next_id":3,"pending":null}"#;
        let seat: SeatSave = serde_json::from_str(old).unwrap();
        assert_eq!(
            seat.host,
            SeatHost::Tcp("192.168.1.20:40123".parse().unwrap())
        );
        let rtc = SeatSave {
            host: SeatHost::Other(Transport::Rtc),
            ..seat
        };
        let text = serde_json::to_string(&rtc).unwrap();
        assert!(text.contains(r#""host":"rtc""#), "{text}");
        assert_eq!(serde_json::from_str::<SeatSave>(&text).unwrap(), rtc);
        let unknown = r#"{"host":"carrier-pigeon","code":"1234","token":"t","game_id":"g","next_id":3,"pending":null}"#;
        assert!(serde_json::from_str::<SeatSave>(unknown).is_err());
    }
}
