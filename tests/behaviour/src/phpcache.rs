//! The php workload's micro-cache (`--workload php --cache micro --cache-status`, issue 14
//! item 3): Debian's PHP-FPM behind the generated nginx, as in [`crate::php`]. A PHP page
//! is answered from the cache after its first run; never for a request with a cookie or
//! credentials, never for a POST, never when PHP sets a cookie; a HEAD never leaves an empty
//! page for the GETs after it; ten concurrent misses run PHP once; and behind the balancer
//! a page made for a plain-HTTP client never reaches an HTTPS one.
//!
//! The page counts its runs: each run appends a byte to a file named by its `c` query
//! argument in [`COUNTS`] (the job's tmpfs `/run`, writable by the pool's user). Each
//! behaviour uses counters and URLs of its own: the behaviours of a tree share one nginx
//! and its cache.

use std::path::Path;

use crate::behaviours::{Behaviour, Ctx};
use crate::client::Resp;
use crate::grid::{Special, Tree};
use crate::php::Fpm;

/// Where the page counts its runs.
const COUNTS: &str = "/run/php-cache-counts";
/// The page: counts its run, sleeps `ms` milliseconds if asked, prints its marker and URI.
const PAGE: &str = "/cache/page.php";
/// A page that sets a cookie and nothing else (no Cache-Control, no Expires).
const COOKIE_PAGE: &str = "/cache/cookie.php";
/// A page that prints the scheme PHP was told (`REQUEST_SCHEME`).
const SCHEME_PAGE: &str = "/cache/scheme.php";
/// What the page prints before its URI: PHP computes it, so the source never contains it.
const MARK: &str = "php-page:42";

/// The behaviours, for [`crate::behaviours::all`].
pub fn all() -> Vec<Behaviour> {
    let tree = |t: &Tree| t.special == Special::PhpCache;
    vec![
        Behaviour {
            name: "php_cache_hit_after_miss",
            applies: tree,
            run: hit_after_miss,
        },
        Behaviour {
            name: "php_cache_head_keeps_get_whole",
            applies: tree,
            run: head_keeps_get_whole,
        },
        Behaviour {
            name: "php_cache_bypass_for_users",
            applies: tree,
            run: bypass_for_users,
        },
        Behaviour {
            name: "php_cache_post_never_cached",
            applies: tree,
            run: post_never_cached,
        },
        Behaviour {
            name: "php_cache_set_cookie_not_stored",
            applies: tree,
            run: set_cookie_not_stored,
        },
        Behaviour {
            name: "php_cache_lock_one_php_run",
            applies: tree,
            run: lock_one_php_run,
        },
        Behaviour {
            name: "php_cache_keyed_by_the_clients_scheme",
            applies: tree,
            run: keyed_by_the_clients_scheme,
        },
    ]
}

/// The pages and the counters' directory; then PHP-FPM.
fn start(ctx: &Ctx) -> Result<Fpm, String> {
    std::fs::create_dir_all(COUNTS).map_err(|e| format!("{COUNTS}: {e}"))?;
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o1777);
    std::fs::set_permissions(COUNTS, mode).map_err(|e| format!("{COUNTS}: {e}"))?;
    crate::php::write(
        ctx,
        PAGE,
        &format!(
            "<?php\n$c = preg_replace('/[^a-z0-9_-]/', '', $_GET['c'] ?? 'none');\n\
             file_put_contents('{COUNTS}/' . $c, 'x', FILE_APPEND | LOCK_EX);\n\
             if (isset($_GET['ms'])) {{ usleep((int) $_GET['ms'] * 1000); }}\n\
             echo 'php-page:' . (6 * 7) . ' ' . $_SERVER['REQUEST_URI'];\n"
        ),
    )?;
    crate::php::write(
        ctx,
        COOKIE_PAGE,
        &format!(
            "<?php\n$c = preg_replace('/[^a-z0-9_-]/', '', $_GET['c'] ?? 'none');\n\
             file_put_contents('{COUNTS}/' . $c, 'x', FILE_APPEND | LOCK_EX);\n\
             setcookie('visitor', bin2hex(random_bytes(8)));\n\
             echo 'php-page:' . (6 * 7) . ' ' . $_SERVER['REQUEST_URI'];\n"
        ),
    )?;
    crate::php::write(
        ctx,
        SCHEME_PAGE,
        &format!(
            "<?php\n$c = preg_replace('/[^a-z0-9_-]/', '', $_GET['c'] ?? 'none');\n\
             file_put_contents('{COUNTS}/' . $c, 'x', FILE_APPEND | LOCK_EX);\n\
             echo $_SERVER['REQUEST_SCHEME'] ?? '-';\n"
        ),
    )?;
    Fpm::start(ctx)
}

/// How often PHP ran for counter `c`.
fn runs(c: &str) -> usize {
    std::fs::metadata(Path::new(COUNTS).join(c)).map_or(0, |m| m.len() as usize)
}

fn expect_runs(c: &str, want: usize, what: &str) -> Result<(), String> {
    let seen = runs(c);
    if seen == want {
        Ok(())
    } else {
        Err(format!("{what}: PHP ran {seen} times, expected {want}"))
    }
}

/// The `X-Cache-Status` of a 200 answer with the page PHP made (through the cache or not).
fn status(r: &Resp, path: &str) -> Result<String, String> {
    let want = format!("{MARK} {path}");
    if r.exit != 0 || r.status != 200 || r.text() != want {
        return Err(format!(
            "{path}: expected 200 «{want}», got {} «{}»",
            r.summary(),
            r.text()
        ));
    }
    Ok(r.header("x-cache-status").unwrap_or("").to_string())
}

