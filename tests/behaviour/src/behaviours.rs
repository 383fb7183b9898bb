//! The named behaviours: which trees each applies to, and the probe that decides it.
//! Every expectation is the design of issue 11 (docs/verification.md, "Behaviour suite").

use std::path::Path;
use std::time::Duration;

use crate::app::{APP_HEADER, App};
use crate::client::{self, Req, Resp};
use crate::grid::{APP_ADDR, LB_ADDR, Nginx, OTHER_ADDR, STATUS_PORT, Special, Tree};
use crate::logs;

/// The ACME token's name and content.
pub const TOKEN: &str = "behaviour-token-4f1c";
pub const TOKEN_CONTENT: &str = "behaviour-token-4f1c.key-authorization";
/// Files in the document root that must never be served.
pub const HIDDEN: &[&str] = &[
    "/.env",
    "/.git/config",
    "/.htaccess",
    "/site.bak",
    "/index.html~",
    "/x.swp",
    "/old.orig",
];
/// `--max-body-size 2M`.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;
/// WebSocket messages per round trip test.
pub const WS_MESSAGES: usize = 1000;

/// What a behaviour can see of a running (tree, nginx).
#[derive(Debug)]
pub struct Ctx<'a> {
    pub tree: &'a Tree,
    pub nginx: &'a Nginx,
    pub app: &'a App,
    pub scratch: &'a Path,
    /// The plan's numbers the probes check against.
    pub numbers: PlanNumbers,
    /// The nginx master's process id (`kill -USR1` flushes the buffered access log).
    pub pid: u32,
    /// The gzip and brotli files of `/app.js`, as written.
    pub app_js_gz: Vec<u8>,
    pub app_js_br: Vec<u8>,
}

/// The numbers the probes need: `worker_processes`, upstream `keepalive` and the TLS 1.3
/// tickets per handshake (`ssl_conf_command NumTickets`), where a tree sets them, and
/// whether the server picks the TLS suite (`ssl_prefer_server_ciphers on`) (read from the
/// tree's JSON output, or from a hand-made tree's files).
#[derive(Debug, Clone, Copy)]
pub struct PlanNumbers {
    pub workers: usize,
    pub keepalive: Option<usize>,
    pub tickets: Option<usize>,
    pub server_order: bool,
}

/// A named behaviour.
#[derive(Debug, Clone, Copy)]
pub struct Behaviour {
    pub name: &'static str,
    pub applies: fn(&Tree) -> bool,
    pub run: fn(&Ctx) -> Result<(), String>,
}

fn port_suffix(port: u16, default: u16) -> String {
    if port == default {
        String::new()
    } else {
        format!(":{port}")
    }
}

impl Ctx<'_> {
    fn url(scheme: &str, host: &str, port: u16, path: &str) -> String {
        let default = if scheme == "https" { 443 } else { 80 };
        let host = if host.contains(':') {
            format!("[{host}]")
        } else {
            host.to_string()
        };
        format!("{scheme}://{host}{}{path}", port_suffix(port, default))
    }

    fn req(scheme: &str, host: &str, port: u16, path: &str, via: &str) -> Req {
        let r = Req::new(Self::url(scheme, host, port, path));
        let r = if scheme == "https" { r.arg("-k") } else { r };
        if host.parse::<std::net::IpAddr>().is_ok() {
            if via == "127.0.0.1" {
                r
            } else {
                // An IP literal as name, reached over another address: keep Host.
                Req::new(Self::url(scheme, via.trim_matches(['[', ']']), port, path))
                    .args_from(&r)
                    .header(&format!("Host: {host}"))
            }
        } else {
            r.resolve(host, port, via)
        }
    }

    /// Plain HTTP to `host` on port 80 over IPv4 loopback.
    pub fn http(&self, host: &str, path: &str) -> Req {
        Self::req("http", host, 80, path, "127.0.0.1")
    }

    /// HTTPS to `host` on the tree's TLS port, certificate not verified.
    pub fn https(&self, host: &str, path: &str) -> Req {
        Self::req("https", host, self.tree.tls_port, path, "127.0.0.1")
    }

    /// The site's own scheme: HTTPS when it serves TLS, else plain HTTP.
    pub fn site(&self, path: &str) -> Req {
        if self.tree.serves_tls() {
            self.https(self.tree.host(), path)
        } else {
            self.http(self.tree.host(), path)
        }
    }

    /// `path` as the trusted balancer sends it: from its address, naming a client (without
    /// one the realip module keeps the peer's address and the scheme map ignores the
    /// header) and the scheme that client used.
    pub fn from_balancer(&self, path: &str, proto: &str) -> Req {
        self.site(path)
            .arg("--interface")
            .arg(LB_ADDR)
            .header("X-Forwarded-For: 203.0.113.7")
            .header(&format!("X-Forwarded-Proto: {proto}"))
    }

    pub fn send(&self, r: &Req) -> Resp {
        r.send(self.scratch)
    }

    /// `path` through the trusted balancer over HTTP, then twice over HTTPS: a cache keyed
    /// by the client's scheme answers MISS, MISS, HIT, each with the answer made for that
    /// scheme. `read` gives a response's cache status and the scheme its maker saw.
    pub fn cached_per_scheme(
        &self,
        path: &str,
        read: impl Fn(&Resp) -> Result<(String, String), String>,
    ) -> Result<(), String> {
        let mut seen = Vec::new();
        for proto in ["http", "https", "https"] {
            let (cache, told) = read(&self.send(&self.from_balancer(path, proto)))?;
            seen.push(format!("{proto}: {cache} for {told}"));
        }
        let want = [
            "http: MISS for http",
            "https: MISS for https",
            "https: HIT for https",
        ];
        expect(seen == want, || {
            format!(
                "X-Forwarded-Proto, then X-Cache-Status and the scheme the answer was made for: {seen:?}, expected {want:?}"
            )
        })
    }

    fn scheme(&self) -> &'static str {
        if self.tree.serves_tls() {
            "https"
        } else {
            "http"
        }
    }
}

impl Req {
    fn args_from(mut self, other: &Req) -> Req {
        self.args.extend(other.args.iter().cloned());
        self
    }
}

pub(crate) fn expect(cond: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if cond { Ok(()) } else { Err(what()) }
}

fn status(ctx: &Ctx, r: &Req, want: u16, what: &str) -> Result<Resp, String> {
    let resp = ctx.send(r);
    expect(resp.exit == 0 && resp.status == want, || {
        format!("{what}: want {want}, got {}", resp.summary())
    })?;
    Ok(resp)
}

/// The app's JSON echo of a request, or why there is none.
pub(crate) fn echo(resp: &Resp, what: &str) -> Result<serde_json::Value, String> {
    expect(
        resp.exit == 0 && resp.status == 200 && resp.header(APP_HEADER).is_some(),
        || format!("{what}: want 200 from the app, got {}", resp.summary()),
    )?;
    serde_json::from_slice(&resp.body).map_err(|e| format!("{what}: app answer not JSON: {e}"))
}

fn header_of<'v>(v: &'v serde_json::Value, name: &str) -> Option<&'v str> {
    v["headers"][name].as_str()
}

pub(crate) fn expect_header(
    v: &serde_json::Value,
    name: &str,
    want: &str,
    what: &str,
) -> Result<(), String> {
    let got = header_of(v, name);
    expect(got == Some(want), || {
        format!("{what}: the app saw {name}: {got:?}, want {want:?}")
    })
}

// --- the behaviours ------------------------------------------------------------------------

fn acme_token_over_http(ctx: &Ctx) -> Result<(), String> {
    let names: Vec<&str> = ctx.tree.names.iter().map(String::as_str).collect();
    for name in names {
        let r = ctx.http(name, &format!("/.well-known/acme-challenge/{TOKEN}"));
        let resp = status(ctx, &r, 200, &format!("token on http://{name}"))?;
        expect(resp.text() == TOKEN_CONTENT, || {
            format!("token on http://{name}: body {:?}", resp.text())
        })?;
        let path = "/some/page?x=1&y=two";
        let resp = status(
            ctx,
            &ctx.http(name, path),
            308,
            &format!("http://{name}{path}"),
        )?;
        // An IPv6 name in brackets, as in the URL the client asked for; with --canonical
        // every name goes to the first at once (unless HSTS for the subdomains must be
        // learned on each name's own HTTPS answer first).
        let one_hop = ctx.tree.canonical() && !matches!(ctx.tree.hsts(), "subdomains" | "preload");
        let to = if one_hop { ctx.tree.host() } else { name };
        let want = Ctx::url("https", to, ctx.tree.tls_port, path);
        expect(resp.header("location") == Some(want.as_str()), || {
            format!(
                "http://{name}{path}: Location {:?}, want {want:?}",
                resp.header("location")
            )
        })?;
    }
    Ok(())
}

