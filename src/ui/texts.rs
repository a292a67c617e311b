//! Texts the Rust bridges make at run time (a message, a hint, a spoken label, a button's
//! words), in the player's language through Slint's translations.
//!
//! Each area has an enum whose variants carry what varies (a name, a cell, a count) and
//! whose `Display` is the English. `ui/texts/<area>.slint` words each variant with `@tr`
//! (that same English with `{}` for the data), so the Russian sits in the .po file with
//! every other text of the app and Rust holds none. tests/translations.rs checks every
//! variant (`examples`) in both languages, and that no Rust source outside tests holds
//! Russian.
//!
//! Adding a text: a variant here (`Name { field: Type } = "id", "English {}";`), the same
//! id and English in ui/texts/<area>.slint, and its Russian in the .po file. An English
//! with `|` has a singular and a plural (`"{n} card|{n} cards"`): the first field is the
//! count, and the .slint text is `@tr("…" | "…" % a.to-float())`.

use super::{AppWindow, Words};
use crate::store::puzzle_share::fill;
use slint::ComponentHandle;

/// A text of one area, named by id, with what varies.
pub trait Text: std::fmt::Display {
    /// The area (the `Words.text` branch in ui/words.slint, the file in ui/texts/).
    fn area(&self) -> &'static str;
    /// The text's id in ui/texts/<area>.slint.
    fn id(&self) -> &'static str;
    /// What varies, in the order of the English text.
    fn args(&self) -> Vec<String>;
}

/// `text` in `language`: the English as is, any other language from the window's
/// translations (English again when no window is up on this thread, as in unit tests).
pub fn say(text: &dyn Text, language: &str) -> String {
    if language == "en" {
        return text.to_string();
    }
    match super::refusals::window() {
        Some(app) => in_window(&app, text),
        None => text.to_string(),
    }
}

/// `text` in the language `app` has selected (`slint::select_bundled_translation`).
pub fn in_window(app: &AppWindow, text: &dyn Text) -> String {
    let args = text.args();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default().into();
    let said = app.global::<Words>().invoke_text(
        text.area().into(),
        text.id().into(),
        arg(0),
        arg(1),
        arg(2),
        arg(3),
    );
    // An id the .slint file does not know: English beats an empty line.
    if said.is_empty() {
        text.to_string()
    } else {
        said.into()
    }
}

/// Two announcements said as one, sentence after sentence: a full stop between them only
/// where the first has no stop of its own ("… — wrong. Player 1 wins!", never "wrong..").
pub fn sentences(first: &str, next: &str) -> String {
    let stop = if first.ends_with(['.', '!', '?', '…', ':', ';']) {
        ""
    } else {
        "."
    };
    format!("{first}{stop} {next}")
}

/// One of every variant of every area, for tests/translations.rs.
pub fn examples() -> Vec<Box<dyn Text>> {
    fn boxed<T: Text + 'static>(v: Vec<T>) -> Vec<Box<dyn Text>> {
        v.into_iter()
            .map(|t| Box::new(t) as Box<dyn Text>)
            .collect()
    }
    let mut all = Vec::new();
    all.extend(boxed(IotaText::examples()));
    all.extend(boxed(OvoText::examples()));
    all.extend(boxed(OmigaText::examples()));
    all.extend(boxed(LanText::examples()));
    all.extend(boxed(KioskText::examples()));
    all.extend(boxed(ShellText::examples()));
    all.extend(boxed(LessonText::examples()));
    all.extend(boxed(PuzzleText::examples()));
    all
}

/// The English of `template` with `args` in place of its `{}`; a template with `|` is a
/// singular and a plural, chosen by the first argument (the count, also put for `{n}`).
fn english(template: &str, args: &[String]) -> String {
    let (template, args) = match template.split_once('|') {
        Some((one, many)) => {
            let n = args.first().map_or("", String::as_str);
            let chosen = if n == "1" { one } else { many };
            (chosen.replace("{n}", n), args.get(1..).unwrap_or_default())
        }
        None => (template.to_string(), args),
    };
    fill(&template, args)
}

/// A value of a field's type for the examples: what tests look for in the Russian.
trait Example {
    fn example() -> Self;
}

impl Example for String {
    fn example() -> Self {
        "Anna".into()
    }
}

