//! The measurement: every variant's instances started, checked to answer 200, and loaded
//! with wrk in interleaved rounds, one mode (loopback, or a shaped link rate) at a time.

use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::opts::Opts;
use crate::prepare::Prepared;
use crate::proc::{Launch, Nginx};
use crate::results::{Cell, InstanceLog, ModeResult, Sample};
use crate::scenario::{Scenario, Tool};
use crate::slowapp::SlowApp;
use crate::variants::{self, Env, Family, Variant};
use crate::{h2load, handshake, netns, site, wrk};

/// The distinct messages of a log's warnings, in their order.
fn distinct_messages(log: &str) -> Vec<String> {
    let mut msgs: Vec<String> = Vec::new();
    for l in warn_lines(log) {
        let m = message(l);
        if !msgs.contains(&m) {
            msgs.push(m);
        }
    }
    msgs
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
pub(crate) fn message(line: &str) -> String {
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
/// configuration must stop the run, not produce numbers. With `h2`, curl offers HTTP/2 and
/// the answer says whether the server took it (`Ok(false)`: it answered over HTTP/1.1).
fn sanity(client: &Launch, url: &str, headers: &[&str], h2: bool) -> Result<bool, String> {
    let mut cmd = client.command("curl");
    cmd.args([
        "-sk",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code} %{size_download} %{http_version}",
        "--max-time",
        "5",
    ]);
    if h2 {
        cmd.arg("--http2");
    }
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
    let version = parts.next().unwrap_or("");
    if code == "200" && size > 0 {
        Ok(version == "2")
    } else {
        Err(format!("{url} {headers:?}: HTTP {code}, {size} bytes"))
    }
}

/// What every mode runs with.
pub struct Setup<'a> {
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

impl<'a> Setup<'a> {
    /// nginx on `--nginx-cpus` with its service's file limit; wrk and the upstream on
    /// `--wrk-cpus`; all on loopback until [`all`] moves them into the link's namespaces.
    pub fn new(
        opts: &'a Opts,
        variants: &'a [Variant],
        scen: &'a [Scenario],
        prepared: &'a Prepared,
    ) -> Self {
        let wrk = Launch {
            netns: None,
            cpus: opts.wrk_cpus.clone(),
            nofile: (variants::LOAD_NOFILE, variants::LOAD_NOFILE),
            cgroup: None,
        };
        Self {
            opts,
            variants,
            scen,
            tmp: &prepared.tmp,
            env: prepared.env.clone(),
            server: Launch {
                netns: None,
                cpus: opts.nginx_cpus.clone(),
                nofile: variants::SYSTEMD_NOFILE,
                cgroup: None,
            },
            upstream: wrk.clone(),
            client: wrk,
            script: prepared.script.clone(),
        }
    }
}

/// Runs the loopback mode (unless `--shaped-only`) and, with `--shaped`, one mode per link
/// rate. Returns the modes and notes for the report (a shaped mode that could not run).
pub fn all(mut setup: Setup) -> Result<(Vec<ModeResult>, Vec<String>), String> {
    let opts = setup.opts;
    let mut modes = Vec::new();
    let mut notes = Vec::new();
    if opts.loopback() {
        modes.push(run_mode("loopback (127.0.0.1), no shaping", None, &setup)?);
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
                    modes.push(run_mode(&link.describe(mbit), Some(mbit), &setup)?);
                }
            }
        }
    }
    Ok((modes, notes))
}

/// The loopback mode alone, its instances in `dir` under the run's temporary directory:
/// a stage of the search, or the load test's losses measured again (`opts` says which
/// scenarios, connection counts and rounds, and whether together).
pub fn loopback(
    opts: &Opts,
    prepared: &Prepared,
    dir: &str,
    scen: &[Scenario],
    variants: &[Variant],
) -> Result<ModeResult, String> {
    let prep = prepared.under(dir)?;
    let (mut modes, _) = all(Setup::new(opts, variants, scen, &prep))?;
    modes
        .pop()
        .filter(|m| m.link_mbit.is_none())
        .ok_or_else(|| "the loopback stage measured nothing".into())
}

/// One instance under load in a cell.
struct Target<'a> {
    nginx: &'a Nginx,
    port: u16,
    /// h2load's per-request log (one per instance: together, they run at once).
    h2load_log: PathBuf,
}

