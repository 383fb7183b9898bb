//! nginx-gen-bench: does nginx-gen's output make a real nginx faster?
//!
//! Starts Debian's nginx once per configuration (stock, the guide's, nginx-gen's, and any
//! extra), each inside a temporary directory on its own loopback port, serves the same
//! static site, loads them with wrk in interleaved rounds, and writes a Markdown report with
//! an SVG chart. `--shaped` repeats the run over a rate-limited veth link between two
//! network namespaces. `--help` lists the options; the README documents the method.

#![allow(
    clippy::disallowed_methods,
    reason = "a harness: it runs processes, reads /proc, writes files and times runs"
)]
#![allow(clippy::struct_excessive_bools, reason = "command-line switches")]
#![allow(
    clippy::too_many_lines,
    reason = "the run and the report are linear sequences"
)]
#![allow(
    clippy::format_collect,
    clippy::write_with_newline,
    reason = "report text"
)]

mod netns;
mod proc;
mod report;
mod site;
mod variants;
mod wrk;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use nginx_gen::host;
use proc::{Launch, Nginx};
use variants::{Env, Family, Variant};

const LUA: &str = include_str!("../wrk/report.lua");

/// One load pattern.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub id: &'static str,
    pub what: &'static str,
    pub family: Family,
    pub path: &'static str,
    pub headers: &'static [&'static str],
    /// Connection counts of the default run.
    pub conns: &'static [u32],
}

pub fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            id: "html",
            what: "HTML page (30 KB), keep-alive",
            family: Family::Static,
            path: site::HTML,
            headers: &[],
            conns: &[50, 200, 1000],
        },
        Scenario {
            id: "js",
            what: "JS asset (150 KB), keep-alive",
            family: Family::Static,
            path: site::JS,
            headers: &[],
            conns: &[50, 1000],
        },
        Scenario {
            id: "gzip-html",
            what: "HTML page, Accept-Encoding: gzip",
            family: Family::Static,
            path: site::HTML,
            headers: &["Accept-Encoding: gzip"],
            conns: &[50, 1000],
        },
        Scenario {
            id: "gzip-js",
            what: "JS asset, Accept-Encoding: gzip",
            family: Family::Static,
            path: site::JS,
            headers: &["Accept-Encoding: gzip"],
            conns: &[200],
        },
        Scenario {
            id: "newconn",
            what: "HTML page, new connection per request",
            family: Family::Static,
            path: site::HTML,
            headers: &["Connection: close"],
            conns: &[50, 200],
        },
        Scenario {
            id: "tls",
            what: "HTML page over TLS (self-signed ECDSA), keep-alive",
            family: Family::Tls,
            path: site::HTML,
            headers: &[],
            conns: &[50, 200],
        },
        Scenario {
            id: "proxy",
            what: "HTML page through a reverse proxy to a local nginx",
            family: Family::Proxy,
            path: site::HTML,
            headers: &[],
            conns: &[50, 200, 1000],
        },
    ]
}

/// Command-line options.
#[derive(Debug, Clone)]
pub struct Opts {
    pub quick: bool,
    pub loopback: bool,
    pub shaped: bool,
    pub rounds: usize,
    pub seconds: u32,
    pub conns: Option<Vec<u32>>,
    pub only: Option<Vec<String>>,
    pub links: Vec<u32>,
    pub nginx_cpus: String,
    pub wrk_cpus: String,
    pub port: u16,
    pub out: Option<PathBuf>,
    pub keep: bool,
    pub extra: Vec<Variant>,
}

const HELP: &str =
    "nginx-gen-bench: stock Debian nginx.conf vs the guide's vs nginx-gen's, under wrk

