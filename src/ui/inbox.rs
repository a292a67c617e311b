//! The networked table's inbox: what the network threads (the LAN) and the page's driver
//! (the browser's two phones, `ui::rtc`) hand to the UI thread, and the nudge that makes
//! the UI thread take it in (`LanBridge.drain`). Both transports fill the same inbox, so
//! the table (`ui::lan`) is drawn the same over either.

use super::{AppWindow, LanBridge};
use crate::games::omiga::OmigaView;
use crate::net::discovery::Found;
use crate::net::joiner::JoinerUpdate;
use crate::net::{HostEvent, Joiner, NetError};
use crate::platform::time::Duration;
use slint::ComponentHandle;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// What the network threads and the page's driver hand to the UI thread.
pub enum LanMsg {
    /// From the host's authority.
    Host(HostEvent),
    /// From the joined device's joiner.
    Joiner(JoinerUpdate),
    /// Hosts heard on the network so far.
    Found(Vec<Found>),
    /// A join finished: the joiner, or why not.
    Joined(Result<Box<Joiner>, NetError>),
    /// The browser's joining page was welcomed: its table comes up (`ui::rtc`).
    PageJoined {
        /// This seat's view.
        view: OmigaView,
        /// The countdown the welcome announced.
        countdown: Duration,
    },
}

/// A handle on the inbox; clones share it (one per network thread, one for the page).
#[derive(Clone)]
pub struct Inbox {
    queue: Arc<Mutex<VecDeque<LanMsg>>>,
    weak: slint::Weak<AppWindow>,
}

impl Inbox {
    pub fn new(app: &AppWindow) -> Self {
        Inbox {
            queue: Arc::default(),
            weak: app.as_weak(),
        }
    }

    /// Puts `msg` in the inbox and asks the UI thread to take it in.
    pub fn push(&self, msg: LanMsg) {
        if let Ok(mut q) = self.queue.lock() {
            q.push_back(msg);
        }
        let weak = self.weak.clone();
        // Without an event loop (tests) this fails, and the test drains the inbox itself.
        let _ = slint::invoke_from_event_loop(move || {
            if let Some(app) = weak.upgrade() {
                app.global::<LanBridge>().invoke_drain();
            }
        });
    }

    /// Everything waiting, oldest first.
    pub fn take(&self) -> Vec<LanMsg> {
        match self.queue.lock() {
            Ok(mut q) => q.drain(..).collect(),
            Err(_) => Vec::new(),
        }
    }
}
