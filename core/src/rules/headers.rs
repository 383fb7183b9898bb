//! Response headers of the site, all at server level: an `add_header` inside a location
//! would silently drop these (gixy `add_header_redefinition`).

use super::{Ctx, Decide, Out, Rule, Text};
use crate::inputs::Hsts;
use crate::plan::{Scope, ServerRole, TableRole};

/// The reasons of `Strict-Transport-Security`, one per `hsts` choice (host, subdomains,
/// preload, off), shared by the site's HTTPS server and the TLS catch-all.
static HSTS_TEXTS: [Text; 4] = [
    Text::new(
        "hsts",
        "Browsers use HTTPS only, for two years (Mozilla).",
    )
    .inputs(&["tls", "hsts"]),
    Text::new(
        "hsts.subdomains",
        "Browsers use HTTPS only, for two years, for this name and every name under it (includeSubDomains). Every such name must answer over HTTPS first: a browser that saw this header cannot reach one that does not.",
    )
    .inputs(&["tls", "hsts"]),
    Text::new(
        "hsts.preload",
        "As with subdomains, and preload consents to the browsers' built-in list, so even a first visit uses HTTPS. The list takes the bare domain, submitted at hstspreload.org; it also wants plain HTTP redirected to HTTPS on the same name first, which the plain-HTTP server does (with canonical too). Leaving the list takes months of browser releases.",
    )
    .inputs(&["tls", "hsts"]),
    Text::new(
        "omit.hsts",
        "No Strict-Transport-Security (hsts off): browsers may keep trying plain HTTP first, whose redirect an attacker on the path can stop. Mozilla recommends two years.",
    )
    .inputs(&["tls", "hsts"]),
];

/// The header for the host alone: two years, Mozilla's recommendation.
const HSTS_HOST: &[&str] = &["Strict-Transport-Security", "max-age=63072000", "always"];

/// The header's value for the `hsts` choice, and its reason; `None` for off.
fn hsts(choice: Hsts) -> Option<(&'static [&'static str], &'static Text)> {
    match choice {
        Hsts::Host => Some((HSTS_HOST, &HSTS_TEXTS[0])),
        Hsts::Subdomains => Some((
            &[
                "Strict-Transport-Security",
                "max-age=63072000; includeSubDomains",
                "always",
            ],
            &HSTS_TEXTS[1],
        )),
        Hsts::Preload => Some((
            &[
                "Strict-Transport-Security",
                "max-age=63072000; includeSubDomains; preload",
                "always",
            ],
            &HSTS_TEXTS[2],
        )),
        Hsts::Off => None,
    }
}

pub(super) static HSTS: Rule = Rule {
    name: "add_header",
    texts: &HSTS_TEXTS,
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if !c.i.tls {
            return;
        }
        let Some((args, text)) = hsts(c.i.hsts) else {
            let site = Scope::Server {
                server: ServerRole::SiteTls,
            };
            out.omit(site, &HSTS_TEXTS[3]);
            return;
        };
        // The other names' redirects too: a browser that first reaches www.example.com
        // over HTTPS learns it there.
        for scope in c.https_servers() {
            out.set(scope, args, text);
        }
    }),
};

pub(super) static HSTS_CATCH_ALL: Rule = Rule {
    name: "add_header",
    texts: &HSTS_TEXTS,
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        // The TLS catch-all completes handshakes (before ssl_reject_handshake, or behind a
        // load balancer whose probes send no SNI): its answers carry the host's header, not
        // a claim on the subdomains or the preload list of a name it does not serve.
        let answers = c.catch_all_tls()
            && (c.i.behind_lb || !c.v.has(crate::policy::Feature::SslRejectHandshake));
        if answers && c.i.hsts != Hsts::Off {
            let scope = Scope::Server {
                server: ServerRole::CatchAllTls,
            };
            out.set(scope, HSTS_HOST, &HSTS_TEXTS[0]);
        }
    }),
};

pub(super) static ALT_SVC: Rule = Rule {
    name: "add_header",
    texts: &[
        Text::new("alt_svc", "Tell browsers HTTP/3 is available on this port.")
            .inputs(&["http3", "tls_port"]),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.tls && c.i.http3 {
            let args = vec![
                "Alt-Svc".into(),
                format!("h3=\":{}\"; ma=86400", c.i.tls_port).into(),
                "always".into(),
            ];
            let scope = Scope::Server {
                server: ServerRole::SiteTls,
            };
            out.set_args(scope, args, &ALT_SVC.texts[0], None);
        }
    }),
};

