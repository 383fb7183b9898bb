//! Behaviours of issue 14, items 4 and 2: the client address behind Cloudflare and behind
//! an L4 balancer with the PROXY protocol, and the rate limits keyed on it. Their trees
//! (`Special::Own`) are probed by these behaviours only: the generic ones send requests
//! without a PROXY header or faster than the limits allow.
//!
//! Cloudflare's edge is [`CDN_ADDR`], an address of the shipped ranges (173.245.48.0/20)
//! that the worker adds to the namespace's `lo`: the real list is exercised. The unlisted
//! address is `OTHER_ADDR` (192.0.2.10).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::behaviours::{Behaviour, Ctx, echo, expect, expect_header, logged};
use crate::client::Resp;
use crate::grid::{OTHER_ADDR, Special, Tree};

/// An address of Cloudflare's first published IPv4 range, on the namespace's `lo`.
pub const CDN_ADDR: &str = "173.245.48.10";
/// The trees of this module.
pub const CDN_TREE: &str = "addr-cdn-limits";
pub const PP_TREE: &str = "addr-proxy-protocol";
pub const STATIC_TREE: &str = "addr-static-limits";
pub const MIXED_TREE: &str = "addr-mixed-limits";
pub const PROXY_TREE: &str = "addr-proxy-limits";
pub const PHP_TREE: &str = "addr-php-limits";
/// Requests of one page that reach a proxied application at once (a Next.js page's chunks).
const PAGE_REQUESTS: usize = 40;

/// The trees: the API behind Cloudflare with rate limits; a static and a mixed site with
/// rate limits; a proxy behind an L4 balancer (the balancer is 127.0.0.1, the only trusted
/// address) with rate limits.
pub fn trees() -> Vec<Tree> {
    vec![
        Tree::new(CDN_TREE, "api", "cdn.test")
            .special(Special::Own)
            .extra(&[
                "--cdn",
                "cloudflare",
                "--rate-limit",
                "--limit-path",
                "/login",
            ]),
        Tree::new(STATIC_TREE, "static", "limits.test")
            .special(Special::Own)
            .extra(&["--rate-limit"]),
        Tree::new(MIXED_TREE, "mixed", "mixed-limits.test")
            .special(Special::Own)
            .extra(&["--rate-limit"]),
        Tree::new(PHP_TREE, "php", "php-limits.test")
            .special(Special::Own)
            .extra(&["--rate-limit", "--vcpu", "2", "--ram", "1G"]),
        Tree::new(PROXY_TREE, "proxy", "proxy-limits.test")
            .special(Special::Own)
            .extra(&["--rate-limit", "--vcpu", "2", "--ram", "2G"]),
        Tree::new(PP_TREE, "proxy", "pp.test")
            .special(Special::Own)
            .extra(&[
                "--proxy-protocol",
                "--trusted-proxy",
                "127.0.0.1/32",
                "--rate-limit",
            ]),
    ]
}

/// The rate (r/s) and burst the tree was generated with, as nginx loaded them.
fn rate_and_burst() -> Result<(u32, u32), String> {
    let mut text = std::fs::read_to_string("/etc/nginx/nginx.conf").map_err(|e| e.to_string())?;
    for e in std::fs::read_dir("/etc/nginx/conf.d").map_err(|e| e.to_string())? {
        text.push_str(
            &std::fs::read_to_string(e.map_err(|e| e.to_string())?.path()).unwrap_or_default(),
        );
    }
    let after = |key: &str| {
        let i = text.find(key)? + key.len();
        let digits: String = text[i..].chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u32>().ok()
    };
    match (after("rate="), after("burst=")) {
        (Some(r), Some(b)) => Ok((r, b)),
        _ => Err("no rate= / burst= in the tree".into()),
    }
}

