//! `nginx-gen-bench capacity`: does the generated configuration hold the connections it is
//! planned for?
//!
//! For each machine size (`--sizes 1:512M,2:2G,4:8G`) and load (`static`, `tls`), the
//! `nginx-gen` binary of this workspace writes the tree (`--no-detect --vcpu N --ram R
//! --out DIR`) and prints its plan (`--format json`); Debian's nginx runs the tree in a
//! network namespace of the run's own, pinned with `taskset` to as many of this machine's
//! CPUs as the size has (fewer when the machine has fewer: said in the report), in a cgroup
//! v2 with `memory.max` = RAM where one can be made. Then [`client`] opens the planned
//! number of keep-alive clients (one request each, answered, kept open), a share of them
//! fetches a large file read slowly, and 20 % more clients arrive. [`measure`] reads nginx's
//! memory and error log at each step; [`report`] writes the Markdown section.

mod client;
mod measure;
mod report;

use std::fs;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use clap::builder::PossibleValuesParser;
use clap::{ArgAction, Args};
use nginx_gen::host;
use serde_json::Value;

use crate::proc::{self, Launch, Nginx};
use crate::variants::relocate;
use client::{Active, Tally, Target};
use measure::{Cgroup, LogScan, Memory};

/// The factor of the overload step.
const OVER: f64 = 1.2;
/// What every idle client asks for (1.5 KB; its location logs nothing).
const SMALL: &str = "/img/icon-0.png";
/// What active clients fetch, read slowly (a sparse file: no disk space).
const BIG: &str = "/capacity/big.bin";
const BIG_BYTES: u64 = 256 << 20;
/// Bytes an active client reads per turn, and the pause between turns.
const SLOW_READ: usize = 4096;
const SLOW_TURN: Duration = Duration::from_millis(250);
/// Client threads (TLS handshakes are CPU-bound on the client side too).
const THREADS: usize = 4;
/// The kernel memory the downloads' send queues may take: a slow reader's socket queues up
/// to `tcp_wmem`'s maximum (4 MiB), and TCP memory is shared by the whole host (pressure
/// starts at 1.5 GiB on this 24 GiB machine), so the namespace's maximum is lowered to
/// keep all queues within this.
const KERNEL_BUDGET: u64 = 768 << 20;
const WMEM_DEFAULT_MAX: u64 = 4 << 20;

/// `nginx-gen-bench capacity`: hold the planned clients on a live nginx, per machine size
///
/// For each size, nginx-gen (the CLI binary) writes the configuration and its plan; Debian's
/// nginx runs it in a network namespace, pinned to the size's CPUs; the planned number of
/// keep-alive clients connect (plain HTTP and TLS), a share of them downloads a large file
/// slowly, then 20 % more arrive. Reports clients held, error-log lines
/// (`worker_connections are not enough`, `Too many open files`) and nginx's memory against
/// the plan's estimate. Run as root. docs/benchmarks.md ("Capacity") explains the method.
#[derive(Debug, Clone, Args)]
#[allow(
    clippy::doc_markdown,
    reason = "the doc comments are the --help text, printed as written"
)]
pub struct CapacityOpts {
    /// Smoke run: one size (1:512M unless --sizes), a 2 s active window; fails only when
    /// the harness breaks or errors appear at 1.0× the planned clients
    #[arg(long)]
    pub quick: bool,

    /// Machine sizes VCPU:RAM, comma-separated [default: 1:512M,2:2G,4:8G; 1:512M with
    /// --quick]
    #[arg(long, value_name = "LIST", value_delimiter = ',', action = ArgAction::Set,
          value_parser = Size::parse)]
    pub sizes: Option<Vec<Size>>,

    /// Loads, comma-separated: plain HTTP (`static`) and HTTPS (`tls`)
    #[arg(long, value_name = "LIST", value_delimiter = ',', action = ArgAction::Set,
          default_value = "static,tls", value_parser = PossibleValuesParser::new(["static", "tls"]))]
    pub loads: Vec<String>,

    /// Share of the clients that download a large file during the active step, 0–1
    /// [default: the plan's capacity.active_clients; without it, every client, as the
    /// plan's peak_memory assumes]
    #[arg(long, value_name = "SHARE", value_parser = share)]
    pub active_share: Option<f64>,

    /// CPUs nginx may be pinned to (`taskset -c` list); a size gets the first N [default:
    /// this process's CPUs]
    #[arg(long, value_name = "LIST", value_parser = cpu_list)]
    pub cpus: Option<String>,

    /// First port (each configuration takes the next two, inside the run's namespace)
    #[arg(long, value_name = "N", default_value_t = 28700)]
    pub port: u16,

    /// The nginx-gen binary [default: `nginx-gen` next to this program]
    #[arg(long, value_name = "FILE")]
    pub nginx_gen: Option<PathBuf>,

    /// Markdown file for the report section (only the capacity section of an existing
    /// file is replaced, or it is appended) [default: printed only]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Keep the temporary directory (configurations, logs) and print its path
    #[arg(long)]
    pub keep: bool,
}

