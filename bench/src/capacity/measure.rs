//! What the capacity mode measures, read from the kernel: the memory of nginx's processes
//! (`/proc/PID/status` and `smaps_rollup`), the kernel buffers of its sockets (`ss -m`),
//! the lines of its error log that matter, and whether a cgroup v2 memory limit can be set.

use std::fs;
use std::path::{Path, PathBuf};

/// Memory of nginx's master and workers, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Memory {
    /// Σ `VmRSS` (shared pages counted once per process).
    pub rss: u64,
    /// Σ `Pss` from `smaps_rollup` (shared pages split), when every process's is readable.
    pub pss: Option<u64>,
    pub processes: usize,
}

impl Memory {
    /// The larger of two samples (by RSS).
    pub fn max(self, other: Self) -> Self {
        if other.rss > self.rss { other } else { self }
    }
}

/// A `Name:   1234 kB` field of `/proc/PID/status` or `smaps_rollup`, in bytes.
pub fn kib_field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let (key, rest) = l.split_once(':')?;
        if key.trim() != name {
            return None;
        }
        let mut words = rest.split_whitespace();
        let n: u64 = words.next()?.parse().ok()?;
        (words.next() == Some("kB")).then_some(n * 1024)
    })
}

/// The memory of these processes (a vanished one counts as nothing).
pub fn memory(pids: &[u32]) -> Memory {
    let mut m = Memory {
        pss: Some(0),
        ..Memory::default()
    };
    for pid in pids {
        let Some(rss) = fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| kib_field(&s, "VmRSS"))
        else {
            continue;
        };
        m.rss += rss;
        m.processes += 1;
        let pss = fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
            .ok()
            .and_then(|s| kib_field(&s, "Pss"));
        m.pss = m.pss.zip(pss).map(|(a, b)| a + b);
    }
    m
}

/// Sockets and their kernel buffer bytes (`r` receive queue + `w` send queue + `f` forward
/// allocation of every `skmem:(…)` in `ss -m` output).
pub fn skmem(ss: &str) -> (u64, u64) {
    let mut sockets = 0;
    let mut bytes = 0;
    for part in ss.split("skmem:(").skip(1) {
        let Some(fields) = part.split(')').next() else {
            continue;
        };
        sockets += 1;
        for f in fields.split(',') {
            let key = f.trim_end_matches(|c: char| c.is_ascii_digit());
            if matches!(key, "r" | "w" | "f") {
                bytes += f[key.len()..].parse::<u64>().unwrap_or(0);
            }
        }
    }
    (sockets, bytes)
}

/// What the error log says, by the kind that matters here.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LogScan {
    /// `worker_connections are not enough`.
    pub slots: u32,
    /// `Too many open files` (accept4 or open failing with EMFILE/ENFILE).
    pub files: u32,
    /// Other lines at `[error]` or worse.
    pub other: u32,
    /// `[warn]` lines.
    pub warnings: u32,
    /// Distinct messages (timestamps, pids and clients stripped), the first few.
    pub messages: Vec<String>,
}

impl LogScan {
    /// Slots or files ran out.
    pub fn exhausted(&self) -> bool {
        self.slots > 0 || self.files > 0
    }

