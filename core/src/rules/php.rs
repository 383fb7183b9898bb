//! The php workload: the location that hands scripts to PHP-FPM, its `FastCGI` buffers, and
//! the PHP-FPM pool file.

use super::{Ctx, Decide, Out, Rule, Text};
use crate::inputs::Workload;
use crate::plan::{LocationRole, Scope, TableRole};
use crate::size::ByteSize;

fn php(c: &Ctx) -> bool {
    c.i.workload == Workload::Php
}

/// The location of PHP scripts.
pub(super) fn scripts(c: &Ctx) -> Scope {
    Scope::Location {
        server: c.content_server(),
        location: LocationRole::Php,
    }
}

const POOL: Scope = Scope::PhpPool;

fn size(s: ByteSize) -> String {
    s.nginx().unwrap_or_else(|| s.as_u64().to_string())
}

/// A fixed setting of the scripts' location, for php.
fn script_setting(c: &Ctx, out: &mut Out, args: &'static [&'static str], text: &Text) {
    if php(c) {
        out.set(scripts(c), args, text);
    }
}

pub(super) static SPLIT_PATH_INFO: Rule = Rule {
    name: "fastcgi_split_path_info",
    texts: &[Text::new(
        "fastcgi_split_path_info",
        "A path after the script's name (/index.php/route, Nextcloud's /remote.php/dav/…, Moodle's /pluginfile.php/…) runs that script, with the rest as its PATH_INFO.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(c, out, &[r"^(.+?\.php)(/.*)$"], &SPLIT_PATH_INFO.texts[0]);
    }),
};

pub(super) static PATH_INFO: Rule = Rule {
    name: "set",
    texts: &[Text::new(
        "set.path_info",
        "The path info, kept before try_files looks the script up: try_files sets the URI to the script's, which empties $fastcgi_path_info.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(
            c,
            out,
            &["$path_info", "$fastcgi_path_info"],
            &PATH_INFO.texts[0],
        );
    }),
};

pub(super) static SCRIPT_EXISTS: Rule = Rule {
    name: "try_files",
    texts: &[Text::new(
        "try_files.php_script",
        "Only a script that exists runs: /uploads/x.jpg/y.php is 404 instead of an upload run as PHP (the path-info attack).",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(
            c,
            out,
            &["$fastcgi_script_name", "=404"],
            &SCRIPT_EXISTS.texts[0],
        );
    }),
};

pub(super) static FASTCGI_PASS: Rule = Rule {
    name: "fastcgi_pass",
    texts: &[Text::new(
        "fastcgi_pass",
        "PHP-FPM's socket in this layout, for this PHP version.",
    )
    .inputs(&["layout", "php_version"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if php(c) {
            let socket = ["unix:", &c.i.layout.php_socket(c.i.php_version)].concat();
            out.set_value(scripts(c), socket, &FASTCGI_PASS.texts[0], None);
        }
    }),
};

pub(super) static INCLUDE_PARAMS: Rule = Rule {
    name: "include",
    texts: &[Text::new(
        "include.fastcgi_params",
        "The distribution's FastCGI parameters: method, query, headers, addresses.",
    )],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        script_setting(
            c,
            out,
            &["/etc/nginx/fastcgi_params"],
            &INCLUDE_PARAMS.texts[0],
        );
    }),
};

pub(super) static SCRIPT_FILENAME: Rule = Rule {
    name: "fastcgi_param",
    texts: &[
        Text::new(
            "fastcgi_param.script_filename",
            "The script PHP runs, links resolved, so a deploy that switches a link never runs old and new files mixed.",
        ),
        Text::new(
            "fastcgi_param.path_info",
            "The path after the script's name, empty without one.",
        ),
        Text::new(
            "fastcgi_param.document_root",
            "The document root with links resolved, as in SCRIPT_FILENAME (fastcgi_params passes the link): code that includes files by DOCUMENT_ROOT reads the same release as the script, not the one before a deploy switched the link.",
        ),
    ],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        let texts = SCRIPT_FILENAME.texts;
        let args = &["SCRIPT_FILENAME", "$realpath_root$fastcgi_script_name"];
        script_setting(c, out, args, &texts[0]);
        script_setting(c, out, &["PATH_INFO", "$path_info"], &texts[1]);
        script_setting(c, out, &["DOCUMENT_ROOT", "$realpath_root"], &texts[2]);
    }),
};

