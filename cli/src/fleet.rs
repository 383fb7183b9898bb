//! `nginx-gen fleet`: plans for many hosts, offline, from Ansible's fact cache (the
//! `jsonfile` cache plugin's directory). Each host's facts become a [`Host`], which gives
//! the inputs by the same mapping the CLI's own detection uses ([`Host::raw`],
//! [`host::listen_without_ipv6`]); the host's workload inputs (the role's cached
//! `nginx_gen_host_inputs` fact, an `--input` document) are laid over them.
//!
//! Which fact gives which input is the table [`FACTS`]; docs/fleet.md shows it.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use nginx_gen_core::{ByteSize, RawInputs};
use serde_json::{Map, Value};

use crate::host::{self, Host, LayoutFacts, OsRelease};

/// One fact the plan reads: its name in the cache, the input it feeds, what it must be.
#[derive(Debug)]
pub struct Fact {
    /// The key in the cache (`ansible_` and the fact's name; a cached `set_fact` keeps its
    /// own name).
    pub key: &'static str,
    /// What it gives.
    pub gives: &'static str,
}

/// The facts read, in order of use. The first of the vCPU facts present wins.
pub const FACTS: &[Fact] = &[
    Fact {
        key: "ansible_processor_nproc",
        gives: "vcpu (the CPUs the scheduler lets a process use, as nproc)",
    },
    Fact {
        key: "ansible_processor_vcpus",
        gives: "vcpu, when ansible_processor_nproc is missing",
    },
    Fact {
        key: "ansible_memtotal_mb",
        gives: "ram (in MiB)",
    },
    Fact {
        key: "ansible_distribution",
        gives: "layout, with ansible_os_family (Debian, Ubuntu: debian; RedHat family: rhel)",
    },
    Fact {
        key: "ansible_os_family",
        gives: "layout, with ansible_distribution",
    },
    Fact {
        key: "ansible_virtualization_role",
        gives: "container or not, with ansible_virtualization_type (guest of a container type)",
    },
    Fact {
        key: "ansible_virtualization_type",
        gives: "container or not (docker, podman, lxc, container, systemd-nspawn, containerd, openvz)",
    },
    Fact {
        key: "ansible_all_ipv6_addresses",
        gives: "listen: IPv4 only when the list is empty (as the CLI reads /proc/net/if_inet6)",
    },
    Fact {
        key: "ansible_dns",
        gives: "resolver, with OCSP stapling or upstream_resolve outside a container: the first of its nameservers (as the CLI reads /etc/resolv.conf)",
    },
    Fact {
        key: "nginx_gen_host",
        gives: "nginx_version, openssl_version (its nginx_v: the text of nginx -V), layout (sites_enabled, nginx_org_default): the role's cached fact",
    },
    Fact {
        key: "nginx_gen_host_inputs",
        gives: "every workload input (the --input document): the role caches its nginx_gen_inputs variable (host and group variables) under this name",
    },
];

/// `ansible_virtualization_type` values that are containers (not virtual machines).
const CONTAINER_TYPES: &[&str] = &[
    "docker",
    "podman",
    "lxc",
    "container",
    "systemd-nspawn",
    "containerd",
    "openvz",
];

/// `ansible_os_family` → the `/etc/os-release` ID [`host::choose_layout`] knows.
const FAMILIES: &[(&str, &str)] = &[("Debian", "debian"), ("RedHat", "rhel")];

/// One host of the cache.
#[derive(Debug)]
pub struct Entry {
    /// The inventory name (the cache file's name without the cache's schema prefix).
    pub name: String,
    /// Its facts.
    pub facts: Map<String, Value>,
}

/// Reads every host of `path`: a `jsonfile` fact cache directory ([`read_cache`]) or a file
/// of `ansible-inventory --list` ([`parse_inventory`]).
pub fn read_source(path: &Path) -> Result<Vec<Entry>, String> {
    if path.is_file() {
        let text = fs::read_to_string(path)
            .map_err(|e| format!("cannot read the inventory {}: {e}", path.display()))?;
        parse_inventory(&text).map_err(|e| format!("{}: {e}", path.display()))
    } else {
        read_cache(path)
    }
}

