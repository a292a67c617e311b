//! The two DNS messages a one-shot mDNS lookup needs (RFC 6762 over RFC 1035's wire
//! format): the question "what is the IPv4 address of `<uuid>.local`?" and the reading of
//! a reply. Hand-written because it is small: one question out, A records in; a resolver
//! crate would bring a service registry and threads for two functions.
//!
//! What comes in is from anyone on the Wi-Fi, so it is read defensively: every length
//! is checked against the packet, a compressed name may only point backwards (no loops)
//! and at most [`MAX_HOPS`] times, a name is at most 255 bytes, at most [`MAX_RECORDS`]
//! records are read, and a record is taken only for the very name asked, with a TTL
//! (a TTL of 0 is a "goodbye": the name is gone).

use std::net::Ipv4Addr;

/// The mDNS group and port (RFC 6762 §3).
pub(super) const GROUP: Ipv4Addr = Ipv4Addr::new(224, 0, 0, 251);
/// The mDNS port: queries go to it and Chromium's responder answers only to it.
pub(super) const PORT: u16 = 5353;

const TYPE_A: u16 = 1;
const CLASS_IN: u16 = 1;
/// The top bit of a record's class in mDNS is the cache-flush flag, not the class.
const CLASS_MASK: u16 = 0x7FFF;
/// A response (QR bit); opcode and rcode must be 0 (RFC 6762 §18.3, §18.11).
const FLAG_RESPONSE: u16 = 0x8000;
const OPCODE_RCODE: u16 = 0x780F;
const HEADER: usize = 12;
/// The longest name on the wire (RFC 1035 §3.1).
const MAX_NAME: usize = 255;
/// Compression pointers followed for one name at most.
const MAX_HOPS: usize = 16;
/// Questions and records read from one packet at most.
const MAX_RECORDS: usize = 64;

/// The query for `name`'s A record: id 0, one question of class IN (RFC 6762 §18.1).
/// Not the "QU" bit asking for a unicast reply: Chromium's responder takes a question
/// only when its class is exactly IN, and answers to the group whatever was asked.
/// `None` for a name that cannot be asked (an empty or too long label or name).
pub(super) fn query(name: &str) -> Option<Vec<u8>> {
    let mut out = vec![0u8; HEADER];
    out[5] = 1; // one question
    for label in name.trim_end_matches('.').split('.') {
        if label.is_empty() || label.len() > 63 {
            return None;
        }
        out.push(label.len() as u8);
        out.extend_from_slice(label.as_bytes());
    }
    out.push(0);
    if out.len() - HEADER > MAX_NAME {
        return None;
    }
    out.extend_from_slice(&TYPE_A.to_be_bytes());
    out.extend_from_slice(&CLASS_IN.to_be_bytes());
    Some(out)
}

/// Why a packet was not read (any of them: it is ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Malformed;

/// The IPv4 addresses a reply gives for `name` (answer and additional sections alike:
/// a responder may put them in either). Empty for a query, an error reply or a reply
/// about other names; `Err` for a packet that does not read as DNS.
pub(super) fn addresses_for(packet: &[u8], name: &str) -> Result<Vec<Ipv4Addr>, Malformed> {
    let mut r = Reader { packet, at: 0 };
    let _id = r.u16()?;
    let flags = r.u16()?;
    let questions = r.u16()? as usize;
    let records = [r.u16()?, r.u16()?, r.u16()?]
        .iter()
        .map(|&n| n as usize)
        .sum::<usize>();
    if flags & FLAG_RESPONSE == 0 || flags & OPCODE_RCODE != 0 {
        return Ok(Vec::new());
    }
    if questions + records > MAX_RECORDS {
        return Err(Malformed);
    }
    let wanted = name.trim_end_matches('.').as_bytes();
    for _ in 0..questions {
        r.name()?;
        r.take(4)?; // type, class
    }
    let mut found = Vec::new();
    for _ in 0..records {
        let owner = r.name()?;
        let kind = r.u16()?;
        let class = r.u16()? & CLASS_MASK;
        let ttl = u32::from_be_bytes(r.array()?);
        let len = r.u16()? as usize;
        let data = r.take(len)?;
        if kind == TYPE_A && class == CLASS_IN && ttl > 0 && owner.eq_ignore_ascii_case(wanted) {
            let octets: [u8; 4] = data.try_into().map_err(|_| Malformed)?;
            let ip = Ipv4Addr::from(octets);
            if !found.contains(&ip) {
                found.push(ip);
            }
        }
    }
    Ok(found)
}

