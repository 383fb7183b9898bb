//! The micro-cache's behaviours (`--cache micro --cache-status`, issue 14 item 3): a page
//! is answered from the cache after its first request, never for a request with a cookie
//! or credentials, never for a POST, and concurrent misses reach the app once.
//!
//! Each behaviour uses paths of its own: the behaviours of a tree share one nginx, one
//! cache and one app.

use crate::behaviours::Ctx;
use crate::client::Resp;

/// The `X-Cache-Status` of a 200 answer from the app (through the cache or not).
fn status(r: &Resp) -> Result<String, String> {
    if r.status != 200 || r.header(crate::app::APP_HEADER).is_none() {
        return Err(format!("expected 200 from the app: {}", r.summary()));
    }
    Ok(r.header("x-cache-status").unwrap_or("").to_string())
}

fn expect_count(ctx: &Ctx, path: &str, want: usize, what: &str) -> Result<(), String> {
    let seen = ctx.app.count(path);
    if seen == want {
        Ok(())
    } else {
        Err(format!(
            "{what}: the app saw {path} {seen} times, expected {want}"
        ))
    }
}

/// MISS, then HIT within the second; the app answered once.
pub fn hit_after_miss(ctx: &Ctx) -> Result<(), String> {
    let path = "/cache/page?hit=1";
    let first = status(&ctx.send(&ctx.site(path)))?;
    let second = status(&ctx.send(&ctx.site(path)))?;
    if (first.as_str(), second.as_str()) != ("MISS", "HIT") {
        return Err(format!(
            "X-Cache-Status {first:?} then {second:?}, expected MISS then HIT"
        ));
    }
    expect_count(ctx, path, 1, "a cached page")
}

/// A cookie or an Authorization header: BYPASS each time, every request reaches the app,
/// and nothing is stored: the next request without them is a MISS.
pub fn bypass_for_users(ctx: &Ctx) -> Result<(), String> {
    for (header, path) in [
        ("Cookie: session=alice", "/cache/user?cookie=1"),
        ("Authorization: Bearer alice-token", "/cache/user?auth=1"),
    ] {
        for _ in 0..2 {
            let s = status(&ctx.send(&ctx.site(path).header(header)))?;
            if s != "BYPASS" {
                return Err(format!("{header}: X-Cache-Status {s:?}, expected BYPASS"));
            }
        }
        expect_count(ctx, path, 2, header)?;
        let anonymous = status(&ctx.send(&ctx.site(path)))?;
        if anonymous != "MISS" {
            return Err(format!(
                "after requests with {header}, one without: X-Cache-Status {anonymous:?}, \
                 expected MISS (their responses must not be stored)"
            ));
        }
    }
    Ok(())
}

/// Through the trusted balancer, one page asked for over plain HTTP and then over HTTPS (as
/// its `X-Forwarded-Proto` says) is two entries: the HTTPS client gets a MISS and the app's
/// answer for HTTPS, never what was stored for HTTP (where an application's redirect to
/// HTTPS, kept for a second, would send HTTPS clients round in a loop); then a HIT.
pub fn keyed_by_the_clients_scheme(ctx: &Ctx) -> Result<(), String> {
    let path = "/cache/scheme?lb=1";
    ctx.cached_per_scheme(path, |r| {
        let cache = status(r)?;
        let app = crate::behaviours::echo(r, path)?;
        let told = app["headers"]["x-forwarded-proto"].as_str().unwrap_or("");
        Ok((cache, told.to_string()))
    })?;
    expect_count(ctx, path, 2, "one page over HTTP and HTTPS")
}

/// POST twice: both reach the app, neither is answered from the cache nor stored.
pub fn post_never_cached(ctx: &Ctx) -> Result<(), String> {
    let path = "/cache/form?post=1";
    for _ in 0..2 {
        let r = ctx.send(&ctx.site(path).arg("--data").arg("field=value"));
        let s = status(&r)?;
        if !s.is_empty() && s != "BYPASS" {
            return Err(format!("POST: X-Cache-Status {s:?}, expected none"));
        }
    }
    expect_count(ctx, path, 2, "POST")?;
    let get = status(&ctx.send(&ctx.site(path)))?;
    if get != "MISS" {
        return Err(format!(
            "GET after two POSTs: X-Cache-Status {get:?}, expected MISS (a POST's answer must not be stored)"
        ));
    }
    Ok(())
}

/// Runs `probe` `n` times at once, each on a thread of its own: every answer, or the first
/// error.
pub fn at_once<T: Send>(
    n: usize,
    probe: impl Fn() -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n).map(|_| s.spawn(&probe)).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a client thread panicked".into()))
            })
            .collect()
    })
}

/// Ten concurrent requests for a slow page not yet cached: one reaches the app, the others
/// wait for its answer (`proxy_cache_lock`) and all get the page.
pub fn lock_one_upstream_request(ctx: &Ctx) -> Result<(), String> {
    let path = "/slow/cache?lock=1";
    let req = ctx.site(path);
    let statuses = at_once(10, || status(&ctx.send(&req)))?;
    expect_count(
        ctx,
        path,
        1,
        &format!("10 concurrent misses ({statuses:?})"),
    )
}
