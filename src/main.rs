//! Desktop entry: `hotseat` runs the app; `hotseat referee` speaks the text protocol of
//! docs/referee.md; `hotseat host` / `hotseat join` play two-device Omiga headless;
//! `hotseat selfplay` pits the app's opponents against each other; with the developer
//! tools built in, `screenshot`, `bench` and `kiosk-soak`.
//!
//! The command line is declared once here with clap, so every subcommand answers `--help`
//! and every mistake is reported in clap's form. Each subcommand's own module keeps its
//! checks of meaning (a code of four digits, a table size the game offers); clap hands it
//! the words it has already checked for shape, so those modules stay usable from tests
//! and from other front ends.

use clap::{Args, Parser, Subcommand};
use hotseat::games::registry::GameKind;
use std::net::IpAddr;
use std::process::ExitCode;

/// Ovo, IOTA and Omiga for phones and tablets: pass-and-play, two-device Omiga, kiosk.
///
/// Without a subcommand, runs the app.
#[derive(Debug, Parser)]
#[command(name = "hotseat", version)]
struct Cli {
    /// Run the app in kiosk mode, for a shared tablet (docs/kiosk.md).
    #[arg(long)]
    kiosk: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The headless referee: the text protocol of docs/referee.md on stdin/stdout.
    Referee,
    /// Host two-device Omiga as White, headless, moves in referee notation on stdin
    /// (docs/network.md).
    Host(HostArgs),
    /// Join a two-device Omiga host as Black, headless (docs/network.md).
    Join(JoinArgs),
    /// Host two-device Omiga as White over a WebRTC data channel, paired with a phone's
    /// browser by texts: prints the offer text, reads the answer text (docs/network.md).
    #[cfg(feature = "webrtc")]
    RtcHost(RtcHostArgs),
    /// Join over a WebRTC data channel as Black: reads the host's offer text, prints the
    /// answer text (docs/network.md).
    #[cfg(feature = "webrtc")]
    RtcJoin(RtcJoinArgs),
    /// App opponents play each other: results and games per second (docs/opponents.md).
    Selfplay(SelfplayArgs),
    /// Forget the kiosk's staff PIN (the next kiosk start asks for a new one).
    KioskResetPin,
    /// Developer tool: the kiosk's attract loop for N simulated minutes, printing resident
    /// memory as it goes (docs/kiosk.md).
    #[cfg(feature = "devtools")]
    KioskSoak(KioskSoakArgs),
    /// Developer tool: render a screen to PNG with the software renderer.
    #[cfg(feature = "devtools")]
    Screenshot(ScreenshotArgs),
    /// Developer tool: the app drawn headless, answering where each control is (the
    /// browser test taps there; commands on stdin, see src/devtools/mirror.rs).
    #[cfg(feature = "devtools")]
    Mirror(MirrorArgs),
    /// Developer tool: start-up, idle CPU, frame times, memory and binary size
    /// (docs/performance.md).
    #[cfg(feature = "devtools")]
    Bench(BenchArgs),
}

/// Pushes `--name value` when the option was given.
fn push(args: &mut Vec<String>, name: &str, value: Option<impl ToString>) {
    if let Some(v) = value {
        args.push(format!("--{name}"));
        args.push(v.to_string());
    }
}

/// The game a host offers: the same flags for `host` and `rtc-host`.
#[derive(Debug, Args)]
struct GameFlags {
    /// The four-digit code the other device must give (default: a random one).
    #[arg(long, value_name = "NNNN")]
    code: Option<String>,
    /// The seed that shuffles both decks (default: random).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// The table size, e.g. 9x10.
    #[arg(long, value_name = "WxH")]
    table: Option<String>,
    /// Seconds of countdown before play starts (0 to 60, default 3).
    #[arg(long, value_name = "SECS")]
    countdown: Option<f64>,
}

impl GameFlags {
    /// Adds the words src/net/headless.rs reads (HostFlags).
    fn push_words(&self, w: &mut Vec<String>) {
        push(w, "code", self.code.as_ref());
        push(w, "seed", self.seed);
        push(w, "table", self.table.as_ref());
        push(w, "countdown", self.countdown);
    }
}

