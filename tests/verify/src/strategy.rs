//! proptest strategies over every input of [`RawInputs`], for one real nginx target.
//!
//! The strategies range over every field; a few values are restricted only where the
//! machine running `nginx -t` is not the machine the output is for (explained at each).

use nginx_gen_core::{Inputs, RawInputs};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// Which real nginx checks the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `nginx_version` input, also the binary's version.
    pub nginx_version: &'static str,
    /// `openssl_version` inputs valid for the binary: at most the OpenSSL it is linked with
    /// (a post-quantum group list needs OpenSSL 3.5 for real).
    pub openssl_versions: &'static [&'static str],
    /// Layouts whose trees this binary can load. Debian 12's nginx 1.22 loads every
    /// layout (its modules-enabled for `debian`, `/usr/share/nginx/modules` → the same .so
    /// files for `load_module`). Debian's modules-enabled holds modules built for 1.22,
    /// which the builds from source refuse: they check the layouts without a modules
    /// include (`nginx-org`, `docker`, whose `load_module modules/…` resolves to the
    /// build's own brotli modules through `-p`) and `rhel`, whose
    /// `/usr/share/nginx/modules/*.conf` glob matches nothing on Debian.
    pub layouts: &'static [&'static str],
    /// Whether the brotli modules exist for this binary.
    pub brotli: bool,
    /// Whether the binary has HTTP/3.
    pub http3: bool,
}

/// OpenSSL versions for a binary linked with Debian 12's OpenSSL 3.0: both sides of no gate
/// above 3.0.
pub const OPENSSL_3_0: &[&str] = &["1.1.1", "3.0", "3.0.2", "3.0.13"];
/// OpenSSL versions for a binary linked with OpenSSL 3.5: below and at the post-quantum
/// gate.
pub const OPENSSL_3_5: &[&str] = &["1.1.1", "3.0", "3.0.13", "3.2", "3.5", "3.5.0"];

/// Debian 12's nginx 1.22.1 with the brotli modules.
pub const NGINX_1_22: Target = Target {
    nginx_version: "1.22.1",
    openssl_versions: OPENSSL_3_0,
    layouts: &["debian", "rhel", "nginx-org", "docker"],
    brotli: true,
    http3: false,
};
/// nginx 1.26.3 of Debian 13 built by `scripts/build-nginx.sh 1.26` (Debian's module set,
/// HTTP/3, `ngx_brotli` as dynamic modules), Debian 12's OpenSSL 3.0.
pub const NGINX_1_26: Target = Target {
    nginx_version: "1.26.3",
    openssl_versions: OPENSSL_3_0,
    layouts: &["rhel", "nginx-org", "docker"],
    brotli: true,
    http3: true,
};
/// nginx 1.30.x of Debian unstable, built like 1.26 (`scripts/build-nginx.sh 1.30`); the
/// patch version is the binary's (see [`Target::for_version`]).
pub const NGINX_1_30: Target = Target {
    nginx_version: "1.30.0",
    openssl_versions: OPENSSL_3_0,
    layouts: &["rhel", "nginx-org", "docker"],
    brotli: true,
    http3: true,
};
/// nginx 1.30.x linked statically with OpenSSL 3.5 of Debian 13
/// (`scripts/build-nginx.sh 1.30-openssl3.5`).
pub const NGINX_1_30_OPENSSL_3_5: Target = Target {
    openssl_versions: OPENSSL_3_5,
    ..NGINX_1_30
};
/// nginx 1.26.3 with OpenSSL 3.5, the stand-in where unstable's nginx source cannot be
/// fetched (`scripts/build-nginx.sh 1.26-openssl3.5`).
pub const NGINX_1_26_OPENSSL_3_5: Target = Target {
    openssl_versions: OPENSSL_3_5,
    ..NGINX_1_26
};

impl Target {
    /// Whether the binary can look upstream names up again (`server … resolve`, 1.27.3).
    pub fn resolve(&self) -> bool {
        self.nginx_version
            .parse::<nginx_gen_core::Version>()
            .is_ok_and(|v| v >= nginx_gen_core::policy::Feature::UpstreamResolve.since())
    }
    /// This target for the exact version a binary reports (`1.30.6`): the grid's trees name
    /// the version of the binary that checks them.
    #[must_use]
    pub fn for_version(&self, version: &str) -> Self {
        Self {
            nginx_version: Box::leak(version.to_owned().into_boxed_str()),
            ..self.clone()
        }
    }
}

