//! The privacy gate: whose private state the screen may show.

/// Whose private state the screen may show right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// The cover is up, naming the seat that should take the device.
    Covered(usize),
    /// That seat revealed the screen: its private state may be shown.
    Open(usize),
    /// Face to face: every seat sees its own area of one shared screen.
    Shared,
    /// Nobody here is to act (a bot or remote player thinks, or the game is over):
    /// only public state may be shown.
    Closed,
}

impl Gate {
    /// True if `seat`'s private state may be on screen.
    pub fn shows(self, seat: usize) -> bool {
        match self {
            Gate::Open(s) => s == seat,
            Gate::Shared => true,
            Gate::Covered(_) | Gate::Closed => false,
        }
    }

    /// The seat named on the cover, while it is up.
    pub fn covered_for(self) -> Option<usize> {
        match self {
            Gate::Covered(s) => Some(s),
            _ => None,
        }
    }
}
