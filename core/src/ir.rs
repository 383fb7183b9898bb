//! A small typed tree for nginx configuration, built by the renderers and written once by
//! [`write`]. Arguments are quoted here and nowhere else.

use std::borrow::Cow;

use crate::plan::Reason;

/// One node of an nginx configuration file. Nodes borrow from the plan: building and
/// writing a tree copies no setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node<'a> {
    /// `# text`, wrapped to the line width.
    Comment(Cow<'a, str>),
    /// A setting's reason as a comment: the explanation, then formula and stock default.
    Reason(&'a Reason),
    /// An empty line.
    Blank,
    /// `name args;`
    Directive {
        /// Directive name.
        name: &'a str,
        /// Arguments, unquoted.
        args: &'a [Cow<'static, str>],
    },
    /// `name args { children }`
    Block {
        /// Block name (`http`, `server`, `location`, …).
        name: &'a str,
        /// Arguments, unquoted.
        args: Vec<&'a str>,
        /// Contents.
        children: Vec<Node<'a>>,
    },
}

impl<'a> Node<'a> {
    /// A block.
    pub fn block(name: &'a str, args: Vec<&'a str>, children: Vec<Self>) -> Self {
        Self::Block {
            name,
            args,
            children,
        }
    }
}

/// Comment lines are wrapped to this width (indentation included).
const WIDTH: usize = 92;
/// One level of indentation.
const INDENT: &str = "    ";
/// Indentation and comment marker of the depths the renderers use, so that writing a level
/// allocates nothing; deeper levels build theirs.
const PREFIXES: [&str; 4] = ["# ", "    # ", "        # ", "            # "];

