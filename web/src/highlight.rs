//! Light syntax highlighting and the link from output lines to the plan's settings.
//!
//! Highlighting only splits a line into classed pieces; joining the pieces gives the line
//! back byte for byte, so the text the page shows is exactly what the core rendered.

use nginx_gen_core::Plan;
use nginx_gen_core::plan::{Scope, Setting};

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
    if trimmed.starts_with('#') || trimmed.starts_with("//") {
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
        } else if "{}[];=,:".contains(c) {
            (Class::Punct, c.len_utf8())
        } else {
            let len = s
                .find(|c: char| c.is_whitespace() || "\"'{}[];=,".contains(c))
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

/// The scopes whose settings a tab's file holds.
fn in_tab(tab: Tab, scope: Scope) -> bool {
    match tab {
        Tab::Nginx => matches!(scope, Scope::Main | Scope::Events | Scope::Http),
        Tab::Site => matches!(
            scope,
            Scope::Upstream | Scope::Server { .. } | Scope::Location { .. }
        ),
        Tab::Sysctl => scope == Scope::Sysctl,
        Tab::Systemd => scope == Scope::Systemd,
        Tab::Json | Tab::Script => false,
    }
}

/// For every line of a tab's text, the index of the setting it writes, if any.
pub fn settings_by_line(plan: &Plan, tab: Tab, text: &str) -> Vec<Option<usize>> {
    let candidates: Vec<(usize, &Setting)> = plan
        .settings
        .iter()
        .enumerate()
        .filter(|(_, s)| in_tab(tab, s.scope))
        .collect();
    let mut used = vec![false; plan.settings.len()];
    text.split('\n')
        .map(|l| {
            let t = l.trim();
            if t.is_empty() || t.starts_with('#') {
                return None;
            }
            let name = t
                .split(|c: char| c.is_whitespace() || c == '=' || c == ';')
                .next()
                .unwrap_or("");
            let matches = |s: &Setting| s.name == name && t.contains(&s.value());
            let pick = candidates
                .iter()
                .find(|(i, s)| !used[*i] && matches(s))
                .or_else(|| candidates.iter().find(|(_, s)| matches(s)))
                .map(|(i, _)| *i)?;
            used[pick] = true;
            Some(pick)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nginx_gen_core::Inputs;
    use nginx_gen_core::render::{self};

    #[test]
    fn pieces_join_to_the_line() {
        let plan = Plan::new(&Inputs::from_json(r#"{"tls": true, "workload": "mixed"}"#).unwrap());
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
    fn every_setting_line_finds_its_setting() {
        let plan = Plan::new(
            &Inputs::from_json(r#"{"tls": true, "workload": "proxy", "behind_lb": true}"#).unwrap(),
        );
        for tab in [Tab::Nginx, Tab::Site, Tab::Sysctl, Tab::Systemd] {
            let text = render::render(&plan, tab.format());
            let found: Vec<usize> = settings_by_line(&plan, tab, &text)
                .into_iter()
                .flatten()
                .collect();
            let expected = plan
                .settings
                .iter()
                .filter(|s| in_tab(tab, s.scope))
                .count();
            let mut unique = found.clone();
            unique.sort_unstable();
            unique.dedup();
            assert!(
                unique.len() * 10 >= expected * 9,
                "{tab:?}: {} of {expected}",
                unique.len()
            );
            for i in found {
                assert!(in_tab(tab, plan.settings[i].scope));
            }
        }
    }
}
