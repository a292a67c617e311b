//! The wire's one bound and what can go wrong reading a line of it: below both the
//! protocol's messages ([`super::protocol`]), which carry typed reasons, and the reasons
//! ([`super::reason`]), one of which is a [`ProtocolError`]; so neither imports the
//! other back (issue 42).

use serde::{Deserialize, Serialize};

/// The longest message, in bytes, without its newline (a full view is about 3 KB).
pub const MAX_LINE: usize = 16 * 1024;

/// Why a line could not be read or used (also a typed reason on the wire, snake_case).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtocolError {
    /// The line is longer than [`MAX_LINE`].
    #[error("message longer than {MAX_LINE} bytes")]
    TooLong,
    /// The line is not UTF-8.
    #[error("message is not UTF-8 text")]
    NotText,
    /// The line is not one of the protocol's messages.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// The peer closed the connection between messages.
    #[error("the connection was closed")]
    Closed,
    /// The peer closed the connection in the middle of a message.
    #[error("the connection was closed in the middle of a message")]
    ClosedMidLine,
    /// Nothing arrived for too long.
    #[error("no message for {0} s")]
    Silent(u64),
    /// The operating system's error.
    #[error("connection error: {0}")]
    Io(String),
}