/// The hosts of an `ansible-inventory --list` export: `_meta.hostvars`, each host's
/// variables read as its facts (set `ansible_processor_nproc`, `ansible_memtotal_mb`, … and
/// `nginx_gen_inputs` there), sorted by name.
pub fn parse_inventory(text: &str) -> Result<Vec<Entry>, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("not an inventory export (JSON): {e}"))?;
    let Some(Value::Object(hostvars)) = value.pointer("/_meta/hostvars").cloned() else {
        return Err("not an inventory export: no _meta.hostvars (ansible-inventory --list)".into());
    };
    let mut entries: Vec<Entry> = hostvars
        .into_iter()
        .map(|(name, vars)| match untag(vars) {
            Value::Object(facts) => Ok(Entry { name, facts }),
            _ => Err(format!("_meta.hostvars.{name} is not a mapping")),
        })
        .collect::<Result<_, _>>()?;
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// Reads every host of a `jsonfile` fact cache directory, sorted by name. ansible-core
/// 2.19 and later write `s<schema>_HOST` holding `{"__payload__": "<the facts as JSON>"}`;
/// earlier versions `HOST` holding the facts. Dot files are skipped (as Ansible does).
pub fn read_cache(dir: &Path) -> Result<Vec<Entry>, String> {
    let listing = fs::read_dir(dir)
        .map_err(|e| format!("cannot read the fact cache {}: {e}", dir.display()))?;
    let mut entries: Vec<Entry> = Vec::new();
    for item in listing {
        let item =
            item.map_err(|e| format!("cannot read the fact cache {}: {e}", dir.display()))?;
        let file_name = item.file_name().to_string_lossy().into_owned();
        if file_name.starts_with('.') || !item.path().is_file() {
            continue;
        }
        let path = item.path();
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let (name, facts) =
            parse_entry(&file_name, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        // A host cached by both formats: the schema-prefixed (newer) file wins.
        if let Some(seen) = entries.iter_mut().find(|e| e.name == name) {
            if file_name != name {
                seen.facts = facts;
            }
            continue;
        }
        entries.push(Entry { name, facts });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// One cache file: its host name and facts.
pub fn parse_entry(file_name: &str, text: &str) -> Result<(String, Map<String, Value>), String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("not a fact cache file (JSON): {e}"))?;
    let Value::Object(mut object) = value else {
        return Err("not a fact cache file: not a JSON object".into());
    };
    match object.remove("__payload__") {
        Some(Value::String(payload)) => {
            let facts: Value = serde_json::from_str(&payload)
                .map_err(|e| format!("__payload__ is not JSON: {e}"))?;
            let Value::Object(facts) = untag(facts) else {
                return Err("__payload__ is not a JSON object".into());
            };
            Ok((strip_schema(file_name).to_owned(), facts))
        }
        Some(_) => Err("__payload__ is not a string".into()),
        None => Ok((file_name.to_owned(), object)),
    }
}

/// ansible-core 2.19's cache keeps where each value came from: a value set by a task or an
/// inventory (a `set_fact`) is `{"value": V, "tags": […], "__ansible_type":
/// "_AnsibleTagged…"}`. The facts are the values.
fn untag(value: Value) -> Value {
    match value {
        Value::Object(mut m)
            if m.get("__ansible_type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.starts_with("_AnsibleTagged"))
                && m.contains_key("value") =>
        {
            untag(m.remove("value").unwrap_or_default())
        }
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, untag(v))).collect()),
        Value::Array(a) => Value::Array(a.into_iter().map(untag).collect()),
        other => other,
    }
}

