//! PHP-FPM, for the php workload's pool file: which PHP-FPM a pool path belongs to
//! ([`Fpm::of_pool`], from core's layouts, so a rollback knows it from the path alone),
//! the program ([`program`]), and the staged check with PHP-FPM's own `-t`
//! ([`validate`]): a copy of its main configuration whose pool `include` reads a staged
//! copy of the pool directory with the new pool laid over it — nothing installed is read
//! for the new pool, nothing is moved before it passes.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use nginx_gen_core::inputs::{Layout, PhpVersion};

use super::install::under;

/// One PHP-FPM installation, by the layout's names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fpm {
    /// The systemd unit (and package): `php8.2-fpm` (Debian), `php-fpm` (RHEL).
    pub name: String,
    /// The program, whose `-t` checks the configuration: `php-fpm8.2` (Debian), `php-fpm`.
    pub program: String,
    /// The pool file nginx-gen writes (install path).
    pub pool: String,
    /// The main configuration, which includes the pool directory (install path).
    pub conf: String,
}

impl Fpm {
    /// The PHP-FPM of `layout` and `php` (the plan's).
    pub fn of(layout: Layout, php: PhpVersion) -> Self {
        Self {
            name: layout.php_fpm(php),
            program: layout.php_fpm_program(php),
            pool: layout.php_pool(php),
            conf: layout.php_fpm_conf(php),
        }
    }

    /// The PHP-FPM whose pool file is at `path`, if nginx-gen writes a pool there.
    pub fn of_pool(path: &str) -> Option<Self> {
        Layout::ALL.iter().find_map(|&layout| {
            PhpVersion::ALL
                .iter()
                .map(|&php| Self::of(layout, php))
                .find(|f| f.pool == path)
        })
    }
}

/// Whether nginx-gen writes a PHP-FPM pool at `path`.
pub fn is_pool(path: &str) -> bool {
    Fpm::of_pool(path).is_some()
}

/// The PHP-FPM program `name`: on `PATH`, else in `/usr/sbin` (where the packages put it).
pub fn program(name: &str) -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        ["/usr/sbin", "/usr/bin"]
            .iter()
            .map(|d| Path::new(d).join(name))
            .find(|p| p.is_file())
    })
}

/// Why PHP-FPM cannot check or take the pool here (`None`: it can): the program or its
/// main configuration (under `root`) missing. Said before anything is changed.
pub fn missing(root: &Path, fpm: &Fpm) -> Option<String> {
    let pkg = &fpm.name;
    if program(&fpm.program).is_none() {
        return Some(format!(
            "PHP-FPM is not installed: {} is not on PATH nor in /usr/sbin (the package {pkg}); the php workload's pool {} is checked with {} -t and PHP-FPM reloaded with it, so nothing was changed (install {pkg}, or plan another --workload)",
            fpm.program, fpm.pool, fpm.program
        ));
    }
    let conf = under(root, &fpm.conf);
    if !conf.is_file() {
        return Some(format!(
            "PHP-FPM's configuration {} is missing (the package {pkg} is not installed in this tree?); the pool {} is checked with {} -t through it, so nothing was changed",
            conf.display(),
            fpm.pool,
            fpm.program
        ));
    }
    None
}

/// A staged PHP-FPM configuration; removed when dropped.
#[derive(Debug)]
struct Stage {
    top: PathBuf,
}

impl Drop for Stage {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.top);
    }
}