/// `--canonical`: every other name is one redirect away from the first, from plain HTTP
/// and from HTTPS, keeping the path, the query and the method (308), and an HTTPS
/// redirect carries the site's HSTS (with HSTS for the subdomains, plain HTTP goes to
/// HTTPS on the same name first); behind a balancer that ended TLS, the redirect keeps the
/// client's scheme; the first name is served itself.
fn canonical_name(ctx: &Ctx) -> Result<(), String> {
    let tls = ctx.tree.serves_tls();
    let first = ctx.tree.host();
    let path = "/some/page?x=1&y=two";
    let names = ctx.tree.server_names();
    expect(names.len() > 1, || {
        format!("{names:?}: no other name to redirect")
    })?;
    let same_name_first = matches!(ctx.tree.hsts(), "subdomains" | "preload");
    for alias in &names[1..] {
        let mut asks = vec![(
            "http",
            ctx.http(alias, path),
            match (tls, same_name_first) {
                (false, _) => Ctx::url("http", first, 80, path),
                (true, false) => Ctx::url("https", first, ctx.tree.tls_port, path),
                (true, true) => Ctx::url("https", alias, ctx.tree.tls_port, path),
            },
        )];
        if tls {
            let want = Ctx::url("https", first, ctx.tree.tls_port, path);
            asks.push(("https", ctx.https(alias, path), want));
        }
        if ctx.tree.behind_lb && !tls {
            // The balancer ended TLS: its client asked for https://alias/….
            let r = ctx
                .http(alias, path)
                .arg("--interface")
                .arg(LB_ADDR)
                .header("X-Forwarded-For: 203.0.113.7")
                .header("X-Forwarded-Proto: https");
            asks.push(("https (balancer)", r, Ctx::url("https", first, 443, path)));
        }
        for (s, r, want) in asks {
            for method in ["GET", "POST"] {
                let what = format!("{method} {s}://{alias}{path}");
                let resp = status(ctx, &r.clone().arg("-X").arg(method), 308, &what)?;
                expect(resp.header("location") == Some(want.as_str()), || {
                    format!(
                        "{what}: Location {:?}, want {want:?}",
                        resp.header("location")
                    )
                })?;
                let hsts = resp.header("strict-transport-security");
                expect(
                    s != "https" || (hsts.is_some() == (ctx.tree.hsts() != "off")),
                    || format!("{what}: Strict-Transport-Security {hsts:?}"),
                )?;
            }
        }
    }
    let resp = ctx.send(&ctx.site("/"));
    expect(resp.exit == 0 && !(300..400).contains(&resp.status), || {
        format!("{} itself: {}", ctx.tree.host(), resp.summary())
    })
}

fn closed_without_answer(ctx: &Ctx, r: &Req, what: &str) -> Result<(), String> {
    let resp = ctx.send(r);
    expect(resp.exit == 52, || {
        format!(
            "{what}: want the connection closed with no response (curl exit 52), got {}",
            resp.summary()
        )
    })
}

fn handshake_refused(ctx: &Ctx, r: &Req, what: &str) -> Result<(), String> {
    let resp = ctx.send(r);
    expect(resp.exit == 35, || {
        format!(
            "{what}: want the TLS handshake refused (curl exit 35), got {}",
            resp.summary()
        )
    })
}

fn unknown_host(ctx: &Ctx) -> Result<(), String> {
    closed_without_answer(ctx, &ctx.http("unknown.test", "/"), "Host unknown.test")?;
    // An IP-named TLS site is what clients without SNI reach, so it is the TLS default
    // server: there, unknown names reach it too and only the plain-HTTP part applies.
    if ctx.tree.serves_tls() && !ctx.tree.host_is_ip() {
        handshake_refused(ctx, &ctx.https("unknown.test", "/"), "SNI unknown.test")?;
        let r = ctx
            .https(ctx.tree.host(), "/")
            .arg("--http2")
            .header("Host: other.test");
        let resp = status(ctx, &r, 421, "HTTP/2, site SNI, :authority other.test")?;
        expect(resp.version == "2", || {
            format!("HTTP/2 was not negotiated (HTTP/{})", resp.version)
        })?;
    }
    if !ctx.tree.host_is_ip() {
        closed_without_answer(ctx, &Req::new("http://127.0.0.1/"), "Host 127.0.0.1")?;
        if ctx.tree.serves_tls() {
            let url = Ctx::url("https", "127.0.0.1", ctx.tree.tls_port, "/");
            handshake_refused(
                ctx,
                &Req::new(url).arg("-k"),
                "https://127.0.0.1 without SNI",
            )?;
        }
    }
    Ok(())
}

fn lb_health_probe(ctx: &Ctx) -> Result<(), String> {
    // The generator's fixed health location (LocationRole::Health).
    let path = "/healthz";
    let mut probes = vec![(
        Req::new(format!("http://127.0.0.1{path}")),
        "plain HTTP by IP",
    )];
    if ctx.tree.serves_tls() {
        let url = Ctx::url("https", "127.0.0.1", ctx.tree.tls_port, path);
        probes.push((Req::new(url).arg("-k"), "TLS by IP without SNI"));
    }
    for (r, what) in probes {
        let resp = status(ctx, &r, 200, &format!("{what} {path}"))?;
        expect(resp.text().trim() == "ok", || {
            format!("{what} {path}: body {:?}, want \"ok\"", resp.text())
        })?;
    }
    Ok(())
}

/// A directory asked for without its slash, through a balancer that ends TLS: nginx's own
/// redirect to the slash keeps the scheme the client used. An absolute `Location` of
/// nginx's making says `http://` there (a blog's `/wp-admin`: an HTTPS client sent to plain
/// HTTP, which a balancer listening on 443 alone does not even answer).
fn directory_redirect_keeps_the_scheme(ctx: &Ctx) -> Result<(), String> {
    crate::php::write(ctx, "/area/index.html", "area\n")?;
    let r = ctx.from_balancer("/area", "https");
    let resp = status(ctx, &r, 301, "/area from the balancer for HTTPS")?;
    let location = resp.header("location").unwrap_or("");
    expect(
        location == "/area/" || location.starts_with("https://"),
        || {
            format!(
                "/area from the balancer for HTTPS: Location {location:?}, want /area/ or https://…"
            )
        },
    )
}

fn hidden_and_backup_files(ctx: &Ctx) -> Result<(), String> {
    let mut wrong = Vec::new();
    for path in HIDDEN {
        let resp = ctx.send(&ctx.site(path));
        if resp.exit != 0 || resp.status != 404 {
            wrong.push(format!("{path} → {}", resp.summary()));
        } else if ctx.app.saw(path) {
            wrong.push(format!("{path} reached the app"));
        }
    }
    expect(wrong.is_empty(), || {
        format!("want 404 for: {}", wrong.join("; "))
    })?;
    status(
        ctx,
        &ctx.site("/.well-known/security.txt"),
        200,
        "/.well-known/security.txt",
    )?;
    Ok(())
}

