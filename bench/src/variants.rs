//! The nginx configurations under test, each written into its own prefix directory.
//!
//! - `stock`: Debian's `/etc/nginx/nginx.conf` and default site, changed only in paths
//!   (pid, logs, temp directories, the site include), the listen port and the worker count;
//! - `guide`: the seed guide's hand-tuned file (`bench/guide/`);
//! - `nginxconfig`, `h5bp`: the peer generators' output for the same site (`bench/peers/`,
//!   [`crate::peers`]);
//! - `nginx-gen`: the core library's output for this machine (Debian layout, the detected
//!   nginx and OpenSSL versions, the CPUs and RAM the run gives nginx), changed only in paths;
//! - `--patch NAME='directive args; …'`: nginx-gen's output with directives replaced (to test
//!   a candidate rule change);
//! - `--extra NAME=FILE`: any nginx.conf template (placeholders as in `bench/guide/nginx.conf`).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use std::collections::HashMap;

use nginx_gen_core::plan::Setting;
use nginx_gen_core::render::Origin;
use nginx_gen_core::{Inputs, Plan, RawInputs, render};

use crate::peers::{self, Peer};

const GUIDE_MAIN: &str = include_str!("../guide/nginx.conf");
const GUIDE_STATIC: &str = include_str!("../guide/static.conf");
const GUIDE_TLS: &str = include_str!("../guide/tls.conf");
const GUIDE_PROXY: &str = include_str!("../guide/proxy.conf");
const STOCK_STATIC: &str = include_str!("../stock/static.conf");
const STOCK_TLS: &str = include_str!("../stock/tls.conf");
const STOCK_PROXY: &str = include_str!("../stock/proxy.conf");
const STOCK_MAIN: &str = "/etc/nginx/nginx.conf";

/// Which server the instance runs: plain static files, the same over TLS, or a reverse proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Static,
    Tls,
    Proxy,
}

impl Family {
    pub const ALL: [Self; 3] = [Self::Static, Self::Tls, Self::Proxy];
    pub fn name(self) -> &'static str {
        match self {
            Self::Static => "static",
            Self::Tls => "tls",
            Self::Proxy => "proxy",
        }
    }
}

#[derive(Debug, Clone)]
pub enum Kind {
    Stock,
    Guide,
    /// A peer generator's output ([`crate::peers`]).
    Peer(Peer),
    Gen,
    /// nginx-gen's output with these `name args` directives replaced or added.
    Patched(Vec<(String, String)>),
    /// nginx-gen's output for the benchmark's inputs plus these (a JSON object).
    Inputs(String),
    /// A template file, with the guide's server blocks.
    Extra(PathBuf),
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub kind: Kind,
}

impl Variant {
    /// The baselines (stock, the guide, the peer generators), then nginx-gen.
    pub fn builtin() -> Vec<Self> {
        let mut all = vec![
            Self {
                name: "stock".into(),
                kind: Kind::Stock,
            },
            Self {
                name: "guide".into(),
                kind: Kind::Guide,
            },
        ];
        all.extend(Peer::ALL.map(|p| Self {
            name: p.name().into(),
            kind: Kind::Peer(p),
        }));
        all.push(Self::nginx_gen());
        all
    }

    /// nginx-gen's configuration.
    pub fn nginx_gen() -> Self {
        Self {
            name: "nginx-gen".into(),
            kind: Kind::Gen,
        }
    }

    /// nginx-gen's configuration again, in an instance of its own: the A/A control, the
    /// noise floor the intervals of a together measurement should cover.
    pub fn nginx_gen_again() -> Self {
        Self {
            name: "nginx-gen-again".into(),
            kind: Kind::Gen,
        }
    }

    /// nginx-gen's configuration offering this TLS protocol alone (`ssl_protocols`): held
    /// against a baseline that negotiates no newer one.
    pub fn nginx_gen_on(protocol: &str) -> Self {
        Self {
            name: format!("nginx-gen-{protocol}"),
            kind: Kind::Patched(vec![("ssl_protocols".into(), protocol.into())]),
        }
    }

