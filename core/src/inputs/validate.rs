//! Validation as a whole ([`Inputs::from_raw`]: every field, then the rules that involve
//! several), and the ways back: the raw document and the reproducing command line.

use crate::policy::{Feature, Versions};

use super::check::Checker;
use super::raw::RawValue;
use super::texts::{self, Msg, value};
use super::values::{Cache, Release, SafePath, ServerName};
use super::{Group, INPUTS, InputErrors, Inputs, RawInputs, defaults};

impl Default for Inputs {
    /// The guide's machine: 4 vCPU, 8 GiB, static files (the registry's defaults).
    fn default() -> Self {
        defaults().clone()
    }
}

impl Inputs {
    /// An HTTP proxy in front (a load balancer or a CDN) names the client in
    /// `X-Forwarded-For` and the scheme in `X-Forwarded-Proto`.
    pub fn forwarded(&self) -> bool {
        self.behind_lb || self.cdn != super::Cdn::None
    }

    /// The realip module replaces the address of connections from trusted peers.
    pub fn real_ip(&self) -> bool {
        self.forwarded() || self.proxy_protocol
    }

    /// Validates raw inputs; every problem is reported, each naming its field.
    pub fn from_raw(raw: &RawInputs) -> Result<Self, InputErrors> {
        let mut c = Checker::default();
        // A release sets the defaults of the versions and the layout; given values win.
        let with_release;
        let raw = match release_defaults(raw) {
            Some(defaults) => {
                with_release = raw.clone().over(defaults);
                &with_release
            }
            None => raw,
        };
        let mut inputs = Self::read_fields(raw, &mut c);
        // The running policy is what "unset" means: one value, one meaning.
        if inputs
            .policy
            .as_ref()
            .is_some_and(|p| p.as_str() == crate::POLICY_VERSION)
        {
            inputs.policy = None;
        }
        inputs.check_combinations(&mut c);
        if c.errors.is_empty() {
            Ok(inputs)
        } else {
            Err(InputErrors(c.errors))
        }
    }

