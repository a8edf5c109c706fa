//! Who a request comes from: the client's address (the TCP peer, or the
//! address a trusted proxy forwarded) and the key its limits are kept under
//! (an IPv4 address, or an IPv6 network of `--ipv6-prefix` bits).

use super::forwarded::{client_of, forwarded_for, x_forwarded_for};
use axum::http::HeaderMap;
use ipnet::IpNet;
use std::fmt;
use std::net::{IpAddr, Ipv6Addr};

/// The key limits are kept under: an IPv4 address, or an IPv6 network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey {
    net: IpAddr,
    prefix: u8,
}

impl ClientKey {
    /// The key of `addr` with IPv6 networks of `ipv6_prefix` bits (at most
    /// 128); an IPv4-mapped IPv6 address counts as its IPv4 address.
    pub fn of(addr: IpAddr, ipv6_prefix: u8) -> Self {
        match addr.to_canonical() {
            IpAddr::V4(v4) => ClientKey {
                net: IpAddr::V4(v4),
                prefix: 32,
            },
            IpAddr::V6(v6) => {
                let prefix = ipv6_prefix.min(128);
                let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
                ClientKey {
                    net: IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask)),
                    prefix,
                }
            }
        }
    }

    /// The network's first address (the hub keeps its caps under it).
    pub fn ip(self) -> IpAddr {
        self.net
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.net {
            IpAddr::V6(net) if self.prefix < 128 => write!(f, "{net}/{}", self.prefix),
            net => write!(f, "{net}"),
        }
    }
}

/// The header trusted proxies write the client's address in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, ...` (nginx's `$proxy_add_x_forwarded_for`).
    #[default]
    XForwardedFor,
    /// `Forwarded: for=client, for=proxy1` (RFC 7239).
    Forwarded,
}

/// The client of a request: its address and the key of its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// The client's address (the peer's, or the one a trusted proxy forwarded).
    pub addr: IpAddr,
    /// The key of the client's limits.
    pub key: ClientKey,
}

/// How clients are told apart: the IPv6 prefix that makes one client and
/// the proxies whose forwarded addresses are believed.
#[derive(Clone, Debug)]
pub struct Clients {
    /// Bits of an IPv6 address that make one client (0..=128).
    pub ipv6_prefix: u8,
    /// Proxies (addresses and networks) whose forwarded header is read.
    pub trusted_proxies: Vec<IpNet>,
    /// The header the trusted proxies write; the other one is ignored.
    pub header: ForwardedHeader,
}

impl Default for Clients {
    fn default() -> Self {
        Clients {
            ipv6_prefix: 64,
            trusted_proxies: Vec::new(),
            header: ForwardedHeader::XForwardedFor,
        }
    }
}

impl Clients {
    /// The key of `addr`'s limits.
    pub fn key(&self, addr: IpAddr) -> ClientKey {
        ClientKey::of(addr, self.ipv6_prefix)
    }

    /// Whether `addr` is a trusted proxy.
    pub fn is_trusted(&self, addr: IpAddr) -> bool {
        let addr = addr.to_canonical();
        self.trusted_proxies.iter().any(|net| net.contains(&addr))
    }

    /// The client of a request from `peer` with `headers`: the peer itself,
    /// unless it is a trusted proxy that forwarded a client address.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> Client {
        let addr = self.address(peer, headers);
        Client {
            addr,
            key: self.key(addr),
        }
    }

    fn address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.is_trusted(peer) {
            return peer;
        }
        let name = match self.header {
            ForwardedHeader::XForwardedFor => "x-forwarded-for",
            ForwardedHeader::Forwarded => "forwarded",
        };
        let values = headers.get_all(name).iter().filter_map(|v| v.to_str().ok());
        let hops = match self.header {
            ForwardedHeader::XForwardedFor => x_forwarded_for(values),
            ForwardedHeader::Forwarded => forwarded_for(values),
        };
        client_of(&hops, |hop| self.is_trusted(hop)).unwrap_or(peer)
    }
}

