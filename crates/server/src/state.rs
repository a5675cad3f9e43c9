//! The application state: the doors of the domain crates (live games,
//! pairing, social, engine time, storage, the bus) and HTTP's own parts
//! (cookies, limits, the gate, tuning, sockets, the stream cap) —
//! [`Shared`] — the state handed to axum ([`AppState`]), and each part a
//! handler may ask for alone through axum's substates (`FromRef`). No
//! domain state lives here: every field is a door or HTTP's.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::config::Tuning;
use crate::identity::{CookieSigner, PlayerId, Sessions};
use crate::security::{AccountKey, ClientIp, Gate, Limits};
use plyyard_accounts::Hasher;
use plyyard_engine_time::fair::Requester;
use plyyard_engine_time::pool::EnginePool;
use plyyard_engine_time::reviews::{Analyses, Reviews, library};
use plyyard_live::metrics::Metrics;
use plyyard_live::{Games, LiveDeps, LiveTuning};
use plyyard_pairing::{Pairing, PairingDeps};
use plyyard_social::{Social, SocialDeps};
use plyyard_store::Store;

/// Everything the handlers and actors share.
#[derive(Debug)]
pub struct Shared {
    /// Storage.
    pub store: Store,
    /// Live games: the door to every game, here or on another node.
    pub live: Games,
    /// The computer player.
    pub engines: Arc<EnginePool>,
    /// Metrics.
    pub metrics: Arc<Metrics>,
    /// Cookie signing.
    pub signer: CookieSigner,
    /// Rate limits (game creation, sign-ups, log-ins…), in Redis when the
    /// node has a bus.
    pub limits: Arc<Limits>,
    /// Whether `X-Forwarded-For` tells the client address
    /// ([`crate::Config::trust_proxy`]).
    pub trust_proxy: bool,
    /// The proxies trusted to tell the client address
    /// ([`crate::Config::trusted_proxies`]).
    pub trusted_proxies: Arc<Vec<ipnet::IpNet>>,
    /// The origin of [`crate::Config::public_url`] (`https://chess.example`), the
    /// only one allowed to change state when set.
    pub public_origin: Option<String>,
    /// Whether cookies must be `Secure` (the public URL is `https`).
    pub secure_cookies: bool,
    /// Password hashing (a bounded pool).
    pub hasher: Hasher,
    /// How two people get a game: tables, seeks, challenges, the lobby.
    pub pairing: Pairing,
    /// The people around the games: presence, account events, game chat.
    pub social: Social,
    /// Clubs (lichess's teams).
    pub clubs: plyyard_clubs::Clubs,
    /// The puzzle trainer.
    pub trainer: plyyard_trainer::Trainer,
    /// Arena tournaments.
    pub tournaments: plyyard_tournaments::Tournaments,
    /// The fair-play watch over rated games.
    pub fair_play: plyyard_fairplay::Watch,
    /// TV: the games in progress and each channel's featured game.
    pub tv: Arc<plyyard_live::tv_board::TvBoard>,
    /// The TV feeds this node may serve at once.
    pub tv_viewers: Arc<tokio::sync::Semaphore>,
    /// The Lichess-API game streams open per account (over the cluster).
    pub game_streams: Arc<crate::streams::GameStreams>,
    /// Live snapshots pushed to many watchers (tournament pages).
    pub feeds: Arc<plyyard_tournaments::feed::Feeds>,
    /// Game reviews: their queue and engines.
    pub reviews: Arc<Reviews>,
    /// The analysis board's engine.
    pub analyses: Arc<Analyses>,
    /// Tunables.
    pub tuning: Tuning,
    /// Becomes `true` when the server starts shutting down; open sockets
    /// then close with "going away" so clients reconnect to the next server.
    pub shutting_down: tokio::sync::watch::Sender<bool>,
    /// The open websocket sessions: at shutdown the server waits (a little)
    /// for them to send their "going away" before the process exits.
    pub sockets: tokio_util::task::TaskTracker,
    /// The bus to the other nodes of a cluster; `None` when this node runs
    /// alone.
    pub bus: Option<Arc<plyyard_cluster::Bus>>,
}

/// TV feeds one node serves at once.
pub const TV_VIEWERS: usize = 10_000;

impl Shared {
    /// The shared state of a node running alone over an open store,
    /// signing cookies with `secret`.
    pub fn new(store: Store, secret: &[u8], tuning: Tuning) -> Shared {
        Shared::with_bus(store, secret, tuning, None)
    }

