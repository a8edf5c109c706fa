//! The OpenAPI document checked against real answers: every answer of a
//! session that uses every route is validated against the schema the
//! document gives for its route and status. Objects may carry only the
//! properties the document names (unless it allows more), so a field added
//! to an answer without documenting it fails here.

use crate::harness::{Api, Server};
use serde_json::{Value, json};

/// Checks `value` against `schema` (the subset of JSON Schema the document
/// uses: `$ref`, `type`, `enum`, `required`, `properties`,
/// `additionalProperties`, `items`); returns the first problem.
pub fn check(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.trim_start_matches("#/components/schemas/");
        let target = &doc["components"]["schemas"][name];
        assert!(!target.is_null(), "unknown schema {reference}");
        return check(doc, target, value, at);
    }
    if let Some(types) = schema.get("type") {
        let types: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let fits = types.iter().any(|t| match *t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            _ => false,
        });
        if !fits {
            return Err(format!("{at}: {value} is not of type {types:?}"));
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !value.is_null()
        && !allowed.contains(value)
    {
        return Err(format!("{at}: {value} is not one of {allowed:?}"));
    }
    if let Some(object) = value.as_object() {
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let key = key.as_str().unwrap();
            if !object.contains_key(key) {
                return Err(format!("{at}: `{key}` is missing"));
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        let extra = schema.get("additionalProperties");
        for (key, item) in object {
            match (properties.and_then(|p| p.get(key)), extra) {
                (Some(s), _) => check(doc, s, item, &format!("{at}.{key}"))?,
                (None, Some(Value::Bool(false))) => {
                    return Err(format!("{at}: `{key}` is not allowed"));
                }
                (None, Some(s)) if s.is_object() => check(doc, s, item, &format!("{at}.{key}"))?,
                (None, Some(_)) => {}
                (None, None) if properties.is_some() => {
                    return Err(format!("{at}: `{key}` is not in the document"));
                }
                (None, None) => {}
            }
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        for (i, item) in array.iter().enumerate() {
            check(doc, items, item, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

/// Answers seen, checked against the document.
struct Checker {
    doc: Value,
    api: Api,
    seen: Vec<(String, String)>,
}

impl Checker {
    fn validate(&mut self, method: &str, route: &str, status: u16, body: &Value) {
        let operation = &self.doc["paths"][route][method];
        assert!(
            !operation.is_null(),
            "{method} {route} is not in the document"
        );
        let response = &operation["responses"][status.to_string()];
        assert!(
            !response.is_null(),
            "{method} {route} answered {status}, which the document does not list: {body}"
        );
        let schema = &response["content"]["application/json"]["schema"];
        if let Err(problem) = check(&self.doc, schema, body, "body") {
            panic!("{method} {route} {status}: {problem}\n{body}");
        }
        if status >= 400 {
            let message = body["error"]["message"].as_str().unwrap_or_default();
            for leak in ["sqlx", "SQLITE", "database error", "panicked", "src/"] {
                assert!(!message.contains(leak), "an internal message: {message}");
            }
        }
        self.seen.push((method.into(), route.into()));
    }

    async fn get(&mut self, route: &str, path: &str, token: Option<&str>) -> (u16, Value) {
        let (status, body) = self.api.get(path, token).await;
        self.validate("get", route, status, &body);
        (status, body)
    }

    async fn post(
        &mut self,
        route: &str,
        path: &str,
        body: Value,
        token: Option<&str>,
    ) -> (u16, Value) {
        let (status, answer) = self.api.post(path, &body, token).await;
        self.validate("post", route, status, &answer);
        (status, answer)
    }

    async fn post_keyed(&mut self, route: &str, path: &str, key: &str) -> (u16, Value) {
        let (status, answer) = self
            .api
            .post_with(path, &json!({}), &[("x-player-key", key)])
            .await;
        self.validate("post", route, status, &answer);
        (status, answer)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_matches_the_openapi_document() {
    let server = Server::start(&[]);
    let api = server.api();
    let (status, doc) = api.get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    let mut c = Checker {
        doc,
        api,
        seen: Vec::new(),
    };
    let key = "openapi-player-key-0123456789";
    c.get("/api/health", "/api/health", None).await;
    c.get("/api/games", "/api/games", None).await;
    c.get("/api/games/{game}", "/api/games/tawla", None).await;
    c.get("/api/games/{game}", "/api/games/chess", None).await;
    let (_, table) = c
        .post(
            "/api/tables",
            "/api/tables",
            json!({"game": "tawla", "player": key, "seats": ["open", "ai:random"]}),
            None,
        )
        .await;
    c.post("/api/tables", "/api/tables", json!({"game": "chess"}), None)
        .await;
    let id = table["id"].as_str().unwrap().to_string();
    let t = |suffix: &str| format!("/api/tables/{id}{suffix}");
    c.get("/api/tables/{id}", &t(""), None).await;
    c.get(
        "/api/tables/{id}",
        "/api/tables/0123456789abcdef01234567",
        None,
    )
    .await;
    let (_, joined) = c
        .post(
            "/api/tables/{id}/join",
            &t("/join"),
            json!({"seat": 0, "name": "Ada", "key": "join-key-0123456789ab", "seed": "s1"}),
            None,
        )
        .await;
    c.post(
        "/api/tables/{id}/join",
        &t("/join"),
        json!({"seat": 1}),
        None,
    )
    .await;
    let token = joined["token"].as_str().unwrap().to_string();
    let (_, view) = c.get("/api/tables/{id}", &t(""), Some(&token)).await;
    c.get("/api/tables/{id}/record", &t("/record"), None).await;
    c.get("/api/tables/{id}/replay", &t("/replay"), None).await;
    c.get("/api/tables/{id}/seat-link", &t("/seat-link"), Some(&token))
        .await;
    c.get("/api/players/me/tables", "/api/players/me/tables", None)
        .await;
    let (status, mine) = c
        .api
        .get_with("/api/players/me/tables", &[("x-player-key", key)])
        .await;
    c.validate("get", "/api/players/me/tables", status, &mine);
    // Seat 0's hints: the hints, or `not_your_turn` if the AI is to move.
    c.get("/api/tables/{id}/hints", &t("/hints"), Some(&token))
        .await;
    if view["state"]["turn"]["seat"] == 0 {
        let legal = &view["state"]["legal"][0];
        let version = view["version"].clone();
        c.post(
            "/api/tables/{id}/actions",
            &t("/actions"),
            json!({"version": version, "json": legal["json"]}),
            Some(&token),
        )
        .await;
    }
    c.post(
        "/api/tables/{id}/actions",
        &t("/actions"),
        json!({"version": 0, "action": "24/18"}),
        Some(&token),
    )
    .await;
    c.post(
        "/api/tables/{id}/analysis",
        &t("/analysis"),
        json!({}),
        None,
    )
    .await;
    c.get(
        "/api/hints",
        "/api/hints?position=4HPkASjgc%2FABMA%3AcIkFAAAAAAAA",
        None,
    )
    .await;
    c.get("/api/hints", "/api/hints?position=4HPkASjgc%2FABMA", None)
        .await;
    c.post_keyed("/api/tables/{id}/close", &t("/close"), key)
        .await;
    // The seat's settings, and a clocked table with its clocks running.
    c.post(
        "/api/tables/{id}/settings",
        &t("/settings"),
        json!({"auto_roll": "always"}),
        Some(&token),
    )
    .await;
    c.post(
        "/api/tables/{id}/settings",
        &t("/settings"),
        json!({"auto_roll": "never"}),
        Some(&token),
    )
    .await;
    let (_, clocked) = c
        .post(
            "/api/tables",
            "/api/tables",
            json!({"game": "backgammon", "clock": {"initial_s": 60, "delay_s": 12, "per_game_s": 30}}),
            None,
        )
        .await;
    c.post(
        "/api/tables",
        "/api/tables",
        json!({"game": "backgammon", "clock": {"initial_s": 0}}),
        None,
    )
    .await;
    let clocked_id = clocked["id"].as_str().unwrap().to_string();
    for seat in [0, 1] {
        c.post(
            "/api/tables/{id}/join",
            &format!("/api/tables/{clocked_id}/join"),
            json!({"seat": seat, "auto_roll": "ask"}),
            None,
        )
        .await;
    }
    c.get(
        "/api/tables/{id}",
        &format!("/api/tables/{clocked_id}"),
        None,
    )
    .await;
    c.get(
        "/api/tables/{id}/record",
        &format!("/api/tables/{clocked_id}/record"),
        None,
    )
    .await;
    c.post(
        "/api/tables/{id}/resign",
        &t("/resign"),
        json!({}),
        Some(&token),
    )
    .await;
    c.post(
        "/api/tables/{id}/resign",
        &t("/resign"),
        json!({}),
        Some(&token),
    )
    .await;
    c.get("/api/tables/{id}/hints", &t("/hints"), Some(&token))
        .await;
    c.get("/api/tables/{id}/record", &t("/record"), None).await;
    // The finished table's rematch: made, asked for again, joined.
    let (_, made) = c
        .post(
            "/api/tables/{id}/rematch",
            &t("/rematch"),
            json!({"player": key}),
            Some(&token),
        )
        .await;
    c.post(
        "/api/tables/{id}/rematch",
        &t("/rematch"),
        json!({}),
        Some(&token),
    )
    .await;
    let rematch = made["rematch"].as_str().unwrap();
    c.post(
        "/api/tables/{id}/join",
        &format!("/api/tables/{rematch}/join"),
        json!({"rematch_token": token}),
        None,
    )
    .await;
    c.get("/api/tables/{id}", &format!("/api/tables/{rematch}"), None)
        .await;
    // The finished game's analysis: asked for, then read until done.
    c.get("/api/tables/{id}/analysis", &t("/analysis"), None)
        .await;
    c.post(
        "/api/tables/{id}/analysis",
        &t("/analysis"),
        json!({}),
        None,
    )
    .await;
    for _ in 0..1200 {
        let (_, a) = c
            .get("/api/tables/{id}/analysis", &t("/analysis"), None)
            .await;
        if a["status"] == "done" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (status, done) = c
        .get("/api/tables/{id}/analysis", &t("/analysis"), None)
        .await;
    assert_eq!((status, &done["status"]), (200, &json!("done")), "{done}");
    let (_, open) = c
        .post(
            "/api/tables",
            "/api/tables",
            json!({"game": "tawla", "player": key}),
            None,
        )
        .await;
    let open_id = open["id"].as_str().unwrap();
    // A table its creator lists shows in the lobby's list of open tables.
    let (_, listed) = c
        .post(
            "/api/tables",
            "/api/tables",
            json!({"game": "tawla", "seats": ["open", "ai:random"], "listed": true}),
            None,
        )
        .await;
    let (status, page) = c.get("/api/tables", "/api/tables?list=open", None).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = page["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&listed["id"].as_str().unwrap()), "{page}");
    assert!(!ids.contains(&open_id), "an unlisted table is not shown");
    let (status, _) = c
        .get("/api/tables", "/api/tables?list=live&page=1", None)
        .await;
    assert_eq!(status, 200);
    let (status, _) = c.get("/api/tables", "/api/tables?list=all", None).await;
    assert_eq!(status, 400);
    c.post_keyed(
        "/api/tables/{id}/close",
        &format!("/api/tables/{open_id}/close"),
        key,
    )
    .await;

    // The account routes, with the session cookie.
    let b = crate::accounts::Browser::of(&server);
    let credentials = json!({"name": "openapi", "password": "a good password"});
    let post = reqwest::Method::POST;
    let delete = reqwest::Method::DELETE;
    let get = reqwest::Method::GET;
    let calls: Vec<(reqwest::Method, &str, &str, Option<Value>, bool)> = vec![
        (
            post.clone(),
            "/api/accounts",
            "/api/accounts",
            Some(json!({"name": "x"})),
            false,
        ),
        (
            post.clone(),
            "/api/accounts",
            "/api/accounts",
            Some(credentials.clone()),
            false,
        ),
        (
            post.clone(),
            "/api/accounts",
            "/api/accounts",
            Some(credentials.clone()),
            false,
        ),
        (
            post.clone(),
            "/api/session",
            "/api/session",
            Some(json!({"name": "openapi", "password": "wrong one"})),
            false,
        ),
        (
            post.clone(),
            "/api/session",
            "/api/session",
            Some(credentials.clone()),
            false,
        ),
        (
            reqwest::Method::GET,
            "/api/session",
            "/api/session",
            None,
            true,
        ),
        (
            reqwest::Method::GET,
            "/api/session",
            "/api/session",
            None,
            false,
        ),
        (
            reqwest::Method::GET,
            "/api/players/{name}",
            "/api/players/OpenAPI",
            None,
            false,
        ),
        (
            reqwest::Method::GET,
            "/api/players/{name}",
            "/api/players/nobody",
            None,
            false,
        ),
        (
            reqwest::Method::GET,
            "/api/ratings",
            "/api/ratings",
            None,
            false,
        ),
        (
            reqwest::Method::GET,
            "/api/ratings/{pool}",
            "/api/ratings/tawla",
            None,
            false,
        ),
        (
            reqwest::Method::GET,
            "/api/ratings/{pool}",
            "/api/ratings/chess",
            None,
            false,
        ),
        (
            reqwest::Method::GET,
            "/api/players/me/tables",
            "/api/players/me/tables",
            None,
            true,
        ),
        (
            post.clone(),
            "/api/account/password",
            "/api/account/password",
            Some(json!({"old": "a good password", "new": "a better password"})),
            true,
        ),
        (
            post.clone(),
            "/api/account/password",
            "/api/account/password",
            Some(json!({"old": "a good password", "new": "a better password"})),
            true,
        ),
        (
            delete.clone(),
            "/api/session",
            "/api/session",
            Some(json!({})),
            false,
        ),
        (
            post.clone(),
            "/api/session/logout-everywhere",
            "/api/session/logout-everywhere",
            Some(json!({})),
            false,
        ),
        (
            delete.clone(),
            "/api/account",
            "/api/account",
            Some(json!({"password": "wrong one"})),
            true,
        ),
        (
            delete.clone(),
            "/api/account",
            "/api/account",
            Some(json!({"password": "a better password"})),
            true,
        ),
        (
            post.clone(),
            "/api/session/logout-everywhere",
            "/api/session/logout-everywhere",
            Some(json!({})),
            true,
        ),
        (
            delete.clone(),
            "/api/session",
            "/api/session",
            Some(json!({})),
            true,
        ),
    ];
    let mut cookie: Option<String> = None;
    for (method, route, path, body, with_cookie) in calls {
        let sent = if with_cookie { cookie.as_deref() } else { None };
        let (status, answer, set) = b.send(method.clone(), path, body, sent, &[]).await;
        let name = method.as_str().to_lowercase();
        c.validate(&name, route, status, &answer);
        if let Some(set) = set.filter(|s| !s.contains("Max-Age=0")) {
            cookie = Some(crate::accounts::token_of(&set));
        }
    }

    // Seeks and quick pairing, as guests.
    let (ka, kb) = ("openapi-seek-owner-key-0123", "openapi-seek-taker-key-0123");
    let seek_calls = |id: &str| {
        vec![
            (
                post.clone(),
                "/api/seeks/{id}/accept".to_string(),
                format!("/api/seeks/{id}/accept"),
                Some(json!({"player_key": kb})),
            ),
            (
                get.clone(),
                "/api/seeks/{id}".into(),
                format!("/api/seeks/{id}?player_key={ka}"),
                None,
            ),
            (
                post.clone(),
                "/api/seeks/{id}/accept".into(),
                format!("/api/seeks/{id}/accept"),
                Some(json!({"player_key": kb})),
            ),
        ]
    };
    let mut posted = Vec::new();
    for _ in 0..2 {
        let (status, answer, _) = b
            .send(
                post.clone(),
                "/api/seeks",
                Some(json!({"game": "tawla", "player_key": ka})),
                None,
                &[],
            )
            .await;
        c.validate("post", "/api/seeks", status, &answer);
        posted.push(answer["seek"]["id"].as_str().unwrap().to_string());
    }
    let (first, second) = (&posted[0], &posted[1]);
    let mut calls = vec![
        (
            get.clone(),
            "/api/seeks".to_string(),
            "/api/seeks?game=tawla".to_string(),
            None,
        ),
        (
            get.clone(),
            "/api/seeks/{id}".into(),
            format!("/api/seeks/{first}?player_key={ka}"),
            None,
        ),
        (
            post.clone(),
            "/api/seeks/{id}/accept".into(),
            format!("/api/seeks/{first}/accept"),
            Some(json!({"player_key": ka})),
        ),
    ];
    calls.extend(seek_calls(first));
    calls.extend([
        (
            delete.clone(),
            "/api/seeks/{id}".into(),
            format!("/api/seeks/{second}?player_key={ka}"),
            None,
        ),
        (
            delete.clone(),
            "/api/seeks/{id}".into(),
            format!("/api/seeks/{second}?player_key={ka}"),
            None,
        ),
        (
            get.clone(),
            "/api/pairing".into(),
            "/api/pairing".into(),
            None,
        ),
        (
            post.clone(),
            "/api/pairing".into(),
            "/api/pairing".into(),
            Some(json!({"pool": "tawla-1-fast", "player_key": ka})),
        ),
        (
            post.clone(),
            "/api/pairing".into(),
            "/api/pairing".into(),
            Some(json!({"pool": "no-such-pool", "player_key": ka})),
        ),
        (
            delete.clone(),
            "/api/pairing".into(),
            format!("/api/pairing?player_key={ka}"),
            None,
        ),
    ]);
    for (method, route, path, body) in calls {
        let (status, answer, _) = b.send(method.clone(), &path, body, None, &[]).await;
        c.validate(&method.as_str().to_lowercase(), &route, status, &answer);
    }

    // Every route of the document was exercised (the WebSocket has its own tests).
    let paths = c.doc["paths"].as_object().unwrap().clone();
    for (route, methods) in &paths {
        for method in methods.as_object().unwrap().keys() {
            if route.ends_with("/ws") || route == "/api/openapi.json" {
                continue;
            }
            assert!(
                c.seen.iter().any(|(m, r)| m == method && r == route),
                "{method} {route} was never checked"
            );
        }
    }
}

#[test]
fn the_checker_catches_undocumented_and_mistyped_fields() {
    let doc = json!({"components": {"schemas": {"T": {
        "type": "object", "required": ["a"],
        "properties": {"a": {"type": "integer"}, "b": {"type": ["string", "null"]}}
    }}}});
    let schema = json!({"$ref": "#/components/schemas/T"});
    assert!(check(&doc, &schema, &json!({"a": 1, "b": null}), "x").is_ok());
    assert!(check(&doc, &schema, &json!({"a": 1, "c": 2}), "x").is_err());
    assert!(check(&doc, &schema, &json!({"a": "1"}), "x").is_err());
    assert!(check(&doc, &schema, &json!({"b": "s"}), "x").is_err());
}
