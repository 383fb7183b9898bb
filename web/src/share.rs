//! The share URL: the whole input state in the query string, as a typed value.
//!
//! `?v=1&vcpu=8&ram=16G&workload=proxy&…&tls=1&lang=de&policy=2026.12` — `v` is the format
//! version, every other parameter is a field of the JSON input schema. Every input is
//! written, with the tuning policy, so a later change of a default cannot change what an
//! old link produces, and a link made under another policy says so (the core warns).
//! Reading is forgiving: an unknown parameter, or a value the core rejects, falls back to
//! the default and is reported as a [`Notice`]; a parameter a link leaves out (older links
//! wrote only what differed) takes the default.

use nginx_gen_core::{Inputs, RawInputs};

use crate::fields::{Field, Widget};

/// Version of the query format written by [`ShareState::to_query`].
pub const VERSION: &str = "1";

/// Why a parameter of a share URL was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// No input has this name.
    Unknown,
    /// The core rejected the value; its message.
    Invalid(String),
    /// The link was written by a newer, unknown format version.
    Version,
}

/// A parameter that was ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The parameter's name.
    pub param: String,
    /// Its value as given.
    pub value: String,
    /// Why it was ignored.
    pub problem: Problem,
}

/// What a share URL holds: valid inputs, and whether it chose the language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareState {
    /// The inputs (defaults where the URL said nothing or something invalid).
    pub inputs: Inputs,
    /// Whether the URL named a (valid) language; if not, the browser's may be used.
    pub has_lang: bool,
    /// Parameters that were ignored.
    pub notices: Vec<Notice>,
}

/// Percent-encodes a query component, keeping characters that are safe and readable in
/// a query (`, : / * @`).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~,:/*@".contains(&b) {
            out.push(b as char);
        } else {
            let hex = |n: u8| char::from(b"0123456789ABCDEF"[usize::from(n)]);
            out.extend(['%', hex(b >> 4), hex(b & 15)]);
        }
    }
    out
}

/// Decodes a query component (`+` is a space); invalid escapes are kept as written, and so
/// is the whole component when its escapes do not decode to UTF-8.
pub fn decode_component(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match bytes
                .get(i + 1..i + 3)
                .and_then(|h| Some(hex_digit(h[0])? << 4 | hex_digit(h[1])?))
            {
                Some(b) => {
                    out.push(b);
                    i += 3;
                    continue;
                }
                None => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

/// The value of a hexadecimal digit (by hand: `u8::from_str_radix` brought the standard
/// library's generic integer parser into the page).
fn hex_digit(c: u8) -> Option<u8> {
    char::from(c).to_digit(16).map(|d| d as u8)
}

/// Splits a query string (with or without the leading `?`) into decoded pairs.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode_component(k), decode_component(v))
        })
        .collect()
}