/// Every count in the texts is 5 in the examples (a plural's "many" form).
macro_rules! example_count {
    ($($t:ty),*) => {
        $(impl Example for $t {
            fn example() -> Self {
                5
            }
        })*
    };
}
example_count!(usize, u32, i32, u8, i64, u64);

/// An area's enum: each variant with its fields, its id in ui/texts/<area>.slint and its
/// English (the variant's doc too).
macro_rules! texts {
    (
        $(#[$meta:meta])*
        pub enum $name:ident in $area:literal {
            $($variant:ident $({ $($field:ident: $ty:ty),* })? = $id:literal, $en:literal;)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum $name {
            $(
                #[doc = $en]
                $variant $({ $($field: $ty),* })?,
            )*
        }

        impl $name {
            /// The English with `{}` for the data (a `|` parts singular and plural).
            fn template(&self) -> &'static str {
                match self {
                    $(Self::$variant { .. } => $en,)*
                }
            }

            /// One of each variant.
            pub fn examples() -> Vec<Self> {
                vec![$(Self::$variant $({ $($field: Example::example()),* })?,)*]
            }
        }

        impl Text for $name {
            fn area(&self) -> &'static str {
                $area
            }

            fn id(&self) -> &'static str {
                match self {
                    $(Self::$variant { .. } => $id,)*
                }
            }

            fn args(&self) -> Vec<String> {
                match self {
                    $(Self::$variant $({ $($field),* })? => vec![$($($field.to_string()),*)?],)*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&english(self.template(), &self.args()))
            }
        }
    };
}

texts! {
    /// IOTA's messages, spoken labels and buttons (src/ui/iota.rs).
    pub enum IotaText in "iota" {
        RevealFirst = "reveal-first", "Reveal the screen first";
        NothingFits = "nothing-fits", "No card of yours fits anywhere: pass, or return cards and pass";
        CellGone = "cell-gone", "That cell is no longer on the board";
        ChoosingReturns = "choosing-returns", "You are choosing cards to return: tap cards in your hand, or Cancel";
        PickThenTapEmpty = "pick-then-tap-empty", "Pick a card from your hand, then tap an empty cell";
        PickFirst = "pick-first", "Pick a card from your hand first";
        NotEmpty { cell: String } = "not-empty", "{} is not empty";
        UnstageBeforeSwap = "unstage-before-swap", "Take back the staged cards before swapping a wild";
        NotInHand = "not-in-hand", "That card is not in your hand";
        StageFirst = "stage-first", "Stage a card first: pick it, then tap an empty cell";
        UnstageBeforePass = "unstage-before-pass", "Take back the staged cards before passing";
        Swapped { cell: String, card: String } = "swapped", "Swapped the wild on {} for {}";
        Placed { name: String, count: usize, total: u32 } = "placed", "{} placed {} and scored {}";
        Passed { name: String } = "passed", "{} passed";
        PassedChangedOne { name: String } = "passed-changed-one", "{} passed and changed a card";
        PassedChanged { name: String, count: usize } = "passed-changed", "{} passed and changed {} cards";
        TookWild { name: String, cell: String } = "took-wild", "{} took the wild at {}";
        Scores { total: u32 } = "scores", "Scores {}";
        ScoresLot { total: u32 } = "scores-lot", "Scores {} (a lot!)";
        Wild = "wild", "wild";
        Red = "red", "red";
        Green = "green", "green";
        Blue = "blue", "blue";
        Yellow = "yellow", "yellow";
        Circle = "circle", "circle";
        Square = "square", "square";
        Triangle = "triangle", "triangle";
        Cross = "cross", "cross";
        One = "one", "one";
        Two = "two", "two";
        Three = "three", "three";
        Four = "four", "four";
        LetterRed = "letter-red", "R";
        LetterGreen = "letter-green", "G";
        LetterBlue = "letter-blue", "B";
        LetterYellow = "letter-yellow", "Y";
        Minus { n: u32 } = "minus", "minus {}";
        CellWords { col: String, row: String } = "cell-words", "column {}, row {}";
        CoverHint = "cover-hint", "Only you should see your cards.";
        Staged { card: String } = "staged", "staged {}, tap to take back";
        MayReplace { card: String } = "may-replace", "{}, the selected card may replace it";
        EmptyLegal = "empty-legal", "empty, the selected card may go here";
        Empty = "empty", "empty";
        YourCard { n: usize, card: String } = "your-card", "Your card {}: {}";
        ToReturn { label: String } = "to-return", "{}, to return";
        ToKeep { label: String } = "to-keep", "{}, to keep";
        OnTheBoard { label: String } = "on-the-board", "{}, on the board";
        Selected { label: String } = "selected", "{}, selected";
        Picked { card: String } = "picked", "Picked: {}";
        Points { n: i64 } = "points", "{n} point|{n} points";
        Cards { n: usize } = "cards", "{} cards";
        PassWord = "pass-word", "pass";
        PassReturned { n: usize } = "pass-returned", "pass ↺{}";
        LastTurn { label: String, last: String } = "last-turn", "{}, last turn {}";
        OnTurn { label: String } = "on-turn", "{}, on turn";
        DrawPile { n: usize } = "draw-pile", "Draw pile: {} cards";
        Pass = "pass", "Pass";
        PassReturnOne = "pass-return-one", "Pass, return 1 card";
        PassReturn { n: usize } = "pass-return", "Pass, return {} cards";
        TradeHint = "trade-hint", "Tap the cards to return to the pile, then Pass";
        BestTurn { name: String, points: String } = "best-turn", "Best turn: {}, {}";
    }
}

