//! Discovery on the join screen: listening for hosts' beacons on the LAN (with Android's
//! multicast lock held meanwhile) and listing the hosts heard.

use super::{say, Lan};
use crate::net::discovery::{Browser, Found};
use crate::platform::time::Duration;
use crate::ui::inbox::LanMsg;
use crate::ui::texts::LanText;
use crate::ui::{AppWindow, LanBridge, LanHostUi};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

impl Lan {
    /// Stops listening for hosts and lets the multicast lock go.
    pub(super) fn stop_browsing(&mut self) {
        if let Some(stop) = self.browsing.take() {
            stop.store(true, Ordering::SeqCst);
        }
        self.multicast = None;
    }

    /// Asks for the multicast lock (a no-op off Android); without it discovery may stay
    /// deaf, and joining by the typed address still works.
    pub(super) fn hold_multicast(&mut self) {
        if self.multicast.is_none() {
            match crate::platform::MulticastLock::acquire() {
                Ok(lock) => self.multicast = Some(lock),
                Err(e) => crate::note!("{e}"),
            }
        }
    }
}

/// Listens for hosts' beacons in a thread of its own until the join screen is left; each
/// new Omiga host heard goes to the inbox as the whole list so far.
pub(super) fn browse(lan: &mut Lan, browser: Browser) {
    let stop = Arc::new(AtomicBool::new(false));
    lan.browsing = Some(stop.clone());
    lan.hold_multicast();
    let inbox = lan.inbox.clone();
    // Blocks on the socket a second at a time; ends when the screen is left.
    thread::spawn(move || {
        let mut seen: Vec<Found> = Vec::new();
        while !stop.load(Ordering::SeqCst) {
            // Short windows: a host shows in the list within a fifth of a second of
            // its beacon, and listening goes on for more.
            let heard = browser.listen(Duration::from_millis(200));
            let mut changed = false;
            for f in heard {
                if f.beacon.game == "omiga" && !seen.iter().any(|s| s.addr == f.addr) {
                    seen.push(f);
                    changed = true;
                }
            }
            if changed && !stop.load(Ordering::SeqCst) {
                inbox.push(LanMsg::Found(seen.clone()));
            }
        }
    });
}

/// The hosts heard so far, listed on the join screen.
pub(super) fn show_found(app: &AppWindow, lan: &mut Lan, found: Vec<Found>, language: &str) {
    lan.found = found;
    let rows: Vec<LanHostUi> = lan
        .found
        .iter()
        .map(|f| LanHostUi {
            name: f.beacon.name.clone().into(),
            game: "Omiga".into(),
            address: f.addr.to_string().into(),
            label: say(
                language,
                LanText::JoinHost {
                    name: f.beacon.name.clone(),
                    address: f.addr.to_string(),
                },
            )
            .into(),
        })
        .collect();
    app.global::<LanBridge>()
        .set_found(ModelRc::new(VecModel::from(rows)));
}
