//! Fair sharing of a few workers between clients: [`Fair`], a counting
//! semaphore whose waiters are served round-robin by client instead of
//! first come, first served, with a cap on the work one client may have
//! running and waiting.
//!
//! A request names its client by one or more keys ([`Requester`]s): the
//! first picks the client's queue, and a free worker goes to the waiting
//! client served longest ago (a client new to the queue first, so it waits
//! for no more than the searches already running); every key is charged,
//! so one address with several accounts, or one account on
//! several addresses, never gets more than one key's share. A client may
//! hold at most `per_client_running` workers at once (so one client never
//! holds them all while others wait) and have at most `per_client_waiting`
//! requests waiting; beyond that, or beyond `max_waiting` in all, a request
//! is refused at once with [`Busy`]. Within one client's queue the order is
//! first come, first served. A request at low priority
//! ([`Fair::acquire_low`]) gets a worker only when no other request waits
//! for one.
//!
//! The engine pool of live games and `/api/positions/reply`
//! ([`crate::pool`]), the game reviews and the analysis board
//! (the server's reviews) each run on one.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// Who asks for engine work: the keys a [`Fair`] share and the rate limits
/// of reviews and analyses count against.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Requester {
    /// A client address (IPv6 by its /64, see the server's `ClientIp`).
    Ip(IpAddr),
    /// A logged-in account.
    Account(String),
    /// An anonymous player id (a cookie: anyone can get a fresh one, so it
    /// is the only key only where addresses are not counted).
    Player(String),
    /// The site itself: work nobody waits for (the fair-play reviews of
    /// rated games), asked at low priority ([`Fair::acquire_low`]).
    Background,
}

impl Requester {
    /// The keys of a request, address first: the address and, when logged
    /// in, the account; the account alone, or else the anonymous player id,
    /// when `by_address` is off (load tests from one machine).
    ///
    /// # Examples
    /// ```
    /// use plyyard_engine_time::fair::Requester;
    /// let ip = "192.0.2.7".parse().unwrap();
    /// assert_eq!(
    ///     Requester::keys(Some("acc"), "p1", ip, true),
    ///     vec![Requester::Ip(ip), Requester::Account("acc".into())]
    /// );
    /// assert_eq!(Requester::keys(None, "p1", ip, false), vec![Requester::Player("p1".into())]);
    /// ```
    pub fn keys(
        account: Option<&str>,
        player: &str,
        ip: IpAddr,
        by_address: bool,
    ) -> Vec<Requester> {
        match (account, by_address) {
            (Some(a), true) => vec![Requester::Ip(ip), Requester::Account(a.to_owned())],
            (None, true) => vec![Requester::Ip(ip), Requester::Player(player.to_owned())],
            (Some(a), false) => vec![Requester::Account(a.to_owned())],
            (None, false) => vec![Requester::Player(player.to_owned())],
        }
    }
}

/// The request was refused: its client (or the whole queue) has as much
/// waiting as it may.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy;

/// How a [`Fair`] shares its workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shares {
    /// Work running at once.
    pub workers: usize,
    /// Work one key may have running at once.
    pub per_client_running: usize,
    /// Requests one key may have waiting.
    pub per_client_waiting: usize,
    /// Requests waiting in all.
    pub max_waiting: usize,
}

impl Shares {
    /// `workers` workers, of which one client may hold half (rounded up,
    /// at least one), with `per_client_waiting` and `max_waiting` as given.
    ///
    /// # Examples
    /// ```
    /// use plyyard_engine_time::fair::Shares;
    /// assert_eq!(Shares::half(2, 8, 64).per_client_running, 1);
    /// assert_eq!(Shares::half(5, 8, 64).per_client_running, 3);
    /// assert_eq!(Shares::half(0, 8, 64).workers, 1);
    /// ```
    pub fn half(workers: usize, per_client_waiting: usize, max_waiting: usize) -> Shares {
        let workers = workers.max(1);
        Shares {
            workers,
            per_client_running: workers.div_ceil(2),
            per_client_waiting,
            max_waiting,
        }
    }
}

/// A permit on its way to its waiter.
type Grant<K> = (oneshot::Sender<Permit<K>>, Permit<K>);