texts! {
    /// Ovo's messages, hints and spoken labels (src/ui/ovo.rs).
    pub enum OvoText in "ovo" {
        Circle = "circle", "circle";
        Triangle = "triangle", "triangle";
        Diamond = "diamond", "diamond";
        Star = "star", "star";
        LandedOn { cell: String } = "landed-on", "Landed on {}. Jump on, or tap “Stop here”.";
        ChainCancelled = "chain-cancelled", "Jump chain cancelled.";
        EmptyCell { cell: String } = "empty-cell", "{} is empty: tap one of your eggs or a hidden egg.";
        NotYourEgg { owner: String } = "not-your-egg", "That egg is {}'s: move your own eggs or a hidden one.";
        MovedLast = "moved-last", "That egg moved last turn; move another egg.";
        NowhereToGo { cell: String } = "nowhere-to-go", "The egg on {} has nowhere to go.";
        PickFirst = "pick-first", "Pick an egg and a lit landing first.";
        OnlyHidden = "only-hidden", "Only a hidden egg can be peeked at.";
        MayNotPass = "may-not-pass", "You can still move or peek, so you may not pass.";
        Moved { name: String, from: String, to: String } = "moved", "{} moved {} to {}";
        Jumped { name: String, from: String, path: String } = "jumped", "{} jumped from {} to {}";
        Then { before: String, after: String } = "then", "{}, then {}";
        Played { name: String, action: String } = "played", "{} played {}";
        Flipped { what: String } = "flipped", "{}; the egg was flipped";
        Peeked { name: String, cell: String } = "peeked", "{} peeked at {}";
        Passed { name: String } = "passed", "{} passed";
        DeclaredRight { name: String } = "declared-right", "{} declared «Ovo!» — correct!";
        DeclaredOut { name: String } = "declared-out", "{} declared «Ovo!» — wrong: their eggs leave the board.";
        DeclaredWrong { name: String } = "declared-wrong", "{} declared «Ovo!» — wrong.";
        Empty = "empty", "empty";
        HiddenEgg = "hidden-egg", "hidden egg";
        Egg { name: String, symbol: String } = "egg", "{} {} egg";
        EggWasHidden { name: String, symbol: String } = "egg-was-hidden", "{} {} egg, was hidden";
        ChainHere { label: String } = "chain-here", "{}, the chain stands here";
        Landing { label: String } = "landing", "{}, legal landing";
        JumpLanding { label: String } = "jump-landing", "{}, legal jump landing";
        ChainEnd { label: String } = "chain-end", "{}, end of a jump chain, one tap plays it all";
        PickedUp { label: String } = "picked-up", "{}, picked up";
        MovedLastTurn { label: String } = "moved-last-turn", "{}, moved last turn";
        Camp { label: String, owner: String } = "camp", "{}, {}'s camp";
        GameOver = "game-over", "The game is over: every egg is shown face up.";
        TapYourEgg { symbol: String } = "tap-your-egg", "Tap one of your {} eggs or a hidden egg.";
        TapRing = "tap-ring", "Tap a ring to jump on, or stop here.";
        TapLitOrPeek { cell: String } = "tap-lit-or-peek", "Tap a lit cell to move the egg on {}, or peek at it.";
        TapLit = "tap-lit", "Tap a lit cell: a dot is a step, a ring a jump.";
        MayPeekOnly { cell: String } = "may-peek-only", "The egg on {} cannot move now; you may peek at it.";
        PeekOf { name: String } = "peek-of", "{}'s peek";
        PeekResult { cell: String, symbol: String } = "peek-result", "{} is a {} — remember it";
    }
}