    /// Rules that involve more than one field.
    fn check_combinations(&self, c: &mut Checker) {
        let versions = self.versions();
        // `.x` already means `x` and `*.x`; nginx would ignore the duplicate with a warning.
        for name in self.server_names.iter().map(ServerName::as_str) {
            if let Some(base) = name.strip_prefix('.') {
                let wildcard = format!("*.{base}");
                if let Some(dup) = self
                    .server_names
                    .iter()
                    .find(|n| n.as_str() == base || n.as_str() == wildcard)
                {
                    c.fail(
                        "server_names",
                        Msg::with(
                            &texts::NAME_COVERED,
                            vec![
                                ("duplicate", value(dup.as_str())),
                                ("name", value(name)),
                                ("base", value(base)),
                            ],
                        ),
                        Msg::of(&texts::ACCEPTED_NO_OVERLAP),
                    );
                }
            }
        }
        if self.http3 && !self.tls {
            c.fail(
                "http3",
                Msg::of(&texts::HTTP3_TLS),
                Msg::of(&texts::ACCEPTED_HTTP3_TLS),
            );
        } else if self.http3 {
            self.needs(
                c,
                versions,
                ("http3", Feature::Quic),
                &texts::NO_HTTP3,
                &texts::ACCEPTED_HTTP3_NGINX,
            );
        }
        if !self.tls && self.listen.iter().any(|l| l.port == 443) {
            c.fail(
                "listen",
                Msg::of(&texts::PORT_443),
                Msg::of(&texts::ACCEPTED_PORT_443),
            );
        }
        if self.ocsp_stapling && !self.tls {
            c.fail(
                "ocsp_stapling",
                Msg::of(&texts::OCSP_TLS),
                Msg::of(&texts::ACCEPTED_OCSP_TLS),
            );
        }
        if matches!(self.hsts, super::Hsts::Subdomains | super::Hsts::Preload) && !self.tls {
            c.fail(
                "hsts",
                Msg::of(&texts::HSTS_TLS),
                Msg::of(&texts::ACCEPTED_HSTS_TLS),
            );
        }
        if self.canonical {
            let first = &self.server_names[0];
            let message = if self.server_names.len() < 2 {
                Some(Msg::of(&texts::CANONICAL_ONE))
            } else if self.server_names.iter().any(|n| n.as_str() == "_") {
                Some(Msg::of(&texts::CANONICAL_ALL))
            } else if !first.is_single_host() {
                Some(Msg::with(
                    &texts::CANONICAL_FIRST,
                    vec![("name", value(first.as_str()))],
                ))
            } else {
                None
            };
            if let Some(message) = message {
                c.fail("canonical", message, Msg::of(&texts::ACCEPTED_CANONICAL));
            }
        }
        if self.bootstrap && !self.tls {
            c.fail(
                "bootstrap",
                Msg::of(&texts::BOOTSTRAP_TLS),
                Msg::of(&texts::ACCEPTED_BOOTSTRAP_TLS),
            );
        }
        // The PROXY protocol names the client itself; the realip module reads one source.
        let other = if self.behind_lb {
            Some("behind_lb")
        } else if self.cdn != super::Cdn::None {
            Some("cdn")
        } else {
            self.http3.then_some("http3")
        };
        if let (true, Some(other)) = (self.proxy_protocol, other) {
            c.fail(
                "proxy_protocol",
                Msg::with(&texts::PROXY_PROTOCOL, vec![("other", value(other))]),
                Msg::of(&texts::ACCEPTED_PROXY_PROTOCOL),
            );
        }
        if self.tls && self.listen.iter().any(|l| l.port == self.tls_port) {
            c.fail(
                "tls_port",
                Msg::with(&texts::SAME_PORT, vec![("port", value(self.tls_port))]),
                Msg::of(&texts::ACCEPTED_OTHER_PORT),
            );
        }
        // The status server takes its port on 127.0.0.1: a site listening there would lose
        // its local clients to it, a local upstream could not bind.
        let status = self.status_port;
        if status != 0
            && (self.listen.iter().any(|l| l.port == status)
                || self.tls && self.tls_port == status
                || self
                    .upstreams
                    .iter()
                    .any(|u| u.is_local() && u.port() == Some(status)))
        {
            c.fail(
                "status_port",
                Msg::with(&texts::STATUS_PORT, vec![("port", value(status))]),
                Msg::of(&texts::ACCEPTED_STATUS_PORT),
            );
        }
        if self.cache != Cache::Off && self.workload == super::Workload::Static {
            c.fail(
                "cache",
                Msg::of(&texts::CACHE_APP),
                Msg::of(&texts::ACCEPTED_CACHE_APP),
            );
        }
        if self.cache_status && self.cache == Cache::Off {
            c.fail(
                "cache_status",
                Msg::of(&texts::CACHE_STATUS),
                Msg::of(&texts::ACCEPTED_CACHE_STATUS),
            );
        }
        if self.spa && self.workload != super::Workload::Static {
            c.fail(
                "spa",
                Msg::of(&texts::SPA_STATIC),
                Msg::of(&texts::ACCEPTED_SPA_STATIC),
            );
        }
        if self.upstream_resolve {
            self.check_resolve(c, versions);
        }
        // The system's reserve and 128 MiB for nginx stay (the formulas never go below 0).
        let least = crate::tuning::least_left(self.ram);
        let left = self.ram.as_u64().saturating_sub(self.other_memory.as_u64());
        if left < least.as_u64() {
            let most = crate::size::ByteSize::bytes(self.ram.as_u64() - least.as_u64());
            c.fail(
                "other_memory",
                Msg::with(
                    &texts::OTHER_MEMORY,
                    vec![
                        ("other", value(self.other_memory)),
                        ("ram", value(self.ram)),
                        ("least", value(least)),
                    ],
                ),
                Msg::with(&texts::ACCEPTED_OTHER_MEMORY, vec![("most", value(most))]),
            );
        }
        if self.tls_cert.is_some() != self.tls_key.is_some() {
            let field = if self.tls_cert.is_some() {
                "tls_key"
            } else {
                "tls_cert"
            };
            c.fail(
                field,
                Msg::of(&texts::CERT_KEY),
                Msg::of(&texts::ACCEPTED_CERT_KEY),
            );
        }
    }

    /// `upstream_resolve`: a proxied application, named by DNS, on nginx that can.
    fn check_resolve(&self, c: &mut Checker, versions: Versions) {
        let field = "upstream_resolve";
        if !self.workload.proxies() {
            c.fail(
                field,
                Msg::of(&texts::RESOLVE_APP),
                Msg::of(&texts::ACCEPTED_RESOLVE_APP),
            );
        } else if !self.upstreams.iter().any(super::Upstream::is_dns_name) {
            c.fail(
                field,
                Msg::of(&texts::RESOLVE_NAME),
                Msg::of(&texts::ACCEPTED_RESOLVE_NAME),
            );
        }
        let feature = Feature::UpstreamResolve;
        self.needs(
            c,
            versions,
            (field, feature),
            &texts::NO_RESOLVE,
            &texts::ACCEPTED_RESOLVE_NGINX,
        );
    }

