//! What `check` reads from the running host: the nginx processes (`/proc`), their file
//! limits and CPUs, the listening sockets (`ss`), the kernel's settings (`/proc/sys`),
//! `nginx -T` of the running binary and the tail of the error logs. Each reader is a parser
//! of the text (tested on captured samples below) and a thin function that reads it.

use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::process::Command;

use nginx_gen::host;

/// A soft and a hard limit; `None` is `unlimited`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The soft limit.
    pub soft: Option<u64>,
    /// The hard limit.
    pub hard: Option<u64>,
}

/// `Max open files` of a `/proc/<pid>/limits` text.
pub fn parse_limits(text: &str) -> Option<Limits> {
    let rest = text
        .lines()
        .find_map(|l| l.strip_prefix("Max open files"))?;
    let mut words = rest.split_whitespace();
    let value = |w: Option<&str>| -> Option<Option<u64>> {
        match w? {
            "unlimited" => Some(None),
            n => n.parse().ok().map(Some),
        }
    };
    Some(Limits {
        soft: value(words.next())?,
        hard: value(words.next())?,
    })
}

/// The parent pid of a `/proc/<pid>/stat` text (the field after the parenthesized name,
/// which may itself hold spaces and parentheses).
pub fn parse_stat_ppid(text: &str) -> Option<u32> {
    let after = &text[text.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

/// The start time of a `/proc/<pid>/stat` text, in clock ticks after boot (field 22).
pub fn parse_starttime(text: &str) -> Option<u64> {
    let after = &text[text.rfind(')')? + 1..];
    // Fields from the third (the state) on.
    after.split_whitespace().nth(19)?.parse().ok()
}

/// The boot time of a `/proc/stat` text (`btime`, seconds since the epoch).
pub fn parse_btime(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()
}

/// Clock ticks per second of `/proc/<pid>/stat` times: `USER_HZ`, 100 on every Linux
/// architecture nginx-gen runs on.
const USER_HZ: u64 = 100;

/// When a process started, in seconds since the epoch.
pub fn started_at(pid: u32) -> Option<u64> {
    let ticks = parse_starttime(&fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)?;
    let boot = parse_btime(&fs::read_to_string("/proc/stat").ok()?)?;
    Some(boot + ticks / USER_HZ)
}

/// When a file was last modified, in seconds since the epoch.
pub fn modified_at(path: &str) -> Option<u64> {
    let t = fs::metadata(path).ok()?.modified().ok()?;
    t.duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs())
}

/// One nginx process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Process {
    /// Its pid.
    pub pid: u32,
    /// Its title (`nginx: worker process`), from `/proc/<pid>/cmdline`.
    pub title: String,
}

impl Process {
    /// Whether it is a worker (not the cache manager or loader).
    pub fn is_worker(&self) -> bool {
        self.title.contains("worker process")
    }
}

/// The title of a `/proc/<pid>/cmdline` (NUL-separated; nginx overwrites its arguments
/// with one title).
pub fn cmdline_title(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .split('\0')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The value of option `flag` (`-c`, `-p`) in a master's title (`nginx: master process
/// /usr/sbin/nginx -p /srv/nginx/ -c /srv/nginx/nginx.conf`).
pub fn option_of_title(title: &str, flag: &str) -> Option<String> {
    let mut words = title.split_whitespace();
    words.find(|w| *w == flag)?;
    words.next().map(str::to_owned)
}

/// The compiled-in prefix of `nginx -V` output (`--prefix=/usr/share/nginx`).
pub fn parse_prefix(v: &str) -> Option<String> {
    let rest = v.split("--prefix=").nth(1)?;
    rest.split_whitespace().next().map(str::to_owned)
}

/// The configuration file of a master's title (`nginx: master process /usr/sbin/nginx -c
/// /etc/nginx/nginx.conf`), when it was started with `-c`.
pub fn conf_of_title(title: &str) -> Option<String> {
    option_of_title(title, "-c")
}

/// The process of `pid`, if it runs.
pub fn process(pid: u32) -> Option<Process> {
    let raw = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    Some(Process {
        pid,
        title: cmdline_title(&raw),
    })
}

/// The children of `parent`, from every `/proc/<pid>/stat`, by pid.
pub fn children(parent: u32) -> Vec<Process> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return found;
    };
    for e in entries.filter_map(Result::ok) {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let parent_of = fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .as_deref()
            .and_then(parse_stat_ppid);
        if parent_of == Some(parent)
            && let Some(p) = process(pid)
        {
            found.push(p);
        }
    }
    found.sort_by_key(|p| p.pid);
    found
}