#[derive(Debug, Args)]
struct HostArgs {
    #[command(flatten)]
    game: GameFlags,
    /// The TCP port to listen on (default 0: any free port, printed at start).
    #[arg(long, value_name = "P")]
    port: Option<u16>,
    /// The address to listen on (default: every interface).
    #[arg(long, value_name = "IP")]
    bind: Option<IpAddr>,
    /// The name other devices see on the network.
    #[arg(long)]
    name: Option<String>,
    /// Do not announce the game on the LAN (the other device joins by address).
    #[arg(long)]
    no_announce: bool,
    /// Start afresh instead of continuing a LAN game kept on this device.
    #[arg(long)]
    new: bool,
}

impl HostArgs {
    /// The words src/net/headless.rs reads.
    fn words(&self) -> Vec<String> {
        let mut w = Vec::new();
        self.game.push_words(&mut w);
        push(&mut w, "port", self.port);
        push(&mut w, "bind", self.bind);
        push(&mut w, "name", self.name.as_ref());
        if self.no_announce {
            w.push("--no-announce".into());
        }
        if self.new {
            w.push("--new".into());
        }
        w
    }
}

#[cfg(feature = "webrtc")]
#[derive(Debug, Args)]
struct RtcHostArgs {
    #[command(flatten)]
    game: GameFlags,
    /// The one address to offer (default: each of this device's own IPv4 addresses).
    #[arg(long, value_name = "IP")]
    bind: Option<IpAddr>,
}

#[cfg(feature = "webrtc")]
impl RtcHostArgs {
    /// The words src/net/headless_rtc.rs reads.
    fn words(&self) -> Vec<String> {
        let mut w = Vec::new();
        self.game.push_words(&mut w);
        push(&mut w, "bind", self.bind);
        w
    }
}

#[cfg(feature = "webrtc")]
#[derive(Debug, Args)]
struct RtcJoinArgs {
    /// The one address to offer (default: each of this device's own IPv4 addresses).
    #[arg(long, value_name = "IP")]
    bind: Option<IpAddr>,
}

#[derive(Debug, Args)]
struct JoinArgs {
    /// The host's address, IP:PORT (default: the first Omiga host heard on the LAN).
    addr: Option<String>,
    /// The host's four-digit code (not needed to take back a seat kept on this device).
    #[arg(long, value_name = "NNNN")]
    code: Option<String>,
    /// Start afresh instead of taking back a seat kept on this device.
    #[arg(long)]
    new: bool,
}