/// MISS, then HIT within the second; PHP ran once.
fn hit_after_miss(ctx: &Ctx) -> Result<(), String> {
    let _fpm = start(ctx)?;
    let path = format!("{PAGE}?c=hit");
    let first = status(&ctx.send(&ctx.site(&path)), &path)?;
    let second = status(&ctx.send(&ctx.site(&path)), &path)?;
    if (first.as_str(), second.as_str()) != ("MISS", "HIT") {
        return Err(format!(
            "X-Cache-Status {first:?} then {second:?}, expected MISS then HIT"
        ));
    }
    expect_runs("hit", 1, "a cached page")
}

/// A HEAD first (PHP answers it with headers only), then GETs: each GET gets the whole
/// page, never an empty one stored by the HEAD.
fn head_keeps_get_whole(ctx: &Ctx) -> Result<(), String> {
    let _fpm = start(ctx)?;
    let path = format!("{PAGE}?c=head");
    let head = ctx.send(&ctx.site(&path).arg("--head"));
    if head.exit != 0 || head.status != 200 {
        return Err(format!("HEAD {path}: {}", head.summary()));
    }
    for _ in 0..2 {
        status(&ctx.send(&ctx.site(&path)), &path).map_err(|e| format!("GET after a HEAD: {e}"))?;
    }
    Ok(())
}

/// A cookie or an Authorization header: BYPASS each time, PHP runs for every request, and
/// nothing is stored: the next request without them is a MISS.
fn bypass_for_users(ctx: &Ctx) -> Result<(), String> {
    let _fpm = start(ctx)?;
    for (header, c) in [
        ("Cookie: PHPSESSID=alice", "cookie"),
        ("Authorization: Bearer alice-token", "auth"),
    ] {
        let path = format!("{PAGE}?c={c}");
        for _ in 0..2 {
            let s = status(&ctx.send(&ctx.site(&path).header(header)), &path)?;
            if s != "BYPASS" {
                return Err(format!("{header}: X-Cache-Status {s:?}, expected BYPASS"));
            }
        }
        expect_runs(c, 2, header)?;
        let anonymous = status(&ctx.send(&ctx.site(&path)), &path)?;
        if anonymous != "MISS" {
            return Err(format!(
                "after requests with {header}, one without: X-Cache-Status {anonymous:?}, \
                 expected MISS (their pages must not be stored)"
            ));
        }
    }
    Ok(())
}

/// POST twice: PHP runs both times, neither is answered from the cache nor stored.
fn post_never_cached(ctx: &Ctx) -> Result<(), String> {
    let _fpm = start(ctx)?;
    let path = format!("{PAGE}?c=post");
    for _ in 0..2 {
        let r = ctx.send(&ctx.site(&path).arg("--data").arg("field=value"));
        let s = status(&r, &path)?;
        if !s.is_empty() && s != "BYPASS" {
            return Err(format!("POST: X-Cache-Status {s:?}, expected none"));
        }
    }
    expect_runs("post", 2, "POST")?;
    let get = status(&ctx.send(&ctx.site(&path)), &path)?;
    if get != "MISS" {
        return Err(format!(
            "GET after two POSTs: X-Cache-Status {get:?}, expected MISS (a POST's page must not be stored)"
        ));
    }
    Ok(())
}

/// A page that sets a cookie (and sends no Cache-Control or Expires): never stored, so
/// every anonymous request runs PHP and gets a cookie of its own.
fn set_cookie_not_stored(ctx: &Ctx) -> Result<(), String> {
    let _fpm = start(ctx)?;
    let path = format!("{COOKIE_PAGE}?c=setcookie");
    let mut cookies = Vec::new();
    for _ in 0..2 {
        let r = ctx.send(&ctx.site(&path));
        let s = status(&r, &path)?;
        if s != "MISS" {
            return Err(format!(
                "a page with Set-Cookie: X-Cache-Status {s:?}, expected MISS each time"
            ));
        }
        cookies.push(r.header("set-cookie").unwrap_or("").to_string());
    }
    if cookies[0].is_empty() || cookies[0] == cookies[1] {
        return Err(format!(
            "each visitor must get a cookie of its own: {cookies:?}"
        ));
    }
    expect_runs("setcookie", 2, "a page with Set-Cookie")
}

/// Ten concurrent requests for a page not yet cached that takes 600 ms: PHP runs once, the
/// others wait for its page (`fastcgi_cache_lock`) and all get it.
fn lock_one_php_run(ctx: &Ctx) -> Result<(), String> {
    let _fpm = start(ctx)?;
    let path = format!("{PAGE}?c=lock&ms=600");
    let req = ctx.site(&path);
    let statuses = crate::cache::at_once(10, || status(&ctx.send(&req), &path))?;
    expect_runs("lock", 1, &format!("10 concurrent misses ({statuses:?})"))
}

/// Through the balancer, a page for a plain-HTTP client, then the same URL for HTTPS twice:
/// MISS, MISS, HIT, each answer made for the client's own scheme; PHP ran twice. (Keyed on
/// `$scheme`, always `http` behind a balancer that ends TLS, the HTTPS clients got the
/// page made for HTTP: a stored redirect to HTTPS then loops them.)
fn keyed_by_the_clients_scheme(ctx: &Ctx) -> Result<(), String> {
    let _fpm = start(ctx)?;
    let path = format!("{SCHEME_PAGE}?c=scheme");
    ctx.cached_per_scheme(&path, |r| {
        if r.exit != 0 || r.status != 200 {
            return Err(format!("{path}: {}", r.summary()));
        }
        let cache = r.header("x-cache-status").unwrap_or("");
        Ok((cache.to_string(), r.text()))
    })?;
    expect_runs("scheme", 2, "one page over HTTP and HTTPS")
}
