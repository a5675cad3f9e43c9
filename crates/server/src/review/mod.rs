//! Game review on the site: the queue and the analysis board on engines of
//! their own ([`service`]), the rendered-review cache ([`cache`]), and
//! stored reviews and imported games ([`store`]). The review itself
//! (search, labels, accuracy, explanations, words) is the pure crate
//! `plyyard-review`, which `plyyard review` shares.

pub mod cache;
pub mod service;
