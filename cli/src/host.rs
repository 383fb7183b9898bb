//! Host detection: the only code in nginx-gen that looks at the machine. The CLI uses it when
//! the machine is not described; the benchmark harness (`bench/`) uses it to describe the
//! machine it measures on, so both read the host the same way.
//!
//! CPUs: the scheduler affinity list (`Cpus_allowed_list` in `/proc/self/status`) and the
//! cgroup v2 `cpu.max` quota, whichever is smaller. Memory: `/proc/meminfo` and the cgroup v2
//! `memory.max`, whichever is smaller. nginx: `nginx -V`, when nginx is installed. The CPU
//! model and the kernel release, for reports.
//!
//! Every reader is split into a parser of the file's text (tested on real samples below)
//! and a thin function that reads the file.

use std::fs;
use std::process::Command;

use nginx_gen_core::{ByteSize, Version};

/// What was found, with where it came from.
#[derive(Debug, Default)]
pub struct Host {
    pub vcpu: Option<(u32, String)>,
    pub ram: Option<(ByteSize, String)>,
    pub nginx: Option<Version>,
    pub openssl: Option<Version>,
}

impl Host {
    /// Probes this machine, with the `nginx` found on `PATH`.
    pub fn detect() -> Self {
        let (nginx, openssl) = nginx_versions("nginx").unwrap_or_default();
        Self {
            vcpu: vcpu(),
            ram: ram(),
            nginx,
            openssl,
        }
    }

    /// One line saying what was detected.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some((n, source)) = &self.vcpu {
            parts.push(format!("{n} vCPU ({source})"));
        }
        if let Some((size, source)) = &self.ram {
            parts.push(format!("{size} RAM ({source})"));
        }
        match (self.nginx, self.openssl) {
            (Some(n), Some(o)) => parts.push(format!("nginx {n} with OpenSSL {o} (nginx -V)")),
            (Some(n), None) => parts.push(format!("nginx {n} (nginx -V)")),
            _ => parts.push("no nginx installed".into()),
        }
        format!("detected {}", parts.join(", "))
    }
}

/// The CPU quota of cgroup v2 `cpu.max` (`quota period`, or `max`), rounded up.
pub fn parse_cpu_max(text: &str) -> Option<u32> {
    let mut parts = text.split_whitespace();
    let quota: u64 = parts.next()?.parse().ok()?;
    let period: u64 = parts.next()?.parse().ok()?;
    (period > 0).then(|| quota.div_ceil(period).max(1) as u32)
}

/// The most CPUs a list may name (the kernel's `NR_CPUS` limit is 8192).
const MAX_CPUS: u32 = 65_536;

/// The CPUs of a Linux CPU list (`0`, `0,2`, `0-3,6`: the format of `Cpus_allowed_list`,
/// cgroup `cpuset.cpus` and `taskset -c`), in the order written. `None` when it is not such
/// a list (empty, a reversed range, more than 65,536 CPUs).
pub fn parse_cpu_list(list: &str) -> Option<Vec<u32>> {
    let mut cpus = Vec::new();
    for part in list.trim().split(',') {
        let (lo, hi) = if let Some((a, b)) = part.split_once('-') {
            (a.trim().parse().ok()?, b.trim().parse().ok()?)
        } else {
            let n: u32 = part.trim().parse().ok()?;
            (n, n)
        };
        if lo > hi || cpus.len() as u64 + u64::from(hi - lo) >= u64::from(MAX_CPUS) {
            return None;
        }
        cpus.extend(lo..=hi);
    }
    Some(cpus)
}

/// How many CPUs the scheduler lets this process use, from `/proc/self/status`.
pub fn parse_affinity(status: &str) -> Option<u32> {
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?;
    let n = parse_cpu_list(list)?.len() as u32;
    (n > 0).then_some(n)
}

