//! Host detection: the only code in nginx-gen that looks at the machine.
//!
//! CPUs: the scheduler affinity mask and the cgroup v2 `cpu.max` quota, whichever is
//! smaller. Memory: `/proc/meminfo` and the cgroup v2 `memory.max`, whichever is smaller.
//! nginx: `nginx -V`, when nginx is installed.

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
    pub fn detect() -> Self {
        let (nginx, openssl) = nginx_versions().unwrap_or_default();
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

fn vcpu() -> Option<(u32, String)> {
    let affinity = std::thread::available_parallelism()
        .ok()
        .map(|n| n.get() as u32);
    let quota = fs::read_to_string("/sys/fs/cgroup/cpu.max")
        .ok()
        .as_deref()
        .and_then(parse_cpu_max);
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

/// `MemTotal` from `/proc/meminfo`.
pub fn parse_meminfo(text: &str) -> Option<ByteSize> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(ByteSize::bytes(kib * 1024))
}

fn ram() -> Option<(ByteSize, String)> {
    let total = fs::read_to_string("/proc/meminfo")
        .ok()
        .as_deref()
        .and_then(parse_meminfo);
    let limit = fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok())
        .map(ByteSize::bytes);
    // Whole MiB, so the reproduce command stays short and exact.
    let whole = |s: ByteSize| ByteSize::mib(s.as_mib());
    match (total, limit) {
        (Some(t), Some(l)) if l < t => Some((whole(l), "cgroup memory.max".into())),
        (Some(t), _) => Some((whole(t), "/proc/meminfo".into())),
        (None, Some(l)) => Some((whole(l), "cgroup memory.max".into())),
        (None, None) => None,
    }
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

fn nginx_versions() -> Option<(Option<Version>, Option<Version>)> {
    let output = Command::new("nginx").arg("-V").output().ok()?;
    let text = String::from_utf8_lossy(&output.stderr).into_owned()
        + &String::from_utf8_lossy(&output.stdout);
    Some(parse_nginx_v(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgroup_and_proc_formats() {
        assert_eq!(parse_cpu_max("200000 100000\n"), Some(2));
        assert_eq!(parse_cpu_max("150000 100000"), Some(2));
        assert_eq!(parse_cpu_max("max 100000"), None);
        assert_eq!(
            parse_meminfo("MemTotal:        8036420 kB\nMemFree: 1 kB\n"),
            Some(ByteSize::bytes(8_036_420 * 1024))
        );
        let v = "nginx version: nginx/1.22.1\nbuilt with OpenSSL 3.0.9 30 May 2023 (running with OpenSSL 3.0.17 1 Jul 2025)\n";
        assert_eq!(
            parse_nginx_v(v),
            (Some(Version::new(1, 22, 1)), Some(Version::new(3, 0, 17)))
        );
    }
}
