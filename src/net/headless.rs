//! The headless `host` and `join` commands: two processes play Omiga through the referee
//! notation on standard input, with no UI. Each input line is answered by `ok` or
//! `error <reason>` (after `view`/`legal`/`outcome` lines); what happens on its own (the
//! other player acted, the connection dropped) is printed as a line starting with `# `.

use super::discovery::{Announcer, Beacon, Browser};
use super::host::{Host, HostConfig};
use super::hosting::{check_code, random_code};
use super::protocol::Timing;
use super::saved;
use super::{legal_from_view, Joiner, JoinerEvent, NetError};
use crate::games::omiga::{Action, OmigaEvent, OmigaView};
use crate::games::{Game, Params};
use std::io::{BufRead, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Usage of both commands.
pub const USAGE: &str = "  hotseat host [--code NNNN] [--port P] [--bind IP] [--seed S] [--table WxH] [--countdown SECS] [--name NAME] [--no-announce] [--new]
  hotseat join [ADDR] --code NNNN [--new]  (without ADDR: the first Omiga host heard on the LAN)
                               both continue a LAN game kept on this device unless --new";

/// Reads `--key value` options; a word without `--` is positional.
pub(super) struct Args {
    options: Vec<(String, Option<String>)>,
    pub(super) positional: Vec<String>,
}

impl Args {
    pub(super) fn parse(
        args: &[String],
        flags: &[&str],
        valued: &[&str],
    ) -> Result<Args, NetError> {
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
                        .ok_or_else(|| NetError::Setup(format!("--{name} needs a value").into()))?;
                    options.push((name.to_string(), Some(value.clone())));
                } else {
                    return Err(NetError::Setup(format!("unknown option --{name}").into()));
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

    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    pub(super) fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    pub(super) fn number<T: std::str::FromStr>(
        &self,
        name: &str,
        default: T,
    ) -> Result<T, NetError> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| {
                NetError::Setup(format!("--{name} must be a number, got '{v}'").into())
            }),
        }
    }
}

/// Lines of standard input, read on their own thread so the loop can also wait for events.
pub(super) fn input_lines<R: BufRead + Send + 'static>(input: R) -> Receiver<String> {
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

