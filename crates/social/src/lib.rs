//! The people around the games: who is online ([`presence`]), what is said
//! at a game ([`chat`]), what each account hears on its event stream
//! ([`events`]), which of their streams and sockets end when what opened
//! them no longer holds ([`revocation`]), who follows and blocks whom
//! ([`relations`]), private messages ([`inbox`]), the header's
//! notifications ([`notify`]), the ordered bus [`outbox`] they share in a
//! cluster, and what text people may show to others ([`text`]).
//!
//! [`Social`] is the door: the server holds one and hands its parts to the
//! routes that use them. Nothing here knows HTTP or SQL: rows go through
//! `plyyard_store`, games through `plyyard_live`.
//!
//! Modules, lowest first (a module uses only modules above it in this
//! list): `outbox`, `text`; `presence`, `events`, `revocation`, `chat`
//! (with `chat::delivery`), `relations`, `notify`; `inbox`.

pub mod outbox;

pub mod chat;
pub mod events;
pub mod inbox;
pub mod notify;
pub mod presence;
pub mod relations;
pub mod revocation;
pub mod text;

use std::sync::Arc;

pub use chat::{Chat, ChatHub, ClusterHub, LocalHub, Speaker};
pub use events::Events;
pub use inbox::Inbox;
pub use notify::{Bell, Notifications};
pub use presence::{Here, Presence};
pub use relations::Relations;
pub use revocation::{Credential, EndReason, Held, Revocation};

use plyyard_live::Games;
use plyyard_store::Store;

/// What the social domain needs from the rest of the node.
#[derive(Debug, Clone)]
pub struct SocialDeps {
    /// Storage (chat lines, accounts, relations, messages).
    pub store: Store,
    /// Live games (who sits at a game, for its chat rooms).
    pub live: Games,
    /// The bus to the other nodes; `None` when this node runs alone.
    pub bus: Option<Arc<plyyard_cluster::Bus>>,
}

/// The social domain's door: presence, account events, game chat,
/// relations and private messages, on this node alone or shared by a
/// cluster's nodes over the bus.
#[derive(Debug, Clone)]
pub struct Social {
    /// Which accounts have an open stream or socket.
    pub presence: Arc<Presence>,
    /// Each account's event-stream feed (challenges, games starting and
    /// ending).
    pub events: Arc<Events>,
    /// Game chat.
    pub chat: Chat,
    /// The open streams and sockets of each account, ended when what
    /// opened them no longer holds (a token revoked, an account deleted).
    pub revocation: Arc<Revocation>,
    /// Follows and blocks.
    pub relations: Relations,
    /// Private messages.
    pub inbox: Inbox,
    /// The header's notifications, pushed to open pages.
    pub notifications: Notifications,
}

impl Social {
    /// The social domain over `deps`: clustered when it has a bus.
    pub fn new(deps: SocialDeps) -> Social {
        let (presence, events, revocation, hub): (_, _, _, Arc<dyn ChatHub>) = match &deps.bus {
            Some(bus) => (
                Presence::clustered(bus),
                Events::clustered(bus),
                Revocation::clustered(bus),
                Arc::new(ClusterHub::new(bus)),
            ),
            None => (
                Arc::new(Presence::default()),
                Arc::new(Events::default()),
                Arc::new(Revocation::default()),
                Arc::new(LocalHub::default()),
            ),
        };
        let bell = match &deps.bus {
            Some(bus) => Bell::clustered(bus),
            None => Arc::new(Bell::default()),
        };
        let notifications = Notifications::new(deps.store.clone(), bell);
        Social {
            presence,
            events,
            relations: Relations::new(deps.store.clone()),
            inbox: Inbox::new(deps.store.clone(), notifications.clone()),
            notifications,
            chat: Chat::new(deps.store, deps.live, hub),
            revocation,
        }
    }
}
