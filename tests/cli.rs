//! The command line as a user meets it: every subcommand answers `--help`, a mistake is
//! reported in clap's form with exit code 2 before anything runs, and the referee still
//! speaks its protocol.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn hotseat(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hotseat"))
        .args(args)
        .env(
            "HOTSEAT_DATA_DIR",
            std::env::temp_dir().join("hotseat-cli-test"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hotseat binary starts");
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .expect("stdin takes the input");
    }
    child.wait_with_output().expect("hotseat ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_subcommand_answers_help() {
    let mut commands = vec![
        ("referee", vec![]),
        ("host", vec!["--code", "--port", "--bind", "--no-announce"]),
        ("join", vec!["--code", "[ADDR]"]),
        ("selfplay", vec!["--game", "--levels", "--untimed"]),
        ("kiosk-reset-pin", vec![]),
    ];
    if cfg!(feature = "devtools") {
        commands.extend([
            ("screenshot", vec!["--size", "--lang", "--cvd", "--all"]),
            ("bench", vec!["--runs", "--scene", "--markdown"]),
            ("kiosk-soak", vec!["--minutes", "--every"]),
        ]);
    }
    for (command, flags) in commands {
        let out = hotseat(&[command, "--help"], "");
        let help = text(&out.stdout);
        assert!(out.status.success(), "{command} --help: {out:?}");
        assert!(
            help.contains(&format!("Usage: hotseat {command}")),
            "{command}: {help}"
        );
        for flag in flags {
            assert!(help.contains(flag), "{command} --help lacks {flag}: {help}");
        }
    }
    let top = text(&hotseat(&["--help"], "").stdout);
    for listed in ["referee", "host", "join", "selfplay", "--kiosk"] {
        assert!(top.contains(listed), "hotseat --help lacks {listed}: {top}");
    }
}

#[test]
fn mistakes_are_reported_in_clap_form_before_anything_runs() {
    for args in [
        &["frobnicate"][..],
        &["referee", "--fast"],
        &["host", "--port", "seventy"],
        &["join", "--code"],
        &["selfplay", "--game", "chess"],
    ] {
        let out = hotseat(args, "");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains("--help"), "{args:?} points to --help: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed: {out:?}");
    }
}

#[test]
fn the_referee_still_speaks_its_protocol() {
    let out = hotseat(&["referee"], "new ovo players=2 first=1\nposition\nfrob\n");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        text(&out.stdout),
        "ok\nposition players=2 turn=1 board=BBBBBB/....../....../....../....../AAAAAA\nok\n\
         error unknown command 'frob' (commands: new, setup, play, legal, view, state, scores, outcome, position)\n"
    );
}

#[test]
fn selfplay_checks_meaning_after_clap_checked_shape() {
    // Shape is clap's (a number), meaning is selfplay's (Omiga has two seats).
    let out = hotseat(&["selfplay", "--game", "omiga", "--players", "3"], "");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        text(&out.stderr).contains("omiga is played by 2 players, not 3"),
        "{out:?}"
    );
}
