//! Who a client is: limits kept per IPv6 /64 (and per IPv4 address), the
//! client address a trusted proxy forwards (ignored from anyone else), the
//! `Host` checked against the public origins, WebSocket upgrades from
//! other sites' pages refused, and refusals logged sparingly.

use crate::harness::{Api, Server};
use serde_json::json;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A rate so slow that no token comes back during a test, after a burst
/// of three requests.
const BUDGET_OF_THREE: [&str; 4] = ["--rate-limit", "0.0001", "--rate-burst", "3"];

/// The statuses of `/api/health` asked once as each forwarded address.
async fn statuses(api: &Api, header: &str, forwarded: &[String]) -> Vec<u16> {
    let mut statuses = Vec::new();
    for value in forwarded {
        let (status, _) = api.get_with("/api/health", &[(header, value)]).await;
        statuses.push(status);
    }
    statuses
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn addresses_of_one_ipv6_64_behind_a_trusted_proxy_share_one_budget() {
    let mut args = BUDGET_OF_THREE.to_vec();
    args.extend(["--trusted-proxy", "127.0.0.1"]);
    let server = Server::start(&args);
    let api = server.api();
    // Six addresses of one /64: three requests in all get through.
    let one_net: Vec<String> = (1..=6).map(|n| format!("2001:db8::{n:x}")).collect();
    assert_eq!(
        statuses(&api, "x-forwarded-for", &one_net).await,
        [200, 200, 200, 429, 429, 429]
    );
    // Other /64s (one of them next door) have budgets of their own.
    let other_nets: Vec<String> = (1..=4).map(|n| format!("2001:db8:0:{n}::1")).collect();
    assert_eq!(
        statuses(&api, "x-forwarded-for", &other_nets).await,
        [200; 4]
    );
    // IPv4 addresses are clients one by one, and the proxy itself is one.
    let ipv4: Vec<String> = (1..=4).map(|n| format!("198.51.100.{n}")).collect();
    assert_eq!(statuses(&api, "x-forwarded-for", &ipv4).await, [200; 4]);
    let (status, _) = api.get("/api/health", None).await;
    assert_eq!(status, 200, "the proxy's own budget is untouched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_the_forwarded_client_is_the_rightmost_untrusted_hop() {
    let mut args = BUDGET_OF_THREE.to_vec();
    args.extend([
        "--trusted-proxy",
        "127.0.0.1",
        "--trusted-proxy",
        "10.0.0.0/8",
    ]);
    let server = Server::start(&args);
    let api = server.api();
    // The client-sent (forged) leftmost entries change; the hop the proxies
    // saw, 203.0.113.5, stays: one budget.
    let forged: Vec<String> = (1..=4)
        .map(|n| format!("192.0.2.{n}, 203.0.113.5, 10.1.2.3"))
        .collect();
    assert_eq!(
        statuses(&api, "x-forwarded-for", &forged).await,
        [200, 200, 200, 429]
    );
    let (status, body) = api
        .get_with("/api/health", &[("x-forwarded-for", "203.0.113.6")])
        .await;
    assert_eq!(status, 200, "another client: {body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_forwarded_header_is_read_when_configured() {
    let mut args = BUDGET_OF_THREE.to_vec();
    args.extend([
        "--trusted-proxy",
        "127.0.0.1",
        "--forwarded-header",
        "forwarded",
    ]);
    let server = Server::start(&args);
    let api = server.api();
    let one_net: Vec<String> = (1..=4)
        .map(|n| format!("for=\"[2001:db8:7::{n}]:4711\";proto=https"))
        .collect();
    assert_eq!(
        statuses(&api, "forwarded", &one_net).await,
        [200, 200, 200, 429]
    );
    let other = vec!["for=\"[2001:db8:8::1]\"".to_string()];
    assert_eq!(statuses(&api, "forwarded", &other).await, [200]);
    // X-Forwarded-For is not read now: the proxy's own budget.
    let xff: Vec<String> = (1..=4).map(|n| format!("198.51.100.{n}")).collect();
    assert_eq!(
        statuses(&api, "x-forwarded-for", &xff).await,
        [200, 200, 200, 429]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_an_untrusted_peer_forwarded_headers_are_ignored() {
    let server = Server::start(&BUDGET_OF_THREE);
    let api = server.api();
    let forwarded: Vec<String> = (1..=4).map(|n| format!("2001:db8:{n}::1")).collect();
    assert_eq!(
        statuses(&api, "x-forwarded-for", &forwarded).await,
        [200, 200, 200, 429]
    );
    let (status, _) = api
        .get_with("/api/health", &[("forwarded", "for=198.51.100.1")])
        .await;
    assert_eq!(status, 429, "all share the peer's budget");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_not_among_the_public_origins_is_refused() {
    let server = Server::start(&[
        "--public-origin",
        "https://play.example",
        "--public-origin",
        "http://other.example:8080",
    ]);
    let api = server.api();
    for host in ["play.example", "PLAY.example:443", "other.example:8080"] {
        let (status, body) = api.get_with("/api/games", &[("host", host)]).await;
        assert_eq!(status, 200, "{host}: {body}");
    }
    let port = server.base.rsplit(':').next().unwrap().to_string();
    for host in [
        "evil.example",
        "play.example:80",
        &format!("127.0.0.1:{port}"),
    ] {
        let (status, body) = api.get_with("/api/games", &[("host", host)]).await;
        assert_eq!(status, 421, "{host}: {body}");
        assert_eq!(body["error"]["code"], "wrong_host", "{host}");
        let (status, _) = api.get_with("/", &[("host", host)]).await;
        assert_eq!(status, 421, "the page too, for {host}");
    }
    // The health check answers for any host (checks by address).
    let (status, _) = api.get("/api/health", None).await;
    assert_eq!(status, 200);
    // The document says so.
    let (_, doc) = api
        .get_with("/api/openapi.json", &[("host", "play.example")])
        .await;
    let responses = &doc["paths"]["/api/tables/{id}/ws"]["get"]["responses"];
    assert!(responses["421"].is_object() && responses["403"].is_object());
    assert!(doc["paths"]["/api/health"]["get"]["responses"]["421"].is_null());
    // Without public origins any host is answered.
    let open = Server::start(&[]);
    let (status, _) = open
        .api()
        .get_with("/api/games", &[("host", "evil.example")])
        .await;
    assert_eq!(status, 200);
}

/// The status of a WebSocket upgrade to `table` with these extra headers.
async fn upgrade_status(server: &Server, table: &str, headers: &[(&str, &str)]) -> u16 {
    let url = format!(
        "{}/api/tables/{table}/ws",
        server.base.replacen("http", "ws", 1)
    );
    let mut request = url.into_client_request().expect("a request");
    for (name, value) in headers {
        request.headers_mut().insert(
            tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().unwrap(),
        );
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((_, response)) => response.status().as_u16(),
        Err(tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("the upgrade failed: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_upgrade_from_another_sites_page_is_refused() {
    let server = Server::start(&["--public-origin", "https://play.example"]);
    let api = Api::new(&server.base);
    let own = server.base.clone();
    let (status, table) = api
        .post_with(
            "/api/tables",
            &json!({"game": "tawla", "seats": ["open", "open"]}),
            &[("host", "play.example")],
        )
        .await;
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap();
    // Not a browser (no Origin), a page of the public origin, or a page of
    // the host the request names: upgraded.
    let public = [("host", "play.example"), ("origin", "https://play.example")];
    assert_eq!(
        upgrade_status(&server, id, &[("host", "play.example")]).await,
        101
    );
    assert_eq!(upgrade_status(&server, id, &public).await, 101);
    let same_origin = [
        ("host", "play.example:443"),
        ("origin", "https://play.example"),
    ];
    assert_eq!(upgrade_status(&server, id, &same_origin).await, 101);
    // Pages of other sites (another port of the host is another site):
    // refused.
    let other_port = "https://play.example:8443";
    for origin in [
        "https://evil.example",
        "http://play.example",
        other_port,
        "null",
        &own,
    ] {
        let foreign = [("host", "play.example:443"), ("origin", origin)];
        assert_eq!(
            upgrade_status(&server, id, &foreign).await,
            403,
            "origin {origin}"
        );
    }
    // Without public origins, the same origin as the host is allowed.
    let open = Server::start(&[]);
    let table = open
        .api()
        .create("tawla", json!({}), &["open".into(), "open".into()])
        .await;
    let id = table["id"].as_str().unwrap();
    let base = open.base.clone();
    let same = [("origin", base.as_str())];
    assert_eq!(upgrade_status(&open, id, &same).await, 101);
    assert_eq!(
        upgrade_status(&open, id, &[("origin", "https://evil.example")]).await,
        403
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_refusals_is_logged_as_a_line_or_two_per_client() {
    let server = Server::start_logged("info", &["--rate-limit", "0.0001", "--rate-burst", "1"]);
    let api = server.api();
    for _ in 0..300 {
        api.get("/api/health", None).await;
    }
    let log = server.log();
    let lines = log.lines().filter(|l| l.contains("refused")).count();
    assert!(
        (1..=2).contains(&lines),
        "{lines} lines about refusals:\n{log}"
    );
}