    /// The shared state of a node, in a cluster when given its `bus`.
    pub fn with_bus(
        store: Store,
        secret: &[u8],
        tuning: Tuning,
        bus: Option<Arc<plyyard_cluster::Bus>>,
    ) -> Shared {
        let metrics = Arc::new(Metrics::default());
        let engines = Arc::new(EnginePool::new(
            tuning.engine_workers,
            tuning.engine_hash_mb,
            tuning.think_time_factor,
            Arc::clone(&metrics.engine),
        ));
        let mut live = LiveDeps::new(
            plyyard_live::registry(),
            store.clone(),
            Arc::clone(&engines),
            Arc::clone(&metrics),
            LiveTuning {
                idle_unload: tuning.idle_unload,
                first_move_timeout: tuning.first_move_timeout,
                away_claim_after: tuning.away_claim_after,
            },
        );
        live.cluster = bus.clone().map(plyyard_live::cluster::Cluster::new);
        let live = Games::new(Arc::new(live));
        let social = Social::new(SocialDeps {
            store: store.clone(),
            live: live.clone(),
            bus: bus.clone(),
        });
        let pairing = Pairing::new(PairingDeps {
            store: store.clone(),
            live: live.clone(),
            social: social.clone(),
            bus: bus.clone(),
        });
        let feeds = Arc::new(plyyard_tournaments::feed::Feeds::default());
        let tournaments =
            plyyard_tournaments::Tournaments::new(plyyard_tournaments::TournamentsDeps {
                store: store.clone(),
                live: live.clone(),
                clubs: plyyard_clubs::Clubs::new(store.clone()),
                presence: Arc::clone(&social.presence),
                notifications: social.notifications.clone(),
                feeds: Arc::clone(&feeds),
            });
        let reviews = Arc::new(Reviews::new(
            library(tuning.review_nodes),
            tuning.review_threads,
        ));
        let fair_play = plyyard_fairplay::Watch::new(plyyard_fairplay::WatchDeps {
            store: store.clone(),
            reviews: Arc::clone(&reviews),
            cluster: live.deps().cluster.clone(),
            metrics: Arc::clone(&live.deps().metrics),
            pause_above: tuning.fair_play_pause_above,
        });
        Shared {
            tv: Arc::new(plyyard_live::tv_board::TvBoard::new(store.clone())),
            tv_viewers: Arc::new(tokio::sync::Semaphore::new(TV_VIEWERS)),
            clubs: plyyard_clubs::Clubs::new(store.clone()),
            fair_play,
            trainer: plyyard_trainer::Trainer::new(store.clone()),
            tournaments,
            store,
            live,
            engines,
            metrics,
            signer: CookieSigner::new(secret),
            limits: Arc::new(Limits::with_bus(&tuning.quotas, bus.clone())),
            hasher: Hasher::new(tuning.hash_workers, tuning.hash_queue),
            pairing,
            social,
            game_streams: match &bus {
                Some(b) => crate::streams::GameStreams::clustered(b),
                None => Arc::new(crate::streams::GameStreams::default()),
            },
            feeds,
            reviews,
            analyses: Arc::new(Analyses::new()),
            trust_proxy: false,
            trusted_proxies: Arc::new(crate::security::default_trusted_proxies()),
            public_origin: None,
            secure_cookies: false,
            tuning,
            shutting_down: tokio::sync::watch::Sender::new(false),
            sockets: tokio_util::task::TaskTracker::new(),
            bus,
        }
    }
}

impl Shared {
    /// The keys of a request's client (see [`Requester::keys`]):
    /// its address and, when logged in, its account; without
    /// [`Tuning::reviews_by_address`], the account or the anonymous
    /// player alone.
    pub fn requester(
        &self,
        player: &PlayerId,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Vec<Requester> {
        Requester::keys(
            account.map(|a| a.0.as_str()),
            &player.0,
            ip.0,
            self.tuning.reviews_by_address,
        )
    }
}

/// The state handed to axum handlers: the [`Shared`] state behind an
/// `Arc`, cheap to clone. A handler asks for the doors it uses
/// (`State<Games>`, `State<Pairing>`, `State<Social>`, `State<Store>` …,
/// see the `FromRef` implementations below); one that needs many takes
/// `State<AppState>`, which reads as the [`Shared`] state.
#[derive(Debug, Clone)]
pub struct AppState(pub Arc<Shared>);

impl AppState {
    /// The state over `shared`.
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Arc<Shared>;

    fn deref(&self) -> &Arc<Shared> {
        &self.0
    }
}

impl FromRef<AppState> for Store {
    fn from_ref(state: &AppState) -> Store {
        state.store.clone()
    }
}

impl FromRef<AppState> for Arc<Metrics> {
    fn from_ref(state: &AppState) -> Arc<Metrics> {
        Arc::clone(&state.metrics)
    }
}

impl FromRef<AppState> for Arc<Reviews> {
    fn from_ref(state: &AppState) -> Arc<Reviews> {
        Arc::clone(&state.reviews)
    }
}

impl FromRef<AppState> for Arc<Analyses> {
    fn from_ref(state: &AppState) -> Arc<Analyses> {
        Arc::clone(&state.analyses)
    }
}

impl FromRef<AppState> for Arc<Limits> {
    fn from_ref(state: &AppState) -> Arc<Limits> {
        Arc::clone(&state.limits)
    }
}

impl FromRef<AppState> for Sessions {
    fn from_ref(state: &AppState) -> Sessions {
        Sessions {
            store: state.store.clone(),
            signer: state.signer.clone(),
            secure_cookies: state.secure_cookies,
            revocation: Arc::clone(&state.social.revocation),
        }
    }
}

impl FromRef<AppState> for Gate {
    fn from_ref(state: &AppState) -> Gate {
        Gate {
            public_origin: state.public_origin.clone(),
            proxies: state
                .trust_proxy
                .then(|| Arc::clone(&state.trusted_proxies)),
        }
    }
}

impl FromRef<AppState> for Social {
    fn from_ref(state: &AppState) -> Social {
        state.social.clone()
    }
}

impl FromRef<AppState> for Pairing {
    fn from_ref(state: &AppState) -> Pairing {
        state.pairing.clone()
    }
}

impl FromRef<AppState> for Games {
    fn from_ref(state: &AppState) -> Games {
        state.live.clone()
    }
}
