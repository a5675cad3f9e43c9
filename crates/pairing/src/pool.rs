//! The seek pool as plain data: who waits for which game, and who pairs
//! with whom. No clock, no runtime, no I/O: times are passed in (Unix
//! milliseconds), so every rule here is a pure step tested on its own.
//!
//! Two seeks pair when they ask for the same [`PoolKey`] (variant, time
//! control, rated or casual), belong to two different players, and each
//! one's rating is within the other's range. A seek's range starts at
//! [`BASE_RANGE`] and widens by [`WIDEN_PER_SEC`] for every second it has
//! waited, until after [`ANYONE_AFTER_MS`] it takes anyone. Among the
//! seeks a new one may pair with, it takes the closest rating (then the
//! one waiting longest). A player has at most one seek: a new one replaces
//! the old.
//!
//! Two seeks from one address (two accounts of one home, or one person's
//! two accounts farming a rating) pair only once both have waited
//! [`SAME_ADDRESS_AFTER_MS`], and any other opponent is preferred: never
//! refused, since a club or a school shares one address.

use std::collections::HashMap;

use plyyard_game::Variant;

/// The rating range of a seek that has just arrived (± points).
pub const BASE_RANGE: i64 = 150;
/// Points the range widens by per second waited.
pub const WIDEN_PER_SEC: i64 = 50;
/// After waiting this long a seek pairs with any rating.
pub const ANYONE_AFTER_MS: i64 = 30_000;
/// Two seeks from one address pair only once both waited this long.
pub const SAME_ADDRESS_AFTER_MS: i64 = 10_000;

/// What a seek asks for; only seeks of the same key pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PoolKey {
    /// Standard chess or Chess960.
    pub variant: Variant,
    /// Minutes per player.
    pub minutes: u32,
    /// Increment per move, seconds.
    pub increment: u32,
    /// Rated or casual.
    pub rated: bool,
}

/// A seek's number, unique within one server's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SeekId(pub u64);

/// A player waiting for an opponent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seek {
    /// Its number.
    pub id: SeekId,
    /// Player id of the seeker.
    pub player: String,
    /// The seeker's name, as the lobby shows it.
    pub name: String,
    /// The seeker's rating at the key's speed (display points).
    pub rating: i64,
    /// Whether that rating is still provisional.
    pub provisional: bool,
    /// What it asks for.
    pub key: PoolKey,
    /// When it started waiting, Unix milliseconds.
    pub since: i64,
    /// The node holding the seeker's request (empty for a node alone).
    pub node: String,
    /// The seeker's address (an IPv6 one by its /64; empty: unknown).
    pub address: String,
}

impl Seek {
    /// Its rating range (± points) at `now`; `None`: any rating.
    pub fn range(&self, now: i64) -> Option<i64> {
        let waited = (now - self.since).max(0);
        (waited < ANYONE_AFTER_MS).then(|| BASE_RANGE + WIDEN_PER_SEC * (waited / 1000))
    }

    /// Whether `other`'s rating is within this seek's range at `now`.
    fn accepts(&self, other: &Seek, now: i64) -> bool {
        self.range(now)
            .is_none_or(|r| (self.rating - other.rating).abs() <= r)
    }

    /// Whether this seek and `other` come from one known address.
    fn same_address(&self, other: &Seek) -> bool {
        !self.address.is_empty() && self.address == other.address
    }

    /// Whether this seek and `other` may pair at `now`: two players, each
    /// in the other's range, and from two addresses unless both waited
    /// [`SAME_ADDRESS_AFTER_MS`].
    fn pairs_with(&self, other: &Seek, now: i64) -> bool {
        let waited = |s: &Seek| now - s.since >= SAME_ADDRESS_AFTER_MS;
        self.player != other.player
            && self.accepts(other, now)
            && other.accepts(self, now)
            && (!self.same_address(other) || (waited(self) && waited(other)))
    }

    /// How good a partner `other` is (lowest first): another address,
    /// then the closest rating, then the longest waiting.
    fn preference(&self, other: &Seek) -> (bool, i64, i64, SeekId) {
        (
            self.same_address(other),
            (other.rating - self.rating).abs(),
            other.since,
            other.id,
        )
    }
}

/// Two seeks paired: the first is the one that waited longer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair(pub Seek, pub Seek);

/// What adding a seek did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Added {
    /// The player's previous seek, now gone.
    pub replaced: Option<Seek>,
    /// The pair it made at once; `None`: it waits in the pool.
    pub paired: Option<Pair>,
}

/// The waiting seeks.
#[derive(Debug, Default)]
pub struct Pool {
    /// The seeks waiting for each key, oldest first.
    by_key: HashMap<PoolKey, Vec<Seek>>,
    /// Each waiting player's seek.
    by_player: HashMap<String, (PoolKey, SeekId)>,
}

