//! TLS: protocols and ciphers from the guideline, sessions, certificates, stapling.

use std::borrow::Cow;

use super::formula::Formula;
use super::{Ctx, Decide, Out, Rule, Text};
use crate::inputs::TlsProfile;
use crate::plan::{Scope, ServerRole};
use crate::policy::{Feature, TLS_GUIDELINE};

const H: Scope = Scope::Http;

pub(super) static SSL_PROTOCOLS: Rule = Rule {
    name: "ssl_protocols",
    texts: &[
        Text::new(
            "ssl_protocols",
            "Mozilla intermediate: TLS 1.2 and 1.3. Written out because older nginx and Debian's stock configuration still enable TLS 1.0 and 1.1.",
        )
        .inputs(&["tls_profile"]),
        Text::new(
            "ssl_protocols.modern",
            "Mozilla modern: TLS 1.3 only; its cipher suites need no configuration.",
        )
        .inputs(&["tls_profile"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        let profile = TLS_GUIDELINE.profile(c.i.tls_profile);
        let text = match c.i.tls_profile {
            TlsProfile::Intermediate => &SSL_PROTOCOLS.texts[0],
            TlsProfile::Modern => &SSL_PROTOCOLS.texts[1],
        };
        out.set(H, profile.protocols, text);
    }),
};

pub(super) static SSL_CIPHERS: Rule = Rule {
    name: "ssl_ciphers",
    texts: &[Text::new(
        "ssl_ciphers",
        "Mozilla intermediate (guideline 6.0): forward-secret AEAD suites only; no DHE, so no dhparam file.",
    )
    .inputs(&["tls_profile"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (true, Some(ciphers)) = (c.i.tls, TLS_GUIDELINE.profile(c.i.tls_profile).ciphers) {
            out.set_words(H, &[ciphers], &SSL_CIPHERS.texts[0]);
        }
    }),
};

pub(super) static SSL_PREFER_SERVER_CIPHERS: Rule = Rule {
    name: "ssl_prefer_server_ciphers",
    texts: &[
        Text::new(
            "ssl_prefer_server_ciphers",
            "The client picks, as Mozilla says (every offered suite is strong): nginx before {SslConfCommand}, which these files must run on, cannot set the TLS 1.3 order, and OpenSSL's own would pick AES-256-GCM for every client.",
        )
        .inputs(&["nginx_version"]),
        Text::new(
            "ssl_prefer_server_ciphers.server",
            "The server picks among Mozilla's suites, AES-128-GCM first (ssl_conf_command Ciphersuites below), whose SHA-256 key schedule costs less than AES-256-GCM's SHA-384. Browsers ask for AES-128 first anyway; OpenSSL's clients (curl, Python, Node.js) ask for AES-256 first, and given AES-128 they cost nginx 4 % less CPU per full handshake and 7 % less per resumption (docs/benchmarks.md). A client that asks for ChaCha20 first, having no AES hardware, still gets it (PrioritizeChaCha below). Mozilla leaves the pick to the client, as nginx-gen does for nginx before {SslConfCommand}, which cannot set the TLS 1.3 order.",
        )
        .inputs(&["nginx_version"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        let texts = SSL_PREFER_SERVER_CIPHERS.texts;
        let (arg, text) = if server_order(c) {
            ("on", &texts[1])
        } else {
            ("off", &texts[0])
        };
        let f = Formula::version_gate("nginx", c.v.nginx, Feature::SslConfCommand.since());
        out.set_args(H, vec![arg.into()], text, Some(f));
    }),
};

/// Whether the server picks the TLS suite: where nginx can set the TLS 1.3 order and the
/// exception for clients without AES hardware (`ssl_conf_command`), so its order is
/// Mozilla's and those clients keep their `ChaCha20`. (Both callers serve TLS already.)
fn server_order(c: &Ctx) -> bool {
    c.v.has(Feature::SslConfCommand)
}

pub(super) static SSL_ECDH_CURVE: Rule = Rule {
    name: "ssl_ecdh_curve",
    texts: &[Text::new(
        "ssl_ecdh_curve",
        "Mozilla's key-exchange groups; the post-quantum X25519MLKEM768 only with OpenSSL ≥ {PostQuantumKex}, where older versions would refuse the whole list, and marked `?` so that an OpenSSL built without it skips that group instead of failing to start.",
    )
    .inputs(&["openssl_version"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        let pq = c.v.has(Feature::PostQuantumKex);
        let groups: std::borrow::Cow<'static, str> = if pq {
            tolerant_groups(TLS_GUIDELINE.groups_post_quantum).into()
        } else {
            TLS_GUIDELINE.groups.into()
        };
        let f = Formula::version_gate("OpenSSL", c.v.openssl, Feature::PostQuantumKex.since());
        out.set_args(H, vec![groups], &SSL_ECDH_CURVE.texts[0], Some(f));
    }),
};

/// Marks each post-quantum group of an OpenSSL group list with `?` (OpenSSL ≥ 3.3 skips a
/// `?` group it does not know instead of rejecting the whole list): the same groups in the
/// same order where OpenSSL has them, and nginx still starts where a build lacks them (a
/// distribution's OpenSSL 3.5 without ML-KEM, a FIPS provider). gixy-ng and Gixy-Next rate
/// a post-quantum group without `?` HIGH/MEDIUM for that reason.
fn tolerant_groups(list: &str) -> String {
    list.split(':')
        .map(|g| {
            // Byte windows, not `str::contains`: the substring search is 1.6 KB of the
            // browser builds, for two five-letter words.
            let upper = g.to_ascii_uppercase().into_bytes();
            if upper.windows(5).any(|w| w == b"MLKEM" || w == b"KYBER") {
                format!("?{g}")
            } else {
                g.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(":")
}

pub(super) static SSL_SESSION_CACHE: Rule = Rule {
    name: "ssl_session_cache",
    texts: &[Text::new(
        "ssl_session_cache",
        "Shared by all workers; one MiB holds about 4000 sessions. Sized for the sessions a day brings when each planned client starts one per five-minute visit, within a 64th of nginx's memory budget.",
    )
    .inputs(&["clients", "vcpu", "ram", "other_memory"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls {
            let arg = format!("shared:SSL:{}m", c.t.session_cache_mib);
            let f = c.t.formulas.session_cache.clone();
            out.set_args(H, vec![arg.into()], &SSL_SESSION_CACHE.texts[0], Some(f));
        }
    }),
};

pub(super) static SSL_SESSION_TIMEOUT: Rule = Rule {
    name: "ssl_session_timeout",
    texts: &[
        Text::new(
            "ssl_session_timeout",
            "Returning visitors resume sessions for a day (Mozilla), skipping a full handshake; the session cache holds a day's sessions.",
        ),
        Text::new(
            "ssl_session_timeout.cache",
            "How long the session cache holds a session at the planned clients: a longer timeout would only pretend, because the cache evicts older sessions first.",
        )
        .inputs(&["clients", "ram", "other_memory"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        match (c.t.session_timeout, &c.t.formulas.session_timeout) {
            (Some(seconds), Some(f)) => {
                let text = &SSL_SESSION_TIMEOUT.texts[1];
                out.set_args(H, vec![format!("{seconds}s").into()], text, Some(f.clone()));
            }
            _ => out.set(H, &["1d"], &SSL_SESSION_TIMEOUT.texts[0]),
        }
    }),
};

pub(super) static SSL_SESSION_TICKETS: Rule = Rule {
    name: "ssl_session_tickets",
    texts: &[
        Text::new(
            "omit.ssl_session_tickets",
            "nginx ≥ {TicketKeyRotation} rotates ticket keys itself when a shared session cache is set; turning tickets off only costs resumptions.",
        ),
        Text::new(
            "ssl_session_tickets",
            "Before nginx {TicketKeyRotation} ticket keys never rotate, which undoes forward secrecy (Mozilla).",
        )
        .inputs(&["nginx_version"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        if c.v.has(Feature::TicketKeyRotation) {
            out.omit(H, &SSL_SESSION_TICKETS.texts[0]);
        } else {
            out.set(H, &["off"], &SSL_SESSION_TICKETS.texts[1]);
        }
    }),
};

pub(super) static SSL_BUFFER_SIZE: Rule = Rule {
    name: "ssl_buffer_size",
    texts: &[Text::new(
        "ssl_buffer_size",
        "Smaller TLS records deliver the first bytes of dynamic responses sooner.",
    )
    .inputs(&["workload"])],
    decide: Decide::When {
        when: |c| c.i.tls && c.i.workload.dynamic(),
        scope: H,
        args: &["4k"],
    },
};

pub(super) static SSL_CONF_COMMAND: Rule = Rule {
    name: "ssl_conf_command",
    texts: &[
        Text::new(
            "ssl_conf_command.ktls",
            "Kernel TLS: the kernel encrypts the records, so sendfile works over TLS too and files go from the page cache to the socket, not copied through OpenSSL.",
        )
        .inputs(&["ktls", "nginx_version", "openssl_version"]),
        Text::new(
            "omit.ssl_conf_command.ktls",
            "Kernel TLS needs the kernel's tls module (not detected here), nginx {KtlsSendfile} and OpenSSL {KtlsOpenSsl}; without it sendfile applies to plain HTTP only.",
        )
        .inputs(&["ktls"]),
        Text::new(
            "ssl_conf_command.tickets",
            "One TLS 1.3 session ticket, not OpenSSL's two: each resumption brings a new one, and a full handshake took 5 % less CPU (docs/benchmarks.md).",
        )
        .inputs(&["nginx_version"]),
        Text::new(
            "ssl_conf_command.ciphersuites",
            "Mozilla's TLS 1.3 suites in Mozilla's order, AES-128-GCM first, for the server's pick above; OpenSSL's own order starts with AES-256-GCM.",
        )
        .inputs(&["nginx_version"]),
        Text::new(
            "ssl_conf_command.chacha",
            "A client that lists ChaCha20 first, as devices without AES hardware do, gets ChaCha20 despite the server's order.",
        )
        .inputs(&["nginx_version"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        let texts = SSL_CONF_COMMAND.texts;
        if c.i.ktls && c.v.has(Feature::KtlsSendfile) && c.v.has(Feature::KtlsOpenSsl) {
            out.set(H, &["Options", "KTLS"], &texts[0]);
        } else {
            out.omit(H, &texts[1]);
        }
        if c.v.has(Feature::SslConfCommand) {
            out.set(H, &["NumTickets", "1"], &texts[2]);
        }
        if server_order(c) {
            out.set(H, &["Ciphersuites", TLS_GUIDELINE.ciphersuites], &texts[3]);
            out.set(H, &["Options", "PrioritizeChaCha"], &texts[4]);
        }
    }),
};

pub(super) static SSL_REJECT_HANDSHAKE: Rule = Rule {
    name: "ssl_reject_handshake",
    texts: &[Text::new(
        "ssl_reject_handshake",
        "Refuse TLS for unknown host names without presenting the site's certificate.",
    )
    .inputs(&["nginx_version"])],
    decide: Decide::When {
        when: |c| c.catch_all_tls() && !c.i.behind_lb && c.v.has(Feature::SslRejectHandshake),
        scope: Scope::Server {
            server: ServerRole::CatchAllTls,
        },
        args: &["on"],
    },
};

/// The certificate's and key's paths: given, or Let's Encrypt's for the first name.
fn certificate_paths(c: &Ctx) -> (String, String) {
    c.i.certificate_paths()
}

/// Whether the TLS catch-all must present a certificate: before `ssl_reject_handshake`
/// nginx cannot refuse a handshake without one, and behind a load balancer its health
/// probes connect without SNI and must complete the handshake.
fn catch_all_needs_certificate(c: &Ctx) -> bool {
    c.catch_all_tls() && (c.i.behind_lb || !c.v.has(Feature::SslRejectHandshake))
}

const CERTIFICATE: Text = Text::new(
    "ssl_certificate",
    "The certificate chain (Let's Encrypt's path unless one is given).",
)
.inputs(&["tls_cert", "server_names"]);

const KEY: Text = Text::new(
    "ssl_certificate_key",
    "The private key of that certificate.",
)
.inputs(&["tls_key", "server_names"]);

pub(super) static SSL_CERTIFICATE_CATCH_ALL: Rule = Rule {
    name: "ssl_certificate",
    texts: &[CERTIFICATE],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if catch_all_needs_certificate(c) {
            let scope = Scope::Server {
                server: ServerRole::CatchAllTls,
            };
            out.set_args(
                scope,
                vec![certificate_paths(c).0.into()],
                &CERTIFICATE,
                None,
            );
        }
    }),
};

pub(super) static SSL_CERTIFICATE_KEY_CATCH_ALL: Rule = Rule {
    name: "ssl_certificate_key",
    texts: &[KEY],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if catch_all_needs_certificate(c) {
            let scope = Scope::Server {
                server: ServerRole::CatchAllTls,
            };
            out.set_args(scope, vec![certificate_paths(c).1.into()], &KEY, None);
        }
    }),
};

pub(super) static SSL_CERTIFICATE: Rule = Rule {
    name: "ssl_certificate",
    texts: &[CERTIFICATE],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        for scope in c.https_servers() {
            out.set_args(
                scope,
                vec![certificate_paths(c).0.into()],
                &CERTIFICATE,
                None,
            );
        }
    }),
};

pub(super) static SSL_CERTIFICATE_KEY: Rule = Rule {
    name: "ssl_certificate_key",
    texts: &[KEY],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        for scope in c.https_servers() {
            out.set_args(scope, vec![certificate_paths(c).1.into()], &KEY, None);
        }
    }),
};

const SITE_TLS: Scope = Scope::Server {
    server: ServerRole::SiteTls,
};

pub(super) static SSL_STAPLING: Rule = Rule {
    name: "ssl_stapling",
    texts: &[
        Text::new(
            "ssl_stapling",
            "Staple the CA's OCSP response (asked for; does nothing for certificates without an OCSP URL, such as Let's Encrypt's since 2025).",
        )
        .inputs(&["ocsp_stapling"]),
        Text::new(
            "omit.ssl_stapling",
            "Let's Encrypt ended OCSP in 2025; stapling its certificates only logs a warning. Opt in with --ocsp-stapling for CAs that still run OCSP.",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        if c.i.ocsp_stapling {
            for scope in c.https_servers() {
                out.set(scope, &["on"], &SSL_STAPLING.texts[0]);
            }
        } else {
            out.omit(SITE_TLS, &SSL_STAPLING.texts[1]);
        }
    }),
};

fn stapling(c: &Ctx) -> bool {
    c.i.tls && c.i.ocsp_stapling
}

pub(super) static SSL_STAPLING_VERIFY: Rule = Rule {
    name: "ssl_stapling_verify",
    texts: &[Text::new(
        "ssl_stapling_verify",
        "Check the stapled response before sending it.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if stapling(c) {
            for scope in c.https_servers() {
                out.set(scope, &["on"], &SSL_STAPLING_VERIFY.texts[0]);
            }
        }
    }),
};

pub(super) static SSL_TRUSTED_CERTIFICATE: Rule = Rule {
    name: "ssl_trusted_certificate",
    texts: &[Text::new(
        "ssl_trusted_certificate",
        "Verifying a stapled response needs the issuer's chain: Let's Encrypt's chain.pem next to the certificate, or the given chain itself.",
    )
    .inputs(&["ocsp_stapling", "tls_cert"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if stapling(c) {
            let chain = match &c.i.tls_cert {
                Some(cert) => cert.as_str().to_owned(),
                None => format!(
                    "/etc/letsencrypt/live/{}/chain.pem",
                    c.i.primary_name().file_stem()
                ),
            };
            let text = &SSL_TRUSTED_CERTIFICATE.texts[0];
            for scope in c.https_servers() {
                out.set_args(scope, vec![chain.clone().into()], text, None);
            }
        }
    }),
};

pub(super) static RESOLVER: Rule = Rule {
    name: "resolver",
    texts: &[
        Text::new(
            "resolver",
            "Stapling looks up the OCSP responder's name: the host's DNS server.",
        )
        .inputs(&["ocsp_stapling", "resolver"]),
        Text::new(
            "resolver.layout",
            "Stapling looks up the OCSP responder's name: the layout's usual DNS server (Docker's embedded DNS in a container, else systemd-resolved's stub); pass --resolver if this host uses another.",
        )
        .inputs(&["ocsp_stapling", "layout"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !stapling(c) {
            return;
        }
        let (server, given) = resolver(c);
        let text = &RESOLVER.texts[usize::from(!given)];
        for scope in c.https_servers() {
            out.set_args(scope, vec![server.clone(), "valid=300s".into()], text, None);
        }
    }),
};

/// The DNS server nginx asks, and whether it was given (else the layout's usual one).
pub(super) fn resolver(c: &Ctx) -> (Cow<'static, str>, bool) {
    match c.i.resolver {
        Some(r) => (Cow::Owned(r.to_string()), true),
        None => (Cow::Borrowed(c.i.layout.resolver()), false),
    }
}

#[cfg(test)]
mod tests {
    use super::tolerant_groups;
    use crate::plan::{Plan, Scope, ServerRole};
    use crate::policy::TLS_GUIDELINE;
    use crate::rules::testing::{formula, omitted, plan, value, values, values_in};

    const TLS: &str = r#""tls":true,"server_names":["example.com"]"#;

    #[test]
    fn nothing_without_tls() {
        let p = plan("{}");
        for name in [
            "ssl_protocols",
            "ssl_ciphers",
            "ssl_session_cache",
            "ssl_certificate",
        ] {
            assert_eq!(values(&p, name), Vec::<String>::new(), "{name}");
        }
    }

    #[test]
    fn protocols_and_ciphers_by_profile() {
        let i = plan(&format!("{{{TLS}}}"));
        assert_eq!(
            value(&i, "ssl_protocols").as_deref(),
            Some("TLSv1.2 TLSv1.3")
        );
        assert!(
            value(&i, "ssl_ciphers")
                .unwrap()
                .starts_with("ECDHE-ECDSA-AES128-GCM-SHA256:")
        );
        let m = plan(&format!(r#"{{{TLS},"tls_profile":"modern"}}"#));
        assert_eq!(value(&m, "ssl_protocols").as_deref(), Some("TLSv1.3"));
        assert_eq!(value(&m, "ssl_ciphers"), None);
    }

    #[test]
    fn post_quantum_group_from_openssl_3_5() {
        let old = plan(&format!(r#"{{{TLS},"openssl_version":"3.0.2"}}"#));
        assert_eq!(
            value(&old, "ssl_ecdh_curve").as_deref(),
            Some("X25519:prime256v1:secp384r1")
        );
        assert_eq!(formula(&old, "ssl_ecdh_curve"), "OpenSSL 3.0.2 < 3.5.0");
        let new = plan(&format!(r#"{{{TLS},"openssl_version":"3.5.0"}}"#));
        assert_eq!(
            value(&new, "ssl_ecdh_curve").as_deref(),
            Some("?X25519MLKEM768:X25519:prime256v1:secp384r1")
        );
        assert_eq!(formula(&new, "ssl_ecdh_curve"), "OpenSSL 3.5.0 ≥ 3.5.0");
        let newer = plan(&format!(r#"{{{TLS},"openssl_version":"3.6.1"}}"#));
        assert_eq!(
            value(&newer, "ssl_ecdh_curve").as_deref(),
            Some("?X25519MLKEM768:X25519:prime256v1:secp384r1")
        );
    }

    #[test]
    fn only_post_quantum_groups_are_marked_optional() {
        // Mozilla's list keeps its groups and order; only the post-quantum ones get `?`.
        assert_eq!(
            tolerant_groups(TLS_GUIDELINE.groups_post_quantum)
                .split(':')
                .map(|g| g.trim_start_matches('?'))
                .collect::<Vec<_>>(),
            TLS_GUIDELINE
                .groups_post_quantum
                .split(':')
                .collect::<Vec<_>>()
        );
        assert_eq!(
            tolerant_groups("X25519:SecP256r1MLKEM768:x25519kyber768draft00"),
            "X25519:?SecP256r1MLKEM768:?x25519kyber768draft00"
        );
        assert_eq!(tolerant_groups(TLS_GUIDELINE.groups), TLS_GUIDELINE.groups);
    }

    #[test]
    fn session_cache_sized_for_its_timeout() {
        // A day of sessions fits: 100 clients × 288 visits = 28,800 sessions = 8 MiB.
        let small = plan(&format!(r#"{{{TLS},"clients":100}}"#));
        assert_eq!(
            value(&small, "ssl_session_cache").as_deref(),
            Some("shared:SSL:8m")
        );
        assert_eq!(value(&small, "ssl_session_timeout").as_deref(), Some("1d"));
        // The guide machine: a day would take 720 MiB; 56 MiB (a 64th of the budget)
        // hold 6720 s of sessions, and the timeout says so.
        let guide = plan(&format!("{{{TLS}}}"));
        assert_eq!(
            value(&guide, "ssl_session_cache").as_deref(),
            Some("shared:SSL:56m")
        );
        assert_eq!(
            formula(&guide, "ssl_session_cache"),
            "min(ceil(10000 clients × 288 visits a day / 4000 sessions) × 1m, 56m budget share) = 56m"
        );
        assert_eq!(
            value(&guide, "ssl_session_timeout").as_deref(),
            Some("6720s")
        );
        assert!(formula(&guide, "ssl_session_timeout").ends_with("= 6720"));
        let huge = plan(&format!(
            r#"{{{TLS},"vcpu":64,"ram":"1T","clients":10000000}}"#
        ));
        assert_eq!(
            value(&huge, "ssl_session_cache").as_deref(),
            Some("shared:SSL:1024m")
        );
    }

    #[test]
    fn ktls_where_the_kernel_and_both_versions_have_it() {
        let on = plan(&format!(
            r#"{{{TLS},"ktls":true,"nginx_version":"1.22.1","openssl_version":"3.0.2"}}"#
        ));
        assert_eq!(values(&on, "ssl_conf_command")[0], "Options KTLS");
        for off in [
            r#""ktls":false,"nginx_version":"1.22.1","openssl_version":"3.0.2""#,
            r#""ktls":true,"nginx_version":"1.20.2","openssl_version":"3.0.2""#,
            r#""ktls":true,"nginx_version":"1.22.1","openssl_version":"1.1.1""#,
        ] {
            let p = plan(&format!("{{{TLS},{off}}}"));
            assert!(omitted(&p, "ssl_conf_command"), "{off}");
        }
        assert!(values(&plan(r#"{"ktls":true}"#), "ssl_conf_command").is_empty());
    }

    #[test]
    fn one_session_ticket_where_nginx_takes_openssl_commands() {
        let tickets = |p: &Plan| values(p, "ssl_conf_command").contains(&"NumTickets 1".into());
        assert!(tickets(&plan(&format!(
            r#"{{{TLS},"nginx_version":"1.22.1"}}"#
        ))));
        assert!(!tickets(&plan(&format!(
            r#"{{{TLS},"nginx_version":"1.18.0"}}"#
        ))));
        assert!(!tickets(&plan(r#"{"nginx_version":"1.22.1"}"#)));
        let both = plan(&format!(
            r#"{{{TLS},"ktls":true,"nginx_version":"1.22.1","openssl_version":"3.0.2"}}"#
        ));
        assert_eq!(
            values(&both, "ssl_conf_command")[..2],
            ["Options KTLS", "NumTickets 1"]
        );
    }

    #[test]
    fn server_picks_the_suite_where_nginx_can_order_tls_1_3() {
        let commands = |p: &Plan| values(p, "ssl_conf_command");
        for profile in ["intermediate", "modern"] {
            let p = plan(&format!(
                r#"{{{TLS},"tls_profile":"{profile}","nginx_version":"1.22.1"}}"#
            ));
            assert_eq!(
                value(&p, "ssl_prefer_server_ciphers").as_deref(),
                Some("on")
            );
            assert_eq!(
                formula(&p, "ssl_prefer_server_ciphers"),
                "nginx 1.22.1 ≥ 1.19.4"
            );
            let c = commands(&p);
            assert!(c.contains(&format!("Ciphersuites {}", TLS_GUIDELINE.ciphersuites)));
            assert!(c.contains(&"Options PrioritizeChaCha".to_owned()), "{c:?}");
        }
        // Mozilla's order already starts with the cheaper suite the server then picks.
        assert!(
            TLS_GUIDELINE
                .ciphersuites
                .starts_with("TLS_AES_128_GCM_SHA256:")
        );
        // Where nginx cannot set the TLS 1.3 order, the client picks, as Mozilla says.
        let old = plan(&format!(r#"{{{TLS},"nginx_version":"1.18.0"}}"#));
        assert_eq!(
            value(&old, "ssl_prefer_server_ciphers").as_deref(),
            Some("off")
        );
        assert!(commands(&old).is_empty());
        assert_eq!(value(&plan("{}"), "ssl_prefer_server_ciphers"), None);
    }

    #[test]
    fn tickets_off_only_before_key_rotation() {
        let old = plan(&format!(r#"{{{TLS},"nginx_version":"1.23.1"}}"#));
        assert_eq!(value(&old, "ssl_session_tickets").as_deref(), Some("off"));
        let new = plan(&format!(r#"{{{TLS},"nginx_version":"1.23.2"}}"#));
        assert!(omitted(&new, "ssl_session_tickets"));
    }

    #[test]
    fn small_records_for_dynamic_responses() {
        assert_eq!(
            value(
                &plan(&format!(r#"{{{TLS},"workload":"proxy"}}"#)),
                "ssl_buffer_size"
            )
            .as_deref(),
            Some("4k")
        );
        assert_eq!(value(&plan(&format!("{{{TLS}}}")), "ssl_buffer_size"), None);
    }

    #[test]
    fn catch_all_refuses_or_presents_the_certificate() {
        let new = plan(&format!(r#"{{{TLS},"nginx_version":"1.19.4"}}"#));
        assert_eq!(value(&new, "ssl_reject_handshake").as_deref(), Some("on"));
        let catch_all = Scope::Server {
            server: ServerRole::CatchAllTls,
        };
        assert!(values_in(&new, catch_all, "ssl_certificate").is_empty());
        let old = plan(&format!(r#"{{{TLS},"nginx_version":"1.19.3"}}"#));
        assert_eq!(value(&old, "ssl_reject_handshake"), None);
        assert_eq!(
            values_in(&old, catch_all, "ssl_certificate"),
            ["/etc/letsencrypt/live/example.com/fullchain.pem"]
        );
        assert_eq!(values(&old, "ssl_certificate_key").len(), 2);
    }

    #[test]
    fn given_certificate_paths() {
        let p = plan(&format!(
            r#"{{{TLS},"nginx_version":"1.30","tls_cert":"/etc/ssl/site.pem","tls_key":"/etc/ssl/site.key"}}"#
        ));
        assert_eq!(
            value(&p, "ssl_certificate").as_deref(),
            Some("/etc/ssl/site.pem")
        );
        assert_eq!(
            value(&p, "ssl_certificate_key").as_deref(),
            Some("/etc/ssl/site.key")
        );
    }

    #[test]
    fn stapling_only_when_asked() {
        let off = plan(&format!("{{{TLS}}}"));
        assert!(omitted(&off, "ssl_stapling"));
        assert_eq!(value(&off, "resolver"), None);
        let on = plan(&format!(r#"{{{TLS},"ocsp_stapling":true}}"#));
        assert_eq!(value(&on, "ssl_stapling").as_deref(), Some("on"));
        assert_eq!(value(&on, "ssl_stapling_verify").as_deref(), Some("on"));
        assert_eq!(
            value(&on, "resolver").as_deref(),
            Some("127.0.0.53 valid=300s")
        );
    }

    #[test]
    fn stapling_is_complete_trusted_chain_and_resolver_by_host_or_layout() {
        let on = plan(&format!(r#"{{{TLS},"ocsp_stapling":true}}"#));
        assert_eq!(
            value(&on, "ssl_trusted_certificate").as_deref(),
            Some("/etc/letsencrypt/live/example.com/chain.pem")
        );
        let docker = plan(&format!(
            r#"{{{TLS},"ocsp_stapling":true,"layout":"docker"}}"#
        ));
        assert_eq!(
            value(&docker, "resolver").as_deref(),
            Some("127.0.0.11 valid=300s")
        );
        let host = plan(&format!(
            r#"{{{TLS},"ocsp_stapling":true,"resolver":"::1"}}"#
        ));
        assert_eq!(
            value(&host, "resolver").as_deref(),
            Some("[::1] valid=300s")
        );
        let given = plan(&format!(
            r#"{{{TLS},"ocsp_stapling":true,"tls_cert":"/etc/ssl/a.pem","tls_key":"/etc/ssl/a.key"}}"#
        ));
        assert_eq!(
            value(&given, "ssl_trusted_certificate").as_deref(),
            Some("/etc/ssl/a.pem")
        );
    }
}
