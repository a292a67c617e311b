//! The headless `rtc-host` and `rtc-join` commands (issue 40, point 4): the app's end of a
//! WebRTC data channel ([`super::rtc_native`]) paired by the same texts a phone's browser
//! shows and reads, then the same line protocol as `host` / `join` (docs/network.md,
//! "Headless commands"). `rtc-host` prints its offer text and reads the answer text as its
//! first input line; `rtc-join` reads the offer text as its first line and prints its
//! answer. Both drive `PageHost` / `PageJoiner` on this one thread, polling the sockets
//! every couple of milliseconds.

use super::headless::{
    host_answer, input_lines, io_err, joiner_reply, play_lines, Args, HeadlessEnd, HostFlags,
};
use super::joiner::JoinerEvent;
use super::page::{PageHost, PageJoiner, RTC_TIMING};
use super::pairing::{self, Pairing, PairingKind};
use super::protocol::{ClientMsg, HostMsg, RateLimit};
use super::rtc_native::{host_addresses, NativeChannel, NativePairing};
use super::{HostEvent, MatchSetup, NetError};
use crate::games::omiga::{Action, Omiga, OmigaView};
use crate::games::Game;
use std::io::{BufRead, Write};
use std::net::IpAddr;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Usage of both commands.
pub const USAGE: &str =
    "  hotseat rtc-host [--code NNNN] [--seed S] [--table WxH] [--countdown SECS] [--bind IP]
  hotseat rtc-join [--bind IP]
      pair with a phone's browser (or another app) by pairing texts over a WebRTC data channel";

/// How often the loop looks at the sockets and the input.
const BEAT: Duration = Duration::from_millis(2);
/// The host waits this long for the data channel to open once it has the answer.
const OPENS_WITHIN: Duration = Duration::from_secs(20);
/// The joiner's answer stays good this long (the host's player scans or pastes it).
const ANSWER_WAITS: Duration = Duration::from_secs(180);

/// What the joiner says when its link is gone for good (this command pairs once).
const LINK_LOST: &str =
    "# ended the link to the host is lost; this command pairs once: start rtc-join again with a new offer";

type Host = PageHost<NativeChannel<HostMsg, ClientMsg>>;
type Join = PageJoiner<NativeChannel<ClientMsg, HostMsg>>;

/// The addresses to offer: `--bind IP`, or this device's own (an error if it has none).
fn addresses(args: &Args) -> Result<Vec<IpAddr>, String> {
    match args.get("bind") {
        Some(b) => b
            .parse()
            .map(|ip| vec![ip])
            .map_err(|_| format!("--bind must be an IP address, got '{b}'")),
        None => Ok(host_addresses()),
    }
}

