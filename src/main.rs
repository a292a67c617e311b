//! Desktop entry: `hotseat` runs the app; `hotseat referee` speaks the text protocol of
//! RULES.md §5; `hotseat screenshot` renders screens to PNG; `hotseat host` / `hotseat
//! join` play two-device Omiga headless; `hotseat selfplay` pits the app's opponents
//! against each other.

use std::process::ExitCode;

const USAGE_HEAD: &str = "usage:
  hotseat                      run the app
  hotseat --kiosk              run the app in kiosk mode (docs/kiosk.md)
  hotseat kiosk-reset-pin      forget the kiosk's staff PIN (the next kiosk start asks for one)
  hotseat kiosk-soak [--minutes N] [--every M]
                               the attract loop for N simulated minutes; resident memory every M
  hotseat referee              the text protocol of RULES.md §5 on stdin/stdout
  hotseat host ... / join ...  two-device Omiga, headless (docs/network.md):
{NET}
  hotseat selfplay --game ovo|iota|omiga [--players N] [--games K] [--levels a,b] [--seed S] [--untimed]
                               app opponents play each other; results and games per second
  hotseat screenshot SCREEN [--size WxH] [--lang en|ru] [--theme light|dark|high-contrast]
                               [--cvd deuteranopia|protanopia|tritanopia] [--out FILE]
  hotseat screenshot --all DIR every screen at phone and tablet sizes, both orientations
  hotseat bench [startup|idle|frame|memory|binary|all] [--runs N] [--seconds S] [--scene NAME] [--markdown]
                               start-up, idle CPU, frame times, memory, binary size (docs/performance.md)";

fn usage() -> String {
    USAGE_HEAD.replace("{NET}", hotseat::net::headless::USAGE)
}

fn stdin_lines() -> std::io::BufReader<std::io::Stdin> {
    std::io::BufReader::new(std::io::stdin())
}

fn stdout() -> std::io::Stdout {
    std::io::stdout()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("referee") => {
            let stdin = std::io::stdin();
            hotseat::referee::serve(stdin.lock(), std::io::stdout().lock())
                .map_err(|e| e.to_string())
        }
        Some("host") => hotseat::net::headless::host_command(&args[1..], stdin_lines(), stdout()),
        Some("join") => hotseat::net::headless::join_command(&args[1..], stdin_lines(), stdout()),
        Some("selfplay") => hotseat::ai::selfplay::command(&args[1..]),
        #[cfg(feature = "ui")]
        Some("bench") => hotseat::ui::bench::command(&args[1..]),
        #[cfg(feature = "ui")]
        Some("screenshot") => hotseat::ui::screenshot::command(&args[1..]),
        #[cfg(feature = "ui")]
        None => hotseat::run_app().map_err(|e| e.to_string()),
        #[cfg(feature = "ui")]
        Some("--kiosk") => hotseat::ui::run_app_with(true).map_err(|e| e.to_string()),
        #[cfg(feature = "ui")]
        Some("kiosk-soak") => hotseat::ui::kiosk_soak::command(&args[1..]),
        Some("kiosk-reset-pin") => match hotseat::store::data_dir() {
            Some(dir) => hotseat::store::kiosk::reset_pin(&dir).map(|m| println!("{m}")),
            None => Err("no data folder on this system (set HOTSEAT_DATA_DIR)".into()),
        },
        Some("--help" | "-h" | "help") => {
            println!("{}", usage());
            Ok(())
        }
        _ => Err(format!("unknown command\n{}", usage())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hotseat: {e}");
            ExitCode::FAILURE
        }
    }
}