Usage: nginx-gen-bench [OPTIONS]      (as root: starts nginx, creates namespaces)

  --quick              smoke run (≤ 30 s): 1 round, 1 s, 50 connections, no report file
  --shaped             also run over a rate-limited veth link between two namespaces
  --shaped-only        only the shaped-link mode
  --links LIST         link rates in Mbit/s for --shaped [default: 1000,100]
  --rounds N           interleaved rounds (A B C, B C A, …) [default: 3]
  --seconds N          seconds per wrk run [default: 1]
  --conns LIST         connection counts for every scenario [default: per scenario, 50/200/1000]
  --only LIST          scenario ids: html,js,gzip-html,gzip-js,newconn,tls,proxy
  --nginx-cpus LIST    CPUs for nginx under test (its worker count) [default: 0]
  --wrk-cpus LIST      CPUs for wrk and the upstream [default: 1]
  --port N             first loopback port [default: 28100]
  --patch NAME='d a; …' nginx-gen's output with directives replaced or added (`-name`
                       removes one, `listen+ opts` / `listen- opts` add / remove options of the
                       catch-all listens)
  --extra NAME=FILE    another nginx.conf template (placeholders as in bench/guide/nginx.conf)
  --out FILE           Markdown report (with FILE's stem + .svg) [default: docs/benchmarks.md]
  --keep               keep the temporary directory (configs, logs)
";

fn list<T: std::str::FromStr>(s: &str, what: &str) -> Result<Vec<T>, String> {
    s.split(',')
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| format!("{what}: bad value `{v}`"))
        })
        .collect()
}

fn parse_args(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        quick: false,
        loopback: true,
        shaped: false,
        rounds: 3,
        seconds: 1,
        conns: None,
        only: None,
        links: vec![1000, 100],
        nginx_cpus: "0".into(),
        wrk_cpus: "1".into(),
        port: 28100,
        out: None,
        keep: false,
        extra: Vec::new(),
    };
    let mut out_set = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            "--quick" => o.quick = true,
            "--shaped" => o.shaped = true,
            "--shaped-only" => {
                o.shaped = true;
                o.loopback = false;
            }
            "--links" => o.links = list(&val()?, "--links")?,
            "--rounds" => o.rounds = val()?.parse().map_err(|_| "--rounds: a number")?,
            "--seconds" => o.seconds = val()?.parse().map_err(|_| "--seconds: a number")?,
            "--conns" => o.conns = Some(list(&val()?, "--conns")?),
            "--only" => o.only = Some(val()?.split(',').map(String::from).collect()),
            "--nginx-cpus" => o.nginx_cpus = val()?,
            "--wrk-cpus" => o.wrk_cpus = val()?,
            "--port" => o.port = val()?.parse().map_err(|_| "--port: a number")?,
            "--patch" => o.extra.push(Variant::parse_patch(&val()?)?),
            "--extra" => o.extra.push(Variant::parse_extra(&val()?)?),
            "--out" => {
                o.out = Some(PathBuf::from(val()?));
                out_set = true;
            }
            "--keep" => o.keep = true,
            other => return Err(format!("unknown option {other} (see --help)")),
        }
    }
    if o.quick {
        o.rounds = 1;
        o.seconds = 1;
        o.conns.get_or_insert_with(|| vec![50]);
    }
    if !out_set && !o.quick {
        o.out = Some(PathBuf::from("docs/benchmarks.md"));
    }
    if o.rounds == 0 || o.seconds == 0 {
        return Err("--rounds and --seconds must be at least 1".into());
    }
    if let Some(only) = &o.only {
        let ids: Vec<&str> = scenarios().iter().map(|s| s.id).collect();
        if let Some(bad) = only.iter().find(|s| !ids.contains(&s.as_str())) {
            return Err(format!(
                "--only: unknown scenario {bad} (known: {})",
                ids.join(",")
            ));
        }
    }
    Ok(o)
}

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    Some(format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

fn preflight() -> Result<(), String> {
    let uid = command_output("id", &["-u"]).unwrap_or_default();
    if uid.trim() != "0" {
        return Err("run as root: nginx binds ports, switches to www-data and namespaces need CAP_NET_ADMIN".into());
    }
    for tool in [
        proc::NGINX,
        "wrk",
        "taskset",
        "prlimit",
        "openssl",
        "ip",
        "curl",
    ] {
        if command_output("sh", &["-c", &format!("command -v {tool}")])
            .is_none_or(|s| s.trim().is_empty())
        {
            return Err(format!("{tool} not found (scripts/setup.sh installs it)"));
        }
    }
    Ok(())
}

/// nginx and OpenSSL (`major.minor`) versions of the nginx under test, from its `nginx -V`,
/// so nginx-gen writes for the binary under test.
fn versions() -> Result<(String, String), String> {
    match host::nginx_versions(proc::NGINX) {
        Some((Some(nginx), Some(ssl))) => {
            Ok((nginx.to_string(), format!("{}.{}", ssl.major, ssl.minor)))
        }
        _ => Err(format!(
            "`{} -V` names no nginx and OpenSSL version",
            proc::NGINX
        )),
    }
}

/// The memory nginx-gen plans for: what the CLI would detect, in whole GiB.
fn ram_gib() -> Result<String, String> {
    let (size, _) = host::ram().ok_or("cannot read the memory size (/proc/meminfo)")?;
    Ok(format!("{}G", (size.as_mib() / 1024).max(1)))
}

/// One measured wrk run against one instance.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub wrk: wrk::WrkResult,
    pub cpu_ns: u64,
    pub log_lines: usize,
}

