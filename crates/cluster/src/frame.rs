//! The shape of every message on the bus: a header line of words
//! separated by spaces (its kind first), a newline, then the body, which
//! may hold anything (newlines too).

use bytes::Bytes;

/// A frame of header `head` (one line) and `body`.
pub fn build(head: &str, body: &[u8]) -> Vec<u8> {
    debug_assert!(!head.contains('\n'), "a header is one line");
    let mut frame = Vec::with_capacity(head.len() + 1 + body.len());
    frame.extend_from_slice(head.as_bytes());
    frame.push(b'\n');
    frame.extend_from_slice(body);
    frame
}

/// A frame's header words and body (sharing the frame's bytes); `None`
/// without a header line.
pub fn split(frame: &Bytes) -> Option<(std::str::Split<'_, char>, Bytes)> {
    let nl = frame.iter().position(|&b| b == b'\n')?;
    let head = std::str::from_utf8(&frame[..nl]).ok()?;
    Some((head.split(' '), frame.slice(nl + 1..)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_read_back_and_its_body_keeps_newlines() {
        let frame = Bytes::from(build("E game 7", b"one\ntwo"));
        let (head, body) = split(&frame).unwrap();
        assert_eq!(head.collect::<Vec<_>>(), ["E", "game", "7"]);
        assert_eq!(&body[..], b"one\ntwo");
        assert!(split(&Bytes::from_static(b"no header line")).is_none());
        assert!(split(&Bytes::from_static(b"\xff\xfe\nbody")).is_none());
    }
}