/// One run of the cell's load tool against `t`, with the CPU time its nginx used meanwhile
/// and the warnings it logged.
fn load(s: &Setup, env: &Env, cell: &Cell, t: &Target) -> Result<Sample, String> {
    let sc = &cell.scenario;
    let scheme = if sc.tls() { "https" } else { "http" };
    let before_log = warn_lines(&t.nginx.error_log()).len();
    let cpu0 = t.nginx.cpu_ns();
    let r = match sc.tool() {
        Tool::Wrk => wrk::run(
            &s.client,
            &s.script,
            &url(scheme, &env.addr, t.port, sc.path),
            cell.conns,
            sc.run_seconds(s.opts.seconds, cell.conns, s.opts.quick),
            sc.headers,
        ),
        Tool::H2load { streams } => h2load::run(
            &s.client,
            &env.addr,
            t.port,
            sc.path,
            cell.conns,
            streams,
            s.opts.seconds,
            &t.h2load_log,
        ),
        Tool::Handshake { resume } => handshake::run(
            &s.client,
            &s.script.with_file_name(handshake::SCRIPT_NAME),
            &env.addr,
            t.port,
            sc.path,
            cell.conns,
            s.opts.seconds,
            resume,
        ),
    }?;
    let cpu_ns = t.nginx.cpu_ns().saturating_sub(cpu0);
    let log_lines = warn_lines(&t.nginx.error_log())
        .len()
        .saturating_sub(before_log);
    // Let connections in TIME_WAIT and the last requests drain.
    sleep(Duration::from_millis(50));
    Ok(Sample {
        wrk: r,
        cpu_ns,
        log_lines,
    })
}

/// The cells of a mode: each scenario at each of its connection counts.
fn cells(s: &Setup, link_mbit: Option<u32>) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Vec::new();
    for sc in s.scen {
        // Over a shaped link the link is the bottleneck: one connection count (50) is enough
        // unless --conns says otherwise. The handshake client runs a process per connection
        // and loads no link: its scenarios keep their own count there and in the smoke run
        // (whose 50 connections would be 50 processes forked on the load tools' CPU).
        let handshake = matches!(sc.tool(), Tool::Handshake { .. });
        let default: &[u32] = if link_mbit.is_some() && !handshake {
            &[50]
        } else {
            sc.conns
        };
        let conns = if s.opts.quick && handshake {
            sc.conns
        } else {
            s.opts.conns.as_deref().unwrap_or(default)
        };
        for &c in conns {
            cells.push(Cell {
                scenario: sc.clone(),
                conns: c,
                samples: vec![Vec::new(); s.variants.len()],
            });
        }
    }
    cells
}

