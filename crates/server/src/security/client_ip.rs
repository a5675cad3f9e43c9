//! Who the client of a request is: its address, behind a trusted proxy
//! or not (see the [`super`] documentation, "Client address").

use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The proxies trusted when none are named: a proxy on this machine.
pub fn default_trusted_proxies() -> Vec<IpNet> {
    ["127.0.0.0/8", "::1/128"]
        .iter()
        .map(|n| n.parse().expect("a network"))
        .collect()
}

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

    /// The client of a request from `peer` with `headers`; behind
    /// `proxies` (`None`: no proxy is trusted), `X-Forwarded-For` is read
    /// by the rule of the module documentation.
    pub fn from_request(peer: IpAddr, headers: &HeaderMap, proxies: Option<&[IpNet]>) -> ClientIp {
        let Some(proxies) = proxies else {
            return ClientIp::of(peer);
        };
        let trusted = |ip: IpAddr| proxies.iter().any(|n| n.contains(&canonical(ip)));
        if !trusted(peer) {
            return ClientIp::of(peer);
        }
        let entries: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        let mut nearest = peer;
        for entry in entries.iter().rev() {
            let Some(ip) = parse_forwarded_ip(entry) else {
                break;
            };
            if !trusted(ip) {
                return ClientIp::of(ip);
            }
            nearest = ip;
        }
        ClientIp::of(nearest)
    }
}

/// IPv4-mapped IPv6 addresses as IPv4, others as they are.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
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

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn client_behind(peer: &str, xff: &[&str], proxies: Option<&[&str]>) -> String {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        let nets: Option<Vec<IpNet>> =
            proxies.map(|p| p.iter().map(|n| n.parse().unwrap()).collect());
        ClientIp::from_request(ip(peer), &h, nets.as_deref())
            .0
            .to_string()
    }

    /// Behind the default proxies (this machine's), or none.
    fn client(peer: &str, xff: &[&str], trust: bool) -> String {
        let local = ["127.0.0.0/8", "::1/128"];
        client_behind(peer, xff, trust.then_some(&local[..]))
    }

    #[test]
    fn forwarded_for_counts_only_behind_a_trusted_proxy() {
        assert_eq!(
            client("198.51.100.1", &["203.0.113.5"], false),
            "198.51.100.1"
        );
        assert_eq!(client("127.0.0.1", &["203.0.113.5"], true), "203.0.113.5");
        // A peer that is no trusted proxy: its header is not read.
        assert_eq!(client("10.0.0.1", &["203.0.113.5"], true), "10.0.0.1");
        // No header: the peer.
        assert_eq!(client("127.0.0.1", &[], true), "127.0.0.1");
        // The right-most entry that is no trusted proxy; what the client
        // wrote on the left is never read.
        let lan = ["127.0.0.0/8", "10.0.0.0/8"];
        assert_eq!(
            client_behind("10.0.0.1", &["1.1.1.1, 203.0.113.5, 10.0.0.7"], Some(&lan)),
            "203.0.113.5"
        );
        assert_eq!(
            client_behind(
                "127.0.0.1",
                &["1.1.1.1", "203.0.113.5, 10.1.2.3"],
                Some(&lan)
            ),
            "203.0.113.5"
        );
        // A client on a private network is a client like any other: what
        // it wrote itself is not read (it could pick any address).
        assert_eq!(
            client("127.0.0.1", &["203.0.113.9, 192.168.1.50"], true),
            "192.168.1.50"
        );
        // All trusted: the nearest proxy's own entry.
        assert_eq!(
            client_behind("127.0.0.1", &["10.0.0.2"], Some(&lan)),
            "10.0.0.2"
        );
        // Garbage stops the walk at the last trusted address.
        assert_eq!(
            client("127.0.0.1", &["203.0.113.5, unknown"], true),
            "127.0.0.1"
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
            client_behind(
                "::1",
                &["2001:db8:aa:bb:cc:dd:ee:ff, fd00::1"],
                Some(&["::1/128", "fd00::/8"])
            ),
            "2001:db8:aa:bb::"
        );
        assert_eq!(
            client("::ffff:127.0.0.1", &["203.0.113.5"], true),
            "203.0.113.5"
        );
        assert_eq!(client("::ffff:127.0.0.1", &[], false), "127.0.0.1");
    }
}