/// All rounds of one (mode, scenario, connections) cell: `samples[variant][round]`.
#[derive(Debug, Clone)]
pub struct Cell {
    pub scenario: Scenario,
    pub conns: u32,
    pub samples: Vec<Vec<Sample>>,
}

/// One mode's results (loopback, or one shaped link rate).
#[derive(Debug, Clone)]
pub struct ModeResult {
    pub name: String,
    pub link: String,
    pub cells: Vec<Cell>,
    /// (variant, family, worker CPUs, distinct warning lines) per instance.
    pub logs: Vec<(String, String, String, Vec<String>)>,
    /// The shaped link's rate, if any (Mbit/s).
    pub link_mbit: Option<u32>,
    /// nginx workers per instance (CPU use is judged per worker).
    pub workers: usize,
    pub wall: Duration,
}

fn warn_lines(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| {
            ["[warn]", "[error]", "[crit]", "[alert]", "[emerg]"]
                .iter()
                .any(|t| l.contains(t))
        })
        .collect()
}

/// Strips the timestamp and pid so repeated messages collapse.
fn message(line: &str) -> String {
    let m = line.split_once("] ").map_or(line, |(_, rest)| rest);
    let m = m.split_once(": ").map_or(m, |(_, m)| m);
    let m = m.split(", client:").next().unwrap_or("").trim();
    // "*123 " is the connection number.
    match m.strip_prefix('*').and_then(|r| r.split_once(' ')) {
        Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest.to_string(),
        _ => m.to_string(),
    }
}

fn url(scheme: &str, addr: &str, port: u16, path: &str) -> String {
    format!("{scheme}://{addr}:{port}{path}")
}

/// Fetches one response with curl and checks it is a 200 with a body: a broken
/// configuration must stop the run, not produce numbers.
fn sanity(client: &Launch, url: &str, headers: &[&str]) -> Result<(), String> {
    let mut cmd = client.command("curl");
    cmd.args([
        "-sk",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code} %{size_download}",
        "--max-time",
        "5",
    ]);
    for h in headers {
        cmd.args(["-H", h]);
    }
    // curl sends no SNI for an IP address (wrk does): ask for the site's name instead.
    let url = match url.strip_prefix("https://").and_then(|r| r.split_once('/')) {
        Some((host_port, path)) => {
            let (addr, port) = host_port.rsplit_once(':').unwrap_or((host_port, "443"));
            cmd.args(["--resolve", &format!("bench.test:{port}:{addr}")]);
            format!("https://bench.test:{port}/{path}")
        }
        None => url.to_string(),
    };
    let out = cmd.arg(&url).output().map_err(|e| format!("curl: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut parts = text.split_whitespace();
    let code = parts.next().unwrap_or("000");
    let size: u64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    if code == "200" && size > 0 {
        Ok(())
    } else {
        Err(format!("{url} {headers:?}: HTTP {code}, {size} bytes"))
    }
}

struct Setup<'a> {
    opts: &'a Opts,
    variants: &'a [Variant],
    scen: &'a [Scenario],
    tmp: &'a Path,
    env: Env,
    server: Launch,
    upstream: Launch,
    client: Launch,
    script: PathBuf,
}