    /// A configuration nginx-gen is compared against (stock, the guide, a peer generator's),
    /// as opposed to nginx-gen and its `--patch`/`--extra` variants.
    pub fn is_baseline(&self) -> bool {
        matches!(self.kind, Kind::Stock | Kind::Guide | Kind::Peer(_))
    }

    /// `NAME=directive args; directive args` → a patched nginx-gen variant.
    pub fn parse_patch(spec: &str) -> Result<Self, String> {
        let (name, body) = spec
            .split_once('=')
            .ok_or("--patch wants NAME='directive args; …'")?;
        let mut list = Vec::new();
        for d in body.split(';').map(str::trim).filter(|d| !d.is_empty()) {
            let (n, a) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
            list.push((n.to_string(), a.trim().to_string()));
        }
        if list.is_empty() {
            return Err(format!("--patch {name}: no directives"));
        }
        Ok(Self {
            name: name.to_string(),
            kind: Kind::Patched(list),
        })
    }

    /// `NAME={"input": value, …}` → nginx-gen's output with these inputs added.
    pub fn parse_inputs(spec: &str) -> Result<Self, String> {
        let (name, json) = spec
            .split_once('=')
            .ok_or("--input wants NAME='{\"input\": value}'")?;
        match serde_json::from_str::<serde_json::Value>(json) {
            Ok(serde_json::Value::Object(_)) => Ok(Self {
                name: name.to_string(),
                kind: Kind::Inputs(json.to_string()),
            }),
            _ => Err(format!("--input {name}: not a JSON object: {json}")),
        }
    }

    pub fn parse_extra(spec: &str) -> Result<Self, String> {
        let (name, file) = spec.split_once('=').ok_or("--extra wants NAME=FILE")?;
        if !Path::new(file).is_file() {
            return Err(format!("--extra {name}: {file} is not a file"));
        }
        Ok(Self {
            name: name.to_string(),
            kind: Kind::Extra(PathBuf::from(file)),
        })
    }
}

/// What every configuration shares: where things are and what the machine gives nginx.
#[derive(Debug, Clone)]
pub struct Env {
    pub site: PathBuf,
    pub addr: String,
    pub cert: PathBuf,
    pub key: PathBuf,
    pub upstream: String,
    pub workers: usize,
    pub ram: String,
    pub nginx_version: String,
    pub openssl_version: String,
}

/// A written configuration: its main file and the file limit its service would get.
#[derive(Debug)]
pub struct Written {
    pub conf: PathBuf,
    /// (soft, hard) `RLIMIT_NOFILE` of the master, as its systemd unit would set it.
    pub nofile: (u64, u64),
}

fn temp_paths(prefix: &str) -> String {
    ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
        .iter()
        .map(|t| format!("{t}_temp_path {prefix}/temp/{t};"))
        .collect::<Vec<_>>()
        .join("\n    ")
}

/// Fills a template's placeholders: `{{PORT}}` is the port under test, `{{PORT_PLAIN}}` the
/// next one (a TLS server's plain-HTTP listener), `{{DHPARAM}}` the DH group written next to
/// the certificate.
pub fn fill(template: &str, prefix: &str, env: &Env, port: u16) -> String {
    template
        .replace("{{PREFIX}}", prefix)
        .replace("{{PORT_PLAIN}}", &(port + 1).to_string())
        .replace("{{DHPARAM}}", &dhparam(env).to_string_lossy())
        .replace("{{WORKERS}}", &env.workers.to_string())
        .replace("{{TEMP_PATHS}}", &temp_paths(prefix))
        .replace("{{ADDR}}", &env.addr)
        .replace("{{PORT}}", &port.to_string())
        .replace("{{ROOT}}", &env.site.to_string_lossy())
        .replace("{{CERT}}", &env.cert.to_string_lossy())
        .replace("{{KEY}}", &env.key.to_string_lossy())
        .replace("{{UPSTREAM}}", &env.upstream)
}

/// The finite-field DH group file ([`crate::prepare`] writes it next to the certificate).
pub fn dhparam(env: &Env) -> PathBuf {
    env.cert.with_file_name("dhparam.pem")
}