/// The smaller of the affinity count and the cgroup quota, saying which it is.
fn choose_vcpu(affinity: Option<u32>, quota: Option<u32>) -> Option<(u32, String)> {
    match (affinity, quota) {
        (Some(a), Some(q)) if q < a => Some((
            q,
            format!("cgroup cpu.max quota; {a} CPUs in the affinity mask"),
        )),
        (Some(a), _) => Some((a, "CPU affinity mask".into())),
        (None, Some(q)) => Some((q, "cgroup cpu.max quota".into())),
        (None, None) => None,
    }
}

/// The vCPUs nginx should plan for, and where the figure comes from.
pub fn vcpu() -> Option<(u32, String)> {
    let affinity = fs::read_to_string("/proc/self/status")
        .ok()
        .as_deref()
        .and_then(parse_affinity)
        .or_else(|| {
            std::thread::available_parallelism()
                .ok()
                .map(|n| n.get() as u32)
        });
    let quota = fs::read_to_string("/sys/fs/cgroup/cpu.max")
        .ok()
        .as_deref()
        .and_then(parse_cpu_max);
    choose_vcpu(affinity, quota)
}

/// `MemTotal` from `/proc/meminfo`.
pub fn parse_meminfo(text: &str) -> Option<ByteSize> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(ByteSize::bytes(kib * 1024))
}

/// The limit in cgroup v2 `memory.max` (bytes, or `max` for none).
pub fn parse_memory_max(text: &str) -> Option<ByteSize> {
    text.trim().parse::<u64>().ok().map(ByteSize::bytes)
}

/// The smaller of the machine's memory and the cgroup limit, in whole MiB (so the reproduce
/// command stays short and exact), saying which it is.
fn choose_ram(total: Option<ByteSize>, limit: Option<ByteSize>) -> Option<(ByteSize, String)> {
    let whole = |s: ByteSize| ByteSize::mib(s.as_mib());
    match (total, limit) {
        (Some(t), Some(l)) if l < t => Some((whole(l), "cgroup memory.max".into())),
        (Some(t), _) => Some((whole(t), "/proc/meminfo".into())),
        (None, Some(l)) => Some((whole(l), "cgroup memory.max".into())),
        (None, None) => None,
    }
}

/// The memory nginx should plan for, and where the figure comes from.
pub fn ram() -> Option<(ByteSize, String)> {
    let total = fs::read_to_string("/proc/meminfo")
        .ok()
        .as_deref()
        .and_then(parse_meminfo);
    let limit = fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .as_deref()
        .and_then(parse_memory_max);
    choose_ram(total, limit)
}

/// nginx and OpenSSL versions from `nginx -V` output (which nginx prints to stderr).
pub fn parse_nginx_v(text: &str) -> (Option<Version>, Option<Version>) {
    let nginx = text
        .lines()
        .find_map(|l| l.split("nginx/").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok());
    // Prefer the library actually loaded ("running with OpenSSL x") over the build's.
    let openssl_after = |marker: &str| {
        text.split(marker)
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|v| v.parse().ok())
    };
    let openssl =
        openssl_after("running with OpenSSL ").or_else(|| openssl_after("built with OpenSSL "));
    (nginx, openssl)
}

/// Runs `PROGRAM -V` (a name on `PATH` or a path); `None` when it cannot run.
pub fn nginx_versions(program: &str) -> Option<(Option<Version>, Option<Version>)> {
    let output = Command::new(program).arg("-V").output().ok()?;
    let text = String::from_utf8_lossy(&output.stderr).into_owned()
        + &String::from_utf8_lossy(&output.stdout);
    Some(parse_nginx_v(&text))
}

/// The first `model name` of `/proc/cpuinfo` (x86; other architectures may have none).
pub fn parse_cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, model)| model.trim().to_string())
        .filter(|m| !m.is_empty())
}

/// This machine's CPU model, if `/proc/cpuinfo` names it.
pub fn cpu_model() -> Option<String> {
    parse_cpu_model(&fs::read_to_string("/proc/cpuinfo").ok()?)
}

