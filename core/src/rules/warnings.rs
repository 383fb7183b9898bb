//! Warnings: what the user should know about these inputs. Each message is a template of
//! the registry ([`TEXTS`]), filled with the numbers of the plan.

use super::{Ctx, Text};
use crate::i18n::fill;
use crate::inputs::{Layout, Upstream, Workload, defaults};
use crate::plan::Warning;
use crate::policy::ADVISORIES;

/// Every warning's template; `{name}` marks a value filled in.
pub(crate) static TEXTS: &[Text] = &[
    Text::new(
        "capacity",
        "{target} concurrent clients were asked for, but {clients} fit: {per_client} per active client against a budget of {budget} MiB. Add RAM or expect fewer clients.",
    ),
    Text::new(
        "http3_behind_lb",
        "HTTP/3 usually ends at the load balancer; nginx's QUIC listener is reachable only if UDP reaches this host.",
    ),
    Text::new(
        "http3_firewall",
        "Open UDP port {port} in the firewall for HTTP/3.",
    ),
    Text::new(
        "ocsp",
        "Let's Encrypt certificates carry no OCSP URL since 2025: nginx will log that stapling is ignored.",
    ),
    Text::new(
        "brotli_module",
        "The {layout} packages do not ship the brotli modules; build ngx_brotli for your nginx or turn brotli off.",
    ),
    Text::new(
        "existing_default_server",
        "An existing site is the default server on port {ports}: unknown host names go to it, not to the catch-all written here.",
    ),
    Text::new(
        "upstream_dns",
        "Upstream host names are resolved once, when nginx starts; reload nginx when their addresses change.",
    ),
    Text::new(
        "trusted_proxies",
        "X-Forwarded-For is trusted from every private network; narrow --trusted-proxy to your load balancers' addresses.",
    ),
    Text::new(
        "docker",
        "In a container the sysctl and systemd files apply to the host: pass them as docker run --sysctl and --ulimit nofile instead.",
    ),
    Text::new(
        "advisory",
        "nginx {version} is affected by {id}: {summary}. Upgrade nginx.",
    ),
    Text::new(
        "policy",
        "These inputs were written for tuning policy {given}; this nginx-gen applies policy {current}, so values may differ from the ones made then (CHANGELOG.md lists what changed).",
    ),
    Text::new(
        "bootstrap",
        "Bootstrap: the site is served over plain HTTP only, until the certificate exists. Get it with: certbot certonly --webroot -w /var/www/_letsencrypt {domains}, then generate again without --bootstrap to switch HTTPS on.",
    ),
    Text::new(
        "upstreams_unused",
        "The static workload proxies nothing; the upstreams are ignored.",
    ),
];

/// The template of warning `id`.
fn template(id: &str) -> &'static str {
    TEXTS.iter().find(|t| t.id == id).map_or("", |t| t.en)
}