    /// The input `field` needs nginx's `feature`: refused, with the version it has since,
    /// where the target version has it not.
    fn needs(
        &self,
        c: &mut Checker,
        versions: Versions,
        (field, feature): (&str, Feature),
        message: &'static crate::rules::Text,
        accepted: &'static crate::rules::Text,
    ) {
        if !versions.has(feature) {
            c.fail(
                field,
                Msg::with(message, vec![("version", value(self.nginx_version))]),
                Msg::with(accepted, vec![("version", value(feature.since()))]),
            );
        }
    }

    /// A valid document that sets input `name` to its registry sample, plus the inputs
    /// the rules above need with it (`tls` for `ocsp_stapling`); for tests that walk the
    /// registry. `None` for a name that is not an input.
    pub fn sample_document(name: &str) -> Option<RawInputs> {
        let companions: &[&str] = match name {
            "ocsp_stapling" | "http3" | "bootstrap" | "hsts" => &["tls"],
            "tls_cert" => &["tls_key"],
            "cache_status" => &["cache"],
            // Its largest value is what the largest RAM leaves.
            "other_memory" => &["ram"],
            "tls_key" => &["tls_cert"],
            _ => &[],
        };
        let mut raw = RawInputs::default();
        for n in std::iter::once(name).chain(companions.iter().copied()) {
            raw.set(n, Some(super::input(n)?.sample())).ok()?;
        }
        // The PHP inputs matter (and are written in the command) only with workload php;
        // the micro-cache needs an application (a proxied one here).
        let workload = match name {
            n if n.starts_with("php_") => Some("php"),
            "cache" | "cache_status" | "upstream_resolve" => Some("proxy"),
            _ => None,
        };
        if let Some(w) = workload {
            raw.set("workload", Some(RawValue::Text(w.into()))).ok()?;
        }
        // Redirecting names to the first needs a second.
        if name == "canonical" {
            let names = RawValue::List(vec!["example.com".into(), "www.example.com".into()]);
            raw.set("server_names", Some(names)).ok()?;
        }
        // Looking names up again needs an application by name.
        if name == "upstream_resolve" {
            let by_name = RawValue::List(vec!["app:3000".into()]);
            raw.set("upstreams", Some(by_name)).ok()?;
        }
        Some(raw)
    }

    /// Reads the JSON input document (the schema of [`RawInputs`]) and validates it.
    pub fn from_json(text: &str) -> Result<Self, InputErrors> {
        Self::from_raw(&RawInputs::from_json(text)?)
    }

    /// The versions that select syntax and features: for `any`, the oldest supported one,
    /// so the output is the form every supported version accepts.
    /// HTTP/3 or `upstream_resolve` asked for raises that oldest version to the first that
    /// has it.
    pub const fn versions(&self) -> Versions {
        let oldest = if self.upstream_resolve {
            Feature::UpstreamResolve.since()
        } else if self.http3 {
            Feature::Quic.since()
        } else {
            super::limits::NGINX_MIN
        };
        Versions {
            nginx: self.nginx_version.or_oldest(oldest),
            openssl: self.openssl_version.or_oldest(super::limits::OPENSSL_MIN),
        }
    }

    /// The certificate's and key's paths: given, or Let's Encrypt's for the first name.
    pub fn certificate_paths(&self) -> (String, String) {
        let name = self.primary_name().file_stem();
        let cert = self.tls_cert.as_ref().map_or_else(
            || format!("/etc/letsencrypt/live/{name}/fullchain.pem"),
            |p| p.as_str().to_owned(),
        );
        let key = self.tls_key.as_ref().map_or_else(
            || format!("/etc/letsencrypt/live/{name}/privkey.pem"),
            |p| p.as_str().to_owned(),
        );
        (cert, key)
    }

    /// The first server name, which names the site file and the default certificate path.
    pub fn primary_name(&self) -> &ServerName {
        &self.server_names[0]
    }