/// `s1_web-1` → `web-1`.
fn strip_schema(file_name: &str) -> &str {
    file_name
        .strip_prefix('s')
        .and_then(|rest| rest.split_once('_'))
        .filter(|(digits, _)| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .map_or(file_name, |(_, name)| name)
}

/// The inputs of one host: its workload inputs (`nginx_gen_host_inputs`) over `base` (the
/// command's `--input`) over what its facts give. An error names the host's fact.
pub fn inputs_of(facts: &Map<String, Value>, base: &RawInputs) -> Result<RawInputs, String> {
    let (host, ipv6) = host_of(facts)?;
    // The role's cached fact; in an inventory export, the role's variable itself.
    let workload = match facts
        .get("nginx_gen_host_inputs")
        .or_else(|| facts.get("nginx_gen_inputs"))
    {
        None | Some(Value::Null) => RawInputs::default(),
        Some(v @ Value::Object(_)) => RawInputs::from_json(&v.to_string()).map_err(|errors| {
            let fields: Vec<String> = errors
                .0
                .iter()
                .map(|e| format!("{}: {}", e.field, e.message))
                .collect();
            format!("invalid nginx_gen_host_inputs: {}", fields.join("; "))
        })?,
        Some(_) => return Err("invalid nginx_gen_host_inputs: not a mapping".into()),
    };
    let given = workload.over(base.clone());
    // Ansible's facts name no modules (`host.brotli` is none); PHP-FPM's version is the
    // distribution's.
    let detected = host.raw(host.used(&given));
    let raw = given.over(detected);
    // A plan for the built-in size would look like a plan for this host.
    if raw.vcpu.is_none() {
        return Err("no vCPU count: no ansible_processor_nproc or ansible_processor_vcpus fact, and no vcpu in nginx_gen_inputs".into());
    }
    if raw.ram.is_none() {
        return Err(
            "no memory size: no ansible_memtotal_mb fact, and no ram in nginx_gen_inputs".into(),
        );
    }
    let listen = host::listen_without_ipv6(&raw, ipv6);
    // As the CLI reads /etc/resolv.conf: the first name server.
    let resolver = host::needs_host_resolver(&raw, host.container)
        .then(|| {
            facts
                .get("ansible_dns")
                .and_then(|d| d.get("nameservers"))
                .and_then(Value::as_array)
                .and_then(|list| list.first())
                .and_then(Value::as_str)
                .filter(|r| r.parse::<nginx_gen_core::inputs::Resolver>().is_ok())
                .map(str::to_owned)
        })
        .flatten();
    Ok(RawInputs {
        listen: raw.listen.clone().or(listen),
        resolver: raw.resolver.clone().or(resolver),
        ..raw
    })
}

/// The [`Host`] the facts describe, and whether it has IPv6.
fn host_of(facts: &Map<String, Value>) -> Result<(Host, bool), String> {
    let number = |key: &str| -> Result<Option<u64>, String> {
        match facts.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                .map(Some)
                .ok_or_else(|| format!("invalid fact {key}: {v} is not a whole number")),
        }
    };
    let text = |key: &str| facts.get(key).and_then(Value::as_str).unwrap_or_default();
    let vcpu = match number("ansible_processor_nproc")? {
        Some(n) => Some((n, "ansible_processor_nproc")),
        None => number("ansible_processor_vcpus")?.map(|n| (n, "ansible_processor_vcpus")),
    };
    let vcpu = vcpu
        .map(|(n, source)| {
            u32::try_from(n)
                .map(|n| (n, source.to_owned()))
                .map_err(|_| format!("invalid fact {source}: {n} is out of range"))
        })
        .transpose()?;
    let ram = number("ansible_memtotal_mb")?
        .map(|mb| (ByteSize::mib(mb), "ansible_memtotal_mb".to_owned()));
    let software = match facts.get("nginx_gen_host") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return Err("invalid fact nginx_gen_host: not a mapping".into()),
    };
    let nginx_v = software
        .get("nginx_v")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let (nginx, openssl) = host::parse_nginx_v(nginx_v);
    let flag = |key: &str| software.get(key).and_then(Value::as_bool).unwrap_or(false);
    let distribution = text("ansible_distribution").to_ascii_lowercase();
    let family = text("ansible_os_family");
    let os = (!distribution.is_empty() || !family.is_empty()).then(|| OsRelease {
        id: distribution,
        id_like: FAMILIES
            .iter()
            .filter(|(f, _)| *f == family)
            .map(|(_, id)| (*id).to_owned())
            .collect(),
        version_id: text("ansible_distribution_version").to_owned(),
    });
    let container = text("ansible_virtualization_role") == "guest"
        && CONTAINER_TYPES.contains(&text("ansible_virtualization_type"));
    let layout_facts = LayoutFacts {
        container,
        sites_enabled: flag("sites_enabled"),
        nginx_org_default: flag("nginx_org_default"),
        nginx_org_build: nginx_v.contains("--user=nginx")
            && nginx_v.contains("--modules-path=/usr/lib/nginx/modules"),
    };
    let ipv6 = match facts.get("ansible_all_ipv6_addresses") {
        None | Some(Value::Null) => true,
        Some(Value::Array(list)) => !list.is_empty(),
        Some(v) => {
            return Err(format!(
                "invalid fact ansible_all_ipv6_addresses: {v} is not a list"
            ));
        }
    };
    let host = Host {
        vcpu,
        ram,
        nginx,
        openssl,
        layout: host::choose_layout(os.as_ref(), &layout_facts),
        brotli: None,
        php: os.as_ref().and_then(host::release_php),
        php_guessed: true,
        container,
    };
    Ok((host, ipv6))
}