/// A cursor over the packet; every read is checked against its end.
struct Reader<'a> {
    packet: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Malformed> {
        let end = self.at.checked_add(n).ok_or(Malformed)?;
        let bytes = self.packet.get(self.at..end).ok_or(Malformed)?;
        self.at = end;
        Ok(bytes)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Malformed> {
        self.take(N)?.try_into().map_err(|_| Malformed)
    }

    fn u16(&mut self) -> Result<u16, Malformed> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    /// A name at the cursor, its labels joined by dots (RFC 1035 §4.1.4 compression
    /// followed); the cursor ends after the name as written here.
    fn name(&mut self) -> Result<Vec<u8>, Malformed> {
        let mut name = Vec::new();
        let mut at = self.at;
        // Where the cursor resumes: after the first pointer, or after the final 0.
        let mut resume = None;
        let mut hops = 0;
        loop {
            let len = *self.packet.get(at).ok_or(Malformed)? as usize;
            match len {
                0 => {
                    self.at = resume.unwrap_or(at + 1);
                    return Ok(name);
                }
                1..=63 => {
                    let label = self.packet.get(at + 1..at + 1 + len).ok_or(Malformed)?;
                    if !name.is_empty() {
                        name.push(b'.');
                    }
                    name.extend_from_slice(label);
                    if name.len() > MAX_NAME {
                        return Err(Malformed);
                    }
                    at += 1 + len;
                }
                0xC0..=0xFF => {
                    let low = *self.packet.get(at + 1).ok_or(Malformed)? as usize;
                    let target = ((len & 0x3F) << 8) | low;
                    // Only backwards, and only so often: no loop can hold the reader.
                    hops += 1;
                    if target >= at || hops > MAX_HOPS {
                        return Err(Malformed);
                    }
                    resume.get_or_insert(at + 2);
                    at = target;
                }
                // 0x40 and 0x80: extended label types, unused (RFC 6891 §5).
                _ => return Err(Malformed),
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    const NAME: &str = "df01c2bb-ec48-4b45-9a3a-2b0035e4af35.local";

    /// A reply as Chromium's responder writes one (services/network/mdns_responder.cc):
    /// id 0, authoritative, one A record with the cache-flush bit, TTL 120, and an NSEC
    /// record in the additional section whose name is a pointer to the A record's.
    /// (Also the lookup's tests' reply.)
    pub(in super::super) fn chromium_reply(name: &str, ip: [u8; 4]) -> Vec<u8> {
        let mut p = vec![0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 1];
        let name_at = p.len() as u8;
        for label in name.split('.') {
            p.push(label.len() as u8);
            p.extend_from_slice(label.as_bytes());
        }
        p.push(0);
        p.extend_from_slice(&[0, 1, 0x80, 1, 0, 0, 0, 120, 0, 4]);
        p.extend_from_slice(&ip);
        // NSEC: the name as a pointer, type 47, rdata "next name" (a pointer) + bitmap.
        p.extend_from_slice(&[0xC0, name_at, 0, 47, 0x80, 1, 0, 0, 0, 120, 0, 5]);
        p.extend_from_slice(&[0xC0, name_at, 0, 1, 0x40]);
        p
    }

    #[test]
    fn the_query_asks_one_a_question_of_class_in() {
        let q = query(NAME).expect("a query");
        assert_eq!(&q[..12], &[0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(q[12] as usize, 36);
        assert_eq!(&q[13..49], &NAME.as_bytes()[..36]);
        assert_eq!(&q[49..56], b"\x05local\x00");
        assert_eq!(&q[56..], &[0, 1, 0, 1]);
        assert_eq!(query("a..local"), None);
        assert_eq!(query(&format!("{}.local", "x".repeat(64))), None);
        assert_eq!(query(&format!("{}local", "abcdefgh.".repeat(30))), None);
    }

    #[test]
    fn a_reply_gives_the_address_of_the_name_asked() {
        let reply = chromium_reply(NAME, [10, 78, 0, 2]);
        assert_eq!(
            addresses_for(&reply, NAME),
            Ok(vec![Ipv4Addr::new(10, 78, 0, 2)])
        );
        // Names compare without regard to case (RFC 1035 §2.3.3).
        assert_eq!(
            addresses_for(&reply, &NAME.to_uppercase()),
            Ok(vec![Ipv4Addr::new(10, 78, 0, 2)])
        );
    }

    #[test]
    fn a_compressed_name_and_the_additional_section_are_read() {
        // A question echoing the name, then the A record in the additional section with
        // its name a pointer to the question's: ".local" shared by compression as well.
        let mut p = vec![0, 0, 0x84, 0, 0, 1, 0, 0, 0, 0, 0, 1];
        p.push(36);
        p.extend_from_slice(&NAME.as_bytes()[..36]);
        let local_at = p.len() as u8;
        p.extend_from_slice(b"\x05local\x00");
        p.extend_from_slice(&[0, 1, 0, 1]);
        // "other" + pointer to ".local": another name, same domain.
        p.extend_from_slice(b"\x05other");
        p.extend_from_slice(&[0xC0, local_at]);
        p.extend_from_slice(&[0, 1, 0, 1, 0, 0, 0, 120, 0, 4, 192, 168, 1, 9]);
        assert_eq!(addresses_for(&p, NAME), Ok(vec![]));
        assert_eq!(
            addresses_for(&p, "other.local"),
            Ok(vec![Ipv4Addr::new(192, 168, 1, 9)])
        );
    }

    #[test]
    fn answers_for_other_names_queries_and_goodbyes_give_nothing() {
        let other = chromium_reply("2944e419-e8e0-4cd6-ad95-fdc604568fc0.local", [10, 0, 0, 1]);
        assert_eq!(addresses_for(&other, NAME), Ok(vec![]));
        // The name asked as a suffix or prefix of another is not it.
        assert_eq!(
            addresses_for(&chromium_reply(NAME, [1, 2, 3, 4]), "local"),
            Ok(vec![])
        );
        // A query (someone else asking) is no answer.
        let q = query(NAME).expect("a query");
        assert_eq!(addresses_for(&q, NAME), Ok(vec![]));
        // A goodbye (TTL 0): the name is gone.
        let mut bye = chromium_reply(NAME, [10, 78, 0, 2]);
        let ttl_at = 12 + NAME.len() + 2 + 4;
        bye[ttl_at..ttl_at + 4].copy_from_slice(&[0, 0, 0, 0]);
        assert_eq!(addresses_for(&bye, NAME), Ok(vec![]));
        // An error reply.
        let mut error = chromium_reply(NAME, [10, 78, 0, 2]);
        error[3] = 3;
        assert_eq!(addresses_for(&error, NAME), Ok(vec![]));
    }

    #[test]
    fn truncated_and_garbage_packets_are_refused() {
        let reply = chromium_reply(NAME, [10, 78, 0, 2]);
        // Every cut short of the A record's end is refused, never read past its end.
        for end in 0..12 + NAME.len() + 2 + 14 {
            assert_eq!(
                addresses_for(&reply[..end], NAME),
                Err(Malformed),
                "cut at {end}"
            );
        }
        assert_eq!(addresses_for(&[], NAME), Err(Malformed));
        assert_eq!(addresses_for(&[0xFF; 12], NAME), Ok(vec![])); // opcode set: ignored
                                                                  // Too many records claimed.
        let mut many = reply.clone();
        many[6..8].copy_from_slice(&[0xFF, 0xFF]);
        assert_eq!(addresses_for(&many, NAME), Err(Malformed));
        // An A record whose data is not 4 bytes.
        let mut long = reply.clone();
        let len_at = 12 + NAME.len() + 2 + 8;
        long[len_at + 1] = 5;
        assert_eq!(addresses_for(&long, NAME), Err(Malformed));
        // Random bytes never panic.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for n in 0..2000 {
            let mut p = vec![0u8; n % 300];
            for b in p.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *b = seed as u8;
            }
            if p.len() > 3 {
                p[2] |= 0x80; // mostly "responses", so the records are read
                p[3] &= 0xF0;
            }
            let _ = addresses_for(&p, NAME);
        }
    }

    #[test]
    fn a_pointer_loop_or_a_forward_pointer_is_refused() {
        // The answer's name points at itself.
        let p = [
            0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0xC0, 12, 0, 1, 0, 1, 0, 0, 0, 1, 0, 4, 1, 2, 3,
            4,
        ];
        assert_eq!(addresses_for(&p, NAME), Err(Malformed));
        // Forwards, past itself.
        let mut forward = p;
        forward[13] = 20;
        assert_eq!(addresses_for(&forward, NAME), Err(Malformed));
        // Questions whose names are each a pointer to the one before: the k-th takes k
        // hops, so a chain within MAX_HOPS reads and a longer one is refused.
        let chain = |questions: usize| {
            let mut p = vec![0, 0, 0x84, 0, 0, questions as u8, 0, 0, 0, 0, 0, 0];
            p.extend_from_slice(b"\x01a\x00\x00\x01\x00\x01");
            let mut last = 12u8;
            for _ in 1..questions {
                let at = p.len() as u8;
                p.extend_from_slice(&[0xC0, last, 0, 1, 0, 1]);
                last = at;
            }
            p
        };
        assert_eq!(addresses_for(&chain(MAX_HOPS + 1), "a"), Ok(vec![]));
        assert_eq!(addresses_for(&chain(MAX_HOPS + 2), "a"), Err(Malformed));
    }
}