/// The warnings for `c`.
pub(crate) fn warnings(c: &Ctx) -> Vec<Warning> {
    let (i, t) = (c.i, c.t);
    let mut out = Vec::new();
    let mut warn = |id: &'static str, field, values: &[(&'static str, &str)]| {
        out.push(Warning {
            id,
            field,
            message: fill(template(id), values),
            values: values.iter().map(|(k, v)| (*k, (*v).to_owned())).collect(),
        });
    };
    if t.clients < t.clients_target {
        let field = if i.clients.is_some() {
            "clients"
        } else {
            "ram"
        };
        let mib = t.client_bytes.div_ceil(1024 * 1024).max(1);
        let per_client = if mib == 1 {
            format!("{} KiB", t.client_bytes.div_ceil(1024))
        } else {
            format!("{mib} MiB")
        };
        warn(
            "capacity",
            Some(field),
            &[
                ("target", &t.clients_target.to_string()),
                ("clients", &t.clients.to_string()),
                ("per_client", &per_client),
                ("budget", &(t.memory_budget / (1024 * 1024)).to_string()),
            ],
        );
    }
    if i.http3 && i.behind_lb {
        warn("http3_behind_lb", Some("http3"), &[]);
    }
    if i.http3 {
        warn(
            "http3_firewall",
            Some("http3"),
            &[("port", &i.tls_port.to_string())],
        );
    }
    if i.ocsp_stapling {
        warn("ocsp", Some("ocsp_stapling"), &[]);
    }
    // The release's row where one is named, else the layout's packages.
    let (packaged, whose) = match i.release.row() {
        Some(row) => (row.brotli, row.title.to_owned()),
        None => (i.layout.packages_brotli(), i.layout.to_string()),
    };
    if i.brotli && !packaged {
        warn("brotli_module", Some("brotli"), &[("layout", &whose)]);
    }
    if i.existing_default_server {
        let mut ports: Vec<u16> = i.listen.iter().map(|l| l.port).collect();
        if i.tls {
            ports.push(i.tls_port);
        }
        ports.dedup();
        let ports: Vec<String> = ports.iter().map(ToString::to_string).collect();
        let ports = ports.join(" / ");
        warn(
            "existing_default_server",
            Some("existing_default_server"),
            &[("ports", &ports)],
        );
    }
    if i.workload.proxies() && i.upstreams.iter().any(Upstream::is_hostname) {
        warn("upstream_dns", Some("upstreams"), &[]);
    }
    if i.behind_lb && i.trusted_proxies == defaults().trusted_proxies {
        warn("trusted_proxies", Some("trusted_proxies"), &[]);
    }
    if i.layout == Layout::Docker {
        warn("docker", Some("layout"), &[]);
    }
    // Advisories concern a known version; `any` is no version to upgrade.
    for a in ADVISORIES {
        let Some(version) = i.nginx_version.known() else {
            break;
        };
        if a.affects(version) && (i.tls || !a.tls_only) {
            warn(
                "advisory",
                Some("nginx_version"),
                &[
                    ("version", &version.to_string()),
                    ("id", a.id),
                    ("summary", a.summary),
                ],
            );
        }
    }
    if let Some(given) = i
        .policy
        .as_ref()
        .filter(|p| p.as_str() != crate::POLICY_VERSION)
    {
        warn(
            "policy",
            Some("policy"),
            &[
                ("given", given.as_str()),
                ("current", crate::POLICY_VERSION),
            ],
        );
    }
    if i.bootstrap {
        let domains: Vec<String> = i
            .server_names
            .iter()
            .map(|n| format!("-d {}", n.as_str()))
            .collect();
        warn(
            "bootstrap",
            Some("bootstrap"),
            &[("domains", &domains.join(" "))],
        );
    }
    if i.workload == Workload::Static && i.upstreams != defaults().upstreams {
        warn("upstreams_unused", Some("upstreams"), &[]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fill;
    use crate::rules::testing::plan;

    fn ids(json: &str) -> Vec<&'static str> {
        plan(json).warnings.iter().map(|w| w.id).collect()
    }

    #[test]
    fn templates_fill_every_value() {
        assert_eq!(fill("a {x} b {y}", &[("x", "1"), ("y", "2")]), "a 1 b 2");
        assert_eq!(fill("{missing}", &[]), "{missing}");
    }

    #[test]
    fn quiet_for_the_guide_machine() {
        assert!(ids("{}").is_empty(), "{:?}", ids("{}"));
    }

    #[test]
    fn capacity_names_the_field_and_the_numbers() {
        let p = plan(r#"{"vcpu":2,"ram":"512M","clients":100000}"#);
        let w = &p.warnings[0];
        assert_eq!((w.id, w.field), ("capacity", Some("clients")));
        assert!(
            w.message
                .starts_with("100000 concurrent clients were asked for, but "),
            "{}",
            w.message
        );
        assert!(
            w.message.contains(" KiB per active client"),
            "{}",
            w.message
        );
        assert!(!w.message.contains('{'));
    }

    #[test]
    fn each_warning_fires_on_its_input() {
        assert_eq!(ids(r#"{"tls":true,"http3":true}"#), ["http3_firewall"]);
        assert_eq!(
            ids(r#"{"tls":true,"http3":true,"behind_lb":true,"trusted_proxies":["10.1.0.0/16"]}"#),
            ["http3_behind_lb", "http3_firewall"]
        );
        assert_eq!(ids(r#"{"tls":true,"ocsp_stapling":true}"#), ["ocsp"]);
        assert_eq!(ids(r#"{"layout":"rhel","brotli":true}"#), ["brotli_module"]);
        // nginx.org packages nginx-module-brotli; a release's row decides over its layout.
        assert!(ids(r#"{"layout":"nginx-org","brotli":true}"#).is_empty());
        assert_eq!(
            ids(r#"{"release":"ubuntu-22.04","brotli":true}"#),
            ["brotli_module"]
        );
        assert!(ids(r#"{"release":"ubuntu-24.04","brotli":true}"#).is_empty());
        let p = plan(r#"{"existing_default_server":true,"tls":true}"#);
        let w = &p.warnings[0];
        assert_eq!(
            (w.id, w.field),
            ("existing_default_server", Some("existing_default_server"))
        );
        assert!(w.message.contains("port 80 / 443"), "{}", w.message);
        assert_eq!(
            ids(r#"{"workload":"proxy","upstreams":["app.internal:3000"]}"#),
            ["upstream_dns"]
        );
        assert_eq!(ids(r#"{"behind_lb":true}"#), ["trusted_proxies"]);
        assert_eq!(ids(r#"{"layout":"docker","brotli":false}"#), ["docker"]);
        assert_eq!(
            ids(r#"{"tls":true,"nginx_version":"1.26.2"}"#),
            ["advisory"]
        );
        assert!(ids(r#"{"tls":true,"nginx_version":"1.26.3"}"#).is_empty());
        // The portable target names no version to upgrade.
        assert!(ids(r#"{"tls":true,"nginx_version":"any"}"#).is_empty());
        assert_eq!(
            ids(r#"{"upstreams":["127.0.0.1:4000"]}"#),
            ["upstreams_unused"]
        );
    }
}