/// The next input line that reads as a pairing text of `kind`, an `error ...` line said for
/// each that does not; `None` on `quit` (answered `ok`) or once the input is closed.
/// `meanwhile` runs between lines, every [`BEAT`].
fn next_pairing(
    lines: &Receiver<String>,
    out: &mut impl Write,
    kind: PairingKind,
    mut meanwhile: impl FnMut(),
) -> Result<Option<Pairing>, String> {
    loop {
        meanwhile();
        let line = match lines.recv_timeout(BEAT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "quit" {
            writeln!(out, "ok").map_err(io_err)?;
            return Ok(None);
        }
        match pairing::decode(line).and_then(|p| p.expect(kind)) {
            Ok(p) => return Ok(Some(p)),
            Err(e) => writeln!(out, "error {e}").map_err(io_err)?,
        }
        out.flush().map_err(io_err)?;
    }
}

/// The host candidates of `sdp` as `address:port`, space-separated.
fn candidates(sdp: &str) -> String {
    let found: Vec<String> = super::pairing::host_candidates(sdp)
        .into_iter()
        .map(|(address, port)| format!("{address}:{port}"))
        .collect();
    found.join(" ")
}

/// Polls `pairing` until its channel opens, it fails, or `within` has passed.
fn open<Out, In>(
    mut pairing: NativePairing,
    within: Duration,
) -> Result<NativeChannel<Out, In>, String> {
    let end = Instant::now() + within;
    loop {
        pairing.poll(Instant::now());
        if let Some(why) = pairing.failure() {
            return Err(format!("the link failed before it opened: {why}"));
        }
        pairing = match pairing.channel() {
            Ok(channel) => return Ok(channel),
            Err(p) => *p,
        };
        if Instant::now() >= end {
            return Err(format!(
                "the other device did not connect within {} s: are both on the same Wi-Fi?",
                within.as_secs()
            ));
        }
        pairing.wait(BEAT);
    }
}

/// `hotseat rtc-host ...`: hosts a game as White over a data channel and plays it from
/// `input`.
pub fn host_command<R: BufRead + Send + 'static>(
    args: &[String],
    input: R,
    mut out: impl Write,
) -> Result<(), String> {
    let args = Args::parse(args, &[], &["code", "seed", "table", "countdown", "bind"])
        .map_err(|e| e.to_string())?;
    if let Some(extra) = args.positional.first() {
        return Err(format!("rtc-host takes no '{extra}'\n{USAGE}"));
    }
    let HostFlags {
        code,
        countdown,
        params,
        ..
    } = HostFlags::read(&args)?;
    let addrs = addresses(&args)?;
    let game = Omiga::new_game(&params).map_err(|e| NetError::Setup(e.into()).to_string())?;
    let mut timing = RTC_TIMING;
    timing.countdown = countdown;
    let setup = MatchSetup {
        game,
        params,
        code: code.clone(),
        timing,
        rate: RateLimit::default(),
        keeps: false,
        port: 0,
        resume: None,
    };
    let mut host: Host = PageHost::new(setup, None, Instant::now()).map_err(|e| e.to_string())?;
    let lines = input_lines(input);
    let mut pairing = NativePairing::offer(&addrs, Instant::now()).map_err(|e| e.to_string())?;
    let offer = pairing::encode(PairingKind::Offer, pairing.local_sdp(), Some(&code))
        .map_err(|e| e.to_string())?;
    writeln!(
        out,
        "offer {offer}\ncode {code}\n# paste the answer text the other device shows"
    )
    .map_err(io_err)?;
    out.flush().map_err(io_err)?;
    // The answer: the first text that reads as one and fits the offer; anything else is
    // said and asked again. The offer's engine is polled meanwhile (its sockets answer early
    // checks).
    loop {
        let Some(answer) = next_pairing(&lines, &mut out, PairingKind::Answer, || {
            pairing.poll(Instant::now())
        })?
        else {
            return Ok(());
        };
        match pairing.take_answer(&answer.sdp) {
            Ok(()) => {
                // What the other device offers to be reached at: its addresses, or the
                // `.local` names this side looks up by mDNS.
                writeln!(
                    out,
                    "# the answer's candidates: {}",
                    candidates(&answer.sdp)
                )
                .map_err(io_err)?;
                out.flush().map_err(io_err)?;
                break;
            }
            Err(e) => writeln!(out, "error {e}").map_err(io_err)?,
        }
        out.flush().map_err(io_err)?;
    }
    let started = Instant::now();
    let channel = open(pairing, OPENS_WITHIN)?;
    writeln!(out, "# paired in {} ms", started.elapsed().as_millis()).map_err(io_err)?;
    host.connect(channel, Instant::now());
    play_lines(host, &lines, &mut out)
}

/// `hotseat rtc-join ...`: reads the host's offer text, prints this device's answer,
/// joins as Black once the channel opens, and plays from `input`.
pub fn join_command<R: BufRead + Send + 'static>(
    args: &[String],
    input: R,
    mut out: impl Write,
) -> Result<(), String> {
    let args = Args::parse(args, &[], &["bind"]).map_err(|e| e.to_string())?;
    if let Some(extra) = args.positional.first() {
        return Err(format!("rtc-join takes no '{extra}'\n{USAGE}"));
    }
    let addrs = addresses(&args)?;
    let lines = input_lines(input);
    writeln!(out, "# paste the offer text the hosting device shows").map_err(io_err)?;
    out.flush().map_err(io_err)?;
    let (pairing, code) = loop {
        let Some(offer) = next_pairing(&lines, &mut out, PairingKind::Offer, || {})? else {
            return Ok(());
        };
        let code = offer.join_code.clone().unwrap_or_default();
        let made = NativePairing::answer(&offer.sdp, &addrs, Instant::now())
            .map_err(|e| e.to_string())
            .and_then(|pairing| {
                pairing::encode(PairingKind::Answer, pairing.local_sdp(), None)
                    .map(|text| (pairing, text))
                    .map_err(|e| e.to_string())
            });
        match made {
            Ok((pairing, text)) => {
                writeln!(out, "answer {text}").map_err(io_err)?;
                out.flush().map_err(io_err)?;
                break (pairing, code);
            }
            Err(e) => writeln!(out, "error {e}").map_err(io_err)?,
        }
        out.flush().map_err(io_err)?;
    };
    let started = Instant::now();
    let channel = open(pairing, ANSWER_WAITS)?;
    let mut joiner: Join = PageJoiner::join(&code, RTC_TIMING, channel, None, Instant::now());
    let end = Instant::now() + RTC_TIMING.hello_within;
    while !joiner.connected() {
        for event in joiner.step(Instant::now()) {
            writeln!(out, "# {}", event.describe()).map_err(io_err)?;
        }
        if let Some(e) = joiner.take_failure() {
            return Err(e.to_string());
        }
        if Instant::now() >= end {
            return Err("the host did not welcome this device".into());
        }
        std::thread::sleep(BEAT);
    }
    writeln!(
        out,
        "joined seat 1 in {} ms\n# started game 1 countdown {}",
        started.elapsed().as_millis(),
        joiner.countdown().as_secs_f64()
    )
    .map_err(io_err)?;
    out.flush().map_err(io_err)?;
    play_lines(joiner, &lines, &mut out)
}

