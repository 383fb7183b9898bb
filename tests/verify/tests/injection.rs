//! Every user-supplied string is either rejected with an error naming its field, or
//! emitted so that it cannot add, close or comment out a directive: the rendered files
//! still parse back to exactly the plan, and the value arrives as one whole argument.
#![allow(clippy::format_push_string, reason = "failure reports only")]
#![allow(clippy::disallowed_methods, reason = "test harness")]

use nginx_gen_core::{InputErrors, Inputs, Plan, RawInputs};
use nginx_gen_verify::{expect, parse};

/// Characters and strings that could change the structure of a configuration file.
fn payloads() -> Vec<String> {
    let mut p: Vec<String> = [
        ";",
        "{",
        "}",
        "\"",
        "'",
        "#",
        "$",
        "\n",
        "\r",
        "\r\n",
        "\0",
        "\\",
        " ",
        "\t",
        "`",
        "(",
        ")",
        "; autoindex on",
        "}\nserver { listen 81; }",
        "\"; return 200 \"x",
        "' ; include /etc/shadow; '",
        "# comment",
        "$host",
        "${request_uri}",
        "\nworker_processes 1;\n",
        "\\\"",
        "\\n",
        "\u{0}x",
        "ä",
        "例え",
        "\u{202e}",
        "\u{200b}",
        "\u{feff}",
        "😀",
        "é.example",
        "..",
        "../../etc/passwd",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    p.push("a".repeat(300));
    p.push("a".repeat(100_000));
    p.push(format!("{}.example", "a".repeat(64)));
    p
}

/// A valid base value for each field, and how to set it.
type Setter = fn(&mut RawInputs, String);
fn fields() -> Vec<(&'static str, &'static str, Setter)> {
    vec![
        ("server_names", "example.com", |r, v| {
            r.server_names = Some(vec![v]);
        }),
        ("root", "/var/www/html", |r, v| r.root = Some(v)),
        ("listen", "8080", |r, v| r.listen = Some(vec![v])),
        ("upstreams", "127.0.0.1:8080", |r, v| {
            r.workload = Some("proxy".into());
            r.upstreams = Some(vec![v]);
        }),
        ("upstreams", "unix:/run/app.sock", |r, v| {
            r.workload = Some("proxy".into());
            r.upstreams = Some(vec![v]);
        }),
        ("tls_cert", "/etc/ssl/cert.pem", |r, v| {
            r.tls = Some(true);
            r.tls_cert = Some(v);
            r.tls_key = Some("/etc/ssl/key.pem".into());
        }),
        ("tls_key", "/etc/ssl/key.pem", |r, v| {
            r.tls = Some(true);
            r.tls_key = Some(v);
            r.tls_cert = Some("/etc/ssl/cert.pem".into());
        }),
        ("trusted_proxies", "10.0.0.0/8", |r, v| {
            r.behind_lb = Some(true);
            r.trusted_proxies = Some(vec![v]);
        }),
        ("ram", "8G", |r, v| r.ram = Some(v)),
        ("response_size", "32K", |r, v| r.response_size = Some(v)),
        ("nginx_version", "1.26", |r, v| r.nginx_version = Some(v)),
        ("openssl_version", "3.0", |r, v| r.openssl_version = Some(v)),
        ("workload", "proxy", |r, v| r.workload = Some(v)),
        ("layout", "debian", |r, v| r.layout = Some(v)),
        ("lang", "en", |r, v| r.lang = Some(v)),
        ("tls_profile", "modern", |r, v| r.tls_profile = Some(v)),
        ("vcpu", "4", |r, v| {
            r.vcpu = Some(nginx_gen_core::inputs::Scalar::Text(v));
        }),
        ("clients", "1000", |r, v| {
            r.clients = Some(nginx_gen_core::inputs::Scalar::Text(v));
        }),
        ("tls_port", "8443", |r, v| {
            r.tls = Some(true);
            r.tls_port = Some(nginx_gen_core::inputs::Scalar::Text(v));
        }),
    ]
}

fn check_rejection(field: &str, value: &str, errors: &InputErrors) {
    let e = errors
        .for_field(field)
        .unwrap_or_else(|| panic!("{field}={value:?}: rejected without naming {field}: {errors}"));
    // Follow-on errors (a rejected certificate makes "cert and key together" fail too)
    // must still name the same field.
    assert!(
        errors.0.iter().all(|e| e.field == field),
        "{field}={value:?}: only {field} is wrong, got {errors}"
    );
    // The message is one line, without control characters, and bounded.
    for text in [&e.message, &e.accepted] {
        assert!(
            !text.chars().any(char::is_control),
            "{field}: control character in {text:?}"
        );
        assert!(
            text.chars().count() < 400,
            "{field}: message of {} characters",
            text.chars().count()
        );
    }
}

/// Where an accepted value went must be exactly one argument of some directive.
fn appears_whole(plan: &Plan, value: &str) -> bool {
    let lowered = value.to_ascii_lowercase();
    nginx_gen_core::render::files(plan).iter().take(2).any(|f| {
        fn walk(nodes: &[parse::Directive], v: &str, l: &str) -> bool {
            nodes.iter().any(|n| {
                n.args
                    .iter()
                    .any(|a| a == v || a == l || a.contains(v) || a.contains(l))
                    || n.block.as_deref().is_some_and(|b| walk(b, v, l))
            })
        }
        walk(&parse::parse(&f.contents).expect("parses"), value, &lowered)
    })
}

#[test]
fn hostile_strings_are_rejected_or_inert() {
    let (mut rejected, mut accepted) = (0, 0);
    for (field, base, set) in fields() {
        for p in payloads() {
            for value in [
                p.clone(),
                format!("{base}{p}"),
                format!("{p}{base}"),
                format!("{base}{p}{base}"),
            ] {
                let mut raw = RawInputs {
                    vcpu: Some(4u32.into()),
                    ram: Some("8G".into()),
                    ..RawInputs::default()
                };
                set(&mut raw, value.clone());
                match Inputs::from_raw(&raw) {
                    Err(errors) => {
                        check_rejection(field, &value, &errors);
                        rejected += 1;
                    }
                    Ok(inputs) => {
                        let plan = Plan::new(&inputs);
                        expect::check(&plan).unwrap_or_else(|e| {
                            panic!("{field}={value:?} was accepted and broke the file:\n{e}")
                        });
                        accepted += 1;
                        let structural = value.chars().any(|c| {
                            c.is_control()
                                || matches!(c, ';' | '{' | '}' | '"' | '\'' | '#' | '\\' | ' ')
                        });
                        if structural
                            && matches!(
                                field,
                                "server_names"
                                    | "root"
                                    | "upstreams"
                                    | "tls_cert"
                                    | "tls_key"
                                    | "listen"
                                    | "trusted_proxies"
                            )
                        {
                            assert!(
                                appears_whole(&plan, value.trim()),
                                "{field}={value:?} accepted but not found as one argument"
                            );
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "hostile strings: {rejected} rejected with the field named, {accepted} accepted and inert"
    );
    assert!(
        rejected > 500,
        "the payloads must mostly be rejected ({rejected})"
    );
}

#[test]
fn documents_with_hostile_strings_name_the_field() {
    for p in payloads() {
        let doc = serde_json::json!({ "vcpu": 2, "ram": "2G", "server_names": ["ok.example", p] })
            .to_string();
        let errors = Inputs::from_json(&doc).expect_err("a hostile server name is rejected");
        assert_eq!(errors.0[0].field, "server_names", "{p:?}");
    }
}

/// Finding F4 (docs/verification.md), fixed in core: size errors escape the unit.
#[test]
fn f4_size_errors_are_escaped() {
    for v in ["8G\n8G", "8\u{1b}[31m", &format!("8{}", "Q".repeat(10_000))] {
        let raw = RawInputs {
            ram: Some(v.to_owned()),
            ..RawInputs::default()
        };
        let errors = Inputs::from_raw(&raw).expect_err("bad size");
        let m = &errors.0[0].message;
        assert!(
            !m.chars().any(char::is_control) && m.chars().count() < 400,
            "{m:?}"
        );
    }
}