/// Waits until every client's bucket is empty again (the burst drains at the rate), so a
/// trial does not inherit another's 429s for 192.0.2.10.
fn drained() -> Result<(u32, u32), String> {
    let (rate, burst) = rate_and_burst()?;
    std::thread::sleep(Duration::from_millis(u64::from(1000 * burst / rate + 500)));
    Ok((rate, burst))
}

/// Status codes of `n` requests from `via` (curl `--interface`) with `headers`, at most
/// `rate` a second (0: as fast as they go), on one keep-alive connection, and the time
/// from the first answer to the last. curl writes each status to stderr (unbuffered) as its
/// answer arrives, so the span is the requests' own, without curl's start-up or exit: on a
/// loaded machine those took 1.6 s of a 6 s run.
fn statuses(
    ctx: &Ctx,
    via: &str,
    headers: &[&str],
    rate: u32,
    n: usize,
    label: &str,
) -> Result<(Vec<u16>, Duration), String> {
    let host = ctx.tree.host();
    let dir = ctx
        .scratch
        .join(format!("bodies-{}", label.replace('/', "-")));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut cmd = Command::new("curl");
    cmd.args([
        "-s",
        "--interface",
        via,
        "--resolve",
        &format!("{host}:80:127.0.0.1"),
    ])
    .args(["-w", "%{stderr}%{http_code}\\n", "-o"])
    .arg(dir.join("#1"))
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    if rate > 0 {
        cmd.args(["--rate", &format!("{rate}/s")]);
    }
    for h in headers {
        cmd.args(["-H", h]);
    }
    // A label that is a path is requested itself (with a number), else under /limits/.
    let path = if label.starts_with('/') {
        label.to_string()
    } else {
        format!("/limits/{label}/")
    };
    cmd.arg(format!("http://{host}{path}[1-{n}]"));
    let mut child = cmd.spawn().map_err(|e| e.to_string())?;
    let mut codes = Vec::with_capacity(n);
    let (mut first, mut last) = (None, None);
    let lines = BufReader::new(child.stderr.take().ok_or("curl without stderr")?).lines();
    for line in lines.map_while(Result::ok) {
        if let Ok(code) = line.trim().parse::<u16>() {
            let now = Instant::now();
            first.get_or_insert(now);
            last = Some(now);
            codes.push(code);
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    expect(codes.len() == n, || {
        format!("{label}: {} of {n} answers (curl {status:?})", codes.len())
    })?;
    let span = last.zip(first).map(|(b, a)| b - a).unwrap_or_default();
    Ok((codes, span))
}

fn count(codes: &[u16], code: u16) -> usize {
    codes.iter().filter(|c| **c == code).count()
}

/// `got` is within ±10 % of `want`.
fn within(got: usize, want: f64) -> bool {
    (got as f64 - want).abs() <= want * 0.1
}

/// A burst of `n` requests at once from `via` with `headers`: how many were refused.
fn refused(ctx: &Ctx, via: &str, headers: &[&str], n: usize, label: &str) -> Result<usize, String> {
    let (codes, _) = statuses(ctx, via, headers, 0, n, label)?;
    expect(count(&codes, 200) + count(&codes, 429) == n, || {
        format!("{label}: statuses other than 200 and 429: {codes:?}")
    })?;
    Ok(count(&codes, 429))
}

/// Behind Cloudflare: from an edge address of the shipped list, `CF-Connecting-IP` is the
/// client (the app's X-Real-IP, the log line, the limit's key); the same header from an
/// unlisted address is ignored.
fn cdn_client_address(ctx: &Ctx) -> Result<(), String> {
    let (_, burst) = drained()?;
    let host = ctx.tree.host();
    let marker = format!("cdn-{}", ctx.nginx.label);
    let edge = ctx
        .http(host, "/cdn")
        .arg("--interface")
        .arg(CDN_ADDR)
        .arg("-A")
        .arg(format!("{marker}-edge"))
        .header("CF-Connecting-IP: 203.0.113.7")
        .header("X-Forwarded-For: 203.0.113.7");
    let v = echo(&ctx.send(&edge), "from Cloudflare's 173.245.48.10")?;
    expect_header(&v, "x-real-ip", "203.0.113.7", "from Cloudflare")?;
    expect_header(
        &v,
        "x-forwarded-for",
        "203.0.113.7, 173.245.48.10",
        "from Cloudflare",
    )?;
    let other = ctx
        .http(host, "/cdn")
        .arg("--interface")
        .arg(OTHER_ADDR)
        .arg("-A")
        .arg(format!("{marker}-other"))
        .header("CF-Connecting-IP: 203.0.113.7")
        .header("X-Forwarded-For: 203.0.113.7");
    let v = echo(&ctx.send(&other), "from unlisted 192.0.2.10")?;
    expect_header(&v, "x-real-ip", OTHER_ADDR, "from 192.0.2.10")?;
    expect_header(&v, "x-forwarded-for", OTHER_ADDR, "from 192.0.2.10")?;
    logged_as(
        ctx,
        &marker,
        &[("edge", "203.0.113.7"), ("other", OTHER_ADDR)],
    )?;
    // Limits: a burst from one Cloudflare client is refused beyond the burst; another
    // client through the same edge address is not.
    let n = burst as usize + 15;
    let first = refused(
        ctx,
        CDN_ADDR,
        &["CF-Connecting-IP: 203.0.113.20"],
        n,
        "cdn-a",
    )?;
    expect(first >= 10, || {
        format!("client 203.0.113.20: {first} of {n} refused, want ≥ 10")
    })?;
    let second = refused(
        ctx,
        CDN_ADDR,
        &["CF-Connecting-IP: 203.0.113.21"],
        5,
        "cdn-b",
    )?;
    expect(second == 0, || {
        format!("client 203.0.113.21 behind the same edge: {second} of 5 refused")
    })?;
    // From the unlisted address the header names nobody: a new value is the same client.
    let spoofed = refused(
        ctx,
        OTHER_ADDR,
        &["CF-Connecting-IP: 203.0.113.22"],
        n,
        "cdn-c",
    )?;
    expect(spoofed >= 10, || {
        format!("192.0.2.10: {spoofed} of {n} refused, want ≥ 10")
    })?;
    let again = refused(
        ctx,
        OTHER_ADDR,
        &["CF-Connecting-IP: 203.0.113.23"],
        5,
        "cdn-d",
    )?;
    // A new client would have its whole burst; this one has the little the bucket
    // drained since (the rate over a few curl start-ups).
    expect(again >= 3, || {
        format!("192.0.2.10 with another CF-Connecting-IP: {again} of 5 refused, want ≥ 3")
    })
}

/// One client at 3× the rate for 6 s gets 1 + burst + rate × time answers (±10 %) and 429
/// for the rest; a second client at half the rate at the same time gets none; a third from
/// an unlisted address, sending the second's CF-Connecting-IP at 3× the rate, is limited
/// as itself and does not touch the second's budget.
fn rate_limit_429(ctx: &Ctx) -> Result<(), String> {
    let (rate, burst) = drained()?;
    let secs = 6;
    let fast = (3 * rate * secs) as usize;
    let slow = (rate * secs / 2) as usize;
    let run = |via: &'static str, ip: &'static str, r: u32, n: usize, label: &'static str| {
        let header = format!("CF-Connecting-IP: {ip}");
        move || statuses(ctx, via, &[&header], r, n, label)
    };
    let (a, b, c) = std::thread::scope(|s| {
        let a = s.spawn(run(CDN_ADDR, "203.0.113.30", 3 * rate, fast, "rl-a"));
        let b = s.spawn(run(CDN_ADDR, "203.0.113.31", rate / 2, slow, "rl-b"));
        let c = s.spawn(run(OTHER_ADDR, "203.0.113.31", 3 * rate, fast, "rl-c"));
        let join = |h: std::thread::ScopedJoinHandle<'_, _>| {
            h.join()
                .unwrap_or_else(|_| Err("client thread panicked".to_string()))
        };
        (join(a), join(b), join(c))
    });
    let (b, _) = b?;
    expect(count(&b, 200) == slow, || {
        format!(
            "the second client at half the rate: {} of {slow} answered 200",
            count(&b, 200)
        )
    })?;
    for (who, result) in [
        ("203.0.113.30 via Cloudflare", a),
        ("192.0.2.10 spoofing", c),
    ] {
        let (codes, span) = result?;
        let ok = count(&codes, 200);
        let limited = count(&codes, 429);
        // The first request, the burst behind it, and what the bucket drained meanwhile.
        let want_ok = f64::from(rate) * span.as_secs_f64() + f64::from(burst) + 1.0;
        let want_limited = fast as f64 - want_ok;
        eprintln!(
            "rate_limit_429: {who}: {fast} requests answered over {:.2} s at {} r/s, rate {rate} r/s, burst {burst}: {ok} answered (expected {want_ok:.1}), {limited} × 429 (expected {want_limited:.1})",
            span.as_secs_f64(),
            3 * rate
        );
        expect(ok + limited == fast, || {
            format!("{who}: other statuses: {codes:?}")
        })?;
        expect(within(ok, want_ok) && within(limited, want_limited), || {
            format!(
                "{who}: {ok} answered and {limited} × 429 over {:.2} s, want {want_ok:.1} and {want_limited:.1} (±10 %)",
                span.as_secs_f64()
            )
        })?;
    }
    Ok(())
}