fn share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("`{s}` is not a share between 0 and 1")),
    }
}

fn cpu_list(s: &str) -> Result<String, String> {
    host::parse_cpu_list(s)
        .map(|_| s.trim().to_string())
        .ok_or_else(|| format!("`{s}` is not a CPU list such as 0, 0,2 or 0-3"))
}

impl CapacityOpts {
    pub fn sizes(&self) -> Vec<Size> {
        self.sizes.clone().unwrap_or_else(|| {
            let list: &[(u32, &str)] = if self.quick {
                &[(1, "512M")]
            } else {
                &[(1, "512M"), (2, "2G"), (4, "8G")]
            };
            list.iter()
                .map(|&(vcpu, ram)| Size {
                    vcpu,
                    ram: ram.into(),
                })
                .collect()
        })
    }
}

/// A machine size: vCPUs and RAM as nginx-gen reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Size {
    pub vcpu: u32,
    pub ram: String,
}

impl Size {
    /// `VCPU:RAM`, e.g. `2:2G` or `1:512MiB`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let (v, r) = s
            .trim()
            .split_once(':')
            .ok_or_else(|| format!("`{s}` is not VCPU:RAM, e.g. 2:2G"))?;
        let vcpu = v
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=1024).contains(n))
            .ok_or_else(|| format!("`{v}` is not a vCPU count 1–1024"))?;
        let ram = r.trim();
        ram.parse::<nginx_gen_core::ByteSize>()
            .map_err(|_| format!("`{ram}` is not a memory size such as 512M or 2G"))?;
        Ok(Self {
            vcpu,
            ram: ram.to_string(),
        })
    }

    pub fn ram_bytes(&self) -> u64 {
        self.ram
            .parse::<nginx_gen_core::ByteSize>()
            .map_or(0, nginx_gen_core::ByteSize::as_u64)
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} vCPU, {}", self.vcpu, self.ram)
    }
}

/// The plan's capacity and the settings the run needs, from `nginx-gen --format json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub clients: u64,
    pub slots: u64,
    pub peak_memory: u64,
    /// `capacity.idle_memory`, when the model has it.
    pub idle_memory: Option<u64>,
    /// `capacity.active_clients`, when the model has it.
    pub active_clients: Option<u64>,
    pub workers: u32,
    pub keepalive: Duration,
    pub limit_nofile: u64,
}

/// An nginx time (`30s`, `75`, `1m`, `500ms`).
fn nginx_duration(v: &str) -> Option<Duration> {
    let v = v.trim();
    let split = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let n: u64 = v[..split].parse().ok()?;
    Some(match &v[split..] {
        "" | "s" => Duration::from_secs(n),
        "ms" => Duration::from_millis(n),
        "m" => Duration::from_mins(n),
        "h" => Duration::from_hours(n),
        _ => return None,
    })
}

impl Planned {
    pub fn from_json(plan: &Value) -> Result<Self, String> {
        let c = &plan["capacity"];
        let field = |k: &str| c.get(k).and_then(Value::as_u64);
        let need = |k: &str| field(k).ok_or(format!("the plan has no capacity.{k}"));
        let setting = |name: &str| {
            plan["settings"].as_array().and_then(|list| {
                list.iter()
                    .find(|s| s["name"] == name)
                    .and_then(|s| s["value"].as_str())
            })
        };
        let workers = setting("worker_processes")
            .and_then(|v| v.parse().ok())
            .ok_or("the plan has no numeric worker_processes")?;
        Ok(Self {
            clients: need("clients")?,
            slots: need("connection_slots")?,
            peak_memory: need("peak_memory")?,
            idle_memory: field("idle_memory"),
            active_clients: field("active_clients"),
            workers,
            // nginx's default when the plan leaves it out.
            keepalive: setting("keepalive_timeout")
                .and_then(nginx_duration)
                .unwrap_or(Duration::from_secs(75)),
            limit_nofile: setting("LimitNOFILE")
                .and_then(|v| v.parse().ok())
                .unwrap_or(proc::hard_nofile()),
        })
    }