pub(super) static FORWARDED_HTTPS_MAP: Rule = Rule {
    name: "map",
    texts: &[Text::new(
        "map.forwarded_https",
        "on for HTTPS, as PHP wants it; empty otherwise.",
    )
    .inputs(&["behind_lb", "cdn"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if php(c) && c.i.forwarded() {
            let scope = Scope::Table {
                table: TableRole::ForwardedHttps,
            };
            let args = &["$forwarded_scheme", "$forwarded_https"];
            out.set(scope, args, &FORWARDED_HTTPS_MAP.texts[0]);
        }
    }),
};

pub(super) static FORWARDED_SCHEME: Rule = Rule {
    name: "fastcgi_param",
    texts: &[Text::new(
        "fastcgi_param.forwarded",
        "The client's scheme, from the trusted load balancer: else WordPress redirects HTTPS in a loop.",
    )
    .inputs(&["behind_lb", "cdn", "tls"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if c.i.forwarded() {
            let text = &FORWARDED_SCHEME.texts[0];
            // Over TLS to nginx, fastcgi_params says HTTPS=on; an empty value must replace
            // it for a client on plain HTTP. Otherwise leave PHP's HTTPS unset, as
            // fastcgi_params does (much code only asks whether it is set).
            let https: &'static [&'static str] = if c.i.tls {
                &["HTTPS", "$forwarded_https"]
            } else {
                &["HTTPS", "$forwarded_https", "if_not_empty"]
            };
            script_setting(c, out, https, text);
            script_setting(c, out, &["REQUEST_SCHEME", "$forwarded_scheme"], text);
        }
    }),
};

pub(super) static FASTCGI_BUFFER_SIZE: Rule = Rule {
    name: "fastcgi_buffer_size",
    texts: &[Text::new(
        "fastcgi_buffer_size",
        "Room for PHP's response headers, cookies included, and the first part of the body.",
    )
    .inputs(&["workload"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (Some(b), true) = (c.t.proxy, php(c)) {
            let text = &FASTCGI_BUFFER_SIZE.texts[0];
            out.set_args(scripts(c), vec![size(b.header).into()], text, None);
        }
    }),
};

pub(super) static FASTCGI_BUFFERS: Rule = Rule {
    name: "fastcgi_buffers",
    texts: &[Text::new(
        "fastcgi_buffers",
        "A typical response fits in memory, so the PHP child is free at once instead of waiting for a slow client; a larger one goes through a temporary file.",
    )
    .inputs(&["response_size"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (Some(b), Some(f), true) = (c.t.proxy, &c.t.formulas.proxy, php(c)) {
            let args = vec![b.count.to_string().into(), size(b.size).into()];
            let text = &FASTCGI_BUFFERS.texts[0];
            out.set_args(scripts(c), args, text, Some(f.buffers.clone()));
        }
    }),
};

pub(super) static FASTCGI_BUSY_BUFFERS_SIZE: Rule = Rule {
    name: "fastcgi_busy_buffers_size",
    texts: &[Text::new(
        "fastcgi_busy_buffers_size",
        "What may be busy sending to the client; nginx requires it between the largest buffer and all buffers but one.",
    )
    .inputs(&["response_size"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let (Some(b), Some(f), true) = (c.t.proxy, &c.t.formulas.proxy, php(c)) {
            let text = &FASTCGI_BUSY_BUFFERS_SIZE.texts[0];
            out.set_args(scripts(c), vec![size(b.busy).into()], text, Some(f.busy.clone()));
        }
    }),
};

pub(super) static PM: Rule = Rule {
    name: "pm",
    texts: &[Text::new(
        "pm",
        "Children start and stop with the load between the spare bounds, and PHP-FPM logs a warning when the load needs more than max_children.",
    )],
    decide: Decide::When {
        when: php,
        scope: POOL,
        args: &["dynamic"],
    },
};

pub(super) static PM_MAX_CHILDREN: Rule = Rule {
    name: "pm.max_children",
    texts: &[Text::new(
        "pm.max_children",
        "The memory nginx leaves (three quarters after the system's reserve and what the host's other services use, --other-memory) over one child's peak memory, at most 32 per vCPU (more would queue for the CPU). The pool's budget is max_children × the child's memory.",
    )
    .inputs(&["ram", "other_memory", "php_child_memory", "vcpu"])],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        if let Some(p) = &c.t.php {
            let (text, f) = (&PM_MAX_CHILDREN.texts[0], p.max_children_formula.clone());
            out.set_value(POOL, p.max_children, text, Some(f));
        }
    }),
};

static SPARE: Text = Text::new(
    "pm.spare",
    "Idle children kept ready: an eighth of max_children, up to twice that. The pool is planned for max_children − max spare requests at once, so a burst still finds idle children before PHP-FPM warns that it reached max_children.",
)
.inputs(&["ram", "other_memory", "php_child_memory", "vcpu"]);

/// `pm.start_servers`, `pm.min_spare_servers` or `pm.max_spare_servers`.
fn spare(c: &Ctx, out: &mut Out, max: bool) {
    if let Some(p) = &c.t.php {
        let (n, f) = if max {
            (p.max_spare, &p.max_spare_formula)
        } else {
            (p.min_spare, &p.min_spare_formula)
        };
        out.set_value(POOL, n, &SPARE, Some(f.clone()));
    }
}

pub(super) static PM_START_SERVERS: Rule = Rule {
    name: "pm.start_servers",
    texts: &[SPARE],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| spare(c, out, false)),
};

pub(super) static PM_MIN_SPARE_SERVERS: Rule = Rule {
    name: "pm.min_spare_servers",
    texts: &[SPARE],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| spare(c, out, false)),
};