impl ShareState {
    /// Reads a query string. Never fails: what cannot be used is reported in `notices`.
    pub fn from_query(query: &str) -> Self {
        let pairs = parse_query(query);
        let mut notices = Vec::new();
        if let Some((_, v)) = pairs.iter().find(|(k, v)| k == "v" && v != VERSION) {
            notices.push(Notice {
                param: "v".into(),
                value: v.clone(),
                problem: Problem::Version,
            });
            return Self {
                inputs: Inputs::default(),
                has_lang: false,
                notices,
            };
        }
        // A visitor without a link runs the most common current release, not the newest
        // nginx (a link names its release, or versions that win over it).
        let mut raw = RawInputs {
            release: Some(nginx_gen_core::policy::SUGGESTED.to_string()),
            ..RawInputs::default()
        };
        let mut given: Vec<(String, String)> = Vec::new();
        for (key, value) in pairs {
            if key == "v" {
                continue;
            }
            let known = if key == "lang" {
                raw.lang = Some(value.clone());
                true
            } else if key == "policy" {
                raw.policy = Some(value.clone());
                true
            } else if let Some(field) = Field::from_key(&key) {
                if field.apply(&mut raw, &value) {
                    true
                } else {
                    notices.push(Notice {
                        param: key.clone(),
                        value: value.clone(),
                        problem: Problem::Invalid(format!("'{value}' is not true or false")),
                    });
                    continue;
                }
            } else {
                false
            };
            if known {
                given.retain(|(k, _)| *k != key);
                given.push((key, value));
            } else {
                notices.push(Notice {
                    param: key,
                    value,
                    problem: Problem::Unknown,
                });
            }
        }
        // Drop each rejected parameter (the core names it) until the rest is valid; every
        // round removes at least one parameter, so this ends.
        let inputs = loop {
            match Inputs::from_raw(&raw) {
                Ok(inputs) => break inputs,
                Err(errors) => {
                    let before = notices.len();
                    for e in &errors.0 {
                        let Some(pos) = given.iter().position(|(k, _)| *k == e.field) else {
                            continue;
                        };
                        let (param, value) = given.remove(pos);
                        clear(&mut raw, &param);
                        notices.push(Notice {
                            param,
                            value,
                            problem: Problem::Invalid(e.message.clone()),
                        });
                    }
                    if notices.len() == before {
                        // The error names a field the URL did not set (a pair rule such as
                        // tls_cert needing tls_key): drop the last parameter applied and say
                        // so, instead of silently losing the whole link.
                        let partner = errors.0.iter().find_map(|e| {
                            let other = match e.field.as_str() {
                                "tls_key" => "tls_cert",
                                "tls_cert" => "tls_key",
                                _ => return None,
                            };
                            given.iter().position(|(k, _)| k == other)
                        });
                        let Some((param, value)) =
                            partner.map(|i| given.remove(i)).or_else(|| given.pop())
                        else {
                            break Inputs::default();
                        };
                        clear(&mut raw, &param);
                        notices.push(Notice {
                            param,
                            value,
                            problem: Problem::Invalid(errors.0[0].message.clone()),
                        });
                    }
                }
            }
        };
        let has_lang = given.iter().any(|(k, _)| k == "lang");
        Self {
            inputs,
            has_lang,
            notices,
        }
    }

    /// The query string for `inputs` (with the leading `?`): every input that has a value,
    /// the language and the policy the inputs were written for.
    pub fn to_query(inputs: &Inputs) -> String {
        let raw = inputs.to_raw();
        let mut params = Vec::new();
        for &field in Field::all() {
            let Some(value) = field.read(&raw) else {
                continue;
            };
            let value = match field.widget() {
                Widget::Checkbox => if value == "true" { "1" } else { "0" }.to_owned(),
                Widget::List => without_spaces_after_commas(&value),
                _ => value,
            };
            params.push(format!("{}={}", field.key(), encode_component(&value)));
        }
        params.push(format!("lang={}", inputs.lang));
        let policy = inputs
            .policy
            .as_ref()
            .map_or(nginx_gen_core::POLICY_VERSION, |p| p.as_str());
        params.push(format!("policy={policy}"));
        format!("?v={VERSION}&{}", params.join("&"))
    }
}

/// `value` with every `", "` written `","` (a list as the core reads it back). Not
/// `str::replace`: a `&str` pattern would bring the standard library's substring search,
/// 0.7 KB of the page, for this one use.
fn without_spaces_after_commas(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == ',' {
            chars.next_if_eq(&' ');
        }
    }
    out
}

