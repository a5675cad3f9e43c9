//! Engine time: the one place that runs the engine for anyone but the
//! command line. Live games' computer player ([`pool`]), game reviews and
//! the analysis board ([`reviews`]) each run on engines of their own, and
//! all of them share their engines fairly between clients ([`fair`]: one
//! client's pile of searches never holds another's back by more than one
//! search per worker). [`render_cache`] keeps the rendered reviews.
//!
//! Nothing here knows HTTP or SQL: stored reviews go through
//! `plyyard_store`, the analysis itself is `plyyard_review`'s and the
//! search `plyyard_engine`'s. Background work (the fair-play watch's
//! reviews) runs on threads the operating system schedules only when
//! nothing else wants the CPU ([`background`]).
//!
//! Modules, lowest first (a module uses only modules above it in this
//! list): `background`, `fair`, `render_cache`; `pool`, `reviews`.

pub mod background;
pub mod fair;
pub mod render_cache;

pub mod pool;
pub mod reviews;

pub use fair::{Busy, Requester};
pub use pool::{EnginePool, PoolGauges};
pub use reviews::{Analyses, Reviews};
