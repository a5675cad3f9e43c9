//! The Learn pages on the site: served as HTML pages readable without
//! JavaScript and as JSON for the web app ([`routes`]). Their content and
//! rendering are the pure crate `plyyard-learn`.

mod routes;

pub use routes::routes;

/// Renders the Learn pages now rather than on the first request, and logs
/// what is wrong with the content.
pub fn prepare() {
    for p in plyyard_learn::library().problems() {
        tracing::warn!("learn content: {p}");
    }
    routes::prepare();
}
