//! The load benchmark's nodes as separate hosts on one machine: each node
//! and PostgreSQL in its own network namespace with its own address and
//! its own CPU share (a cgroup), the benchmark's clients outside.

use crate::harness::Server;
use crate::netns::{Host, Lan, Postgres};
use std::net::IpAddr;

/// The hosts of a run (the nodes' hosts are the [`Lan`]'s).
pub struct Hosts {
    db: Host,
    _pg: Postgres,
    _lan: Lan,
}

impl Hosts {
    /// Starts PostgreSQL on a host with `db_share` of a core and `nodes`
    /// nodes, each on a host with `share` of a core, on a new database;
    /// the nodes get the arguments `extra`. Panics where namespaces are
    /// refused (this is a benchmark, not a test).
    pub async fn start(
        nodes: usize,
        share: f64,
        db_share: f64,
        extra: &[&str],
    ) -> (Hosts, Vec<Server>) {
        let mut lan = Lan::new("serve_load").expect("network namespaces (run as root)");
        let db = lan.host(Some(db_share)).expect("PostgreSQL's host");
        let pg = Postgres::start(&db).await.expect("PostgreSQL");
        let url = spelbord_server::store::fresh_database(&pg.url)
            .await
            .expect("a new database");
        let hosts: Vec<Host> = (0..nodes)
            .map(|_| lan.host(Some(share)).expect("a node's host"))
            .collect();
        let servers = hosts
            .iter()
            .map(|h| Server::start_in(&url, extra, h.prefix(), IpAddr::V4(h.ip)))
            .collect();
        let hosts = Hosts {
            db,
            _pg: pg,
            _lan: lan,
        };
        (hosts, servers)
    }

    /// PostgreSQL's host (whose CPU time is the database's).
    pub fn db(&self) -> Host {
        self.db.clone()
    }
}