    /// The estimate the idle step is compared with, and its name.
    pub fn idle_estimate(&self) -> (u64, &'static str) {
        match self.idle_memory {
            Some(b) => (b, "idle_memory"),
            None => (self.peak_memory, "peak_memory"),
        }
    }
}

/// The 1.2× step.
#[derive(Debug, Default, Clone)]
pub struct Over {
    pub target: u64,
    /// The extra clients' connections.
    pub opened: Tally,
    /// All connections probed after the step.
    pub held: Tally,
    /// A fresh connection's request.
    pub fresh: Tally,
    pub running: bool,
    pub log: LogScan,
}

impl Over {
    /// Refusing the excess is fine; crashing, not answering a newcomer or running out of
    /// file descriptors is not.
    pub fn graceful(&self) -> bool {
        self.running && self.fresh.ok == 1 && self.log.files == 0
    }
}

/// One configuration under load.
#[derive(Debug, Clone)]
pub struct Row {
    pub load: String,
    pub planned: Planned,
    pub baseline: Memory,
    pub open_secs: f64,
    pub opened: Tally,
    pub held: Tally,
    pub idle: Memory,
    /// Server sockets and their kernel buffer bytes.
    pub idle_kernel: (u64, u64),
    pub active_count: u64,
    pub active: Tally,
    pub active_mem: Memory,
    pub active_kernel: (u64, u64),
    /// `memory.current` of the cgroup, idle and active.
    pub cgroup: Option<(u64, u64)>,
    pub log: LogScan,
    pub running: bool,
    pub over: Over,
}

impl Row {
    /// The smoke test's bar at 1.0×: every client answered and still open, every active
    /// download answered, nginx running, no slot or file exhaustion in the log.
    pub fn holds(&self) -> bool {
        u64::from(self.opened.ok) == self.planned.clients
            && self.opened.failures() == 0
            && self.held.failures() == 0
            && self.active.failures() == 0
            && self.running
            && !self.log.exhausted()
    }
}

/// One machine size.
#[derive(Debug, Clone)]
pub struct SizeResult {
    pub size: Size,
    /// The `taskset` list nginx ran on.
    pub cpus: String,
    pub cpu_count: usize,
    pub rows: Vec<Row>,
}

/// The run's namespace: loopback only, with an Ethernet-sized MTU.
struct Netns(String);

impl Netns {
    fn create() -> Result<Self, String> {
        let name = format!("ngb-cap-{}", std::process::id());
        nginx_gen_testsupport::run("ip", &["netns", "add", &name])?;
        proc::register_netns(&name);
        let me = Self(name);
        nginx_gen_testsupport::run("ip", &["-n", &me.0, "link", "set", "lo", "up"])?;
        // Socket buffers grow with the MSS: 65,483 bytes on a 64 KiB loopback would make
        // each slow download queue megabytes that no Ethernet client would see.
        nginx_gen_testsupport::run("ip", &["-n", &me.0, "link", "set", "lo", "mtu", "1500"])?;
        Ok(me)
    }

    /// Applies the `net.*` settings of a sysctl.d file inside the namespace (those that are
    /// not per namespace do not exist there and are listed as skipped).
    fn sysctls(&self, text: &str) -> Vec<String> {
        let mut skipped = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let key = key.trim();
            if line.starts_with('#') || !key.starts_with("net.") {
                continue;
            }
            let setting = format!("{key}={}", value.trim());
            if nginx_gen_testsupport::run(
                "ip",
                &["netns", "exec", &self.0, "sysctl", "-q", "-w", &setting],
            )
            .is_err()
            {
                skipped.push(key.to_string());
            }
        }
        skipped
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        let _ = nginx_gen_testsupport::run("ip", &["netns", "del", &self.0]);
        proc::forget_netns(&self.0);
    }
}

