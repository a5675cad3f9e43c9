//! The server's defences against abuse from the web: who the client is
//! (its address, behind a trusted proxy or not), rate limits keyed by
//! address or account, the same-origin rule for state-changing requests,
//! and the security headers of every response.
//!
//! # Client address
//! The client of a request is the TCP peer address. Only with
//! `--trust-proxy` ([`crate::Config::trust_proxy`]), and only when the peer
//! is one of the trusted proxies (`--trusted-proxies`,
//! [`crate::Config::trusted_proxies`]; by default a proxy on this machine,
//! 127.0.0.0/8 and ::1), does `X-Forwarded-For` count. The client is then
//! the **right-most** entry of `X-Forwarded-For` (all its headers joined in
//! order) that is not a trusted proxy — a client on a private network is a
//! client like any other, so what it wrote itself is never read; when every
//! entry is a trusted proxy, it is the right-most entry. An entry that is
//! not an IP address (`unknown`, garbage) stops the walk: the right-most
//! trusted address read is used. IPv4-mapped IPv6 addresses count as IPv4,
//! and IPv6 clients are keyed by their /64 network, since one host usually
//! holds a whole /64. The shipped HAProxy configuration replaces any
//! `X-Forwarded-For` a client sends with the address it saw.
//!
//! # Rate limits
//! [`Limits`] holds the quotas of [`Quotas`] (from [`crate::Tuning`]):
//! generic cell rate limiters from `governor`, counting each request of a
//! [`LimitKey`] against its client address **and**, when logged in, its
//! account (so several accounts on one address share the address's quota,
//! and one account on several addresses shares the account's), plus an
//! exponential back-off of failed log-ins per username. A
//! refusal is a [`RetryAfter`], which becomes `429 rate_limited` with a
//! `Retry-After` header.
//!
//! On a node of a cluster (with a [`plyyard_cluster::Bus`]) the same counts are
//! kept in Redis ([`plyyard_cluster::limits`]: one Lua script per check, Redis's
//! clock, keys `rl:<limit>:<ip|acct|player>:<value>` that expire), so each
//! quota holds for the cluster as a whole. A check Redis cannot answer
//! (an error, or no answer within half a second) counts in the node's
//! memory instead, as do the node's checks of the next second; a warning
//! is logged at most every ten seconds.
//!
//! # Cross-site requests
//! [`guard`] runs before every route: a request whose method is not `GET`,
//! `HEAD` or `OPTIONS` must carry `Sec-Fetch-Site: same-origin` or an
//! `Origin` equal to the server's own origin (the origin of `--public-url`
//! when set, else `http(s)://` + the `Host` header); anything else is
//! `403 forbidden` before any handler runs. Requests without either header
//! are refused too. The exceptions carry no ambient authority: an `/api/`
//! request (or one to lichess's `/team/{id}/join|quit` and
//! `/inbox/{username}`) with an `Authorization` header (authenticated by its token
//! alone, its cookies ignored) and the cookie-free token endpoints
//! (`/api/token`, `/api/token/test`).
//!
//! # Headers
//! [`with_headers`] adds the Content-Security-Policy [`CSP`],
//! `X-Content-Type-Options: nosniff`, `Referrer-Policy` and
//! `X-Frame-Options: DENY` to every response.

mod client_ip;
mod headers;
mod limits;
mod origin;

pub use client_ip::{ClientIp, default_trusted_proxies};
pub use headers::{CSP, REFERRER_POLICY, with_headers};
pub use limits::{AccountKey, LimitKey, Limits, Quotas, RetryAfter};
pub use origin::{Gate, guard, origin_matches, origin_of, same_origin, same_origin_request};