/// The address to show: one the other device can reach (an interface's own address,
/// whatever the routes), the others listed after it; loopback when there is no network.
fn shown_addresses(host: &Host, bind: IpAddr) -> Vec<SocketAddr> {
    let port = host.addr().port();
    if !bind.is_unspecified() {
        return vec![host.addr()];
    }
    let mut all: Vec<SocketAddr> = super::discovery::lan_addresses()
        .into_iter()
        .map(|ip| SocketAddr::new(IpAddr::V4(ip), port))
        .collect();
    if all.is_empty() {
        all.push(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    all
}

/// Answers the commands both ends share; `None` when the line is an action.
pub(super) fn common(
    line: &str,
    view: &OmigaView,
    out: &mut impl Write,
) -> Option<std::io::Result<()>> {
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

pub(super) fn io_err(e: std::io::Error) -> String {
    format!("cannot write the output: {e}")
}

/// The game a headless host offers, read from its flags (`--code`, `--seed`,
/// `--countdown`, `--table`), each checked: the same for the TCP and the data-channel host.
pub(super) struct HostFlags {
    pub code: String,
    pub seed: u64,
    pub countdown: Duration,
    pub params: Params,
}

impl HostFlags {
    pub(super) fn read(args: &Args) -> Result<HostFlags, String> {
        let code = args.get("code").map_or_else(random_code, str::to_string);
        check_code(&code).map_err(|e| e.to_string())?;
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
        Ok(HostFlags {
            code,
            seed,
            countdown: Duration::from_secs_f64(countdown),
            params,
        })
    }
}

/// The host's answer to an action or `rematch` line: `ok` (after `# outcome ...` when the
/// action ended the game) or `error ...`.
pub(super) fn host_reply(answer: Result<Option<OmigaEvent>, NetError>) -> String {
    match answer {
        Ok(event) => ok_after(event.as_ref()),
        Err(e) => format!("error {e}"),
    }
}

/// `ok`, after `# outcome ...` when `event` ended the game.
fn ok_after(event: Option<&OmigaEvent>) -> String {
    match event {
        Some(event) if event.outcome.is_over() => format!("# outcome {}\nok", event.outcome),
        _ => "ok".to_string(),
    }
}

/// The joiner's answer line for the fate of its action, or `None` for an event that is not
/// one: `ok` (after `# outcome ...` when the game ended) or `error ...`.
pub(super) fn joiner_reply(event: &JoinerEvent) -> Option<String> {
    match event {
        JoinerEvent::Accepted { event, .. } => Some(ok_after(Some(event))),
        JoinerEvent::Rejected { reason, .. } => Some(format!("error {reason}")),
        JoinerEvent::Settled { applied: true, .. } => Some("ok".to_string()),
        JoinerEvent::Settled { .. } => Some(
            "error the connection dropped before the host received it; nothing changed".to_string(),
        ),
        _ => None,
    }
}

/// One end of a headless game (host or joiner, over TCP or a data channel), as
/// [`play_lines`] drives it from the input lines.
pub(super) trait HeadlessEnd {
    /// How long to wait for an input line between reports.
    const BEAT: Duration;
    /// Prints what happened since the last call (`# ...` lines); false once the pairing is
    /// over.
    fn report(&mut self, out: &mut impl Write) -> Result<bool, String>;
    /// The game as this end sees it; `None` until it knows.
    fn view(&self) -> Result<Option<OmigaView>, String>;
    /// Leaves the pairing (`quit`), telling the other device.
    fn leave(self);
    /// The answer to `rematch` or an action's line; `None` when the pairing ended meanwhile.
    fn answer(&mut self, line: &str, out: &mut impl Write) -> Result<Option<String>, String>;
}

/// The line protocol both ends of every headless command share (docs/network.md,
/// "Headless commands"): reports between lines; `quit`; `view`, `legal`, `outcome`,
/// `help`; `rematch` and actions, each answered `ok` or `error ...`.
pub(super) fn play_lines<E: HeadlessEnd>(
    mut end: E,
    lines: &Receiver<String>,
    out: &mut impl Write,
) -> Result<(), String> {
    loop {
        if !end.report(out)? {
            out.flush().map_err(io_err)?;
            return Ok(());
        }
        out.flush().map_err(io_err)?;
        let line = match lines.recv_timeout(E::BEAT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "quit" {
            end.leave();
            writeln!(out, "ok").map_err(io_err)?;
            return Ok(());
        }
        match end.view()? {
            Some(view) => {
                if let Some(r) = common(line, &view, out) {
                    r.map_err(io_err)?;
                    continue;
                }
            }
            None if matches!(line, "view" | "legal" | "outcome" | "help") => {
                writeln!(out, "error not connected to the host yet").map_err(io_err)?;
                continue;
            }
            None => {}
        }
        match end.answer(line, out)? {
            Some(answer) => writeln!(out, "{answer}").map_err(io_err)?,
            None => return Ok(()),
        }
    }
}

/// A host's answer to `rematch` or an action's line, by its own `rematch` and `act`.
pub(super) fn host_answer<H>(
    host: &mut H,
    line: &str,
    rematch: impl FnOnce(&mut H) -> Result<(), NetError>,
    act: impl FnOnce(&mut H, Action) -> Result<OmigaEvent, NetError>,
) -> String {
    let answer = if line == "rematch" {
        rematch(host).map(|()| None)
    } else {
        line.parse::<Action>()
            .map_err(|e| NetError::Refused(e.into()))
            .and_then(|a| act(host, a))
            .map(Some)
    };
    host_reply(answer)
}

impl HeadlessEnd for Host {
    const BEAT: Duration = Duration::from_millis(20);

    fn report(&mut self, out: &mut impl Write) -> Result<bool, String> {
        while let Ok(event) = self.events().try_recv() {
            writeln!(out, "# {}", event.describe()).map_err(io_err)?;
        }
        Ok(true)
    }

    fn view(&self) -> Result<Option<OmigaView>, String> {
        Host::view(self).map(Some).map_err(|e| e.to_string())
    }

    fn leave(self) {
        Host::leave(self);
    }

    fn answer(&mut self, line: &str, _out: &mut impl Write) -> Result<Option<String>, String> {
        Ok(Some(host_answer(
            self,
            line,
            |h| h.rematch(),
            |h, a| h.act(a),
        )))
    }
}

impl HeadlessEnd for Joiner {
    // The report waits on the connection instead (see `report`).
    const BEAT: Duration = Duration::ZERO;

    fn report(&mut self, out: &mut impl Write) -> Result<bool, String> {
        for event in self.poll(Duration::from_millis(20)) {
            writeln!(out, "# {}", event.describe()).map_err(io_err)?;
            if let JoinerEvent::Ended(_) = event {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn view(&self) -> Result<Option<OmigaView>, String> {
        Ok(Joiner::view(self).cloned())
    }

    fn leave(self) {
        Joiner::leave(self);
    }

    fn answer(&mut self, line: &str, out: &mut impl Write) -> Result<Option<String>, String> {
        if line == "rematch" {
            return Ok(Some(
                self.rematch()
                    .map_or_else(|e| format!("error {e}"), |()| "ok".to_string()),
            ));
        }
        match line.parse::<Action>() {
            Ok(action) => act(self, action, out),
            Err(e) => Ok(Some(format!("error {e}"))),
        }
    }
}

/// The LAN match kept in `dir`, if it may still go on; one too old for the other device to
/// be waiting goes to the history as unfinished (told in `out`).
fn saved_match(
    dir: &Path,
    timing: Timing,
    new: bool,
    out: &mut impl Write,
) -> Result<Option<saved::HostSave>, String> {
    let save = match saved::load_host(dir) {
        Ok(Some(save)) => save,
        Ok(None) => return Ok(None),
        Err(e) => {
            writeln!(out, "# notice {e}").map_err(io_err)?;
            return Ok(None);
        }
    };
    let age = saved::now_secs().saturating_sub(save.saved_at);
    if !new && age <= timing.resume_within.as_secs() {
        return Ok(Some(save));
    }
    let why = if new {
        "a new game was asked for".to_string()
    } else {
        format!(
            "it was left {age} s ago, longer than the other device waits ({} s)",
            timing.resume_within.as_secs()
        )
    };
    let kept = match save.game() {
        Ok(game) if !game.outcome().is_over() && !save.saved.actions.is_empty() => {
            saved::record(dir, &save.saved, &game)?;
            "; it is kept in the history as unfinished"
        }
        _ => "",
    };
    saved::clear_host(dir);
    writeln!(
        out,
        "# notice the saved LAN game does not go on: {why}{kept}"
    )
    .map_err(io_err)?;
    Ok(None)
}

/// `hotseat host ...`: hosts a game as White and plays it from `input`. A LAN game saved
/// on this device within the resume time goes on (same code, port and match) unless
/// `--new`.
pub fn host_command<R: BufRead + Send + 'static>(
    args: &[String],
    input: R,
    mut out: impl Write,
) -> Result<(), String> {
    let args = Args::parse(
        args,
        &["no-announce", "new"],
        &["code", "port", "bind", "seed", "table", "countdown", "name"],
    )
    .map_err(|e| e.to_string())?;
    if let Some(extra) = args.positional.first() {
        return Err(format!("host takes no '{extra}'\n{USAGE}"));
    }
    let flags = HostFlags::read(&args)?;
    let port: u16 = args.number("port", 0).map_err(|e| e.to_string())?;
    let ip: IpAddr = match args.get("bind") {
        Some(b) => b
            .parse()
            .map_err(|_| format!("--bind must be an IP address, got '{b}'"))?,
        None => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
    };
    let mut config = HostConfig::new(SocketAddr::new(ip, port), &flags.code, flags.seed);
    config.params = flags.params;
    config.timing.countdown = flags.countdown;
    config.store = crate::store::data_dir();
    if let Some(dir) = &config.store {
        config.resume = saved_match(dir, config.timing, args.flag("new"), &mut out)?;
    }
    let resumed = config.resume.is_some();
    let host = Host::start(config).map_err(|e| e.to_string())?;
    let shown = shown_addresses(&host, ip);
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
    writeln!(out, "address {}\ncode {}", shown[0], host.code()).map_err(io_err)?;
    for other in &shown[1..] {
        writeln!(out, "# also reachable at {other}").map_err(io_err)?;
    }
    if shown[0].ip().is_loopback() {
        writeln!(
            out,
            "# notice this device has no network: only apps on this device can join"
        )
        .map_err(io_err)?;
    }
    if resumed {
        writeln!(
            out,
            "# continuing the saved game: waiting for the other device to come back"
        )
    } else {
        writeln!(out, "# waiting for a device to join")
    }
    .map_err(io_err)?;
    out.flush().map_err(io_err)?;
    play_lines(host, &input_lines(input), &mut out)
}

/// Finds the first Omiga host on the LAN, saying how long it took.
fn discover(out: &mut impl Write) -> Result<SocketAddr, String> {
    writeln!(out, "# looking for hosts on the network").map_err(io_err)?;
    out.flush().map_err(io_err)?;
    let browser = Browser::on_lan().map_err(|e| e.to_string())?;
    if !browser.multicast() {
        writeln!(
            out,
            "# notice this network has no multicast route: listening for broadcasts only; if no host is found, type the address shown on the host"
        )
        .map_err(io_err)?;
    }
    let started = Instant::now();
    let found = browser.first(Duration::from_secs(3)).ok_or(
        "no host heard on the network; type the address shown on the host: hotseat join IP:PORT --code NNNN",
    )?;
    writeln!(
        out,
        "# found {} at {} in {} ms",
        found.beacon.name,
        found.addr,
        started.elapsed().as_millis()
    )
    .map_err(io_err)?;
    Ok(found.addr)
}

/// `hotseat join ...`: joins a host as Black and plays from `input`; comes back on its own
/// after a drop, for as long as the host waits. A seat kept on this device from an earlier
/// run is taken back first (the code and address are then not needed) unless `--new`.
pub fn join_command<R: BufRead + Send + 'static>(
    args: &[String],
    input: R,
    mut out: impl Write,
) -> Result<(), String> {
    let args = Args::parse(args, &["new"], &["code"]).map_err(|e| e.to_string())?;
    let timing = Timing::default();
    let store = crate::store::data_dir();
    let restored = match &store {
        Some(dir) if args.flag("new") => {
            saved::clear_seat(dir);
            None
        }
        Some(dir) => match Joiner::restore(dir.clone(), timing) {
            Ok(j) => j,
            Err(e) => {
                writeln!(out, "# notice {e}").map_err(io_err)?;
                None
            }
        },
        None => None,
    };
    let joiner = match restored {
        Some(j) => {
            writeln!(
                out,
                "# coming back to the game kept on this device (host {})",
                j.host()
            )
            .map_err(io_err)?;
            j
        }
        None => {
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
                [] => discover(&mut out)?,
                _ => return Err(format!("join takes one address\n{USAGE}")),
            };
            let joiner = Joiner::join(addr, &code, timing, store).map_err(|e| e.to_string())?;
            writeln!(
                out,
                "joined {addr} seat {}\n# started game 1 countdown {}",
                joiner.seat(),
                joiner.countdown().as_secs_f64()
            )
            .map_err(io_err)?;
            joiner
        }
    };
    out.flush().map_err(io_err)?;
    play_lines(joiner, &input_lines(input), &mut out)
}

/// Plays one action and waits for its fate, through drops and comebacks: `ok`, `error
/// ...`, or `None` when the pairing ended meanwhile.
fn act(
    joiner: &mut Joiner,
    action: Action,
    out: &mut impl Write,
) -> Result<Option<String>, String> {
    if let Err(e) = joiner.act(action) {
        if joiner.pending().is_none() {
            return Ok(Some(format!("error {e}")));
        }
        // The send itself broke the connection: the fate comes after coming back.
    }
    loop {
        for event in joiner.poll(Duration::from_millis(50)) {
            let answer = joiner_reply(&event);
            if answer.is_none() || matches!(event, JoinerEvent::Settled { .. }) {
                writeln!(out, "# {}", event.describe()).map_err(io_err)?;
                out.flush().map_err(io_err)?;
            }
            if let JoinerEvent::Ended(_) = event {
                return Ok(None);
            }
            if answer.is_some() {
                return Ok(answer);
            }
        }
    }
}