fn run_mode(
    name: &str,
    link: &str,
    link_mbit: Option<u32>,
    s: &Setup,
) -> Result<ModeResult, String> {
    let started = Instant::now();
    let dir = s.tmp.join(name);
    let mut port = s.opts.port;
    let mut next_port = || {
        port += 2;
        port
    };
    let up_port = next_port();
    let up_dir = dir.join("upstream");
    let up_conf = variants::write_upstream(&s.env, &up_dir, &format!("{}:{up_port}", s.env.addr))?;
    let mut env = s.env.clone();
    env.upstream = format!("{}:{up_port}", env.addr);
    let mut upstream = Nginx::start("upstream", &up_dir, &up_conf, 1, &s.upstream)?;
    let families: Vec<Family> = Family::ALL
        .into_iter()
        .filter(|f| s.scen.iter().any(|sc| sc.family == *f))
        .collect();
    // instances[variant][family index in Family::ALL]
    let mut instances: Vec<Vec<Option<(Nginx, u16)>>> = Vec::new();
    for v in s.variants {
        let mut row = Vec::new();
        for f in Family::ALL {
            if !families.contains(&f) {
                row.push(None);
                continue;
            }
            let p = next_port();
            let prefix = dir.join(format!("{}-{}", v.name, f.name()));
            let w = variants::write(v, f, &env, &prefix, p)?;
            let launch = Launch {
                nofile: w.nofile,
                ..s.server.clone()
            };
            let n = Nginx::start(
                &format!("{} ({})", v.name, f.name()),
                &prefix,
                &w.conf,
                env.workers,
                &launch,
            )?;
            row.push(Some((n, p)));
        }
        instances.push(row);
    }
    let fam_index = |f: Family| Family::ALL.iter().position(|x| *x == f).unwrap_or(0);
    for sc in s.scen {
        for (vi, v) in s.variants.iter().enumerate() {
            if let Some((_, p)) = &instances[vi][fam_index(sc.family)] {
                let scheme = if sc.family == Family::Tls {
                    "https"
                } else {
                    "http"
                };
                sanity(&s.client, &url(scheme, &env.addr, *p, sc.path), sc.headers)
                    .map_err(|e| format!("{} answers wrongly: {e}", v.name))?;
            }
        }
    }
    let mut cells: Vec<Cell> = Vec::new();
    for sc in s.scen {
        // Over a shaped link the link is the bottleneck: one connection count (50) is enough
        // unless --conns says otherwise.
        let default: &[u32] = if link_mbit.is_some() { &[50] } else { sc.conns };
        for &c in s.opts.conns.as_deref().unwrap_or(default) {
            cells.push(Cell {
                scenario: sc.clone(),
                conns: c,
                samples: vec![Vec::new(); s.variants.len()],
            });
        }
    }
    let total = cells.len() * s.variants.len() * s.opts.rounds;
    let mut done = 0;
    for round in 0..s.opts.rounds {
        for cell in &mut cells {
            // Rotate the order every round (A B C, B C A, C A B …), so a periodic disturbance
            // or a warm-up effect does not always hit the same variant.
            let count = s.variants.len();
            for vi in (0..count).map(|i| (i + round) % count) {
                let variant = &s.variants[vi];
                let Some((n, p)) = &instances[vi][fam_index(cell.scenario.family)] else {
                    continue;
                };
                let scheme = if cell.scenario.family == Family::Tls {
                    "https"
                } else {
                    "http"
                };
                let before_log = warn_lines(&n.error_log()).len();
                let cpu0 = n.cpu_ns();
                // A TLS run starts with a handshake storm (every connection at once, ~0.1 s
                // for 200 on an idle machine), so TLS runs last ≥ 2 s outside the smoke test.
                let seconds = if cell.scenario.family == Family::Tls && !s.opts.quick {
                    s.opts.seconds.max(2)
                } else {
                    s.opts.seconds
                };
                let r = wrk::run(
                    &s.client,
                    &s.script,
                    &url(scheme, &env.addr, *p, cell.scenario.path),
                    cell.conns,
                    seconds,
                    cell.scenario.headers,
                )
                .map_err(|e| {
                    format!("{} {} c{}: {e}", variant.name, cell.scenario.id, cell.conns)
                })?;
                let cpu = n.cpu_ns().saturating_sub(cpu0);
                let log_lines = warn_lines(&n.error_log()).len().saturating_sub(before_log);
                cell.samples[vi].push(Sample {
                    wrk: r,
                    cpu_ns: cpu,
                    log_lines,
                });
                done += 1;
                eprintln!(
                    "[{name} {done}/{total}] round {} {:<9} c{:<4} {:<12} {:>9.0} req/s  p99 {:>7.2} ms  errors {}",
                    round + 1,
                    cell.scenario.id,
                    cell.conns,
                    variant.name,
                    r.rps(),
                    r.p99_us as f64 / 1000.0,
                    r.errors()
                );
                // Let connections in TIME_WAIT and the last requests drain.
                sleep(Duration::from_millis(50));
            }
        }
    }
    let mut logs = Vec::new();
    for (vi, v) in s.variants.iter().enumerate() {
        for (fi, f) in Family::ALL.iter().enumerate() {
            if let Some((n, _)) = &mut instances[vi][fi] {
                let text = n.error_log();
                let mut msgs: Vec<String> = Vec::new();
                for l in warn_lines(&text) {
                    let m = message(l);
                    if !msgs.contains(&m) {
                        msgs.push(m);
                    }
                }
                logs.push((v.name.clone(), f.name().to_string(), n.worker_cpus(), msgs));
                n.stop();
            }
        }
    }
    upstream.stop();
    Ok(ModeResult {
        link_mbit,
        workers: env.workers,
        name: name.to_string(),
        link: link.to_string(),
        cells,
        logs,
        wall: started.elapsed(),
    })
}

