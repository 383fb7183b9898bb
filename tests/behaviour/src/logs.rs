//! Readers of nginx-gen's access log formats (`--access-log timing|json`) and of
//! `stub_status`, as a log shipper or a monitoring agent would read them: every field by
//! name, each timing a number.

use std::collections::BTreeMap;

/// The fields of a `timing` line, by name: `remote_addr`, `remote_user`, `time`,
/// `request`, `status`, `body_bytes_sent`, `referer`, `user_agent`, then the `key=value`
/// fields as named in the line (`rt`, `uct`, `uht`, `urt`, `ua`, `us`, `tls`, `cipher`,
/// `id`). A value nginx had none for is `-`.
pub fn parse_timing(line: &str) -> Result<BTreeMap<String, String>, String> {
    const POSITIONAL: [&str; 8] = [
        "remote_addr",
        "-",
        "remote_user",
        "time",
        "request",
        "status",
        "body_bytes_sent",
        "referer",
    ];
    let tokens = tokens(line)?;
    let mut fields = BTreeMap::new();
    let mut rest = tokens.into_iter();
    for name in POSITIONAL.iter().chain(&["user_agent"]) {
        let (key, value) = rest
            .next()
            .ok_or_else(|| format!("{name} missing in {line:?}"))?;
        if key.is_some() {
            return Err(format!("{name}: a key=value field instead, in {line:?}"));
        }
        if *name == "-" {
            if value != "-" {
                return Err(format!("the second field is {value:?}, not -"));
            }
        } else {
            fields.insert((*name).to_string(), value);
        }
    }
    for (key, value) in rest {
        let key = key.ok_or_else(|| format!("{value:?} is not key=value, in {line:?}"))?;
        if fields.insert(key.clone(), value).is_some() {
            return Err(format!("{key} twice in {line:?}"));
        }
    }
    Ok(fields)
}

/// `(key, value)` tokens: words split at spaces; `"…"` and `[…]` are one token each (the
/// text format escapes a `"` inside a value as `\x22`), `key="…"` or `key=word` a keyed one.
fn tokens(line: &str) -> Result<Vec<(Option<String>, String)>, String> {
    let mut out = Vec::new();
    let mut s = line.trim_end_matches(['\n', '\r']);
    while !s.is_empty() {
        let (key, body) = match s.find([' ', '=', '"', '[']) {
            Some(i) if s.as_bytes()[i] == b'=' => (Some(s[..i].to_string()), &s[i + 1..]),
            _ => (None, s),
        };
        let (value, rest) = if let Some(q) = body.strip_prefix('"') {
            let end = q
                .find('"')
                .ok_or_else(|| format!("unclosed quote in {line:?}"))?;
            (&q[..end], &q[end + 1..])
        } else if let Some(b) = body.strip_prefix('[').filter(|_| key.is_none()) {
            let end = b
                .find(']')
                .ok_or_else(|| format!("unclosed [ in {line:?}"))?;
            (&b[..end], &b[end + 1..])
        } else {
            let end = body.find(' ').unwrap_or(body.len());
            (&body[..end], &body[end..])
        };
        out.push((key, value.to_string()));
        s = match rest.strip_prefix(' ') {
            Some(r) => r,
            None if rest.is_empty() => rest,
            None => return Err(format!("no space after {value:?} in {line:?}")),
        };
    }
    Ok(out)
}

/// Whether `s` is an ISO 8601 time as nginx writes `$time_iso8601`
/// (`2026-12-02T00:19:21+00:00`).
pub fn is_iso8601(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    b.len() == 25
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
        && (b[19] == b'+' || b[19] == b'-')
        && digits(20..22)
        && b[22] == b':'
        && digits(23..25)
}

/// A time in seconds as nginx logs it (`0.004`); `None` for `-`, text or a negative number.
pub fn seconds(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|t| *t >= 0.0 && t.is_finite())
}

