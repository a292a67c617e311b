//! The join screen: lists the hosts heard ([`crate::ui::discovery`]), joins one by its code
//! or a typed address, and takes back a seat kept from a game the app was killed in.

use super::discovery::browse;
use super::table::NetGame;
use super::{forward, lan_of, said, say, Lan, Link};
use crate::net::discovery::Browser;
use crate::net::joiner::JoinerThread;
use crate::net::{Joiner, NetError};
use crate::ui::chrome;
use crate::ui::inbox::LanMsg;
use crate::ui::texts::LanText;
use crate::ui::{AppWindow, Controller, LanBridge, LanHostUi, Screen};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::net::SocketAddr;
use std::thread;

/// Opens the join screen and starts listening for hosts on the network (in the browser:
/// the pairing-text join, `ui::rtc`).
pub fn open_join(app: &AppWindow, c: &mut Controller, browser: Option<Browser>) {
    #[cfg(target_arch = "wasm32")]
    if browser.is_none() {
        super::join_pair(app, c);
        return;
    }
    let language = c.language();
    let data_dir = c.data_dir.clone();
    let lan = lan_of(c, app);
    lan.leave();
    lan.found.clear();
    let bridge = app.global::<LanBridge>();
    bridge.set_paired_by_text(false);
    bridge.set_join_message("".into());
    bridge.set_found(ModelRc::new(VecModel::from(Vec::<LanHostUi>::new())));
    let browser = match browser.map_or_else(Browser::on_lan, Ok) {
        Ok(b) => Some(b),
        Err(e) => {
            let why = said(language, &e.reason());
            bridge.set_join_message(say(language, LanText::CannotLook { why }).into());
            bridge.set_join_message_warning(false);
            None
        }
    };
    bridge.set_searching(browser.is_some());
    if browser.as_ref().is_some_and(|b| !b.multicast()) {
        bridge.set_join_message(say(language, LanText::MayHideGames).into());
        bridge.set_join_message_warning(false);
    }
    // A seat kept from a game this device was in (the app was killed): take it back.
    if let Some(joiner) = data_dir.and_then(|dir| Joiner::restore(dir, lan.timing).ok().flatten()) {
        bridge.set_join_message(
            say(
                language,
                LanText::ComingBack {
                    host: joiner.host().to_string(),
                },
            )
            .into(),
        );
        joined(app, lan, Ok(Box::new(joiner)), language);
        return;
    }
    if let Some(browser) = browser {
        browse(lan, browser);
    }
    app.set_screen(Screen::LanJoin);
}

/// Joins the host at `addr` with `code`; a refusal is shown on the join screen.
pub fn join(app: &AppWindow, c: &mut Controller, addr: SocketAddr, code: &str) {
    let language = c.language();
    let store = c.data_dir.clone();
    let lan = lan_of(c, app);
    let bridge = app.global::<LanBridge>();
    let code = code.trim();
    if code.len() != 4 || !code.bytes().all(|b| b.is_ascii_digit()) {
        bridge.set_join_message(say(language, LanText::EnterCode).into());
        bridge.set_join_message_warning(true);
        return;
    }
    // Connecting may take a while on a poor Wi-Fi: never on the UI thread.
    bridge.set_join_message(say(language, LanText::Joining).into());
    bridge.set_join_message_warning(false);
    let (inbox, timing) = (lan.inbox.clone(), lan.timing);
    let code = code.to_string();
    thread::spawn(move || {
        let joined = Joiner::join(addr, &code, timing, store).map(Box::new);
        inbox.push(LanMsg::Joined(joined));
    });
}

pub(super) fn joined(
    app: &AppWindow,
    lan: &mut Lan,
    joined: Result<Box<Joiner>, NetError>,
    language: &str,
) {
    let bridge = app.global::<LanBridge>();
    match joined {
        Ok(joiner) => {
            lan.stop_browsing();
            // A restored seat has no view until the host welcomes it back: the game
            // appears with the `Resumed` update.
            let game = joiner
                .view()
                .map(|view| NetGame::new(joiner.seat(), view.clone(), joiner.countdown()));
            let (thread, updates) = JoinerThread::spawn(*joiner);
            forward(updates, lan.inbox.clone(), LanMsg::Joiner);
            lan.link = Link::Client(thread);
            if let Some(game) = game {
                lan.game = Some(game);
                bridge.set_join_message("".into());
                chrome::show_message(app, "", false);
                app.set_screen(Screen::Game);
            }
        }
        Err(e) => {
            let why = said(language, &e.reason());
            bridge.set_join_message(say(language, LanText::CouldNotJoin { why }).into());
            bridge.set_join_message_warning(true);
        }
    }
}