/// The running kernel's release (`uname -r`).
pub fn kernel_release() -> Option<String> {
    let r = fs::read_to_string("/proc/sys/kernel/osrelease").ok()?;
    Some(r.trim().to_string()).filter(|r| !r.is_empty())
}

/// Whether the kernel has IPv6 on some interface: `/proc/net/if_inet6` lists one line per
/// IPv6 address (absent or empty when IPv6 is disabled).
pub fn parse_if_inet6(text: &str) -> bool {
    text.lines().any(|l| !l.trim().is_empty())
}

/// Whether this host has IPv6, so that nginx can listen on `[::]`.
pub fn ipv6() -> bool {
    fs::read_to_string("/proc/net/if_inet6").is_ok_and(|t| parse_if_inet6(&t))
}

/// The first `nameserver` of a resolv.conf.
pub fn parse_resolv_conf(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        (words.next() == Some("nameserver"))
            .then(|| words.next())
            .flatten()
            .map(str::to_owned)
    })
}

/// The DNS server this host's programs ask.
pub fn resolver() -> Option<String> {
    parse_resolv_conf(&fs::read_to_string("/etc/resolv.conf").ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Debian 12's nginx package, `nginx -V 2>&1` (first lines).
    const NGINX_V_DEBIAN: &str = "nginx version: nginx/1.22.1\n\
        built with OpenSSL 3.0.22 25 Aug 2026 (running with OpenSSL 3.0.19 27 Jan 2026)\n\
        TLS SNI support enabled\n\
        configure arguments: --with-cc-opt='-g -O2' --prefix=/usr/share/nginx --conf-path=/etc/nginx/nginx.conf\n";

    /// nginx built from source against the system library: no "running with".
    const NGINX_V_SOURCE: &str = "nginx version: nginx/1.26.3\n\
        built by gcc 12.2.0 (Debian 12.2.0-14)\n\
        built with OpenSSL 3.0.15 3 Sep 2024\n\
        TLS SNI support enabled\n";

    /// The head of a real `/proc/self/status` (2 CPUs allowed).
    const STATUS: &str = "Name:\tcat\nUmask:\t0022\nState:\tR (running)\nTgid:\t4242\n\
        Threads:\t1\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed:\t00000001\n\
        Mems_allowed_list:\t0\nvoluntary_ctxt_switches:\t0\n";

    /// The head of a real `/proc/meminfo`.
    const MEMINFO: &str = "MemTotal:       24683652 kB\nMemFree:        20369912 kB\n\
        MemAvailable:   23297868 kB\nBuffers:          102400 kB\n";

    /// The head of a real `/proc/cpuinfo` (x86).
    const CPUINFO: &str = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\
        model\t\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor\nstepping\t: 1\n\n\
        processor\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor\n";

    #[test]
    fn cgroup_cpu_max() {
        assert_eq!(parse_cpu_max("200000 100000\n"), Some(2));
        // 1.5 CPUs: nginx gets a second worker for the half.
        assert_eq!(parse_cpu_max("150000 100000"), Some(2));
        // A quota below one CPU still runs one worker.
        assert_eq!(parse_cpu_max("50000 100000\n"), Some(1));
        assert_eq!(parse_cpu_max("max 100000\n"), None);
        assert_eq!(parse_cpu_max("100000 0"), None);
        assert_eq!(parse_cpu_max(""), None);
    }

    #[test]
    fn cgroup_memory_max() {
        assert_eq!(parse_memory_max("max\n"), None);
        assert_eq!(
            parse_memory_max("2147483648\n"),
            Some(ByteSize::bytes(2_147_483_648))
        );
    }

    #[test]
    fn proc_meminfo() {
        assert_eq!(
            parse_meminfo(MEMINFO),
            Some(ByteSize::bytes(24_683_652 * 1024))
        );
        assert_eq!(parse_meminfo("MemFree: 1 kB\n"), None);
    }

    #[test]
    fn affinity_lists() {
        assert_eq!(parse_affinity(STATUS), Some(2));
        assert_eq!(parse_cpu_list("0"), Some(vec![0]));
        assert_eq!(parse_cpu_list("0-3,6"), Some(vec![0, 1, 2, 3, 6]));
        assert_eq!(parse_cpu_list(" 1 , 3-4\n"), Some(vec![1, 3, 4]));
        for bad in ["", "a", "3-1", "0,", "-1", "0-70000"] {
            assert_eq!(parse_cpu_list(bad), None, "{bad:?}");
        }
        assert_eq!(parse_affinity("Name:\tx\n"), None);
    }

    #[test]
    fn the_smaller_limit_wins_and_is_named() {
        assert_eq!(
            choose_vcpu(Some(8), Some(2)),
            Some((
                2,
                "cgroup cpu.max quota; 8 CPUs in the affinity mask".into()
            ))
        );
        assert_eq!(
            choose_vcpu(Some(2), Some(8)),
            Some((2, "CPU affinity mask".into()))
        );
        assert_eq!(
            choose_vcpu(None, Some(3)),
            Some((3, "cgroup cpu.max quota".into()))
        );
        assert_eq!(choose_vcpu(None, None), None);
        let gib = ByteSize::gib;
        assert_eq!(
            choose_ram(Some(gib(8)), Some(gib(2))),
            Some((gib(2), "cgroup memory.max".into()))
        );
        // Whole MiB: 24,683,652 KiB is 24,105 MiB and 772 KiB.
        assert_eq!(
            choose_ram(parse_meminfo(MEMINFO), None),
            Some((ByteSize::mib(24_105), "/proc/meminfo".into()))
        );
        assert_eq!(choose_ram(None, None), None);
    }

    #[test]
    fn nginx_v_output() {
        assert_eq!(
            parse_nginx_v(NGINX_V_DEBIAN),
            (Some(Version::new(1, 22, 1)), Some(Version::new(3, 0, 19)))
        );
        assert_eq!(
            parse_nginx_v(NGINX_V_SOURCE),
            (Some(Version::new(1, 26, 3)), Some(Version::new(3, 0, 15)))
        );
        assert_eq!(
            parse_nginx_v("nginx version: nginx/1.24.0\n"),
            (Some(Version::new(1, 24, 0)), None)
        );
        assert_eq!(parse_nginx_v("sh: nginx: not found\n"), (None, None));
    }

    #[test]
    fn cpu_model_line() {
        assert_eq!(
            parse_cpu_model(CPUINFO).as_deref(),
            Some("AMD EPYC 7763 64-Core Processor")
        );
        assert_eq!(parse_cpu_model("processor\t: 0\nBogoMIPS\t: 50.00\n"), None);
    }

    /// This machine (Linux) answers every probe without panicking, with sane figures.
    #[test]
    fn probes_this_machine() {
        let (n, _) = vcpu().expect("a CPU count on Linux");
        assert!(n >= 1);
        let (size, _) = ram().expect("memory on Linux");
        assert!(size.as_mib() >= 64, "{size}");
        assert!(
            kernel_release().is_some_and(|r| r.chars().next().is_some_and(|c| c.is_ascii_digit()))
        );
        assert!(nginx_versions("/nonexistent/nginx").is_none());
    }

    #[test]
    fn ipv6_and_resolver() {
        let if_inet6 = "00000000000000000000000000000001 01 80 10 80       lo\n";
        assert!(parse_if_inet6(if_inet6));
        assert!(!parse_if_inet6(""));
        let resolv = "# Generated by NetworkManager\nsearch example.org\nnameserver 192.0.2.53\nnameserver 8.8.8.8\n";
        assert_eq!(parse_resolv_conf(resolv).as_deref(), Some("192.0.2.53"));
        assert_eq!(parse_resolv_conf("options edns0\n"), None);
    }
}