/// Raises this process's soft file limit to its hard limit; returns the limit.
fn raise_nofile() -> u64 {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut l = getrlimit(Resource::Nofile);
    l.current = l.maximum;
    let _ = setrlimit(Resource::Nofile, l);
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

/// This process's CPUs (`Cpus_allowed_list`).
fn own_cpus() -> Vec<u32> {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .and_then(|l| host::parse_cpu_list(l.trim()))
        })
        .unwrap_or_else(|| vec![0])
}

fn nginx_gen_binary(o: &CapacityOpts) -> Result<PathBuf, String> {
    let path = match &o.nginx_gen {
        Some(p) => p.clone(),
        None => std::env::current_exe()
            .map_err(|e| e.to_string())?
            .with_file_name("nginx-gen"),
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{} not found: build it (`cargo build -p nginx-gen`, same profile) or pass --nginx-gen",
            path.display()
        ))
    }
}

/// What every configuration shares.
struct Ctx<'a> {
    o: &'a CapacityOpts,
    cli: PathBuf,
    tmp: PathBuf,
    site: PathBuf,
    cert: PathBuf,
    key: PathBuf,
    nginx_version: String,
    openssl_version: String,
    netns: Option<Netns>,
    cgroup_parent: Option<PathBuf>,
    nofile: u64,
    notes: Vec<String>,
    /// (downloads, `tcp_wmem` maximum) where the maximum was lowered.
    wmem: Vec<(u64, u64)>,
}

/// The whole capacity run; `Ok(false)` when the quick run saw errors at 1.0×.
pub fn main(o: &CapacityOpts) -> Result<bool, String> {
    crate::prepare::preflight()?;
    proc::install_handlers();
    let begun = Instant::now();
    let cli = nginx_gen_binary(o)?;
    let tmp = std::env::temp_dir().join(format!("nginx-gen-bench-capacity.{}", std::process::id()));
    fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
    proc::register_tmp(if o.keep { None } else { Some(tmp.clone()) });
    if o.keep {
        eprintln!("keeping {}", tmp.display());
    }
    let site = tmp.join("site");
    crate::site::write(&site).map_err(|e| format!("site: {e}"))?;
    fs::create_dir_all(site.join("capacity")).map_err(|e| e.to_string())?;
    fs::File::create(site.join("capacity/big.bin"))
        .and_then(|f| f.set_len(BIG_BYTES))
        .map_err(|e| format!("big file: {e}"))?;
    let nginx_gen_testsupport::Certificate { cert, key } =
        nginx_gen_testsupport::self_signed(&tmp, "bench.test")?;
    let (nginx_version, openssl_version) = match host::nginx_versions(proc::NGINX) {
        Some((Some(n), Some(s))) => (n.to_string(), format!("{}.{}", s.major, s.minor)),
        _ => {
            return Err(format!(
                "`{} -V` names no nginx and OpenSSL version",
                proc::NGINX
            ));
        }
    };
    let mut notes = Vec::new();
    let netns = match Netns::create() {
        Ok(n) => Some(n),
        Err(e) => {
            notes.push(format!(
                "no network namespace ({e}): nginx ran on the host's loopback with its MTU and sysctls"
            ));
            None
        }
    };
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let cgroup_parent = match measure::cgroup_v2_parent(&mountinfo, |p| fs::read_to_string(p).ok())
    {
        Ok(p) => Some(p),
        Err(why) => {
            notes.push(format!(
                "RAM not enforced: {why}; the RAM size only reaches nginx-gen's plan"
            ));
            None
        }
    };
    let nofile = raise_nofile();
    let mut ctx = Ctx {
        o,
        cli,
        tmp,
        site,
        cert,
        key,
        nginx_version,
        openssl_version,
        netns,
        cgroup_parent,
        nofile,
        notes,
        wmem: Vec::new(),
    };
    let cpus: Vec<u32> = o
        .cpus
        .as_deref()
        .and_then(host::parse_cpu_list)
        .unwrap_or_else(own_cpus);
    let mut results = Vec::new();
    let mut port = o.port;
    for size in o.sizes() {
        let n = (size.vcpu as usize).min(cpus.len()).max(1);
        let list = cpus[..n]
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let mut rows = Vec::new();
        for load in &o.loads {
            eprintln!("[capacity] {size}, {load}: planning");
            rows.push(run_one(&mut ctx, &size, load, &list, port)?);
            port += 2;
        }
        results.push(SizeResult {
            size,
            cpus: list,
            cpu_count: n,
            rows,
        });
    }
    if !ctx.wmem.is_empty() {
        let caps: Vec<String> = ctx
            .wmem
            .iter()
            .map(|(n, cap)| {
                format!(
                    "{} for {} downloads",
                    report::bytes(*cap as f64),
                    crate::markdown::fmt_int(*n as f64)
                )
            })
            .collect();
        ctx.notes.push(format!(
            "`net.ipv4.tcp_wmem`'s maximum was lowered in the run's namespace (Linux: 4 MiB) so that the slow downloads' send queues stay within {} of the host's shared TCP memory: {}",
            report::bytes(KERNEL_BUDGET as f64),
            caps.join(", ")
        ));
    }
    let meta = report::Meta {
        date: crate::markdown::sh("date -u '+%Y-%m-%d %H:%M UTC'"),
        machine: format!(
            "{} CPUs ({}), Linux {}",
            own_cpus().len(),
            host::cpu_model().unwrap_or_else(|| "model unknown".into()),
            host::kernel_release().unwrap_or_else(|| "?".into())
        ),
        software: format!(
            "nginx {} (Debian package, OpenSSL {}), nginx-gen {} (tuning policy {})",
            ctx.nginx_version,
            ctx.openssl_version,
            nginx_gen_core::VERSION,
            nginx_gen_core::POLICY_VERSION
        ),
        quick: o.quick,
        took: begun.elapsed(),
        notes: std::mem::take(&mut ctx.notes),
    };
    let section = report::markdown(&results, &meta);
    println!("{section}");
    if let Some(out) = &o.out {
        report::write(out, &section)?;
        eprintln!("wrote {}", out.display());
    }
    drop(ctx);
    proc::cleanup();
    let holds = results.iter().all(|s| s.rows.iter().all(Row::holds));
    if !holds {
        eprintln!(
            "nginx-gen-bench capacity: a configuration did not hold its planned clients at 1.0× (see the table)"
        );
    }
    // In the full run a failure is a result; the smoke run fails on it.
    Ok(holds || !o.quick)
}