/// The site's own additions: a `.conf` file in `conf.d/NAME.d/` is part of the site
/// after a reload (a location of the user's own answers), beside the plan's locations.
fn own_additions_served(ctx: &Ctx) -> Result<(), String> {
    let stem = ctx.tree.names[0].trim_start_matches("*.");
    let dir = Path::new("/etc/nginx/conf.d").join(format!("{stem}.d"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let own = dir.join("own.conf");
    std::fs::write(
        &own,
        "location = /own-addition {\n    return 200 \"added by hand\\n\";\n}\n",
    )
    .map_err(|e| e.to_string())?;
    let reload = |what: &str| {
        std::process::Command::new("kill")
            .args(["-HUP", &ctx.pid.to_string()])
            .status()
            .map_err(|e| format!("kill -HUP ({what}): {e}"))
    };
    reload("with the addition")?;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let answer = loop {
        let resp = ctx.send(&ctx.site("/own-addition"));
        if resp.status == 200 || std::time::Instant::now() > deadline {
            break resp;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let beside = ctx.send(&ctx.site("/app.js"));
    // As it was for the tree's other behaviours.
    let _ = std::fs::remove_dir_all(&dir);
    reload("without it")?;
    expect(
        answer.status == 200 && answer.text() == "added by hand\n",
        || {
            format!(
                "/own-addition from {}: want 200 «added by hand», got {}",
                own.display(),
                answer.summary()
            )
        },
    )?;
    expect(beside.status == 200, || {
        format!("/app.js beside the addition: {}", beside.summary())
    })
}

/// A single-page application: its routes, which are no files, get the root's index.html
/// (revalidated on every visit, as every page); a directory's own index.html comes first;
/// a missing script, style or image is 404, never the page sent as one.
fn spa_routes_get_the_index(ctx: &Ctx) -> Result<(), String> {
    crate::php::write(
        ctx,
        "/docs/index.html",
        "<!doctype html><title>docs</title>\n",
    )?;
    let index = std::fs::read_to_string(Path::new(ctx.tree.root).join("index.html"))
        .map_err(|e| e.to_string())?;
    for (path, body) in [
        ("/dashboard", index.as_str()),
        ("/users/7/settings?tab=keys", index.as_str()),
        ("/docs", "<!doctype html><title>docs</title>\n"),
        ("/docs/", "<!doctype html><title>docs</title>\n"),
    ] {
        let resp = status(ctx, &ctx.site(path), 200, path)?;
        let ct = resp.header("content-type").unwrap_or("");
        let cc = resp.header("cache-control").unwrap_or("");
        expect(
            resp.text() == body && ct.starts_with("text/html") && cc == "no-cache",
            || {
                format!(
                    "{path}: want the page «{}» as text/html with Cache-Control: no-cache, got «{}» as {ct:?} with {cc:?}",
                    body.trim_end(),
                    resp.text().trim_end()
                )
            },
        )?;
    }
    for path in ["/assets/missing.js", "/missing.css", "/gone.png"] {
        status(ctx, &ctx.site(path), 404, path)?;
    }
    status(ctx, &ctx.site("/app.js"), 200, "/app.js").map(|_| ())
}

/// Paths of a Git forge, a file store or a log viewer that look like hidden files or
/// leftovers: in the proxied workloads they are the application's to answer.
pub const APP_DOTTED: &[&str] = &[
    "/alice/repo/src/branch/main/.gitignore",
    "/alice/repo/raw/branch/main/.github/workflows/ci.yml",
    "/files/alice/backup.sql",
    "/api/jobs/42/output.log",
    "/alice/repo.git/info/refs?service=git-upload-pack",
    "/docs/.env.example",
];
/// A version-control directory and a root `.env`: never passed to the application (one
/// that serves its own folder would hand them out).
pub const APP_SECRETS: &[&str] = &["/.git/config", "/.env", "/shop/.svn/entries", "/.hg/hgrc"];

/// Where nginx serves no files, the application answers every path, dotted ones too, but
/// for version-control directories and a root `.env`.
fn app_owns_dotted_paths(ctx: &Ctx) -> Result<(), String> {
    for path in APP_DOTTED {
        let v = echo(&ctx.send(&ctx.site(path)), path)?;
        expect(v["path"] == *path, || {
            format!("{path}: the app saw {}", v["path"])
        })?;
    }
    for path in APP_SECRETS {
        let resp = ctx.send(&ctx.site(path));
        expect(resp.status == 404 && !ctx.app.saw(path), || {
            format!(
                "{path}: want 404 from nginx, never at the app, got {}",
                resp.summary()
            )
        })?;
    }
    Ok(())
}

/// The content type of each file, and UTF-8 named for text (a browser reads unlabelled
/// text in its locale's legacy encoding; RFC 9116 asks it of security.txt).
fn content_types(ctx: &Ctx) -> Result<(), String> {
    for (path, ok, charset) in [
        (
            "/m.mjs",
            &["text/javascript", "application/javascript"][..],
            true,
        ),
        (
            "/site.webmanifest",
            &["application/manifest+json"][..],
            false,
        ),
        ("/.well-known/security.txt", &["text/plain"][..], true),
        ("/index.html", &["text/html"][..], true),
        (
            "/app.js",
            &["application/javascript", "text/javascript"][..],
            true,
        ),
        ("/exists.png", &["image/png"][..], false),
    ] {
        let resp = status(ctx, &ctx.site(path), 200, path)?;
        let ct = resp.header("content-type").unwrap_or("");
        let mut parts = ct.split(';').map(str::trim);
        let base = parts.next().unwrap_or("");
        let named = parts.any(|p| p.eq_ignore_ascii_case("charset=utf-8"));
        expect(ok.contains(&base) && named == charset, || {
            let want = if charset {
                "; charset=utf-8"
            } else {
                " without a charset"
            };
            format!(
                "{path}: Content-Type {ct:?}, want {}{want}",
                ok.join(" or ")
            )
        })?;
    }
    Ok(())
}

fn ws_messages<S: std::io::Read + std::io::Write>(
    url: &str,
    host_header: &str,
    stream: S,
) -> Result<(), String> {
    use tungstenite::client::IntoClientRequest;
    let mut request = url
        .into_client_request()
        .map_err(|e| format!("request: {e}"))?;
    request.headers_mut().insert(
        "host",
        host_header
            .parse()
            .map_err(|_| "bad host header".to_string())?,
    );
    let (mut ws, resp) = tungstenite::client::client(request, stream)
        .map_err(|e| format!("the upgrade through nginx failed: {e}"))?;
    expect(resp.status() == 101, || format!("status {}", resp.status()))?;
    for i in 0..WS_MESSAGES {
        let m = format!("message {i}");
        ws.send(tungstenite::Message::text(m.clone()))
            .map_err(|e| format!("send {i}: {e}"))?;
        let back = ws.read().map_err(|e| format!("read {i}: {e}"))?;
        expect(back.to_text().ok() == Some(m.as_str()), || {
            format!("message {i} came back as {back:?}")
        })?;
    }
    let _ = ws.close(None);
    Ok(())
}

fn websocket_round_trip(ctx: &Ctx) -> Result<(), String> {
    let host = ctx.tree.host();
    let port = if ctx.tree.serves_tls() {
        ctx.tree.tls_port
    } else {
        80
    };
    let default = if ctx.tree.serves_tls() { 443 } else { 80 };
    let host_header = format!("{host}{}", port_suffix(port, default));
    let url = format!("ws://{host_header}/ws");
    if ctx.tree.serves_tls() {
        let sni = (!ctx.tree.host_is_ip()).then_some(host);
        let s =
            client::SClient::connect(port, sni).map_err(|e| format!("openssl s_client: {e}"))?;
        ws_messages(&url, &host_header, s)
    } else {
        let s = std::net::TcpStream::connect(("127.0.0.1", 80)).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(Duration::from_secs(10)))
            .map_err(|e| e.to_string())?;
        ws_messages(&url, &host_header, s)
    }
}

fn body_size_limit(ctx: &Ctx) -> Result<(), String> {
    let upload = |r: Req, file: &Path| {
        r.arg("--data-binary")
            .arg(format!("@{}", file.display()))
            .header("Content-Type: application/octet-stream")
            .header("Expect:")
    };
    let body_file = |len: usize| ctx.scratch.join(format!("body-{len}"));
    for (len, want) in [(BODY_LIMIT, 200), (BODY_LIMIT + 1, 413)] {
        let file = body_file(len);
        std::fs::write(&file, vec![b'x'; len]).map_err(|e| e.to_string())?;
        let r = upload(ctx.site("/upload"), &file);
        let resp = status(ctx, &r, want, &format!("POST of {len} bytes"))?;
        if want == 200 {
            let v = echo(&resp, "POST at the limit")?;
            expect(v["body_length"] == len, || {
                format!("the app got {} bytes, want {len}", v["body_length"])
            })?;
        }
    }
    // An upload at the limit sent where the site redirects (plain HTTP, another name) gets
    // its 308, not the 413 of nginx's own 1m: the size is checked before the redirect.
    let mut redirects = Vec::new();
    if ctx.tree.serves_tls() {
        redirects.push(ctx.http(ctx.tree.host(), "/upload"));
    }
    if ctx.tree.canonical() {
        for alias in &ctx.tree.server_names()[1..] {
            redirects.push(ctx.http(alias, "/upload"));
            if ctx.tree.serves_tls() {
                redirects.push(ctx.https(alias, "/upload"));
            }
        }
    }
    for r in redirects {
        let r = upload(r, &body_file(BODY_LIMIT));
        let what = format!("POST of {BODY_LIMIT} bytes to {}", r.url);
        status(ctx, &r, 308, &what)?;
    }
    Ok(())
}

fn forwarded_headers_edge(ctx: &Ctx) -> Result<(), String> {
    let r = ctx
        .site("/fwd-edge")
        .header("X-Forwarded-For: 6.6.6.6")
        .header("X-Forwarded-Proto: https")
        .header("X-Real-IP: 6.6.6.6");
    let v = echo(&ctx.send(&r), "a spoofing client at the edge")?;
    expect_header(&v, "x-forwarded-for", "127.0.0.1", "edge")?;
    expect_header(&v, "x-real-ip", "127.0.0.1", "edge")?;
    expect_header(&v, "x-forwarded-proto", ctx.scheme(), "edge")?;
    // With the port the client named in the URL (none for the scheme's own): the
    // application's absolute URLs (a redirect after sign-in) keep it.
    let url = ctx.site("/").url;
    let authority = url.split('/').nth(2).unwrap_or_default();
    let port = authority
        .rsplit_once(':')
        .map(|(_, p)| p)
        .filter(|p| p.chars().all(|c| c.is_ascii_digit()));
    let host = port.map_or_else(
        || ctx.tree.host().to_string(),
        |p| format!("{}:{p}", ctx.tree.host()),
    );
    expect_header(&v, "host", &host, "edge")?;
    // A port the client names that nginx does not listen on: a container's published port.
    let published = format!("{}:8080", ctx.tree.host());
    let r = ctx
        .site("/fwd-published")
        .header(&format!("Host: {published}"));
    let v = echo(&ctx.send(&r), "a client of a published port")?;
    expect_header(&v, "host", &published, "a published port")
}

fn forwarded_headers_behind_lb(ctx: &Ctx) -> Result<(), String> {
    let host = ctx.tree.host();
    let lb = ctx
        .http(host, "/fwd-lb")
        .arg("--interface")
        .arg(LB_ADDR)
        .header("X-Forwarded-For: 203.0.113.7")
        .header("X-Forwarded-Proto: https");
    let v = echo(&ctx.send(&lb), "from the trusted LB 127.0.0.2")?;
    expect_header(&v, "x-real-ip", "203.0.113.7", "from the LB")?;
    expect_header(
        &v,
        "x-forwarded-for",
        "203.0.113.7, 127.0.0.2",
        "from the LB",
    )?;
    expect_header(&v, "x-forwarded-proto", "https", "from the LB")?;
    let direct = ctx
        .http(host, "/fwd-direct")
        .header("X-Forwarded-For: 203.0.113.7")
        .header("X-Forwarded-Proto: https");
    let v = echo(&ctx.send(&direct), "from untrusted 127.0.0.1")?;
    expect_header(&v, "x-real-ip", "127.0.0.1", "from untrusted 127.0.0.1")?;
    expect_header(
        &v,
        "x-forwarded-for",
        "127.0.0.1",
        "from untrusted 127.0.0.1",
    )?;
    expect_header(&v, "x-forwarded-proto", "http", "from untrusted 127.0.0.1")
}

/// An application server closes a connection idle longer than its own timeout; a request
/// nginx sends on such a pooled connection just then is lost (the app emulates that race
/// for `/idle…`, `app::IDLE_TIMEOUT`, gunicorn's 2 s), and nginx retries no POST: 502.
/// Two POSTs on one client connection (one worker, one pool), the second after the app's
/// timeout: both must be answered, so nginx must have closed the pooled connection first.
fn upstream_idle_closed_first(ctx: &Ctx) -> Result<(), String> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", 80))
        .map_err(|e| format!("127.0.0.1:80: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    let host = ctx.tree.host();
    let pause = crate::app::IDLE_TIMEOUT + Duration::from_millis(500);
    for (n, idle) in [(1, Duration::ZERO), (2, pause)] {
        std::thread::sleep(idle);
        let request = format!(
            "POST /idle-{n} HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello"
        );
        let status = std::io::Write::write_all(&mut s, request.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|()| crate::clientaddr::read_response(&mut s));
        expect(status == Ok(200), || {
            format!(
                "POST {n} on one client connection, after {:.1} s idle: {status:?}, want 200 (the app lost {} request(s) sent on a connection it had let idle {} s)",
                idle.as_secs_f64(),
                ctx.app.lost(),
                crate::app::IDLE_TIMEOUT.as_secs()
            )
        })?;
    }
    Ok(())
}

/// nginx's default `keepalive_requests` inside an upstream block (1.19.10 and later;
/// every nginx the suite runs).
const UPSTREAM_KEEPALIVE_REQUESTS: u64 = 1000;

/// The fewest requests nginx serves on a client connection before closing it: its
/// default `keepalive_requests`, which no tree lowers (behind a load balancer, 10000).
const CLIENT_KEEPALIVE_REQUESTS_MIN: u64 = 1000;

fn upstream_keepalive_reused(ctx: &Ctx) -> Result<(), String> {
    let keepalive = ctx
        .numbers
        .keepalive
        .ok_or("the tree's JSON output has no upstream keepalive setting")?;
    // No more client connections than one worker's pool holds: however the kernel
    // spreads them over the workers, no worker then has more upstream connections
    // busy than its pool keeps, so none is closed for lack of room.
    let conns = keepalive.clamp(1, 50);
    // The path must reach the app in every workload (mixed: not a file on disk).
    let path = "/ka";
    let (url, host) = if ctx.tree.serves_tls() {
        (
            Ctx::url("https", ctx.tree.host(), ctx.tree.tls_port, path),
            ctx.tree.host().to_string(),
        )
    } else {
        (
            format!("http://127.0.0.1{path}"),
            ctx.tree.host().to_string(),
        )
    };
    ctx.app.reset();
    let load = client::wrk(&url, &host, conns, 3)?;
    let accepted = ctx.app.accepted();
    let served = ctx.app.requests() as u64;
    expect(load.requests >= 2000 && load.non_2xx == 0, || {
        format!(
            "wrk: {} requests, {} not 2xx/3xx {}",
            load.requests, load.non_2xx, load.socket_errors
        )
    })?;
    expect(served * 10 >= load.requests * 9, || {
        format!(
            "only {served} of {} requests reached the app",
            load.requests
        )
    })?;
    // A worker opens an upstream connection only when all of its own are busy, so
    // without one closed for lack of room the app sees at most one connection per
    // client connection a worker ever accepted, plus one per upstream connection
    // retired after `keepalive_requests` (the upstream block keeps nginx's default).
    // nginx closes a client connection after its own `keepalive_requests` too; wrk
    // then reconnects, maybe to another worker, which needs a connection of its own.
    let retired = served.div_ceil(UPSTREAM_KEEPALIVE_REQUESTS) as usize;
    let reconnects = load.requests.div_ceil(CLIENT_KEEPALIVE_REQUESTS_MIN) as usize;
    let bound = conns + reconnects + retired;
    expect(
        accepted <= bound && (accepted as u64) * 20 <= load.requests,
        || {
            format!(
                "the app accepted {accepted} TCP connections for {served} requests over {conns} client connections (bound: {conns} + {reconnects} client reconnects + {retired} retired after {UPSTREAM_KEEPALIVE_REQUESTS} requests each = {bound}; {} workers, keepalive {keepalive})",
                ctx.numbers.workers
            )
        },
    )?;
    let close = ctx.app.close_requested();
    expect(close == 0, || {
        format!("{close} requests reached the app with Connection: close")
    })
}

fn precompressed_served(ctx: &Ctx) -> Result<(), String> {
    let mut encodings = vec![("gzip", &ctx.app_js_gz)];
    if ctx.tree.brotli && ctx.nginx.brotli {
        encodings.push(("br", &ctx.app_js_br));
    }
    for (enc, file) in encodings {
        let r = ctx
            .site("/app.js")
            .header(&format!("Accept-Encoding: {enc}"));
        let resp = status(ctx, &r, 200, &format!("/app.js, Accept-Encoding: {enc}"))?;
        expect(resp.header("content-encoding") == Some(enc), || {
            format!(
                "Accept-Encoding: {enc}: Content-Encoding {:?}",
                resp.header("content-encoding")
            )
        })?;
        let vary = resp.header("vary").unwrap_or("").to_ascii_lowercase();
        expect(vary.contains("accept-encoding"), || {
            format!("Accept-Encoding: {enc}: Vary {:?}", resp.header("vary"))
        })?;
        expect(&resp.body == file, || {
            format!(
                "Accept-Encoding: {enc}: the body is not the precompressed app.js.{} file",
                if enc == "gzip" { "gz" } else { "br" }
            )
        })?;
    }
    // Images and fonts: no precompressed copy is looked for (so a stray one is not sent),
    // and the asset location's week of caching still applies in the nested location.
    let r = ctx.site("/exists.png").header("Accept-Encoding: gzip, br");
    let resp = status(ctx, &r, 200, "/exists.png, Accept-Encoding: gzip, br")?;
    expect(
        resp.header("content-encoding").is_none() && resp.body == EXISTS_PNG,
        || {
            format!(
                "/exists.png, Accept-Encoding: gzip, br: Content-Encoding {:?}, {} bytes (want the image itself: nothing precompressed is looked for)",
                resp.header("content-encoding"),
                resp.body.len()
            )
        },
    )?;
    let cache = resp.header("cache-control").unwrap_or("");
    expect(cache.contains("max-age=604800"), || {
        format!("/exists.png: Cache-Control {cache:?}, want the assets' max-age=604800")
    })
}

/// Pages carry `X-Frame-Options` (error pages too); styles, scripts and images do not. Where
/// nginx serves the files alone (static), every answer has `nosniff`; behind an application,
/// that and framing are the application's.
fn site_headers(ctx: &Ctx) -> Result<(), String> {
    let own = !ctx.tree.has_app();
    if own {
        let page = status(ctx, &ctx.site("/"), 200, "/")?;
        // A single-page application's missing page is its index: a missing style is 404.
        let gone = if ctx.tree.spa() {
            "/no-such.css"
        } else {
            "/no-such-page"
        };
        let missing = status(ctx, &ctx.site(gone), 404, gone)?;
        for (what, resp) in [("/", &page), ("a missing file (404)", &missing)] {
            let frame = resp.header_values("x-frame-options");
            expect(frame == ["SAMEORIGIN"], || {
                format!(
                    "{what} ({:?}): X-Frame-Options {frame:?}, want SAMEORIGIN once",
                    resp.header("content-type")
                )
            })?;
        }
    }
    for path in ["/app.js", "/exists.png"] {
        let resp = status(ctx, &ctx.site(path), 200, path)?;
        let frame = resp.header("x-frame-options");
        expect(frame.is_none(), || {
            format!("{path}: X-Frame-Options {frame:?}, want none")
        })?;
        let sniff = resp.header_values("x-content-type-options");
        let want: &[&str] = if own { &["nosniff"] } else { &[] };
        expect(sniff == want, || {
            format!("{path}: X-Content-Type-Options {sniff:?}, want {want:?}")
        })?;
    }
    Ok(())
}

/// HTML pages are revalidated on every visit and answered 304 while unchanged; assets
/// keep their week; other files get no lifetime from nginx. (Without one, a browser keeps
/// a page for a tenth of its age since Last-Modified, so a deploy stayed unseen.) A 304
/// carries the `Cache-Control` its 200 would (RFC 9110, 15.4.5), so a copy a browser
/// stored without one learns it on its next visit.
fn pages_revalidated(ctx: &Ctx) -> Result<(), String> {
    let cache_control = |resp: &Resp| resp.header_values("cache-control").join(", ");
    for (path, want) in [
        ("/", "no-cache"),
        ("/index.html", "no-cache"),
        ("/app.js", "max-age=604800"),
        ("/exists.png", "max-age=604800"),
        ("/site.webmanifest", ""),
    ] {
        let page = status(ctx, &ctx.site(path), 200, path)?;
        expect(cache_control(&page) == want, || {
            format!(
                "{path}: Cache-Control {:?}, want {want:?}",
                cache_control(&page)
            )
        })?;
        for (validator, condition) in [
            ("etag", "If-None-Match"),
            ("last-modified", "If-Modified-Since"),
        ] {
            let value = page.header(validator).unwrap_or_default();
            let again = ctx.site(path).header(&format!("{condition}: {value}"));
            let what = format!("{path} with {condition}: {value}");
            let unchanged = status(ctx, &again, 304, &what)?;
            expect(cache_control(&unchanged) == want, || {
                format!(
                    "{what}: 304 with Cache-Control {:?}, want {want:?}",
                    cache_control(&unchanged)
                )
            })?;
        }
    }
    Ok(())
}

/// A file rewritten in place (longer) and one replaced by a rename are sent as they are
/// now two seconds later, although both were in the open file cache: at nginx's
/// `open_file_cache_valid 60s` the first went out cut at its old length and the second
/// with its old bytes, for up to a minute. A file and its `.gz` that a deploy adds after
/// clients asked for them are served two seconds later too, although the cache remembers
/// that they were missing (`open_file_cache_errors`).
fn file_changes_seen(ctx: &Ctx) -> Result<(), String> {
    let old = "old\n".repeat(100);
    let new = "new\n".repeat(300);
    // Not checked for gzip framing by nginx: the bytes show which file was sent.
    let new_gz = "gz-of-new\n".repeat(10);
    for name in ["grown", "replaced"] {
        crate::php::write(ctx, &format!("/changes/{name}.js"), &old)?;
    }
    let gzip = |path: &str| ctx.site(path).header("Accept-Encoding: gzip");
    // Enough requests that every worker has used each file twice (`open_file_cache_min_uses`).
    for _ in 0..8 {
        for name in ["grown", "replaced"] {
            let path = format!("/changes/{name}.js");
            let resp = status(ctx, &ctx.site(&path), 200, &path)?;
            expect(resp.text() == old, || {
                format!("{path}: not the file on disk")
            })?;
        }
        // Not there yet (a 404, or the application's answer where it owns missing files).
        for r in [ctx.site("/changes/added.js"), gzip("/changes/added.js")] {
            let resp = ctx.send(&r);
            expect(resp.text() != new, || {
                "/changes/added.js answered before it existed".into()
            })?;
        }
    }
    crate::php::write(ctx, "/changes/added.js", &new)?;
    crate::php::write(ctx, "/changes/added.js.gz", &new_gz)?;
    // In place (same inode, as cp and rsync --inplace write), and by a rename (a new inode,
    // as a deploy or a plugin update writes).
    crate::php::write(ctx, "/changes/grown.js", &new)?;
    crate::php::write(ctx, "/changes/replaced.js.tmp", &new)?;
    let dir = Path::new(ctx.tree.root).join("changes");
    std::fs::rename(dir.join("replaced.js.tmp"), dir.join("replaced.js"))
        .map_err(|e| format!("rename: {e}"))?;
    std::thread::sleep(Duration::from_millis(2200));
    for name in ["grown", "replaced", "added"] {
        let path = format!("/changes/{name}.js");
        for _ in 0..4 {
            let resp = status(ctx, &ctx.site(&path), 200, &path)?;
            expect(resp.text() == new, || {
                format!(
                    "{path} 2 s after it changed: {} bytes starting {:?}, want the new {} bytes",
                    resp.body.len(),
                    resp.text().get(..4).unwrap_or_default(),
                    new.len()
                )
            })?;
        }
    }
    for _ in 0..4 {
        let what = "/changes/added.js, Accept-Encoding: gzip, 2 s after its .gz was added";
        let resp = status(ctx, &gzip("/changes/added.js"), 200, what)?;
        expect(
            resp.header("content-encoding") == Some("gzip") && resp.text() == new_gz,
            || {
                format!(
                    "{what}: Content-Encoding {:?}, {} bytes, want the .gz's {} bytes",
                    resp.header("content-encoding"),
                    resp.body.len(),
                    new_gz.len()
                )
            },
        )?;
    }
    Ok(())
}

/// In a mixed site a directory without an index page is the application's: nginx
/// answered 403 for it (and redirected the name without its slash there), so the
/// application never got `/` or its routes that match a folder under the root. A URI
/// ending in `/` still gets the directory's `index.html` from disk; the same name without
/// the slash goes to the application, never to that page under a second URL.
fn mixed_app_owns_directories(ctx: &Ctx) -> Result<(), String> {
    crate::php::write(ctx, "/reports/2026.csv", "a,b\n")?;
    for path in ["/reports/", "/reports"] {
        echo(&ctx.send(&ctx.site(path)), path)?;
    }
    crate::php::write(
        ctx,
        "/guide/index.html",
        "<!doctype html><title>guide</title>\n",
    )?;
    let page = status(ctx, &ctx.site("/guide/"), 200, "/guide/")?;
    expect(
        page.header(APP_HEADER).is_none() && page.text().contains("guide"),
        || {
            format!(
                "/guide/: want its index.html from disk, got {}",
                page.summary()
            )
        },
    )?;
    echo(&ctx.send(&ctx.site("/guide")), "/guide")?;
    Ok(())
}

/// An `h2c` upgrade is not passed to the application: with `Connection: upgrade` a client
/// could switch the upstream connection to HTTP/2 and send requests that nginx's locations
/// never see (h2c smuggling). WebSocket still upgrades (`websocket_round_trip`).
fn h2c_upgrade_not_passed(ctx: &Ctx) -> Result<(), String> {
    let path = "/h2c-check";
    let r = ctx
        .site(path)
        .arg("--http1.1")
        .header("Upgrade: h2c")
        .header("Connection: Upgrade, HTTP2-Settings")
        .header("HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA");
    let v = echo(&ctx.send(&r), path)?;
    let connection = header_of(&v, "connection").unwrap_or("");
    expect(!connection.to_ascii_lowercase().contains("upgrade"), || {
        format!("{path} with Upgrade: h2c: the app got Connection {connection:?}, want no upgrade")
    })
}

/// The image on disk of every tree that serves files.
pub const EXISTS_PNG: &[u8] = b"\x89PNG\r\n\x1a\nnot really a png";

/// Every answer over HTTPS, errors too, carries the `--hsts` the tree asked for: at least
/// a year, `includeSubDomains` for subdomains and preload, `preload` for preload (what
/// hstspreload.org checks); none with `off`.
fn hsts(ctx: &Ctx) -> Result<(), String> {
    let choice = ctx.tree.hsts();
    for path in ["/", "/hsts-check", "/.env", "/missing.png", "/app.js"] {
        let resp = ctx.send(&ctx.site(path));
        expect(resp.exit == 0, || format!("{path}: {}", resp.summary()))?;
        let header = resp.header("strict-transport-security");
        let h = header.unwrap_or("");
        let said = || {
            format!(
                "{path} ({}), hsts {choice}: Strict-Transport-Security {header:?}",
                resp.status
            )
        };
        if choice == "off" {
            expect(header.is_none(), said)?;
            continue;
        }
        let parts: Vec<&str> = h.split(';').map(str::trim).collect();
        let max_age = parts
            .iter()
            .find_map(|p| p.strip_prefix("max-age="))
            .and_then(|v| v.trim_matches('"').parse::<u64>().ok());
        let has = |d: &str| parts.iter().any(|p| p.eq_ignore_ascii_case(d));
        expect(
            max_age.is_some_and(|a| a >= 31_536_000)
                && has("includeSubDomains") == (choice != "host")
                && has("preload") == (choice == "preload"),
            said,
        )?;
    }
    Ok(())
}

/// `(openssl s_client flag, protocol name)` pairs.
type Versions<'a> = &'a [(&'a str, &'a str)];

fn tls_versions(ctx: &Ctx) -> Result<(), String> {
    let sni = (!ctx.tree.host_is_ip()).then_some(ctx.tree.host());
    let port = ctx.tree.tls_port;
    let (accepted, refused): (Versions, Versions) = match ctx.tree.tls {
        Some("modern") => (&[("-tls1_3", "TLSv1.3")], &[("-tls1_2", "TLSv1.2")]),
        _ => (
            &[("-tls1_2", "TLSv1.2"), ("-tls1_3", "TLSv1.3")],
            &[("-tls1", "TLSv1"), ("-tls1_1", "TLSv1.1")],
        ),
    };
    for (flag, proto) in accepted {
        let hs = client::handshake(port, sni, flag);
        expect(hs.ok && hs.protocol.as_deref() == Some(*proto), || {
            format!("{proto} refused: {}", hs.last_error())
        })?;
    }
    for (flag, proto) in refused {
        let hs = client::handshake(port, sni, flag);
        expect(hs.server_refused(), || {
            if hs.ok {
                format!("{proto} accepted")
            } else {
                format!(
                    "{proto} failed, but not by a server alert: {}",
                    hs.last_error()
                )
            }
        })?;
    }
    let resp = status(ctx, &ctx.site("/").arg("--http2"), 200, "HTTP/2 over TLS")?;
    expect(resp.version == "2", || {
        format!("HTTP/{} negotiated, want 2", resp.version)
    })
}

/// A returning client resumes its TLS session: with TLS 1.3 on a ticket, again and again
/// (each resumption brings a new ticket, as many as the plan says a handshake sends), and
/// with TLS 1.2 where the profile offers it.
fn tls_sessions_resume(ctx: &Ctx) -> Result<(), String> {
    let sni = (!ctx.tree.host_is_ip()).then_some(ctx.tree.host());
    let port = ctx.tree.tls_port;
    let mut versions = vec![("-tls1_3", "TLSv1.3")];
    if ctx.tree.tls != Some("modern") {
        versions.push(("-tls1_2", "TLSv1.2"));
    }
    for (flag, proto) in versions {
        let saved = |n: usize| ctx.scratch.join(format!("session{flag}-{n}.pem"));
        // Connection 0 is a full handshake; 1 and 2 resume the last session saved (a TLS
        // 1.3 resumption brings a new one; a TLS 1.2 one keeps its session).
        let mut last = None;
        for n in 0..3 {
            let conn = client::tls_session(port, sni, flag, last.as_deref(), &saved(n));
            if saved(n).exists() {
                last = Some(saved(n));
            }
            let want_reused = (n > 0).then_some(proto);
            expect(
                conn.status.is_some() && conn.reused.as_deref() == want_reused,
                || {
                    format!(
                        "{proto}: connection {n} resumed {:?}, want {want_reused:?}; answer {:?}: {}",
                        conn.reused,
                        conn.status,
                        tail(&conn.output)
                    )
                },
            )?;
            if proto == "TLSv1.3" {
                let (got, want) = (conn.tickets, ctx.numbers.tickets);
                expect(want.map_or(got >= 1, |w| got == w), || {
                    format!("{proto}: connection {n} brought {got} tickets, want {want:?}")
                })?;
            }
        }
    }
    Ok(())
}

/// The suite a client gets, as it lists them. Where the server picks (nginx ≥ 1.19.4, which
/// can order TLS 1.3's suites), a client listing AES-256-GCM first, as OpenSSL's clients
/// do, gets AES-128-GCM, the cheaper handshake; one listing `ChaCha20` first (no AES
/// hardware) still gets it; and one offering AES-256-GCM alone still connects. For older
/// nginx the client picks: each gets its first. Which applies follows from the version the
/// tree was made for, and the plan must agree.
fn tls_suite_choice(ctx: &Ctx) -> Result<(), String> {
    let sni = (!ctx.tree.host_is_ip()).then_some(ctx.tree.host());
    let port = ctx.tree.tls_port;
    let version = ctx.tree.nginx_version(ctx.nginx);
    let server = crate::grid::at_least(version, (1, 19, 4));
    expect(ctx.numbers.server_order == server, || {
        format!(
            "nginx {version}: the plan's ssl_prefer_server_ciphers is {}, want {}",
            if ctx.numbers.server_order {
                "on"
            } else {
                "off"
            },
            if server { "on" } else { "off" }
        )
    })?;
    // (version flag, the client's list, the suite wanted: its name contains this)
    let mut cases = vec![
        (
            "-tls1_3",
            "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256",
            if server { "AES_128_GCM" } else { "AES_256_GCM" },
        ),
        (
            "-tls1_3",
            "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256",
            "CHACHA20",
        ),
        ("-tls1_3", "TLS_AES_256_GCM_SHA384", "AES_256_GCM"),
    ];
    if ctx.tree.tls != Some("modern") {
        let aes256_first = "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256";
        let chacha_first = "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256";
        cases.push((
            "-tls1_2",
            aes256_first,
            if server { "AES128-GCM" } else { "AES256-GCM" },
        ));
        cases.push(("-tls1_2", chacha_first, "CHACHA20"));
    }
    for (flag, offered, want) in cases {
        let hs = client::handshake_offering(port, sni, flag, offered);
        expect(
            hs.ok && hs.suite.as_deref().is_some_and(|s| s.contains(want)),
            || {
                format!(
                    "{flag} offering {offered}: got {:?}, want a suite with {want} (server's order: {server}); {}",
                    hs.suite,
                    hs.last_error()
                )
            },
        )?;
    }
    Ok(())
}

fn tail(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}

fn ipv6_reachable(ctx: &Ctx) -> Result<(), String> {
    let host = ctx.tree.host();
    let mut probes = vec![("http", 80)];
    if ctx.tree.serves_tls() {
        probes.push(("https", ctx.tree.tls_port));
    }
    for (scheme, port) in probes {
        let answers: Vec<Resp> = ["127.0.0.1", "[::1]"]
            .iter()
            .map(|via| ctx.send(&Ctx::req(scheme, host, port, "/v6-probe", via)))
            .collect();
        let key = |r: &Resp| (r.exit, r.status, r.header(APP_HEADER).is_some());
        expect(answers[1].exit == 0, || {
            format!("{scheme} over [::1]: {}", answers[1].summary())
        })?;
        expect(key(&answers[0]) == key(&answers[1]), || {
            format!(
                "{scheme}: 127.0.0.1 → {}, [::1] → {}",
                answers[0].summary(),
                answers[1].summary()
            )
        })?;
    }
    Ok(())
}

fn mixed_asset_fallback(ctx: &Ctx) -> Result<(), String> {
    let resp = ctx.send(&ctx.site("/generated.png"));
    expect(
        resp.exit == 0 && resp.status == 200 && resp.header(APP_HEADER).is_some(),
        || {
            format!(
                "/generated.png (not on disk): want 200 from the app, got {}",
                resp.summary()
            )
        },
    )?;
    let resp = status(ctx, &ctx.site("/exists.png"), 200, "/exists.png (on disk)")?;
    expect(resp.header(APP_HEADER).is_none(), || {
        "/exists.png was answered by the app, not from disk".to_string()
    })
}

fn catch_all_name(ctx: &Ctx) -> Result<(), String> {
    for host in ["random-1.test", "127.0.0.1", "www.example.org"] {
        let r = if host == "127.0.0.1" {
            Req::new("http://127.0.0.1/")
        } else {
            ctx.http(host, "/")
        };
        status(ctx, &r, 200, &format!("Host {host}"))?;
    }
    Ok(())
}

/// The site named by its addresses: IPv4, and IPv6, whose Host header carries it in
/// brackets (`--server-name ::1` is matched as `[::1]`).
fn ip_server_name(ctx: &Ctx) -> Result<(), String> {
    for addr in ["127.0.0.1", "::1"] {
        let url = Ctx::url("https", addr, ctx.tree.tls_port, "/");
        let resp = ctx.send(&Req::new(url.clone()).arg("-k"));
        expect(resp.exit == 0 && resp.status == 200, || {
            format!("{url} without SNI: {}", resp.summary())
        })?;
        expect(
            !ctx.tree.has_app() || resp.header(APP_HEADER).is_some(),
            || format!("{url}: answered, but not by the site's app"),
        )?;
    }
    Ok(())
}

fn long_server_name(ctx: &Ctx) -> Result<(), String> {
    status(ctx, &ctx.site("/"), 200, "the 50-character name").map(|_| ())
}

fn bootstrap_http_only(ctx: &Ctx) -> Result<(), String> {
    let host = ctx.tree.host();
    let resp = status(
        ctx,
        &ctx.http(host, &format!("/.well-known/acme-challenge/{TOKEN}")),
        200,
        "the ACME token",
    )?;
    expect(resp.text() == TOKEN_CONTENT, || {
        format!("token body {:?}", resp.text())
    })?;
    status(ctx, &ctx.http(host, "/"), 200, "the site over plain HTTP")?;
    let resp = ctx.send(&ctx.https(host, "/"));
    expect(resp.exit == 7, || {
        format!(
            "something answers on {}: {}",
            ctx.tree.tls_port,
            resp.summary()
        )
    })
}

fn debian_sites_kept(ctx: &Ctx) -> Result<(), String> {
    let resp = status(
        ctx,
        &ctx.http("other.test", "/"),
        200,
        "the existing site other.test",
    )?;
    expect(resp.text().trim() == "other", || {
        format!(
            "other.test answered {:?}, not the existing site",
            resp.text()
        )
    })?;
    status(ctx, &ctx.site("/"), 200, "the generated site").map(|_| ())
}

fn streaming(ctx: &Ctx) -> Result<(), String> {
    // As a browser asks: compressed. nginx's gzip filter holds small chunks unless the
    // upstream response is unbuffered (it flushes each one then).
    let r = ctx.site("/stream").arg("--compressed");
    let (first, total, body) = client::time_stream(&r.args, &r.url)?;
    expect(body.contains("chunk 0") && body.contains("chunk 4"), || {
        format!("stream body {body:?}")
    })?;
    expect(
        first < Duration::from_millis(500) && first + Duration::from_millis(500) < total,
        || {
            format!(
                "first chunk after {first:?}, the last after {total:?}: the response was buffered"
            )
        },
    )
}

/// The access log every generated nginx.conf writes to.
const ACCESS_LOG: &str = "/var/log/nginx/access.log";

/// The access log's lines that contain `marker`, after nginx flushed its buffers (the log
/// is written every 64 KiB or 5 s; USR1 reopens the logs and writes what is buffered),
/// once `want` of them are there (at most 5 s).
pub(crate) fn logged(ctx: &Ctx, marker: &str, want: usize) -> Result<Vec<String>, String> {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let _ = std::process::Command::new("kill")
            .args(["-USR1", &ctx.pid.to_string()])
            .status();
        std::thread::sleep(Duration::from_millis(200));
        let text = std::fs::read_to_string(ACCESS_LOG).unwrap_or_default();
        let lines: Vec<String> = text
            .lines()
            .filter(|l| l.contains(marker))
            .map(String::from)
            .collect();
        if lines.len() >= want || std::time::Instant::now() > deadline {
            return Ok(lines);
        }
    }
}

/// One request of the log test: what was asked, its user agent (which finds its line) and
/// what came back.
struct Logged {
    what: &'static str,
    agent: String,
    tls: bool,
    proxied: bool,
    /// The site has an upstream, so its lines carry the upstream's fields.
    upstream: bool,
}

fn access_log_fields(ctx: &Ctx) -> Result<(), String> {
    let host = ctx.tree.host();
    let marker = format!("nginx-gen-obs-{}", ctx.tree.id);
    let mut asked: Vec<(&'static str, Req, bool)> =
        vec![("plain HTTP", ctx.http(host, "/"), false)];
    if ctx.tree.serves_tls() {
        asked.push(("TLS", ctx.https(host, "/"), true));
    }
    if ctx.tree.has_app() {
        asked.push(("proxied", ctx.site("/obs-app?x=1"), ctx.tree.serves_tls()));
    }
    let mut sent = Vec::new();
    for (i, (what, r, tls)) in asked.into_iter().enumerate() {
        let agent = format!("{marker}-{i}");
        let resp = ctx.send(&r.arg("-A").arg(&agent));
        expect(resp.exit == 0, || format!("{what}: {}", resp.summary()))?;
        let proxied = resp.header(crate::app::APP_HEADER).is_some();
        expect(what != "proxied" || proxied, || {
            format!("{what}: not answered by the app: {}", resp.summary())
        })?;
        sent.push(Logged {
            what,
            agent,
            tls,
            proxied,
            upstream: ctx.tree.has_upstream(),
        });
    }
    let lines = logged(ctx, &marker, sent.len())?;
    let json = ctx.tree.access_log() == "json";
    for s in &sent {
        let found: Vec<&String> = lines
            .iter()
            .filter(|l| l.contains(s.agent.as_str()))
            .collect();
        expect(found.len() == 1, || {
            format!(
                "{}: {} access log lines with its user agent {}, want 1 (all: {lines:?})",
                s.what,
                found.len(),
                s.agent
            )
        })?;
        let line = found[0];
        let checked = if json {
            check_json_line(line, s)
        } else {
            check_timing_line(line, s)
        };
        checked.map_err(|e| {
            format!(
                "{} ({}): {e}
  line: {line}",
                s.what,
                ctx.tree.access_log()
            )
        })?;
    }
    Ok(())
}

/// `HTTP/1.1` or `HTTP/2.0` at the end of the request line.
fn has_version(request: &str) -> bool {
    request.ends_with(" HTTP/1.1") || request.ends_with(" HTTP/2.0")
}

/// The upstream's fields of a `timing` line, by name.
const UPSTREAM_FIELDS: [&str; 5] = ["uct", "uht", "urt", "ua", "us"];

/// The same fields of a `json` line.
const JSON_UPSTREAM_FIELDS: [&str; 5] = [
    "upstream_connect_time",
    "upstream_header_time",
    "upstream_response_time",
    "upstream_addr",
    "upstream_status",
];

fn check_timing_line(line: &str, s: &Logged) -> Result<(), String> {
    let f = logs::parse_timing(line)?;
    let get = |k: &str| f.get(k).map_or("", String::as_str);
    for key in [
        "remote_addr",
        "time",
        "request",
        "status",
        "body_bytes_sent",
        "user_agent",
        "rt",
        "tls",
        "cipher",
    ] {
        expect(f.contains_key(key), || format!("no field {key}"))?;
    }
    // The upstream's fields where the site has an upstream, none for files alone.
    for key in UPSTREAM_FIELDS {
        expect(f.contains_key(key) == s.upstream, || {
            format!(
                "field {key}: {}, with an upstream: {}",
                f.contains_key(key),
                s.upstream
            )
        })?;
    }
    // No request id: its random bytes cost a small page 16 % of its rate.
    expect(!f.contains_key("id"), || "a request id field".to_string())?;
    expect(logs::is_iso8601(get("time")), || {
        format!("time {:?}", get("time"))
    })?;
    expect(has_version(get("request")), || {
        format!("request {:?}", get("request"))
    })?;
    expect(
        get("status").len() == 3 && get("status").parse::<u16>().is_ok(),
        || format!("status {:?}", get("status")),
    )?;
    expect(get("body_bytes_sent").parse::<u64>().is_ok(), || {
        format!("body_bytes_sent {:?}", get("body_bytes_sent"))
    })?;
    expect(logs::seconds(get("rt")).is_some(), || {
        format!("rt {:?}", get("rt"))
    })?;
    if s.proxied {
        for key in ["uct", "uht", "urt"] {
            expect(logs::seconds(get(key)).is_some(), || {
                format!("{key} {:?}", get(key))
            })?;
        }
        expect(get("ua") == APP_ADDR && get("us") == "200", || {
            format!("ua {:?}, us {:?}", get("ua"), get("us"))
        })?;
    } else if s.upstream {
        expect(get("urt") == "-" && get("ua") == "-", || {
            format!("not proxied, yet urt {:?}, ua {:?}", get("urt"), get("ua"))
        })?;
    }
    if s.tls {
        expect(
            get("tls").starts_with("TLSv1.") && get("cipher") != "-",
            || format!("tls {:?}, cipher {:?}", get("tls"), get("cipher")),
        )
    } else {
        expect(get("tls") == "-" && get("cipher") == "-", || {
            format!(
                "plain HTTP, yet tls {:?}, cipher {:?}",
                get("tls"),
                get("cipher")
            )
        })
    }
}

fn check_json_line(line: &str, s: &Logged) -> Result<(), String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let o = v.as_object().ok_or("not a JSON object")?;
    let keys: Vec<&str> = o.keys().map(String::as_str).collect();
    let mut want = vec![
        "time_iso8601",
        "remote_addr",
        "request",
        "server_protocol",
        "status",
        "body_bytes_sent",
        "request_time",
        "ssl_protocol",
        "ssl_cipher",
        "request_id",
        "http_referer",
        "http_user_agent",
    ];
    if s.upstream {
        want.extend(JSON_UPSTREAM_FIELDS);
    }
    want.sort_unstable();
    let mut got = keys.clone();
    got.sort_unstable();
    expect(got == want, || format!("keys {keys:?}"))?;
    let text = |k: &str| v[k].as_str().unwrap_or("");
    expect(v["request_time"].as_f64().is_some_and(|t| t >= 0.0), || {
        format!("request_time {} is not a number", v["request_time"])
    })?;
    expect(v["body_bytes_sent"].is_u64(), || {
        format!("body_bytes_sent {}", v["body_bytes_sent"])
    })?;
    expect(logs::is_iso8601(text("time_iso8601")), || {
        format!("time_iso8601 {}", v["time_iso8601"])
    })?;
    expect(has_version(text("request")), || {
        format!("request {}", v["request"])
    })?;
    expect(text("server_protocol").starts_with("HTTP/"), || {
        format!("server_protocol {}", v["server_protocol"])
    })?;
    expect(text("status").parse::<u16>().is_ok(), || {
        format!("status {}", v["status"])
    })?;
    expect(text("http_user_agent") == s.agent, || {
        format!("http_user_agent {}", v["http_user_agent"])
    })?;
    if s.proxied {
        for key in [
            "upstream_connect_time",
            "upstream_header_time",
            "upstream_response_time",
        ] {
            expect(logs::seconds(text(key)).is_some(), || {
                format!("{key} {}", v[key])
            })?;
        }
        expect(text("upstream_addr") == APP_ADDR, || {
            format!("upstream_addr {}", v["upstream_addr"])
        })?;
    } else if s.upstream {
        expect(text("upstream_response_time").is_empty(), || {
            format!(
                "not proxied, yet upstream_response_time {}",
                v["upstream_response_time"]
            )
        })?;
    }
    expect(s.tls == text("ssl_protocol").starts_with("TLSv1."), || {
        format!("ssl_protocol {}", v["ssl_protocol"])
    })
}

fn stub_status_loopback_only(ctx: &Ctx) -> Result<(), String> {
    let url = |addr: &str, path: &str| format!("http://{addr}:{STATUS_PORT}{path}");
    let marker = format!("nginx-gen-status-{}", ctx.tree.id);
    for path in ["/", "/stub_status", "/nginx_status"] {
        let r = Req::new(url("127.0.0.1", path)).arg("-A").arg(&marker);
        let resp = status(ctx, &r, 200, &format!("stub_status on 127.0.0.1{path}"))?;
        let n = logs::parse_stub_status(&resp.text())?;
        // Active connections (this one at least), requests so far (this one at least).
        expect(n[0] >= 1 && n[3] >= 1 && n[1] >= n[2], || {
            format!("counters {n:?}")
        })?;
    }
    let other = Req::new(url("127.0.0.1", "/"))
        .arg("--interface")
        .arg(OTHER_ADDR);
    status(ctx, &other, 403, &format!("stub_status from {OTHER_ADDR}"))?;
    for addr in [OTHER_ADDR, "[::1]"] {
        let resp = ctx.send(&Req::new(url(addr, "/")));
        expect(resp.exit == 7, || {
            format!(
                "{addr}:{STATUS_PORT}: want the connection refused (curl exit 7), got {}",
                resp.summary()
            )
        })?;
    }
    // The scrapes stay out of the access log: a later request's line is there, theirs not.
    let after = format!("{marker}-after");
    ctx.send(&ctx.http(ctx.tree.host(), "/").arg("-A").arg(&after));
    let lines = logged(ctx, &after, 1)?;
    expect(lines.len() == 1, || {
        format!("the line of {after} was not logged")
    })?;
    let text = std::fs::read_to_string(ACCESS_LOG).unwrap_or_default();
    expect(
        !text
            .lines()
            .any(|l| l.contains(&marker) && !l.contains(&after)),
        || "a status request was logged".to_string(),
    )
}

fn readme_tree(ctx: &Ctx) -> Result<(), String> {
    let host = ctx.tree.host();
    status(ctx, &ctx.https(host, "/"), 200, "https://example.com/")?;
    status(ctx, &ctx.http(host, "/x"), 308, "http://example.com/x").map(|_| ())
}

/// Every behaviour, in report order.
pub fn all() -> Vec<Behaviour> {
    let any: fn(&Tree) -> bool = |_| true;
    vec![
        Behaviour {
            name: "acme_token_over_http",
            applies: Tree::serves_tls,
            run: acme_token_over_http,
        },
        Behaviour {
            name: "canonical_name",
            applies: Tree::canonical,
            run: canonical_name,
        },
        Behaviour {
            name: "unknown_host",
            // Not with Debian's stock default site enabled: it is the default server there.
            applies: |t| {
                !t.behind_lb && !matches!(t.special, Special::CatchAll | Special::DebianSites)
            },
            run: unknown_host,
        },
        Behaviour {
            name: "lb_health_probe",
            applies: |t| t.behind_lb,
            run: lb_health_probe,
        },
        Behaviour {
            name: "directory_redirect_keeps_the_scheme",
            applies: |t| t.behind_lb && matches!(t.workload, "static" | "mixed" | "php"),
            run: directory_redirect_keeps_the_scheme,
        },
        Behaviour {
            name: "hidden_and_backup_files",
            applies: |t| !matches!(t.workload, "proxy" | "api"),
            run: hidden_and_backup_files,
        },
        Behaviour {
            name: "own_additions_served",
            applies: |t| t.id == "static-plain",
            run: own_additions_served,
        },
        Behaviour {
            name: "spa_routes_get_the_index",
            applies: Tree::spa,
            run: spa_routes_get_the_index,
        },
        Behaviour {
            name: "app_owns_dotted_paths",
            applies: |t| matches!(t.workload, "proxy" | "api"),
            run: app_owns_dotted_paths,
        },
        Behaviour {
            name: "content_types",
            applies: Tree::has_files,
            run: content_types,
        },
        Behaviour {
            name: "websocket_round_trip",
            applies: Tree::has_app,
            run: websocket_round_trip,
        },
        Behaviour {
            name: "body_size_limit",
            applies: |t| t.special == Special::BodyLimit,
            run: body_size_limit,
        },
        Behaviour {
            name: "forwarded_headers_edge",
            applies: |t| t.has_app() && !t.behind_lb,
            run: forwarded_headers_edge,
        },
        Behaviour {
            name: "forwarded_headers_behind_lb",
            applies: |t| t.has_app() && t.behind_lb && t.tls.is_none(),
            run: forwarded_headers_behind_lb,
        },
        Behaviour {
            name: "upstream_keepalive_reused",
            applies: Tree::has_app,
            run: upstream_keepalive_reused,
        },
        Behaviour {
            name: "upstream_idle_closed_first",
            // Plain HTTP on port 80, no PROXY protocol: a raw client on one connection.
            applies: |t| t.has_app() && t.tls.is_none() && t.special == Special::None,
            run: upstream_idle_closed_first,
        },
        Behaviour {
            name: "precompressed_served",
            applies: Tree::has_files,
            run: precompressed_served,
        },
        Behaviour {
            name: "site_headers",
            applies: Tree::has_files,
            run: site_headers,
        },
        Behaviour {
            name: "pages_revalidated",
            applies: Tree::has_files,
            run: pages_revalidated,
        },
        Behaviour {
            name: "file_changes_seen",
            // Two seconds of waiting each: the plain trees that serve files.
            applies: |t| t.has_files() && t.tls.is_none() && t.special == Special::None,
            run: file_changes_seen,
        },
        Behaviour {
            name: "mixed_app_owns_directories",
            applies: |t| t.workload == "mixed",
            run: mixed_app_owns_directories,
        },
        Behaviour {
            name: "h2c_upgrade_not_passed",
            applies: Tree::has_app,
            run: h2c_upgrade_not_passed,
        },
        Behaviour {
            name: "hsts",
            applies: Tree::serves_tls,
            run: hsts,
        },
        Behaviour {
            name: "tls_versions",
            applies: Tree::serves_tls,
            run: tls_versions,
        },
        Behaviour {
            name: "tls_sessions_resume",
            applies: Tree::serves_tls,
            run: tls_sessions_resume,
        },
        Behaviour {
            name: "tls_suite_choice",
            applies: Tree::serves_tls,
            run: tls_suite_choice,
        },
        Behaviour {
            name: "ipv6_reachable",
            applies: any,
            run: ipv6_reachable,
        },
        Behaviour {
            name: "mixed_asset_fallback",
            applies: |t| t.workload == "mixed",
            run: mixed_asset_fallback,
        },
        Behaviour {
            name: "catch_all_name",
            applies: |t| t.special == Special::CatchAll,
            run: catch_all_name,
        },
        Behaviour {
            name: "ip_server_name",
            applies: |t| t.special == Special::IpName,
            run: ip_server_name,
        },
        Behaviour {
            name: "long_server_name",
            applies: |t| t.special == Special::LongName,
            run: long_server_name,
        },
        Behaviour {
            name: "bootstrap_http_only",
            applies: |t| t.special == Special::Bootstrap,
            run: bootstrap_http_only,
        },
        Behaviour {
            name: "debian_sites_kept",
            applies: |t| t.special == Special::DebianSites,
            run: debian_sites_kept,
        },
        Behaviour {
            name: "streaming",
            applies: Tree::has_app,
            run: streaming,
        },
        Behaviour {
            name: "access_log_fields",
            applies: |t| t.special == Special::None,
            run: access_log_fields,
        },
        Behaviour {
            name: "stub_status_loopback_only",
            applies: |t| t.special == Special::None,
            run: stub_status_loopback_only,
        },
        Behaviour {
            name: "cache_hit_after_miss",
            applies: |t| t.special == Special::Cache,
            run: crate::cache::hit_after_miss,
        },
        Behaviour {
            name: "cache_bypass_for_users",
            applies: |t| t.special == Special::Cache,
            run: crate::cache::bypass_for_users,
        },
        Behaviour {
            name: "cache_post_never_cached",
            applies: |t| t.special == Special::Cache,
            run: crate::cache::post_never_cached,
        },
        Behaviour {
            name: "cache_keyed_by_the_clients_scheme",
            applies: |t| t.special == Special::Cache && t.behind_lb,
            run: crate::cache::keyed_by_the_clients_scheme,
        },
        Behaviour {
            name: "cache_lock_one_upstream_request",
            applies: |t| t.special == Special::Cache,
            run: crate::cache::lock_one_upstream_request,
        },
        Behaviour {
            name: "readme_tree",
            applies: |t| t.special == Special::Readme,
            run: readme_tree,
        },
    ]
    .into_iter()
    .chain(crate::php::all())
    .chain(crate::phpcache::all())
    .chain(crate::clientaddr::all())
    .chain(crate::dns::all())
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_behaviour_applies_somewhere_and_names_are_unique() {
        let trees = crate::grid::trees();
        let all = all();
        for b in &all {
            assert!(
                trees.iter().any(|t| (b.applies)(t)),
                "{} applies to no tree",
                b.name
            );
        }
        let mut names: Vec<_> = all.iter().map(|b| b.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert_eq!(
            all.len(),
            70,
            "the 22 behaviours of issue 11, 21 of issue 14, 15 of issue 12 and twelve since"
        );
    }

    #[test]
    fn urls_keep_non_default_ports_only() {
        assert_eq!(Ctx::url("https", "a.test", 443, "/x"), "https://a.test/x");
        assert_eq!(
            Ctx::url("https", "a.test", 8443, "/x"),
            "https://a.test:8443/x"
        );
        assert_eq!(Ctx::url("http", "::1", 80, "/"), "http://[::1]/");
        let r = Ctx::req("http", "127.0.0.1", 80, "/p", "[::1]");
        assert_eq!(r.url, "http://[::1]/p");
        assert!(r.args.contains(&"Host: 127.0.0.1".to_string()), "{r:?}");
        let r = Ctx::req("https", "a.test", 443, "/p", "[::1]");
        assert_eq!(r.args, ["-k", "--resolve", "a.test:443:[::1]"]);
    }
}
