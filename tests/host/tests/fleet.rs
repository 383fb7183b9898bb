//! The Ansible role of deploy/ansible (issue 15) run by a real `ansible-playbook` over three
//! hosts of different sizes: the booted Debian 12 (reached by `nsenter` into its PID 1, the
//! connection plugin `tests/fleet/connection_plugins/nsenter.py`; python3 added to its root
//! by `scripts/fleet-root.sh`) and two local roots (copies of this machine's `/etc/nginx`, applied
//! with `--install-root`) whose facts are set in the jsonfile fact cache before the run, as a
//! gathered host's would be. Then:
//!   1. a run changes every host; each tree passes `nginx -t`, and its numbers equal the table
//!      `nginx-gen fleet` plans from the same fact cache and the numbers the facts stand for;
//!   2. a second run reports `changed=0` on every host;
//!   3. `--check --diff` with other inputs shows apply's diff and changes no file;
//!   4. an injected failure after the reload (`NGINX_GEN_TEST_FAIL_STEP=probe-http`) fails the
//!      booted host, whose files apply restores, and stops the rolling play (`serial: 1`,
//!      `max_fail_percentage: 0`) before the local roots;
//!   5. the role's drift check passes on the booted host.
//!
//! Needs root, the ansible-core venv (`$NGINX_GEN_ANSIBLE`: its bin directory) and the root
//! of scripts/fleet-root.sh (`$NGINX_GEN_HOST_ROOT`); stage 58-fleet sets them up.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use nginx_gen_host_tests::{Container, STATE, Scenario, assert_same, binary, boot, directive};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ansible_bin(name: &str) -> PathBuf {
    let dir = std::env::var_os("NGINX_GEN_ANSIBLE")
        .map(PathBuf::from)
        .expect("NGINX_GEN_ANSIBLE: the bin directory of the ansible-core venv (stage 58-fleet)");
    dir.join(name)
}

/// A local root: its size, and whether it has IPv6 addresses.
struct Local {
    name: &'static str,
    vcpu: u32,
    mb: u32,
    ipv6: bool,
    inputs: serde_json::Value,
}

struct Fleet {
    work: PathBuf,
    inventory: PathBuf,
}