/// Reads a trusted proxy: an address (`127.0.0.1`, `::1`) or a network in
/// CIDR notation (`10.0.0.0/8`, `2001:db8::/32`).
pub fn parse_network(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    if let Ok(addr) = text.parse::<IpAddr>() {
        return Ok(IpNet::from(addr.to_canonical()));
    }
    text.parse::<IpNet>()
        .map(|net| net.trunc())
        .map_err(|_| format!("`{text}` is neither an address nor a network like 10.0.0.0/8"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn ipv6_addresses_of_one_64_share_a_key_and_other_64s_do_not() {
        let key = |a: &str| ClientKey::of(ip(a), 64);
        assert_eq!(
            key("2001:db8:1:2::1"),
            key("2001:db8:1:2:ffff:ffff:ffff:fffe")
        );
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("2001:db8:1:2::1").ip(), ip("2001:db8:1:2::"));
        assert_eq!(key("2001:db8:1:2::1").to_string(), "2001:db8:1:2::/64");
    }

    #[test]
    fn ipv4_addresses_have_keys_of_their_own() {
        let key = |a: &str| ClientKey::of(ip(a), 64);
        assert_ne!(key("192.0.2.1"), key("192.0.2.2"));
        assert_eq!(key("192.0.2.1").to_string(), "192.0.2.1");
    }

    #[test]
    fn ipv4_mapped_ipv6_addresses_count_as_ipv4() {
        let mapped = ClientKey::of(ip("::ffff:192.0.2.1"), 64);
        assert_eq!(mapped, ClientKey::of(ip("192.0.2.1"), 64));
        assert_ne!(mapped, ClientKey::of(ip("::ffff:192.0.2.2"), 64));
    }

    #[test]
    fn the_ipv6_prefix_is_configurable() {
        let (a, b) = (ip("2001:db8:0:1::1"), ip("2001:db8:0:2::1"));
        assert_eq!(ClientKey::of(a, 48), ClientKey::of(b, 48));
        assert_ne!(ClientKey::of(a, 64), ClientKey::of(b, 64));
        assert_ne!(
            ClientKey::of(a, 128),
            ClientKey::of(ip("2001:db8:0:1::2"), 128)
        );
        assert_eq!(ClientKey::of(a, 128).to_string(), "2001:db8:0:1::1");
        assert_eq!(ClientKey::of(a, 0), ClientKey::of(ip("::1"), 0));
        assert_eq!(ClientKey::of(a, 200), ClientKey::of(a, 128));
    }

    #[test]
    fn trusted_proxies_are_addresses_or_networks() {
        let clients = Clients {
            trusted_proxies: ["127.0.0.1", "10.0.0.0/8", "2001:db8:ff::/48"]
                .iter()
                .map(|t| parse_network(t).unwrap())
                .collect(),
            ..Clients::default()
        };
        for trusted in [
            "127.0.0.1",
            "::ffff:127.0.0.1",
            "10.9.8.7",
            "2001:db8:ff:1::5",
        ] {
            assert!(clients.is_trusted(ip(trusted)), "{trusted}");
        }
        for untrusted in ["127.0.0.2", "11.0.0.1", "2001:db8:fe::1"] {
            assert!(!clients.is_trusted(ip(untrusted)), "{untrusted}");
        }
        assert!(parse_network("10.0.0.0/33").is_err());
        assert!(parse_network("localhost").is_err());
        assert_eq!(
            parse_network("10.1.2.3/8").unwrap().to_string(),
            "10.0.0.0/8"
        );
    }

    #[test]
    fn only_a_trusted_peer_forwards_a_client_address() {
        let trusting = Clients {
            trusted_proxies: vec![parse_network("127.0.0.1").unwrap()],
            ..Clients::default()
        };
        let proxy = ip("127.0.0.1");
        let forwarded = headers(&[("x-forwarded-for", "198.51.100.1, 2001:db8::7")]);
        assert_eq!(trusting.client(proxy, &forwarded).addr, ip("2001:db8::7"));
        assert_eq!(
            trusting.client(proxy, &forwarded).key.to_string(),
            "2001:db8::/64"
        );
        // From another peer the header is ignored.
        let stranger = ip("192.0.2.9");
        assert_eq!(trusting.client(stranger, &forwarded).addr, stranger);
        assert_eq!(Clients::default().client(proxy, &forwarded).addr, proxy);
        // Garbage or nothing forwarded: the proxy itself.
        let garbage = headers(&[("x-forwarded-for", "nonsense")]);
        assert_eq!(trusting.client(proxy, &garbage).addr, proxy);
        assert_eq!(trusting.client(proxy, &HeaderMap::new()).addr, proxy);
    }

    #[test]
    fn only_the_configured_header_is_read() {
        let both = headers(&[
            ("x-forwarded-for", "198.51.100.1"),
            ("forwarded", r#"for="[2001:db8::1]:4711""#),
        ]);
        let mut clients = Clients {
            trusted_proxies: vec![parse_network("127.0.0.1").unwrap()],
            ..Clients::default()
        };
        assert_eq!(
            clients.client(ip("127.0.0.1"), &both).addr,
            ip("198.51.100.1")
        );
        clients.header = ForwardedHeader::Forwarded;
        assert_eq!(
            clients.client(ip("127.0.0.1"), &both).addr,
            ip("2001:db8::1")
        );
    }
}