/// Writes `nodes` as nginx configuration text.
pub fn write(nodes: &[Node<'_>]) -> String {
    let mut out = String::with_capacity(16 * 1024);
    write_level(&mut out, nodes, 0);
    out
}

fn write_level(out: &mut String, nodes: &[Node<'_>], depth: usize) {
    let prefix: Cow<str> = match PREFIXES.get(depth) {
        Some(prefix) => Cow::Borrowed(prefix),
        None => Cow::Owned(INDENT.repeat(depth) + "# "),
    };
    let prefix = &*prefix;
    let indent = prefix.strip_suffix("# ").unwrap_or(prefix);
    for node in nodes {
        match node {
            Node::Blank => out.push('\n'),
            Node::Comment(text) => push_wrapped(
                out,
                prefix,
                text,
                WIDTH.saturating_sub(prefix.len()).max(40),
            ),
            Node::Reason(reason) => push_reason(
                out,
                prefix,
                reason,
                WIDTH.saturating_sub(prefix.len()).max(40),
            ),
            Node::Directive { name, args } => {
                out.push_str(indent);
                out.push_str(name);
                push_args(out, args.iter().map(AsRef::as_ref));
                out.push_str(";\n");
            }
            Node::Block {
                name,
                args,
                children,
            } => {
                out.push_str(indent);
                out.push_str(name);
                push_args(out, args.iter().copied());
                out.push_str(" {\n");
                write_level(out, children, depth + 1);
                out.push_str(indent);
                out.push_str("}\n");
            }
        }
    }
}

fn push_args<'s>(out: &mut String, args: impl Iterator<Item = &'s str>) {
    for arg in args {
        out.push(' ');
        push_quoted(out, arg);
    }
}

/// Bytes that make nginx split or end an argument: ASCII whitespace (as
/// `char::is_whitespace` defines it) and `; { } " ' #`.
const SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"\t\n\x0B\x0C\r ;{}\"'#";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

fn needs_quotes(arg: &str) -> bool {
    // Bytes first; only non-ASCII text needs the slower check for Unicode whitespace.
    arg.is_empty()
        || arg.bytes().any(|b| SPECIAL[usize::from(b)])
        || (!arg.is_ascii() && arg.chars().any(char::is_whitespace))
}

fn push_quoted(out: &mut String, arg: &str) {
    if !needs_quotes(arg) {
        out.push_str(arg);
        return;
    }
    out.push('"');
    for c in arg.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

/// Quotes an argument when nginx would otherwise split or end it there.
pub fn quote(arg: &str) -> String {
    let mut s = String::with_capacity(arg.len() + 2);
    push_quoted(&mut s, arg);
    s
}

/// Appends `text` to `out` as lines of at most `width` characters, each starting with
/// `prefix`, broken at spaces and at newlines; lines indented by two spaces are
/// preformatted (commands to copy) and kept whole.
pub fn push_wrapped(out: &mut String, prefix: &str, text: &str, width: usize) {
    for paragraph in text.lines() {
        if paragraph.starts_with("  ") {
            push_line(out, prefix, paragraph);
        } else {
            push_paragraph(out, prefix, paragraph, width);
        }
    }
}

fn push_line(out: &mut String, prefix: &str, line: &str) {
    out.push_str(prefix);
    out.push_str(line);
    out.push('\n');
}

/// Greedy line breaking at single spaces, copying whole lines. Widths count characters,
/// not bytes, because translations are not ASCII.
fn push_paragraph(out: &mut String, prefix: &str, text: &str, width: usize) {
    if text.len() <= width {
        // No more characters than bytes: it fits.
        return push_line(out, prefix, text);
    }
    if text.is_ascii() {
        return push_ascii_paragraph(out, prefix, text, width);
    }
    let mut start = 0; // first byte of the current line
    let mut chars = 0; // characters in text[start..i]
    let mut space: Option<(usize, usize)> = None; // last space in the line: (byte, chars before it)
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if b == b' ' {
            if chars > width
                && let Some((at, before)) = space
            {
                push_line(out, prefix, &text[start..at]);
                start = at + 1;
                chars -= before + 1;
            }
            space = Some((i, chars));
        }
        if b & 0xC0 != 0x80 {
            chars += 1;
        }
    }
    if chars > width
        && let Some((at, _)) = space.filter(|(at, _)| *at >= start)
    {
        push_line(out, prefix, &text[start..at]);
        start = at + 1;
    }
    push_line(out, prefix, &text[start..]);
}

/// [`push_paragraph`] for ASCII text, where bytes are characters: each break is the last
/// space that keeps the line within `width`.
fn push_ascii_paragraph(out: &mut String, prefix: &str, text: &str, width: usize) {
    let mut rest = text;
    while rest.len() > width {
        let at = rest.as_bytes()[..=width]
            .iter()
            .rposition(|&b| b == b' ')
            .or_else(|| rest.find(' '));
        let Some(at) = at else { break };
        push_line(out, prefix, &rest[..at]);
        rest = &rest[at + 1..];
    }
    push_line(out, prefix, rest);
}

/// Appends a reason as comment lines: the explanation, then a line with the formula and
/// the stock default.
pub fn push_reason(out: &mut String, prefix: &str, reason: &Reason, width: usize) {
    push_wrapped(out, prefix, reason.why, width);
    match (reason.formula.as_deref(), reason.default) {
        (None, None) => {}
        (Some(formula), None) => push_wrapped(out, prefix, formula, width),
        (None, Some(default)) => push_joined(out, prefix, &["default: ", default], width),
        (Some(formula), Some(default)) => {
            push_joined(out, prefix, &[formula, "; default: ", default], width);
        }
    }
}

/// [`push_wrapped`] of the concatenation of `parts`, which are joined only when the text
/// does not fit on one line.
fn push_joined(out: &mut String, prefix: &str, parts: &[&str], width: usize) {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    if len == 0 || len > width || parts.iter().any(|p| p.contains('\n')) {
        push_wrapped(out, prefix, &parts.concat(), width);
        return;
    }
    out.push_str(prefix);
    for part in parts {
        out.push_str(part);
    }
    out.push('\n');
}

/// Splits `text` into lines as [`push_wrapped`] does, without a prefix.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = String::new();
    push_wrapped(&mut out, "", text, width);
    out.lines().map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_nested_blocks_and_quotes() {
        let args = ["Connection".into(), "".into()];
        let tree = vec![
            Node::Comment("top".into()),
            Node::block(
                "http",
                vec![],
                vec![Node::Directive {
                    name: "proxy_set_header",
                    args: &args,
                }],
            ),
        ];
        assert_eq!(
            write(&tree),
            "# top\nhttp {\n    proxy_set_header Connection \"\";\n}\n"
        );
    }

    #[test]
    fn quoting_neutralises_syntax() {
        assert_eq!(quote("a;b"), "\"a;b\"");
        assert_eq!(
            quote("h3=\":443\"; ma=86400"),
            "\"h3=\\\":443\\\"; ma=86400\""
        );
        assert_eq!(quote("plain"), "plain");
    }
}
