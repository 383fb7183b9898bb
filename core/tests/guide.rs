//! The guide's own machine (4 vCPU, 8 GB, static files): every value it recommends either
//! comes out the same, or nginx-gen's output explains why it differs (the setting's reason,
//! or an entry in the list of what is left at the defaults on purpose).

use nginx_gen_core::{Inputs, Plan, render};

/// The guide's values (shared/reference/tuning.md §1), as name → value.
const GUIDE: &[(&str, &str)] = &[
    ("worker_processes", "auto"),
    ("worker_cpu_affinity", "auto"),
    ("worker_connections", "4096"),
    ("worker_rlimit_nofile", "8192"),
    ("use", "epoll"),
    ("multi_accept", "on"),
    ("sendfile", "on"),
    ("tcp_nopush", "on"),
    ("tcp_nodelay", "on"),
    ("keepalive_timeout", "65"),
    ("keepalive_requests", "1000"),
    ("client_body_buffer_size", "16k"),
    ("client_header_buffer_size", "1k"),
    ("large_client_header_buffers", "4 8k"),
    ("open_file_cache", "max=10000 inactive=30s"),
    ("open_file_cache_valid", "60s"),
    ("open_file_cache_min_uses", "2"),
    ("open_file_cache_errors", "on"),
    ("gzip_comp_level", "5"),
    ("gzip_min_length", "256"),
    ("server_tokens", "off"),
    (
        "access_log",
        "/var/log/nginx/access.log combined buffer=64k flush=5s",
    ),
    ("net.core.somaxconn", "65535"),
    ("fs.file-max", "500000"),
    ("net.ipv4.tcp_tw_reuse", "1"),
    ("net.ipv4.tcp_fastopen", "3"),
    ("net.ipv4.ip_local_port_range", "1024 65535"),
    ("net.core.netdev_max_backlog", "16384"),
    ("LimitNOFILE", "65535"),
];

/// TLS values of the guide, checked with TLS on.
const GUIDE_TLS: &[(&str, &str)] = &[
    ("http2", "on"),
    ("ssl_protocols", "TLSv1.2 TLSv1.3"),
    ("ssl_session_cache", "shared:SSL:10m"),
    ("ssl_session_timeout", "1d"),
    ("ssl_session_tickets", "off"),
    ("ssl_stapling", "on"),
];

fn check(plan: &Plan, guide: &[(&str, &str)]) -> (usize, usize) {
    let (mut same, mut explained) = (0, 0);
    let all = render::render(plan, nginx_gen_core::Format::All);
    for (name, value) in guide {
        if let Some(setting) = plan.get(name) {
            if setting.value() == *value {
                same += 1;
                continue;
            }
            // Differs: the reason must say why, and the output must carry that reason.
            assert!(
                !setting.reason.why.is_empty(),
                "{name}: {} vs guide {value}, no reason",
                setting.value()
            );
            assert!(
                setting.reason.formula.is_some()
                    || setting.reason.default.is_some()
                    || setting.reason.why.len() > 40,
                "{name}: thin reason"
            );
            assert!(
                all.contains(setting.reason.why.split(' ').next().unwrap()),
                "{name}: reason not in the output"
            );
        } else {
            let omitted = plan
                .omitted
                .iter()
                .find(|o| o.name == *name)
                .unwrap_or_else(|| {
                    panic!("{name} (guide: {value}) is neither written nor explained as omitted")
                });
            assert!(
                all.contains(&format!(
                    "- {name}: {}",
                    omitted.reason.why.split(' ').next().unwrap()
                )),
                "{name}: omission not in the output"
            );
        }
        explained += 1;
    }
    (same, explained)
}

#[test]
fn the_guides_values_are_reproduced_or_explained() {
    let plan =
        Plan::new(&Inputs::from_json(r#"{"vcpu": 4, "ram": "8G", "workload": "static"}"#).unwrap());
    let (same, explained) = check(&plan, GUIDE);
    assert_eq!(same + explained, GUIDE.len());
    // The values the guide gets right must come out the same.
    for name in [
        "worker_connections",
        "sendfile",
        "tcp_nopush",
        "tcp_nodelay",
        "keepalive_requests",
        "gzip_min_length",
        "server_tokens",
        "open_file_cache_min_uses",
        "net.ipv4.tcp_fastopen",
    ] {
        let value = GUIDE.iter().find(|(n, _)| *n == name).unwrap().1;
        assert_eq!(
            plan.get(name)
                .map(nginx_gen_core::plan::Setting::value)
                .as_deref(),
            Some(value),
            "{name}"
        );
    }
    eprintln!("guide values: {same} equal, {explained} differ with a reason");
}

#[test]
fn the_guides_tls_values_are_reproduced_or_explained() {
    // The guide writes `http2 on`, the syntax of nginx 1.25.1 and later.
    let plan = Plan::new(
        &Inputs::from_json(r#"{"vcpu": 4, "ram": "8G", "tls": true, "nginx_version": "1.30"}"#)
            .unwrap(),
    );
    let (same, explained) = check(&plan, GUIDE_TLS);
    assert_eq!(same + explained, GUIDE_TLS.len());
    // The guide's 10m with a one-day timeout turns over in minutes at 10,000 clients;
    // nginx-gen's cache and timeout agree (docs/formulas.md, "TLS session cache").
    assert_eq!(
        plan.get("ssl_session_cache").unwrap().value(),
        "shared:SSL:56m"
    );
    assert_eq!(plan.get("ssl_session_timeout").unwrap().value(), "6720s");
}
