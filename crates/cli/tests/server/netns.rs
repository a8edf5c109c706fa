//! Hosts on one machine: network namespaces on a bridge of their own, each
//! with its own address and, if asked, its own share of the CPU (a cgroup),
//! a private PostgreSQL on one of them, and links cut and healed between
//! them (blackhole routes on both sides). Everything is removed on drop,
//! also when a test panics. Needs root and a kernel that allows network
//! namespaces; [`Lan::new`] says `SKIPPED: …` where it cannot make one.

use std::ffi::OsString;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

static NEXT_LAN: AtomicU32 = AtomicU32::new(0);

/// Runs `ip` with `args`; its standard error if it fails.
fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("ip {}: {e}", args.join(" ")))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Runs `ip` in namespace `ns`.
fn ip_in(ns: &str, args: &[&str]) -> Result<(), String> {
    let mut all = vec!["netns", "exec", ns, "ip"];
    all.extend_from_slice(args);
    ip(&all)
}

/// The cgroup folders that give a host its CPU share and count its CPU.
#[derive(Clone, Debug)]
struct Cgroup {
    /// Folders to put a process in (v1: `cpu` and `cpuacct`; v2: one).
    dirs: Vec<PathBuf>,
    /// The file with the group's CPU time and whether it is in ns (v1
    /// `cpuacct.usage`) or in `usage_usec` lines (v2 `cpu.stat`).
    usage: PathBuf,
}