pub(super) static PM_MAX_SPARE_SERVERS: Rule = Rule {
    name: "pm.max_spare_servers",
    texts: &[SPARE],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| spare(c, out, true)),
};

/// PHP's own limits on a request body, raised to nginx's `client_max_body_size`.
fn body_limit(c: &Ctx, out: &mut Out, text: &Text) {
    if php(c) {
        // PHP reads `16M` as nginx reads `16m`; php.ini writes sizes in capitals.
        let value = size(c.i.max_body_size).to_ascii_uppercase();
        out.set_value(POOL, value, text, None);
    }
}

const BODY_LIMIT: Text = Text::new(
    "php.body_limit",
    "As client_max_body_size: php.ini stops uploads at 2M.",
)
.inputs(&["max_body_size"]);

pub(super) static POST_MAX_SIZE: Rule = Rule {
    name: "php_admin_value[post_max_size]",
    texts: &[BODY_LIMIT],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        body_limit(c, out, &POST_MAX_SIZE.texts[0]);
    }),
};

pub(super) static UPLOAD_MAX_FILESIZE: Rule = Rule {
    name: "php_admin_value[upload_max_filesize]",
    texts: &[BODY_LIMIT],
    decide: Decide::Code(|c: &Ctx, out: &mut Out| {
        body_limit(c, out, &UPLOAD_MAX_FILESIZE.texts[0]);
    }),
};

pub(super) static PM_MAX_REQUESTS: Rule = Rule {
    name: "pm.max_requests",
    texts: &[Text::new(
        "pm.max_requests",
        "A child is replaced after 500 requests, so a leak in the application or an extension cannot grow it past its memory.",
    )],
    decide: Decide::When {
        when: php,
        scope: POOL,
        args: &["500"],
    },
};

pub(super) static REQUEST_TERMINATE_TIMEOUT: Rule = Rule {
    name: "request_terminate_timeout",
    texts: &[Text::new(
        "request_terminate_timeout",
        "nginx stops waiting for PHP after fastcgi_read_timeout's 60 s; PHP-FPM then ends the script, so no child is held by a request nobody waits for.",
    )],
    decide: Decide::When {
        when: php,
        scope: POOL,
        args: &["60s"],
    },
};

pub(super) static LIMIT_EXTENSIONS: Rule = Rule {
    name: "security.limit_extensions",
    texts: &[Text::new(
        "security.limit_extensions",
        "PHP-FPM runs .php files only: a second guard against the path-info attack.",
    )],
    decide: Decide::When {
        when: php,
        scope: POOL,
        args: &[".php"],
    },
};

#[cfg(test)]
mod tests {
    use crate::plan::{LocationRole, Scope, ServerRole, TableRole};
    use crate::rules::testing::{formula, plan, value, values, values_in};

    const PHP: &str = r#"{"workload":"php","vcpu":2,"ram":"1G"}"#;