fn size_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (256u64..=65536).prop_map(|m| format!("{m}M")),
        (1u64..=512).prop_map(|g| format!("{g}G")),
        (1u64..=64).prop_map(|g| format!("{g}GiB")),
        (1u64..=32, 1u64..=9).prop_map(|(g, f)| format!("{g}.{f}G")),
        Just("16T".to_owned()),
        Just("256MiB".to_owned()),
        Just("8 GB".to_owned()),
    ]
}

fn response_size() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u64..=1024).prop_map(|k| format!("{k}K")),
        (1u64..=1024).prop_map(|m| format!("{m}M")),
        (1024u64..=1_000_000).prop_map(|b| b.to_string()),
        Just("1G".to_owned()),
        Just("1.5K".to_owned()),
    ]
}

fn label() -> impl Strategy<Value = String> {
    "[a-z0-9]([a-z0-9-]{0,14}[a-z0-9])?"
}

/// Host names nginx can match: plain, wildcard, leading dot, `_`, IP addresses.
fn server_name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (label(), label(), prop_oneof![Just("com"), Just("org"), Just("example"), Just("test")]).prop_map(|(a, b, t)| format!("{a}.{b}.{t}")),
        3 => (label(), prop_oneof![Just("com"), Just("net")]).prop_map(|(a, t)| format!("{a}.{t}")),
        2 => label().prop_map(|a| format!("*.{a}.example")),
        1 => label().prop_map(|a| format!(".{a}.example")),
        1 => Just("_".to_owned()),
        1 => Just("localhost".to_owned()),
        1 => (1u8..=254, 0u8..=255).prop_map(|(a, b)| format!("198.51.{b}.{a}")),
        1 => Just("2001:db8::1".to_owned()),
        1 => "[A-Z]{1,8}\\.EXAMPLE\\.COM",
    ]
}

/// Plain-HTTP ports. gixy-ng's `weak_ssl_tls` and `hsts_header` take any `listen` whose
/// text contains "443" for a TLS listener (a MEDIUM false positive on plain HTTP served on
/// 8443, 14430 …), so the grid's plain port never contains "443"; plain HTTP on 443 itself
/// is reported as finding F3 (docs/verification.md).
fn plain_port() -> impl Strategy<Value = u16> {
    prop_oneof![Just(80u16), Just(8080), Just(8000), 1u16..=65535]
        .prop_filter("gixy reads \"443\" in a listen as TLS", |p| {
            !p.to_string().contains("443")
        })
}

fn listen() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => plain_port().prop_map(|p| p.to_string()),
        1 => plain_port().prop_map(|p| format!("*:{p}")),
        1 => plain_port().prop_map(|p| format!("127.0.0.1:{p}")),
        1 => plain_port().prop_map(|p| format!("0.0.0.0:{p}")),
        1 => plain_port().prop_map(|p| format!("[::]:{p}")),
        1 => plain_port().prop_map(|p| format!("[::1]:{p}")),
    ]
}

/// Upstreams whose names resolve on the checking machine: `nginx -t` resolves upstream
/// host names at start-up, so names other than `localhost` would fail there (and only
/// there).
fn upstream() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (1u16..=65535).prop_map(|p| format!("127.0.0.1:{p}")),
        2 => (1u8..=254, 1u16..=65535).prop_map(|(h, p)| format!("10.0.0.{h}:{p}")),
        1 => (1u16..=65535).prop_map(|p| format!("[::1]:{p}")),
        1 => (1u16..=65535).prop_map(|p| format!("[2001:db8::5]:{p}")),
        1 => (1u16..=65535).prop_map(|p| format!("localhost:{p}")),
        1 => (1u16..=65535).prop_map(|p| format!("LOCALHOST:{p}")),
        1 => "[a-z]{1,8}".prop_map(|s| format!("unix:/run/{s}.sock")),
    ]
}

fn cidr() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("10.0.0.0/8".to_owned()),
        Just("172.16.0.0/12".to_owned()),
        Just("192.168.0.0/16".to_owned()),
        (0u8..=255, 0u8..=32).prop_map(|(a, m)| format!("100.{a}.0.0/{}", m.max(16))),
        (1u8..=254).prop_map(|a| format!("203.0.113.{a}")),
        Just("2001:db8::/32".to_owned()),
        Just("fd00::/8".to_owned()),
    ]
}

fn safe_path() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("/var/www/html".to_owned()),
        Just("/srv/www".to_owned()),
        "/[a-zA-Z0-9_.+@%,:=~-]{1,12}(/[a-zA-Z0-9_+@%,:=~-]{1,12}){0,3}"
            .prop_filter("no ..", |p| !p.split('/').any(|s| s == ".." || s == ".")),
    ]
}

