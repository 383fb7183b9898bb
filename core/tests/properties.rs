//! Invariants that must hold for every valid input (proptest). In CI the shrinker is off,
//! so a failure is reported fast; locally it shrinks to a minimal case.
#![allow(
    clippy::disallowed_methods,
    reason = "tests may use the host; the library may not"
)]

use nginx_gen_core::inputs::RawInputs;
use nginx_gen_core::tuning::{NR_OPEN, ProxyBuffers};
use nginx_gen_core::{ByteSize, Inputs, Plan, render};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let ci = std::env::var_os("CI").is_some();
    ProptestConfig {
        cases: 256,
        max_shrink_iters: if ci { 0 } else { 4096 },
        ..ProptestConfig::default()
    }
}

prop_compose! {
    fn raw_inputs()(
        vcpu in 1u32..=1024,
        ram_mib in 256u64..=(16 * 1024 * 1024),
        workload in prop::sample::select(vec!["static", "proxy", "api", "mixed"]),
        nginx in prop::sample::select(vec!["1.18.0", "1.22.1", "1.24.0", "1.26.3", "1.28.0", "1.30.0", "1.31.4"]),
        openssl in prop::sample::select(vec!["1.1.1", "3.0.2", "3.5.1"]),
        tls in any::<bool>(),
        modern in any::<bool>(),
        http3 in any::<bool>(),
        ocsp in any::<bool>(),
        clients in prop::option::of(1u32..=10_000_000),
        static_files in 0u32..=100_000_000,
        response_kib in 1u64..=(1024 * 1024),
        behind_lb in any::<bool>(),
        brotli in any::<bool>(),
        layout in prop::sample::select(vec!["debian", "rhel", "nginx-org", "docker"]),
        upstream_remote in any::<bool>(),
        file_max in prop::option::of(prop_oneof![1024u32..=1_000_000, Just(u32::MAX)]),
    ) -> RawInputs {
        let modern_enough = nginx >= "1.25.0" && !nginx.starts_with("1.18");
        RawInputs {
            vcpu: Some(vcpu.into()),
            ram: Some(format!("{ram_mib}M")),
            workload: Some(workload.into()),
            nginx_version: Some(nginx.into()),
            openssl_version: Some(openssl.into()),
            tls: Some(tls),
            tls_profile: Some(if modern { "modern" } else { "intermediate" }.into()),
            http3: Some(tls && http3 && modern_enough),
            ocsp_stapling: Some(tls && ocsp),
            clients: clients.map(Into::into),
            static_files: Some(static_files.into()),
            response_size: Some(format!("{response_kib}K")),
            behind_lb: Some(behind_lb),
            brotli: Some(brotli),
            layout: Some(layout.into()),
            upstreams: Some(vec![if upstream_remote { "10.0.0.9:8080" } else { "127.0.0.1:8080" }.into()]),
            file_max: file_max.map(Into::into),
            ..RawInputs::default()
        }
    }
}

fn plan_of(raw: &RawInputs) -> Plan {
    Plan::new(&Inputs::from_raw(raw).expect("generated inputs are valid"))
}

