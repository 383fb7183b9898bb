//! The service steps after the files are in place: `sysctl --system`,
//! `systemctl daemon-reload`, reload (or restart, when the systemd drop-in changed: a
//! `LimitNOFILE` only takes effect on restart) and the probes. Each step is an [`Step`]
//! run by a [`Service`], so the booted-container tests can drive a real systemd with the
//! same list; [`Host`] runs them on this machine and skips, with a note, what it cannot do
//! here (another `--install-root`, no systemd as PID 1, a read-only `/proc/sys`).

use std::path::{Path, PathBuf};
use std::process::Command;

use nginx_gen_core::render::{SYSCTL_PATH, SYSTEMD_PATH};

/// One step after the install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `sysctl --system`: the sysctl.d file changed.
    Sysctl,
    /// `systemctl daemon-reload`: the drop-in changed.
    DaemonReload,
    /// `systemctl reload nginx`: only nginx's files changed.
    Reload,
    /// `systemctl restart nginx`: the drop-in changed (its limits apply on restart only).
    Restart,
    /// The service is active after the reload or restart.
    ProbeActive,
}

impl Step {
    /// The step's name in messages and in `NGINX_GEN_TEST_FAIL_STEP`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sysctl => "sysctl",
            Self::DaemonReload => "daemon-reload",
            Self::Reload => "reload",
            Self::Restart => "restart",
            Self::ProbeActive => "probe",
        }
    }

    /// Whether the step makes nginx load the files (so a rollback must load the old ones).
    pub const fn loads_nginx(self) -> bool {
        matches!(self, Self::Reload | Self::Restart)
    }
}

/// The steps the changed files (install paths) call for, in order.
pub fn steps(changed: &[&str]) -> Vec<Step> {
    let sysctl = changed.contains(&SYSCTL_PATH);
    let unit = changed.contains(&SYSTEMD_PATH);
    let nginx = changed.iter().any(|p| p.starts_with("/etc/nginx/"));
    let mut out = Vec::new();
    if sysctl {
        out.push(Step::Sysctl);
    }
    if unit {
        out.extend([Step::DaemonReload, Step::Restart]);
    } else if nginx || sysctl {
        out.push(Step::Reload);
    }
    if out.iter().any(|s| s.loads_nginx()) {
        out.push(Step::ProbeActive);
    }
    out
}

/// What a step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Done, with what was done.
    Done(String),
    /// Not applicable here, with why and what to do instead.
    Skipped(String),
}

/// Runs the service steps.
pub trait Service {
    /// Runs `step`; `Err` is a failure that rolls the install back.
    fn run(&mut self, step: Step) -> Result<Outcome, String>;
}

/// This machine.
#[derive(Debug)]
pub struct Host {
    /// `--install-root` is `/`.
    this_root: bool,
    /// systemd is PID 1 (`/run/systemd/system` exists, as `sd_booted` checks).
    systemd: bool,
    /// `/proc/sys` can be written.
    proc_sys_writable: bool,
    /// `--install-root`, for notes.
    root: PathBuf,
}

impl Host {
    /// Probes what this machine can do for `root`.
    pub fn detect(root: &Path) -> Self {
        let this_root = root.canonicalize().is_ok_and(|r| r == Path::new("/"));
        Self {
            this_root,
            systemd: Path::new("/run/systemd/system").is_dir(),
            proc_sys_writable: std::fs::OpenOptions::new()
                .write(true)
                .open("/proc/sys/net/core/somaxconn")
                .is_ok(),
            root: root.to_owned(),
        }
    }
}

fn run_command(program: &str, args: &[&str]) -> Result<String, String> {
    let line = format!("{program} {}", args.join(" "));
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {line}: {e}"))?;
    if out.status.success() {
        Ok(line)
    } else {
        Err(format!(
            "{line} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

impl Service for Host {
    fn run(&mut self, step: Step) -> Result<Outcome, String> {
        if !self.this_root {
            return Ok(Outcome::Skipped(format!(
                "--install-root {} is not this host's root: its services are not this tree's",
                self.root.display()
            )));
        }
        match step {
            Step::Sysctl if !self.proc_sys_writable => Ok(Outcome::Skipped(format!(
                "/proc/sys is read-only here (a container?): {SYSCTL_PATH} takes effect where the kernel's settings can be written (the host's boot, or sysctl --system there)"
            ))),
            Step::Sysctl => run_command("sysctl", &["--system"]).map(Outcome::Done),
            _ if !self.systemd => Ok(Outcome::Skipped(format!(
                "systemd is not PID 1 here: {} by hand (nginx -s reload, or a restart for {SYSTEMD_PATH})",
                step.name()
            ))),
            Step::DaemonReload => run_command("systemctl", &["daemon-reload"]).map(Outcome::Done),
            Step::Reload => run_command("systemctl", &["reload", "nginx"]).map(Outcome::Done),
            Step::Restart => run_command("systemctl", &["restart", "nginx"]).map(|line| {
                Outcome::Done(format!(
                    "{line} (a restart, not a reload: the drop-in's limits apply to a new process only)"
                ))
            }),
            Step::ProbeActive => {
                run_command("systemctl", &["is-active", "--quiet", "nginx"]).map(Outcome::Done)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Host, Outcome, Service, Step, steps};
    use nginx_gen_core::render::{NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH};

    #[test]
    fn the_steps_follow_the_changed_files() {
        assert_eq!(steps(&[]), vec![]);
        assert_eq!(steps(&[NGINX_PATH]), vec![Step::Reload, Step::ProbeActive]);
        assert_eq!(
            steps(&[NGINX_PATH, SYSCTL_PATH, SYSTEMD_PATH]),
            vec![
                Step::Sysctl,
                Step::DaemonReload,
                Step::Restart,
                Step::ProbeActive
            ]
        );
    }

    #[test]
    fn another_root_skips_every_step_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let mut host = Host::detect(dir.path());
        for step in [Step::Sysctl, Step::DaemonReload, Step::Restart] {
            let Ok(Outcome::Skipped(note)) = host.run(step) else {
                panic!("{step:?} ran");
            };
            assert!(note.contains("not this host's root"), "{note}");
        }
    }
}