/// Directives of the events {} block and of the main context (for `--patch`).
const EVENTS: &[&str] = &[
    "multi_accept",
    "use",
    "accept_mutex",
    "accept_mutex_delay",
    "worker_connections",
];
const MAIN: &[&str] = &[
    "worker_cpu_affinity",
    "worker_priority",
    "worker_rlimit_nofile",
    "pcre_jit",
    "timer_resolution",
    "thread_pool",
];

/// systemd's defaults for a unit without `LimitNOFILE` (Debian's `nginx.service` has none).
pub const SYSTEMD_NOFILE: (u64, u64) = (1024, 524_288);

/// nginx-gen's inputs for this instance.
pub fn gen_inputs(env: &Env, family: Family, port: u16) -> Result<Inputs, String> {
    gen_inputs_with(env, family, port, "{}")
}

/// nginx-gen's inputs for this instance, plus `extra` (a JSON object of inputs).
pub fn gen_inputs_with(
    env: &Env,
    family: Family,
    port: u16,
    extra: &str,
) -> Result<Inputs, String> {
    let mut raw = serde_json::json!({
        "vcpu": env.workers,
        "ram": env.ram,
        "layout": "debian",
        "nginx_version": env.nginx_version,
        "openssl_version": env.openssl_version,
        "root": env.site,
        "server_names": ["bench.test", env.addr],
        "workload": if family == Family::Proxy { "proxy" } else { "static" },
        // Instances run side by side on one loopback: each would bind the status server's
        // 127.0.0.1:81. Monitoring is not what is measured.
        "status_port": 0,
    });
    match family {
        Family::Static => raw["listen"] = serde_json::json!([format!("{}:{port}", env.addr)]),
        Family::Tls => {
            // The plain port only redirects; the TLS port is the one under test.
            raw["listen"] = serde_json::json!([format!("{}:{}", env.addr, port + 1)]);
            raw["tls"] = true.into();
            raw["tls_port"] = port.into();
            raw["tls_cert"] = env.cert.to_string_lossy().to_string().into();
            raw["tls_key"] = env.key.to_string_lossy().to_string().into();
        }
        Family::Proxy => {
            raw["listen"] = serde_json::json!([format!("{}:{port}", env.addr)]);
            raw["upstreams"] = serde_json::json!([env.upstream]);
        }
    }
    if let Ok(serde_json::Value::Object(extra)) = serde_json::from_str(extra) {
        for (k, v) in extra {
            raw[k] = v;
        }
    }
    let raw =
        RawInputs::from_json(&raw.to_string()).map_err(|e| format!("nginx-gen inputs: {e:?}"))?;
    Inputs::from_raw(&raw).map_err(|e| format!("nginx-gen inputs: {e:?}"))
}

/// Adapts a rendered file's absolute paths to the prefix (the only change made to it).
pub(crate) fn relocate(text: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.lines() {
        let l = line
            .replace("/var/log/nginx/", &format!("{prefix}/logs/"))
            .replace("/run/nginx.pid", &format!("{prefix}/nginx.pid"))
            // The micro-cache's directory (`--input 'micro={"cache":"micro"}'`).
            .replace("/var/lib/nginx/", &format!("{prefix}/"));
        out.push_str(&l);
        out.push('\n');
        if line.trim() == "http {" {
            let _ = writeln!(out, "    {}", temp_paths(prefix));
        }
    }
    out
}