/// One line of the table.
#[derive(Debug, Clone)]
pub struct Row {
    pub host: String,
    /// What the host's plan says, or why there is none.
    pub plan: Result<Planned, String>,
}

/// The numbers of one host's plan.
#[derive(Debug, Clone)]
pub struct Planned {
    pub vcpu: u32,
    /// RAM, as the inputs say it (`4096M`).
    pub ram: String,
    pub workers: u32,
    pub worker_connections: u32,
    /// The clients the plan holds at once.
    pub capacity: u32,
    /// What limits them: cpu, memory, slots, given.
    pub limited_by: String,
    /// `(id, message)` of each warning.
    pub warnings: Vec<(String, String)>,
    /// The command that reproduces the host's files.
    pub command: String,
    /// Where its tree was written (`--out`).
    pub tree: Option<String>,
}

const HEADER: [&str; 7] = [
    "host",
    "vCPU",
    "RAM",
    "workers",
    "connections",
    "capacity",
    "warnings",
];

/// The table, columns aligned, then each host's warnings and errors in full.
pub fn text(rows: &[Row]) -> String {
    let cells: Vec<[String; 7]> = rows
        .iter()
        .map(|r| match &r.plan {
            Ok(p) => [
                r.host.clone(),
                p.vcpu.to_string(),
                p.ram.clone(),
                p.workers.to_string(),
                p.worker_connections.to_string(),
                format!("{} ({})", p.capacity, p.limited_by),
                if p.warnings.is_empty() {
                    "-".into()
                } else {
                    p.warnings
                        .iter()
                        .map(|(id, _)| id.as_str())
                        .collect::<Vec<_>>()
                        .join(",")
                },
            ],
            Err(_) => [
                r.host.clone(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                "ERROR".into(),
            ],
        })
        .collect();
    let mut widths = HEADER.map(str::len);
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |row: &[String]| {
        let mut l = String::new();
        for (i, (c, w)) in row.iter().zip(widths).enumerate() {
            // Numbers right-aligned, names and lists left-aligned.
            if (1..=5).contains(&i) {
                let _ = write!(l, "{c:>w$}  ");
            } else {
                let _ = write!(l, "{c:<w$}  ");
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&HEADER.map(str::to_owned));
    for row in &cells {
        line(row);
    }
    let planned = rows.iter().filter(|r| r.plan.is_ok()).count();
    let _ = writeln!(
        out,
        "\n{planned} of {} hosts planned (capacity: the clients held at once, and what limits them)",
        rows.len()
    );
    for r in rows {
        match &r.plan {
            Ok(p) => {
                for (id, message) in &p.warnings {
                    let _ = writeln!(out, "{}: warning {id}: {message}", r.host);
                }
            }
            Err(e) => {
                let _ = writeln!(out, "{}: error: {e}", r.host);
            }
        }
    }
    out
}

/// The table as JSON: `{"hosts": [...]}`, one object per host.
pub fn json(rows: &[Row]) -> String {
    let hosts: Vec<Value> = rows
        .iter()
        .map(|r| match &r.plan {
            Ok(p) => serde_json::json!({
                "host": r.host,
                "vcpu": p.vcpu,
                "ram": p.ram,
                "workers": p.workers,
                "worker_connections": p.worker_connections,
                "capacity": p.capacity,
                "limited_by": p.limited_by,
                "warnings": p.warnings.iter().map(|(id, message)| serde_json::json!({"id": id, "message": message})).collect::<Vec<_>>(),
                "command": p.command,
                "tree": p.tree,
            }),
            Err(e) => serde_json::json!({ "host": r.host, "error": e }),
        })
        .collect();
    let mut text =
        serde_json::to_string_pretty(&serde_json::json!({ "hosts": hosts })).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(json: &str) -> Map<String, Value> {
        match serde_json::from_str(json).unwrap() {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn both_cache_formats_are_read() {
        let (name, f) = parse_entry(
            "s1_web-1",
            r#"{"__payload__": "{\"ansible_processor_vcpus\": 4}"}"#,
        )
        .unwrap();
        assert_eq!(name, "web-1");
        assert_eq!(f["ansible_processor_vcpus"], 4);
        let (name, f) = parse_entry("s1_web-1", r#"{"ansible_processor_vcpus": 4}"#).unwrap();
        assert_eq!(name, "s1_web-1", "no payload: the file name is the host");
        assert_eq!(f["ansible_processor_vcpus"], 4);
        assert!(parse_entry("x", "[1]").is_err());
        assert!(parse_entry("x", r#"{"__payload__": 1}"#).is_err());
        assert_eq!(strip_schema("s12_db"), "s12_db".split_once('_').unwrap().1);
        assert_eq!(strip_schema("sx_db"), "sx_db");
        assert_eq!(strip_schema("s_db"), "s_db");
    }

    #[test]
    fn an_inventory_export_is_read_from_its_hostvars() {
        let export = r#"{"_meta": {"hostvars": {
            "b": {"ansible_processor_vcpus": 2, "nginx_gen_inputs": {"server_names": ["b.example"], "ram": "1G"}},
            "a": {"ansible_memtotal_mb": 2048, "ansible_processor_vcpus": 1}}},
            "all": {"children": ["ungrouped"]}}"#;
        let entries = parse_inventory(export).unwrap();
        assert_eq!(
            entries.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        let raw = inputs_of(&entries[1].facts, &RawInputs::default()).unwrap();
        assert_eq!(raw.server_names, Some(vec!["b.example".to_owned()]));
        assert_eq!(raw.vcpu, Some(2.into()));
        assert!(
            parse_inventory(r#"{"all": {}}"#)
                .unwrap_err()
                .contains("_meta.hostvars")
        );
    }

    #[test]
    fn tagged_values_of_ansible_core_2_19_are_their_values() {
        // As ansible-core 2.19.14 cached the role's set_fact (tests/host/tests/fleet.rs).
        let payload = r#"{"nginx_gen_host_inputs": {"value": {"server_names": {"value": [{"value": "small.example", "tags": [{"__ansible_type": "TrustedAsTemplate"}, {"path": "/x/inventory.json", "__ansible_type": "Origin"}], "__ansible_type": "_AnsibleTaggedStr"}], "tags": [], "__ansible_type": "_AnsibleTaggedList"}}, "tags": [], "__ansible_type": "_AnsibleTaggedDict"}, "ansible_memtotal_mb": 512, "ansible_processor_vcpus": 1}"#;
        let text = serde_json::json!({ "__payload__": payload }).to_string();
        let (_, f) = parse_entry("s1_small", &text).unwrap();
        assert_eq!(
            f["nginx_gen_host_inputs"],
            serde_json::json!({"server_names": ["small.example"]})
        );
        let raw = inputs_of(&f, &RawInputs::default()).unwrap();
        assert_eq!(raw.server_names, Some(vec!["small.example".to_owned()]));
    }

    #[test]
    fn facts_become_the_inputs_detection_gives() {
        let f = facts(
            r#"{"ansible_processor_nproc": 3, "ansible_processor_vcpus": 8,
                "ansible_memtotal_mb": 3900, "ansible_distribution": "Debian",
                "ansible_os_family": "Debian", "ansible_all_ipv6_addresses": [],
                "nginx_gen_host": {"nginx_v": "nginx version: nginx/1.22.1\nbuilt with OpenSSL 3.0.11 19 Sep 2023 (running with OpenSSL 3.0.15 3 Sep 2024)\n", "sites_enabled": true},
                "nginx_gen_host_inputs": {"server_names": ["a.example"], "vcpu": 2}}"#,
        );
        let raw = inputs_of(&f, &RawInputs::default()).unwrap();
        assert_eq!(raw.vcpu, Some(2.into()), "the host's inputs win over facts");
        assert_eq!(raw.ram.as_deref(), Some("3900M"));
        assert_eq!(raw.nginx_version.as_deref(), Some("1.22.1"));
        assert_eq!(raw.openssl_version.as_deref(), Some("3.0.15"));
        assert_eq!(raw.layout.as_deref(), Some("debian"));
        assert_eq!(raw.listen, Some(vec!["80".to_owned()]), "no IPv6");
        let mut f2 = f.clone();
        f2.remove("nginx_gen_host_inputs");
        let raw = inputs_of(&f2, &RawInputs::default()).unwrap();
        assert_eq!(raw.vcpu, Some(3.into()), "nproc before vcpus");
    }

    #[test]
    fn the_family_and_container_choose_the_layout() {
        let layout = |json: &str| {
            let mut f = facts(json);
            f.insert("ansible_processor_vcpus".into(), 2.into());
            f.insert("ansible_memtotal_mb".into(), 2048.into());
            inputs_of(&f, &RawInputs::default()).unwrap().layout
        };
        assert_eq!(
            layout(r#"{"ansible_distribution": "Rocky", "ansible_os_family": "RedHat"}"#)
                .as_deref(),
            Some("rhel")
        );
        assert_eq!(
            layout(
                r#"{"ansible_virtualization_role": "guest", "ansible_virtualization_type": "docker",
                    "nginx_gen_host": {"nginx_org_default": true}}"#
            )
            .as_deref(),
            Some("docker")
        );
        assert_eq!(
            layout(
                r#"{"ansible_virtualization_role": "guest", "ansible_virtualization_type": "kvm",
                    "nginx_gen_host": {"nginx_org_default": true}}"#
            )
            .as_deref(),
            Some("nginx-org")
        );
        assert_eq!(
            layout(r#"{"ansible_distribution": "Alpine", "ansible_os_family": "Alpine"}"#),
            None
        );
    }

    #[test]
    fn a_bad_fact_is_named() {
        let err = |json: &str| inputs_of(&facts(json), &RawInputs::default()).unwrap_err();
        assert!(err(r#"{"ansible_memtotal_mb": "lots"}"#).contains("ansible_memtotal_mb"));
        assert!(err(r#"{"ansible_processor_vcpus": -1}"#).contains("ansible_processor_vcpus"));
        assert!(
            err(r#"{"nginx_gen_host_inputs": {"ram": 5, "nope": 1}}"#)
                .contains("nginx_gen_host_inputs")
        );
        assert!(err(r#"{"nginx_gen_host_inputs": [1]}"#).contains("not a mapping"));
        assert!(err(r#"{"ansible_all_ipv6_addresses": "::1"}"#).contains("not a list"));
        assert!(err(r#"{"ansible_memtotal_mb": 512}"#).contains("no vCPU count"));
        assert!(err(r#"{"ansible_processor_vcpus": 1}"#).contains("no memory size"));
    }
}