impl JoinArgs {
    /// The words src/net/headless.rs reads.
    fn words(&self) -> Vec<String> {
        let mut w: Vec<String> = self.addr.iter().cloned().collect();
        push(&mut w, "code", self.code.as_ref());
        if self.new {
            w.push("--new".into());
        }
        w
    }
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct SelfplayArgs {
    /// The strength matrix instead of one run (docs/opponents.md).
    #[command(subcommand)]
    matrix: Option<SelfplayCommand>,
    /// The game.
    #[arg(long, value_parser = GameKind::NAMES, required = true)]
    game: Option<String>,
    /// Seats per game (default 2).
    #[arg(long, value_name = "N")]
    players: Option<u64>,
    /// How many games (default 100).
    #[arg(long, value_name = "K")]
    games: Option<u64>,
    /// Levels dealt to the seats in rotation: random, easy, medium, hard (default
    /// hard,random); seat i of game k plays levels[(i+k) % len].
    #[arg(long, value_name = "a,b,...")]
    levels: Option<String>,
    /// The seed of everything (default 1).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// No deadlines: every search runs its full budget (exactly reproducible).
    #[arg(long)]
    untimed: bool,
    /// Decide in slices of MS milliseconds through `Bot::think`, as the browser does, and
    /// report the longest slice and the slices per decision.
    #[arg(long, value_name = "MS")]
    slice: Option<u64>,
}

#[derive(Debug, Subcommand)]
enum SelfplayCommand {
    /// Every stronger level against each weaker one, per game and player count, with
    /// decision times; `--write FILE` puts the tables between FILE's matrix markers.
    Matrix(MatrixArgs),
}

#[derive(Debug, Args)]
struct MatrixArgs {
    /// Games per pairing (default 100).
    #[arg(long, value_name = "K")]
    games: Option<u64>,
    /// The seed of everything (default 11).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Only this game (may repeat).
    #[arg(long, value_parser = GameKind::NAMES)]
    game: Vec<String>,
    /// Only this player count (may repeat).
    #[arg(long, value_name = "N")]
    players: Vec<u64>,
    /// No deadlines: every search runs its full budget (exactly reproducible).
    #[arg(long)]
    untimed: bool,
    /// The document whose matrix section is replaced by the tables.
    #[arg(long, value_name = "FILE")]
    write: Option<String>,
}

impl SelfplayArgs {
    /// The words src/ai/selfplay.rs reads (`matrix` first for the matrix).
    fn words(&self) -> Vec<String> {
        let mut w = Vec::new();
        if let Some(SelfplayCommand::Matrix(m)) = &self.matrix {
            w.push("matrix".into());
            push(&mut w, "games", m.games);
            push(&mut w, "seed", m.seed);
            for g in &m.game {
                push(&mut w, "game", Some(g));
            }
            for p in &m.players {
                push(&mut w, "players", Some(p));
            }
            if m.untimed {
                w.push("--untimed".into());
            }
            push(&mut w, "write", m.write.as_ref());
            return w;
        }
        push(&mut w, "game", self.game.as_ref());
        push(&mut w, "players", self.players);
        push(&mut w, "games", self.games);
        push(&mut w, "levels", self.levels.as_ref());
        push(&mut w, "seed", self.seed);
        if self.untimed {
            w.push("--untimed".into());
        }
        push(&mut w, "slice", self.slice);
        w
    }
}

#[cfg(feature = "devtools")]
#[derive(Debug, Args)]
struct KioskSoakArgs {
    /// Simulated minutes to run (1 to 100000).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    minutes: u64,
    /// Print resident memory every M simulated minutes.
    #[arg(long, value_name = "M", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
}

#[cfg(feature = "devtools")]
#[derive(Debug, Args)]
struct MirrorArgs {
    /// The window size in logical pixels.
    #[arg(long, value_name = "WxH", default_value = "412x915")]
    size: String,
    /// The language.
    #[arg(long, value_parser = ["en", "ru"], default_value = "en")]
    lang: String,
}

#[cfg(feature = "devtools")]
#[derive(Debug, Args)]
struct ScreenshotArgs {
    /// The screen to render (default home); see `--all` for the list.
    screen: Option<String>,
    /// Every screen at phone and tablet sizes, both orientations, into this folder.
    #[arg(long, value_name = "DIR")]
    all: Option<String>,
    /// The window size in logical pixels, e.g. 412x915.
    #[arg(long, value_name = "WxH")]
    size: Option<String>,
    /// The language.
    #[arg(long, value_parser = ["en", "ru"])]
    lang: Option<String>,
    /// The colour theme.
    #[arg(long, value_parser = ["light", "dark", "high-contrast"])]
    theme: Option<String>,
    /// Show the picture as a colour-blind player sees it.
    #[arg(long, value_parser = ["deuteranopia", "protanopia", "tritanopia"])]
    cvd: Option<String>,
    /// The PNG file to write (default SCREEN-WxH.png).
    #[arg(long, short, value_name = "FILE")]
    out: Option<String>,
}

#[cfg(feature = "devtools")]
impl ScreenshotArgs {
    /// The words src/devtools/screenshot.rs reads.
    fn words(&self) -> Vec<String> {
        let mut w: Vec<String> = self.screen.iter().cloned().collect();
        push(&mut w, "all", self.all.as_ref());
        push(&mut w, "size", self.size.as_ref());
        push(&mut w, "lang", self.lang.as_ref());
        push(&mut w, "theme", self.theme.as_ref());
        push(&mut w, "cvd", self.cvd.as_ref());
        push(&mut w, "out", self.out.as_ref());
        w
    }
}

#[cfg(feature = "devtools")]
#[derive(Debug, Args)]
struct BenchArgs {
    /// Which benchmark (docs/performance.md explains each).
    #[arg(value_parser = ["startup", "idle", "frame", "memory", "binary", "all"], default_value = "all")]
    which: String,
    /// Repetitions of start-up and frame measurements (1 to 1000, default 7).
    #[arg(long, value_name = "N")]
    runs: Option<u64>,
    /// Seconds each screen is left alone for the idle benchmark (1 to 3600, default 30).
    #[arg(long, value_name = "S")]
    seconds: Option<u64>,
    /// Frame only this scene (home, cover, ovo4, iota-crowded, omiga-late, …).
    #[arg(long, value_name = "NAME")]
    scene: Option<String>,
    /// Print the table as Markdown.
    #[arg(long)]
    markdown: bool,
    /// The processes the benchmarks spawn: floor, home, resume or scene:NAME.
    #[arg(long, hide = true, value_name = "MODE")]
    child: Option<String>,
    /// With --child: exit after the first frame.
    #[arg(long, hide = true, requires = "child")]
    first_frame: bool,
}

#[cfg(feature = "devtools")]
impl BenchArgs {
    /// The words src/devtools/bench/mod.rs reads.
    fn words(&self) -> Vec<String> {
        if let Some(mode) = &self.child {
            let mut w = vec!["--child".to_string(), mode.clone()];
            if self.first_frame {
                w.push("--first-frame".into());
            }
            return w;
        }
        let mut w = vec![self.which.clone()];
        push(&mut w, "runs", self.runs);
        push(&mut w, "seconds", self.seconds);
        push(&mut w, "scene", self.scene.as_ref());
        if self.markdown {
            w.push("--markdown".into());
        }
        w
    }
}

fn stdin_lines() -> std::io::BufReader<std::io::Stdin> {
    std::io::BufReader::new(std::io::stdin())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        None => run_app(cli.kiosk),
        Some(_) if cli.kiosk => Err("--kiosk runs the app; it takes no subcommand".into()),
        Some(Command::Referee) => {
            let stdin = std::io::stdin();
            hotseat::referee::serve(stdin.lock(), std::io::stdout().lock())
                .map_err(|e| e.to_string())
        }
        Some(Command::Host(a)) => {
            hotseat::net::headless::host_command(&a.words(), stdin_lines(), std::io::stdout())
        }
        Some(Command::Join(a)) => {
            hotseat::net::headless::join_command(&a.words(), stdin_lines(), std::io::stdout())
        }
        #[cfg(feature = "webrtc")]
        Some(Command::RtcHost(a)) => {
            hotseat::net::headless_rtc::host_command(&a.words(), stdin_lines(), std::io::stdout())
        }
        #[cfg(feature = "webrtc")]
        Some(Command::RtcJoin(a)) => {
            let mut w = Vec::new();
            push(&mut w, "bind", a.bind);
            hotseat::net::headless_rtc::join_command(&w, stdin_lines(), std::io::stdout())
        }
        Some(Command::Selfplay(a)) => hotseat::ai::selfplay::command(&a.words()),
        Some(Command::KioskResetPin) => match hotseat::store::data_dir() {
            Some(dir) => hotseat::store::kiosk::reset_pin(&dir).map(|m| println!("{m}")),
            None => Err("no data folder on this system (set HOTSEAT_DATA_DIR)".into()),
        },
        #[cfg(feature = "devtools")]
        Some(Command::KioskSoak(a)) => hotseat::devtools::kiosk_soak::command(&[
            "--minutes".into(),
            a.minutes.to_string(),
            "--every".into(),
            a.every.to_string(),
        ]),
        #[cfg(feature = "devtools")]
        Some(Command::Screenshot(a)) => hotseat::devtools::screenshot::command(&a.words()),
        #[cfg(feature = "devtools")]
        Some(Command::Mirror(a)) => hotseat::devtools::mirror::command(
            &["--size".into(), a.size, "--lang".into(), a.lang],
            std::io::stdin().lock(),
            std::io::stdout().lock(),
        ),
        #[cfg(feature = "devtools")]
        Some(Command::Bench(a)) => hotseat::devtools::bench::command(&a.words()),
    }
}