    /// A path of the site's own beside its file, named by the first server name:
    /// `/etc/nginx/conf.d/example.com` followed by `suffix` (`.conf`, the site file).
    pub fn site_file(&self, suffix: &str) -> String {
        [
            "/etc/nginx/conf.d/",
            self.primary_name().file_stem(),
            suffix,
        ]
        .concat()
    }

    /// The document root the site serves: the one given, else the layout's.
    pub fn document_root(&self) -> &str {
        self.root
            .as_ref()
            .map_or(self.layout.default_root(), SafePath::as_str)
    }

    /// The raw document holding only what differs from the defaults (always the machine's
    /// size, so that it reproduces the output on any machine).
    pub fn to_raw_minimal(&self) -> RawInputs {
        let full = self.to_raw();
        let d = defaults().to_raw();
        let mut minimal = RawInputs::default();
        for input in INPUTS {
            let value = full.get(input.name);
            if input.group == Group::Machine || value != d.get(input.name) {
                let _ = minimal.set(input.name, value);
            }
        }
        minimal
    }

    /// The `nginx-gen` command line that reproduces these inputs on any host and under a
    /// later nginx-gen: `--no-detect`, every input (so a later change of a default cannot
    /// change what it produces; inputs left unset mean "derived" and stay out), the policy
    /// they were written for (the running one unless given), and the switches that are on (switches default to off, a
    /// registry test keeps it so).
    pub fn to_command(&self) -> String {
        let mut cmd = String::with_capacity(640);
        cmd.push_str("nginx-gen --no-detect");
        let mut switches = String::with_capacity(128);
        for (input, value) in INPUTS.iter().zip(self.to_raw().into_values()) {
            let flag = |out: &mut String| {
                out.push_str(" --");
                out.push_str(input.flag.long);
            };
            // The PHP inputs change nothing but the php workload's output.
            if input.name.starts_with("php_") && self.workload != super::Workload::Php {
                continue;
            }
            if input.name == "policy" {
                flag(&mut cmd);
                cmd.push(' ');
                cmd.push_str(
                    self.policy
                        .as_ref()
                        .map_or(crate::POLICY_VERSION, |p| p.as_str()),
                );
                continue;
            }
            match value {
                None | Some(RawValue::Bool(false)) => {}
                Some(RawValue::Bool(true)) => flag(&mut switches),
                Some(RawValue::Int(n)) => {
                    flag(&mut cmd);
                    cmd.push(' ');
                    if n < 0 {
                        cmd.push('-');
                    }
                    crate::digits::push_u64(&mut cmd, n.unsigned_abs());
                }
                Some(RawValue::Text(text)) => {
                    flag(&mut cmd);
                    cmd.push(' ');
                    cmd.push_str(&text);
                }
                Some(RawValue::List(items)) => {
                    for item in items {
                        flag(&mut cmd);
                        cmd.push(' ');
                        cmd.push_str(&item);
                    }
                }
            }
        }
        cmd.push_str(&switches);
        cmd
    }
}