struct Waiter<K: Hash + Eq + Clone> {
    id: u64,
    /// Served only when no request at normal priority waits.
    low: bool,
    keys: Arc<[K]>,
    grant: oneshot::Sender<Permit<K>>,
}

struct State<K: Hash + Eq + Clone> {
    running: usize,
    waiting: usize,
    /// Running work per key.
    busy: HashMap<K, usize>,
    /// Waiting requests per key.
    queued: HashMap<K, usize>,
    /// Each client's waiting requests, by its first key.
    queues: HashMap<K, VecDeque<Waiter<K>>>,
    /// The clients with waiting requests, in the order they came.
    ring: VecDeque<K>,
    /// When each client with work running or waiting was last given a
    /// worker (a count of grants); the next worker goes to the waiting
    /// client served longest ago, a client new to the queue first.
    served: HashMap<K, u64>,
    grants: u64,
    next_id: u64,
}

/// A semaphore shared fairly between clients (see the module
/// documentation).
pub struct Fair<K: Hash + Eq + Clone> {
    shares: Shares,
    state: Mutex<State<K>>,
}

impl<K: Hash + Eq + Clone> std::fmt::Debug for Fair<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.lock();
        f.debug_struct("Fair")
            .field("shares", &self.shares)
            .field("running", &s.running)
            .field("waiting", &s.waiting)
            .finish()
    }
}

/// One worker held by a client; dropping it frees the worker for the next
/// client in turn.
pub struct Permit<K: Hash + Eq + Clone> {
    fair: Arc<Fair<K>>,
    keys: Arc<[K]>,
}

impl<K: Hash + Eq + Clone> std::fmt::Debug for Permit<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Permit").finish_non_exhaustive()
    }
}

impl<K: Hash + Eq + Clone> Drop for Permit<K> {
    fn drop(&mut self) {
        let grants = {
            let mut s = self.fair.lock();
            s.running -= 1;
            for k in self.keys.iter() {
                decrement(&mut s.busy, k);
            }
            s.forget_if_idle(&self.keys[0]);
            self.fair.dispatch(&mut s)
        };
        send(grants);
    }
}

/// Removes a waiter whose request was dropped before its turn came.
struct Cancel<'a, K: Hash + Eq + Clone> {
    fair: &'a Arc<Fair<K>>,
    id: u64,
    first: K,
    armed: bool,
}

impl<K: Hash + Eq + Clone> Drop for Cancel<'_, K> {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let grants = {
            let mut s = self.fair.lock();
            let removed = s.queues.get_mut(&self.first).and_then(|q| {
                let at = q.iter().position(|w| w.id == self.id)?;
                q.remove(at)
            });
            if let Some(w) = removed {
                s.forget_waiter(&self.first, &w.keys);
            }
            // A waiter blocked behind the removed one may go now.
            self.fair.dispatch(&mut s)
        };
        send(grants);
    }
}

fn decrement<K: Hash + Eq>(map: &mut HashMap<K, usize>, k: &K) {
    if let Some(n) = map.get_mut(k) {
        *n -= 1;
        if *n == 0 {
            map.remove(k);
        }
    }
}

/// Hands out permits outside the lock; a permit whose waiter has gone is
/// dropped, which passes the worker on.
fn send<K: Hash + Eq + Clone>(grants: Vec<Grant<K>>) {
    for (tx, permit) in grants {
        drop(tx.send(permit));
    }
}

impl<K: Hash + Eq + Clone> State<K> {
    fn forget_waiter(&mut self, first: &K, keys: &[K]) {
        self.waiting -= 1;
        for k in keys {
            decrement(&mut self.queued, k);
        }
        if self.queues.get(first).is_some_and(VecDeque::is_empty) {
            self.queues.remove(first);
            self.ring.retain(|c| c != first);
            self.forget_if_idle(first);
        }
    }

    /// Forgets when `client` was served once it has nothing running or
    /// waiting.
    fn forget_if_idle(&mut self, client: &K) {
        if !self.busy.contains_key(client) && !self.queues.contains_key(client) {
            self.served.remove(client);
        }
    }

