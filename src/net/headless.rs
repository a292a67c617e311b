//! The headless `host` and `join` commands: two processes play Omiga through the referee
//! notation on standard input, with no UI. Each input line is answered by `ok` or
//! `error <reason>` (after `view`/`legal`/`outcome` lines); what happens on its own (the
//! other player acted, the connection dropped) is printed as a line starting with `# `.

use super::discovery::{Announcer, Beacon, Browser};
use super::host::{check_code, random_code, Host, HostConfig, HostEvent};
use super::protocol::Timing;
use super::{legal_from_view, Client, ClientEvent, NetError};
use crate::games::omiga::{Act, Action, OmigaEvent, OmigaView};
use crate::games::Params;
use std::io::{BufRead, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs, UdpSocket};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Usage of both commands.
pub const USAGE: &str = "  hotseat host [--code NNNN] [--port P] [--bind IP] [--seed S] [--table WxH] [--countdown SECS] [--name NAME] [--no-announce]
  hotseat join [ADDR] --code NNNN      (without ADDR: the first Omiga host heard on the LAN)";

/// Reads `--key value` options; a word without `--` is positional.
struct Args {
    options: Vec<(String, Option<String>)>,
    positional: Vec<String>,
}

impl Args {
    fn parse(args: &[String], flags: &[&str], valued: &[&str]) -> Result<Args, NetError> {
        let mut options = Vec::new();
        let mut positional = Vec::new();
        let mut words = args.iter();
        while let Some(word) = words.next() {
            if let Some(name) = word.strip_prefix("--") {
                if flags.contains(&name) {
                    options.push((name.to_string(), None));
                } else if valued.contains(&name) {
                    let value = words
                        .next()
                        .ok_or_else(|| NetError::Setup(format!("--{name} needs a value")))?;
                    options.push((name.to_string(), Some(value.clone())));
                } else {
                    return Err(NetError::Setup(format!("unknown option --{name}")));
                }
            } else {
                positional.push(word.clone());
            }
        }
        Ok(Args {
            options,
            positional,
        })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    fn number<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, NetError> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| NetError::Setup(format!("--{name} must be a number, got '{v}'"))),
        }
    }
}

/// Lines of standard input, read on their own thread so the loop can also wait for events.
fn input_lines<R: BufRead + Send + 'static>(input: R) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// One line describing an event: `placed NP-KG@4,6`, `discarded 3, drew 3`.
pub fn describe(event: &OmigaEvent) -> String {
    let mut text = match &event.act {
        Act::Placed { card, x, y, .. } => format!("seat {} placed {card}@{x},{y}", event.seat),
        Act::Discarded { count, .. } => format!("seat {} discarded {count}", event.seat),
    };
    if let Some(drew) = &event.drew {
        text.push_str(&format!(", drew {}", drew.count));
    }
    if event.outcome.is_over() {
        text.push_str(&format!("\n# outcome {}", event.outcome));
    }
    text
}

/// The address other devices on the LAN can reach: the interface that routes to the
/// multicast group (no packet is sent), or loopback when there is none.
fn lan_ip() -> IpAddr {
    UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| {
            s.connect((super::discovery::GROUP, super::discovery::PORT))?;
            s.local_addr()
        })
        .map(|a| a.ip())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
}

/// Answers the commands both ends share; `None` when the line is an action.
fn common(line: &str, view: &OmigaView, out: &mut impl Write) -> Option<std::io::Result<()>> {
    let result = match line {
        "view" => serde_json::to_string(view)
            .map_err(std::io::Error::other)
            .and_then(|json| writeln!(out, "view {json}\nok")),
        "legal" => (|| {
            for action in legal_from_view(view) {
                writeln!(out, "{action}")?;
            }
            writeln!(out, "ok")
        })(),
        "outcome" => writeln!(out, "outcome {}\nok", view.outcome),
        "help" => writeln!(
            out,
            "place CARD@x,y | discard | view | legal | outcome | rematch | quit\nok"
        ),
        _ => return None,
    };
    Some(result)
}

fn io_err(e: std::io::Error) -> String {
    format!("cannot write the output: {e}")
}

