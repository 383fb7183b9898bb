//! Light syntax highlighting, and which line of a file shows which of the plan's settings.
//!
//! Highlighting only splits a line into classed pieces; joining the pieces gives the line
//! back byte for byte, so the text the page shows is exactly what the core rendered.

use nginx_gen_core::render::Origin;

use crate::state::Tab;

/// The class of a piece of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Plain text.
    Plain,
    /// A comment.
    Comment,
    /// A directive, key or JSON property name.
    Key,
    /// A number or size.
    Number,
    /// A quoted string.
    Str,
    /// Braces, brackets, `;` and `=`.
    Punct,
}

impl Class {
    /// CSS class name (empty for plain text).
    pub const fn css(self) -> &'static str {
        match self {
            Self::Plain => "",
            Self::Comment => "c",
            Self::Key => "k",
            Self::Number => "n",
            Self::Str => "s",
            Self::Punct => "p",
        }
    }
}

/// Splits one line (without its newline) into classed pieces.
pub fn line(tab: Tab, text: &str) -> Vec<(Class, &str)> {
    let mut out = Vec::new();
    let trimmed = text.trim_start();
    let indent = &text[..text.len() - trimmed.len()];
    if !indent.is_empty() {
        out.push((Class::Plain, indent));
    }
    if trimmed.starts_with('#')
        || trimmed.starts_with("//")
        || tab == Tab::Php && trimmed.starts_with(';')
    {
        out.push((Class::Comment, trimmed));
        return out;
    }
    let rest = if tab == Tab::Json || tab == Tab::Script {
        trimmed
    } else {
        // The first word is the directive, key or systemd setting.
        let end = if trimmed.starts_with(['}', '[', '{']) {
            0
        } else {
            trimmed
                .find(|c: char| c.is_whitespace() || c == '=' || c == ';' || c == '{')
                .unwrap_or(trimmed.len())
        };
        if end > 0 {
            out.push((Class::Key, &trimmed[..end]));
        }
        &trimmed[end..]
    };
    tokens(rest, &mut out);
    out
}

fn tokens<'a>(mut s: &'a str, out: &mut Vec<(Class, &'a str)>) {
    while !s.is_empty() {
        let c = s.chars().next().unwrap_or(' ');
        let (class, len) = if c == '"' || c == '\'' {
            let close = s[1..].find(c).map_or(s.len(), |i| i + 2);
            // A JSON string followed by ':' is a property name.
            let is_key = s[close..].trim_start().starts_with(':') && c == '"';
            (if is_key { Class::Key } else { Class::Str }, close)
        } else if matches!(c, '{' | '}' | '[' | ']' | ';' | '=' | ',' | ':') {
            (Class::Punct, c.len_utf8())
        } else {
            let len = s
                .find(|c: char| {
                    c.is_whitespace()
                        || matches!(c, '"' | '\'' | '{' | '}' | '[' | ']' | ';' | '=' | ',')
                })
                .unwrap_or(s.len())
                .max(c.len_utf8());
            let word = &s[..len];
            let numeric = word.chars().next().is_some_and(|d| d.is_ascii_digit())
                && word
                    .trim_end_matches(['k', 'K', 'm', 'M', 'g', 'G', 's', 'd', 'h'])
                    .chars()
                    .all(|d| d.is_ascii_digit() || d == '.');
            (if numeric { Class::Number } else { Class::Plain }, len)
        };
        let len = len.min(s.len());
        out.push((class, &s[..len]));
        s = &s[len..];
    }
}

/// What a line of a configuration file shows of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The directive (or key) of setting `.0`: the line that links to its reason.
    Directive(usize),
    /// A line of the reason comment written above setting `.0`.
    Reason(usize),
}

impl Role {
    /// The setting's index in the plan.
    pub const fn setting(self) -> usize {
        match self {
            Self::Directive(i) | Self::Reason(i) => i,
        }
    }
}

/// For each of `lines` lines of a file, what it shows of the plan, from the renderer's
/// origins (the page never parses its output back).
pub fn roles(origins: &[Origin], lines: usize) -> Vec<Option<Role>> {
    let mut roles = vec![None; lines];
    for o in origins {
        for role in roles.iter_mut().take(o.line).skip(o.first) {
            *role = Some(Role::Reason(o.setting));
        }
        if let Some(role) = roles.get_mut(o.line) {
            *role = Some(Role::Directive(o.setting));
        }
    }
    roles
}

/// Keys for the lines of a text that survive edits, so that the page keeps the lines an
/// edit did not touch. A line that occurs once is its own key (`None`). A repeated line
/// (`}`, a blank line, `"default": null,`) is keyed by its text, how many times it came
/// since the last line above it that occurs once (its anchor), and the anchor's text: so
/// inserting or removing lines renumbers only the repeats between two unique lines, not
/// every repeat below. Anchors occur once, so the keys are distinct (no line holds NUL).
pub fn line_keys(lines: &[&str]) -> Vec<Option<String>> {
    // Counted by comparing lines, not in a hash map: a few hundred short lines take
    // well under a millisecond, and the map's code was 2 KB of the page.
    let once = |line: &str| lines.iter().filter(|l| **l == line).nth(1).is_none();
    let mut anchor = None;
    (0..lines.len())
        .map(|i| {
            let line = lines[i];
            if once(line) {
                anchor = Some(i);
                return None;
            }
            let from = anchor.map_or(0, |a| a + 1);
            let before = lines[from..i].iter().filter(|l| **l == line).count();
            Some(match anchor {
                Some(a) => format!("{line}\0{before}\0{}", lines[a]),
                None => format!("{line}\0{before}"),
            })
        })
        .collect()
}

