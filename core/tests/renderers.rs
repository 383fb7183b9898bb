//! Snapshots of every renderer on five fixture inputs that between them switch every
//! branch: workloads, TLS profiles, HTTP/3, brotli, load balancer, layouts, versions.
//! Review changes with `cargo insta review`.
#![allow(
    clippy::disallowed_methods,
    reason = "tests may use the host; the library may not"
)]

use nginx_gen_core::i18n::{Catalogue, built_in};
use nginx_gen_core::{Format, Inputs, Lang, Plan, render};

fn fixture(name: &str) -> Inputs {
    let json = match name {
        "guide" => r#"{"vcpu": 4, "ram": "8G"}"#,
        "debian12_proxy_tls" => {
            r#"{"vcpu": 2, "ram": "2G", "workload": "proxy", "tls": true, "nginx_version": "1.22.1",
                "server_names": ["example.org", "www.example.org"], "upstreams": ["127.0.0.1:3000"]}"#
        }
        "big_mixed_h3_lb" => {
            r#"{"vcpu": 16, "ram": "32G", "workload": "mixed", "tls": true, "http3": true, "brotli": true,
                "behind_lb": true, "trusted_proxies": ["10.20.0.0/16"], "openssl_version": "3.5.1",
                "upstreams": ["10.0.0.2:8080", "10.0.0.3:8080"], "static_files": 200000, "layout": "nginx-org"}"#
        }
        "small_api_modern_rhel" => {
            r#"{"vcpu": 1, "ram": "512M", "workload": "api", "tls": true, "tls_profile": "modern",
                "clients": 50000, "response_size": "4K", "layout": "rhel", "ocsp_stapling": true,
                "nginx_version": "1.18.0", "lang": "de"}"#
        }
        "php_tls_rhel" => {
            r#"{"vcpu": 2, "ram": "2G", "workload": "php", "tls": true, "layout": "rhel",
                "php_child_memory": "48M", "response_size": "64K", "cache": "micro", "cache_status": true}"#
        }
        _ => unreachable!(),
    };
    Inputs::from_json(json).expect("fixture is valid")
}

const FIXTURES: [&str; 5] = [
    "guide",
    "debian12_proxy_tls",
    "big_mixed_h3_lb",
    "small_api_modern_rhel",
    "php_tls_rhel",
];

/// Each fixture in its inputs' language (one is German), as the CLI writes it.
#[test]
fn every_renderer_on_every_fixture() {
    for name in FIXTURES {
        let plan = Plan::new(&fixture(name));
        let cat = built_in(plan.inputs.lang);
        // The PHP-FPM pool file exists for the php workload only.
        let php = plan.tuning.php.is_some();
        for format in Format::ALL
            .iter()
            .filter(|f| **f != Format::All && (php || **f != Format::PhpPool))
        {
            insta::assert_snapshot!(
                format!("{name}__{format}"),
                render::render_in(&plan, *format, &cat)
            );
        }
    }
}

/// The plan holds English; a catalogue translates only at render time, so one plan renders
/// in every language, and English is the plan's own text.
#[test]
fn one_plan_renders_in_every_language() {
    let plan = Plan::new(&fixture("big_mixed_h3_lb"));
    for format in Format::ALL {
        assert_eq!(
            render::render_in(&plan, *format, Catalogue::english()),
            render::render(&plan, *format)
        );
    }
    for &lang in Lang::ALL.iter().filter(|l| **l != Lang::En) {
        let cat = built_in(lang);
        let mut raw = plan.inputs.to_raw();
        raw.lang = Some(lang.to_string());
        let own = Plan::new(&Inputs::from_raw(&raw).unwrap());
        for format in [Format::Nginx, Format::Explain] {
            let text = render::render_in(&plan, format, &cat);
            assert_ne!(text, render::render(&plan, format), "{lang} {format}");
            // Only the reproducing command (which carries --lang) differs from a plan
            // computed for that language.
            assert_eq!(
                text.replace(&plan.command, "CMD"),
                render::render_in(&own, format, &cat).replace(&own.command, "CMD")
            );
        }
    }
}

#[test]
fn all_is_the_files_then_the_summary() {
    let plan = Plan::new(&fixture("guide"));
    let all = render::render(&plan, Format::All);
    for file in render::files(&plan) {
        assert!(all.contains(&format!("==> {} <==\n{}", file.path, file.contents)));
    }
    assert!(all.ends_with(&render::summary(&plan)));
}

#[test]
fn the_install_script_carries_the_files_verbatim() {
    let plan = Plan::new(&fixture("debian12_proxy_tls"));
    let script = render::install_script(&plan);
    for file in render::files(&plan) {
        let heredoc = format!(
            "new '{}' <<'NGINX_GEN_EOF'\n{}NGINX_GEN_EOF\n",
            file.path, file.contents
        );
        assert!(
            script.contains(&heredoc),
            "{} not embedded verbatim",
            file.path
        );
    }
    // apply's steps, in its order, and the plan's probes (literal names, loopback, TLS).
    assert!(script.contains("\nset -eu\n"));
    assert!(script.ends_with("NGINX_GEN_EOF\nmain\n"));
    assert!(script.contains("stage; backup; install; service; pool\n"));
    assert!(
        script.contains("addr=127.0.0.1 port=80 tls=443 names='example.org www.example.org'\n")
    );
    assert!(script.contains(&format!("cmd='{}'", plan.command)));
    let checked = std::process::Command::new("sh")
        .arg("-n")
        .arg("-c")
        .arg(&script)
        .status()
        .expect("sh runs");
    assert!(checked.success(), "the script is not valid sh");
}

/// The shell part is the same in every language: only the comments are translated.
#[test]
fn the_install_script_translates_only_its_comments() {
    let plan = Plan::new(&fixture("guide"));
    let strip = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .map(str::to_owned)
            .collect()
    };
    let english = strip(&render::install_script(&plan));
    for &lang in Lang::ALL {
        let cat = built_in(lang);
        let script = render::install_script_in(&plan, &cat);
        let shell = strip(&script);
        // The files' own comments are translated too (their lines start with `#`).
        assert_eq!(shell, english, "{lang}");
    }
}

#[test]
fn origins_point_at_their_settings() {
    for name in FIXTURES {
        let plan = Plan::new(&fixture(name));
        let mapped = render::files_with_origins(&plan);
        assert_eq!(
            mapped.iter().map(|(f, _)| f.clone()).collect::<Vec<_>>(),
            render::files(&plan),
            "the mapped files are the files"
        );
        let mut seen = vec![0; plan.settings.len()];
        for (file, origins) in &mapped {
            let lines: Vec<&str> = file.contents.lines().collect();
            for o in origins {
                seen[o.setting] += 1;
                let setting = &plan.settings[o.setting];
                let line = lines[o.line].trim_start();
                assert!(
                    line.starts_with(setting.name)
                        && line.contains(
                            // As written: quoted, with `"` escaped inside.
                            nginx_gen_core::ir::quote(setting.args.iter().last().unwrap_or(""))
                                .trim_matches('"')
                        ),
                    "{}: line {} is «{line}», not {} {}",
                    file.path,
                    o.line,
                    setting.name,
                    setting.value()
                );
                assert!(o.first <= o.line);
                for comment in &lines[o.first..o.line] {
                    // PHP's ini files comment with `;`.
                    assert!(
                        comment.trim_start().starts_with(['#', ';']),
                        "{}: «{comment}»",
                        file.path
                    );
                }
            }
        }
        assert!(
            seen.iter().all(|&n| n == 1),
            "{name}: every setting is written exactly once: {seen:?}"
        );
    }
}