/// The file limit of a process.
pub fn limits(pid: u32) -> Result<Limits, String> {
    let path = format!("/proc/{pid}/limits");
    let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse_limits(&text).ok_or_else(|| format!("no 'Max open files' line in {path}"))
}

/// The CPUs a process may use and where that comes from: its affinity list
/// (`Cpus_allowed_list` of `/proc/<pid>/status`) and the cgroup v2 `cpu.max` quota of its
/// cgroup and every ancestor (the smallest binds), the smaller of the two, as
/// [`host::choose_vcpu`] decides for this host.
pub fn cpus(pid: u32) -> Option<(u32, String)> {
    let affinity = fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .as_deref()
        .and_then(host::parse_affinity);
    let quota = fs::read_to_string(format!("/proc/{pid}/cgroup"))
        .ok()
        .as_deref()
        .and_then(cgroup_v2_path)
        .and_then(|path| {
            cgroup_ancestry(&path)
                .iter()
                .filter_map(|dir| fs::read_to_string(format!("/sys/fs/cgroup{dir}/cpu.max")).ok())
                .filter_map(|t| host::parse_cpu_max(&t))
                .min()
        });
    host::choose_vcpu(affinity, quota)
}

/// A cgroup path and each of its ancestors up to the root (`""`), deepest first.
pub fn cgroup_ancestry(path: &str) -> Vec<String> {
    let mut out = vec![path.trim_end_matches('/').to_owned()];
    let mut rest = out[0].as_str();
    let mut ancestors = Vec::new();
    while let Some((parent, _)) = rest.rsplit_once('/') {
        ancestors.push(parent.to_owned());
        rest = parent;
    }
    out.extend(ancestors);
    out.dedup();
    out
}

/// The cgroup v2 path of a `/proc/<pid>/cgroup` text (its `0::PATH` line).
pub fn cgroup_v2_path(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("0::"))
        .map(|p| p.trim_end_matches('/').to_owned())
}

/// The pid in a pid file's text.
pub fn parse_pid(text: &str) -> Option<u32> {
    text.trim().parse().ok().filter(|&p| p > 0)
}

/// One listening TCP socket of `ss -ltnpH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listener {
    /// The local address as `ss` shows it (`0.0.0.0`, `[::]`, `*`, `127.0.0.1`).
    pub addr: String,
    /// The port.
    pub port: u16,
    /// The backlog in effect (the `Send-Q` of a listening socket).
    pub backlog: u32,
    /// The pids owning it (empty when `ss` could not see the processes).
    pub pids: Vec<u32>,
}

/// The sockets of `ss -ltnpH` (or `ss -ltnH`): `State Recv-Q Send-Q Local Peer [users]`.
pub fn parse_ss(text: &str) -> Vec<Listener> {
    let mut found = Vec::new();
    for line in text.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.len() < 5 || cols[0] != "LISTEN" {
            continue;
        }
        let Ok(backlog) = cols[2].parse() else {
            continue;
        };
        // `0.0.0.0:80`, `[::]:80`, `*:80`, `127.0.0.1%lo:53`.
        let Some((addr, port)) = cols[3].rsplit_once(':') else {
            continue;
        };
        let Ok(port) = port.parse() else { continue };
        let addr = addr.split('%').next().unwrap_or(addr).to_owned();
        let pids = cols[5..]
            .join(" ")
            .split("pid=")
            .skip(1)
            .filter_map(|s| {
                s.split(|c: char| !c.is_ascii_digit())
                    .next()
                    .and_then(|n| n.parse().ok())
            })
            .collect();
        found.push(Listener {
            addr,
            port,
            backlog,
            pids,
        });
    }
    found
}

