//! The host screen: starts hosting from the setup screen's variants, shows the join code
//! and the address, and announces the game on the LAN.

use super::{forward, fresh_seed, lan_of, said, say, setup_params, HostOptions, Link};
use crate::net::discovery::{Announcer, Beacon};
use crate::net::host::random_code;
use crate::net::{Host, HostConfig, Timing};
use crate::ui::inbox::LanMsg;
use crate::ui::texts::LanText;
use crate::ui::{AppWindow, Controller, LanBridge, Screen};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The address other devices reach this one at: an interface's own address (also on a
/// hotspot without a default or multicast route).
fn lan_ip() -> Option<IpAddr> {
    crate::net::discovery::lan_addresses()
        .first()
        .map(|ip| IpAddr::V4(*ip))
}

/// Starts hosting from the setup screen's variants and shows the host screen (in the
/// browser: the pairing-text host, `ui::rtc`).
pub fn host(app: &AppWindow, c: &mut Controller, options: Option<HostOptions>) {
    #[cfg(target_arch = "wasm32")]
    if options.is_none() {
        super::host_pair(app, c);
        return;
    }
    let language = c.language();
    let options = options.unwrap_or_else(|| {
        let name = c.setup.final_names(language).into_iter().next();
        HostOptions {
            bind: SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0)),
            announce: true,
            timing: Timing::default(),
            params: setup_params(c),
            name: name.unwrap_or_else(|| "Hotseat".into()),
        }
    });
    let data_dir = c.data_dir.clone();
    let lan = lan_of(c, app);
    lan.leave();
    lan.timing = options.timing;
    let code = random_code();
    let mut config = HostConfig::new(options.bind, &code, fresh_seed());
    let mut params = options.params.clone();
    if params.get("seed").is_none() {
        params = params.with("seed", fresh_seed());
    }
    config.params = params;
    config.timing = options.timing;
    // Saved after every action; a match left within the resume time goes on (same code,
    // port and match), so a host whose app was killed gets its game back here.
    config.store = data_dir;
    config.resume = config
        .store
        .as_deref()
        .and_then(|dir| crate::net::saved::recent_host(dir, options.timing.resume_within));
    let resumed = config.resume.is_some();
    let bridge = app.global::<LanBridge>();
    // The code-and-address screen, not the pairing texts' (the same screen shows both).
    bridge.set_paired_by_text(false);
    match Host::start(config) {
        Ok(mut host) => {
            let addr = host.addr();
            // A continued match keeps its saved code.
            let code = host.code().to_string();
            let shown = if addr.ip().is_unspecified() {
                lan_ip().map_or_else(
                    || {
                        say(
                            language,
                            LanText::Port {
                                port: addr.port().into(),
                            },
                        )
                    },
                    |ip| SocketAddr::new(ip, addr.port()).to_string(),
                )
            } else {
                addr.to_string()
            };
            let announcer = if options.announce && !addr.ip().is_loopback() {
                match Announcer::on_lan(&Beacon::omiga(&options.name, addr.port())) {
                    Ok(a) => Some(a),
                    Err(e) => {
                        crate::note!("not announced on the network: {e}");
                        None
                    }
                }
            } else {
                None
            };
            forward(host.take_events(), lan.inbox.clone(), LanMsg::Host);
            if announcer.is_some() {
                // Some Wi-Fi drivers filter even outgoing broadcasts without the lock.
                lan.hold_multicast();
            }
            lan.link = Link::Host {
                host,
                _announcer: announcer,
            };
            let digits: Vec<slint::SharedString> =
                code.chars().map(|d| d.to_string().into()).collect();
            bridge.set_code_digits(ModelRc::new(VecModel::from(digits)));
            bridge.set_code(code.into());
            bridge.set_address(shown.into());
            bridge.set_host_status(
                if resumed {
                    say(language, LanText::ContinuingSaved)
                } else {
                    say(language, LanText::WaitingToJoin)
                }
                .into(),
            );
        }
        Err(e) => {
            bridge.set_code("".into());
            bridge.set_code_digits(ModelRc::default());
            bridge.set_address("".into());
            let why = said(language, &e.reason());
            bridge.set_host_status(say(language, LanText::CannotHost { why }).into());
        }
    }
    app.set_screen(Screen::LanHost);
}
