//! The message-channel seam: the host's match ([`super::host_match::HostMatch`]) and the
//! joined device's state machine ([`super::joiner::JoinerCore`]) speak protocol messages
//! through a [`MessageChannel`] and never touch a socket. Today's framing (one JSON
//! message per line, at most [`MAX_LINE`] bytes) is [`TcpChannel`] on the desktop and
//! Android; [`mem::pair`] is two ends in one process (tests, with a fake clock); a
//! WebRTC data channel in the browser is the next transport (docs/network.md, "Planned").

use super::protocol::{decode_msg, encode, LineReader, ProtocolError, Read1, MAX_LINE};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io;
use std::marker::PhantomData;
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

/// What one look at a channel found.
#[derive(Debug, Clone, PartialEq)]
pub enum Received<M> {
    /// A whole message.
    Msg(M),
    /// A whole message that could not be used (malformed, not UTF-8); the channel stays.
    Bad(ProtocolError),
    /// Nothing yet.
    Nothing,
    /// The channel is closed, with why (the other end closed it, mid-message or not, a
    /// message too long to resynchronise, an error); every later look says so again.
    Closed(ProtocolError),
}

impl<M: DeserializeOwned> Received<M> {
    /// One look at a queue of whole text messages, as a WebRTC data channel delivers them
    /// (in the browser, `rtc.rs`, and in the app, `rtc_native.rs`): the next one decoded,
    /// or, with none waiting, whether the channel has closed.
    pub fn from_queue(
        next: Option<Result<String, ProtocolError>>,
        closed: Option<&ProtocolError>,
    ) -> Received<M> {
        match next {
            Some(Ok(text)) => match decode_msg(text.as_bytes()) {
                Ok(msg) => Received::Msg(msg),
                Err(e) => Received::Bad(e),
            },
            Some(Err(e)) => Received::Bad(e),
            None => match closed {
                Some(why) => Received::Closed(why.clone()),
                None => Received::Nothing,
            },
        }
    }
}

/// One end of a connection that carries protocol messages: it sends `Out` and receives
/// `In` (the host sends `HostMsg` and receives `ClientMsg`; the joiner the reverse).
pub trait MessageChannel<Out, In> {
    /// Sends one message; an error means the connection is lost.
    fn send(&mut self, msg: &Out) -> io::Result<()>;
    /// What has arrived (a transport may wait a little, up to its read timeout).
    fn recv(&mut self) -> Received<In>;
    /// Closes the connection; the other end sees it closed.
    fn close(&mut self);
}

/// The TCP transport: one message per line with today's framing and limits.
pub struct TcpChannel<Out, In> {
    stream: TcpStream,
    reader: LineReader<TcpStream>,
    closed: Option<ProtocolError>,
    kinds: PhantomData<fn(Out) -> In>,
}

/// How long a read waits before saying `Nothing` (a partial line is kept).
pub const READ_TIMEOUT: Duration = Duration::from_millis(50);
/// How long one message may take to write before the connection counts as lost.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

impl<Out, In> TcpChannel<Out, In> {
    /// A channel over a connected stream: blocking with a short read timeout, no delay.
    pub fn new(stream: TcpStream) -> io::Result<Self> {
        let reader = LineReader::new(stream.try_clone()?);
        Self::from_parts(stream, reader)
    }

    /// A channel over a stream some of which a reader has already read (the host's
    /// greeter reads the hello itself; what came behind it stays in the reader).
    pub fn from_parts(stream: TcpStream, reader: LineReader<TcpStream>) -> io::Result<Self> {
        stream.set_nonblocking(false)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(READ_TIMEOUT))?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        Ok(TcpChannel {
            stream,
            reader,
            closed: None,
            kinds: PhantomData,
        })
    }

    /// How long the next reads wait before saying `Nothing`.
    pub fn set_wait(&self, wait: Duration) -> io::Result<()> {
        self.stream.set_read_timeout(Some(wait))
    }

    /// A second handle on the same connection, for writing from another thread while
    /// this one reads (its own reader is never used).
    pub fn try_clone(&self) -> io::Result<Self> {
        let stream = self.stream.try_clone()?;
        let reader = LineReader::new(stream.try_clone()?);
        Ok(TcpChannel {
            stream,
            reader,
            closed: None,
            kinds: PhantomData,
        })
    }
}