impl Cgroup {
    /// A new group named `name` limited to `share` of one core, in periods
    /// of 10 ms (so that a group that used its share waits at most that
    /// long, not the default 100 ms).
    fn new(name: &str, share: f64) -> Result<Cgroup, String> {
        let quota = (share * 10_000.0).round().max(1000.0) as u64;
        let v1 = Path::new("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
        let write = |path: PathBuf, text: String| {
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
        };
        let make =
            |dir: &Path| std::fs::create_dir(dir).map_err(|e| format!("{}: {e}", dir.display()));
        if v1.exists() {
            let cpu = Path::new("/sys/fs/cgroup/cpu").join(name);
            let acct = Path::new("/sys/fs/cgroup/cpuacct").join(name);
            make(&cpu)?;
            write(cpu.join("cpu.cfs_period_us"), "10000".into())?;
            write(cpu.join("cpu.cfs_quota_us"), quota.to_string())?;
            // A weight of eight processes: on a busy machine the group
            // still gets its share (and never more).
            write(cpu.join("cpu.shares"), "8192".into())?;
            let mut dirs = vec![cpu];
            // Where cpuacct is mounted with cpu, the one folder counts too.
            let usage = if Path::new("/sys/fs/cgroup/cpuacct/cpuacct.usage").exists()
                && !dirs[0].join("cpuacct.usage").exists()
            {
                make(&acct)?;
                dirs.push(acct.clone());
                acct.join("cpuacct.usage")
            } else {
                dirs[0].join("cpuacct.usage")
            };
            return Ok(Cgroup { dirs, usage });
        }
        let dir = Path::new("/sys/fs/cgroup").join(name);
        make(&dir)?;
        write(dir.join("cpu.max"), format!("{quota} 10000"))?;
        write(dir.join("cpu.weight"), "800".into())?;
        Ok(Cgroup {
            usage: dir.join("cpu.stat"),
            dirs: vec![dir],
        })
    }

    /// The group's CPU time so far, in milliseconds.
    fn cpu_ms(&self) -> f64 {
        let text = std::fs::read_to_string(&self.usage).unwrap_or_default();
        if self.usage.ends_with("cpuacct.usage") {
            return text.trim().parse::<f64>().unwrap_or(0.0) / 1e6;
        }
        text.lines()
            .find_map(|l| l.strip_prefix("usage_usec "))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .map_or(0.0, |us| us / 1000.0)
    }

    /// Kills what is left in the group and removes it.
    fn remove(&self) {
        for dir in &self.dirs {
            let procs = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
            for pid in procs.split_whitespace() {
                let _ = Command::new("kill").args(["-9", pid]).status();
            }
            let deadline = Instant::now() + Duration::from_secs(5);
            while std::fs::remove_dir(dir).is_err() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// One host: a network namespace with an address on the bridge.
#[derive(Clone, Debug)]
pub struct Host {
    /// The namespace's name.
    pub ns: String,
    /// The host's address.
    pub ip: Ipv4Addr,
    cgroup: Option<Cgroup>,
}

impl Host {
    /// A command line that runs the program given after it on this host
    /// (in its cgroup first, since `ip netns exec` hides `/sys/fs/cgroup`).
    pub fn prefix(&self) -> Vec<OsString> {
        let join: String = self
            .cgroup
            .iter()
            .flat_map(|c| &c.dirs)
            .map(|d| format!("echo $$ > {}/cgroup.procs && ", d.display()))
            .collect();
        let script = format!("{join}exec ip netns exec {} \"$@\"", self.ns);
        ["sh", "-c", &script, "sh"].map(OsString::from).to_vec()
    }

    /// A command for `program` run on this host.
    pub fn command(&self, program: impl Into<OsString>) -> Command {
        let prefix = self.prefix();
        let mut command = Command::new(&prefix[0]);
        command.args(&prefix[1..]).arg(program.into());
        command
    }

    /// The CPU time of everything run on this host, in milliseconds (0
    /// without a CPU share).
    #[allow(dead_code)]
    pub fn cpu_ms(&self) -> f64 {
        self.cgroup.as_ref().map_or(0.0, Cgroup::cpu_ms)
    }
}

/// A bridge with namespaces on it; the machine itself (the tests, the load
/// generator) is `outside`, at the bridge's address.
pub struct Lan {
    prefix: String,
    bridge: String,
    net: u8,
    hosts: Vec<Host>,
    /// Blackhole routes in place: (namespace or `None` for outside, address).
    cuts: Mutex<Vec<(Option<String>, Ipv4Addr)>>,
}

impl Lan {
    /// A new bridge (on a /24 of 10.39.0.0/16 not used yet), or `None`
    /// after saying why `test` is skipped.
    pub fn new(test: &str) -> Option<Lan> {
        let n = NEXT_LAN.fetch_add(1, Ordering::SeqCst);
        let prefix = format!("sb{:x}{n}", std::process::id() % 0x10000);
        let used = Command::new("ip")
            .args(["-4", "-o", "addr"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let start = (std::process::id() as usize + n as usize * 7) % 250;
        let Some(net) = (0..250)
            .map(|k| ((start + k) % 250 + 1) as u8)
            .find(|net| !used.contains(&format!(" 10.39.{net}.")))
        else {
            spelbord_server::store::say_skipped(test, "no free network in 10.39.0.0/16");
            return None;
        };
        let lan = Lan {
            bridge: format!("{prefix}br"),
            prefix,
            net,
            hosts: Vec::new(),
            cuts: Mutex::new(Vec::new()),
        };
        let made = ip(&["link", "add", &lan.bridge, "type", "bridge"])
            .and_then(|()| {
                ip(&[
                    "addr",
                    "add",
                    &format!("10.39.{net}.1/24"),
                    "dev",
                    &lan.bridge,
                ])
            })
            .and_then(|()| ip(&["link", "set", &lan.bridge, "up"]));
        match made {
            Ok(()) => Some(lan),
            Err(e) => {
                spelbord_server::store::say_skipped(
                    test,
                    &format!("network namespaces are refused here (root needed): {e}"),
                );
                None
            }
        }
    }

    /// The machine's own address on the bridge (the clients').
    pub fn outside(&self) -> Ipv4Addr {
        Ipv4Addr::new(10, 39, self.net, 1)
    }

    /// A new host (namespace, veth on the bridge, address), limited to
    /// `share` of a core where given.
    pub fn host(&mut self, share: Option<f64>) -> Result<Host, String> {
        let i = self.hosts.len() + 2;
        let ns = format!("{}h{i}", self.prefix);
        let (outer, inner) = (
            format!("{}v{i}", self.prefix),
            format!("{}p{i}", self.prefix),
        );
        let addr = Ipv4Addr::new(10, 39, self.net, i as u8);
        ip(&["netns", "add", &ns])?;
        let cgroup = share.map(|s| Cgroup::new(&ns, s)).transpose();
        self.hosts.push(Host {
            ns: ns.clone(),
            ip: addr,
            cgroup: cgroup.as_ref().ok().and_then(Clone::clone),
        });
        let cgroup = cgroup?;
        ip(&[
            "link", "add", &outer, "type", "veth", "peer", "name", &inner,
        ])?;
        ip(&["link", "set", &outer, "master", &self.bridge, "up"])?;
        ip(&["link", "set", &inner, "netns", &ns])?;
        ip_in(&ns, &["addr", "add", &format!("{addr}/24"), "dev", &inner])?;
        ip_in(&ns, &["link", "set", &inner, "up"])?;
        ip_in(&ns, &["link", "set", "lo", "up"])?;
        Ok(Host {
            ns,
            ip: addr,
            cgroup,
        })
    }

    /// Drops every packet between `host` and each of `peers` (other hosts,
    /// or [`Lan::outside`]), both ways, until [`Lan::heal`].
    pub fn cut(&self, host: &Host, peers: &[Ipv4Addr]) -> Result<(), String> {
        let mut cuts = self.cuts.lock().expect("cuts");
        for peer in peers {
            let other = self
                .hosts
                .iter()
                .find(|h| h.ip == *peer)
                .map(|h| h.ns.clone());
            for (side, to) in [(Some(host.ns.clone()), *peer), (other, host.ip)] {
                let route = format!("{to}/32");
                match &side {
                    Some(ns) => ip_in(ns, &["route", "add", "blackhole", &route])?,
                    None => ip(&["route", "add", "blackhole", &route])?,
                }
                cuts.push((side, to));
            }
        }
        Ok(())
    }

    /// Removes every cut.
    pub fn heal(&self) {
        for (side, to) in self.cuts.lock().expect("cuts").drain(..) {
            let route = format!("{to}/32");
            let _ = match side {
                Some(ns) => ip_in(&ns, &["route", "del", "blackhole", &route]),
                None => ip(&["route", "del", "blackhole", &route]),
            };
        }
    }
}

impl Drop for Lan {
    fn drop(&mut self) {
        self.heal();
        for host in &self.hosts {
            let _ = ip(&["netns", "del", &host.ns]);
            if let Some(cgroup) = &host.cgroup {
                cgroup.remove();
            }
        }
        let _ = ip(&["link", "del", &self.bridge]);
    }
}

/// A private PostgreSQL server on a host (its own folder, port 5432 of the
/// host's address, trust authentication for user `spelbord`), stopped and
/// removed on drop.
pub struct Postgres {
    child: Child,
    dir: PathBuf,
    /// `postgres://spelbord@IP:5432/postgres`.
    pub url: String,
}

/// The newest PostgreSQL's binaries on this machine.
fn postgres_bin() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("postgres").exists())
        .collect();
    found.sort_by_key(|p| {
        let version = p.parent().and_then(|v| v.file_name());
        version.and_then(|v| v.to_str()?.parse::<u32>().ok())
    });
    found.pop()
}

impl Postgres {
    /// Starts it on `host` (as the `postgres` user); `Err` says why not.
    pub async fn start(host: &Host) -> Result<Postgres, String> {
        let bin = postgres_bin().ok_or("no PostgreSQL in /usr/lib/postgresql")?;
        let dir = std::env::temp_dir().join(format!("spelbord-netns-pg-{}", host.ns));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let chown = Command::new("chown").arg("postgres:").arg(&dir).status();
        if !chown.is_ok_and(|s| s.success()) {
            return Err("cannot give the folder to the postgres user".into());
        }
        let as_postgres = ["--reuid=postgres", "--regid=postgres", "--init-groups"];
        let init = Command::new("setpriv")
            .args(as_postgres)
            .arg(bin.join("initdb"))
            .args(["-U", "spelbord", "--auth=trust", "-E", "UTF8", "-D"])
            .arg(dir.join("data"))
            .stdout(Stdio::null())
            .status();
        if !init.is_ok_and(|s| s.success()) {
            return Err("initdb failed".into());
        }
        // The clients are on other hosts.
        let hba = dir.join("data/pg_hba.conf");
        let mut rules = std::fs::read_to_string(&hba).map_err(|e| e.to_string())?;
        rules.push_str("host all all 0.0.0.0/0 trust\n");
        std::fs::write(&hba, rules).map_err(|e| e.to_string())?;
        let log = std::fs::File::create(dir.join("log")).map_err(|e| e.to_string())?;
        let child = host
            .command("setpriv")
            .args(as_postgres)
            .arg(bin.join("postgres"))
            .arg("-D")
            .arg(dir.join("data"))
            .arg("-k")
            .arg(&dir)
            .args(["-p", "5432", "-c", &format!("listen_addresses={}", host.ip)])
            .args(["-c", "max_connections=300"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| e.to_string())?;
        let pg = Postgres {
            child,
            dir,
            url: format!("postgres://spelbord@{}:5432/postgres", host.ip),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while sqlx::PgPool::connect(&pg.url).await.is_err() {
            if Instant::now() > deadline {
                let log = pg.log();
                let tail = &log[log.len().saturating_sub(600)..];
                return Err(format!("PostgreSQL did not start: {tail}"));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(pg)
    }

    /// Its log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // SIGQUIT: the immediate shutdown, backends included.
        let _ = Command::new("kill")
            .args(["-QUIT", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !matches!(self.child.try_wait(), Ok(Some(_))) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