/// The numbers of a `stub_status` page: active, accepts, handled, requests, reading,
/// writing, waiting.
pub fn parse_stub_status(body: &str) -> Result<[u64; 7], String> {
    let numbers: Vec<u64> = body
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let shape = body.starts_with("Active connections:")
        && body.contains("server accepts handled requests")
        && body.contains("Reading:")
        && body.contains("Writing:")
        && body.contains("Waiting:");
    match <[u64; 7]>::try_from(numbers) {
        Ok(n) if shape => Ok(n),
        _ => Err(format!("not a stub_status page: {body:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines as Debian's nginx 1.22 wrote them with `--access-log timing`.
    const PROXIED: &str = r#"127.0.0.1 - - [2026-12-02T00:40:11+00:00] "GET /obs?x=1 HTTP/2.0" 200 312 "-" "obs \x22probe\x22" rt=0.003 uct="0.000" uht="0.002" urt="0.002" ua="127.0.0.1:3000" us="200" tls=TLSv1.3 cipher=TLS_AES_256_GCM_SHA384"#;
    const PLAIN: &str = r#"127.0.0.1 - - [2026-12-02T00:40:11+00:00] "GET / HTTP/1.1" 308 164 "-" "curl/7.88.1" rt=0.000 uct="-" uht="-" urt="-" ua="-" us="-" tls=- cipher=-"#;
    /// A site of files alone: no upstream fields.
    const FILES: &str = r#"127.0.0.1 - - [2026-12-06T07:46:36+00:00] "GET / HTTP/1.1" 200 3 "-" "curl/7.88.1" rt=0.000 tls=- cipher=-"#;

    #[test]
    fn timing_lines_parse_field_by_field() {
        let f = parse_timing(PROXIED).unwrap();
        assert_eq!(f["remote_addr"], "127.0.0.1");
        assert!(is_iso8601(&f["time"]));
        assert_eq!(f["request"], "GET /obs?x=1 HTTP/2.0");
        assert_eq!(f["status"], "200");
        assert_eq!(f["user_agent"], r"obs \x22probe\x22");
        assert_eq!(seconds(&f["urt"]), Some(0.002));
        assert_eq!(f["ua"], "127.0.0.1:3000");
        assert_eq!(f["tls"], "TLSv1.3");
        assert_eq!(f["cipher"], "TLS_AES_256_GCM_SHA384");
        let f = parse_timing(PLAIN).unwrap();
        assert_eq!((f["urt"].as_str(), f["tls"].as_str()), ("-", "-"));
        assert_eq!(seconds(&f["urt"]), None);
        let f = parse_timing(FILES).unwrap();
        assert_eq!((f["rt"].as_str(), f["tls"].as_str()), ("0.000", "-"));
        assert!(!f.contains_key("urt"));
        // A retried request lists both servers' times in one quoted field.
        let retried = PROXIED.replace(r#"urt="0.002""#, r#"urt="0.001, 0.002""#);
        assert_eq!(parse_timing(&retried).unwrap()["urt"], "0.001, 0.002");
    }

    #[test]
    fn broken_lines_are_refused() {
        assert!(parse_timing("127.0.0.1 - - [x").is_err());
        assert!(parse_timing(&PLAIN.replace(" rt=", " rt ")).is_err());
        assert!(parse_timing(&PLAIN.replace("cipher=", "rt=")).is_err());
        assert!(parse_timing(r#"127.0.0.1 - - [t] "GET / HTTP/1.1" 200"#).is_err());
        assert!(!is_iso8601("02/Dec/2026:00:40:11 +0000"));
        assert_eq!(seconds("-"), None);
    }

    #[test]
    fn stub_status_pages() {
        let page = "Active connections: 2 \nserver accepts handled requests\n 7 7 9 \nReading: 0 Writing: 1 Waiting: 1 \n";
        assert_eq!(parse_stub_status(page).unwrap(), [2, 7, 7, 9, 0, 1, 1]);
        assert!(parse_stub_status("<html>403 Forbidden</html>").is_err());
    }
}