pub(super) static APP_HEADERS: Rule = Rule {
    name: "add_header X-Frame-Options, X-Content-Type-Options",
    texts: &[Text::new(
        "omit.header.app",
        "The application sets these itself (Django, Rails, Spring Security and helmet do by default). nginx would add a second copy, and two different X-Frame-Options values make browsers ignore both.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.workload.proxies() {
            out.omit(
                Scope::Server {
                    server: c.content_server(),
                },
                &APP_HEADERS.texts[0],
            );
        }
    }),
};

/// nginx sets the site's own headers: the workload serves files (an application behind
/// nginx sets its own).
fn sets_own_headers(c: &Ctx) -> bool {
    !c.i.workload.proxies()
}

/// A header of the site's own responses, where [`sets_own_headers`].
fn own_header(c: &Ctx, out: &mut Out, args: &'static [&'static str], text: &Text) {
    if sets_own_headers(c) {
        out.set(
            Scope::Server {
                server: c.content_server(),
            },
            args,
            text,
        );
    }
}

pub(super) static NOSNIFF: Rule = Rule {
    name: "add_header",
    texts: &[Text::new(
        "header.nosniff",
        "Browsers must not guess content types. All headers are set at this one level, because an add_header inside a location would drop them. With Vary they add about 85 bytes to a response: 0.3 % of a 30 KB page on a full link (docs/benchmarks.md).",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        own_header(
            c,
            out,
            &["X-Content-Type-Options", "nosniff", "always"],
            &NOSNIFF.texts[0],
        );
    }),
};

pub(super) static FRAME_OPTIONS_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.frame_options",
        "SAMEORIGIN for HTML pages without their own; no header for other types.",
    )],
    decide: Decide::When {
        // With the header it feeds.
        when: sets_own_headers,
        scope: Scope::Table {
            table: TableRole::FrameOptions,
        },
        args: &[
            "$sent_http_x_frame_options=$sent_http_content_type",
            "$frame_options",
        ],
    },
};

pub(super) static FRAME_OPTIONS: Rule = Rule {
    name: "add_header",
    texts: &[Text::new(
        "header.frame",
        "Other sites may not frame these pages (clickjacking). HTML only, as in h5bp: 29 bytes less on each asset.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        own_header(
            c,
            out,
            &["X-Frame-Options", "$frame_options", "always"],
            &FRAME_OPTIONS.texts[0],
        );
    }),
};

pub(super) static REFERRER_POLICY: Rule = Rule {
    name: "add_header Referrer-Policy",
    texts: &[Text::new(
        "omit.header.referrer",
        "strict-origin-when-cross-origin is what browsers do without the header (Chrome 85, Firefox 87, Safari 15.2 and later); sending it would add 50 bytes to every response for nothing.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        out.omit(
            Scope::Server {
                server: c.content_server(),
            },
            &REFERRER_POLICY.texts[0],
        );
    }),
};

#[cfg(test)]
mod tests {
    use crate::plan::{Scope, ServerRole, TableRole};
    use crate::rules::testing::{omitted, plan, values, values_in};