/// nginx-gen's arguments for one configuration.
fn cli_args(ctx: &Ctx, size: &Size, load: &str, port: u16) -> Vec<String> {
    let mut a: Vec<String> = [
        "--no-detect",
        "--vcpu",
        &size.vcpu.to_string(),
        "--ram",
        &size.ram,
        "--workload",
        "static",
        "--layout",
        "debian",
        "--nginx-version",
        &ctx.nginx_version,
        "--openssl-version",
        &ctx.openssl_version,
        "--server-name",
        "bench.test",
        "--root",
        &ctx.site.to_string_lossy(),
        "--listen",
        &format!("127.0.0.1:{port}"),
        // No status server on 127.0.0.1:81: configurations may run side by side.
        "--status-port",
        "0",
    ]
    .map(String::from)
    .to_vec();
    if load == "tls" {
        a.extend(
            [
                "--tls",
                "--tls-cert",
                &ctx.cert.to_string_lossy(),
                "--tls-key",
                &ctx.key.to_string_lossy(),
                "--tls-port",
                &(port + 1).to_string(),
            ]
            .map(String::from),
        );
    }
    a
}

fn run_cli(cli: &Path, args: &[String]) -> Result<String, String> {
    let out = Command::new(cli)
        .args(args)
        .output()
        .map_err(|e| format!("{}: {e}", cli.display()))?;
    if !out.status.success() {
        return Err(format!(
            "nginx-gen {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}

/// Copies nginx-gen's tree (`DIR/etc/nginx/…`) into nginx's prefix, paths relocated.
fn install_tree(out: &Path, prefix: &Path) -> Result<PathBuf, String> {
    let etc = out.join("etc/nginx");
    let p = prefix.to_string_lossy().to_string();
    let mut stack = vec![etc.clone()];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let path = e.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path.strip_prefix(&etc).map_err(|e| e.to_string())?;
            let target = prefix.join(rel);
            if let Some(d) = target.parent() {
                fs::create_dir_all(d).map_err(|e| e.to_string())?;
            }
            let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            fs::write(&target, relocate(&text, &p)).map_err(|e| e.to_string())?;
        }
    }
    for d in ["logs", "temp"] {
        fs::create_dir_all(prefix.join(d)).map_err(|e| e.to_string())?;
    }
    Ok(prefix.join("nginx.conf"))
}

fn nginx_pids(n: &Nginx) -> Vec<u32> {
    std::iter::once(n.pid())
        .chain(proc::children(n.pid()))
        .collect()
}

fn running(n: &Nginx, workers: u32) -> bool {
    proc::alive(n.pid()) && proc::children(n.pid()).len() >= workers as usize
}

/// Server-side sockets of `port` and their kernel buffers.
fn kernel(ctx: &Ctx, port: u16) -> (u64, u64) {
    let filter = format!("( sport = :{port} )");
    let mut args: Vec<&str> = Vec::new();
    if let Some(ns) = &ctx.netns {
        args.extend(["ip", "netns", "exec", &ns.0]);
    }
    args.extend(["ss", "-tmnH", "state", "established", &filter]);
    Command::new(args[0])
        .args(&args[1..])
        .output()
        .map_or((0, 0), |o| {
            measure::skmem(&String::from_utf8_lossy(&o.stdout))
        })
}

fn run_one(ctx: &mut Ctx, size: &Size, load: &str, cpus: &str, port: u16) -> Result<Row, String> {
    let label = format!("{size}, {load}");
    let dir = ctx.tmp.join(format!("{}-{}-{load}", size.vcpu, size.ram));
    let args = cli_args(ctx, size, load, port);
    let mut json_args = args.clone();
    json_args.extend(["--format".into(), "json".into()]);
    let plan: Value = serde_json::from_str(&run_cli(&ctx.cli, &json_args)?)
        .map_err(|e| format!("nginx-gen --format json: {e}"))?;
    let planned = Planned::from_json(&plan)?;
    let mut out_args = args;
    out_args.extend([
        "--out".into(),
        dir.join("tree").to_string_lossy().to_string(),
    ]);
    run_cli(&ctx.cli, &out_args)?;
    let prefix = dir.join("prefix");
    let conf = install_tree(&dir.join("tree"), &prefix)?;
    let need = (planned.clients as f64 * OVER).ceil() as u64 + 64;
    if need > ctx.nofile {
        return Err(format!(
            "{label}: the client needs {need} open files, this process may open {} (its hard limit)",
            ctx.nofile
        ));
    }
    let mut active_count = match ctx.o.active_share {
        Some(s) => (planned.clients as f64 * s).round() as u64,
        None => planned.active_clients.unwrap_or(planned.clients),
    };
    if let Some(ns) = &ctx.netns {
        let sysctl =
            fs::read_to_string(dir.join("tree/etc/sysctl.d/99-nginx-gen.conf")).unwrap_or_default();
        for key in ns.sysctls(&sysctl) {
            let note = format!(
                "`{key}` is not per network namespace: not applied (the host's value holds)"
            );
            if !ctx.notes.contains(&note) {
                ctx.notes.push(note);
            }
        }
        let cap = (KERNEL_BUDGET / active_count.max(1)).clamp(32 << 10, WMEM_DEFAULT_MAX);
        ns.sysctls(&format!("net.ipv4.tcp_wmem = 4096 16384 {cap}"));
        if cap < WMEM_DEFAULT_MAX && !ctx.wmem.contains(&(active_count, cap)) {
            ctx.wmem.push((active_count, cap));
        }
    } else if active_count * WMEM_DEFAULT_MAX / 16 > KERNEL_BUDGET {
        active_count = KERNEL_BUDGET * 16 / WMEM_DEFAULT_MAX;
        ctx.notes.push(format!(
            "{label}: only {active_count} downloads (no namespace of its own to bound their send queues in the host's shared TCP memory)"
        ));
    }
    let cgroup = match &ctx.cgroup_parent {
        Some(parent) => {
            let name = format!(
                "nginx-gen-bench-{}-{}-{}-{load}",
                std::process::id(),
                size.vcpu,
                size.ram
            );
            match Cgroup::create(parent, &name, size.ram_bytes()) {
                Ok(c) => Some(c),
                Err(e) => {
                    ctx.notes.push(format!("RAM not enforced for {label}: {e}"));
                    None
                }
            }
        }
        None => None,
    };
    let launch = Launch {
        netns: ctx.netns.as_ref().map(|n| n.0.clone()),
        cpus: cpus.to_string(),
        nofile: (planned.limit_nofile, planned.limit_nofile),
        cgroup: cgroup.as_ref().map(|c| c.dir.clone()),
    };
    let mut nginx = Nginx::start(&label, &prefix, &conf, planned.workers as usize, &launch)?;
    let tls = load == "tls";
    let target = Target::new(
        SocketAddrV4::new(Ipv4Addr::LOCALHOST, if tls { port + 1 } else { port }),
        tls,
        "bench.test",
        ctx.netns.as_ref().map(|n| n.0.as_str()),
    )?;
    let refresh = planned.keepalive / 2;
    let clients = planned.clients as usize;
    sleep(Duration::from_millis(300));
    let baseline = measure::memory(&nginx_pids(&nginx));

    // 1.0×: every planned client, answered once and kept open.
    eprintln!("[capacity] {label}: opening {clients} connections");
    let t0 = Instant::now();
    let (conns, opened) = client::open(&target, SMALL, 0, clients, THREADS)?;
    let open_secs = t0.elapsed().as_secs_f64();
    if let Some(why) = opened.harness_failure() {
        return Err(format!("{label}: the client failed ({why})"));
    }
    sleep(Duration::from_millis(500));
    let idle = measure::memory(&nginx_pids(&nginx));
    let idle_kernel = kernel(ctx, target.addr.port());
    let idle_cg = cgroup.as_ref().and_then(Cgroup::current);
    let (mut conns, held, _) = client::check(conns, &target, SMALL, refresh);
    eprintln!(
        "[capacity] {label}: {} answered in {open_secs:.1} s, {} still open; idle RSS {:.1} MiB",
        opened.ok,
        held.ok,
        idle.rss as f64 / 1_048_576.0
    );

    // Active: a share of them downloads a large file, read slowly.
    let active_count = active_count.min(conns.len() as u64);
    let split = conns.len() - active_count as usize;
    let mut active = Active::start(conns.split_off(split), &target, BIG);
    let window = if ctx.o.quick { 2 } else { 4 };
    let start = Instant::now();
    let mut active_mem = Memory::default();
    let mut active_cg = 0;
    while active_count > 0 && start.elapsed() < Duration::from_secs(window) {
        active.read_some(SLOW_READ);
        if start.elapsed() > Duration::from_secs(1) {
            active_mem = active_mem.max(measure::memory(&nginx_pids(&nginx)));
            active_cg = active_cg.max(cgroup.as_ref().and_then(Cgroup::current).unwrap_or(0));
        }
        sleep(SLOW_TURN);
    }
    let active_kernel = kernel(ctx, target.addr.port());
    let active_answers = active.answers();
    let log_text = nginx.error_log();
    let log = measure::scan(&log_text);
    let running_1 = running(&nginx, planned.workers);
    eprintln!(
        "[capacity] {label}: {} of {active_count} downloads answered; active RSS {:.1} MiB; log: {}",
        active_answers.ok,
        active_mem.rss as f64 / 1_048_576.0,
        log.describe()
    );

    // 1.2×: 20 % more clients; nginx must keep running and answer a fresh request.
    let extra = ((planned.clients as f64 * OVER).ceil() as usize).saturating_sub(clients);
    let (more, over_opened) = client::open(&target, SMALL, clients, extra, THREADS)?;
    let (fresh_conn, fresh) = client::open(&target, SMALL, clients + extra, 1, 1)?;
    conns.extend(more);
    conns.extend(active.into_conns());
    conns.extend(fresh_conn);
    let (conns, over_held, asked_again) = client::check(conns, &target, SMALL, refresh);
    let over_log = measure::scan(nginx.error_log().get(log_text.len()..).unwrap_or(""));
    let over = Over {
        target: (planned.clients as f64 * OVER).ceil() as u64,
        opened: over_opened,
        held: over_held,
        fresh,
        running: running(&nginx, planned.workers),
        log: over_log,
    };
    eprintln!(
        "[capacity] {label}: at {OVER}×: {} more answered, {} open ({asked_again} asked again before keepalive_timeout); log: {}",
        over.opened.ok,
        over.held.ok,
        over.log.describe()
    );
    if let Some(c) = &cgroup
        && c.oom_kills() > 0
    {
        ctx.notes.push(format!(
            "{label}: the kernel killed nginx's processes for memory ({} × oom_kill)",
            c.oom_kills()
        ));
    }
    drop(conns);
    nginx.stop();
    drop(cgroup);
    Ok(Row {
        load: load.to_string(),
        planned,
        baseline,
        open_secs,
        opened,
        held,
        idle,
        idle_kernel,
        active_count,
        active: active_answers,
        active_mem,
        active_kernel,
        cgroup: idle_cg.map(|i| (i, active_cg)),
        log,
        running: running_1,
        over,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_default() {
        assert_eq!(
            Size::parse(" 2:2G "),
            Ok(Size {
                vcpu: 2,
                ram: "2G".into()
            })
        );
        assert_eq!(
            Size::parse("1:512MiB").map(|s| s.ram_bytes()),
            Ok(512 << 20)
        );
        for bad in ["2", "0:1G", "x:1G", "2:", "2:lots", "1025:1G"] {
            assert!(Size::parse(bad).is_err(), "{bad} was accepted");
        }
        assert_eq!(
            Size::parse("4:8G").expect("valid").to_string(),
            "4 vCPU, 8G"
        );
    }

    #[test]
    fn durations_as_nginx_writes_them() {
        assert_eq!(nginx_duration("30s"), Some(Duration::from_secs(30)));
        assert_eq!(nginx_duration("75"), Some(Duration::from_secs(75)));
        assert_eq!(nginx_duration("1m"), Some(Duration::from_mins(1)));
        assert_eq!(nginx_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(nginx_duration("1d2h"), None);
    }

    fn plan(capacity: &str) -> Value {
        serde_json::from_str(&format!(
            r#"{{"capacity": {capacity}, "settings": [
                {{"name": "worker_processes", "value": "2"}},
                {{"name": "keepalive_timeout", "value": "30s"}},
                {{"name": "LimitNOFILE", "value": "524288"}}]}}"#
        ))
        .expect("json")
    }

    #[test]
    fn the_plan_is_read_with_its_optional_fields() {
        let p = Planned::from_json(&plan(
            r#"{"clients": 5000, "connection_slots": 8192, "peak_memory": 60827560}"#,
        ))
        .expect("valid");
        assert_eq!((p.clients, p.slots, p.workers), (5000, 8192, 2));
        assert_eq!((p.idle_memory, p.active_clients), (None, None));
        assert_eq!(p.idle_estimate(), (60_827_560, "peak_memory"));
        assert_eq!(p.keepalive, Duration::from_secs(30));
        assert_eq!(p.limit_nofile, 524_288);
        let p = Planned::from_json(&plan(
            r#"{"clients": 5000, "connection_slots": 8192, "peak_memory": 9, "idle_memory": 4, "active_clients": 500}"#,
        ))
        .expect("valid");
        assert_eq!(p.idle_estimate(), (4, "idle_memory"));
        assert_eq!(p.active_clients, Some(500));
        assert!(Planned::from_json(&plan(r#"{"clients": 1}"#)).is_err());
    }

    #[test]
    fn quick_is_one_small_size() {
        let o = |quick, sizes: Option<Vec<Size>>| CapacityOpts {
            quick,
            sizes,
            loads: vec!["static".into()],
            active_share: None,
            cpus: None,
            port: 28700,
            nginx_gen: None,
            out: None,
            keep: false,
        };
        let names = |o: CapacityOpts| {
            o.sizes()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(names(o(true, None)), ["1 vCPU, 512M"]);
        assert_eq!(
            names(o(false, None)),
            ["1 vCPU, 512M", "2 vCPU, 2G", "4 vCPU, 8G"]
        );
        let given = Some(vec![Size::parse("8:16G").expect("valid")]);
        assert_eq!(names(o(true, given)), ["8 vCPU, 16G"]);
        assert_eq!(share("0.25"), Ok(0.25));
        assert!(share("1.5").is_err() && share("x").is_err());
    }
}