/// The versions (nginx, OpenSSL, PHP) and layout of the release `raw` names, as a raw document; `None` for `any`
/// or a name that is not a release (validation reports that).
fn release_defaults(raw: &RawInputs) -> Option<RawInputs> {
    let row = raw.release.as_deref()?.parse::<Release>().ok()?.row()?;
    Some(RawInputs {
        nginx_version: Some(row.nginx.to_string()),
        openssl_version: Some(row.openssl.to_string()),
        layout: Some(row.layout.to_string()),
        php_version: row.php.map(|php| php.to_string()),
        ..RawInputs::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(json: &str) -> Result<Inputs, InputErrors> {
        Inputs::from_json(json)
    }

    #[test]
    fn empty_document_gives_the_defaults() {
        assert_eq!(raw("{}").unwrap(), Inputs::default());
    }

    #[test]
    fn any_is_the_portable_target_and_a_release_sets_defaults() {
        let d = raw("{}").unwrap();
        assert_eq!(d.nginx_version, super::super::Target::Any);
        let v = d.versions();
        assert_eq!(
            (v.nginx, v.openssl),
            (
                super::super::limits::NGINX_MIN,
                super::super::limits::OPENSSL_MIN
            )
        );
        assert!(!v.has(Feature::Http2Directive));
        // HTTP/3 asked for: the oldest version that has it.
        let h3 = raw(r#"{"tls":true,"http3":true}"#).unwrap();
        assert_eq!(h3.versions().nginx, Feature::Quic.since());
        let r = raw(r#"{"release":"debian-12"}"#).unwrap();
        assert_eq!(r.nginx_version.to_string(), "1.22.1");
        assert_eq!(r.openssl_version.to_string(), "3.0.22");
        let rhel = raw(r#"{"release":"rhel-9","openssl_version":"3.0.7"}"#).unwrap();
        assert_eq!(rhel.layout, super::super::Layout::Rhel);
        assert_eq!(rhel.openssl_version.to_string(), "3.0.7");
        assert_eq!(rhel.nginx_version.to_string(), "1.20.1");
        // The command reproduces it without the release's help.
        let back = Inputs::from_raw(&r.to_raw()).unwrap();
        assert_eq!(back, r);
        assert!(
            r.to_command().contains(" --release debian-12 "),
            "{}",
            r.to_command()
        );
        let err = raw(r#"{"release":"debian-11"}"#).unwrap_err();
        assert_eq!(err.0[0].field, "release");
        assert!(err.0[0].accepted.contains("ubuntu-24.04"));
        assert_eq!(
            raw(r#"{"nginx_version":"ANY"}"#).unwrap().nginx_version,
            super::super::Target::Any
        );
    }

    #[test]
    fn every_bad_field_is_named() {
        let err = raw(r#"{"vcpu": 0, "ram": "8Q", "workload": "foo", "server_names": ["a;b"]}"#)
            .unwrap_err();
        let fields: Vec<_> = err.0.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["vcpu", "ram", "workload", "server_names"]);
    }

    #[test]
    fn micro_caching_needs_an_application() {
        for workload in ["proxy", "api", "mixed", "php"] {
            let json = format!(r#"{{"workload": "{workload}", "cache": "micro"}}"#);
            assert_eq!(raw(&json).unwrap().cache, Cache::Micro, "{workload}");
        }
        let err = raw(r#"{"workload": "static", "cache": "micro"}"#).unwrap_err();
        assert_eq!(err.0[0].field, "cache");
        assert_eq!(
            err.0[0].message,
            "micro-caching needs an application, proxied or PHP"
        );
        assert!(err.0[0].accepted.contains("php"), "{}", err.0[0].accepted);
        let err = raw(r#"{"workload": "php", "cache_status": true}"#).unwrap_err();
        assert_eq!(err.0[0].field, "cache_status");
    }

    #[test]
    fn other_services_leave_the_system_and_nginx_their_share() {
        // 4 GiB: the system's reserve (512 MiB) and 128 MiB for nginx stay.
        let ok = raw(r#"{"ram":"4G","other_memory":"3456M"}"#).unwrap();
        assert_eq!(ok.other_memory.to_string(), "3456M");
        assert_eq!(raw("{}").unwrap().other_memory.as_u64(), 0);
        let err = raw(r#"{"ram":"4G","other_memory":"3.5G"}"#).unwrap_err();
        assert_eq!(err.0.len(), 1);
        assert_eq!(err.0[0].field, "other_memory");
        assert_eq!(
            err.0[0].message,
            "3584M for other services leaves less than the 640M the system and nginx need of the 4G RAM"
        );
        assert!(err.0[0].accepted.contains("3456M"), "{}", err.0[0].accepted);
        // The largest machine with the most: still no formula below zero.
        let ram = super::super::limits::RAM.1;
        let most = ram.as_u64() - crate::tuning::least_left(ram).as_u64();
        let json = format!(
            r#"{{"ram":"{ram}","other_memory":"{most}","workload":"php","cache":"micro"}}"#
        );
        crate::Plan::new(&raw(&json).unwrap());
    }

    #[test]
    fn a_single_page_application_is_static() {
        assert!(raw(r#"{"spa":true}"#).unwrap().spa);
        for workload in ["proxy", "api", "mixed", "php"] {
            let err = raw(&format!(r#"{{"spa":true,"workload":"{workload}"}}"#)).unwrap_err();
            assert_eq!(err.0[0].field, "spa", "{workload}");
        }
    }

    #[test]
    fn canonical_needs_a_second_name_and_a_single_host_first() {
        let ok = raw(
            r#"{"canonical":true,"server_names":["example.com","www.example.com","*.example.org"]}"#,
        );
        assert!(ok.is_ok_and(|i| i.canonical));
        for (names, says) in [
            (r#"["example.com"]"#, "no other server name"),
            (
                r#"["*.example.com","example.com"]"#,
                "'*.example.com', is not a single host",
            ),
            (
                r#"[".example.com","www.example.org"]"#,
                "'.example.com', is not a single host",
            ),
            (r#"["example.com","_"]"#, "'_' answers every name"),
        ] {
            let err = raw(&format!(r#"{{"canonical":true,"server_names":{names}}}"#)).unwrap_err();
            assert_eq!(err.0[0].field, "canonical", "{names}");
            assert!(
                err.0[0].message.contains(says),
                "{names}: {}",
                err.0[0].message
            );
        }
    }

    #[test]
    fn hsts_beyond_the_host_needs_tls() {
        for hsts in ["subdomains", "preload"] {
            let err = raw(&format!(r#"{{"hsts":"{hsts}"}}"#)).unwrap_err();
            assert_eq!(err.0[0].field, "hsts", "{hsts}");
            assert!(err.0[0].message.contains("TLS is off"), "{hsts}");
            assert!(raw(&format!(r#"{{"hsts":"{hsts}","tls":true}}"#)).is_ok());
        }
        // Without TLS no header is sent: the default and "off" say the same.
        assert!(raw(r#"{"hsts":"off"}"#).is_ok() && raw(r#"{"hsts":"host"}"#).is_ok());
    }

    #[test]
    fn upstream_names_looked_up_again_need_a_name_and_nginx_1_27_3() {
        let ok = raw(r#"{"workload":"mixed","upstreams":["app:3000"],"upstream_resolve":true}"#);
        assert!(ok.unwrap().upstream_resolve);
        // Each reason, named on the field, in the order a reader fixes them.
        for (json, message) in [
            (
                r#"{"upstream_resolve":true,"upstreams":["app:3000"]}"#,
                "looking names up again needs a proxied application",
            ),
            (
                r#"{"workload":"api","upstream_resolve":true,"upstreams":["10.0.0.2:80","unix:/run/a.sock","localhost:80"]}"#,
                "no application server is given by a name DNS answers: addresses, sockets and localhost need no lookup",
            ),
            (
                r#"{"workload":"proxy","upstream_resolve":true,"upstreams":["app:3000"],"nginx_version":"1.26.3"}"#,
                "nginx 1.26.3 cannot look upstream names up again",
            ),
        ] {
            let err = raw(json).unwrap_err();
            assert_eq!(err.0.len(), 1, "{json}");
            assert_eq!(err.0[0].field, "upstream_resolve");
            assert_eq!(err.0[0].message, message);
        }
    }

    #[test]
    fn command_reproduces_inputs() {
        let inputs = raw(r#"{"vcpu": 2, "ram": "1.5G", "workload": "api", "tls": true, "upstreams": ["10.0.0.2:9000", "10.0.0.3:9000"]}"#).unwrap();
        let command = inputs.to_command();
        // The machine first, every input in the registry's order, the policy, the switches.
        assert!(
            command.starts_with("nginx-gen --no-detect --vcpu 2 --ram 1536M --workload api "),
            "{command}"
        );
        assert!(
            command.contains(" --upstream 10.0.0.2:9000 --upstream 10.0.0.3:9000 "),
            "{command}"
        );
        assert!(
            command.ends_with(&format!(" --policy {} --tls", crate::POLICY_VERSION)),
            "{command}"
        );
        let flags = command.matches(" --").count();
        let values: usize = INPUTS
            .iter()
            .filter(|i| !i.is_switch() && !i.name.starts_with("php_"))
            .map(|i| match inputs.to_raw().get(i.name) {
                Some(RawValue::List(items)) => items.len(),
                Some(_) => 1,
                None => usize::from(i.name == "policy"),
            })
            .sum();
        assert_eq!(
            flags,
            values + 2,
            "--no-detect, every value, --tls: {command}"
        );
        // The PHP inputs only with the php workload.
        assert!(!command.contains("--php-"), "{command}");
        let php = raw(r#"{"workload": "php", "php_child_memory": "48M"}"#).unwrap();
        let command = php.to_command();
        assert!(
            command.contains(" --php-version 8.2 --php-child-memory 48M "),
            "{command}"
        );
        let old = raw(r#"{"policy": "2026.11"}"#).unwrap();
        assert!(old.to_command().contains(" --policy 2026.11"));
        assert!(raw(r#"{"policy": "26.1"}"#).is_err());
    }
}