/// The `PLAY RECAP` line of each host: (changed, failed).
fn recap(out: &str) -> BTreeMap<String, (u32, u32)> {
    let mut hosts = BTreeMap::new();
    let mut in_recap = false;
    for line in out.lines() {
        if line.starts_with("PLAY RECAP") {
            in_recap = true;
            continue;
        }
        if !in_recap {
            continue;
        }
        let Some((host, rest)) = line.split_once(" : ") else {
            continue;
        };
        let field = |key: &str| -> u32 {
            rest.split_whitespace()
                .find_map(|w| w.strip_prefix(&format!("{key}=")))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        hosts.insert(host.trim().to_owned(), (field("changed"), field("failed")));
    }
    hosts
}

impl Fleet {
    /// `ansible-playbook PLAYBOOK ARGS`: exit code and everything it printed.
    fn play(&self, playbook: &str, args: &[&str]) -> (Option<i32>, String) {
        let out = Command::new(ansible_bin("ansible-playbook"))
            .arg("-i")
            .arg(&self.inventory)
            .arg(repo().join("deploy/ansible/playbooks").join(playbook))
            .args(args)
            .env("ANSIBLE_CONFIG", self.work.join("ansible.cfg"))
            .env("ANSIBLE_NOCOLOR", "1")
            .env("ANSIBLE_FORCE_COLOR", "0")
            .current_dir(&self.work)
            .output()
            .expect("cannot run ansible-playbook");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        eprintln!(
            "--- ansible-playbook {playbook} {args:?}: {:?}\n{text}",
            out.status.code()
        );
        (out.status.code(), text)
    }
}

/// Every file under `dir` with its bytes (relative paths).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let meta = fs::symlink_metadata(&p).unwrap();
            let rel = p.strip_prefix(base).unwrap().display().to_string();
            if meta.is_dir() {
                walk(base, &p, out);
            } else if meta.file_type().is_symlink() {
                out.insert(
                    rel,
                    fs::read_link(&p)
                        .unwrap()
                        .display()
                        .to_string()
                        .into_bytes(),
                );
            } else {
                out.insert(rel, fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `nginx -t` on a local root's tree: a copy with its `include /etc/nginx/…` pointed at the
/// copy (what apply's validate step does with the staged tree).
fn nginx_t_local(root: &Path, scratch: &Path) -> (bool, String) {
    let copy = scratch.join("nginx");
    let _ = fs::remove_dir_all(&copy);
    let cp = Command::new("cp")
        .arg("-aL")
        .arg(root.join("etc/nginx"))
        .arg(&copy)
        .status()
        .unwrap();
    assert!(cp.success());
    for (path, bytes) in files(&copy) {
        // Every text file (koi-win and the like are not UTF-8, and include nothing).
        if let Ok(text) = String::from_utf8(bytes) {
            let text = text.replace("/etc/nginx/", &format!("{}/", copy.display()));
            fs::write(copy.join(&path), text).unwrap();
        }
    }
    let out = Command::new("nginx")
        .args(["-t", "-q", "-p", "/usr/share/nginx", "-c"])
        .arg(copy.join("nginx.conf"))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
#[ignore = "root, a booted Debian 12 and ansible-core: stage 58-fleet"]
fn ansible_playbook_over_three_hosts() {
    let s = Scenario::start("fleet: ansible-playbook, 3 hosts (booted Debian 12 + 2 local roots)");
    let c: Container = boot("fleet", &["c.example"]);
    let guard =
        WorkDir(nginx_gen_host_tests::runs_dir().join(format!("ngf-{}-work", std::process::id())));
    let work = guard.0.clone();
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(work.join("facts")).unwrap();

    let locals = [
        Local {
            name: "small",
            vcpu: 1,
            mb: 1024,
            ipv6: false,
            inputs: serde_json::json!({"server_names": ["small.example"]}),
        },
        Local {
            name: "large",
            vcpu: 16,
            mb: 32768,
            ipv6: true,
            inputs: serde_json::json!({"server_names": ["large.example"], "workload": "proxy",
                                        "upstreams": ["10.0.0.5:8080"]}),
        },
    ];
    let mut hosts = serde_json::Map::new();
    hosts.insert(
        "debian12".into(),
        serde_json::json!({
            "ansible_connection": "nsenter",
            "nginx_gen_nsenter_pid": c.leader(),
            "ansible_python_interpreter": "/usr/bin/python3",
            // /usr/local/bin/nginx-gen is the suite's read-only bind mount.
            "nginx_gen_path": "/usr/local/sbin/nginx-gen",
            "nginx_gen_inputs": {"server_names": ["c.example"], "root": "/var/www/c.example"},
        }),
    );
    let python = ansible_bin("python3");
    for l in &locals {
        let root = work.join(l.name);
        fs::create_dir_all(root.join("etc")).unwrap();
        fs::create_dir_all(root.join("usr/local/bin")).unwrap();
        let cp = Command::new("cp")
            .args(["-a", "/etc/nginx"])
            .arg(root.join("etc/nginx"))
            .status()
            .unwrap();
        assert!(cp.success());
        // The facts a gathered host of this size would have, cached as ansible-core 2.19
        // caches them: setup is skipped for a host with cached facts (tasks/facts.yml).
        let facts = serde_json::json!({
            "ansible_processor_nproc": l.vcpu,
            "ansible_processor_vcpus": l.vcpu,
            "ansible_memtotal_mb": l.mb,
            "ansible_distribution": "Debian",
            "ansible_os_family": "Debian",
            "ansible_distribution_version": "12.11",
            "ansible_virtualization_role": "guest",
            "ansible_virtualization_type": "kvm",
            "ansible_all_ipv6_addresses": if l.ipv6 { serde_json::json!(["2001:db8::1"]) } else { serde_json::json!([]) },
        });
        fs::write(
            work.join("facts").join(format!("s1_{}", l.name)),
            serde_json::json!({"__payload__": facts.to_string()}).to_string(),
        )
        .unwrap();
        hosts.insert(
            l.name.into(),
            serde_json::json!({
                "ansible_connection": "local",
                "ansible_python_interpreter": python,
                "nginx_gen_install_root": root,
                "nginx_gen_path": root.join("usr/local/bin/nginx-gen"),
                "nginx_gen_inputs": l.inputs,
            }),
        );
    }
    let inventory = work.join("inventory.json");
    fs::write(
        &inventory,
        serde_json::to_string_pretty(&serde_json::json!({
            "nginx": {
                "hosts": hosts,
                "vars": {"nginx_gen_binary": binary()},
            }
        }))
        .unwrap(),
    )
    .unwrap();
    fs::write(
        work.join("ansible.cfg"),
        format!(
            "[defaults]\nroles_path = {}\nconnection_plugins = {}\nfact_caching = jsonfile\n\
             fact_caching_connection = {}\nfact_caching_timeout = 86400\n\
             interpreter_python = auto_silent\nretry_files_enabled = false\n",
            repo().join("deploy/ansible/roles").display(),
            repo().join("tests/fleet/connection_plugins").display(),
            work.join("facts").display()
        ),
    )
    .unwrap();
    let fleet = Fleet {
        work: work.clone(),
        inventory,
    };
    let names = ["debian12", "large", "small"];

    // 1. First run: every host changed.
    let (code, out) = fleet.play("site.yml", &[]);
    assert_eq!(code, Some(0), "first run");
    let r = recap(&out);
    for h in names {
        assert!(r[h].0 >= 1 && r[h].1 == 0, "{h} first run: {:?}", r[h]);
    }
    s.note(&format!(
        "first run: changed {:?}",
        r.values().map(|v| v.0).collect::<Vec<_>>()
    ));

    // Every tree passes nginx -t.
    let t = c.sh("nginx -t");
    assert_eq!(t.code, Some(0), "nginx -t in the booted host: {}", t.both());
    for l in &locals {
        let (ok, err) = nginx_t_local(&work.join(l.name), &work);
        assert!(ok, "nginx -t on {}'s tree: {err}", l.name);
    }

    // The numbers: the installed nginx.conf against nginx-gen fleet on the same fact cache,
    // and against what the facts stand for (one worker per vCPU).
    let table = Command::new(binary())
        .args(["fleet", "--format", "json", "--facts"])
        .arg(work.join("facts"))
        .output()
        .unwrap();
    assert!(table.status.success(), "{table:?}");
    let table: serde_json::Value = serde_json::from_slice(&table.stdout).unwrap();
    let rows: BTreeMap<String, serde_json::Value> = table["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["host"].as_str().unwrap().to_owned(), h.clone()))
        .collect();
    assert_eq!(rows.keys().collect::<Vec<_>>(), names, "one row per host");
    let installed = |h: &str| -> String {
        if h == "debian12" {
            String::from_utf8(c.read("/etc/nginx/nginx.conf")).unwrap()
        } else {
            fs::read_to_string(work.join(h).join("etc/nginx/nginx.conf")).unwrap()
        }
    };
    let container_vcpu: u64 = c.ok("nproc").trim().parse().unwrap();
    for h in names {
        let conf = installed(h);
        let workers: u64 = directive(&conf, "worker_processes")
            .unwrap()
            .parse()
            .unwrap();
        let connections: u64 = directive(&conf, "worker_connections")
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            (workers, connections),
            (
                rows[h]["workers"].as_u64().unwrap(),
                rows[h]["worker_connections"].as_u64().unwrap()
            ),
            "{h}: installed nginx.conf against nginx-gen fleet's table"
        );
        let want = match h {
            "debian12" => container_vcpu,
            "small" => 1,
            _ => 16,
        };
        assert_eq!(workers, want, "{h}: one worker per vCPU of its facts");
        // And nginx-gen run with that host's facts as flags (mapped here, by hand).
        let (vcpu, mb, ipv6, inputs) = host_facts(&work.join("facts"), h, &hosts);
        let doc_path = work.join(format!("{h}.inputs.json"));
        fs::write(&doc_path, inputs.to_string()).unwrap();
        let mut single = Command::new(binary());
        single
            .args(["--no-detect", "--vcpu", &vcpu.to_string(), "--ram"])
            .arg(format!("{mb}M"))
            .arg("--input")
            .arg(&doc_path)
            .args(["--format", "nginx"]);
        if !ipv6 {
            single.args(["--listen", "80"]);
        }
        let single = single.output().unwrap();
        assert!(single.status.success(), "{h}: {single:?}");
        let single = String::from_utf8(single.stdout).unwrap();
        for key in [
            "worker_processes",
            "worker_connections",
            "worker_rlimit_nofile",
        ] {
            assert_eq!(
                directive(&conf, key),
                directive(&single, key),
                "{h}: {key} installed against nginx-gen run with the host's facts"
            );
        }
    }
    s.note(&format!(
        "workers/connections: {}",
        names
            .iter()
            .map(|h| format!(
                "{h} {}/{}",
                rows[*h]["workers"], rows[*h]["worker_connections"]
            ))
            .collect::<Vec<_>>()
            .join(", ")
    ));

    // 2. Second run: nothing changes.
    let (code, out) = fleet.play("site.yml", &[]);
    assert_eq!(code, Some(0), "second run");
    let r = recap(&out);
    for h in names {
        assert_eq!(r[h], (0, 0), "{h} second run: changed, failed");
    }
    s.note("second run: changed=0 on every host");

    // 3. --check --diff with other inputs: the diff shown, nothing changed.
    let before_c = c.snapshot(&STATE, &[]);
    let before_c_files = c.snapshot(&STATE, &["/var/lib/nginx-gen/backups"]);
    let before_l: Vec<_> = locals.iter().map(|l| files(&work.join(l.name))).collect();
    let other = r#"{"nginx_gen_inputs": {"server_names": ["other.example"]}}"#;
    let (code, out) = fleet.play("site.yml", &["--check", "--diff", "-e", other]);
    assert_eq!(code, Some(0), "--check --diff");
    let r = recap(&out);
    for h in names {
        assert!(r[h].0 >= 1, "{h} --check: reported as changed: {:?}", r[h]);
    }
    assert!(
        out.contains("+++ b/etc/nginx/conf.d/other.example.conf"),
        "--check --diff shows the new site file"
    );
    assert_same(
        &before_c,
        &c.snapshot(&STATE, &[]),
        "--check changed the booted host",
    );
    for (l, before) in locals.iter().zip(&before_l) {
        assert!(
            *before == files(&work.join(l.name)),
            "--check changed {}",
            l.name
        );
    }
    s.note("--check --diff: the diff shown, no file changed");

    // 4. A failure injected after the reload on the first host of the rolling play.
    let fail = r#"{"nginx_gen_inputs": {"server_names": ["other.example"]},
                   "nginx_gen_environment": {"NGINX_GEN_TEST_FAIL_STEP": "probe-http"}}"#;
    let (code, out) = fleet.play("site.yml", &["-e", fail]);
    assert_ne!(code, Some(0), "a failed host fails the play");
    assert!(
        out.contains("apply failed at step probe-http"),
        "the step is named"
    );
    assert!(
        out.contains("rolled back: every file restored byte for byte"),
        "the rollback is reported"
    );
    let r = recap(&out);
    assert_eq!(r["debian12"].1, 1, "debian12 failed: {r:?}");
    for h in ["large", "small"] {
        assert!(
            r.get(h).is_none_or(|v| *v == (0, 0)),
            "{h} not reached: {r:?}"
        );
    }
    // The backup set the failed run made stays (backup sets are never deleted).
    let backups = ["/var/lib/nginx-gen/backups"];
    assert_same(
        &c.snapshot(&STATE, &backups),
        &before_c_files,
        "the failed host was not restored",
    );
    for (l, before) in locals.iter().zip(&before_l) {
        assert!(
            *before == files(&work.join(l.name)),
            "the rollout went on to {}",
            l.name
        );
    }
    let active = c.sh("systemctl is-active nginx");
    assert_eq!(active.stdout.trim(), "active");
    s.note("injected probe-http failure: debian12 failed and restored, the rollout stopped");

    // 5. The drift check on the booted host: the play's verdict is check's. Where this
    // machine withholds CAP_SYS_RESOURCE, the container's systemd clamps LimitNOFILE to its
    // own hard limit (docs/verification.md, tests/host/tests/check.rs): check then rightly
    // reports that limit, and only that; the play fails on it and names it.
    let direct = c.nginx_gen(&["check", "--format", "json"], &[]);
    let doc: serde_json::Value = serde_json::from_str(&direct.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    let ceiling = c.nofile(1).1;
    let (code, out) = fleet.play("check.yml", &["--limit", "debian12"]);
    if findings.is_empty() {
        assert_eq!(code, Some(0), "drift check on a matching host");
        s.note("check.yml: no drift on debian12");
    } else {
        for f in findings {
            let subject = f["subject"].as_str().unwrap();
            assert!(
                subject.contains("Max open files")
                    && f["found"].as_str().unwrap().contains(&ceiling),
                "only the clamped open-files limit differs: {f:#}"
            );
            assert!(out.contains(subject), "the play names {subject}");
        }
        assert_ne!(code, Some(0), "drift fails the check play");
        let (code, _) = fleet.play(
            "check.yml",
            &[
                "--limit",
                "debian12",
                "-e",
                "nginx_gen_check_fail_on_drift=false",
            ],
        );
        assert_eq!(code, Some(0), "report-only drift check");
        s.note(&format!(
            "check.yml: fails on debian12 naming only the open-files limit this machine clamps to {ceiling} (as stage 57's check scenario); passes with nginx_gen_check_fail_on_drift=false"
        ));
    }
}

/// A host's size from the fact cache (as Ansible cached it), and its inputs from the
/// inventory: (vCPUs, MiB, has IPv6, the inputs document).
fn host_facts(
    cache: &Path,
    host: &str,
    inventory: &serde_json::Map<String, serde_json::Value>,
) -> (u64, u64, bool, serde_json::Value) {
    let file: serde_json::Value =
        serde_json::from_slice(&fs::read(cache.join(format!("s1_{host}"))).unwrap()).unwrap();
    let facts: serde_json::Value =
        serde_json::from_str(file["__payload__"].as_str().unwrap()).unwrap();
    let number = |key: &str| {
        facts[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{host}: {key}"))
    };
    let vcpu = facts
        .get("ansible_processor_nproc")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or_else(|| number("ansible_processor_vcpus"));
    let ipv6 = !facts["ansible_all_ipv6_addresses"]
        .as_array()
        .unwrap()
        .is_empty();
    (
        vcpu,
        number("ansible_memtotal_mb"),
        ipv6,
        inventory[host]["nginx_gen_inputs"].clone(),
    )
}

/// The scenario's directory, removed when it ends (also by a panic).
struct WorkDir(PathBuf);

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