impl HeadlessEnd for Host {
    const BEAT: Duration = BEAT;

    fn report(&mut self, out: &mut impl Write) -> Result<bool, String> {
        for event in self.step(Instant::now()) {
            writeln!(out, "# {}", event.describe()).map_err(io_err)?;
            if let HostEvent::Ended { .. } = event {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn view(&self) -> Result<Option<OmigaView>, String> {
        Ok(Some(PageHost::view(self)))
    }

    fn leave(mut self) {
        PageHost::leave(&mut self, Instant::now());
        // The leaving message goes out before the channel closes.
        self.step(Instant::now());
    }

    fn answer(&mut self, line: &str, _out: &mut impl Write) -> Result<Option<String>, String> {
        let now = Instant::now();
        Ok(Some(host_answer(
            self,
            line,
            |h| {
                h.rematch(now);
                Ok(())
            },
            |h, a| h.act(&a, now),
        )))
    }
}

impl HeadlessEnd for Join {
    const BEAT: Duration = BEAT;

    /// Steps the joiner and prints what it says; false once the pairing has ended.
    fn report(&mut self, out: &mut impl Write) -> Result<bool, String> {
        for event in self.step(Instant::now()) {
            writeln!(out, "# {}", event.describe()).map_err(io_err)?;
            if let JoinerEvent::Ended(_) = event {
                return Ok(false);
            }
        }
        if self.wants_link() {
            // A data channel cannot be dialled again: only a new offer and answer would do.
            writeln!(out, "{LINK_LOST}").map_err(io_err)?;
            return Ok(false);
        }
        Ok(true)
    }

    fn view(&self) -> Result<Option<OmigaView>, String> {
        Ok(PageJoiner::view(self).cloned())
    }

    fn leave(mut self) {
        PageJoiner::leave(&mut self, Instant::now());
        self.step(Instant::now());
    }

    fn answer(&mut self, line: &str, out: &mut impl Write) -> Result<Option<String>, String> {
        if line == "rematch" {
            return Ok(Some(
                self.rematch(Instant::now())
                    .map_or_else(|e| format!("error {e}"), |()| "ok".to_string()),
            ));
        }
        match line.parse::<Action>() {
            Ok(action) => act(self, action, out),
            Err(e) => Ok(Some(format!("error {e}"))),
        }
    }
}

/// Plays one action and waits for its answer: `ok`, `error ...`, or `None` when the
/// pairing ended meanwhile. Prints `# round trip N.N ms` (sent to answered) before it.
fn act(joiner: &mut Join, action: Action, out: &mut impl Write) -> Result<Option<String>, String> {
    let sent = Instant::now();
    if let Err(e) = joiner.act(action, sent) {
        return Ok(Some(format!("error {e}")));
    }
    loop {
        for event in joiner.step(Instant::now()) {
            let answer = joiner_reply(&event);
            if answer.is_none() || matches!(event, JoinerEvent::Settled { .. }) {
                writeln!(out, "# {}", event.describe()).map_err(io_err)?;
            }
            if let JoinerEvent::Ended(_) = event {
                out.flush().map_err(io_err)?;
                return Ok(None);
            }
            if answer.is_none() && joiner.wants_link() {
                writeln!(out, "{LINK_LOST}").map_err(io_err)?;
                out.flush().map_err(io_err)?;
                return Ok(None);
            }
            if answer.is_some() {
                let ms = sent.elapsed().as_secs_f64() * 1000.0;
                writeln!(out, "# round trip {ms:.1} ms").map_err(io_err)?;
                return Ok(answer);
            }
        }
        if joiner.wants_link() {
            writeln!(out, "{LINK_LOST}").map_err(io_err)?;
            out.flush().map_err(io_err)?;
            return Ok(None);
        }
        out.flush().map_err(io_err)?;
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
#[path = "headless_rtc/tests.rs"]
mod tests;