    #[test]
    fn scripts_go_to_php_fpm_only_if_they_exist() {
        let p = plan(PHP);
        let scripts = Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::Php,
        };
        assert_eq!(
            values_in(&p, scripts, "try_files"),
            ["$fastcgi_script_name =404"]
        );
        // The path info is split off the script's name, and kept before try_files.
        assert_eq!(
            values_in(&p, scripts, "fastcgi_split_path_info"),
            [r"^(.+?\.php)(/.*)$"]
        );
        assert_eq!(
            values_in(&p, scripts, "set"),
            ["$path_info $fastcgi_path_info"]
        );
        assert_eq!(
            values_in(&p, scripts, "include"),
            ["/etc/nginx/fastcgi_params"]
        );
        assert_eq!(
            value(&p, "fastcgi_pass").as_deref(),
            Some("unix:/run/php/php8.2-fpm.sock")
        );
        assert_eq!(
            values(&p, "fastcgi_param"),
            [
                "SCRIPT_FILENAME $realpath_root$fastcgi_script_name",
                "PATH_INFO $path_info",
                "DOCUMENT_ROOT $realpath_root",
            ]
        );
        let rhel = plan(r#"{"workload":"php","layout":"rhel"}"#);
        assert_eq!(
            value(&rhel, "fastcgi_pass").as_deref(),
            Some("unix:/run/php-fpm/www.sock")
        );
        let v84 = plan(r#"{"workload":"php","php_version":"8.4"}"#);
        assert_eq!(
            value(&v84, "fastcgi_pass").as_deref(),
            Some("unix:/run/php/php8.4-fpm.sock")
        );
        for other in ["static", "proxy", "mixed", "api"] {
            let p = plan(&format!(r#"{{"workload":"{other}"}}"#));
            assert!(values(&p, "fastcgi_pass").is_empty(), "{other}");
            assert!(values(&p, "pm").is_empty(), "{other}");
        }
    }

    #[test]
    fn fastcgi_buffers_follow_the_response_size() {
        let p = plan(PHP);
        assert_eq!(value(&p, "fastcgi_buffer_size").as_deref(), Some("16k"));
        assert_eq!(value(&p, "fastcgi_buffers").as_deref(), Some("4 32k"));
        assert_eq!(
            value(&p, "fastcgi_busy_buffers_size").as_deref(),
            Some("64k")
        );
        assert!(values(&p, "proxy_buffers").is_empty());
        let big = plan(r#"{"workload":"php","response_size":"200K"}"#);
        assert_eq!(value(&big, "fastcgi_buffers").as_deref(), Some("8 32k"));
    }

    #[test]
    fn other_services_take_their_memory_first() {
        // A database beside PHP on 4 GiB: (4G − 512m − 2G) × 75% / 64M = 18, not 42.
        let p = plan(r#"{"workload":"php","vcpu":2,"ram":"4G"}"#);
        assert_eq!(value(&p, "pm.max_children").as_deref(), Some("42"));
        let db = plan(r#"{"workload":"php","vcpu":2,"ram":"4G","other_memory":"2G"}"#);
        assert_eq!(
            formula(&db, "pm.max_children"),
            "floor((4G RAM − 512m reserve − 2G other services) × 75% for PHP / 64M per child) = 18"
        );
        // nginx's budget and the page cache it plans for shrink the same way.
        assert!(db.tuning.memory_budget < p.tuning.memory_budget);
        let cache = |json: &str| values(&plan(json), "fastcgi_cache_path")[0].clone();
        let small = cache(r#"{"workload":"php","ram":"4G","other_memory":"2G","cache":"micro"}"#);
        assert!(small.contains("max_size=128m"), "{small}");
        assert!(
            cache(r#"{"workload":"php","ram":"4G","cache":"micro"}"#).contains("max_size=256m")
        );
    }

    #[test]
    fn max_children_from_the_memory_left_after_nginx() {
        // 1 GiB − 128 MiB reserve = 896 MiB; three quarters 672 MiB; / 64 MiB = 10.
        let p = plan(PHP);
        assert_eq!(value(&p, "pm").as_deref(), Some("dynamic"));
        assert_eq!(value(&p, "pm.max_children").as_deref(), Some("10"));
        assert_eq!(
            formula(&p, "pm.max_children"),
            "floor((1G RAM − 128m reserve) × 75% for PHP / 64M per child) = 10"
        );
        assert_eq!(value(&p, "pm.min_spare_servers").as_deref(), Some("2"));
        assert_eq!(value(&p, "pm.start_servers").as_deref(), Some("2"));
        assert_eq!(value(&p, "pm.max_spare_servers").as_deref(), Some("4"));
        assert_eq!(formula(&p, "pm.max_spare_servers"), "2 min spare × 2 = 4");
        let t = p.tuning.php.as_ref().unwrap();
        assert_eq!((t.concurrency, t.budget), (6, 10 * (64 << 20)));
        // A larger child: fewer children.
        let fat = plan(r#"{"workload":"php","vcpu":2,"ram":"1G","php_child_memory":"256M"}"#);
        assert_eq!(value(&fat, "pm.max_children").as_deref(), Some("2"));
        // Much RAM, few vCPUs: 32 per vCPU.
        let big = plan(r#"{"workload":"php","vcpu":2,"ram":"64G"}"#);
        assert_eq!(value(&big, "pm.max_children").as_deref(), Some("64"));
        assert!(formula(&big, "pm.max_children").starts_with("min("));
        // The smallest machine still has one child.
        let tiny = plan(r#"{"workload":"php","vcpu":1,"ram":"256M","php_child_memory":"1G"}"#);
        assert_eq!(value(&tiny, "pm.max_children").as_deref(), Some("1"));
        assert_eq!(value(&tiny, "pm.max_spare_servers").as_deref(), Some("1"));
    }

    #[test]
    fn pool_limits() {
        let p = plan(PHP);
        assert_eq!(value(&p, "pm.max_requests").as_deref(), Some("500"));
        assert_eq!(
            value(&p, "request_terminate_timeout").as_deref(),
            Some("60s")
        );
        assert_eq!(
            value(&p, "security.limit_extensions").as_deref(),
            Some(".php")
        );
    }

    #[test]
    fn behind_a_balancer_php_learns_the_clients_scheme() {
        let lb = plan(r#"{"workload":"php","behind_lb":true}"#);
        let scripts = Scope::Location {
            server: ServerRole::Site,
            location: LocationRole::Php,
        };
        // After the distribution's parameters, which PHP-FPM reads first: the last wins.
        assert_eq!(
            values_in(&lb, scripts, "fastcgi_param"),
            [
                "SCRIPT_FILENAME $realpath_root$fastcgi_script_name",
                "PATH_INFO $path_info",
                "DOCUMENT_ROOT $realpath_root",
                "HTTPS $forwarded_https if_not_empty",
                "REQUEST_SCHEME $forwarded_scheme",
            ]
        );
        let https = Scope::Table {
            table: TableRole::ForwardedHttps,
        };
        assert_eq!(
            values_in(&lb, https, "map"),
            ["$forwarded_scheme $forwarded_https"]
        );
        let scheme = Scope::Table {
            table: TableRole::ForwardedScheme,
        };
        assert_eq!(values_in(&lb, scheme, "map").len(), 1);
        // No balancer: the connection's own scheme, as fastcgi_params passes it.
        let edge = plan(r#"{"workload":"php"}"#);
        assert_eq!(values_in(&edge, scripts, "fastcgi_param").len(), 3);
        assert!(values_in(&edge, https, "map").is_empty());
        assert!(values_in(&edge, scheme, "map").is_empty());
        // nginx on TLS too: its fastcgi_params says HTTPS=on, replaced even when empty.
        let tls = plan(r#"{"workload":"php","behind_lb":true,"tls":true}"#);
        assert!(values(&tls, "fastcgi_param").contains(&"HTTPS $forwarded_https".into()));
        // Proxies pass X-Forwarded-Proto instead.
        let proxy = plan(r#"{"workload":"proxy","behind_lb":true}"#);
        assert!(values_in(&proxy, https, "map").is_empty());
    }

    #[test]
    fn php_takes_the_bodies_nginx_lets_through() {
        let p = plan(PHP);
        assert_eq!(value(&p, "client_max_body_size").as_deref(), Some("16m"));
        for name in [
            "php_admin_value[post_max_size]",
            "php_admin_value[upload_max_filesize]",
        ] {
            assert_eq!(value(&p, name).as_deref(), Some("16M"), "{name}");
        }
        let big = plan(r#"{"workload":"php","max_body_size":"2G"}"#);
        assert_eq!(
            value(&big, "php_admin_value[upload_max_filesize]").as_deref(),
            Some("2G")
        );
        // A size in no whole unit is written in bytes, which both read alike.
        let odd = plan(r#"{"workload":"php","max_body_size":"1.5K"}"#);
        assert_eq!(value(&odd, "client_max_body_size").as_deref(), Some("1536"));
        assert_eq!(
            value(&odd, "php_admin_value[post_max_size]").as_deref(),
            Some("1536")
        );
        let proxy = plan(r#"{"workload":"proxy"}"#);
        assert!(values(&proxy, "php_admin_value[post_max_size]").is_empty());
    }
}