fn real_main() -> Result<bool, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = parse_args(&args)?;
    preflight()?;
    proc::install_handlers();
    let begun = Instant::now();
    let tmp = std::env::temp_dir().join(format!("nginx-gen-bench.{}", std::process::id()));
    fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    // www-data workers must reach the site and the temp directories.
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
    proc::register_tmp(if opts.keep { None } else { Some(tmp.clone()) });
    if opts.keep {
        eprintln!("keeping {}", tmp.display());
    }
    let site_dir = tmp.join("site");
    site::write(&site_dir).map_err(|e| format!("site: {e}"))?;
    let script = tmp.join("report.lua");
    fs::write(&script, LUA).map_err(|e| e.to_string())?;
    // The TLS scenario's certificate (the sites answer to bench.test).
    let nginx_gen_testsupport::Certificate { cert, key } =
        nginx_gen_testsupport::self_signed(&tmp, "bench.test")?;
    let (nginx_version, openssl_version) = versions()?;
    let workers = host::parse_cpu_list(&opts.nginx_cpus)
        .ok_or(format!("--nginx-cpus: not a CPU list: {}", opts.nginx_cpus))?
        .len();
    let env = Env {
        site: site_dir.clone(),
        addr: "127.0.0.1".into(),
        cert,
        key,
        upstream: String::new(),
        workers,
        ram: ram_gib()?,
        nginx_version,
        openssl_version,
    };
    // Precompress with the exact command nginx-gen prints for this site.
    let plan = nginx_gen_core::Plan::new(&variants::gen_inputs(&env, Family::Static, opts.port)?);
    let precompress = plan
        .precompress
        .clone()
        .ok_or("nginx-gen printed no precompress command")?;
    let st = Command::new("sh")
        .args(["-c", &precompress])
        .status()
        .map_err(|e| e.to_string())?;
    if !st.success() {
        return Err(format!("precompress command failed: {precompress}"));
    }
    let mut variants = Variant::builtin();
    variants.extend(opts.extra.iter().cloned());
    let scen: Vec<Scenario> = scenarios()
        .into_iter()
        .filter(|s| {
            opts.only
                .as_ref()
                .is_none_or(|o| o.iter().any(|x| x == s.id))
        })
        .collect();
    let nofile_wrk = (65_536, 65_536);
    let mut setup = Setup {
        opts: &opts,
        variants: &variants,
        scen: &scen,
        tmp: &tmp,
        env,
        server: Launch {
            netns: None,
            cpus: opts.nginx_cpus.clone(),
            nofile: variants::SYSTEMD_NOFILE,
        },
        upstream: Launch {
            netns: None,
            cpus: opts.wrk_cpus.clone(),
            nofile: nofile_wrk,
        },
        client: Launch {
            netns: None,
            cpus: opts.wrk_cpus.clone(),
            nofile: nofile_wrk,
        },
        script,
    };
    let mut modes = Vec::new();
    let mut notes = Vec::new();
    if opts.loopback {
        modes.push(run_mode(
            "loopback",
            "loopback (127.0.0.1), no shaping",
            None,
            &setup,
        )?);
    }
    if opts.shaped {
        match netns::Link::create() {
            Err(e) => {
                let msg = format!(
                    "shaped-link mode SKIPPED: network namespaces are not permitted here ({e})"
                );
                eprintln!("{msg}");
                notes.push(msg);
            }
            Ok(link) => {
                setup.env.addr = netns::SERVER_ADDR.into();
                setup.server.netns = Some(link.server.clone());
                setup.upstream.netns = Some(link.server.clone());
                setup.client.netns = Some(link.client.clone());
                for &mbit in &opts.links {
                    link.shape(mbit)?;
                    modes.push(run_mode(
                        &format!("shaped-{mbit}mbit"),
                        &link.describe(mbit),
                        Some(mbit),
                        &setup,
                    )?);
                }
            }
        }
    }
    // In the smoke run (50 connections) any error means the harness or a configuration is
    // broken; in the full run errors are results (stock's 768 connections at c1000).
    let ok = !opts.quick || report::harness_ok(&modes);
    let summary = report::console(&modes, &variants);
    println!("{summary}");
    if let Some(out) = &opts.out {
        let meta = report::Meta::collect(&opts, &setup.env, &precompress, begun.elapsed(), notes);
        report::write(out, &modes, &variants, &meta)?;
        eprintln!("wrote {} (and its .svg)", out.display());
    }
    proc::cleanup();
    Ok(ok)
}

fn main() {
    match real_main() {
        Ok(true) => {}
        Ok(false) => {
            eprintln!(
                "nginx-gen-bench: errors during the run (see the table): the harness or a configuration is broken"
            );
            std::process::exit(1);
        }
        Err(e) => {
            proc::cleanup();
            eprintln!("nginx-gen-bench: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse() {
        let o = parse_args(&["--quick".into()]).expect("valid");
        assert_eq!((o.rounds, o.seconds, o.out.is_none()), (1, 1, true));
        assert_eq!(o.conns, Some(vec![50]));
        let o = parse_args(&[]).expect("valid");
        assert_eq!(o.out, Some(PathBuf::from("docs/benchmarks.md")));
        assert!(parse_args(&["--only".into(), "nope".into()]).is_err());
        assert!(parse_args(&["--rounds".into()]).is_err());
    }

    #[test]
    fn log_messages_collapse() {
        let l = "2026/11/29 23:00:00 [warn] 123#123: *5 an upstream response is buffered to a temporary file, client: 127.0.0.1, server: _";
        assert_eq!(
            message(l),
            "an upstream response is buffered to a temporary file"
        );
        assert_eq!(warn_lines("a [notice] x\nb [warn] y\n").len(), 1);
    }
}
