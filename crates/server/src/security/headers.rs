//! The security headers of every response.

use axum::Router;
use axum::http::{HeaderName, HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;

/// The Content-Security-Policy of every response: only the site's own
/// scripts, styles, connections and images (plus `data:` images, which the
/// board's stylesheet uses), no framing, no `<base>`, forms to the site.
/// The one hashed style attribute is `color-scheme:light only`, which
/// chessground puts on its arrow layers.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-hashes' \
     'sha256-SyXRxMCl6H7Kgy9uTmu1UZqVBsRmMBF4sHRiTO3FQc0='; \
     img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; \
     base-uri 'none'; form-action 'self'";

/// The `Referrer-Policy` of every response.
pub const REFERRER_POLICY: &str = "strict-origin-when-cross-origin";

/// `router` with the security headers added to every response
/// (`tower-http` [`SetResponseHeaderLayer`]s; each set only when the
/// handler did not set it).
pub fn with_headers<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    let headers: [(HeaderName, &'static str); 4] = [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, REFERRER_POLICY),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    headers.into_iter().fold(router, |r, (name, value)| {
        r.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ))
    })
}
