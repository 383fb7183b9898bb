//! The release artifacts of `scripts/release.sh` (issue 15, item 0) where a server admin
//! would use them: the Debian package installed with `dpkg -i` in the booted Debian 12
//! (binary, man page, completions, docs; `nginx-gen --version` and an `apply --dry-run`
//! there; removed again), and the static musl binary run in that container and in an empty
//! root (nothing but the binary: no libc, no `/proc`).
//!
//! Needs root, `$NGINX_GEN_DEB` and `$NGINX_GEN_STATIC` (stage 58-fleet sets them).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::Command;

use nginx_gen_host_tests::{Scenario, boot};

fn artifact(var: &str) -> PathBuf {
    let path = std::env::var_os(var).map_or_else(
        || panic!("{var}: an artifact of scripts/release.sh (stage 58-fleet)"),
        PathBuf::from,
    );
    assert!(path.is_file(), "{var}: no file at {}", path.display());
    path
}

fn version() -> String {
    format!("nginx-gen {}", env!("CARGO_PKG_VERSION"))
}

#[test]
#[ignore = "root, a booted Debian 12 and scripts/release.sh's artifacts: stage 58-fleet"]
fn the_package_installs_and_runs_in_debian_12() {
    let s = Scenario::start("release: the .deb installed in the booted Debian 12");
    let deb = artifact("NGINX_GEN_DEB");
    let c = boot("release-deb", &["pkg.example"]);
    c.write("/tmp/nginx-gen.deb", &fs::read(&deb).unwrap());
    let install = c.sh("dpkg -i /tmp/nginx-gen.deb");
    assert_eq!(install.code, Some(0), "dpkg -i: {}", install.both());
    // /usr/local/bin/nginx-gen is the suite's bind mount: the package's is /usr/bin's.
    let v = c.ok("/usr/bin/nginx-gen --version");
    assert_eq!(v.trim(), version());
    let listed = c.ok("dpkg -L nginx-gen");
    for path in [
        "/usr/bin/nginx-gen",
        "/usr/share/man/man1/nginx-gen.1.gz",
        "/usr/share/bash-completion/completions/nginx-gen",
        "/usr/share/zsh/vendor-completions/_nginx-gen",
        "/usr/share/fish/vendor_completions.d/nginx-gen.fish",
        "/usr/share/doc/nginx-gen/README.md",
        "/usr/share/doc/nginx-gen/copyright",
        "/usr/share/doc/nginx-gen/changelog.gz",
        "/usr/share/doc/nginx-gen/docs/fleet.md",
    ] {
        assert!(listed.lines().any(|l| l == path), "dpkg -L lists {path}");
        assert!(c.path(path).is_file(), "{path} installed");
    }
    let man = c.ok("zcat /usr/share/man/man1/nginx-gen.1.gz");
    assert!(man.contains(".TH nginx-gen"), "a roff man page");
    let completion = c.ok("cat /usr/share/bash-completion/completions/nginx-gen");
    assert!(completion.contains("fleet") && completion.contains("--vcpu"));
    let dry = c.sh("/usr/bin/nginx-gen apply --dry-run --server-name pkg.example");
    assert_eq!(dry.code, Some(0), "apply --dry-run: {}", dry.both());
    assert!(
        dry.stdout
            .contains("+++ b/etc/nginx/conf.d/pkg.example.conf")
    );
    let remove = c.sh("dpkg -r nginx-gen");
    assert_eq!(remove.code, Some(0), "dpkg -r: {}", remove.both());
    assert!(!c.path("/usr/bin/nginx-gen").exists(), "removed");
    s.note(&format!(
        "{} ({} B): dpkg -i, --version, man page, completions, apply --dry-run, dpkg -r",
        deb.file_name().unwrap().to_string_lossy(),
        fs::metadata(&deb).unwrap().len()
    ));
}

#[test]
#[ignore = "root, a booted Debian 12 and scripts/release.sh's artifacts: stage 58-fleet"]
fn the_static_binary_runs_in_debian_12_and_in_an_empty_root() {
    let s = Scenario::start("release: the static binary in Debian 12 and an empty root");
    let bin = artifact("NGINX_GEN_STATIC");
    let bytes = fs::read(&bin).unwrap();

    let c = boot("release-static", &[]);
    c.write("/opt/nginx-gen", &bytes);
    c.ok("chmod 0755 /opt/nginx-gen");
    assert_eq!(c.ok("/opt/nginx-gen --version").trim(), version());
    let plan = c.ok("/opt/nginx-gen --vcpu 2 --ram 2G --no-detect --format nginx");
    assert!(plan.contains("worker_processes 2;"));

    // An empty root: the binary alone, run with chroot.
    let root = tempfile_dir();
    let inside = root.join("nginx-gen");
    fs::write(&inside, &bytes).unwrap();
    fs::set_permissions(&inside, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        fs::read_dir(&root).unwrap().count(),
        1,
        "nothing but the binary"
    );
    let run = |args: &[&str]| {
        let out = Command::new("/usr/sbin/chroot")
            .arg(&root)
            .arg("/nginx-gen")
            .args(args)
            .env_clear()
            .output()
            .expect("cannot run chroot");
        assert!(
            out.status.success(),
            "chroot {} /nginx-gen {args:?}: {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run(&["--version"]).trim(), version());
    assert!(
        run(&[
            "--vcpu",
            "4",
            "--ram",
            "8G",
            "--no-detect",
            "--format",
            "nginx"
        ])
        .contains("worker_processes 4;")
    );
    let _ = fs::remove_dir_all(&root);
    s.note(&format!(
        "{} ({} B): --version and a plan in the container and in an empty root",
        bin.file_name().unwrap().to_string_lossy(),
        bytes.len()
    ));
}

/// A fresh directory under the suite's runs directory.
fn tempfile_dir() -> PathBuf {
    let dir = nginx_gen_host_tests::runs_dir().join(format!("ngr-{}-empty", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}