/// How many lines a line diff of `a` into `b` keeps: the length of their longest common
/// subsequence, the most lines any edit can leave in place. What the line keys are
/// measured against (the unit tests here, and the browser test of a whole edit).
pub fn common_lines<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut row = vec![0; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diagonal + 1 } else { up.max(row[j]) };
            diagonal = up;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{inputs, plan};
    use nginx_gen_core::render;
    use std::collections::HashSet;

    #[test]
    fn pieces_join_to_the_line() {
        let plan = plan(r#"{"tls": true, "workload": "mixed"}"#);
        for tab in crate::state::Tab::ALL {
            let text = render::render(&plan, tab.format());
            for l in text.split('\n') {
                let joined: String = line(tab, l).iter().map(|(_, p)| *p).collect();
                assert_eq!(joined, l);
            }
        }
    }

    #[test]
    fn classes() {
        let p = line(Tab::Nginx, "    worker_connections 4096;");
        assert_eq!(p[1], (Class::Key, "worker_connections"));
        assert!(p.contains(&(Class::Number, "4096")));
        assert_eq!(line(Tab::Nginx, "# why")[0].0, Class::Comment);
        let j = line(Tab::Json, r#"  "name": "gzip","#);
        assert!(j.contains(&(Class::Key, "\"name\"")));
        assert!(j.contains(&(Class::Str, "\"gzip\"")));
    }

    #[test]
    fn every_setting_has_its_directive_line_and_reason() {
        for json in [
            r#"{"tls": true, "workload": "proxy", "behind_lb": true, "trusted_proxies": ["10.0.0.0/8", "192.168.0.0/16"]}"#,
            r#"{"workload": "mixed", "tls": true, "http3": true, "lang": "de"}"#,
        ] {
            let output = crate::state::Output::new(
                &inputs(json),
                &std::rc::Rc::new(nginx_gen_core::i18n::Catalogue::default()),
            );
            let plan = &output.plan;
            let mut seen = vec![false; plan.settings.len()];
            for tab in [Tab::Nginx, Tab::Site, Tab::Sysctl, Tab::Systemd] {
                let lines: Vec<&str> = output.text(tab).split('\n').collect();
                let roles = roles(output.origins(tab), lines.len());
                for (line, role) in lines.iter().zip(&roles) {
                    let t = line.trim_start();
                    match role {
                        // The directive line starts with the setting's name and holds its value.
                        Some(Role::Directive(i)) => {
                            let s = &plan.settings[*i];
                            assert!(t.starts_with(s.name), "{tab:?}: {line:?} is not {}", s.name);
                            for arg in &s.args {
                                // nginx quotes an argument with spaces, escaping its quotes.
                                let quoted = arg.replace('"', "\\\"");
                                assert!(
                                    t.contains(arg) || t.contains(&quoted),
                                    "{tab:?}: {line:?} lacks {arg}"
                                );
                            }
                            seen[*i] = true;
                        }
                        Some(Role::Reason(_)) => assert!(t.starts_with('#'), "{tab:?}: {line:?}"),
                        None => {}
                    }
                }
                // A reason's lines run up to its directive.
                for pair in roles.windows(2) {
                    if let [Some(Role::Reason(a)), next] = pair {
                        assert!(
                            matches!(next, Some(Role::Reason(b) | Role::Directive(b)) if b == a)
                        );
                    }
                }
            }
            // Every setting of the plan is linked in one of the four files.
            let missing: Vec<&str> = plan
                .settings
                .iter()
                .zip(&seen)
                .filter(|(_, seen)| !**seen)
                .map(|(s, _)| s.name)
                .collect();
            assert!(missing.is_empty(), "{json}: {missing:?}");
        }
    }

    use super::common_lines as lcs;

    #[test]
    fn line_keys_are_distinct_and_keep_the_lines_an_edit_leaves() {
        let id = |lines: &[&str]| -> Vec<String> {
            line_keys(lines)
                .into_iter()
                .zip(lines)
                .map(|(key, line)| key.unwrap_or_else(|| (*line).to_owned()))
                .collect()
        };
        for (from, to) in [
            (
                r#"{"workload": "proxy", "nginx_version": "1.30"}"#,
                r#"{"workload": "proxy", "nginx_version": "1.30", "tls": true}"#,
            ),
            (
                r#"{"workload": "static", "nginx_version": "1.30"}"#,
                r#"{"workload": "mixed", "nginx_version": "1.30"}"#,
            ),
        ] {
            let (from, to) = (plan(from), plan(to));
            for tab in Tab::ALL {
                let (a, b) = (
                    render::render(&from, tab.format()),
                    render::render(&to, tab.format()),
                );
                let (a, b): (Vec<&str>, Vec<&str>) =
                    (a.split('\n').collect(), b.split('\n').collect());
                let (ia, ib) = (id(&a), id(&b));
                for ids in [&ia, &ib] {
                    let unique: HashSet<&String> = ids.iter().collect();
                    assert_eq!(unique.len(), ids.len(), "{tab:?}: identities repeat");
                }
                // Lines whose identity is not kept in order are made or moved; a line diff
                // of the texts is the least that must be. (Numbering repeats from the top
                // instead moves 428 of TLS's 1001 JSON lines where 269 are new.)
                let least = b.len() - lcs(&a, &b);
                let made = b.len() - lcs(&ia, &ib);
                assert!(
                    made * 10 <= least * 10 + b.len(),
                    "{tab:?}: {made} lines made or moved, {least} new"
                );
            }
        }
    }
}
