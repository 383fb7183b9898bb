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
        "{clients} concurrent clients are planned; with {active} of them transferring at once ({per_client} each), nginx would need about {peak} MiB against a budget of {budget} MiB, which holds about {memory_clients}. The connection slots stay sized for {clients}: add RAM, or plan fewer clients.",
    ),
    Text::new(
        "capacity_slots",
        "{target} concurrent clients were asked for, but {workers} workers × {connections} connections hold {clients} ({slots} slots per client). More vCPUs (more workers) would hold more; RAM would not.",
    ),
    Text::new(
        "worker_memory",
        "{workers} workers cost about {fixed} MiB before any client connects (each about {worker} MiB, with its connection slots), against a budget of {budget} MiB: use fewer workers (--vcpu) or add RAM.",
    ),
    Text::new(
        "upstream_ports",
        "Up to {connections} connections to {address} at once, near the {ports} local ports one address can use towards it: add upstream addresses, use a Unix socket, or bind outgoing connections to several local addresses (proxy_bind).",
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
        "Upstream host names are resolved once, when nginx starts; reload nginx when their addresses change, or have them looked up again with --upstream-resolve (nginx 1.27.3 or later).",
    ),
    Text::new(
        "resolver_guessed",
        "The application's names are asked of {resolver}, systemd-resolved's local stub, which Debian 12 and RHEL 9 do not run by default: pass --resolver with this host's DNS server (the first nameserver of /etc/resolv.conf; the CLI reads it), or nginx answers 502 until one answers.",
    ),
    Text::new(
        "trusted_proxies",
        "X-Forwarded-For is trusted from every private network; narrow --trusted-proxy to your load balancers' addresses.",
    ),
    Text::new(
        "trusted_proxies_pp",
        "The PROXY protocol is accepted from every private network; narrow --trusted-proxy to your balancers' addresses.",
    ),
    Text::new(
        "cdn_ranges",
        "The {cdn} address ranges built in were taken on {taken}, {days} days ago: update nginx-gen, or compare them with the CDN's lists (docs/inputs.md, cdn).",
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
        "Bootstrap: the site is served over plain HTTP only, until the certificate exists. Get it with: certbot certonly --webroot -w /var/www/_letsencrypt --deploy-hook '{reload}' {domains} (certbot keeps the hook for its renewals; without it nginx serves the old certificate until it expires), then generate again without --bootstrap to switch HTTPS on.",
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

/// Thousandths as a decimal: 1500 is `1.5`, 7000 is `7`.
fn decimal_permille(n: u64) -> String {
    let mut s = format!("{}.{:03}", n / 1000, n % 1000);
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    s
}

/// The first TCP upstream address that may take more than half of the ephemeral ports
/// towards it at the peak (its share of the proxied requests in flight, each HTTP/2 stream
/// on its own connection, and of every worker's keepalive pool), with the numbers.
fn crowded_upstream(c: &Ctx) -> Option<[(&'static str, String); 3]> {
    use crate::tuning::EPHEMERAL_PORTS;
    let (i, t) = (c.i, c.t);
    let tcp: Vec<&Upstream> = i.upstreams.iter().filter(|u| u.is_tcp()).collect();
    if !i.workload.proxies() || tcp.is_empty() {
        return None;
    }
    let pooled = u64::from(t.workers) * u64::from(t.upstream_keepalive.unwrap_or(0));
    let per_address = (t.upstream_in_flight + pooled).div_ceil(tcp.len() as u64);
    (2 * per_address > u64::from(EPHEMERAL_PORTS)).then(|| {
        [
            ("connections", per_address.to_string()),
            ("address", tcp[0].to_string()),
            ("ports", EPHEMERAL_PORTS.to_string()),
        ]
    })
}

/// The warnings for `c`.
impl crate::plan::Plan {
    /// Adds the warnings that depend on the date, `today` in days since 1970-01-01 (the
    /// caller's clock: the core has none): the CDN's ranges once they are older than
    /// [`STALE_DAYS`](crate::policy::cdn::STALE_DAYS).
    pub fn check_date(&mut self, today: i64) {
        let cdn = self.inputs.cdn;
        let Some(ranges) = crate::policy::cdn::ranges(cdn) else {
            return;
        };
        let age = ranges.age(today);
        if age > crate::policy::cdn::STALE_DAYS {
            let values = [
                ("cdn", cdn.to_string()),
                ("taken", ranges.taken.to_owned()),
                ("days", age.to_string()),
            ];
            let filled: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
            self.warnings.push(Warning {
                id: "cdn_ranges",
                field: Some("cdn"),
                message: fill(template("cdn_ranges"), &filled),
                values: values.to_vec(),
            });
        }
    }
}

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
    let mib = |bytes: u64| bytes.div_ceil(1024 * 1024).to_string();
    let budget = (t.memory_budget / (1024 * 1024)).to_string();
    if t.clients < t.clients_target {
        warn(
            "capacity_slots",
            Some("vcpu"),
            &[
                ("target", &t.clients_target.to_string()),
                ("workers", &t.workers.to_string()),
                ("connections", &t.worker_connections.to_string()),
                ("clients", &t.clients.to_string()),
                ("slots", &decimal_permille(t.slots_permille)),
            ],
        );
    }
    if t.memory_clients < t.clients {
        let field = if i.clients.is_some() {
            "clients"
        } else {
            "ram"
        };
        let per_client = if t.client_bytes < 1024 * 1024 {
            format!("{} KiB", t.client_bytes.div_ceil(1024))
        } else {
            format!("{} MiB", mib(t.client_bytes))
        };
        warn(
            "capacity",
            Some(field),
            &[
                ("clients", &t.clients.to_string()),
                ("active", &t.active_clients.to_string()),
                ("per_client", &per_client),
                ("peak", &mib(t.peak_memory)),
                ("budget", &budget),
                ("memory_clients", &t.memory_clients.to_string()),
            ],
        );
    }
    // The workers' fixed cost approaches the budget (half of it or more).
    let fixed = t.fixed_memory;
    if 2 * fixed >= t.memory_budget {
        warn(
            "worker_memory",
            Some("vcpu"),
            &[
                ("workers", &t.workers.to_string()),
                ("fixed", &mib(fixed)),
                ("worker", &mib(t.worker_bytes)),
                ("budget", &budget),
            ],
        );
    }
    if let Some(address) = crowded_upstream(c) {
        let values: Vec<(&str, &str)> = address.iter().map(|(k, v)| (*k, v.as_str())).collect();
        warn("upstream_ports", Some("upstreams"), &values);
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
    // Names nginx looks up once, at start-up (not asked to again, or localhost).
    let once = |u: &Upstream| u.is_hostname() && !super::proxy::resolves(c, u);
    if i.workload.proxies() && i.upstreams.iter().any(once) {
        warn("upstream_dns", Some("upstreams"), &[]);
    }
    // The names looked up again, of a DNS server guessed from the layout (outside a
    // container, where Docker's is certain).
    if i.resolver.is_none()
        && i.layout != crate::inputs::Layout::Docker
        && super::proxy::any_resolves(c)
    {
        warn(
            "resolver_guessed",
            Some("resolver"),
            &[("resolver", i.layout.resolver())],
        );
    }
    if i.trusted_proxies == defaults().trusted_proxies {
        if i.behind_lb {
            warn("trusted_proxies", Some("trusted_proxies"), &[]);
        } else if i.proxy_protocol {
            warn("trusted_proxies_pp", Some("trusted_proxies"), &[]);
        }
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
        // A container has no systemd: the reload is nginx's own signal, sent into it.
        let reload = if i.layout == Layout::Docker {
            "docker exec NGINX_CONTAINER nginx -s reload"
        } else {
            "systemctl reload nginx"
        };
        warn(
            "bootstrap",
            Some("bootstrap"),
            &[("domains", &domains.join(" ")), ("reload", reload)],
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
    fn cdn_ranges_warn_after_90_days() {
        let days = |d| crate::policy::cdn::days(d).unwrap();
        let mut p = crate::rules::testing::plan(r#"{"cdn":"cloudflare"}"#);
        p.check_date(days("2027-03-02"));
        assert!(p.warnings.is_empty());
        p.check_date(days("2027-03-03"));
        assert_eq!(p.warnings[0].field, Some("cdn"));
        assert!(
            p.warnings[0]
                .message
                .contains("taken on 2026-12-02, 91 days ago"),
            "{}",
            p.warnings[0].message
        );
        let mut none = crate::rules::testing::plan("{}");
        none.check_date(days("2030-01-01"));
        assert!(none.warnings.is_empty());
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
            w.message.starts_with(
                "100000 concurrent clients are planned; with 10000 of them transferring at once (9 KiB each)"
            ),
            "{}",
            w.message
        );
        assert!(w.message.contains("stay sized for 100000"), "{}", w.message);
        assert!(!w.message.contains('{'));
        // Without --clients the RAM is the field to change.
        let p = plan(r#"{"vcpu":16,"ram":"512M","workload":"proxy","tls":true}"#);
        assert_eq!(p.warnings[0].field, Some("ram"));
    }

    #[test]
    fn slots_warn_with_workers_not_ram() {
        let p = plan(r#"{"vcpu":1,"ram":"16T","clients":10000000}"#);
        let w = &p.warnings[0];
        assert_eq!((w.id, w.field), ("capacity_slots", Some("vcpu")));
        assert!(w.message.contains("More vCPUs"), "{}", w.message);
        // 16T holds the clients the slots hold, so memory does not warn as well.
        assert!(!ids(r#"{"vcpu":1,"ram":"16T","clients":10000000}"#).contains(&"capacity"));
    }

    #[test]
    fn slots_per_client_as_a_decimal() {
        assert_eq!(super::decimal_permille(1500), "1.5");
        assert_eq!(super::decimal_permille(7000), "7");
        assert_eq!(super::decimal_permille(1250), "1.25");
    }

    #[test]
    fn workers_fixed_cost_near_ram() {
        // The issue's case: 128 workers on 256 MiB.
        let p = plan(r#"{"vcpu":128,"ram":"256M"}"#);
        let w = p.warnings.iter().find(|w| w.id == "worker_memory").unwrap();
        assert_eq!(w.field, Some("vcpu"));
        assert!(
            w.message.starts_with("128 workers cost about "),
            "{}",
            w.message
        );
        assert!(!ids(r#"{"vcpu":4,"ram":"8G"}"#).contains(&"worker_memory"));
    }

    #[test]
    fn upstream_ports_near_exhaustion() {
        let one = r#"{"vcpu":32,"ram":"256G","clients":2000000,"workload":"proxy","tls":true,"upstreams":["10.0.0.2:8080"]}"#;
        let p = plan(one);
        let w = p
            .warnings
            .iter()
            .find(|w| w.id == "upstream_ports")
            .unwrap();
        assert!(w.message.contains("to 10.0.0.2:8080"), "{}", w.message);
        // Unix sockets take no ports; the guide's proxy is far from the limit.
        let unix = one.replace("10.0.0.2:8080", "unix:/run/app.sock");
        assert!(!ids(&unix).contains(&"upstream_ports"));
        assert!(!ids(r#"{"workload":"proxy","tls":true}"#).contains(&"upstream_ports"));
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
        let resolve = r#""workload":"proxy","upstreams":["app:3000"],"upstream_resolve":true"#;
        assert_eq!(ids(&format!("{{{resolve}}}")), ["resolver_guessed"]);
        for given in [r#""resolver":"10.0.0.2""#, r#""layout":"docker""#] {
            let ids = ids(&format!("{{{resolve},{given}}}"));
            assert!(!ids.contains(&"resolver_guessed"), "{given}: {ids:?}");
        }
        assert_eq!(ids(r#"{"proxy_protocol":true}"#), ["trusted_proxies_pp"]);
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