/// `hotseat host ...`: hosts a game as White and plays it from `input`.
pub fn host_command<R: BufRead + Send + 'static>(
    args: &[String],
    input: R,
    mut out: impl Write,
) -> Result<(), String> {
    let args = Args::parse(
        args,
        &["no-announce"],
        &["code", "port", "bind", "seed", "table", "countdown", "name"],
    )
    .map_err(|e| e.to_string())?;
    if let Some(extra) = args.positional.first() {
        return Err(format!("host takes no '{extra}'\n{USAGE}"));
    }
    let code = args.get("code").map_or_else(random_code, str::to_string);
    check_code(&code).map_err(|e| e.to_string())?;
    let port: u16 = args.number("port", 0).map_err(|e| e.to_string())?;
    let ip: IpAddr = match args.get("bind") {
        Some(b) => b
            .parse()
            .map_err(|_| format!("--bind must be an IP address, got '{b}'"))?,
        None => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
    };
    let seed: u64 = match args.get("seed") {
        Some(_) => args.number("seed", 0).map_err(|e| e.to_string())?,
        None => rand::random(),
    };
    let countdown: f64 = args.number("countdown", 3.0).map_err(|e| e.to_string())?;
    if !(0.0..=60.0).contains(&countdown) {
        return Err("--countdown must be between 0 and 60 seconds".into());
    }
    let mut params = Params::new().with("seed", seed);
    if let Some(t) = args.get("table") {
        params = params.with("table", t);
    }
    let mut config = HostConfig::new(SocketAddr::new(ip, port), &code, seed);
    config.params = params;
    config.timing.countdown = Duration::from_secs_f64(countdown);
    let host = Host::start(config).map_err(|e| e.to_string())?;
    let shown = if ip.is_unspecified() {
        SocketAddr::new(lan_ip(), host.addr().port())
    } else {
        host.addr()
    };
    let _announcer = if args.flag("no-announce") || ip.is_loopback() {
        None
    } else {
        let name = args.get("name").unwrap_or("Hotseat host");
        // Announcing is a convenience; the address and code still work without it.
        match Announcer::on_lan(&Beacon::omiga(name, host.addr().port())) {
            Ok(a) => Some(a),
            Err(e) => {
                writeln!(out, "# notice {e}").map_err(io_err)?;
                None
            }
        }
    };
    writeln!(
        out,
        "address {shown}\ncode {code}\n# waiting for a device to join"
    )
    .map_err(io_err)?;
    out.flush().map_err(io_err)?;
    let lines = input_lines(input);
    loop {
        while let Ok(event) = host.events().try_recv() {
            let text = match event {
                HostEvent::Joined => "joined".to_string(),
                HostEvent::Started {
                    game, countdown, ..
                } => format!("started game {game} countdown {}", countdown.as_secs_f64()),
                HostEvent::OpponentActed { event, .. } => describe(&event),
                HostEvent::Paused { reason } => format!("paused {reason}"),
                HostEvent::Resumed => "resumed".into(),
                HostEvent::RematchOffered => "rematch offered".into(),
                HostEvent::Ended { reason } => format!("ended {reason}"),
                HostEvent::Notice(n) => format!("notice {n}"),
            };
            writeln!(out, "# {text}").map_err(io_err)?;
        }
        out.flush().map_err(io_err)?;
        let line = match lines.recv_timeout(Duration::from_millis(20)) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "quit" {
            host.leave();
            writeln!(out, "ok").map_err(io_err)?;
            return Ok(());
        }
        let view = host.view().map_err(|e| e.to_string())?;
        if let Some(r) = common(line, &view, &mut out) {
            r.map_err(io_err)?;
            continue;
        }
        let answer = if line == "rematch" {
            host.rematch().map(|()| None)
        } else {
            line.parse::<Action>()
                .map_err(|e| NetError::Refused(e.0))
                .and_then(|a| host.act(a))
                .map(Some)
        };
        match answer {
            Ok(Some(event)) if event.outcome.is_over() => {
                writeln!(out, "# outcome {}\nok", event.outcome)
            }
            Ok(_) => writeln!(out, "ok"),
            Err(e) => writeln!(out, "error {e}"),
        }
        .map_err(io_err)?;
    }
}

