//! Reasons from the network (`net::NetReason`: a host's refusal or rejection, an ended
//! pairing, a notice, a failed join or host) in the player's language.
//!
//! A rules refusal the host sent typed (`NetReason::rule`) is worded by `ui::refusals`,
//! exactly as on a one-device table. Every other reason is named here by an id of
//! ui/texts/lan.slint (`net-…`), with what varies as arguments; a reason inside a reason
//! ("refused a device: wrong join code") is worded first, in the same language.
//! `NetReason::Other` (the command line's words, a reason from a version this one cannot
//! read) stays English by design. tests/translations.rs checks every variant.

use super::texts::{self, Text};
use super::{refusals, AppWindow};
use crate::net::pairing::PairingError;
use crate::net::protocol::ProtocolError;
use crate::net::NetReason;

/// `reason` in `language` (English as is; English too when no window is up).
pub fn say(reason: &NetReason, language: &str) -> String {
    if let Some(rule) = reason.rule() {
        return refusals::say(&rule, language);
    }
    let word = |inner: &NetReason| say(inner, language);
    texts::say(
        &Said {
            reason,
            word: &word,
        },
        language,
    )
}

/// `reason` in the language `app` has selected (tests/translations.rs).
pub fn in_window(app: &AppWindow, reason: &NetReason) -> String {
    if let Some(rule) = reason.rule() {
        return refusals::in_window(app, &rule);
    }
    let word = |inner: &NetReason| in_window(app, inner);
    texts::in_window(
        app,
        &Said {
            reason,
            word: &word,
        },
    )
}

/// What varies in `reason`, as `say` passes it (reasons inside it in English): the
/// Russian must keep each (tests/translations.rs).
pub fn arguments(reason: &NetReason) -> Vec<String> {
    if reason.rule().is_some() {
        return reason
            .rule()
            .map_or_else(Vec::new, |r| refusals::arguments(&r));
    }
    let word = |inner: &NetReason| inner.to_string();
    Said {
        reason,
        word: &word,
    }
    .args()
}

/// A reason as a text of the "lan" area; `word` words the reasons inside it.
struct Said<'a> {
    reason: &'a NetReason,
    word: &'a dyn Fn(&NetReason) -> String,
}

impl std::fmt::Display for Said<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.reason.fmt(f)
    }
}

impl Text for Said<'_> {
    fn area(&self) -> &'static str {
        "lan"
    }

    fn id(&self) -> &'static str {
        parts(self.reason, self.word).0
    }

    fn args(&self) -> Vec<String> {
        parts(self.reason, self.word).1
    }
}

