//! `nginx-gen fleet` end to end: the table of a fact cache in both of Ansible's formats
//! (snapshots, text and JSON), a host with invalid inputs named (exit 2, the others still
//! planned), and each host's tree equal, byte for byte, to the tree of a per-host run with
//! the flags its facts stand for (written out here by hand, not derived by nginx-gen).
//! The fixture cache is tests/fleet/cache/; the timing on ≥ 100 hosts is
//! scripts/fleet-bench.sh (stage 58-fleet).

use std::path::{Path, PathBuf};
use std::process::Command;

use insta_cmd::assert_cmd_snapshot;

const BIN: &str = env!("CARGO_BIN_EXE_nginx-gen");

/// Run from the repository's root, so the snapshots hold a relative path.
fn cli() -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env("NO_COLOR", "1")
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    cmd
}

fn fixture() -> PathBuf {
    PathBuf::from("tests/fleet/cache")
}

fn fixture_abs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fleet/cache")
}

/// The fixture without its broken host.
fn valid_cache() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture_abs()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != "s1_broken" {
            std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
        }
    }
    dir
}

#[test]
fn the_table_names_a_broken_host_and_plans_the_others() {
    assert_cmd_snapshot!(cli().args(["fleet", "--facts"]).arg(fixture()));
}

#[test]
fn the_table_as_json() {
    assert_cmd_snapshot!(
        cli()
            .args(["fleet", "--format", "json", "--facts"])
            .arg(fixture())
    );
}

#[test]
fn an_empty_or_missing_cache_is_refused() {
    let empty = tempfile::tempdir().unwrap();
    let out = cli()
        .args(["fleet", "--facts"])
        .arg(empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no host in"));
    let out = cli()
        .args(["fleet", "--facts"])
        .arg(empty.path().join("nope"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the fact cache"));
}

fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let name = path.strip_prefix(base).unwrap().display().to_string();
                out.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn each_tree_is_the_tree_of_a_per_host_run() {
    let cache = valid_cache();
    let out = tempfile::tempdir().unwrap();
    let run = cli()
        .args(["fleet", "--facts"])
        .arg(cache.path())
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    // What each host's facts mean as flags (docs/fleet.md's table), written by hand.
    let hosts = [
        (
            "web-small",
            "--vcpu 1 --ram 1024M --nginx-version 1.22.1 --openssl-version 3.0.15 \
             --layout debian --listen 80 --server-name small.example --tls --ocsp-stapling",
        ),
        (
            "web-large",
            "--vcpu 16 --ram 32G --nginx-version 1.22.1 --openssl-version 3.0.15 \
             --layout debian --server-name large.example --workload proxy \
             --upstream 10.0.0.5:8080 --tls --ocsp-stapling --resolver 10.0.0.53",
        ),
        (
            "app-rhel",
            "--vcpu 4 --ram 7821M --layout rhel --server-name app.example --max-body-size 64M",
        ),
    ];
    for (host, flags) in hosts {
        let single = tempfile::tempdir().unwrap();
        let one = cli()
            .arg("--no-detect")
            .args(flags.split_whitespace())
            .arg("--out")
            .arg(single.path())
            .output()
            .unwrap();
        assert!(one.status.success(), "{host}: {one:?}");
        let fleet_tree = tree(&out.path().join(host));
        assert!(!fleet_tree.is_empty(), "{host}");
        let single_tree = tree(single.path());
        assert_eq!(
            fleet_tree.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            single_tree.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            "{host}"
        );
        for ((name, a), (_, b)) in fleet_tree.iter().zip(&single_tree) {
            assert!(a == b, "{host}: {name} differs from the per-host run");
        }
    }
}

#[test]
fn an_inventory_export_is_planned_like_a_cache() {
    // The variables of `ansible-inventory --list`: the size given as facts or as inputs.
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("inventory.json");
    std::fs::write(
        &export,
        r#"{"_meta": {"hostvars": {
            "edge-1": {"ansible_processor_vcpus": 4, "ansible_memtotal_mb": 8192,
                       "nginx_gen_inputs": {"server_names": ["edge.example"]}},
            "edge-2": {"nginx_gen_inputs": {"vcpu": 2, "ram": "2G"}},
            "edge-3": {"nginx_gen_inputs": {"server_names": ["x.example"]}}}},
           "all": {"children": ["ungrouped"]}}"#,
    )
    .unwrap();
    let out = cli()
        .args(["fleet", "--format", "json", "--facts"])
        .arg(&export)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "edge-3 has no size");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hosts = doc["hosts"].as_array().unwrap();
    assert_eq!(
        (hosts[0]["workers"].as_u64(), hosts[0]["ram"].as_str()),
        (Some(4), Some("8G"))
    );
    assert_eq!(
        (hosts[1]["workers"].as_u64(), hosts[1]["ram"].as_str()),
        (Some(2), Some("2G"))
    );
    assert!(
        hosts[2]["error"]
            .as_str()
            .unwrap()
            .contains("no vCPU count"),
        "{}",
        hosts[2]
    );
}