/// The lines of the main configuration `text` with each `include` of the pool directory
/// `pool_dir` (absolute, as installed, or under `root`) pointed at `staged_dir`; `None`
/// when no line includes it.
fn redirect_includes(
    text: &str,
    pool_dir: &str,
    root_dir: &str,
    staged_dir: &str,
) -> Option<String> {
    let mut found = false;
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.lines() {
        let trimmed = line.trim_start();
        let value = trimmed
            .strip_prefix("include")
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('='))
            .map(|v| v.trim().trim_matches('"'));
        let redirected = value.and_then(|v| {
            let (dir, glob) = v.rsplit_once('/')?;
            (dir == pool_dir || dir == root_dir).then(|| format!("include={staged_dir}/{glob}"))
        });
        match redirected {
            Some(l) => {
                found = true;
                out.push_str(&l);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    found.then_some(out)
}

/// Checks the new pool (`new`: its bytes; `None`: removed) with `<program> -t` on a staged
/// copy of PHP-FPM's configuration under `root`; `Ok` with the command's description.
pub fn validate(root: &Path, fpm: &Fpm, new: Option<&[u8]>, id: &str) -> Result<String, String> {
    if let Some(why) = missing(root, fpm) {
        return Err(why);
    }
    let program = program(&fpm.program).unwrap_or_else(|| PathBuf::from(&fpm.program));
    let conf = under(root, &fpm.conf);
    let pool = under(root, &fpm.pool);
    let pool_dir = pool.parent().unwrap_or(root).to_path_buf();
    let pool_dir_install = Path::new(&fpm.pool)
        .parent()
        .map_or_else(String::new, |p| p.display().to_string());
    let top = conf
        .parent()
        .unwrap_or(root)
        .join(format!(".nginx-gen-stage-{id}"));
    let stage = Stage { top };
    let staged_pools = stage.top.join("pool.d");
    let io_err = |e: io::Error| format!("cannot stage PHP-FPM's configuration: {e}");
    fs::create_dir_all(&staged_pools).map_err(io_err)?;
    if let Ok(entries) = fs::read_dir(&pool_dir) {
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_file() && path != pool {
                fs::copy(&path, staged_pools.join(entry.file_name())).map_err(io_err)?;
            }
        }
    }
    if let (Some(bytes), Some(name)) = (new, pool.file_name()) {
        fs::write(staged_pools.join(name), bytes).map_err(io_err)?;
    }
    let text =
        fs::read_to_string(&conf).map_err(|e| format!("cannot read {}: {e}", conf.display()))?;
    let staged_text = redirect_includes(
        &text,
        &pool_dir_install,
        &pool_dir.display().to_string(),
        &staged_pools.display().to_string(),
    )
    .ok_or_else(|| {
        format!(
            "{} has no include= of {pool_dir_install}/, where the pool {} is: its pools cannot be checked before they are installed; nothing was changed",
            fpm.conf, fpm.pool
        )
    })?;
    let staged_conf = stage.top.join("php-fpm.conf");
    fs::write(&staged_conf, staged_text).map_err(io_err)?;
    let out = Command::new(&program)
        .arg("-t")
        .arg("--fpm-config")
        .arg(&staged_conf)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if out.status.success() {
        return Ok(format!("{} -t", program.display()));
    }
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let text = text
        .replace(&staged_pools.display().to_string(), &pool_dir_install)
        .replace(&staged_conf.display().to_string(), &fpm.conf);
    Err(format!(
        "{} -t rejects the staged pool {} ({}):\n{}",
        fpm.program,
        fpm.pool,
        out.status,
        text.trim_end()
    ))
}

/// The `listen` of a pool file's text (its first, comments aside).
pub fn listen_of(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == "listen").then(|| v.trim().to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::{Fpm, is_pool, listen_of, redirect_includes};
    use std::process::Command;

    #[test]
    fn a_pool_path_names_its_php_fpm() {
        let f = Fpm::of_pool("/etc/php/8.2/fpm/pool.d/www.conf").unwrap();
        assert_eq!(f.name, "php8.2-fpm");
        assert_eq!(f.program, "php-fpm8.2");
        assert_eq!(f.conf, "/etc/php/8.2/fpm/php-fpm.conf");
        assert_eq!(
            Fpm::of_pool("/etc/php-fpm.d/www.conf").unwrap().name,
            "php-fpm"
        );
        assert!(is_pool("/etc/php/8.4/fpm/pool.d/www.conf"));
        assert!(!is_pool("/etc/php/8.2/fpm/pool.d/other.conf"));
        assert!(!is_pool("/etc/nginx/nginx.conf"));
    }

    /// The install script (`install.sh`, no nginx-gen on the host) knows a pool by its own
    /// `pooled`; it must agree with the CLI's `apply`, which uses `is_pool`.
    #[test]
    fn the_install_script_knows_the_same_pools() {
        let steps = nginx_gen_core::render::INSTALL_STEPS;
        let pooled = steps
            .lines()
            .find(|l| l.starts_with("pooled() "))
            .expect("install-steps.sh defines pooled()");
        for path in [
            "/etc/php/8.2/fpm/pool.d/www.conf",
            "/etc/php/8.4/fpm/pool.d/www.conf",
            "/etc/php-fpm.d/www.conf",
            "/etc/php/8.2/fpm/pool.d/other.conf",
            "/etc/php/8.2/fpm/php-fpm.conf",
            "/etc/nginx/nginx.conf",
            "/etc/php-fpm.d/www.conf.bak",
        ] {
            let status = Command::new("sh")
                .args(["-c", &format!("{pooled}\npooled \"$1\""), "sh", path])
                .status()
                .expect("sh runs");
            assert_eq!(status.success(), is_pool(path), "{path}");
        }
    }

    #[test]
    fn the_staged_conf_includes_the_staged_pools() {
        let text = "[global]\npid = /run/php/php8.2-fpm.pid\n;include=/etc/php/8.2/fpm/pool.d/*.conf\ninclude=/etc/php/8.2/fpm/pool.d/*.conf\n";
        let out = redirect_includes(
            text,
            "/etc/php/8.2/fpm/pool.d",
            "/r/etc/php/8.2/fpm/pool.d",
            "/r/s/pool.d",
        )
        .unwrap();
        assert_eq!(
            out,
            "[global]\npid = /run/php/php8.2-fpm.pid\n;include=/etc/php/8.2/fpm/pool.d/*.conf\ninclude=/r/s/pool.d/*.conf\n"
        );
        assert_eq!(redirect_includes("[global]\n", "/a", "/b", "/c"), None);
    }

    #[test]
    fn the_listen_is_read_without_comments() {
        assert_eq!(
            listen_of("; listen = /x\nlisten = /run/php/php8.2-fpm.sock\nlisten.owner = a\n")
                .as_deref(),
            Some("/run/php/php8.2-fpm.sock")
        );
        assert_eq!(listen_of("[www]\n"), None);
    }
}