    #[test]
    fn static_sites_get_nosniff_and_frame_options_for_pages() {
        let p = plan(r#"{"workload":"static"}"#);
        let site = Scope::Server {
            server: ServerRole::Site,
        };
        assert_eq!(
            values_in(&p, site, "add_header"),
            [
                "X-Content-Type-Options nosniff always",
                "X-Frame-Options $frame_options always"
            ]
        );
        let frame = Scope::Table {
            table: TableRole::FrameOptions,
        };
        assert_eq!(
            values_in(&p, frame, "map"),
            ["$sent_http_x_frame_options=$sent_http_content_type $frame_options"]
        );
        // Pages only (a charset may follow), and only those without the header already
        // (nothing before the `=`); anything else maps to empty and gets no header. The
        // exact keys are the pattern's two types without a charset. The behaviour tests
        // send all of these to a live nginx.
        let rows: Vec<_> = TableRole::FrameOptions.rows().iter().map(|r| r.0).collect();
        assert_eq!(
            rows,
            [
                "default",
                "=text/html",
                "=application/xhtml+xml",
                r"~*^=(?:text/html|application/xhtml\+xml)"
            ]
        );
        for (key, value) in TableRole::FrameOptions.rows() {
            let want: &[&str] = if *key == "default" {
                &[""]
            } else {
                &["SAMEORIGIN"]
            };
            assert_eq!(*value, want, "{key}");
        }
        assert!(omitted(&p, "add_header Referrer-Policy"));
        assert!(!omitted(
            &p,
            "add_header X-Frame-Options, X-Content-Type-Options"
        ));
    }

    #[test]
    fn proxies_leave_them_to_the_application() {
        let p = plan(r#"{"workload":"proxy"}"#);
        assert!(values(&p, "add_header").is_empty());
        let frame = Scope::Table {
            table: TableRole::FrameOptions,
        };
        assert!(values_in(&p, frame, "map").is_empty());
        assert!(omitted(
            &p,
            "add_header X-Frame-Options, X-Content-Type-Options"
        ));
    }

    #[test]
    fn hsts_and_alt_svc_on_the_https_server() {
        let p = plan(r#"{"workload":"proxy","tls":true,"http3":true,"tls_port":8443}"#);
        let tls = Scope::Server {
            server: ServerRole::SiteTls,
        };
        assert_eq!(
            values_in(&p, tls, "add_header"),
            [
                "Strict-Transport-Security max-age=63072000 always",
                "Alt-Svc h3=\":8443\"; ma=86400 always"
            ]
        );
        let h2 = plan(r#"{"tls":true}"#);
        assert_eq!(values_in(&h2, tls, "add_header").len(), 3);
    }

    #[test]
    fn hsts_as_chosen() {
        let tls = Scope::Server {
            server: ServerRole::SiteTls,
        };
        let catch_all = Scope::Server {
            server: ServerRole::CatchAllTls,
        };
        for (choice, header, id) in [
            ("host", "max-age=63072000", "hsts"),
            (
                "subdomains",
                "max-age=63072000; includeSubDomains",
                "hsts.subdomains",
            ),
            (
                "preload",
                "max-age=63072000; includeSubDomains; preload",
                "hsts.preload",
            ),
        ] {
            let p = plan(&format!(
                r#"{{"tls":true,"hsts":"{choice}","nginx_version":"1.18.0"}}"#
            ));
            let sent = values_in(&p, tls, "add_header");
            assert_eq!(
                sent.first().map(String::as_str),
                Some(format!("Strict-Transport-Security {header} always").as_str()),
                "{choice}"
            );
            let setting = p
                .settings
                .iter()
                .find(|s| s.scope == tls && s.name == "add_header")
                .expect("set");
            assert_eq!(setting.reason.id, id);
            // The catch-all claims no subdomains for names it does not serve.
            assert_eq!(
                values_in(&p, catch_all, "add_header"),
                ["Strict-Transport-Security max-age=63072000 always"],
                "{choice}"
            );
        }
        let off = plan(r#"{"tls":true,"hsts":"off","nginx_version":"1.18.0"}"#);
        assert!(
            values_in(&off, tls, "add_header")
                .iter()
                .chain(&values_in(&off, catch_all, "add_header"))
                .all(|h| !h.starts_with("Strict-Transport-Security"))
        );
        let said = |p: &crate::Plan| p.omitted.iter().any(|o| o.reason.id == "omit.hsts");
        assert!(said(&off));
        // Without TLS no header, and nothing said of one.
        let plain = plan(r#"{"hsts":"off"}"#);
        assert!(!said(&plain));
        assert!(
            values(&plain, "add_header")
                .iter()
                .all(|h| !h.starts_with("Strict-Transport-Security"))
        );
    }

    #[test]
    fn a_tls_catch_all_that_answers_sends_hsts() {
        let catch_all = Scope::Server {
            server: ServerRole::CatchAllTls,
        };
        let hsts = ["Strict-Transport-Security max-age=63072000 always"];
        let old = plan(r#"{"tls":true,"nginx_version":"1.18.0"}"#);
        assert_eq!(values_in(&old, catch_all, "add_header"), hsts);
        let lb = plan(r#"{"tls":true,"behind_lb":true,"nginx_version":"1.30.0"}"#);
        assert_eq!(values_in(&lb, catch_all, "add_header"), hsts);
        let new = plan(r#"{"tls":true,"nginx_version":"1.30.0"}"#);
        assert!(values_in(&new, catch_all, "add_header").is_empty());
    }
}