/// `hotseat join ...`: joins a host as Black and plays from `input`; comes back on its own
/// after a drop, for as long as the host waits.
pub fn join_command<R: BufRead + Send + 'static>(
    args: &[String],
    input: R,
    mut out: impl Write,
) -> Result<(), String> {
    let args = Args::parse(args, &[], &["code"]).map_err(|e| e.to_string())?;
    let code = args
        .get("code")
        .ok_or_else(|| format!("join needs --code NNNN\n{USAGE}"))?
        .to_string();
    check_code(&code).map_err(|e| e.to_string())?;
    let addr = match args.positional.as_slice() {
        [addr] => addr
            .to_socket_addrs()
            .ok()
            .and_then(|mut a| a.next())
            .ok_or_else(|| format!("'{addr}' is not an address (write IP:PORT)"))?,
        [] => {
            writeln!(out, "# looking for hosts on the network").map_err(io_err)?;
            let browser = Browser::on_lan().map_err(|e| e.to_string())?;
            let found = browser.listen(Duration::from_secs(3));
            let first = found.into_iter().find(|f| f.beacon.game == "omiga").ok_or(
                "no host heard on the network; give its address: join IP:PORT --code NNNN",
            )?;
            writeln!(out, "# found {} at {}", first.beacon.name, first.addr).map_err(io_err)?;
            first.addr
        }
        _ => return Err(format!("join takes one address\n{USAGE}")),
    };
    let timing = Timing::default();
    let mut client = Client::join(addr, &code, timing).map_err(|e| e.to_string())?;
    let mut view = client.first_view().clone();
    writeln!(
        out,
        "joined {addr} seat {}\n# started game 1 countdown {}",
        client.seat(),
        client.countdown().as_secs_f64()
    )
    .map_err(io_err)?;
    out.flush().map_err(io_err)?;
    let lines = input_lines(input);
    loop {
        let mut lost = None;
        while let Ok(event) = client.events().try_recv() {
            let text = match event {
                ClientEvent::Started {
                    game,
                    view: v,
                    countdown,
                } => {
                    view = v;
                    format!("started game {game} countdown {}", countdown.as_secs_f64())
                }
                ClientEvent::OpponentActed { event, view: v } => {
                    view = v;
                    describe(&event)
                }
                ClientEvent::Accepted { view: v, .. } => {
                    view = v;
                    continue;
                }
                ClientEvent::Rejected { reason, .. } => format!("rejected {reason}"),
                ClientEvent::RematchOffered => "rematch offered".into(),
                ClientEvent::Error(e) => format!("notice {e}"),
                ClientEvent::Ended(reason) => {
                    writeln!(out, "# ended {reason}").map_err(io_err)?;
                    return Ok(());
                }
                ClientEvent::Lost(reason) => {
                    lost = Some(reason.clone());
                    format!("paused {reason}")
                }
            };
            writeln!(out, "# {text}").map_err(io_err)?;
        }
        out.flush().map_err(io_err)?;
        if lost.is_some() {
            client = come_back(&client, timing, &mut out)?;
            view = client.first_view().clone();
            writeln!(out, "# resumed").map_err(io_err)?;
            continue;
        }
        let line = match lines.recv_timeout(Duration::from_millis(20)) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "quit" {
            client.leave();
            writeln!(out, "ok").map_err(io_err)?;
            return Ok(());
        }
        if let Some(r) = common(line, &view, &mut out) {
            r.map_err(io_err)?;
            continue;
        }
        if line == "rematch" {
            match client.rematch() {
                Ok(()) => writeln!(out, "ok"),
                Err(e) => writeln!(out, "error {e}"),
            }
            .map_err(io_err)?;
            continue;
        }
        let action = match line.parse::<Action>() {
            Ok(a) => a,
            Err(e) => {
                writeln!(out, "error {e}").map_err(io_err)?;
                continue;
            }
        };
        let mut others = Vec::new();
        let answer = client.act_and_wait(&action, Duration::from_secs(10), |ev| others.push(ev));
        for ev in others {
            match ev {
                ClientEvent::OpponentActed { event, view: v } => {
                    view = v;
                    writeln!(out, "# {}", describe(&event)).map_err(io_err)?;
                }
                ClientEvent::Started { view: v, game, .. } => {
                    view = v;
                    writeln!(out, "# started game {game}").map_err(io_err)?;
                }
                ClientEvent::Ended(reason) => {
                    writeln!(out, "# ended {reason}").map_err(io_err)?;
                    return Ok(());
                }
                other => writeln!(out, "# {other:?}").map_err(io_err)?,
            }
        }
        match answer {
            Ok((event, v)) => {
                view = v;
                if event.outcome.is_over() {
                    writeln!(out, "# outcome {}", event.outcome).map_err(io_err)?;
                }
                writeln!(out, "ok")
            }
            Err(e) => writeln!(out, "error {e}"),
        }
        .map_err(io_err)?;
    }
}

/// Tries to resume every second until the host's resume time has passed.
fn come_back(client: &Client, timing: Timing, out: &mut impl Write) -> Result<Client, String> {
    let deadline = Instant::now() + timing.resume_within;
    loop {
        match client.resume(timing) {
            Ok(c) => return Ok(c),
            Err(NetError::Refused(reason)) => return Err(format!("the host refused: {reason}")),
            Err(e) if Instant::now() < deadline => {
                writeln!(out, "# retrying: {e}").map_err(io_err)?;
                out.flush().map_err(io_err)?;
                thread::sleep(Duration::from_secs(1));
            }
            Err(e) => return Err(format!("could not come back: {e}")),
        }
    }
}