fn run_mode(link: &str, link_mbit: Option<u32>, s: &Setup) -> Result<ModeResult, String> {
    let started = Instant::now();
    let name = crate::results::mode_name(link_mbit);
    let dir = s.tmp.join(&name);
    let mut port = s.opts.port;
    let mut next_port = || {
        port += 2;
        port
    };
    let up_port = next_port();
    let up_dir = dir.join("upstream");
    // The slow application behind the upstream's /slow/, when a scenario asks for it.
    let app_addr = s
        .scen
        .iter()
        .any(|sc| sc.path == site::SLOW)
        .then(|| format!("{}:{}", s.env.addr, next_port()));
    let mut slow_app = app_addr
        .as_deref()
        .map(|a| SlowApp::start(&s.upstream, a, &s.env.site.join("index.html")))
        .transpose()?;
    let mut cells = cells(s, link_mbit);
    // Together, every variant's clients reach the upstream at once.
    let at_once = if s.opts.together { s.variants.len() } else { 1 };
    let peak = cells
        .iter()
        .filter(|c| c.scenario.family == Family::Proxy)
        .map(|c| u64::from(c.conns))
        .max()
        .unwrap_or(0)
        * at_once as u64;
    let slots = variants::upstream_fits(peak)?;
    let up_conf = variants::write_upstream_with(
        &s.env,
        &up_dir,
        &format!("{}:{up_port}", s.env.addr),
        app_addr.as_deref(),
        slots,
    )?;
    let mut env = s.env.clone();
    env.upstream = format!("{}:{up_port}", env.addr);
    let mut upstream = Nginx::start("upstream", &up_dir, &up_conf, 1, &s.upstream)?;
    let families: Vec<Family> = Family::ALL
        .into_iter()
        .filter(|f| s.scen.iter().any(|sc| sc.family == *f))
        .collect();
    // instances[variant][family index in Family::ALL].
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
            let label = format!("{} ({})", v.name, f.name());
            let n = Nginx::start(&label, &prefix, &w.conf, env.workers, &launch)?;
            row.push(Some((n, p)));
        }
        instances.push(row);
    }
    let fam_index = |f: Family| Family::ALL.iter().position(|x| *x == f).unwrap_or(0);
    // (scenario, variant) pairs that do not apply: HTTP/2 where the server does not offer it.
    let mut not_applicable: Vec<(&str, usize)> = Vec::new();
    for sc in s.scen {
        for (vi, v) in s.variants.iter().enumerate() {
            if let Some((_, p)) = &instances[vi][fam_index(sc.family)] {
                let scheme = if sc.tls() { "https" } else { "http" };
                let h2 = sanity(
                    &s.client,
                    &url(scheme, &env.addr, *p, sc.path),
                    sc.headers,
                    sc.needs_h2(),
                )
                .map_err(|e| format!("{} answers wrongly: {e}", v.name))?;
                if sc.needs_h2() && !h2 {
                    eprintln!(
                        "[{name}] {}: {} does not offer HTTP/2: not run",
                        sc.id, v.name
                    );
                    not_applicable.push((sc.id, vi));
                }
            }
        }
    }
    let total = cells.len() * s.variants.len() * s.opts.rounds;
    let mut done = 0;
    for round in 0..s.opts.rounds {
        // Every instance starts afresh each round after the first (see `Nginx::restart`).
        if round > 0 {
            for (n, _) in instances.iter_mut().flatten().flatten() {
                n.restart()?;
            }
        }
        for cell in &mut cells {
            // Rotate the order every round (A B C, B C A, C A B …), so a periodic disturbance
            // or a warm-up effect does not always hit the same variant (run together, the
            // order is only the order their clients start in).
            let count = s.variants.len();
            let family = fam_index(cell.scenario.family);
            let order: Vec<usize> = (0..count)
                .map(|i| (i + round) % count)
                .filter(|&vi| !not_applicable.contains(&(cell.scenario.id, vi)))
                .filter(|&vi| instances[vi][family].is_some())
                .collect();
            let target = |vi: usize| {
                let (n, p) = instances[vi][family].as_ref().expect("filtered above");
                Target {
                    nginx: n,
                    port: *p,
                    h2load_log: dir.join(format!("h2load-{vi}.log")),
                }
            };
            let mut record = |cell: &mut Cell, vi: usize, sample: Result<Sample, String>| {
                let variant = &s.variants[vi];
                let sample = sample.map_err(|e| {
                    format!("{} {} c{}: {e}", variant.name, cell.scenario.id, cell.conns)
                })?;
                let r = sample.wrk;
                cell.samples[vi].push(sample);
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
                Ok::<(), String>(())
            };
            if s.opts.together {
                // Every variant at once, each by its own client.
                let measured: Vec<(usize, Result<Sample, String>)> = std::thread::scope(|scope| {
                    let runs: Vec<_> = order
                        .iter()
                        .map(|&vi| {
                            let t = target(vi);
                            let (cell, env) = (&*cell, &env);
                            (vi, scope.spawn(move || load(s, env, cell, &t)))
                        })
                        .collect();
                    runs.into_iter()
                        .map(|(vi, h)| {
                            let r = h
                                .join()
                                .unwrap_or_else(|_| Err("load thread panicked".into()));
                            (vi, r)
                        })
                        .collect()
                });
                for (vi, sample) in measured {
                    record(cell, vi, sample)?;
                }
            } else {
                for &vi in &order {
                    let sample = load(s, &env, cell, &target(vi));
                    record(cell, vi, sample)?;
                }
            }
        }
    }
    let log_of = |variant: &str, family: Family, n: &Nginx| InstanceLog {
        variant: variant.to_string(),
        family: family.name().to_string(),
        worker_cpus: n.worker_cpus(),
        messages: distinct_messages(&n.error_log()),
    };
    let mut logs = Vec::new();
    for (vi, v) in s.variants.iter().enumerate() {
        for (fi, f) in Family::ALL.iter().enumerate() {
            if let Some((n, _)) = &mut instances[vi][fi] {
                logs.push(log_of(&v.name, *f, n));
                n.stop();
            }
        }
    }
    // The upstream's too, where proxies ran: short of slots it warns, and they lose requests.
    if families.contains(&Family::Proxy) {
        logs.push(log_of(
            "upstream (not under test)",
            Family::Proxy,
            &upstream,
        ));
    }
    upstream.stop();
    if let Some(app) = &mut slow_app {
        app.stop();
    }
    Ok(ModeResult {
        link_mbit,
        workers: env.workers,
        link: link.to_string(),
        cells,
        logs,
        wall: started.elapsed(),
        rechecks: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