/// Replaces (or, for `-name`, removes) the lines of the settings called by `directives`,
/// found through the renderer's origins rather than by reading the text back. `listen+` and
/// `listen-` edit the options of the catch-all listens (the ones that own the port).
fn patch(
    text: &str,
    origins: &[Origin],
    plan: &Plan,
    directives: &[(String, String)],
) -> (String, Vec<usize>) {
    let setting_at: HashMap<usize, &Setting> = origins
        .iter()
        .map(|o| (o.line, &plan.settings[o.setting]))
        .collect();
    let mut hits = vec![0; directives.len()];
    let mut out = String::with_capacity(text.len());
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let indent = &line[..line.len() - t.len()];
        let mut replaced = false;
        if let Some(setting) = setting_at.get(&n) {
            // Every listen edit applies to a listen that owns the port, in order.
            let owns_port =
                setting.name == "listen" && setting.args.iter().any(|a| a == "default_server");
            if let (true, Some(body)) = (owns_port, t.strip_suffix(';')) {
                let mut body = body.to_owned();
                for (i, (name, args)) in directives.iter().enumerate() {
                    if let Some(add) = listen_edit(name) {
                        hits[i] += 1;
                        replaced = true;
                        body = edit_options(&body, args, add);
                    }
                }
                if replaced {
                    let _ = writeln!(out, "{indent}{body}; # patched by nginx-gen-bench");
                }
            }
            for (i, (name, args)) in directives.iter().enumerate() {
                if replaced || listen_edit(name).is_some() {
                    continue;
                }
                let bare = name.trim_start_matches('-');
                if setting.name == bare {
                    hits[i] += 1;
                    replaced = true;
                    if !name.starts_with('-') {
                        let _ =
                            writeln!(out, "{indent}{bare} {args}; # patched by nginx-gen-bench");
                    }
                    break;
                }
            }
        }
        if !replaced {
            out.push_str(line);
            out.push('\n');
        }
    }
    (out, hits)
}

/// `Some(true)` for `listen+`, `Some(false)` for `listen-`: an edit of the listen options.
fn listen_edit(name: &str) -> Option<bool> {
    match name {
        "listen+" => Some(true),
        "listen-" => Some(false),
        _ => None,
    }
}

/// Adds (`add`) or removes the words of `options` in a `listen …` line's words; an added
/// option with a value (`backlog=N`) replaces the one already there.
fn edit_options(listen: &str, options: &str, add: bool) -> String {
    let mut words: Vec<&str> = listen.split_whitespace().collect();
    for opt in options.split_whitespace() {
        let key = opt.split_once('=').map(|(k, _)| k);
        let same = |w: &&str| {
            *w == opt || key.is_some_and(|k| w.split_once('=').map(|(wk, _)| wk) == Some(k))
        };
        match (add, words.iter().position(same)) {
            (true, Some(at)) => words[at] = opt,
            (true, None) => words.push(opt),
            (false, _) => words.retain(|w| *w != opt),
        }
    }
    words.join(" ")
}