fn list<T: Strategy<Value = String>>(s: T, max: usize) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(s, 1..=max).prop_map(|mut v| {
        let mut seen = std::collections::HashSet::new();
        v.retain(|x| seen.insert(x.to_ascii_lowercase()));
        v
    })
}

/// Every field of the input document, valid for `target`. `cert` and `key` are the
/// certificate paths to use when TLS is on (`nginx -t` loads them).
pub fn raw_inputs(
    target: &Target,
    cert: String,
    key: String,
) -> impl Strategy<Value = RawInputs> + use<> {
    let machine = (
        prop_oneof![4 => 1u32..=16, 1 => 17u32..=1024],
        size_text(),
        prop_oneof![
            Just("static"),
            Just("proxy"),
            Just("api"),
            Just("mixed"),
            Just("php")
        ],
        proptest::sample::select(target.openssl_versions.to_vec()),
        proptest::option::of(prop_oneof![1u32..=10_000_000, 1u32..=100_000]),
        prop_oneof![0u32..=100, 0u32..=100_000_000],
        response_size(),
        any::<bool>(),
        any::<bool>(),
    );
    let site = (
        list(server_name(), 4),
        proptest::option::of(safe_path()),
        list(listen(), 2),
        list(upstream(), 4),
        any::<bool>(),
        list(cidr(), 4),
        proptest::sample::select(target.layouts.to_vec()),
        prop_oneof![Just("en"), Just("de"), Just("nl"), Just("ru"), Just("es")],
    );
    let tls = (
        any::<bool>(),
        prop_oneof![Just("intermediate"), Just("modern")],
        prop_oneof![Just(443u16), Just(8443), 1u16..=65535],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just("timing"), Just("json"), Just("combined"), Just("off")],
        prop_oneof![Just(81u32), Just(0), Just(9113)],
        // The client address: as connected, Cloudflare's header, the PROXY protocol.
        0u8..3,
    );
    let php = (
        prop_oneof![
            Just("8.1"),
            Just("8.2"),
            Just("8.3"),
            Just("8.4"),
            Just("8.5")
        ],
        prop_oneof![Just("64M"), Just("24M"), Just("1G")],
    );
    let version = target.nginx_version;
    let allow_brotli = target.brotli;
    let allow_http3 = target.http3;
    let allow_resolve = target.resolve();
    (machine, site, tls, php).prop_map(move |(m, s, t, (php_version, php_child))| {
        let (vcpu, ram, workload, openssl, clients, static_files, response, cache, by_name) = m;
        let (server_names, root, listen, mut upstreams, behind_lb, trusted, layout, lang) = s;
        // An application by name, looked up again where nginx can (no DNS answers here:
        // with `resolve` nginx starts without one).
        let resolve = by_name && allow_resolve && !matches!(workload, "static" | "php");
        if resolve {
            upstreams.push("app.internal:3000".into());
        }
        let (tls, profile, tls_port, ocsp, http3, brotli, text_numbers, access_log, status, addr) =
            t;
        let http3 = tls && http3 && allow_http3;
        let number = |n: u32| {
            if text_numbers {
                nginx_gen_core::inputs::Scalar::Text(n.to_string())
            } else {
                n.into()
            }
        };
        // The other names sent to the first, where that is a single host and none is `_`.
        let canonical = brotli
            && server_names.len() > 1
            && !server_names[0].starts_with(['*', '.'])
            && server_names.iter().all(|n| n != "_");
        RawInputs {
            vcpu: Some(number(vcpu)),
            ram: Some(ram),
            // A database beside nginx now and then (too much for the smallest RAM: skipped).
            other_memory: Some(if cache && text_numbers { "64M" } else { "0" }.into()),
            workload: Some(workload.into()),
            // The versions are given: the release would only set their defaults.
            release: None,
            existing_default_server: Some(false),
            nginx_version: Some(version.into()),
            openssl_version: Some(openssl.into()),
            tls: Some(tls),
            tls_cert: tls.then(|| cert.clone()),
            tls_key: tls.then(|| key.clone()),
            tls_profile: Some(profile.into()),
            tls_port: Some(number(u32::from(tls_port))),
            ocsp_stapling: Some(tls && ocsp),
            http3: Some(http3),
            server_names: Some(server_names),
            canonical: Some(canonical),
            root,
            listen: Some(listen),
            upstreams: Some(upstreams),
            clients: clients.map(number),
            static_files: Some(number(static_files)),
            response_size: Some(response),
            behind_lb: Some(behind_lb),
            trusted_proxies: Some(trusted),
            // On this Debian machine the rhel layout's module glob matches nothing, so
            // brotli directives would be unknown there (on RHEL the generator warns that
            // the packages lack brotli).
            brotli: Some(brotli && allow_brotli && layout != "rhel"),
            layout: Some(layout.into()),
            lang: Some(lang.into()),
            policy: None,
            // The grid keeps serving TLS (nginx -t loads the certificate); bootstrap is
            // covered by the behaviour suite and the rule tests.
            bootstrap: Some(false),
            max_body_size: Some(if text_numbers {
                "2M".into()
            } else {
                "64m".into()
            }),
            resolver: (tls && ocsp && text_numbers).then(|| "127.0.0.1".into()),
            // Detected facts: kTLS (ssl_conf_command), a low fs.file-max (written).
            ktls: Some(brotli != behind_lb),
            file_max: text_numbers.then(|| number(100_000)),
            access_log: Some(access_log.into()),
            status_port: Some(number(status)),
            // Micro-caching where there is an application; its header now and then.
            cache: Some(
                if cache && workload != "static" {
                    "micro"
                } else {
                    "off"
                }
                .into(),
            ),
            cache_status: Some(cache && workload != "static" && text_numbers),
            php_version: Some(php_version.into()),
            php_child_memory: Some(php_child.into()),
            cdn: Some(if addr == 1 { "cloudflare" } else { "none" }.into()),
            proxy_protocol: Some(addr == 2 && !behind_lb && !http3),
            upstream_resolve: Some(resolve),
            // Every HSTS scope that sends the header, with TLS ("off" is the user's
            // choice that gixy's hsts_header rightly reports; the behaviour suite and the
            // rule tests cover it).
            hsts: tls.then(|| ["host", "subdomains", "preload"][usize::from(addr)].into()),
            // A single-page application, on every other static tree.
            spa: Some(workload == "static" && text_numbers),
            // Rate limits with every address source but one.
            rate_limit: Some(addr != 0 || behind_lb),
            // Stricter paths with and without the general limits.
            limit_paths: (addr == 2 || behind_lb).then(|| vec!["/login".into(), "/api/".into()]),
        }
    })
}

