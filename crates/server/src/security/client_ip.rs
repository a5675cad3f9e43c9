//! Who the client of a request is: its address, behind a trusted proxy
//! or not (see the [`super`] documentation, "Client address").

use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::http::HeaderMap;

/// The client address of a request, as [`guard`](super::guard) found it (see the module
/// documentation): an IPv4 address, or an IPv6 address with its last 64
/// bits zeroed. Present in the extensions of every request that went
/// through [`guard`](super::guard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The client key of `ip`: IPv4-mapped IPv6 becomes IPv4, other IPv6
    /// addresses are cut to their /64 network.
    ///
    /// # Examples
    /// ```
    /// use plyyard_server::security::ClientIp;
    /// let a = ClientIp::of("2001:db8:1:2:aaaa::1".parse().unwrap());
    /// let b = ClientIp::of("2001:db8:1:2:bbbb::2".parse().unwrap());
    /// assert_eq!(a, b);
    /// assert_eq!(a.0.to_string(), "2001:db8:1:2::");
    /// assert_eq!(ClientIp::of("::ffff:10.1.2.3".parse().unwrap()).0.to_string(), "10.1.2.3");
    /// ```
    pub fn of(ip: IpAddr) -> ClientIp {
        match ip {
            IpAddr::V4(_) => ClientIp(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientIp(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    ClientIp(IpAddr::V6(Ipv6Addr::from(bits)))
                }
            },
        }
    }

    /// The client of a request from `peer` with `headers`; with
    /// `trust_proxy`, `X-Forwarded-For` is read by the rule of the module
    /// documentation.
    pub fn from_request(peer: IpAddr, headers: &HeaderMap, trust_proxy: bool) -> ClientIp {
        if !trust_proxy {
            return ClientIp::of(peer);
        }
        let entries: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        let mut rightmost = None;
        for entry in entries.iter().rev() {
            let Some(ip) = parse_forwarded_ip(entry) else {
                break;
            };
            if !is_internal(ip) {
                return ClientIp::of(ip);
            }
            rightmost.get_or_insert(ip);
        }
        ClientIp::of(rightmost.unwrap_or(peer))
    }
}

impl std::fmt::Display for ClientIp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => v4.fmt(f),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// An `X-Forwarded-For` entry: a bare address, `a.b.c.d:port` or
/// `[v6]:port`.
fn parse_forwarded_ip(entry: &str) -> Option<IpAddr> {
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Some(ip);
    }
    entry.parse::<SocketAddr>().ok().map(|s| s.ip())
}

/// Whether `ip` is on a network where only the deployer's own proxies live.
fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_internal(IpAddr::V4(v4)),
            None => v6.is_loopback() || v6.is_unique_local() || v6.is_unicast_link_local(),
        },
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn client(peer: &str, xff: &[&str], trust: bool) -> String {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        ClientIp::from_request(ip(peer), &h, trust).0.to_string()
    }

    #[test]
    fn forwarded_for_counts_only_behind_a_trusted_proxy() {
        assert_eq!(
            client("198.51.100.1", &["203.0.113.5"], false),
            "198.51.100.1"
        );
        assert_eq!(client("127.0.0.1", &["203.0.113.5"], true), "203.0.113.5");
        // No header: the peer.
        assert_eq!(client("127.0.0.1", &[], true), "127.0.0.1");
        // The right-most entry that is not internal; what the client wrote
        // on the left is never read.
        assert_eq!(
            client("10.0.0.1", &["1.1.1.1, 203.0.113.5, 10.0.0.7"], true),
            "203.0.113.5"
        );
        assert_eq!(
            client("10.0.0.1", &["1.1.1.1", "203.0.113.5, 192.168.1.2"], true),
            "203.0.113.5"
        );
        // All internal: the right-most, written by the nearest proxy.
        assert_eq!(
            client("127.0.0.1", &["192.168.1.5, 10.0.0.2"], true),
            "10.0.0.2"
        );
        // Garbage stops the walk at the last trusted address.
        assert_eq!(
            client("127.0.0.1", &["203.0.113.5, unknown"], true),
            "127.0.0.1"
        );
        assert_eq!(
            client("127.0.0.1", &["203.0.113.5, nonsense, 10.1.1.1"], true),
            "10.1.1.1"
        );
        // Ports and IPv6 forms.
        assert_eq!(
            client("127.0.0.1", &["203.0.113.5:4711"], true),
            "203.0.113.5"
        );
        assert_eq!(
            client("127.0.0.1", &["[2001:db8::1]:443"], true),
            "2001:db8::"
        );
        assert_eq!(
            client(
                "::1",
                &["2001:db8:aa:bb:cc:dd:ee:ff, fd00::1, fe80::1"],
                true
            ),
            "2001:db8:aa:bb::"
        );
        assert_eq!(client("::ffff:127.0.0.1", &[], false), "127.0.0.1");
    }
}