/// Writes `variant`'s configuration for `family` under `prefix`.
pub fn write(
    variant: &Variant,
    family: Family,
    env: &Env,
    prefix: &Path,
    port: u16,
) -> Result<Written, String> {
    let p = prefix.to_string_lossy().to_string();
    for d in ["logs", "temp", "sites", "conf.d"] {
        fs::create_dir_all(prefix.join(d)).map_err(|e| format!("{}: {e}", prefix.display()))?;
    }
    let conf = prefix.join("nginx.conf");
    let io = |e: std::io::Error| format!("{}: {e}", conf.display());
    let guide_server = match family {
        Family::Static => GUIDE_STATIC,
        Family::Tls => GUIDE_TLS,
        Family::Proxy => GUIDE_PROXY,
    };
    match &variant.kind {
        Kind::Peer(peer) => peers::write(*peer, family, env, prefix, port),
        Kind::Stock => {
            let main = fs::read_to_string(STOCK_MAIN).map_err(|e| format!("{STOCK_MAIN}: {e}"))?;
            let mut text = relocate(&main, &p)
                .replace(
                    "worker_processes auto;",
                    &format!("worker_processes {};", env.workers),
                )
                .replace(
                    "include /etc/nginx/conf.d/*.conf;",
                    &format!("include {p}/sites/*.conf;"),
                )
                .replace(
                    "include /etc/nginx/sites-enabled/*;",
                    "# (sites-enabled: replaced by the benchmark's site)",
                );
            if !text.contains(&format!("include {p}/sites/*.conf;")) {
                return Err(format!(
                    "{STOCK_MAIN}: no `include /etc/nginx/conf.d/*.conf;` to point at the site"
                ));
            }
            text.insert_str(0, "# Debian's /etc/nginx/nginx.conf; only paths and worker_processes changed by nginx-gen-bench.\n");
            let site = match family {
                Family::Static => STOCK_STATIC,
                Family::Tls => STOCK_TLS,
                Family::Proxy => STOCK_PROXY,
            };
            fs::write(prefix.join("sites/site.conf"), fill(site, &p, env, port)).map_err(io)?;
            fs::write(&conf, text).map_err(io)?;
            Ok(Written {
                conf,
                nofile: SYSTEMD_NOFILE,
            })
        }
        Kind::Guide | Kind::Extra(_) => {
            let template = match &variant.kind {
                Kind::Extra(file) => {
                    fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?
                }
                _ => GUIDE_MAIN.to_string(),
            };
            let text = fill(&template, &p, env, port).replace(
                "{{SERVERS}}",
                &fill(guide_server, &p, env, port).replace('\n', "\n    "),
            );
            fs::write(&conf, text).map_err(io)?;
            // The guide also sets LimitNOFILE=65535 in its unit.
            let nofile = if matches!(variant.kind, Kind::Guide) {
                (65_535, 65_535)
            } else {
                SYSTEMD_NOFILE
            };
            Ok(Written { conf, nofile })
        }
        Kind::Gen | Kind::Patched(_) | Kind::Inputs(_) => {
            let extra = match &variant.kind {
                Kind::Inputs(json) => json.as_str(),
                _ => "{}",
            };
            let plan = Plan::new(&gen_inputs_with(env, family, port, extra)?);
            let mut nofile = SYSTEMD_NOFILE;
            let directives = match &variant.kind {
                Kind::Patched(d) => d.clone(),
                _ => Vec::new(),
            };
            let mut hits = vec![0; directives.len()];
            if plan.get("LimitNOFILE").is_some() {
                let n = u64::from(plan.tuning.limit_nofile);
                nofile = (n, n);
            }
            for (f, origins) in render::files_with_origins(&plan) {
                let target = if f.path.ends_with("/nginx.conf") {
                    conf.clone()
                } else if let Some(site) = f.path.strip_prefix("/etc/nginx/") {
                    prefix.join(site)
                } else {
                    continue;
                };
                // Patch first: the origins count the lines of the text as rendered.
                let (text, h) = patch(&f.contents, &origins, &plan, &directives);
                let text = relocate(&text, &p);
                hits.iter_mut().zip(h).for_each(|(a, b)| *a += b);
                if let Some(dir) = target.parent() {
                    fs::create_dir_all(dir).map_err(io)?;
                }
                fs::write(&target, text).map_err(io)?;
            }
            // Directives the output does not have yet go where they belong: events {},
            // the main context, or http {}.
            let mut text = fs::read_to_string(&conf).map_err(io)?;
            for ((name, args), h) in directives.iter().zip(&hits) {
                // A listen edit that found no listen is not a directive to add.
                if *h > 0 || name.starts_with('-') || listen_edit(name).is_some() {
                    continue;
                }
                let line = format!("{name} {args}; # added by nginx-gen-bench");
                text = if EVENTS.contains(&name.as_str()) {
                    text.replacen("events {\n", &format!("events {{\n    {line}\n"), 1)
                } else if MAIN.contains(&name.as_str()) {
                    format!("{line}\n{text}")
                } else {
                    text.replacen("http {\n", &format!("http {{\n    {line}\n"), 1)
                };
            }
            fs::write(&conf, text).map_err(io)?;
            Ok(Written { conf, nofile })
        }
    }
}

/// The upstream's keep-alive pool to the slow application.
const SLOW_POOL: u64 = 2048;

/// The file limit (soft and hard) of the load tools and the upstream application.
pub const LOAD_NOFILE: u64 = 65_536;

/// Connection slots of the upstream's one worker for `clients` connections of the proxies
/// under test at once (every instance's, when they are loaded together): each brings one
/// connection from a proxy and, on `/slow/`, one to the slow application, whose pool stays
/// open between runs; never fewer than 4096. With a fixed 4096, instances of 1000
/// connections loaded together (six in a recheck) got "upstream prematurely closed
/// connection": short of slots, nginx closes idle keep-alive connections to make room (a
/// `[warn]`, which is why this error log is at `warn`), and a proxy reusing one loses its
/// request.
pub fn upstream_slots(clients: u64) -> u64 {
    (2 * clients + SLOW_POOL + 1024).max(4096)
}