fn number(plan: &Plan, name: &str) -> u64 {
    plan.get(name)
        .unwrap_or_else(|| panic!("{name} missing"))
        .args[0]
        .parse()
        .expect("a number")
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn more_ram_or_vcpu_never_lowers_capacity(raw in raw_inputs(), extra_vcpu in 0u32..64, extra_ram in 0u64..(64 * 1024)) {
        let base = plan_of(&raw);
        let vcpu = raw.vcpu.clone().map(|v| match v { nginx_gen_core::inputs::Scalar::Int(n) => n as u32, nginx_gen_core::inputs::Scalar::Text(_) => unreachable!() }).unwrap();
        let ram_mib: u64 = raw.ram.as_deref().unwrap().trim_end_matches('M').parse().unwrap();
        let bigger = RawInputs {
            vcpu: Some((vcpu + extra_vcpu).min(1024).into()),
            ram: Some(format!("{}M", (ram_mib + extra_ram).min(16 * 1024 * 1024))),
            ..raw.clone()
        };
        let grown = plan_of(&bigger);
        prop_assert!(grown.capacity.clients >= base.capacity.clients,
            "{} → {} clients with more resources", base.capacity.clients, grown.capacity.clients);
    }

    #[test]
    fn the_file_descriptor_chain_holds(raw in raw_inputs()) {
        let plan = plan_of(&raw);
        let wc = number(&plan, "worker_connections");
        let rlimit = number(&plan, "worker_rlimit_nofile");
        let limit = number(&plan, "LimitNOFILE");
        let workers = number(&plan, "worker_processes");
        prop_assert!(rlimit >= 2 * wc, "rlimit {rlimit} < 2 × {wc}");
        prop_assert!(limit >= rlimit, "LimitNOFILE {limit} < {rlimit}");
        prop_assert!(rlimit <= u64::from(NR_OPEN));
        let ofc = plan.tuning.open_file_cache.map_or(0, |c| u64::from(c.max));
        prop_assert!(rlimit >= wc + ofc, "open_file_cache not counted");
        // fs.file-max: the detected value, or the one written; unknown, systemd's maximum.
        if let Some(detected) = plan.inputs.file_max {
            let file_max = plan.get("fs.file-max").map_or(u64::from(detected), |s| s.args[0].parse().unwrap());
            prop_assert!(file_max >= workers * rlimit, "fs.file-max {file_max} < {workers} × {rlimit}");
            // Never lowers the detected value.
            prop_assert!(file_max >= u64::from(detected));
        } else {
            prop_assert!(plan.get("fs.file-max").is_none());
        }
        prop_assert!(number(&plan, "net.core.somaxconn") >= 4096);
    }

    #[test]
    fn listen_backlog_and_fastopen_are_paired_with_their_sysctls(raw in raw_inputs()) {
        let plan = plan_of(&raw);
        let listens: Vec<_> = plan.settings.iter().filter(|s| s.name == "listen").collect();
        let somaxconn = number(&plan, "net.core.somaxconn");
        for l in &listens {
            for arg in &l.args {
                if let Some(b) = arg.strip_prefix("backlog=") {
                    prop_assert!(somaxconn >= b.parse::<u64>().unwrap());
                }
            }
        }
        let fastopen_listen = listens.iter().any(|l| l.args.iter().any(|a| a.starts_with("fastopen=")));
        let fastopen_sysctl = plan.get("net.ipv4.tcp_fastopen").is_some();
        prop_assert_eq!(fastopen_listen, fastopen_sysctl);
        // Port-range tuning only where nginx opens connections itself.
        let proxies = plan.get("proxy_pass").is_some();
        prop_assert_eq!(plan.get("net.ipv4.ip_local_port_range").is_some(), proxies);
        if plan.get("net.ipv4.tcp_tw_reuse").is_some() {
            prop_assert!(proxies);
        }
    }

    #[test]
    fn proxy_buffers_satisfy_nginx(
        least_kib in 1u64..=64,
        more in 0u32..=2,
        response_kib in 1u64..=(1024 * 1024),
    ) {
        let least = least_kib.next_power_of_two();
        let header = (ByteSize::kib(least), ByteSize::kib(least << more));
        let b = ProxyBuffers::for_response(header, ByteSize::kib(response_kib));
        prop_assert!(b.nginx_accepts(), "{b:?}");
    }

    #[test]
    fn planned_proxy_buffers_satisfy_nginx(raw in raw_inputs()) {
        let plan = plan_of(&raw);
        if let Some(b) = plan.tuning.proxy {
            prop_assert!(b.nginx_accepts(), "{b:?}");
            let size = |s: &str| -> u64 { s.trim_end_matches('k').parse::<u64>().unwrap() * 1024 };
            let buffers = &plan.get("proxy_buffers").unwrap().args;
            prop_assert_eq!(size(&buffers[1]), b.size.as_u64());
            prop_assert_eq!(size(&plan.get("proxy_busy_buffers_size").unwrap().args[0]), b.busy.as_u64());
        }
    }

    #[test]
    fn json_round_trips(raw in raw_inputs()) {
        let inputs = Inputs::from_raw(&raw).unwrap();
        let json = serde_json::to_string(&inputs.to_raw()).unwrap();
        prop_assert_eq!(&Inputs::from_json(&json).unwrap(), &inputs);
        let minimal = serde_json::to_string(&inputs.to_raw_minimal()).unwrap();
        prop_assert_eq!(&Inputs::from_json(&minimal).unwrap(), &inputs);
        // The plan's JSON carries inputs that reproduce the same plan, byte for byte.
        let plan = Plan::new(&inputs);
        let doc: serde_json::Value = serde_json::from_str(&render::json(&plan)).unwrap();
        let again = Plan::new(&Inputs::from_json(&doc["inputs"].to_string()).unwrap());
        prop_assert_eq!(render::json(&again), render::json(&plan));
    }

    #[test]
    fn the_json_document_is_what_serde_json_writes(raw in raw_inputs(), lang in 0usize..5) {
        // core writes the document by hand (json/write.rs); its serde derives are the oracle.
        let plan = Plan::new(&Inputs::from_raw(&raw).unwrap());
        let cat = match lang {
            0 => nginx_gen_core::i18n::Catalogue::english().clone(),
            n => nginx_gen_core::i18n::built_in(nginx_gen_core::i18n::FILES[n - 1].0),
        };
        let doc = render::JsonPlan::new_in(&plan, &cat);
        let mut theirs = serde_json::to_string_pretty(&doc).unwrap();
        theirs.push('\n');
        prop_assert_eq!(render::json_in(&plan, &cat), theirs);
    }

    #[test]
    fn rendering_is_deterministic_and_self_consistent(raw in raw_inputs()) {
        let inputs = Inputs::from_raw(&raw).unwrap();
        let (a, b) = (Plan::new(&inputs), Plan::new(&inputs));
        prop_assert_eq!(render::files(&a), render::files(&b));
        for file in render::files(&a) {
            prop_assert!(file.contents.starts_with('#'), "{} has no header", file.path);
            prop_assert!(file.contents.contains(&a.command));
        }
    }

    #[test]
    fn sizes_display_and_parse_back(bytes in 0u64..(1 << 50)) {
        let size = ByteSize::bytes(bytes);
        prop_assert_eq!(size.to_string().parse::<ByteSize>().unwrap(), size);
    }

    #[test]
    fn the_size_parser_never_panics(s in "\\PC{0,24}") {
        let _ = s.parse::<ByteSize>();
    }

    /// The explanation cannot disagree with the value: every formula parses back and
    /// recomputes to what it states, and what it states is in the setting's value.
    #[test]
    fn formulas_recompute_to_their_values(raw in raw_inputs()) {
        let plan = plan_of(&raw);
        for s in &plan.settings {
            let Some(f) = &s.reason.formula else { continue };
            let results = nginx_gen_core::rules::formula::eval::check(f)
                .map_err(|e| TestCaseError::fail(format!("{}: «{f}»: {e}", s.name)))?;
            for r in results {
                prop_assert!(s.value().contains(&r), "{}: «{}» ends in {}", s.name, f, r);
            }
        }
    }
}