    /// Counts one grant to `client`.
    fn mark_served(&mut self, client: &K) {
        self.grants += 1;
        self.served.insert(client.clone(), self.grants);
    }

    fn may_run(&self, keys: &[K], cap: usize) -> bool {
        keys.iter()
            .all(|k| self.busy.get(k).copied().unwrap_or(0) < cap)
    }
}

impl<K: Hash + Eq + Clone> Fair<K> {
    /// A fair semaphore sharing `shares.workers` workers.
    pub fn new(shares: Shares) -> Fair<K> {
        Fair {
            shares: Shares {
                workers: shares.workers.max(1),
                per_client_running: shares.per_client_running.max(1),
                ..shares
            },
            state: Mutex::new(State {
                running: 0,
                waiting: 0,
                busy: HashMap::new(),
                queued: HashMap::new(),
                queues: HashMap::new(),
                ring: VecDeque::new(),
                served: HashMap::new(),
                grants: 0,
                next_id: 0,
            }),
        }
    }

    /// How the workers are shared.
    pub fn shares(&self) -> Shares {
        self.shares
    }

    fn lock(&self) -> MutexGuard<'_, State<K>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Work running now.
    pub fn running(&self) -> usize {
        self.lock().running
    }

    /// Requests waiting now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting
    }

    /// Waits for a worker for the client of `keys` (the first picks its
    /// queue; all are charged), in the client's turn.
    ///
    /// # Errors
    /// [`Busy`] at once when one of `keys` has `per_client_waiting`
    /// requests waiting already, or `max_waiting` are waiting in all.
    ///
    /// # Panics
    /// If `keys` is empty.
    pub async fn acquire(self: &Arc<Self>, keys: &[K]) -> Result<Permit<K>, Busy> {
        self.acquire_at(keys, false).await
    }

    /// Waits for a worker like [`Fair::acquire`], at low priority: the
    /// worker goes to any other waiting request first.
    ///
    /// # Errors
    /// As [`Fair::acquire`].
    ///
    /// # Panics
    /// If `keys` is empty.
    pub async fn acquire_low(self: &Arc<Self>, keys: &[K]) -> Result<Permit<K>, Busy> {
        self.acquire_at(keys, true).await
    }

    async fn acquire_at(self: &Arc<Self>, keys: &[K], low: bool) -> Result<Permit<K>, Busy> {
        assert!(!keys.is_empty(), "a request names its client");
        let keys: Arc<[K]> = keys.into();
        let first = keys[0].clone();
        let (tx, rx) = oneshot::channel();
        let (id, grants) = {
            let mut guard = self.lock();
            let s = &mut *guard;
            // Waiters left in the ring are all held back by their shares,
            // so a request that may run and finds a worker free goes first
            // (unless its own client has others waiting before it).
            if s.running < self.shares.workers
                && !s.queues.contains_key(&first)
                && (!low || s.ring.is_empty())
                && s.may_run(&keys, self.shares.per_client_running)
            {
                s.running += 1;
                for k in keys.iter() {
                    *s.busy.entry(k.clone()).or_default() += 1;
                }
                s.mark_served(&first);
                return Ok(Permit {
                    fair: Arc::clone(self),
                    keys,
                });
            }
            let full = s.waiting >= self.shares.max_waiting
                || keys.iter().any(|k| {
                    s.queued.get(k).copied().unwrap_or(0) >= self.shares.per_client_waiting
                });
            if full {
                return Err(Busy);
            }
            let id = s.next_id;
            s.next_id += 1;
            s.waiting += 1;
            for k in keys.iter() {
                *s.queued.entry(k.clone()).or_default() += 1;
            }
            let queue = s.queues.entry(first.clone()).or_default();
            queue.push_back(Waiter {
                id,
                low,
                keys: Arc::clone(&keys),
                grant: tx,
            });
            if queue.len() == 1 {
                s.ring.push_back(first.clone());
            }
            (id, self.dispatch(s))
        };
        send(grants);
        let mut cancel = Cancel {
            fair: self,
            id,
            first,
            armed: true,
        };
        let permit = rx.await;
        cancel.armed = false;
        // The sender is only dropped with its waiter, which only a
        // cancellation removes: that is this future, gone by then.
        permit.map_err(|_| Busy)
    }

    /// Grants free workers to the waiting clients in turn: each worker
    /// goes to the client served longest ago (one never served first, then
    /// in the order they came) among those whose first waiter may run
    /// (every key under its share), a waiter at low priority last.
    fn dispatch(self: &Arc<Self>, s: &mut State<K>) -> Vec<Grant<K>> {
        let mut grants = Vec::new();
        while s.running < self.shares.workers {
            let next = s
                .ring
                .iter()
                .enumerate()
                .filter_map(|(at, c)| {
                    let w = s.queues.get(c).and_then(VecDeque::front)?;
                    s.may_run(&w.keys, self.shares.per_client_running)
                        .then(|| (at, (w.low, s.served.get(c).copied().unwrap_or(0))))
                })
                .min_by_key(|(_, rank)| *rank)
                .map(|(at, _)| at);
            let Some(client) = next.and_then(|at| s.ring.remove(at)) else {
                break;
            };
            let Some(w) = s.queues.get_mut(&client).and_then(VecDeque::pop_front) else {
                continue;
            };
            if s.queues.get(&client).is_some_and(|q| !q.is_empty()) {
                s.ring.push_back(client.clone());
            } else {
                s.queues.remove(&client);
            }
            s.waiting -= 1;
            for k in w.keys.iter() {
                decrement(&mut s.queued, k);
                *s.busy.entry(k.clone()).or_default() += 1;
            }
            s.running += 1;
            s.mark_served(&client);
            grants.push((
                w.grant,
                Permit {
                    fair: Arc::clone(self),
                    keys: Arc::clone(&w.keys),
                },
            ));
        }
        grants
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shares(workers: usize, running: usize, waiting: usize) -> Shares {
        Shares {
            workers,
            per_client_running: running,
            per_client_waiting: waiting,
            max_waiting: 100,
        }
    }

    /// Queues a request of `keys` in a task that sends its label and permit
    /// on `tx` when granted; returns once it waits.
    async fn queue(
        fair: &Arc<Fair<u32>>,
        keys: &'static [u32],
        label: &'static str,
        tx: &tokio::sync::mpsc::UnboundedSender<(&'static str, Permit<u32>)>,
    ) {
        let before = fair.waiting();
        let (f, tx) = (Arc::clone(fair), tx.clone());
        tokio::spawn(async move {
            let p = f.acquire(keys).await.expect("queued");
            tx.send((label, p)).expect("the test listens");
        });
        while fair.waiting() == before {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn waiting_clients_are_served_in_turn_not_in_order_of_arrival() {
        let fair = Arc::new(Fair::new(shares(1, 1, 100)));
        let first = fair.acquire(&[1]).await.unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        for _ in 0..5 {
            queue(&fair, &[1], "a", &tx).await;
        }
        queue(&fair, &[2], "b", &tx).await;
        queue(&fair, &[3], "c", &tx).await;
        assert_eq!(fair.waiting(), 7);
        drop(first);
        let mut order = Vec::new();
        while order.len() < 7 {
            let (label, permit) = rx.recv().await.unwrap();
            assert_eq!(fair.running(), 1);
            order.push(label);
            drop(permit);
        }
        // Client 1 queued five before the others came, yet they go first:
        // client 1 was served last (its search had just run).
        assert_eq!(order, ["b", "c", "a", "a", "a", "a", "a"]);
        assert_eq!((fair.running(), fair.waiting()), (0, 0));
    }

    #[tokio::test]
    async fn low_priority_work_waits_for_everyone_else() {
        let fair = Arc::new(Fair::new(shares(1, 1, 100)));
        let held = fair.acquire(&[1]).await.unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        // Background work queued first, and never served before.
        let before = fair.waiting();
        let (f, low_tx) = (Arc::clone(&fair), tx.clone());
        tokio::spawn(async move {
            let p = f.acquire_low(&[9]).await.expect("queued");
            low_tx.send(("low", p)).expect("the test listens");
        });
        while fair.waiting() == before {
            tokio::task::yield_now().await;
        }
        queue(&fair, &[1], "a", &tx).await;
        queue(&fair, &[2], "b", &tx).await;
        drop(held);
        let mut order = Vec::new();
        while order.len() < 3 {
            let (label, permit) = rx.recv().await.unwrap();
            order.push(label);
            drop(permit);
        }
        assert_eq!(order, ["b", "a", "low"]);
        // A worker free and nobody waiting: low priority runs at once.
        let low = fair.acquire_low(&[9]).await.unwrap();
        assert_eq!((fair.running(), fair.waiting()), (1, 0));
        drop(low);
    }

    #[tokio::test]
    async fn a_newcomer_goes_before_a_client_served_just_now() {
        let fair = Arc::new(Fair::new(shares(1, 1, 100)));
        let first = fair.acquire(&[1]).await.unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        queue(&fair, &[1], "a", &tx).await;
        drop(first);
        let (label, served) = rx.recv().await.unwrap();
        assert_eq!(label, "a");
        // Client 1 queued again before client 2 came; client 2 goes first
        // all the same, since client 1 was served last.
        queue(&fair, &[1], "a", &tx).await;
        queue(&fair, &[2], "b", &tx).await;
        drop(served);
        assert_eq!(rx.recv().await.unwrap().0, "b");
    }

    #[tokio::test]
    async fn one_client_never_holds_every_worker() {
        let fair = Arc::new(Fair::new(Shares::half(2, 100, 100)));
        let a1 = fair.acquire(&[1]).await.unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        queue(&fair, &[1], "a", &tx).await;
        assert_eq!(fair.running(), 1, "a worker is free, but not for client 1");
        // Another client goes straight to the free worker.
        let b = fair.acquire(&[2]).await.unwrap();
        assert_eq!(fair.running(), 2);
        drop(b);
        assert!(rx.try_recv().is_err(), "client 1 still holds its share");
        drop(a1);
        assert_eq!(rx.recv().await.unwrap().0, "a");
    }

    #[tokio::test]
    async fn every_key_of_a_request_is_charged() {
        // Keys 1 and 2 are addresses, 9 an account used from both.
        let fair = Arc::new(Fair::new(shares(4, 1, 1)));
        let held = fair.acquire(&[1, 9]).await.unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        queue(&fair, &[2, 9], "account elsewhere", &tx).await;
        assert_eq!(fair.running(), 1, "the account has its one search running");
        assert!(
            fair.acquire(&[3, 9]).await.is_err(),
            "and its one waiting from another address"
        );
        let other = fair.acquire(&[4]).await.unwrap();
        assert_eq!(fair.running(), 2, "another address is not held back");
        drop(held);
        assert_eq!(rx.recv().await.unwrap().0, "account elsewhere");
        drop(other);
    }

    #[tokio::test]
    async fn waiting_is_bounded_per_client_and_in_all() {
        let fair = Arc::new(Fair::new(Shares {
            workers: 1,
            per_client_running: 1,
            per_client_waiting: 2,
            max_waiting: 3,
        }));
        let held = fair.acquire(&[1]).await.unwrap();
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        queue(&fair, &[1], "a", &tx).await;
        queue(&fair, &[1], "a", &tx).await;
        assert_eq!(fair.acquire(&[1]).await.err(), Some(Busy));
        queue(&fair, &[2], "b", &tx).await;
        assert_eq!(fair.acquire(&[3]).await.err(), Some(Busy), "full in all");
        drop(held);
    }

    #[tokio::test]
    async fn a_request_given_up_leaves_the_queue() {
        let fair = Arc::new(Fair::new(shares(1, 1, 1)));
        let held = fair.acquire(&[1]).await.unwrap();
        let waiting = tokio::spawn({
            let f = Arc::clone(&fair);
            async move { f.acquire(&[2]).await.map(drop) }
        });
        while fair.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        waiting.abort();
        let _ = waiting.await;
        assert_eq!(fair.waiting(), 0);
        // Its place is free again, and the worker goes to the next one.
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        queue(&fair, &[2], "b", &tx).await;
        drop(held);
        assert_eq!(rx.recv().await.unwrap().0, "b");
    }
}
