//! Response headers of the site, all at server level: an `add_header` inside a location
//! would silently drop these (gixy `add_header_redefinition`).

use super::{Ctx, Decide, Out, Rule, Text};
use crate::plan::{Scope, ServerRole, TableRole};

pub(super) static HSTS: Rule = Rule {
    name: "add_header",
    texts: &[Text::new(
        "hsts",
        "Browsers use HTTPS only, for two years (Mozilla).",
    )],
    decide: Decide::When {
        when: |c| c.i.tls,
        scope: Scope::Server {
            server: ServerRole::SiteTls,
        },
        args: &["Strict-Transport-Security", "max-age=63072000", "always"],
    },
};

pub(super) static HSTS_CATCH_ALL: Rule = Rule {
    name: "add_header",
    texts: &[Text::new(
        "hsts",
        "Browsers use HTTPS only, for two years (Mozilla).",
    )],
    decide: Decide::When {
        // The TLS catch-all completes handshakes (before ssl_reject_handshake, or behind a
        // load balancer whose probes send no SNI): its answers carry the header too.
        when: |c| {
            c.catch_all_tls()
                && (c.i.behind_lb || !c.v.has(crate::policy::Feature::SslRejectHandshake))
        },
        scope: Scope::Server {
            server: ServerRole::CatchAllTls,
        },
        args: &["Strict-Transport-Security", "max-age=63072000", "always"],
    },
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