/// [`upstream_slots`] for `clients`, or why they do not fit the upstream's file limit
/// ([`LOAD_NOFILE`], with room for its logs and listeners): nginx would start, warn, and
/// fail its connections under load.
pub fn upstream_fits(clients: u64) -> Result<u64, String> {
    let slots = upstream_slots(clients);
    if slots + 64 > LOAD_NOFILE {
        return Err(format!(
            "{clients} proxied connections at once need {slots} connection slots in the upstream application, more than its file limit ({LOAD_NOFILE}) allows: fewer --conns, or fewer variants loaded together"
        ));
    }
    Ok(slots)
}

/// The upstream application for the proxy scenario: a plain nginx serving the same site.
#[allow(
    dead_code,
    reason = "the proxy scenarios' upstream without the slow application"
)]
pub fn write_upstream(env: &Env, prefix: &Path, addr_port: &str) -> Result<PathBuf, String> {
    write_upstream_with(env, prefix, addr_port, None, upstream_slots(0))
}

/// [`write_upstream`], and with `slow_app` (`ADDR:PORT` of [`crate::slowapp`]) `/slow/` is
/// proxied to it over a keep-alive pool large enough for every connection of the run, so
/// the nginx under test sees the application's delay and nothing of this hop's making. The
/// pool outlives each run: wrk's stop aborts ~1000 requests in flight, and with
/// `proxy_ignore_client_abort` they finish and their connections stay pooled, instead of
/// being closed so that the next variant's first second opens ~1000 new ones (measured: a
/// ~1 s p99 tail in nginx-gen's and the guide's runs). The application's accept queue is as
/// deep as this nginx's ([`crate::slowapp::BACKLOG`]). Its one worker has `slots` connection
/// slots ([`upstream_fits`]).
pub fn write_upstream_with(
    env: &Env,
    prefix: &Path,
    addr_port: &str,
    slow_app: Option<&str>,
    slots: u64,
) -> Result<PathBuf, String> {
    let p = prefix.to_string_lossy();
    for d in ["logs", "temp"] {
        fs::create_dir_all(prefix.join(d)).map_err(|e| e.to_string())?;
    }
    let (slow_upstream, slow_location) = slow_app.map_or_else(Default::default, |app| {
        (
            format!("    upstream slowapp {{ server {app}; keepalive {SLOW_POOL}; }}\n"),
            "        location /slow/ { proxy_pass http://slowapp; proxy_http_version 1.1; \
             proxy_set_header Connection \"\"; proxy_ignore_client_abort on; }\n"
                .to_string(),
        )
    });
    let text = format!(
        "# The upstream application of the proxy scenarios (not under test).\n\
         worker_processes 1;\npid {p}/nginx.pid;\nerror_log {p}/logs/error.log warn;\n\
         events {{ worker_connections {}; }}\n\
         http {{\n    {}\n    include /etc/nginx/mime.types;\n    access_log off;\n    sendfile on;\n\
         keepalive_requests 100000;\n    open_file_cache max=100;\n{slow_upstream}\
         server {{\n        listen {addr_port} backlog={};\n        root {};\n{slow_location}    }}\n}}\n",
        slots,
        temp_paths(&p),
        crate::slowapp::BACKLOG,
        env.site.display()
    );
    let conf = prefix.join("nginx.conf");
    fs::write(&conf, text).map_err(|e| e.to_string())?;
    Ok(conf)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nginx.conf and the site file of a plan, each with its origins.
    fn rendered(json: &str) -> (Plan, Vec<(String, Vec<Origin>)>) {
        let plan = Plan::new(&Inputs::from_json(json).unwrap());
        let files = render::files_with_origins(&plan)
            .into_iter()
            .take(2)
            .map(|(f, o)| (f.contents, o))
            .collect();
        (plan, files)
    }

    #[test]
    fn the_upstream_has_a_slot_for_every_proxied_connection() {
        // A recheck's six instances (nginx-gen, its A/A control, four baselines) of 1000
        // connections: each connection from a proxy and its onward one to the slow
        // application, beside that application's pool, within the file limit.
        let together = upstream_fits(6 * 1000).expect("fits");
        assert!(together >= 2 * 6 * 1000 + SLOW_POOL, "{together}");
        assert_eq!(upstream_slots(0), 4096);
        // More than fit is refused, not started to fail under load.
        let e = upstream_fits(6 * 6000).unwrap_err();
        assert!(e.contains("36000 proxied connections"), "{e}");
    }

    #[test]
    fn patch_replaces_removes_and_counts() {
        let (plan, files) = rendered(r#"{"vcpu": 4, "ram": "8G"}"#);
        let (nginx, origins) = &files[0];
        let d = vec![
            ("gzip_comp_level".to_string(), "5".to_string()),
            ("-keepalive_timeout".to_string(), String::new()),
            ("x".to_string(), "1".to_string()),
        ];
        let (out, hits) = patch(nginx, origins, &plan, &d);
        assert!(out.contains("    gzip_comp_level 5; # patched"));
        assert!(
            !out.lines()
                .any(|l| l.trim_start().starts_with("keepalive_timeout"))
        );
        assert_eq!(hits, vec![1, 1, 0]);
        // A comment that names a directive is not a directive.
        assert!(out.contains("# Level 1 compresses nearly as well as 5"));
    }

    #[test]
    fn listen_options_only_on_the_catch_all() {
        let (plan, files) = rendered(r#"{"vcpu": 2, "ram": "8G", "workload": "proxy"}"#);
        let (site, origins) = &files[1];
        let (out, hits) = patch(
            site,
            origins,
            &plan,
            &[("listen-".into(), "deferred".into())],
        );
        assert!(
            out.contains(
                "    listen 80 default_server backlog=4096; # patched by nginx-gen-bench\n"
            ),
            "{out}"
        );
        assert!(out.contains("    listen 80;\n"));
        // Both addresses of the dual-stack default: 80 and [::]:80.
        assert_eq!(hits, vec![2]);
        let (out, _) = patch(
            site,
            origins,
            &plan,
            &[("listen+".into(), "backlog=512 fastopen=16".into())],
        );
        assert!(
            out.contains("listen 80 default_server deferred backlog=512 fastopen=16; # patched"),
            "{out}"
        );
        // Two edits of one line (the search's combination of winners): both apply.
        let (out, hits) = patch(
            site,
            origins,
            &plan,
            &[
                ("listen+".into(), "reuseport".into()),
                ("keepalive_timeout".into(), "10s".into()),
                ("listen-".into(), "deferred".into()),
            ],
        );
        assert!(
            out.contains("    listen 80 default_server backlog=4096 reuseport; # patched"),
            "{out}"
        );
        assert_eq!(hits[0], hits[2]);
        let (out, _) = patch(
            site,
            origins,
            &plan,
            &[("listen-".into(), "deferred backlog=4096".into())],
        );
        assert!(
            out.contains("    listen 80 default_server; # patched"),
            "{out}"
        );
    }

    #[test]
    fn relocate_moves_paths_and_adds_temp_dirs() {
        let out = relocate(
            "pid /run/nginx.pid;\nhttp {\n    access_log /var/log/nginx/access.log;\n}\n",
            "/tmp/x",
        );
        assert!(out.contains("pid /tmp/x/nginx.pid;"));
        assert!(out.contains("access_log /tmp/x/logs/access.log;"));
        assert!(out.contains("proxy_temp_path /tmp/x/temp/proxy;"));
    }

    #[test]
    fn patch_spec_parses() {
        let v = Variant::parse_patch("gen-l5=gzip_comp_level 5; -gzip_static").expect("valid");
        assert_eq!(v.name, "gen-l5");
        assert!(matches!(v.kind, Kind::Patched(ref d) if d.len() == 2 && d[1].0 == "-gzip_static"));
        assert!(Variant::parse_patch("nothing").is_err());
    }
}