/// The reason's id in ui/texts/lan.slint and what varies, in the order of the English.
/// No wildcard: a new reason does not compile until it has an id here.
fn parts(reason: &NetReason, word: &dyn Fn(&NetReason) -> String) -> (&'static str, Vec<String>) {
    use NetReason as R;
    let secs = |ms: u64| (ms as f64 / 1000.0).to_string();
    let none = |id| (id, Vec::new());
    let one = |id, a: String| (id, vec![a]);
    let two = |id, a: String, b: String| (id, vec![a, b]);
    match reason {
        // Worded by `ui::refusals` (see `say`); the English stands if one slips through.
        R::Omiga { .. } | R::RuleGameOver | R::NotYourTurn { .. } | R::NoSeat { .. } => none(""),
        R::Version { host, device } => two("net-version", host.to_string(), device.to_string()),
        R::WrongCode => none("net-wrong-code"),
        R::HostForgot => none("net-host-forgot"),
        R::AlreadyJoined => none("net-already-joined"),
        R::AwaitingOwnPlayer => none("net-awaiting-own-player"),
        R::PairingOver => none("net-pairing-over"),
        R::NoHello { ms } => one("net-no-hello", secs(*ms)),
        R::Crowded => none("net-crowded"),
        R::HelloFirst => none("net-hello-first"),
        R::HelloTwice => none("net-hello-twice"),
        R::AlreadyReceived => none("net-already-received"),
        R::Flood { per_second } => one("net-flood", per_second.to_string()),
        R::WaitForJoin => none("net-wait-for-join"),
        R::Paused => none("net-paused"),
        R::Countdown => none("net-countdown"),
        R::RematchNotNow => none("net-rematch-not-now"),
        R::AwaitAnswer => none("net-await-answer"),
        R::WaitForReconnect => none("net-wait-for-reconnect"),
        R::RematchNeedsBoth => none("net-rematch-needs-both"),
        R::HostLeft => none("net-host-left"),
        R::OtherLeft => none("net-other-left"),
        R::DeviceGone { secs } => one("net-device-gone", secs.to_string()),
        R::DeviceGoneKept { secs } => one("net-device-gone-kept", secs.to_string()),
        R::HostGone { secs } => one("net-host-gone", secs.to_string()),
        R::NotTakenBack { why } => one("net-not-taken-back", word(why)),
        R::DeviceSilent { ms } => one("net-device-silent", secs(*ms)),
        R::HostSilent { ms } => one("net-host-silent", secs(*ms)),
        R::DeviceClosed => none("net-device-closed"),
        R::HostClosed => none("net-host-closed"),
        R::HostMute => none("net-host-mute"),
        R::NoReply => none("net-no-reply"),
        R::NotAHost => none("net-not-a-host"),
        R::WelcomedTwice => none("net-welcomed-twice"),
        R::WentAway => none("net-went-away"),
        R::CannotReachDevice { detail } => one("net-cannot-reach-device", detail.clone()),
        R::CannotReachHost { addr, detail } => {
            two("net-cannot-reach-host", addr.clone(), detail.clone())
        }
        R::SendDropped { why } => one("net-send-dropped", word(why)),
        R::Broke => none("net-broke"),
        R::FromHost { problem } => one("net-from-host", word(problem)),
        R::Unreadable { problem } => one("net-unreadable", word(problem)),
        R::Stopped => none("net-stopped"),
        R::RefusedDevice { why } => one("net-refused-device", word(why)),
        R::RefusedFlood { why } => one("net-refused-flood", word(why)),
        R::RefusedMessage { why } => one("net-refused-message", word(why)),
        R::StaleHello => none("net-stale-hello"),
        R::LostAgain { detail } => one("net-lost-again", detail.clone()),
        R::NoRematchDeal { detail } => one("net-no-rematch-deal", detail.clone()),
        R::ConnectionLost { why } => one("net-connection-lost", word(why)),
        R::NotSaved { detail } => one("net-not-saved", detail.clone()),
        R::CannotListen { addr, detail } => two("net-cannot-listen", addr.clone(), detail.clone()),
        R::BadCode { got } => one("net-bad-code", got.clone()),
        R::BadSave { detail } => one("net-bad-save", detail.clone()),
        R::CannotAnnounce { detail } => one("net-cannot-announce", detail.clone()),
        R::CannotBrowse { addr, detail } => two("net-cannot-browse", addr.clone(), detail.clone()),
        R::Protocol { problem } => match problem {
            ProtocolError::TooLong => {
                one("net-too-long", crate::net::protocol::MAX_LINE.to_string())
            }
            ProtocolError::NotText => none("net-not-text"),
            ProtocolError::Malformed(detail) => one("net-malformed", detail.clone()),
            ProtocolError::Closed => none("net-closed"),
            ProtocolError::ClosedMidLine => none("net-closed-mid-line"),
            ProtocolError::Silent(secs) => one("net-silent", secs.to_string()),
            ProtocolError::Io(detail) => one("net-io", detail.clone()),
        },
        R::Pairing { problem } => match problem {
            PairingError::Empty => none("net-pair-empty"),
            PairingError::NotHotseat => none("net-pair-not-hotseat"),
            PairingError::Newer { version } => one("net-pair-newer", version.to_string()),
            PairingError::Damaged => none("net-pair-damaged"),
            PairingError::TooLong { max } => one("net-pair-too-long", max.to_string()),
            PairingError::AnswerNotOffer => none("net-pair-answer-not-offer"),
            PairingError::OfferNotAnswer => none("net-pair-offer-not-answer"),
            PairingError::NoAddress => none("net-pair-no-address"),
            PairingError::Unsupported { what } => one("net-pair-unsupported", what.clone()),
            PairingError::BadCode { got } => one("net-bad-code", got.clone()),
            PairingError::TooBigForQr { chars } => one("net-pair-too-big", chars.to_string()),
        },
        // English by design: an empty id is not in the .slint file, so `say` keeps it.
        R::Other { .. } => none(""),
    }
}