impl<Out: Serialize, In: DeserializeOwned> MessageChannel<Out, In> for TcpChannel<Out, In> {
    fn send(&mut self, msg: &Out) -> io::Result<()> {
        super::protocol::send(&mut self.stream, msg)
    }

    fn recv(&mut self) -> Received<In> {
        if let Some(e) = &self.closed {
            return Received::Closed(e.clone());
        }
        match self.reader.read_line() {
            Ok(Read1::Line(line)) => match decode_msg(&line) {
                Ok(msg) => Received::Msg(msg),
                Err(e) => Received::Bad(e),
            },
            Ok(Read1::Idle) => Received::Nothing,
            Err(e) => {
                let _ = self.stream.shutdown(Shutdown::Both);
                self.closed = Some(e.clone());
                Received::Closed(e)
            }
        }
    }

    fn close(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

/// Two ends of a channel in one process, for driving a host and a joiner against each
/// other with no socket and no thread. Messages go through the real encoding and its size
/// limit; a link can be cut (both ends see it closed) or stalled (messages vanish and
/// nobody is told, as on a Wi-Fi that went quiet).
pub mod mem {
    use super::*;
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::rc::Rc;

    #[derive(Default)]
    struct Link {
        /// Lines on their way: `[0]` to end A, `[1]` to end B.
        queues: [VecDeque<Vec<u8>>; 2],
        closed: bool,
        stalled: bool,
        /// Messages wait on the way (delivered once it is released), as a data channel
        /// holds and retransmits through a short loss of the link.
        held: bool,
    }

    /// A handle on a link's faults that stays with a test after both ends were handed
    /// to the drivers.
    pub struct Faults(Rc<RefCell<Link>>);

    impl Faults {
        /// Holds (or releases) every message on the way, in both directions.
        pub fn hold(&self, held: bool) {
            self.0.borrow_mut().held = held;
        }

        /// Cuts the link: both ends see it closed.
        pub fn cut(&self) {
            self.0.borrow_mut().closed = true;
        }
    }

    /// One end of an in-memory link.
    pub struct MemChannel<Out, In> {
        link: Rc<RefCell<Link>>,
        /// Which queue this end reads (0 for A, 1 for B).
        side: usize,
        kinds: PhantomData<fn(Out) -> In>,
    }

    /// A connected pair: what A sends, B receives, and the reverse.
    pub fn pair<A, B>() -> (MemChannel<A, B>, MemChannel<B, A>) {
        let link = Rc::new(RefCell::new(Link::default()));
        (
            MemChannel {
                link: link.clone(),
                side: 0,
                kinds: PhantomData,
            },
            MemChannel {
                link,
                side: 1,
                kinds: PhantomData,
            },
        )
    }

    impl<Out, In> MemChannel<Out, In> {
        /// A handle on this link's faults.
        pub fn faults(&self) -> Faults {
            Faults(self.link.clone())
        }

        /// Cuts the link: both ends see it closed.
        pub fn cut(&self) {
            self.link.borrow_mut().closed = true;
        }

        /// Stalls (or frees) the link: while stalled, messages in both directions are
        /// lost without anyone being told.
        pub fn stall(&self, stalled: bool) {
            self.link.borrow_mut().stalled = stalled;
        }

        /// Puts raw bytes on the way to the other end, as a hostile or broken peer might
        /// (one line: a newline is added).
        pub fn send_raw(&self, bytes: &[u8]) {
            let mut link = self.link.borrow_mut();
            if !link.closed && !link.stalled {
                let mut line = bytes.to_vec();
                line.push(b'\n');
                link.queues[1 - self.side].push_back(line);
            }
        }

        /// Whether the link is closed.
        pub fn is_closed(&self) -> bool {
            self.link.borrow().closed
        }
    }

    impl<Out: Serialize, In: DeserializeOwned> MessageChannel<Out, In> for MemChannel<Out, In> {
        fn send(&mut self, msg: &Out) -> io::Result<()> {
            let mut link = self.link.borrow_mut();
            if link.closed {
                return Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the in-memory link is closed",
                ));
            }
            if !link.stalled {
                link.queues[1 - self.side].push_back(encode(msg));
            }
            Ok(())
        }

        fn recv(&mut self) -> Received<In> {
            let mut link = self.link.borrow_mut();
            if link.closed {
                return Received::Closed(ProtocolError::Closed);
            }
            if link.held {
                return Received::Nothing;
            }
            let Some(mut line) = link.queues[self.side].pop_front() else {
                return Received::Nothing;
            };
            line.pop();
            if line.len() > MAX_LINE {
                // As on TCP: a line too long cannot be resynchronised; the link ends.
                link.closed = true;
                return Received::Closed(ProtocolError::TooLong);
            }
            match decode_msg(&line) {
                Ok(msg) => Received::Msg(msg),
                Err(e) => Received::Bad(e),
            }
        }

        fn close(&mut self) {
            self.link.borrow_mut().closed = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::mem::pair;
    use super::*;
    use crate::net::protocol::{ClientMsg, HostMsg};
    use std::net::TcpListener;

    /// Both transports carry a message each way and report a closed end.
    #[test]
    fn tcp_and_memory_channels_carry_messages_and_report_the_close() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        let mut joiner: TcpChannel<ClientMsg, HostMsg> = TcpChannel::new(client).unwrap();
        let mut host: TcpChannel<HostMsg, ClientMsg> = TcpChannel::new(server).unwrap();
        let (mut a, mut b) = pair::<ClientMsg, HostMsg>();
        type JoinerEnd<'a> = &'a mut dyn MessageChannel<ClientMsg, HostMsg>;
        type HostEnd<'a> = &'a mut dyn MessageChannel<HostMsg, ClientMsg>;
        let chans: [(JoinerEnd, HostEnd); 2] = [(&mut joiner, &mut host), (&mut a, &mut b)];
        for (j, h) in chans {
            assert_eq!(h.recv(), Received::Nothing);
            j.send(&ClientMsg::Ping).unwrap();
            let mut got = h.recv();
            for _ in 0..20 {
                if got != Received::Nothing {
                    break;
                }
                got = h.recv();
            }
            assert_eq!(got, Received::Msg(ClientMsg::Ping));
            h.send(&HostMsg::RematchOffered).unwrap();
            let mut got = j.recv();
            for _ in 0..20 {
                if got != Received::Nothing {
                    break;
                }
                got = j.recv();
            }
            assert_eq!(got, Received::Msg(HostMsg::RematchOffered));
            j.close();
            let mut got = h.recv();
            for _ in 0..20 {
                if got != Received::Nothing {
                    break;
                }
                got = h.recv();
            }
            assert_eq!(got, Received::Closed(ProtocolError::Closed));
        }
    }

    /// A line that is not a message is `Bad` and the link stays; one over the limit
    /// closes it, as on TCP.
    #[test]
    fn the_memory_channel_keeps_the_protocols_limits() {
        let (a, mut b) = pair::<ClientMsg, HostMsg>();
        a.send_raw(b"{not json");
        assert!(matches!(
            b.recv(),
            Received::Bad(ProtocolError::Malformed(_))
        ));
        a.send_raw(&vec![b' '; MAX_LINE + 1]);
        assert_eq!(b.recv(), Received::Closed(ProtocolError::TooLong));
        assert!(a.is_closed());
    }
}
