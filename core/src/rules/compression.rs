//! Compression: gzip and brotli, on the fly and precompressed.

use super::{Ctx, Decide, Rule, Text};
use crate::plan::Scope;

const H: Scope = Scope::Http;

/// Media types worth compressing (`text/html` is always compressed and must not be listed).
pub const COMPRESSIBLE_TYPES: &[&str] = &[
    "text/css",
    "text/plain",
    "text/xml",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/xml",
    "application/rss+xml",
    "application/atom+xml",
    "application/manifest+json",
    "image/svg+xml",
];

pub(super) static GZIP: Rule = Rule {
    name: "gzip",
    texts: &[Text::new("gzip", "Compress text responses on the fly.")],
    decide: Decide::Fixed {
        scope: H,
        args: &["on"],
    },
};

pub(super) static GZIP_COMP_LEVEL: Rule = Rule {
    name: "gzip_comp_level",
    texts: &[Text::new(
        "gzip_comp_level",
        "Level 1 compresses nearly as well as 5 for a fraction of the CPU; higher levels make a busy server CPU-bound. Static files are precompressed at level 9 instead.",
    )
    .inputs(&["workload"])],
    decide: Decide::Fixed {
        scope: H,
        args: &["1"],
    },
};

pub(super) static GZIP_MIN_LENGTH: Rule = Rule {
    name: "gzip_min_length",
    texts: &[Text::new(
        "gzip_min_length",
        "Below about 256 bytes compression saves less than it costs.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["256"],
    },
};

pub(super) static GZIP_TYPES: Rule = Rule {
    name: "gzip_types",
    texts: &[Text::new(
        "gzip_types",
        "Text formats worth compressing; text/html is always included and listing it again logs a warning.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: COMPRESSIBLE_TYPES,
    },
};

pub(super) static GZIP_PROXIED: Rule = Rule {
    name: "gzip_proxied",
    texts: &[Text::new(
        "gzip_proxied",
        "Also compress for requests that came through a proxy or CDN (they carry a Via header, which the default refuses).",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["any"],
    },
};

pub(super) static GZIP_VARY: Rule = Rule {
    name: "gzip_vary",
    texts: &[Text::new(
        "gzip_vary",
        "Send Vary: Accept-Encoding so caches keep compressed and plain copies apart (worth its ~22 bytes per response: without it a cache may hand compressed bytes to a client that cannot read them).",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["on"],
    },
};

pub(super) static GZIP_STATIC: Rule = Rule {
    name: "gzip_static",
    texts: &[Text::new(
        "gzip_static",
        "Serve the precompressed .gz file next to the original when there is one: no compression work per request.",
    )
    .inputs(&["workload"])],
    decide: Decide::When {
        when: |c| c.i.workload.serves_files(),
        scope: H,
        args: &["on"],
    },
};

fn brotli(c: &Ctx) -> bool {
    c.i.brotli
}

pub(super) static BROTLI: Rule = Rule {
    name: "brotli",
    texts: &[Text::new(
        "brotli",
        "Compress on the fly with brotli for clients that accept it.",
    )
    .inputs(&["brotli"])],
    decide: Decide::When {
        when: brotli,
        scope: H,
        args: &["on"],
    },
};

pub(super) static BROTLI_COMP_LEVEL: Rule = Rule {
    name: "brotli_comp_level",
    texts: &[Text::new(
        "brotli_comp_level",
        "Levels up to 4 cost about as much CPU as gzip's lowest while compressing better; static files are precompressed at 11.",
    )
    .inputs(&["brotli"])],
    decide: Decide::When {
        when: brotli,
        scope: H,
        args: &["3"],
    },
};

pub(super) static BROTLI_TYPES: Rule = Rule {
    name: "brotli_types",
    texts: &[Text::new("brotli_types", "The same text formats as gzip.")],
    decide: Decide::When {
        when: brotli,
        scope: H,
        args: COMPRESSIBLE_TYPES,
    },
};

pub(super) static BROTLI_STATIC: Rule = Rule {
    name: "brotli_static",
    texts: &[Text::new(
        "brotli_static",
        "Serve the precompressed .br file when there is one.",
    )
    .inputs(&["brotli", "workload"])],
    decide: Decide::When {
        when: |c| c.i.brotli && c.i.workload.serves_files(),
        scope: H,
        args: &["on"],
    },
};

#[cfg(test)]
mod tests {
    use crate::plan::Scope;
    use crate::rules::testing::{plan, value, values_in};

    #[test]
    fn gzip_rows() {
        let p = plan("{}");
        assert_eq!(value(&p, "gzip").as_deref(), Some("on"));
        assert_eq!(value(&p, "gzip_comp_level").as_deref(), Some("1"));
        assert_eq!(value(&p, "gzip_min_length").as_deref(), Some("256"));
        assert_eq!(value(&p, "gzip_proxied").as_deref(), Some("any"));
        assert_eq!(value(&p, "gzip_vary").as_deref(), Some("on"));
        let types = value(&p, "gzip_types").unwrap();
        assert!(
            types.contains("text/css") && !types.contains("text/html"),
            "{types}"
        );
    }

    #[test]
    fn precompressed_files_only_where_files_are_served() {
        // In http {}; images and fonts turn them off again (rules::site).
        let http = |p, name| values_in(p, Scope::Http, name);
        let s = plan(r#"{"workload":"static"}"#);
        assert_eq!(http(&s, "gzip_static"), ["on"]);
        assert_eq!(value(&plan(r#"{"workload":"api"}"#), "gzip_static"), None);
        let br = plan(r#"{"workload":"mixed","brotli":true}"#);
        assert_eq!(http(&br, "brotli_static"), ["on"]);
        let br_api = plan(r#"{"workload":"api","brotli":true}"#);
        assert_eq!(value(&br_api, "brotli_static"), None);
        assert_eq!(value(&br_api, "brotli").as_deref(), Some("on"));
    }

    #[test]
    fn brotli_only_when_asked() {
        let off = plan(r#"{"brotli":false}"#);
        for name in [
            "brotli",
            "brotli_comp_level",
            "brotli_types",
            "brotli_static",
        ] {
            assert_eq!(value(&off, name), None, "{name}");
        }
        let on = plan(r#"{"brotli":true}"#);
        assert_eq!(value(&on, "brotli_comp_level").as_deref(), Some("3"));
        assert_eq!(value(&on, "brotli_types"), value(&on, "gzip_types"));
    }
}
