//! Accounts on the real server: sign-up, sessions in a cookie, password
//! change, deletion, names, login limits, tables of signed-in players, and
//! accounts shared by nodes on one PostgreSQL database.

use crate::harness::Server;
use serde_json::{Value, json};

/// A client that sends cookies by hand (to see exactly what is set).
pub struct Browser {
    http: reqwest::Client,
    base: String,
}

/// A status, the body and the `Set-Cookie` header.
pub type Answer = (u16, Value, Option<String>);

impl Browser {
    /// A client of `server`.
    pub fn of(server: &Server) -> Browser {
        Browser {
            http: reqwest::Client::new(),
            base: server.api().base,
        }
    }

    /// A request with a JSON body (if any), a cookie and more headers.
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        cookie: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        if let Some(cookie) = cookie {
            request = request.header("cookie", format!("spelbord_session={cookie}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let set = response
            .headers()
            .get("set-cookie")
            .map(|v| v.to_str().unwrap().to_string());
        let text = response.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, body, set)
    }

    /// POST of JSON.
    pub async fn post(&self, path: &str, body: Value, cookie: Option<&str>) -> Answer {
        self.send(reqwest::Method::POST, path, Some(body), cookie, &[])
            .await
    }

    /// GET.
    pub async fn get(&self, path: &str, cookie: Option<&str>) -> Answer {
        self.send(reqwest::Method::GET, path, None, cookie, &[])
            .await
    }

    /// DELETE with a JSON body.
    pub async fn delete(&self, path: &str, body: Value, cookie: Option<&str>) -> Answer {
        self.send(reqwest::Method::DELETE, path, Some(body), cookie, &[])
            .await
    }

    /// Signs up; the session token of the cookie.
    pub async fn sign_up(&self, name: &str, password: &str) -> String {
        let (status, body, set) = self
            .post(
                "/api/accounts",
                json!({"name": name, "password": password}),
                None,
            )
            .await;
        assert_eq!(status, 201, "{body}");
        token_of(&set.expect("a cookie"))
    }

    /// Logs in; the session token of the cookie.
    pub async fn log_in(&self, name: &str, password: &str) -> String {
        let (status, body, set) = self
            .post(
                "/api/session",
                json!({"name": name, "password": password}),
                None,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        token_of(&set.expect("a cookie"))
    }

    /// Who the session cookie signs in (`null` for nobody).
    pub async fn who(&self, cookie: &str) -> Value {
        let (status, body, _) = self.get("/api/session", Some(cookie)).await;
        assert_eq!(status, 200);
        body["account"]["name"].clone()
    }
}

/// The token of a `Set-Cookie` value.
pub fn token_of(set_cookie: &str) -> String {
    let first = set_cookie.split(';').next().unwrap();
    let (name, value) = first.split_once('=').unwrap();
    assert_eq!(name, "spelbord_session");
    assert!(!value.is_empty());
    value.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_log_in_out_everywhere_change_password_and_delete() {
    let server = Server::start(&[]);
    let b = Browser::of(&server);
    let (status, body, set) = b
        .post(
            "/api/accounts",
            json!({"name": "Alice", "password": "correct horse"}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["account"]["name"], "Alice");
    let set = set.unwrap();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Lax"),
        "{set}"
    );
    assert!(set.contains("Path=/") && !set.contains("Secure"), "{set}");
    let first = token_of(&set);
    assert_eq!(b.who(&first).await, "Alice");

    // Log in (any case) and out.
    let second = b.log_in("alice", "correct horse").await;
    assert_eq!(b.who(&second).await, "Alice");
    let (status, body, set) = b.delete("/api/session", json!({}), Some(&second)).await;
    assert_eq!((status, &body["sessions_ended"]), (200, &json!(1)));
    assert!(set.unwrap().contains("Max-Age=0"));
    assert_eq!(b.who(&second).await, Value::Null);
    assert_eq!(b.who(&first).await, "Alice");

    // A password change ends the other sessions, not this one.
    let third = b.log_in("Alice", "correct horse").await;
    let fourth = b.log_in("Alice", "correct horse").await;
    let (status, body, _) = b
        .post(
            "/api/account/password",
            json!({"old": "wrong horse", "new": "battery staple"}),
            Some(&first),
        )
        .await;
    assert_eq!((status, &body["error"]["code"]), (401, &json!("bad_login")));
    let (status, body, _) = b
        .post(
            "/api/account/password",
            json!({"old": "correct horse", "new": "battery staple"}),
            Some(&first),
        )
        .await;
    assert_eq!(
        (status, &body["sessions_ended"]),
        (200, &json!(2)),
        "{body}"
    );
    assert_eq!(b.who(&third).await, Value::Null);
    assert_eq!(b.who(&fourth).await, Value::Null);
    assert_eq!(b.who(&first).await, "Alice");
    let (status, _, _) = b
        .post(
            "/api/session",
            json!({"name": "Alice", "password": "correct horse"}),
            None,
        )
        .await;
    assert_eq!(status, 401);
    let fifth = b.log_in("Alice", "battery staple").await;

    // Log out everywhere.
    let (status, body, _) = b
        .post("/api/session/logout-everywhere", json!({}), Some(&first))
        .await;
    assert_eq!(
        (status, &body["sessions_ended"]),
        (200, &json!(2)),
        "{body}"
    );
    assert_eq!(b.who(&first).await, Value::Null);
    assert_eq!(b.who(&fifth).await, Value::Null);
    let (status, body, _) = b
        .post("/api/session/logout-everywhere", json!({}), Some(&first))
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (401, &json!("not_signed_in"))
    );

    // A signed-in player creates a table and joins it without a player key.
    let me = b.log_in("Alice", "battery staple").await;
    let (status, table, _) = b
        .post("/api/tables", json!({"game": "tawla"}), Some(&me))
        .await;
    assert_eq!(status, 201, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    let (status, joined, _) = b
        .post(
            &format!("/api/tables/{id}/join"),
            json!({"seat": 0}),
            Some(&me),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    let seat = &joined["view"]["seats"][0];
    assert_eq!(
        (&seat["name"], &seat["account"]),
        (&json!("Alice"), &json!("Alice"))
    );
    let (status, mine, _) = b.get("/api/players/me/tables", Some(&me)).await;
    assert_eq!(status, 200, "{mine}");
    let tables = mine["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1, "{mine}");
    assert_eq!(tables[0]["your_seats"], json!([0]));
    assert_eq!(tables[0]["created"], json!(true));
    // A guest still joins with no account.
    let (status, guest, _) = b
        .post(
            &format!("/api/tables/{id}/join"),
            json!({"name": "Bob"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{guest}");
    assert!(
        guest["view"]["seats"][1].get("account").is_none(),
        "{guest}"
    );

    // The public profile.
    let (status, profile, _) = b.get("/api/players/ALICE", None).await;
    assert_eq!(status, 200);
    assert_eq!(profile["name"], "Alice");
    assert!(profile["created_at"].as_i64().unwrap() > 0);

    // Nothing secret is stored in clear.
    let mut stored = std::fs::read(server.db()).unwrap();
    let mut wal = server.db().into_os_string();
    wal.push("-wal");
    stored.extend(std::fs::read(&wal).unwrap_or_default());
    for secret in [
        "battery staple",
        "correct horse",
        me.as_str(),
        first.as_str(),
    ] {
        assert!(
            !stored.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{secret} is in the database file"
        );
    }

    // Deletion needs the password; then the seats show "deleted player".
    let (status, _, _) = b
        .delete("/api/account", json!({"password": "nope nope"}), Some(&me))
        .await;
    assert_eq!(status, 401);
    let (status, body, set) = b
        .delete(
            "/api/account",
            json!({"password": "battery staple"}),
            Some(&me),
        )
        .await;
    assert_eq!((status, &body), (200, &json!({"deleted": true})));
    assert!(set.unwrap().contains("Max-Age=0"));
    assert_eq!(b.who(&me).await, Value::Null);
    let (_, view, _) = b.get(&format!("/api/tables/{id}"), None).await;
    let seat = &view["seats"][0];
    assert_eq!(seat["name"], "deleted player", "{view}");
    assert_eq!(seat["account"], "deleted player", "{view}");
    assert_eq!(view["seats"][1]["name"], "Bob");
    let (status, _, _) = b.get("/api/players/Alice", None).await;
    assert_eq!(status, 404);
    let (status, _, _) = b
        .post(
            "/api/session",
            json!({"name": "Alice", "password": "battery staple"}),
            None,
        )
        .await;
    assert_eq!(status, 401);
    // The name is free again.
    b.sign_up("alice", "another password").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_unique_ignoring_case_nfkc_and_confusables() {
    let server = Server::start(&[]);
    let b = Browser::of(&server);
    b.sign_up("alice", "a good password").await;
    b.sign_up("paul", "a good password").await;
    for taken in ["ALICE", "ａｌｉｃｅ", "\u{430}lice", "pau1", "pauI"] {
        let (status, body, _) = b
            .post(
                "/api/accounts",
                json!({"name": taken, "password": "a good password"}),
                None,
            )
            .await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (409, &json!("name_taken")),
            "{taken}"
        );
    }
    for bad in [
        "ab",
        "abcdefghijklmnopqrstu",
        "a b c",
        "ab\u{200B}cd",
        "ab\u{202E}cd",
        "a<b>c",
    ] {
        let (status, body, _) = b
            .post(
                "/api/accounts",
                json!({"name": bad, "password": "a good password"}),
                None,
            )
            .await;
        assert_eq!(
            (status, &body["error"]["code"]),
            (400, &json!("bad_request")),
            "{bad:?}"
        );
    }
    let (status, _, _) = b
        .post(
            "/api/accounts",
            json!({"name": "carol", "password": "short"}),
            None,
        )
        .await;
    assert_eq!(status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_are_limited_and_an_unknown_name_answers_as_a_wrong_password() {
    let server = Server::start(&[]);
    let b = Browser::of(&server);
    b.sign_up("carol", "the right one").await;
    let unknown = b
        .post(
            "/api/session",
            json!({"name": "nobody", "password": "whatever1"}),
            None,
        )
        .await;
    let wrong = b
        .post(
            "/api/session",
            json!({"name": "carol", "password": "whatever1"}),
            None,
        )
        .await;
    assert_eq!((unknown.0, &unknown.1), (wrong.0, &wrong.1));
    assert_eq!(unknown.0, 401);
    assert!(unknown.2.is_none() && wrong.2.is_none());
    let mut limited_at = None;
    for attempt in 2..=30 {
        let (status, body, _) = b
            .post(
                "/api/session",
                json!({"name": "carol", "password": "guess guess"}),
                None,
            )
            .await;
        if status == 429 {
            limited_at = Some(attempt);
            break;
        }
        assert_eq!(status, 401, "{body}");
    }
    let limited_at = limited_at.expect("30 wrong passwords were all answered");
    assert!(limited_at < 30, "refused only at {limited_at}");
    // Limited per name: even the right password waits now.
    let (status, _, _) = b
        .post(
            "/api/session",
            json!({"name": "carol", "password": "the right one"}),
            None,
        )
        .await;
    assert_eq!(status, 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_text_and_form_posts_to_account_routes_are_refused() {
    let server = Server::start(&[]);
    let b = Browser::of(&server);
    let me = b.sign_up("dave", "a good password").await;
    let routes = [
        (reqwest::Method::POST, "/api/accounts"),
        (reqwest::Method::POST, "/api/session"),
        (reqwest::Method::DELETE, "/api/session"),
        (reqwest::Method::POST, "/api/session/logout-everywhere"),
        (reqwest::Method::POST, "/api/account/password"),
        (reqwest::Method::DELETE, "/api/account"),
    ];
    for (method, path) in routes {
        for kind in ["text/plain", "application/x-www-form-urlencoded"] {
            let (status, body, _) = b
                .send(
                    method.clone(),
                    path,
                    None,
                    Some(&me),
                    &[("content-type", kind)],
                )
                .await;
            assert_eq!(status, 415, "{method} {path} as {kind}: {body}");
        }
    }
    assert_eq!(b.who(&me).await, "dave", "nothing was done");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cookie_is_secure_behind_a_trusted_proxy_that_says_https() {
    let server = Server::start(&["--trusted-proxy", "127.0.0.1"]);
    let b = Browser::of(&server);
    let body = json!({"name": "erin", "password": "a good password"});
    let (status, _, set) = b
        .send(
            reqwest::Method::POST,
            "/api/accounts",
            Some(body.clone()),
            None,
            &[("x-forwarded-proto", "https")],
        )
        .await;
    assert_eq!(status, 201);
    let set = set.unwrap();
    assert!(set.contains("Secure") && set.contains("HttpOnly"), "{set}");
    let (_, _, set) = b.post("/api/session", body.clone(), None).await;
    assert!(!set.unwrap().contains("Secure"), "plain HTTP");

    let untrusted = Server::start(&[]);
    let b = Browser::of(&untrusted);
    let (_, _, set) = b
        .send(
            reqwest::Method::POST,
            "/api/accounts",
            Some(body.clone()),
            None,
            &[("x-forwarded-proto", "https")],
        )
        .await;
    assert!(
        !set.unwrap().contains("Secure"),
        "an untrusted peer's header"
    );

    let always = Server::start(&["--secure-cookies"]);
    let b = Browser::of(&always);
    let (_, _, set) = b.post("/api/accounts", body, None).await;
    assert!(set.unwrap().contains("Secure"), "--secure-cookies");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_made_on_one_node_logs_in_on_another() {
    let Some(url) = crate::harness::test_database().await else {
        return;
    };
    let a = Server::start_on(&url, &[]);
    let b = Server::start_on(&url, &[]);
    let on_a = Browser::of(&a);
    let on_b = Browser::of(&b);
    let made = on_a.sign_up("frank", "a good password").await;
    assert_eq!(
        on_b.who(&made).await,
        "frank",
        "a session of A is seen on B"
    );
    let (status, _, _) = on_b
        .post(
            "/api/accounts",
            json!({"name": "FRANK", "password": "a good password"}),
            None,
        )
        .await;
    assert_eq!(status, 409);
    let there = on_b.log_in("frank", "a good password").await;
    let (status, _, _) = on_a
        .post("/api/session/logout-everywhere", json!({}), Some(&there))
        .await;
    assert_eq!(status, 200);
    assert_eq!(on_b.who(&made).await, Value::Null);
    assert_eq!(on_a.who(&there).await, Value::Null);
}
