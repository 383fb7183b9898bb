//! The staged tree: a copy of the installed nginx configuration directory with the new
//! files laid over it (and the files to remove left out), checked by the real `nginx -t`
//! before anything is moved. The copy sits next to the configuration directory
//! (`/etc/.nginx-gen-stage-ID/nginx`), so the sites already enabled are validated together
//! with the new files. Symbolic links are followed (the copy holds their contents), and the
//! copy's absolute references to the configuration directory (`include /etc/nginx/…`) are
//! rewritten to the copy — only in the copy, never in what is installed.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How deep the copy follows directories (a loop of symbolic links ends here).
const MAX_DEPTH: usize = 16;

/// A staged copy; removed when dropped.
#[derive(Debug)]
pub struct Stage {
    /// `<root>/etc/.nginx-gen-stage-ID`, removed on drop.
    top: PathBuf,
    /// The staged configuration directory, `top/nginx`.
    pub conf: PathBuf,
    /// The configuration directory as installed (`/etc/nginx`).
    conf_install: String,
}

impl Drop for Stage {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.top);
    }
}

/// Copies `<root><conf_install>` next to itself, lays `files` (install path, contents)
/// that fall under it over the copy and leaves `removed` out.
pub fn stage(
    root: &Path,
    conf_install: &str,
    files: &[(&str, &[u8])],
    removed: &[&str],
    id: &str,
) -> io::Result<Stage> {
    let conf_dir = root.join(conf_install.trim_start_matches('/'));
    let parent = conf_dir.parent().unwrap_or(root);
    fs::create_dir_all(parent)?;
    let top = parent.join(format!(".nginx-gen-stage-{id}"));
    let stage = Stage {
        conf: top.join("nginx"),
        top,
        conf_install: conf_install.trim_end_matches('/').to_owned(),
    };
    fs::create_dir_all(&stage.conf)?;
    if conf_dir.is_dir() {
        copy_tree(&conf_dir, &stage.conf, 0)?;
    }
    let prefix = format!("{}/", stage.conf_install);
    for path in removed {
        if let Some(rel) = path.strip_prefix(&prefix) {
            match fs::remove_file(stage.conf.join(rel)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
    }
    for (path, contents) in files {
        if let Some(rel) = path.strip_prefix(&prefix) {
            let dest = stage.conf.join(rel);
            if let Some(p) = dest.parent() {
                fs::create_dir_all(p)?;
            }
            fs::write(dest, contents)?;
        }
    }
    rewrite(
        &stage.conf,
        &prefix,
        &format!("{}/", stage.conf.display()),
        0,
    )?;
    Ok(stage)
}

/// Copies `from` into `to`, following symbolic links; dangling links and special files are
/// left out (nginx could not read them either).
fn copy_tree(from: &Path, to: &Path, depth: usize) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let src = entry.path();
        let dest = to.join(entry.file_name());
        let Ok(meta) = fs::metadata(&src) else {
            continue;
        };
        if meta.is_dir() {
            fs::create_dir_all(&dest)?;
            copy_tree(&src, &dest, depth + 1)?;
        } else if meta.is_file() {
            fs::copy(&src, &dest)?;
        }
    }
    Ok(())
}

/// Replaces `from` by `to` in every text file of the copy.
fn rewrite(dir: &Path, from: &str, to: &str, depth: usize) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            rewrite(&path, from, to, depth + 1)?;
        } else if let Ok(text) = fs::read_to_string(&path)
            && text.contains(from)
        {
            fs::write(&path, text.replace(from, to))?;
        }
    }
    Ok(())
}

/// The nginx program: `nginx` on `PATH`, else the distributions' `/usr/sbin/nginx`.
pub fn nginx_program() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("nginx"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        ["/usr/sbin/nginx", "/usr/bin/nginx"]
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
    })
}

/// The compiled-in prefix (`--prefix=` of `nginx -V`), where `load_module modules/…`
/// resolves.
fn compiled_prefix(nginx: &Path) -> Option<String> {
    let out = Command::new(nginx).arg("-V").output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    text.split_whitespace()
        .find_map(|w| w.strip_prefix("--prefix="))
        .map(|p| format!("{}/", p.trim_end_matches('/')))
}

impl Stage {
    /// `nginx -t -q -p <compiled prefix> -c <staged nginx.conf>`; on failure nginx's
    /// message, with the staged paths named by their install paths.
    pub fn validate(&self, nginx: &Path) -> Result<(), String> {
        let conf = self.conf.join("nginx.conf");
        let mut cmd = Command::new(nginx);
        cmd.arg("-t").arg("-q");
        if let Some(prefix) = compiled_prefix(nginx) {
            cmd.arg("-p").arg(prefix);
        }
        cmd.arg("-c").arg(&conf);
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", nginx.display()))?;
        if out.status.success() {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&out.stderr)
            .replace(&self.conf.display().to_string(), &self.conf_install);
        Err(format!(
            "nginx -t rejects the staged tree ({}):\n{}",
            out.status,
            text.trim_end()
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    #[test]
    fn the_copy_holds_the_new_files_and_references_itself() {
        let root = tempfile::tempdir().unwrap();
        let conf = root.path().join("etc/nginx");
        fs::create_dir_all(conf.join("sites-enabled")).unwrap();
        fs::write(conf.join("nginx.conf"), "include /etc/nginx/mime.types;\n").unwrap();
        fs::write(conf.join("sites-enabled/old"), "old\n").unwrap();
        fs::write(conf.join("sites-enabled/gone"), "gone\n").unwrap();
        let files: [(&str, &[u8]); 2] = [
            ("/etc/nginx/conf.d/new.conf", b"new\n"),
            ("/etc/sysctl.d/x.conf", b"x\n"),
        ];
        let stage = super::stage(
            root.path(),
            "/etc/nginx",
            &files,
            &["/etc/nginx/sites-enabled/gone"],
            "t",
        )
        .unwrap();
        let staged = stage.conf.clone();
        assert_eq!(staged, root.path().join("etc/.nginx-gen-stage-t/nginx"));
        assert_eq!(
            fs::read_to_string(staged.join("nginx.conf")).unwrap(),
            format!("include {}/mime.types;\n", staged.display())
        );
        assert_eq!(fs::read(staged.join("conf.d/new.conf")).unwrap(), b"new\n");
        assert!(staged.join("sites-enabled/old").exists());
        assert!(!staged.join("sites-enabled/gone").exists());
        assert!(!root.path().join("etc/.nginx-gen-stage-t/sysctl.d").exists());
        // What is installed is untouched.
        assert_eq!(
            fs::read_to_string(conf.join("nginx.conf")).unwrap(),
            "include /etc/nginx/mime.types;\n"
        );
        drop(stage);
        assert!(!staged.exists());
    }
}