/// A path named with `--limit-path` has its own stricter zone: a burst there is refused
/// after 1 + 5, while the same client is still served elsewhere and another client there.
fn limit_path_stricter(ctx: &Ctx) -> Result<(), String> {
    drained()?;
    let me = "CF-Connecting-IP: 203.0.113.50";
    let (codes, _) = statuses(ctx, CDN_ADDR, &[me], 0, 12, "/login/a")?;
    // 1 + burst 5 at once; one more if the burst took over a second (1 r/s).
    let ok = count(&codes, 200);
    expect(
        (6..=7).contains(&ok) && ok + count(&codes, 429) == 12,
        || format!("12 requests at once under /login: {codes:?}, want 6 × 200, then 429"),
    )?;
    let (codes, _) = statuses(ctx, CDN_ADDR, &[me], 0, 5, "/limits/lp-elsewhere")?;
    expect(count(&codes, 200) == 5, || {
        format!("the same client elsewhere: {codes:?}")
    })?;
    let other = "CF-Connecting-IP: 203.0.113.51";
    let (codes, _) = statuses(ctx, CDN_ADDR, &[other], 0, 3, "/login/b")?;
    expect(count(&codes, 200) == 3, || {
        format!("another client under /login: {codes:?}")
    })
}

/// One request over a new connection to `dest`:80 (the kernel picks `dest` as the source
/// address too), after a PROXY protocol v1 header naming `client`, or none: the status and
/// body.
fn proxied(
    dest: &str,
    client: Option<&str>,
    host: &str,
    agent: &str,
) -> Result<(u16, String), String> {
    let mut s = std::net::TcpStream::connect((dest, 80)).map_err(|e| format!("{dest}:80: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    let header = client.map_or_else(String::new, |c| {
        format!("PROXY TCP4 {c} {dest} 40000 80\r\n")
    });
    let req = header
        + &format!(
            "GET /pp HTTP/1.0\r\nHost: {host}\r\nUser-Agent: {agent}\r\nX-Forwarded-For: 6.6.6.6\r\n\r\n"
        );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

/// Behind an L4 balancer (127.0.0.1, trusted): the PROXY header's address is the client
/// (X-Real-IP, X-Forwarded-For, the log line, the limit's key); from 192.0.2.10 the header
/// is read but not trusted; without it nginx answers nothing.
fn proxy_protocol_client_address(ctx: &Ctx) -> Result<(), String> {
    let (_, burst) = drained()?;
    let host = ctx.tree.host();
    let marker = format!("pp-{}", ctx.nginx.label);
    let headers = |body: &str, what: &str| -> Result<serde_json::Value, String> {
        serde_json::from_str(body)
            .map_err(|e| format!("{what}: not the app's JSON ({e}): {body:.200}"))
    };
    let (code, body) = proxied(
        "127.0.0.1",
        Some("203.0.113.9"),
        host,
        &format!("{marker}-lb"),
    )?;
    expect(code == 200, || {
        format!("through the balancer: status {code}")
    })?;
    let v = headers(&body, "through the balancer")?;
    expect_header(&v, "x-real-ip", "203.0.113.9", "through the balancer")?;
    expect_header(&v, "x-forwarded-for", "203.0.113.9", "through the balancer")?;
    let (code, body) = proxied(
        OTHER_ADDR,
        Some("203.0.113.9"),
        host,
        &format!("{marker}-other"),
    )?;
    expect(code == 200, || format!("from 192.0.2.10: status {code}"))?;
    let v = headers(&body, "from 192.0.2.10")?;
    expect_header(&v, "x-real-ip", OTHER_ADDR, "from 192.0.2.10")?;
    let (code, _) = proxied("127.0.0.1", None, host, &format!("{marker}-none"))?;
    expect(code == 0, || {
        format!("without a PROXY header: status {code}, want no answer")
    })?;
    logged_as(
        ctx,
        &marker,
        &[("lb", "203.0.113.9"), ("other", OTHER_ADDR)],
    )?;
    // The limit's key is the PROXY header's client.
    let n = burst as usize + 15;
    let mut limited = 0;
    for _ in 0..n {
        let (code, _) = proxied("127.0.0.1", Some("203.0.113.40"), host, "pp-burst")?;
        limited += usize::from(code == 429);
    }
    expect(limited >= 10, || {
        format!("client 203.0.113.40: {limited} of {n} refused, want ≥ 10")
    })?;
    let (code, _) = proxied("127.0.0.1", Some("203.0.113.41"), host, "pp-other")?;
    expect(code == 200, || {
        format!("client 203.0.113.41 through the same balancer: {code}")
    })
}

/// On a static site a page's assets are not counted: three bursts' worth of requests for
/// a script on disk at once from one client all get 200 (a page asks for dozens at once,
/// and each counted against the rate before), while the same client's pages right after
/// are still limited.
fn assets_not_rate_limited(ctx: &Ctx) -> Result<(), String> {
    let (_, burst) = drained()?;
    let n = 3 * burst as usize;
    let assets = refused(ctx, "127.0.0.1", &[], n, "/app.js?n=")?;
    expect(assets == 0, || {
        format!("{n} script requests at once: {assets} got 429, want none")
    })?;
    let pages = refused(ctx, "127.0.0.1", &[], n, "/index.html?n=")?;
    expect(pages >= burst as usize, || {
        format!("{n} page requests at once after them: {pages} got 429, want at least {burst}")
    })
}

/// On a mixed site the limits are where the application answers: three bursts' worth of
/// requests at once for a script on disk all get 200 (before, every request counted, and
/// a page's assets were refused), while the same for a script not on disk, which falls
/// back to the application, get 429 beyond the burst (uncounted, a `/signin.js` route
/// could be tried without limit).
fn mixed_assets_counted_at_the_app(ctx: &Ctx) -> Result<(), String> {
    let (_, burst) = drained()?;
    let n = 3 * burst as usize;
    let on_disk = refused(ctx, "127.0.0.1", &[], n, "/app.js?n=")?;
    expect(on_disk == 0, || {
        format!("{n} requests for /app.js (on disk) at once: {on_disk} got 429, want none")
    })?;
    let (_, burst) = drained()?;
    let missing = refused(ctx, "127.0.0.1", &[], n, "/signin.js?n=")?;
    expect(missing >= burst as usize, || {
        format!(
            "{n} requests for /signin.js (the application's) at once: {missing} got 429, want at least {burst}"
        )
    })
}

/// Where every URI reaches the application, one that looks like an asset is counted like
/// any other: a burst of `/signin.js` from one client gets 429 beyond the burst (uncounted,
/// it let a sign-in route that answers `.js` be tried without limit). Not under the tree's
/// `--limit-path /login`, whose own zone would refuse it anyway.
fn app_assets_counted(ctx: &Ctx) -> Result<(), String> {
    let (_, burst) = drained()?;
    let n = 3 * burst as usize;
    let client = ["CF-Connecting-IP: 203.0.113.41"];
    let refused = refused(ctx, CDN_ADDR, &client, n, "/signin.js?n=")?;
    expect(refused >= burst as usize, || {
        format!("{n} requests for /signin.js at once: {refused} got 429, want at least {burst}")
    })
}

/// A page whose scripts the proxied application serves loads whole: its 40 chunk
/// requests from one client, all in flight together (each takes the app 600 ms), are
/// answered 200. At a rate for pages alone (burst 24, 24 at once) 16 of them got 429.
fn page_from_the_app_loads_whole(ctx: &Ctx) -> Result<(), String> {
    drained()?;
    let codes: Vec<Resp> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..PAGE_REQUESTS)
            .map(|i| s.spawn(move || ctx.send(&ctx.site(&format!("/slow/chunk-{i}.js")))))
            .collect();
        threads.into_iter().filter_map(|t| t.join().ok()).collect()
    });
    let refused: Vec<String> = codes
        .iter()
        .filter(|r| r.status != 200)
        .map(Resp::summary)
        .collect();
    expect(codes.len() == PAGE_REQUESTS && refused.is_empty(), || {
        format!(
            "{} of {PAGE_REQUESTS} chunk requests of one page at once were not answered 200: {}",
            PAGE_REQUESTS - (codes.len() - refused.len()),
            refused.first().map_or("", String::as_str)
        )
    })
}

