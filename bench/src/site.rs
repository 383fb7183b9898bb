//! The benchmark's static site, generated deterministically: a ≈30 KB HTML page, ≈50 KB of
//! CSS, ≈150 KB of JavaScript and a few images (incompressible bytes behind real PNG/JPEG
//! signatures, like real images are to gzip).

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

/// Paths (URL and file) of the fixture, for the scenarios.
pub const HTML: &str = "/";
pub const JS: &str = "/assets/app.js";
/// The size of the script, the site's largest file.
pub const LARGEST: usize = 150 * 1024;
/// A small image (1.5 KB), for the TLS handshake scenarios: the handshake is what they load.
pub const ICON: &str = "/img/icon-0.png";
/// The HTML page from the slow application behind the upstream ([`crate::slowapp`]).
pub const SLOW: &str = "/slow/";

/// A small deterministic generator (xorshift), so every run serves the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len())]
    }
}

const WORDS: &[&str] = &[
    "server",
    "request",
    "latency",
    "cache",
    "worker",
    "connection",
    "static",
    "upstream",
    "buffer",
    "response",
    "client",
    "header",
    "compress",
    "deploy",
    "release",
    "memory",
    "kernel",
    "socket",
    "queue",
    "backlog",
    "timeout",
    "session",
    "certificate",
    "handshake",
    "throughput",
    "page",
    "asset",
    "script",
    "style",
    "image",
    "browser",
    "network",
    "packet",
    "window",
    "stream",
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "for",
    "with",
    "on",
    "each",
    "every",
    "when",
    "fast",
    "small",
    "large",
    "tuned",
    "default",
    "measured",
    "shared",
    "busy",
    "idle",
    "open",
    "closed",
];

fn sentence(rng: &mut Rng, min: usize, max: usize) -> String {
    let n = min + rng.below(max - min + 1);
    let mut s = String::new();
    for i in 0..n {
        let w = rng.pick(WORDS);
        if i == 0 {
            let mut c = w.chars();
            if let Some(f) = c.next() {
                s.extend(f.to_uppercase());
                s.push_str(c.as_str());
            }
        } else {
            s.push(' ');
            s.push_str(w);
        }
    }
    s.push('.');
    s
}

fn ident(rng: &mut Rng) -> String {
    format!("{}-{}", rng.pick(WORDS), rng.pick(WORDS))
}

fn camel(rng: &mut Rng) -> String {
    let a = rng.pick(WORDS);
    let b = rng.pick(WORDS);
    let mut c = b.chars();
    let head: String = c
        .next()
        .map(|f| f.to_uppercase().collect())
        .unwrap_or_default();
    format!("{a}{head}{}", c.as_str())
}

/// The HTML page (≈30 KB).
pub fn html(target: usize) -> String {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = String::from(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Benchmark site</title>\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n\
         <script defer src=\"/assets/app.js\"></script>\n</head>\n<body>\n\
         <header class=\"site-header\"><img src=\"/img/logo.png\" alt=\"logo\" width=\"120\" height=\"40\">\n<nav><ul>\n",
    );
    for i in 0..8 {
        let _ = write!(
            out,
            "<li><a href=\"/section/{i}/\">{}</a></li>\n",
            ident(&mut rng)
        );
    }
    out.push_str(
        "</ul></nav></header>\n<main>\n<img class=\"hero\" src=\"/img/hero.jpg\" alt=\"\">\n",
    );
    let mut n = 0;
    while out.len() < target.saturating_sub(200) {
        n += 1;
        let _ = write!(
            out,
            "<article class=\"card {}\" id=\"post-{n}\">\n<h2>{}</h2>\n",
            ident(&mut rng),
            sentence(&mut rng, 3, 7)
        );
        for _ in 0..2 + rng.below(3) {
            out.push_str("<p>");
            for _ in 0..2 + rng.below(4) {
                out.push_str(&sentence(&mut rng, 6, 18));
                out.push(' ');
            }
            out.push_str("</p>\n");
        }
        let _ = write!(
            out,
            "<a class=\"more\" href=\"/posts/{n}/\">Read more</a>\n<img src=\"/img/icon-{}.png\" alt=\"\" width=\"24\" height=\"24\">\n</article>\n",
            n % 3
        );
    }
    out.push_str("</main>\n<footer><p>Generated fixture for nginx-gen-bench.</p></footer>\n</body>\n</html>\n");
    out
}