texts! {
    /// Omiga's messages and spoken labels (src/ui/omiga.rs).
    pub enum OmigaText in "omiga" {
        AppPlaysSide = "app-plays-side", "The app plays that side";
        CardGone = "card-gone", "That card is gone";
        PickFirst = "pick-first", "Pick a card from your hand first";
        GameOver = "game-over", "The game is over";
        WaitCountdown = "wait-countdown", "Wait for the countdown";
        NewHand = "new-hand", "New hand drawn";
        Wins { name: String } = "wins", "{} wins!";
        Draw = "draw", "A draw";
        PlacedAt { name: String, x: String, y: String, card: String } = "placed-at", "{} placed at x {}, y {}: {}";
        Placed { name: String, card: String, x: String, y: String } = "placed", "{} placed {} (x {}, y {})";
        DrewNewHand { name: String } = "drew-new-hand", "{} drew a new hand";
        CardOf { side: String } = "card-of", "{} card";
        FaceDown = "face-down", "face down";
        InDeck { n: usize } = "in-deck", "{} in deck";
        Hand { name: String } = "hand", "{}'s hand";
        Selected { label: String } = "selected", "{}, selected";
        Turned { label: String } = "turned", "{}, turned";
        FitsNowhere { label: String } = "fits-nowhere", "{}, fits nowhere";
        WhiteCard = "white-card", "white card";
        BlackCard = "black-card", "black card";
        Empty = "empty", "empty";
        WaitingForHost { label: String } = "waiting-for-host", "{}, waiting for the host";
        WhiteMay { label: String } = "white-may", "{}, White may place here";
        BlackMay { label: String } = "black-may", "{}, Black may place here";
        White = "white", "White";
        Black = "black", "Black";
        Diagonal = "diagonal", "diagonal";
        Point = "point", "point";
        Notch = "notch", "notch";
        Green = "green", "green";
        Pink = "pink", "pink";
        CardParts { top: String, bottom: String, left: String, right: String } = "card-parts", "{} top, {} bottom, {} left, {} right";
    }
}