    /// `none`, or the counts that are not zero.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.slots > 0 {
            parts.push(format!(
                "`worker_connections are not enough` ×{}",
                self.slots
            ));
        }
        if self.files > 0 {
            parts.push(format!("`Too many open files` ×{}", self.files));
        }
        if self.other > 0 {
            parts.push(format!("other errors ×{}", self.other));
        }
        if self.warnings > 0 {
            parts.push(format!("warnings ×{}", self.warnings));
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

/// Scans error-log text.
pub fn scan(log: &str) -> LogScan {
    let mut s = LogScan::default();
    for line in log.lines() {
        let severe = ["[error]", "[crit]", "[alert]", "[emerg]"]
            .iter()
            .any(|t| line.contains(t));
        let warn = line.contains("[warn]");
        if !severe && !warn {
            continue;
        }
        if line.contains("worker_connections are not enough") {
            s.slots += 1;
        } else if line.contains("Too many open files") {
            s.files += 1;
        } else if severe {
            s.other += 1;
        } else {
            s.warnings += 1;
        }
        let m = crate::run::message(line);
        if s.messages.len() < 5 && !s.messages.contains(&m) {
            s.messages.push(m);
        }
    }
    s
}

/// A cgroup v2 directory under which a child with `memory.max` can be made: the first
/// cgroup2 mount in `mountinfo` whose `cgroup.subtree_control` already enables memory.
/// Nothing is enabled or written here; `Err` says why there is none.
pub fn cgroup_v2_parent(
    mountinfo: &str,
    read: impl Fn(&Path) -> Option<String>,
) -> Result<PathBuf, String> {
    let mounts: Vec<PathBuf> = mountinfo
        .lines()
        .filter_map(|l| {
            let (left, right) = l.split_once(" - ")?;
            (right.split_whitespace().next() == Some("cgroup2"))
                .then(|| left.split_whitespace().nth(4).map(PathBuf::from))
                .flatten()
        })
        .collect();
    if mounts.is_empty() {
        return Err("no cgroup v2 hierarchy is mounted".into());
    }
    for m in &mounts {
        let enabled = read(&m.join("cgroup.subtree_control")).unwrap_or_default();
        if enabled.split_whitespace().any(|c| c == "memory") {
            return Ok(m.clone());
        }
    }
    let v1 = mountinfo.lines().any(|l| {
        l.split_once(" - ").is_some_and(|(_, right)| {
            let mut f = right.split_whitespace();
            f.next() == Some("cgroup")
                && f.nth(1)
                    .is_some_and(|o| o.split(',').any(|o| o == "memory"))
        })
    });
    Err(format!(
        "the cgroup v2 hierarchy ({}) has no memory controller enabled ({})",
        mounts
            .iter()
            .map(|m| m.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        if v1 {
            "the memory controller is cgroup v1's here"
        } else {
            "not in its cgroup.subtree_control"
        }
    ))
}

/// A cgroup v2 memory limit for one nginx: created, given `memory.max`, removed on drop.
#[derive(Debug)]
pub struct Cgroup {
    pub dir: PathBuf,
}

impl Cgroup {
    /// Creates `parent/name` with `memory.max = bytes`.
    pub fn create(parent: &Path, name: &str, bytes: u64) -> Result<Self, String> {
        let dir = parent.join(name);
        fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let me = Self { dir };
        fs::write(me.dir.join("memory.max"), bytes.to_string())
            .map_err(|e| format!("{}/memory.max: {e}", me.dir.display()))?;
        Ok(me)
    }

    /// `memory.current` (includes the kernel memory charged to nginx: sockets, page cache).
    pub fn current(&self) -> Option<u64> {
        fs::read_to_string(self.dir.join("memory.current"))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// `oom_kill` events of `memory.events`.
    pub fn oom_kills(&self) -> u64 {
        fs::read_to_string(self.dir.join("memory.events"))
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("oom_kill "))
                    .and_then(|v| v.trim().parse().ok())
            })
            .unwrap_or(0)
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // Empty once nginx is stopped; a left-over directory is harmless.
        let _ = fs::remove_dir(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_fields_are_read_in_bytes() {
        let status = "Name:\tnginx\nVmPeak:\t   20000 kB\nVmRSS:\t    5120 kB\nRssAnon:\t    1024 kB\nThreads:\t1\n";
        assert_eq!(kib_field(status, "VmRSS"), Some(5120 * 1024));
        assert_eq!(kib_field(status, "RssAnon"), Some(1024 * 1024));
        assert_eq!(kib_field(status, "Threads"), None);
        assert_eq!(kib_field(status, "VmSwap"), None);
        let rollup = "55d0-7ffd ---p 00000000 00:00 0  [rollup]\nRss:                4096 kB\nPss:                1500 kB\nPss_Anon:            900 kB\n";
        assert_eq!(kib_field(rollup, "Pss"), Some(1500 * 1024));
        assert_eq!(kib_field(rollup, "Pss_Anon"), Some(900 * 1024));
        // Our own process, for real.
        let me = memory(&[std::process::id()]);
        assert_eq!(me.processes, 1);
        assert!(me.rss > 0);
        assert_eq!(memory(&[u32::MAX]).processes, 0);
    }

    #[test]
    fn socket_buffers_are_summed() {
        let ss = "ESTAB 0 0 127.0.0.1:80 127.0.0.2:40000\n\t skmem:(r0,rb131072,t0,tb46080,f4096,w0,o0,bl0,d0)\n\
                  ESTAB 0 9000 127.0.0.1:80 127.0.0.3:40001 skmem:(r100,rb131072,t2000,tb46080,f1000,w9000,o0,bl0,d0)\n";
        assert_eq!(skmem(ss), (2, 4096 + 100 + 1000 + 9000));
        assert_eq!(skmem(""), (0, 0));
    }

    #[test]
    fn the_error_log_is_scanned_by_kind() {
        let log = "\
2026/12/01 10:00:00 [notice] 1#1: start worker processes
2026/12/01 10:00:01 [alert] 12#12: 4096 worker_connections are not enough
2026/12/01 10:00:01 [alert] 12#12: 4096 worker_connections are not enough
2026/12/01 10:00:02 [crit] 13#13: accept4() failed (24: Too many open files)
2026/12/01 10:00:03 [error] 13#13: *7 open() \"/site/x\" failed (2: No such file or directory), client: 127.0.0.2, server: bench.test
2026/12/01 10:00:04 [warn] 13#13: 1024 worker_connections exceed open file resource limit: 1000
";
        let s = scan(log);
        assert_eq!((s.slots, s.files, s.other, s.warnings), (2, 1, 1, 1));
        assert!(s.exhausted());
        assert_eq!(s.messages.len(), 4);
        assert_eq!(s.messages[0], "4096 worker_connections are not enough");
        assert_eq!(
            s.describe(),
            "`worker_connections are not enough` ×2, `Too many open files` ×1, other errors ×1, warnings ×1"
        );
        let quiet = scan("2026/12/01 10:00:00 [notice] 1#1: signal process started\n");
        assert!(!quiet.exhausted());
        assert_eq!(quiet.describe(), "none");
    }

    #[test]
    fn cgroup_v2_needs_the_memory_controller() {
        let hybrid = "30 25 0:26 / /sys/fs/cgroup/unified rw,relatime shared:5 - cgroup2 cgroup2 rw\n\
                      31 25 0:27 / /sys/fs/cgroup/memory rw shared:6 - cgroup cgroup rw,memory\n";
        let none = |_: &Path| Some(String::new());
        let err = cgroup_v2_parent(hybrid, none).expect_err("no memory controller");
        assert!(err.contains("/sys/fs/cgroup/unified"), "{err}");
        assert!(err.contains("cgroup v1's here"), "{err}");
        let unified = "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n";
        let err = cgroup_v2_parent(unified, none).expect_err("not enabled");
        assert!(err.contains("not in its cgroup.subtree_control"), "{err}");
        let memory = |p: &Path| {
            (p == Path::new("/sys/fs/cgroup/cgroup.subtree_control"))
                .then(|| "cpu io memory pids\n".to_string())
        };
        assert_eq!(
            cgroup_v2_parent(unified, memory),
            Ok(PathBuf::from("/sys/fs/cgroup"))
        );
        assert!(cgroup_v2_parent("", none).is_err());
    }
}
