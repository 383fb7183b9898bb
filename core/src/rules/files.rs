//! Serving files: sendfile, disk reads and the open-file cache.

use super::{Ctx, Decide, Out, Rule, Text};
use crate::digits::keyed;
use crate::plan::Scope;

const H: Scope = Scope::Http;

pub(super) static SENDFILE: Rule = Rule {
    name: "sendfile",
    texts: &[Text::new(
        "sendfile",
        "Send files from the page cache without copying them through nginx.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["on"],
    },
};

pub(super) static TCP_NOPUSH: Rule = Rule {
    name: "tcp_nopush",
    texts: &[Text::new(
        "tcp_nopush",
        "With sendfile, send headers and the start of the file in full packets.",
    )],
    decide: Decide::Fixed {
        scope: H,
        args: &["on"],
    },
};

pub(super) static AIO: Rule = Rule {
    name: "aio",
    texts: &[Text::new(
        "aio",
        "The files do not fit in the page cache, so reads from disk would block a worker; a thread pool takes them.",
    )
    .inputs(&["static_files", "response_size", "ram", "other_memory"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.t.aio_threads {
            let f = c.t.formulas.aio.clone();
            out.set_args(H, vec!["threads".into()], &AIO.texts[0], Some(f));
        }
    }),
};

pub(super) static OPEN_FILE_CACHE: Rule = Rule {
    name: "open_file_cache",
    texts: &[Text::new(
        "open_file_cache",
        "Keep descriptors of hot files open, per worker; the entries count against worker_rlimit_nofile.",
    )
    .inputs(&["static_files", "workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (Some(ofc), Some(f)) = (c.t.open_file_cache, &c.t.formulas.open_file_cache) {
            let args = vec![keyed("max=", ofc.max.into()).into(), "inactive=60s".into()];
            out.set_args(H, args, &OPEN_FILE_CACHE.texts[0], Some(f.clone()));
        }
    }),
};

fn caches_files(c: &Ctx) -> bool {
    c.t.open_file_cache.is_some()
}

pub(super) static OPEN_FILE_CACHE_VALID: Rule = Rule {
    name: "open_file_cache_valid",
    texts: &[Text::new(
        "open_file_cache_valid",
        "Check a cached file's name again a second after the last check, so a file replaced on disk (a deploy, a plugin update) is sent from the new file within a second, and one rewritten in place with its new length. At nginx's 60 s a grown file went out cut at its old length, and a replaced one with its old bytes under the new ?ver= URL, which browsers then kept for the week of expires. One stat per hot file a second costs nothing next to the open, fstat and close the cache saves on every request.",
    )],
    decide: Decide::When {
        when: caches_files,
        scope: H,
        args: &["1s"],
    },
};

pub(super) static OPEN_FILE_CACHE_MIN_USES: Rule = Rule {
    name: "open_file_cache_min_uses",
    texts: &[Text::new(
        "open_file_cache_min_uses",
        "Cache only files asked for twice, so one-off requests do not evict hot files.",
    )],
    decide: Decide::When {
        when: caches_files,
        scope: H,
        args: &["2"],
    },
};

pub(super) static OPEN_FILE_CACHE_ERRORS: Rule = Rule {
    name: "open_file_cache_errors",
    texts: &[Text::new(
        "open_file_cache_errors",
        "Remember a missing file too, for the second open_file_cache_valid allows, so a file a deploy adds is served within that second. gzip_static with gzip_vary looks for a .gz next to every page, style and script, even for clients that do not ask for gzip; where there is none, each request paid a failed open(). Measured on a 30 KB page without a .gz: that system call gone, 1.32× the requests/s at a quarter less CPU per request (docs/benchmarks.md).",
    )],
    decide: Decide::When {
        when: caches_files,
        scope: H,
        args: &["on"],
    },
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::{formula, plan, value};

    #[test]
    fn sendfile_with_nopush() {
        let p = plan("{}");
        assert_eq!(value(&p, "sendfile").as_deref(), Some("on"));
        assert_eq!(value(&p, "tcp_nopush").as_deref(), Some("on"));
    }

    #[test]
    fn aio_threads_only_when_files_outgrow_half_the_ram() {
        let fits = plan(r#"{"ram":"8G","static_files":100000,"response_size":"32K"}"#);
        assert_eq!(value(&fits, "aio"), None);
        let spills = plan(r#"{"ram":"8G","static_files":200000,"response_size":"32K"}"#);
        assert_eq!(value(&spills, "aio").as_deref(), Some("threads"));
        assert_eq!(formula(&spills, "aio"), "200000 files × 32K > 8G RAM / 2");
        let proxy = plan(r#"{"workload":"proxy","ram":"1G","static_files":1000000}"#);
        assert_eq!(value(&proxy, "aio"), None);
    }

    #[test]
    fn cache_size_bounds() {
        let small = plan(r#"{"static_files":10}"#);
        assert_eq!(
            value(&small, "open_file_cache").as_deref(),
            Some("max=1000 inactive=60s")
        );
        assert!(formula(&small, "open_file_cache").starts_with("max("));
        let mid = plan(r#"{"static_files":1234}"#);
        assert_eq!(
            value(&mid, "open_file_cache").as_deref(),
            Some("max=1500 inactive=60s")
        );
        assert_eq!(
            formula(&mid, "open_file_cache"),
            "1.2 × 1234 files, rounded up to 100 = 1500"
        );
        let big = plan(r#"{"static_files":1000000}"#);
        assert_eq!(
            value(&big, "open_file_cache").as_deref(),
            Some("max=65536 inactive=60s")
        );
        assert!(formula(&big, "open_file_cache").starts_with("min("));
    }

    #[test]
    fn cache_companions_follow_the_cache() {
        let s = plan("{}");
        assert_eq!(value(&s, "open_file_cache_valid").as_deref(), Some("1s"));
        assert_eq!(value(&s, "open_file_cache_min_uses").as_deref(), Some("2"));
        assert_eq!(value(&s, "open_file_cache_errors").as_deref(), Some("on"));
        let p = plan(r#"{"workload":"api"}"#);
        assert_eq!(value(&p, "open_file_cache"), None);
        assert_eq!(value(&p, "open_file_cache_valid"), None);
        assert_eq!(value(&p, "open_file_cache_errors"), None);
    }
}