texts! {
    /// Omiga on two devices: hosting, joining, playing (src/ui/lan/).
    pub enum LanText in "lan" {
        Port { port: u32 } = "port", "port {}";
        ContinuingSaved = "continuing-saved", "Continuing the saved game: waiting for the other phone to come back…";
        WaitingToJoin = "waiting-to-join", "Waiting for the other phone to join…";
        CannotHost { why: String } = "cannot-host", "This device cannot host: {}";
        Joined = "joined", "Joined!";
        CannotLook { why: String } = "cannot-look", "Cannot look for games here ({}); type the host's address.";
        MayHideGames = "may-hide-games", "This network may hide games: if none appears, type the address shown on the host's screen.";
        ComingBack { host: String } = "coming-back", "Coming back to the game with {}…";
        EnterCode = "enter-code", "Enter the 4-digit code shown on the host's screen.";
        Joining = "joining", "Joining…";
        CouldNotJoin { why: String } = "could-not-join", "Could not join: {}";
        JoinHost { name: String, address: String } = "join-host", "Join {}, Omiga, {}";
        TypeAddress = "type-address", "Type the address shown on the host's screen, like 192.168.1.20:40123.";
        GameGone = "game-gone", "That game is gone";
        ConnectionLost = "connection-lost", "Connection lost — waiting";
        ConnectedAgain = "connected-again", "Connected again";
        SettledApplied = "settled-applied", "Connected again: your card was placed before the connection dropped";
        SettledLost = "settled-lost", "Connected again: your move did not reach the other phone; nothing changed, play it again";
        PlayerAsksRematch = "player-asks-rematch", "The other player asks for a rematch";
        Ended { why: String } = "ended", "The game has ended: {}";
        Title = "title", "Omiga · two devices";
        You = "you", "You";
        OtherPhone = "other-phone", "Other phone";
        YouWin = "you-win", "You win!";
        OtherWins = "other-wins", "The other phone wins";
        PlayYouAre { side: String } = "play-you-are", "Play! You are {}";
        FarCards { n: usize } = "far-cards", "{} cards, face down";
        RematchAsked = "rematch-asked", "Rematch asked — waiting for the other phone";
        PhoneAsksRematch = "phone-asks-rematch", "The other phone asks for a rematch";
        WaitForHost = "wait-for-host", "Wait for the host to confirm your card";
        PairAgainHost = "pair-again-host", "Connection lost. To go on, pair again: paste this new text on the other phone (Join under Two phones), then its answer here.";
        PairAgainJoin = "pair-again-join", "Connection lost. To go on, paste the hosting phone's new pairing text here.";
        PairFailed { why: String } = "pair-failed", "Pairing failed: {}. Try again with a new text.";
        AnswerReady = "answer-ready", "Your answer is ready: paste it on the hosting phone.";
        NoLink = "no-link", "The phones did not connect. Both must be on the same Wi-Fi; some public Wi-Fi keeps phones apart: use a home Wi-Fi or one phone's hotspot.";
        Connecting = "connecting", "Connecting to the other phone…";
        PairMaking = "pair-making", "Making the pairing text…";
        ComingBackPaste = "coming-back-paste", "Your seat in the game is kept: paste the hosting phone's new pairing text to come back.";
        Copied = "copied", "Copied.";
        CannotCopy = "cannot-copy", "This browser did not copy the text: select it and copy it by hand.";
        NoWebRtc = "no-webrtc", "this browser cannot connect two pages (no WebRTC)";
        CannotDescribe = "cannot-describe", "this browser could not make its pairing text";
        TextRefused = "text-refused", "the browser refused the other phone's text; it may belong to an older attempt";
        AppCannotDescribe = "app-cannot-describe", "this device could not make its pairing text";
        AppTextRefused = "app-text-refused", "the other phone's text does not fit this attempt; it may belong to an older one";
        NoNetwork = "no-network", "this device has no Wi-Fi address to offer: join a Wi-Fi network";
        NoPort { why: String } = "no-port", "this device could not open a network port ({})";
        CameraRefused = "camera-refused", "The camera was not allowed: allow it in the browser's site settings, or paste the other phone's text.";
        NoCamera = "no-camera", "This browser has no camera to use here: paste the other phone's text.";
        CameraFailed { why: String } = "camera-failed", "The camera stopped ({}): try Scan again, or paste the other phone's text.";
    }
}

texts! {
    /// Kiosk mode: the staff PIN, the idle warning, the count (src/ui/kiosk.rs).
    pub enum KioskText in "kiosk" {
        IdleWarning { secs: String } = "idle-warning", "Without an answer, this game ends in {} s and the table is cleared for the next group.";
        StaffPin = "staff-pin", "Staff PIN";
        ChoosePin = "choose-pin", "Choose a staff PIN (4 to 8 digits)";
        ConfirmPin = "confirm-pin", "Enter the same PIN again";
        Locked { secs: String } = "locked", "Too many wrong PINs. Try again in {} s.";
        WrongPin = "wrong-pin", "Wrong PIN.";
        PinLength = "pin-length", "A PIN has 4 to 8 digits.";
        PinsDiffer = "pins-differ", "The two PINs differ. Choose one again.";
        PinNotSaved { why: String } = "pin-not-saved", "The PIN could not be saved: {}";
        GamesFinished { counts: String } = "games-finished", "Games finished: {}";
    }
}

texts! {
    /// Setup, replay, app seats and the screen reader's summaries (src/ui/setup.rs, replay.rs, bots.rs, access.rs).
    pub enum ShellText in "shell" {
        Easy = "easy", "easy";
        Medium = "medium", "medium";
        Hard = "hard", "hard";
        AppSeat { level: String } = "app-seat", "The app ({})";
        NewGame { game: String } = "new-game", "New game: {}";
        Player { n: usize } = "player", "Player {}";
        ReplayPass { n: usize } = "replay-pass", "pass, {n} card back to the pile|pass, {n} cards back to the pile";
        ReplayTitle { game: String } = "replay-title", "{} · replay";
        AsItBegan = "as-it-began", "The game as it began.";
        CannotReplay { why: String } = "cannot-replay", "This game cannot be shown on the board: {}";
        Out { name: String } = "out", "{} (out)";
        Players { names: String } = "players", "Players: {}";
        LastMove { line: String } = "last-move", "Last move: {}";
        Last { message: String } = "last", "Last: {}";
        AppStuck = "app-stuck", "The app could not decide; it thinks again.";
    }
}