impl Pool {
    /// Adds `seek` at `now`, replacing its player's previous seek, and
    /// pairs it at once with the best seek it is compatible with, if any.
    pub fn add(&mut self, seek: Seek, now: i64) -> Added {
        let replaced = self.remove_player(&seek.player);
        let key = seek.key;
        let waiting = self.by_key.entry(key).or_default();
        let best = waiting
            .iter()
            .enumerate()
            .filter(|(_, w)| seek.pairs_with(w, now))
            .min_by_key(|(_, w)| seek.preference(w))
            .map(|(i, _)| i);
        let paired = match best {
            Some(i) => {
                let other = waiting.remove(i);
                self.by_player.remove(&other.player);
                Some(ordered(other, seek))
            }
            None => {
                self.by_player
                    .insert(seek.player.clone(), (seek.key, seek.id));
                let at = waiting.partition_point(|w| (w.since, w.id) <= (seek.since, seek.id));
                waiting.insert(at, seek);
                None
            }
        };
        if self.by_key.get(&key).is_some_and(Vec::is_empty) {
            self.by_key.remove(&key);
        }
        Added { replaced, paired }
    }

    /// The pool of `waiting`, seeks that are already known not to pair
    /// with one another (a copy of a shared pool): none is paired here.
    pub fn from_waiting(waiting: Vec<Seek>) -> Pool {
        let mut pool = Pool::default();
        for seek in waiting {
            pool.by_player
                .insert(seek.player.clone(), (seek.key, seek.id));
            pool.by_key.entry(seek.key).or_default().push(seek);
        }
        for list in pool.by_key.values_mut() {
            list.sort_by_key(|s| (s.since, s.id));
        }
        pool
    }

    /// Takes seek `id` out of the pool; `None` if it is not waiting.
    pub fn remove(&mut self, id: SeekId) -> Option<Seek> {
        let player = self
            .by_player
            .iter()
            .find(|(_, (_, sid))| *sid == id)
            .map(|(p, _)| p.clone())?;
        self.remove_player(&player)
    }

    /// Takes `player`'s seek out of the pool, if one waits.
    pub fn remove_player(&mut self, player: &str) -> Option<Seek> {
        let (key, id) = self.by_player.remove(player)?;
        let waiting = self.by_key.get_mut(&key)?;
        let at = waiting.iter().position(|s| s.id == id)?;
        let seek = waiting.remove(at);
        if waiting.is_empty() {
            self.by_key.remove(&key);
        }
        Some(seek)
    }

    /// `player`'s waiting seek.
    pub fn of_player(&self, player: &str) -> Option<&Seek> {
        let (key, id) = self.by_player.get(player)?;
        self.by_key.get(key)?.iter().find(|s| s.id == *id)
    }

    /// Pairs what the ranges widened by `now` allow: the seeks of each key
    /// taken oldest first, each with its best compatible partner among the
    /// seeks still unpaired.
    pub fn sweep(&mut self, now: i64) -> Vec<Pair> {
        let mut pairs = Vec::new();
        for waiting in self.by_key.values_mut() {
            let mut i = 0;
            while i < waiting.len() {
                let s = &waiting[i];
                let best = waiting
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .filter(|(_, w)| s.pairs_with(w, now))
                    .min_by_key(|(_, w)| s.preference(w))
                    .map(|(j, _)| j);
                match best {
                    Some(j) => {
                        let b = waiting.remove(j);
                        let a = waiting.remove(i);
                        pairs.push(ordered(a, b));
                    }
                    None => i += 1,
                }
            }
        }
        self.by_key.retain(|_, w| !w.is_empty());
        for Pair(a, b) in &pairs {
            self.by_player.remove(&a.player);
            self.by_player.remove(&b.player);
        }
        pairs
    }

    /// Every waiting seek, oldest first.
    pub fn waiting(&self) -> Vec<Seek> {
        let mut all: Vec<Seek> = self.by_key.values().flatten().cloned().collect();
        all.sort_by_key(|s| (s.since, s.id));
        all
    }

    /// How many seeks wait.
    pub fn len(&self) -> usize {
        self.by_player.len()
    }

    /// Whether no seek waits.
    pub fn is_empty(&self) -> bool {
        self.by_player.is_empty()
    }
}

