//! The input tables of docs/inputs.md, written from the registry. `core/tests/inputs_doc.rs`
//! fails when the committed file differs (`UPDATE_DOCS=1 cargo test -p nginx-gen-core
//! inputs_doc` rewrites it).

use std::fmt::Write as _;

use super::INPUTS;
use super::spec::{DefaultValue, Group, Input, Kind};

/// The line before the generated part of docs/inputs.md.
pub const BEGIN: &str = "<!-- generated from core/src/inputs/registry.rs: UPDATE_DOCS=1 cargo test -p nginx-gen-core inputs_doc -->";
/// The line after it.
pub const END: &str = "<!-- end of the generated part -->";

/// One table per group of `--help`: every input with its flag, type, default and what is
/// accepted, in Markdown.
pub fn markdown() -> String {
    let mut out = String::new();
    for group in Group::ALL {
        let inputs: Vec<&Input> = INPUTS.iter().filter(|i| i.group == group).collect();
        if inputs.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {}\n", group.title());
        out.push_str("| JSON field | CLI flag | type | default | accepted | what |\n");
        out.push_str("|---|---|---|---|---|---|\n");
        for input in inputs {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} | {} |",
                input.name,
                flag(input),
                input.kind.type_name(),
                default(input),
                accepted(input),
                cell(input.help),
            );
        }
        out.push('\n');
    }
    out.pop();
    out
}

/// Replaces the generated part of `document` (between [`BEGIN`] and [`END`]) with
/// [`markdown`]; `None` when the markers are missing.
pub fn splice(document: &str) -> Option<String> {
    let start = document.find(BEGIN)? + BEGIN.len();
    let end = start + document[start..].find(END)?;
    Some(format!(
        "{}\n\n{}\n{}",
        &document[..start],
        markdown(),
        &document[end..]
    ))
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn flag(input: &Input) -> String {
    let mut text = String::new();
    if let Some(short) = input.flag.short {
        let _ = write!(text, "`-{short}`, ");
    }
    let _ = write!(text, "`--{}`", input.flag.long);
    if input.repeatable() {
        text.push_str(" (repeat)");
    }
    text
}

fn default(input: &Input) -> String {
    let text = match input.default {
        DefaultValue::Value(v) if input.kind == Kind::Bool => v.to_owned(),
        DefaultValue::Value(v) => format!("`{v}`"),
        DefaultValue::List(items) => {
            let quoted: Vec<String> = items.iter().map(|i| format!("\"{i}\"")).collect();
            format!("`[{}]`", quoted.join(", "))
        }
        DefaultValue::Unset(what) if what.starts_with('/') => format!("`{what}`"),
        DefaultValue::Unset(what) => what.to_owned(),
    };
    if input.detected {
        format!("{text} (the CLI detects it)")
    } else {
        cell(&text)
    }
}

fn accepted(input: &Input) -> String {
    let mut text = match input.kind {
        Kind::Int { min, max } => format!("{min}–{max}"),
        Kind::Size { min, max } => format!(
            "{min}–{max}; `8G`, `8GiB`, `8192M`, `1.5G`, `512MiB`, `8 GB` (binary units; a bare number is bytes)"
        ),
        Kind::Version { min } => format!("`any`, or {min} or later"),
        Kind::Choice(names) => {
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            quoted.join(", ")
        }
        Kind::Bool => "`true`, `false`".to_owned(),
        Kind::Path => "absolute; letters, digits, `/ . _ - + @ % , : = ~`".to_owned(),
        Kind::Text { accepted, .. } => accepted.to_owned(),
        Kind::List { accepted, .. } => format!("{}: {accepted}", Kind::list_len()),
    };
    if !input.note.is_empty() {
        text.push_str("; ");
        text.push_str(input.note);
    }
    cell(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_input_has_one_row() {
        let table = markdown();
        for input in INPUTS {
            let row = format!("| `{}` |", input.name);
            assert_eq!(table.matches(&row).count(), 1, "{}", input.name);
        }
    }

    #[test]
    fn flags_show_short_names_and_repetition() {
        let vcpu = Input {
            flag: super::super::Flag::value("vcpu", "N").with_short('c'),
            ..INPUTS[0]
        };
        assert_eq!(flag(&vcpu), "`-c`, `--vcpu`");
        let names = super::super::input("server_names").unwrap();
        assert_eq!(flag(names), "`--server-name` (repeat)");
    }

    #[test]
    fn splice_replaces_only_the_generated_part() {
        let doc = format!("intro\n{BEGIN}\nold table\n{END}\noutro\n");
        let new = splice(&doc).unwrap();
        assert!(new.starts_with(&format!("intro\n{BEGIN}\n\n### Machine")));
        assert!(new.ends_with(&format!("\n{END}\noutro\n")));
        assert!(!new.contains("old table"));
        assert_eq!(splice(&new).unwrap(), new);
        assert_eq!(splice("no markers"), None);
    }
}