/// The standard output of a command that must succeed; the error names `what` ran.
fn stdout_of(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The listening TCP sockets of this network namespace.
pub fn listeners() -> Result<Vec<Listener>, String> {
    stdout_of(Command::new("ss").arg("-ltnpH"), "ss -ltnpH").map(|t| parse_ss(&t))
}

/// The path under `/proc/sys` of a sysctl key (`net.core.somaxconn`).
pub fn sysctl_path(key: &str) -> String {
    format!("/proc/sys/{}", key.replace('.', "/"))
}

/// A sysctl's value as the kernel has it, whitespace collapsed to single spaces.
pub fn sysctl(key: &str) -> Result<String, String> {
    let path = sysctl_path(key);
    fs::read_to_string(&path)
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .map_err(|e| format!("cannot read {path}: {e}"))
}

/// Runs `BINARY -T [-p PREFIX] [-c CONF]`: the whole configuration, each file under its
/// marker.
pub fn nginx_t(binary: &str, prefix: Option<&str>, conf: Option<&str>) -> Result<String, String> {
    let mut cmd = Command::new(binary);
    cmd.arg("-T");
    if let Some(p) = prefix {
        cmd.args(["-p", p]);
    }
    if let Some(c) = conf {
        cmd.args(["-c", c]);
    }
    stdout_of(&mut cmd, &format!("{binary} -T"))
}

/// The running binary of a process (`/proc/<pid>/exe`), unless it was replaced since.
pub fn exe(pid: u32) -> Option<String> {
    let path = fs::read_link(format!("/proc/{pid}/exe")).ok()?;
    let text = path.to_string_lossy().into_owned();
    (!text.ends_with(" (deleted)")).then_some(text)
}

/// How much of an error log's end is scanned.
pub const TAIL: u64 = 1024 * 1024;

/// The last [`TAIL`] bytes of a file, from the first whole line.
pub fn tail(path: &Path) -> Result<String, String> {
    let mut f = fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let len = f.metadata().map_or(0, |m| m.len());
    let start = len.saturating_sub(TAIL);
    f.seek(SeekFrom::Start(start))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Ok(if start > 0 {
        text.split_once('\n')
            .map_or(String::new(), |(_, rest)| rest.to_owned())
    } else {
        text
    })
}

/// The error-log messages `check` counts, with what each means.
pub const SIGNALS: [&str; 5] = [
    "worker_connections are not enough",
    "Too many open files",
    "upstream timed out",
    "connect() failed",
    "no live upstreams",
];

/// How often a signal occurs in a log text, and the timestamp (`2026/12/01 21:04:05`) of
/// its last line.
pub fn count_signal(text: &str, signal: &str) -> (usize, Option<String>) {
    let mut count = 0;
    let mut last = None;
    for line in text.lines().filter(|l| l.contains(signal)) {
        count += 1;
        last = line.get(..19).map(str::to_owned);
    }
    (count, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `/proc/<pid>/limits` of Debian's nginx master under systemd (head and the line).
    const LIMITS: &str = "Limit                     Soft Limit           Hard Limit           Units     \n\
        Max cpu time              unlimited            unlimited            seconds   \n\
        Max processes             15421                15421                processes \n\
        Max open files            1024                 524288               files     \n\
        Max locked memory         8388608              8388608              bytes     \n";

    #[test]
    fn proc_limits() {
        assert_eq!(
            parse_limits(LIMITS),
            Some(Limits {
                soft: Some(1024),
                hard: Some(524_288)
            })
        );
        assert_eq!(
            parse_limits(
                "Max open files            unlimited            unlimited            files\n"
            ),
            Some(Limits {
                soft: None,
                hard: None
            })
        );
        assert_eq!(parse_limits("Max processes 1 1 processes\n"), None);
        assert_eq!(parse_limits("Max open files x 1 files\n"), None);
    }

    /// `ss -ltnpH` on a host with Debian's nginx (two workers) and sshd.
    const SS: &str = "LISTEN 0      511          0.0.0.0:80        0.0.0.0:*    users:((\"nginx\",pid=1236,fd=6),(\"nginx\",pid=1235,fd=6),(\"nginx\",pid=1234,fd=6))\n\
        LISTEN 0      128          0.0.0.0:22        0.0.0.0:*    users:((\"sshd\",pid=700,fd=3))\n\
        LISTEN 0      511             [::]:80           [::]:*    users:((\"nginx\",pid=1236,fd=7),(\"nginx\",pid=1235,fd=7),(\"nginx\",pid=1234,fd=7))\n\
        LISTEN 0      4096   127.0.0.53%lo:53        0.0.0.0:*\n";

    #[test]
    fn ss_listeners() {
        let l = parse_ss(SS);
        assert_eq!(l.len(), 4);
        assert_eq!(
            l[0],
            Listener {
                addr: "0.0.0.0".into(),
                port: 80,
                backlog: 511,
                pids: vec![1236, 1235, 1234]
            }
        );
        assert_eq!(
            (l[2].addr.as_str(), l[2].port, l[2].backlog),
            ("[::]", 80, 511)
        );
        assert_eq!((l[3].addr.as_str(), l[3].port), ("127.0.0.53", 53));
        assert!(l[3].pids.is_empty());
        assert!(parse_ss("ESTAB 0 0 1.2.3.4:22 5.6.7.8:1000\n").is_empty());
    }

    #[test]
    fn proc_stat_cmdline_and_cgroup() {
        // A name with a space and a parenthesis.
        assert_eq!(
            parse_stat_ppid("1234 (a b) c) S 1233 1234 1234 0"),
            Some(1233)
        );
        assert_eq!(parse_stat_ppid("garbage"), None);
        let title =
            cmdline_title(b"nginx: master process /usr/sbin/nginx -c /tmp/t/nginx.conf\0\0\0");
        assert_eq!(
            title,
            "nginx: master process /usr/sbin/nginx -c /tmp/t/nginx.conf"
        );
        assert_eq!(conf_of_title(&title).as_deref(), Some("/tmp/t/nginx.conf"));
        assert_eq!(
            conf_of_title("nginx: master process /usr/sbin/nginx -g daemon on;"),
            None
        );
        assert!(
            Process {
                pid: 1,
                title: "nginx: worker process".into()
            }
            .is_worker()
        );
        assert!(
            !Process {
                pid: 1,
                title: "nginx: cache manager process".into()
            }
            .is_worker()
        );
        assert_eq!(
            cgroup_v2_path("1:cpu:/\n0::/system.slice/nginx.service\n").as_deref(),
            Some("/system.slice/nginx.service")
        );
        assert_eq!(cgroup_v2_path("0::/\n").as_deref(), Some(""));
        assert_eq!(
            cgroup_ancestry("/system.slice/nginx.service"),
            ["/system.slice/nginx.service", "/system.slice", ""]
        );
        assert_eq!(cgroup_ancestry(""), [""]);
        assert_eq!(parse_pid("1234\n"), Some(1234));
        assert_eq!(parse_pid("0"), None);
        assert_eq!(
            sysctl_path("net.core.somaxconn"),
            "/proc/sys/net/core/somaxconn"
        );
    }

    #[test]
    fn start_and_boot_times() {
        // A real /proc/<pid>/stat of an nginx worker (comm with a space).
        let stat = "4321 (nginx: worker) S 4320 4320 4320 0 -1 4194624 117 0 0 0 0 0 0 0 20 0 1 0 123456 10465280 900 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0";
        assert_eq!(parse_starttime(stat), Some(123_456));
        assert_eq!(parse_stat_ppid(stat), Some(4320));
        assert_eq!(parse_starttime("1 (x) S 0"), None);
        assert_eq!(
            parse_btime("cpu  1 2 3\nintr 5\nbtime 1764619200\nprocesses 9\n"),
            Some(1_764_619_200)
        );
        // This process started after boot and before now.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let me = started_at(std::process::id()).unwrap();
        assert!(me <= now + 1 && me + 3600 > now, "{me} vs {now}");
    }

    #[test]
    fn error_log_signals() {
        let log = "2026/12/01 10:00:00 [alert] 12#12: 768 worker_connections are not enough\n\
            2026/12/01 10:00:01 [crit] 12#12: accept4() failed (24: Too many open files)\n\
            2026/12/01 10:05:00 [alert] 12#12: 768 worker_connections are not enough\n";
        assert_eq!(
            count_signal(log, "worker_connections are not enough"),
            (2, Some("2026/12/01 10:05:00".into()))
        );
        assert_eq!(count_signal(log, "no live upstreams"), (0, None));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("error.log");
        let mut big = "x".repeat(2 * TAIL as usize);
        big.push_str("\n2026/12/01 11:00:00 [error] no live upstreams\n");
        fs::write(&path, &big).unwrap();
        let t = tail(&path).unwrap();
        assert_eq!(t, "2026/12/01 11:00:00 [error] no live upstreams\n");
        assert!(tail(&dir.path().join("none")).is_err());
    }
}
