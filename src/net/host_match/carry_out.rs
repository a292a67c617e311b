//! How a driver that keeps its connections by number carries out a match's orders
//! ([`HostOut`]): the TCP host's core thread and the browser's page driver share it.

use super::super::channel::MessageChannel;
use super::super::hosting::HostEvent;
use super::super::protocol::{ClientMsg, HostMsg};
use super::super::reason::NetReason;
use super::super::saved;
use super::{ConnId, HostMatch, HostOut};
use crate::platform::time::Instant;
use std::collections::{HashMap, VecDeque};
use std::path::Path;

/// Carries out a match's outputs, in order, for a driver that keeps its connections by
/// number: sends (a failed one is reported back as a close, and what followed it still
/// happens), welcomes (answered at once), closes, saves in `store`, and events to
/// `notify`. The TCP host's core thread and the browser's page driver both use it, so
/// the two transports cannot drift apart in how they obey the match.
pub fn carry_out<C: MessageChannel<HostMsg, ClientMsg>>(
    host: &mut HostMatch,
    conns: &mut HashMap<ConnId, C>,
    store: Option<&Path>,
    notify: &mut dyn FnMut(HostEvent),
    outs: Vec<HostOut>,
) {
    let mut todo: VecDeque<HostOut> = outs.into();
    while let Some(out) = todo.pop_front() {
        match out {
            HostOut::Send(id, msg) => {
                let failed = match conns.get_mut(&id) {
                    Some(conn) => conn.send(&msg).err(),
                    None => None,
                };
                if let Some(e) = failed {
                    let why = NetReason::CannotReachDevice {
                        detail: e.to_string(),
                    };
                    let more = host.on_closed(id, why, Instant::now());
                    // What followed the failed send still happens, then the loss.
                    todo.extend(more);
                }
            }
            HostOut::Welcome(id, msg) => {
                let written = match conns.get_mut(&id) {
                    Some(conn) => conn.send(&msg).map_err(|e| e.to_string()),
                    None => Err("the connection is gone".to_string()),
                };
                let more = host.welcomed(id, written, Instant::now());
                // The welcome's consequences come before anything queued after it.
                for o in more.into_iter().rev() {
                    todo.push_front(o);
                }
            }
            HostOut::Close(id) => {
                if let Some(mut conn) = conns.remove(&id) {
                    conn.close();
                }
            }
            HostOut::Event(event) => notify(event),
            HostOut::Save(save) => {
                if let Some(dir) = store {
                    if let Err(detail) = saved::save_host(dir, &save) {
                        notify(HostEvent::Notice(NetReason::NotSaved { detail }));
                    }
                }
            }
            HostOut::Record(game, outcome) => {
                if let Some(dir) = store {
                    if let Err(detail) = saved::record_outcome(dir, &game, &outcome) {
                        notify(HostEvent::Notice(NetReason::NotSaved { detail }));
                    }
                }
            }
            HostOut::Clear => {
                if let Some(dir) = store {
                    saved::clear_host(dir);
                }
            }
        }
    }
}
