//! A socket's guard against floods ([`FloodGuard`]): how many frames a
//! client may send per second, and when a flood closes the socket.

use std::time::Instant;

/// Frames (text, binary, ping or pong) a client may send per second on a
/// socket; also the burst size.
pub const FRAMES_PER_SEC: f64 = 20.0;

/// Frames over [`FRAMES_PER_SEC`] after which a socket is closed with
/// [`super::close::POLICY`].
pub const MAX_STRIKES: u32 = 20;

/// What [`FloodGuard::check`] decided about one incoming frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Within the limit: handle the frame.
    Allow,
    /// Over the limit: ignore the frame (a text frame gets a
    /// `rate_limited` error, other frames nothing).
    Refuse,
    /// Over the limit [`MAX_STRIKES`] times: close the socket with
    /// [`super::close::POLICY`].
    Close,
}

/// A socket's guard against floods: a token bucket of [`FRAMES_PER_SEC`]
/// frames per second (bursts of as many) through which every frame the
/// client sends goes, whatever its kind, and the count of frames refused.
#[derive(Debug)]
pub struct FloodGuard {
    tokens: f64,
    last: Instant,
    strikes: u32,
}

impl Default for FloodGuard {
    fn default() -> FloodGuard {
        FloodGuard::new()
    }
}

impl FloodGuard {
    /// A guard with a full bucket and no strikes.
    pub fn new() -> FloodGuard {
        FloodGuard {
            tokens: FRAMES_PER_SEC,
            last: Instant::now(),
            strikes: 0,
        }
    }

    /// Counts one frame received at `now`.
    pub fn check(&mut self, now: Instant) -> Verdict {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * FRAMES_PER_SEC).min(FRAMES_PER_SEC);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Verdict::Allow;
        }
        self.strikes += 1;
        if self.strikes > MAX_STRIKES {
            Verdict::Close
        } else {
            Verdict::Refuse
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_guard_allows_bursts_refills_and_closes_a_flood() {
        let mut g = FloodGuard::new();
        let t0 = Instant::now();
        let allowed = (0..FRAMES_PER_SEC as usize)
            .filter(|_| g.check(t0) == Verdict::Allow)
            .count();
        assert_eq!(allowed, FRAMES_PER_SEC as usize);
        assert_eq!(g.check(t0), Verdict::Refuse);
        assert_eq!(g.check(t0 + Duration::from_millis(50)), Verdict::Allow);
        let verdicts: Vec<Verdict> = (0..MAX_STRIKES)
            .map(|_| g.check(t0 + Duration::from_millis(50)))
            .collect();
        assert_eq!(verdicts.last(), Some(&Verdict::Close));
        assert_eq!(
            verdicts.iter().filter(|v| **v == Verdict::Refuse).count(),
            MAX_STRIKES as usize - 1
        );
    }
}