#[cfg(feature = "ui")]
fn run_app(kiosk: bool) -> Result<(), String> {
    if kiosk {
        hotseat::ui::run_app_with(true).map_err(|e| e.to_string())
    } else {
        hotseat::run_app().map_err(|e| e.to_string())
    }
}

#[cfg(not(feature = "ui"))]
fn run_app(_kiosk: bool) -> Result<(), String> {
    Err("this hotseat was built without the app (feature \"ui\"); see --help".into())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hotseat: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// `hotseat selfplay WORDS...` as clap reads it.
    fn selfplay(words: &[&str]) -> SelfplayArgs {
        let cli = Cli::try_parse_from(["hotseat", "selfplay"].iter().chain(words))
            .unwrap_or_else(|e| panic!("selfplay {words:?} does not parse: {e}"));
        match cli.command {
            Some(Command::Selfplay(a)) => a,
            other => panic!("not selfplay: {other:?}"),
        }
    }

    #[test]
    fn the_readme_commands_parse_to_the_words_the_modules_read() {
        // The README's selfplay line: the words after `selfplay` are both the input and
        // what must reach the self-play module.
        let readme = [
            "--game",
            "ovo",
            "--games",
            "20",
            "--levels",
            "hard,random",
            "--seed",
            "1",
        ];
        let a = selfplay(&readme);
        assert_eq!(a.words(), readme);
        // docs/opponents.md's matrix line: the clap CLI once dropped `matrix`. The words
        // after `selfplay` are written once: they are both the input and what must reach
        // the matrix.
        let matrix = [
            "matrix",
            "--games",
            "100",
            "--seed",
            "11",
            "--write",
            "docs/opponents.md",
        ];
        let a = selfplay(&matrix);
        assert_eq!(a.words(), matrix);
        let config = hotseat::ai::selfplay::MatrixConfig::parse(&a.words()[1..])
            .expect("the matrix reads those words");
        assert_eq!(config.write.as_deref(), Some("docs/opponents.md"));
        let cli = Cli::try_parse_from(["hotseat", "join", "127.0.0.1:5000", "--code", "1234"])
            .expect("docs/network.md's join line parses");
        let Some(Command::Join(a)) = cli.command else {
            panic!("not join: {cli:?}");
        };
        assert_eq!(a.words(), ["127.0.0.1:5000", "--code", "1234"]);
        // In the order the words are made: the game's flags first (GameFlags).
        let host = [
            "--code",
            "1234",
            "--seed",
            "7",
            "--countdown",
            "0",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
        ];
        let cli = Cli::try_parse_from(["hotseat", "host"].iter().chain(&host))
            .expect("docs/network.md's host line parses");
        let Some(Command::Host(a)) = cli.command else {
            panic!("not host: {cli:?}");
        };
        assert_eq!(a.words(), host);
        assert!(Cli::try_parse_from(["hotseat", "--kiosk"]).is_ok_and(|c| c.kiosk));
    }

    #[test]
    fn mistakes_are_refused_before_anything_runs() {
        for bad in [
            &["hotseat", "frobnicate"][..],
            &["hotseat", "referee", "--fast"],
            &["hotseat", "host", "--port", "99999"],
            &["hotseat", "host", "--bind", "nowhere"],
            &["hotseat", "join", "--code"],
            &["hotseat", "selfplay", "--game", "chess"],
            &["hotseat", "selfplay", "--game", "ovo", "--games", "many"],
        ] {
            assert!(Cli::try_parse_from(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