/// PHP run by a URI that ends like an asset counts like any other: its path info
/// (`/index.php/a.js`) and a missing asset that falls back to `index.php`. Keyed without
/// asset URIs at server level, both ran PHP uncounted; a script's own asset on disk
/// still does not count.
fn php_asset_uris_counted(ctx: &Ctx) -> Result<(), String> {
    crate::php::write(ctx, "/index.php", "<?php echo 'php';\n")?;
    let _fpm = crate::php::Fpm::start(ctx)?;
    let (_, burst) = rate_and_burst()?;
    let n = 3 * burst as usize;
    for (label, path) in [
        ("path info", "/index.php/a.js?n="),
        ("missing asset", "/missing.js?n="),
    ] {
        drained()?;
        let refused = refused(ctx, OTHER_ADDR, &[], n, path)?;
        expect(refused >= burst as usize, || {
            format!(
                "{n} requests for {path}N ({label}) at once: {refused} got 429, want at least {burst}"
            )
        })?;
    }
    drained()?;
    let on_disk = refused(ctx, OTHER_ADDR, &[], n, "/app.js?n=")?;
    expect(on_disk == 0, || {
        format!("{n} requests for /app.js (a file on disk) at once: {on_disk} got 429, want none")
    })
}

/// Cloudflare sends requests on an idle connection to the origin for up to 900 s: one
/// request from its edge, 32 s of silence, then a second on the same connection must be
/// answered. At `keepalive_timeout 30s` nginx had closed it, and Cloudflare answers a
/// request it sent into that close with a 520.
fn cdn_keeps_idle_connections(ctx: &Ctx) -> Result<(), String> {
    // The kernel picks the destination, an address of this namespace, as the source too.
    let mut s =
        std::net::TcpStream::connect((CDN_ADDR, 80)).map_err(|e| format!("{CDN_ADDR}:80: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    let host = ctx.tree.host();
    let request =
        format!("GET /cdn-idle HTTP/1.1\r\nHost: {host}\r\nCF-Connecting-IP: 203.0.113.50\r\n\r\n");
    for (n, idle) in [(1, 0), (2, 32)] {
        std::thread::sleep(Duration::from_secs(idle));
        let status = s
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|()| read_response(&mut s));
        expect(status == Ok(200), || {
            format!(
                "request {n} on one connection from the CDN, after {idle} s idle: {status:?}, want 200"
            )
        })?;
    }
    Ok(())
}

/// Reads one HTTP/1.1 response with a `Content-Length` from `s`: its status.
pub(crate) fn read_response(s: &mut std::net::TcpStream) -> Result<u16, String> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        match s.read(&mut byte) {
            Ok(0) => return Err(format!("closed after {} bytes", buf.len())),
            Ok(_) => buf.push(byte[0]),
            Err(e) => return Err(e.to_string()),
        }
    }
    let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or_else(|| format!("no status line: {head:?}"))?;
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .ok_or_else(|| format!("no Content-Length: {head:?}"))?;
    let mut body = vec![0u8; length];
    s.read_exact(&mut body).map_err(|e| e.to_string())?;
    Ok(status)
}