/// `a` and `b`, the one that waited longer first.
fn ordered(a: Seek, b: Seek) -> Pair {
    if (b.since, b.id) < (a.since, a.id) {
        Pair(b, a)
    } else {
        Pair(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLITZ: PoolKey = PoolKey {
        variant: Variant::Standard,
        minutes: 3,
        increment: 2,
        rated: true,
    };

    fn seek(id: u64, player: &str, rating: i64, since: i64) -> Seek {
        Seek {
            id: SeekId(id),
            player: player.to_owned(),
            name: player.to_owned(),
            rating,
            provisional: false,
            key: BLITZ,
            since,
            node: String::new(),
            address: String::new(),
        }
    }

    fn ids(p: &Pair) -> (u64, u64) {
        (p.0.id.0, p.1.id.0)
    }

    fn from(address: &str, s: Seek) -> Seek {
        Seek {
            address: address.to_owned(),
            ..s
        }
    }

    /// Issue 58 (rating farming): accounts of one address are paired with
    /// each other last: another opponent first, and each other only once
    /// both waited [`SAME_ADDRESS_AFTER_MS`] (never refused: a club shares
    /// one address).
    #[test]
    fn seeks_of_one_address_prefer_other_opponents() {
        let mut pool = Pool::default();
        pool.add(from("192.0.2.7", seek(1, "a", 1500, 0)), 0);
        // Same address, same rating: not paired at once.
        let added = pool.add(from("192.0.2.7", seek(2, "b", 1500, 100)), 100);
        assert_eq!(added.paired, None);
        assert!(pool.sweep(5_000).is_empty());
        // Another address, further in rating: taken first.
        let added = pool.add(from("198.51.100.1", seek(3, "c", 1600, 200)), 200);
        assert_eq!(added.paired.as_ref().map(ids), Some((1, 3)));
        // Alone with one's address-mate: paired once both waited.
        pool.add(from("192.0.2.7", seek(4, "d", 1500, 300)), 300);
        assert!(pool.sweep(100 + SAME_ADDRESS_AFTER_MS).is_empty());
        let pairs = pool.sweep(300 + SAME_ADDRESS_AFTER_MS);
        assert_eq!(pairs.iter().map(ids).collect::<Vec<_>>(), [(2, 4)]);
        // An unknown address is nobody's.
        pool.add(seek(5, "e", 1500, 400), 400);
        let added = pool.add(seek(6, "f", 1500, 500), 500);
        assert_eq!(added.paired.as_ref().map(ids), Some((5, 6)));
    }

    #[test]
    fn two_seeks_of_the_same_key_pair_at_once() {
        let mut pool = Pool::default();
        assert_eq!(pool.add(seek(1, "a", 1500, 0), 0), Added::default());
        assert_eq!(pool.len(), 1);
        let added = pool.add(seek(2, "b", 1520, 10), 10);
        assert_eq!(added.paired.as_ref().map(ids), Some((1, 2)));
        assert!(pool.is_empty() && pool.waiting().is_empty());
    }

    #[test]
    fn different_keys_never_pair() {
        let mut pool = Pool::default();
        pool.add(seek(1, "a", 1500, 0), 0);
        let mut other = seek(2, "b", 1500, 0);
        other.key.increment = 3;
        assert_eq!(pool.add(other.clone(), 0).paired, None);
        let mut casual = seek(3, "c", 1500, 0);
        casual.key.rated = false;
        assert_eq!(pool.add(casual, 0).paired, None);
        let mut c960 = seek(4, "d", 1500, 0);
        c960.key.variant = Variant::Chess960;
        assert_eq!(pool.add(c960, 0).paired, None);
        assert_eq!(pool.len(), 4);
        assert!(
            pool.sweep(120_000).is_empty(),
            "keys differ however long they wait"
        );
    }

    #[test]
    fn a_player_never_pairs_with_themselves_and_has_one_seek() {
        let mut pool = Pool::default();
        pool.add(seek(1, "a", 1500, 0), 0);
        let again = pool.add(seek(2, "a", 1500, 5), 5);
        assert_eq!(again.paired, None);
        assert_eq!(again.replaced.map(|s| s.id), Some(SeekId(1)));
        assert_eq!(pool.len(), 1);
        assert_eq!(pool.of_player("a").map(|s| s.id), Some(SeekId(2)));
        assert!(pool.sweep(60_000).is_empty());
    }

    #[test]
    fn the_closest_rating_in_range_is_chosen() {
        let mut pool = Pool::default();
        // Far enough from one another not to pair among themselves.
        assert_eq!(pool.add(seek(1, "far", 1640, 0), 0).paired, None);
        assert_eq!(pool.add(seek(2, "near", 1460, 0), 0).paired, None);
        assert_eq!(pool.add(seek(3, "out", 1200, 0), 0).paired, None);
        let p = pool.add(seek(4, "me", 1500, 0), 0).paired.unwrap();
        assert_eq!(ids(&p), (2, 4));
        // Equal distance: the one waiting longer.
        let mut pool = Pool::default();
        assert_eq!(pool.add(seek(5, "later", 1580, 100), 100).paired, None);
        assert_eq!(pool.add(seek(6, "earlier", 1420, 50), 100).paired, None);
        let p = pool.add(seek(7, "me", 1500, 200), 200).paired.unwrap();
        assert_eq!(p.0.player, "earlier");
    }

    #[test]
    fn ranges_widen_with_waiting_time() {
        let a = seek(1, "a", 1500, 0);
        assert_eq!(a.range(0), Some(BASE_RANGE));
        assert_eq!(a.range(999), Some(BASE_RANGE));
        assert_eq!(a.range(4_000), Some(BASE_RANGE + 4 * WIDEN_PER_SEC));
        assert_eq!(a.range(ANYONE_AFTER_MS), None);
        let mut pool = Pool::default();
        pool.add(a, 0);
        // 400 apart: too far for two fresh seeks…
        assert_eq!(pool.add(seek(2, "b", 1900, 0), 0).paired, None);
        assert!(pool.sweep(1_000).is_empty());
        // …until both ranges reach 400 (150 + 5 × 50).
        assert!(pool.sweep(4_999).is_empty());
        let pairs = pool.sweep(5_000);
        assert_eq!(pairs.iter().map(ids).collect::<Vec<_>>(), vec![(1, 2)]);
        assert!(pool.is_empty());
        // A newcomer must accept too: a seek waiting long takes anyone, a
        // fresh one only its own range.
        let mut pool = Pool::default();
        pool.add(seek(3, "old", 1000, 0), 0);
        assert_eq!(pool.add(seek(4, "new", 2000, 60_000), 60_000).paired, None);
        let pairs = pool.sweep(60_000 + ANYONE_AFTER_MS);
        assert_eq!(pairs.len(), 1);
    }

    #[test]
    fn sweeps_pair_the_oldest_first_each_with_its_closest() {
        let mut pool = Pool::default();
        // Four fresh seeks far apart: nobody pairs on arrival.
        for (id, r) in [(1, 1000), (2, 1300), (3, 1600), (4, 1900)] {
            assert_eq!(pool.add(seek(id, &format!("p{id}"), r, 0), 0).paired, None);
        }
        // At 3 s ranges are 300: 1-2 then 3-4.
        let pairs = pool.sweep(3_000);
        assert_eq!(
            pairs.iter().map(ids).collect::<Vec<_>>(),
            vec![(1, 2), (3, 4)]
        );
        assert!(pool.is_empty());
    }

    #[test]
    fn cancelled_seeks_are_gone_everywhere() {
        let mut pool = Pool::default();
        pool.add(seek(1, "a", 1500, 0), 0);
        pool.add(seek(2, "b", 1500, 0), 0).paired.unwrap();
        pool.add(seek(3, "c", 1500, 0), 0);
        assert_eq!(pool.remove(SeekId(3)).map(|s| s.player), Some("c".into()));
        assert_eq!(pool.remove(SeekId(3)), None);
        assert!(pool.is_empty() && pool.waiting().is_empty() && pool.of_player("c").is_none());
        // The next seek finds nobody.
        assert_eq!(pool.add(seek(4, "d", 1500, 0), 0).paired, None);
        assert_eq!(pool.remove_player("d").map(|s| s.id), Some(SeekId(4)));
        assert!(pool.sweep(100_000).is_empty());
        assert!(pool.by_key.is_empty(), "no empty lists are kept");
    }

    #[test]
    fn a_copy_of_a_pool_pairs_as_the_pool_would() {
        let mut pool = Pool::default();
        for (id, r) in [(1, 1000), (2, 1300), (3, 1600)] {
            pool.add(seek(id, &format!("p{id}"), r, 0), 0);
        }
        let mut copy = Pool::from_waiting(pool.waiting().into_iter().rev().collect());
        assert_eq!(copy.waiting(), pool.waiting());
        assert_eq!(copy.len(), 3);
        let a = pool.add(seek(4, "p4", 1310, 10), 10);
        let b = copy.add(seek(4, "p4", 1310, 10), 10);
        assert_eq!(a, b);
        assert_eq!(b.paired.as_ref().map(ids), Some((2, 4)));
        assert_eq!(copy.sweep(3_000), pool.sweep(3_000));
    }

    #[test]
    fn many_seeks_pair_exactly_once() {
        let mut pool = Pool::default();
        let mut paired = Vec::new();
        for i in 0..1001u64 {
            let rating = 1000 + i64::try_from(i * 37 % 900).unwrap();
            if let Some(Pair(a, b)) = pool.add(seek(i, &format!("p{i}"), rating, 0), 0).paired {
                paired.extend([a.id.0, b.id.0]);
            }
        }
        for Pair(a, b) in pool.sweep(ANYONE_AFTER_MS) {
            paired.extend([a.id.0, b.id.0]);
        }
        paired.sort_unstable();
        let before = paired.len();
        paired.dedup();
        assert_eq!(paired.len(), before, "a seek paired twice");
        assert_eq!(paired.len(), 1000);
        assert_eq!(pool.len(), 1, "the odd one out waits");
    }
}