texts! {
    /// A lesson's words around the board (src/ui/lessons.rs); the steps' own words are
    /// in ui/texts/lesson-steps.slint.
    pub enum LessonText in "lessons" {
        Title { game: String } = "title", "{} · lesson";
        Step { n: usize, of: usize, words: String, task: String } = "step", "Step {} of {}. {} {}";
        TryAgain { hint: String } = "try-again", "Try again. {}";
        NotTheTask { hint: String } = "not-the-task", "Allowed, but not what this step asks. {}";
        Passed = "passed", "Well done! On to the next step.";
        PassedLast = "passed-last", "Well done: that was the last step. Try a practice game against the easy opponent.";
    }
}

texts! {
    /// The puzzle of the day: its screen, the panel over its board and the text to share
    /// (src/ui/puzzles/; the share words feed `store::puzzle_share::ShareWords`).
    pub enum PuzzleText in "puzzles" {
        Title { game: String } = "title", "{} · puzzle of the day";
        GoalBest { best: u32 } = "goal-best", "Score as many points as you can this turn. The best play scores {}.";
        GoalOvo { eggs: String } = "goal-ovo", "Win this turn: bring your last egg home and declare «Ovo!». Your hidden eggs stand on {}.";
        GoalOmiga = "goal-omiga", "Find the card and the cell that win at once.";
        Level { n: u8, weekday: String } = "level", "Level {} of 7 · {}";
        Monday = "monday", "Monday";
        Tuesday = "tuesday", "Tuesday";
        Wednesday = "wednesday", "Wednesday";
        Thursday = "thursday", "Thursday";
        Friday = "friday", "Friday";
        Saturday = "saturday", "Saturday";
        Sunday = "sunday", "Sunday";
        Scored { score: u32, best: u32 } = "scored", "{} of {} points: a good play, not the best. Try again.";
        DoesNotWin = "does-not-win", "Allowed, but it does not win. Try again.";
        Refused { reason: String } = "refused", "Not allowed: {}";
        Solved = "solved", "Solved!";
        SolvedBest { score: u32 } = "solved-best", "Solved: {} points, the best there is.";
        Answer { answer: String } = "answer", "The answer: {}";
        AnswerShown = "answer-shown", "The answer is on the board.";
        Or = "or", "or";
        OnCell { what: String, cell: String } = "on-cell", "{} on {}";
        Tries { n: u32 } = "tries", "{n} try|{n} tries";
        Streak { n: u32 } = "streak", "Streak: {n} day|Streak: {n} days";
        NotTried = "not-tried", "Not tried yet";
        SharePoints { score: String, best: String, tries: String } = "share-points", "{} of {} points, {}";
        ShareSolved { tries: String } = "share-solved", "solved in {}";
        ShareGaveUp { tries: String } = "share-gave-up", "answer shown after {}";
        ShareOpen { tries: String } = "share-open", "not solved yet, {}";
        ShareStreak { days: String } = "share-streak", "{} days in a row";
        ShareClock { seconds: String } = "share-clock", "against the clock: {} s";
        ClockLeft { n: u32 } = "clock-left", "{n} second left|{n} seconds left";
        ClockTaken { n: u32 } = "clock-taken", "Solved in {n} second on the clock|Solved in {n} seconds on the clock";
        ClockSeconds { seconds: u32 } = "clock-seconds", "{} s";
        TimeUp = "time-up", "Time's up: the minute passed without the winning card. Try again; the clock starts again.";
        AnswerHere { label: String } = "answer-here", "{}, the answer";
        AnswerFrom { label: String } = "answer-from", "{}, where the answer's egg starts";
    }
}

#[cfg(test)]
mod tests {
    use super::sentences;

    #[test]
    fn announcements_said_together_have_one_stop_between_them() {
        assert_eq!(
            sentences("Player 2 declared «Ovo!» — wrong.", "Player 1 wins!"),
            "Player 2 declared «Ovo!» — wrong. Player 1 wins!"
        );
        assert_eq!(
            sentences("Player 1 moved c1 to c2", "The app (easy) placed a card"),
            "Player 1 moved c1 to c2. The app (easy) placed a card"
        );
        assert_eq!(sentences("Play!", "White wins!"), "Play! White wins!");
    }
}