/// The stylesheet (≈50 KB).
pub fn css(target: usize) -> String {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let props = [
        "margin",
        "padding",
        "color",
        "background-color",
        "border",
        "font-size",
        "line-height",
        "display",
        "gap",
        "border-radius",
        "max-width",
        "transition",
    ];
    let mut out = String::from(":root{--accent:#3366cc;--text:#222;--muted:#666}\n");
    while out.len() < target {
        let _ = write!(out, ".{} .{}{{", ident(&mut rng), ident(&mut rng));
        for _ in 0..3 + rng.below(5) {
            let p = props[rng.below(props.len())];
            let v = match p {
                "color" | "background-color" => format!("#{:06x}", rng.next() & 0xff_ffff),
                "display" => ["flex", "grid", "block", "inline-block"][rng.below(4)].to_string(),
                "transition" => format!("opacity {}ms ease-in-out", 50 * (1 + rng.below(8))),
                _ => format!("{}px", rng.below(48)),
            };
            let _ = write!(out, "{p}:{v};");
        }
        out.push_str("}\n");
    }
    out
}

/// The script (≈150 KB).
pub fn js(target: usize) -> String {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut out = String::from("\"use strict\";\n(function () {\n");
    while out.len() < target {
        let f = camel(&mut rng);
        let a = camel(&mut rng);
        let b = camel(&mut rng);
        let _ = write!(
            out,
            "  function {f}({a}, {b}) {{\n    const result = [];\n    for (let i = 0; i < {a}.length; i += {}) {{\n      if ({a}[i] && {a}[i].{} !== undefined) {{\n        result.push({{ key: \"{}\", value: {a}[i].{} * {} + ({b} || 0) }});\n      }}\n    }}\n    return result.length > {} ? result : null;\n  }}\n  window.{f} = {f};\n",
            1 + rng.below(3),
            rng.pick(WORDS),
            ident(&mut rng),
            rng.pick(WORDS),
            rng.below(100),
            rng.below(10),
        );
    }
    out.push_str("})();\n");
    out
}

fn image(signature: &[u8], len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut out = signature.to_vec();
    while out.len() < len {
        out.extend_from_slice(&rng.next().to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Writes the site under `root` (world-readable, for nginx's `www-data` workers).
pub fn write(root: &Path) -> io::Result<()> {
    fs::create_dir_all(root.join("assets"))?;
    fs::create_dir_all(root.join("img"))?;
    fs::write(root.join("index.html"), html(30 * 1024))?;
    fs::write(root.join("assets/site.css"), css(50 * 1024))?;
    fs::write(root.join("assets/app.js"), js(LARGEST))?;
    let png = b"\x89PNG\r\n\x1a\n";
    let jpeg = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00";
    fs::write(root.join("img/hero.jpg"), image(jpeg, 48 * 1024, 7))?;
    fs::write(root.join("img/logo.png"), image(png, 6 * 1024, 11))?;
    for i in 0..3 {
        fs::write(
            root.join(format!("img/icon-{i}.png")),
            image(png, 1500 + 300 * i, 13 + i as u64),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_realistic_and_deterministic() {
        let h = html(30 * 1024);
        assert!(
            (29 * 1024..32 * 1024).contains(&h.len()),
            "html {}",
            h.len()
        );
        assert_eq!(h, html(30 * 1024));
        assert!(h.contains("/assets/app.js") && h.ends_with("</html>\n"));
        let c = css(50 * 1024);
        assert!((50 * 1024..52 * 1024).contains(&c.len()), "css {}", c.len());
        let j = js(LARGEST);
        assert!(
            (LARGEST..LARGEST + 2 * 1024).contains(&j.len()),
            "js {}",
            j.len()
        );
        assert_eq!(image(b"\x89PNG", 100, 1).len(), 100);
    }
}