/// The behaviours of this module.
pub fn all() -> Vec<Behaviour> {
    vec![
        Behaviour {
            name: "cdn_client_address",
            applies: |t| t.id == CDN_TREE,
            run: cdn_client_address,
        },
        Behaviour {
            name: "rate_limit_429",
            applies: |t| t.id == CDN_TREE,
            run: rate_limit_429,
        },
        Behaviour {
            name: "assets_not_rate_limited",
            applies: |t| t.id == STATIC_TREE,
            run: assets_not_rate_limited,
        },
        Behaviour {
            name: "mixed_assets_counted_at_the_app",
            applies: |t| t.id == MIXED_TREE,
            run: mixed_assets_counted_at_the_app,
        },
        Behaviour {
            name: "app_assets_counted",
            applies: |t| t.id == CDN_TREE,
            run: app_assets_counted,
        },
        Behaviour {
            name: "cdn_keeps_idle_connections",
            applies: |t| t.id == CDN_TREE,
            run: cdn_keeps_idle_connections,
        },
        Behaviour {
            name: "limit_path_stricter",
            applies: |t| t.id == CDN_TREE,
            run: limit_path_stricter,
        },
        Behaviour {
            name: "php_asset_uris_counted",
            applies: |t| t.id == PHP_TREE,
            run: php_asset_uris_counted,
        },
        Behaviour {
            name: "page_from_the_app_loads_whole",
            // Mixed: the chunks are no files on disk, so the application serves them.
            applies: |t| t.id == PROXY_TREE || t.id == MIXED_TREE,
            run: page_from_the_app_loads_whole,
        },
        Behaviour {
            name: "proxy_protocol_client_address",
            applies: |t| t.id == PP_TREE,
            run: proxy_protocol_client_address,
        },
    ]
}

/// Whether behaviour `name` probes tree `t`: a tree of this module only by its own.
/// Each `(who, client)`: the one request marked `{marker}-{who}` is logged with `client` as
/// its address.
fn logged_as(ctx: &Ctx, marker: &str, expected: &[(&str, &str)]) -> Result<(), String> {
    for (who, client) in expected {
        let lines = logged(ctx, &format!("{marker}-{who}"), 1)?;
        expect(
            lines.len() == 1 && lines[0].starts_with(&format!("{client} ")),
            || format!("the {who} request is logged as {lines:?}, want client {client}"),
        )?;
    }
    Ok(())
}

pub fn probes(name: &str, t: &Tree) -> bool {
    t.special != Special::Own || all().iter().any(|b| b.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_percent_either_way() {
        assert!(within(88, 80.0) && within(72, 80.0) && !within(89, 80.0) && !within(71, 80.0));
    }
}