fn clear(raw: &mut RawInputs, key: &str) {
    // Only inputs reach here (the parameters that were applied), `lang` among them.
    let _ = raw.set(key, None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::inputs;

    #[test]
    fn lists_lose_the_space_after_each_comma_as_replace_would() {
        for value in ["a, b", "a,  b", ", , ", "a,b", "", ",", "a ,b, c"] {
            assert_eq!(without_spaces_after_commas(value), value.replace(", ", ","));
        }
    }

    #[test]
    fn defaults_are_written_in_full_and_read_back() {
        let q = ShareState::to_query(&Inputs::default());
        assert!(q.starts_with("?v=1&vcpu=4&ram=8G&"), "{q}");
        assert!(
            q.ends_with(&format!(
                "&lang=en&policy={}",
                nginx_gen_core::POLICY_VERSION
            )),
            "{q}"
        );
        let s = ShareState::from_query(&q);
        assert_eq!(s.inputs, Inputs::default());
        assert!(s.notices.is_empty());
        // A link without parameters (or an old one without these) takes the defaults.
        let fresh = ShareState::from_query("").inputs;
        assert_eq!(fresh.release, nginx_gen_core::policy::SUGGESTED);
        assert_eq!(fresh, crate::testing::page_plan("{}").inputs);
    }

    #[test]
    fn a_link_from_another_policy_is_kept_and_warned_about() {
        let s = ShareState::from_query("?v=1&vcpu=8&policy=2026.11");
        assert!(s.notices.is_empty());
        assert_eq!(
            s.inputs
                .policy
                .as_ref()
                .map(nginx_gen_core::inputs::PolicyVersion::as_str),
            Some("2026.11")
        );
        let plan = nginx_gen_core::Plan::new(&s.inputs);
        assert!(plan.warnings.iter().any(|w| w.id == "policy"));
        assert!(ShareState::to_query(&s.inputs).ends_with("&policy=2026.11"));
        let bad = ShareState::from_query("?v=1&policy=soon");
        assert_eq!(bad.notices[0].param, "policy");
    }

    #[test]
    fn every_value_is_written_and_read_back() {
        let i = inputs(
            r#"{"vcpu": 8, "ram": "16G", "workload": "proxy", "tls": true, "http3": true, "server_names": ["a.example", "*.b.example"], "upstreams": ["[::1]:9000", "unix:/run/app.sock"], "lang": "ru"}"#,
        );
        let q = ShareState::to_query(&i);
        for param in [
            "?v=1&vcpu=8&ram=16G&",
            "&workload=proxy&",
            "&server_names=a.example,*.b.example&",
            "&upstreams=%5B::1%5D:9000,unix:/run/app.sock&",
            "&tls=1&",
            "&http3=1&",
            "&lang=ru&policy=",
        ] {
            assert!(q.contains(param), "{param} in {q}");
        }
        let back = ShareState::from_query(&q);
        assert_eq!(back.inputs, i);
        assert!(back.has_lang);
        assert!(back.notices.is_empty());
    }

    #[test]
    fn unknown_and_invalid_parameters_fall_back_with_notices() {
        let s = ShareState::from_query("?v=1&vcpu=0&ram=16G&colour=blue&http3=1&lang=xx");
        assert_eq!(s.inputs.ram, inputs(r#"{"ram": "16G"}"#).ram);
        assert_eq!(s.inputs.vcpu, Inputs::default().vcpu);
        assert!(!s.inputs.http3);
        assert!(!s.has_lang);
        let params: Vec<_> = s.notices.iter().map(|n| n.param.as_str()).collect();
        assert_eq!(params, ["colour", "vcpu", "lang", "http3"]);
        assert_eq!(s.notices[0].problem, Problem::Unknown);
        assert!(matches!(&s.notices[1].problem, Problem::Invalid(m) if m.contains("out of range")));
    }

    #[test]
    fn an_error_about_an_unset_field_drops_its_partner_with_a_notice() {
        // Core names tls_key (cert and key go together), which the link did not set.
        let s = ShareState::from_query("?v=1&vcpu=8&tls_cert=%2Fc.pem&tls=true");
        assert_eq!(s.inputs.vcpu, 8, "valid parameters survive");
        assert!(s.inputs.tls, "valid parameters survive");
        assert_eq!(s.notices.len(), 1);
        assert_eq!(s.notices[0].param, "tls_cert");
    }

    #[test]
    fn an_unknown_version_gives_the_defaults() {
        let s = ShareState::from_query("?v=9&vcpu=8");
        assert_eq!(s.inputs, Inputs::default());
        assert_eq!(s.notices[0].problem, Problem::Version);
    }

    #[test]
    fn components_round_trip() {
        for s in ["a b", "100%", "ü", "[::]:80", "x&y=z", "%zz", "%"] {
            assert_eq!(decode_component(&encode_component(s)), s);
        }
        assert_eq!(decode_component("%zz%4"), "%zz%4");
        assert_eq!(decode_component("a%2Bb+c%e2%82%ac"), "a+b c€");
        // Escapes that are not UTF-8: the component as written.
        assert_eq!(decode_component("x%FFy"), "x%FFy");
    }
}