/// `cases` valid inputs for `target`, reproducible from `seed`. Inputs that validation
/// rejects (a TLS port equal to the listen port) are skipped, not counted.
pub fn grid(
    target: &Target,
    cases: usize,
    seed: u64,
    cert: &str,
    key: &str,
) -> Vec<(RawInputs, Inputs)> {
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let strategy = raw_inputs(target, cert.to_owned(), key.to_owned());
    let mut out = Vec::with_capacity(cases);
    let mut attempts = 0;
    while out.len() < cases {
        attempts += 1;
        assert!(
            attempts < cases * 10 + 100,
            "the strategy produces too many invalid inputs"
        );
        let raw = strategy
            .new_tree(&mut runner)
            .expect("strategy never rejects")
            .current();
        if let Ok(inputs) = Inputs::from_raw(&raw) {
            out.push((raw, inputs));
        }
    }
    out
}

/// Every field over its whole range, for checks that need no real nginx (parse-back,
/// fuzz seeds): any nginx and OpenSSL version, every layout, optional certificate paths.
pub fn any_inputs() -> impl Strategy<Value = RawInputs> {
    let all = Target {
        nginx_version: "1.30",
        openssl_versions: OPENSSL_3_5,
        layouts: &["debian", "rhel", "nginx-org", "docker"],
        brotli: true,
        http3: true,
    };
    let versions = prop_oneof![
        Just("1.18"),
        Just("1.20.2"),
        Just("1.22.1"),
        Just("1.24.0"),
        Just("1.25.0"),
        Just("1.25.1"),
        Just("1.26.3"),
        Just("1.27.3"),
        Just("1.28.0"),
        Just("1.29.7"),
        Just("1.30"),
        Just("1.31.4"),
    ];
    let openssl = prop_oneof![
        Just("1.1.1"),
        Just("3.0"),
        Just("3.3"),
        Just("3.5"),
        Just("3.6.1")
    ];
    (
        raw_inputs(&all, String::new(), String::new()),
        versions,
        openssl,
        proptest::option::of((safe_path(), safe_path())),
    )
        .prop_map(|(mut raw, v, o, paths)| {
            raw.nginx_version = Some(v.into());
            raw.openssl_version = Some(o.into());
            (raw.tls_cert, raw.tls_key) = match paths {
                Some((c, k)) if raw.tls == Some(true) => (Some(c), Some(k)),
                _ => (None, None),
            };
            raw
        })
}
