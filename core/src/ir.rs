//! A small typed tree for nginx configuration, built by the renderers and written once by
//! [`write`]. Arguments are quoted here and nowhere else.

use std::borrow::Cow;

use crate::i18n::Catalogue;
use crate::plan::{Args, Reason};

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
        args: &'a Args,
        /// The setting it writes: its index in the plan's settings.
        setting: usize,
    },
    /// `name args { key values; … }`: a setting whose block holds fixed rows (`map`,
    /// `types`); every line of it belongs to the setting.
    Table {
        /// Block name.
        name: &'a str,
        /// Arguments, unquoted.
        args: &'a Args,
        /// The rows.
        rows: &'static [crate::plan::Row],
        /// The setting it writes: its index in the plan's settings.
        setting: usize,
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

/// Where a setting landed in a rendered file: the 0-based lines of its reason comment (if
/// it starts one) through its directive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Origin {
    /// The setting: its index in the plan's settings.
    pub setting: usize,
    /// First line that belongs to it (its reason's first comment line, or the directive).
    pub first: usize,
    /// The line of the directive itself.
    pub line: usize,
}

/// What the writer records while it writes: nothing on the fast path, the origins of
/// directive lines when a caller asks for them.
trait Track {
    /// Called before a node is written at byte `at` of the output.
    fn reason_at(&mut self, out: &str);
    /// Called before the directive of `setting` is written.
    fn directive_at(&mut self, out: &str, setting: usize);
}

impl Track for () {
    #[inline(always)]
    fn reason_at(&mut self, _: &str) {}
    #[inline(always)]
    fn directive_at(&mut self, _: &str, _: usize) {}
}

/// Counts lines incrementally: each byte of the output is scanned once.
#[derive(Debug, Default)]
struct Origins {
    scanned: usize,
    lines: usize,
    reason: Option<usize>,
    found: Vec<Origin>,
}

impl Origins {
    fn line_at(&mut self, out: &str) -> usize {
        self.lines += count_lines(&out[self.scanned..]);
        self.scanned = out.len();
        self.lines
    }
}

impl Track for Origins {
    fn reason_at(&mut self, out: &str) {
        self.reason = Some(self.line_at(out));
    }
    fn directive_at(&mut self, out: &str, setting: usize) {
        let line = self.line_at(out);
        let first = self.reason.take().unwrap_or(line);
        self.found.push(Origin {
            setting,
            first,
            line,
        });
    }
}

/// The number of line ends in `text`.
pub(crate) fn count_lines(text: &str) -> usize {
    text.matches('\n').count()
}

/// Writes `nodes` as nginx configuration text, reasons in the catalogue's language.
pub fn write(nodes: &[Node<'_>], cat: &Catalogue) -> String {
    let mut out = String::with_capacity(16 * 1024);
    write_level(&mut out, nodes, 0, &mut (), cat);
    out
}

/// [`write`], and where each setting's lines are.
pub fn write_with_origins(nodes: &[Node<'_>], cat: &Catalogue) -> (String, Vec<Origin>) {
    let mut out = String::with_capacity(16 * 1024);
    let mut origins = Origins::default();
    write_level(&mut out, nodes, 0, &mut origins, cat);
    (out, origins.found)
}

fn write_level(
    out: &mut String,
    nodes: &[Node<'_>],
    depth: usize,
    track: &mut impl Track,
    cat: &Catalogue,
) {
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
            Node::Reason(reason) => {
                track.reason_at(out);
                push_reason(
                    out,
                    prefix,
                    reason,
                    WIDTH.saturating_sub(prefix.len()).max(40),
                    cat,
                );
            }
            Node::Directive {
                name,
                args,
                setting,
            } => {
                push_head(out, indent, name, args, *setting, track);
                out.push_str(";\n");
            }
            Node::Table {
                name,
                args,
                rows,
                setting,
            } => {
                push_head(out, indent, name, args, *setting, track);
                out.push_str(" {\n");
                for (key, values) in *rows {
                    out.push_str(indent);
                    out.push_str(INDENT);
                    push_quoted(out, key);
                    push_args(out, values.iter().copied());
                    out.push_str(";\n");
                }
                out.push_str(indent);
                out.push_str("}\n");
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
                write_level(out, children, depth + 1, track, cat);
                out.push_str(indent);
                out.push_str("}\n");
            }
        }
    }
}

/// A setting's `name args` at `indent`, recorded as that setting's line.
fn push_head(
    out: &mut String,
    indent: &str,
    name: &str,
    args: &Args,
    setting: usize,
    track: &mut impl Track,
) {
    track.directive_at(out, setting);
    out.push_str(indent);
    out.push_str(name);
    push_args(out, args.iter());
}

fn push_args<'s>(out: &mut String, args: impl Iterator<Item = &'s str>) {
    for arg in args {
        out.push(' ');
        push_quoted(out, arg);
    }
}

/// Bytes that make nginx split or end an argument: ASCII whitespace (as
/// `char::is_whitespace` defines it) and `; { } " ' #`; non-ASCII bytes are marked too,
/// because they may belong to Unicode whitespace.
const SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"\t\n\x0B\x0C\r ;{}\"'#";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    let mut b = 0x80;
    while b < 256 {
        table[b] = true;
        b += 1;
    }
    table
};

fn needs_quotes(arg: &str) -> bool {
    // One pass over the bytes; only a non-ASCII argument needs the slower check for Unicode
    // whitespace.
    arg.is_empty()
        || (arg.bytes().any(|b| SPECIAL[usize::from(b)])
            && (arg.bytes().any(|b| b.is_ascii() && SPECIAL[usize::from(b)])
                || arg.chars().any(char::is_whitespace)))
}

fn push_quoted(out: &mut String, arg: &str) {
    if !needs_quotes(arg) {
        out.push_str(arg);
        return;
    }
    out.push('"');
    // Runs between quotes and backslashes are copied whole.
    let mut rest = arg;
    while let Some(at) = rest.find(['"', '\\']) {
        out.push_str(&rest[..at]);
        out.push('\\');
        out.push_str(&rest[at..=at]);
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
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
/// preformatted (commands to copy) and kept whole. Paragraphs are split as
/// [`str::lines`] splits them.
pub fn push_wrapped(out: &mut String, prefix: &str, text: &str, width: usize) {
    let mut rest = text;
    while !rest.is_empty() {
        let (end, ascii) = first_line(rest.as_bytes());
        let mut line = &rest[..end];
        if let Some(after) = rest.get(end + 1..) {
            // Ended by a newline, which `\r\n` is as well.
            line = line.strip_suffix('\r').unwrap_or(line);
            rest = after;
        } else {
            rest = "";
        }
        if line.starts_with("  ") {
            push_line(out, prefix, line);
        } else {
            push_paragraph(out, prefix, line, ascii, width);
        }
    }
}

/// The length of the first line of `bytes` (up to its first `\n` or the end) and whether
/// that line is ASCII, found in one pass: eight bytes at a time, then byte by byte from the
/// word that holds the newline.
fn first_line(bytes: &[u8]) -> (usize, bool) {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const NEWLINES: u64 = u64::from_ne_bytes([b'\n'; 8]);
    let mut high = 0; // the bytes before `start`, or-ed together
    let mut start = 0;
    for word in bytes.as_chunks::<8>().0 {
        let word = u64::from_ne_bytes(*word);
        let x = word ^ NEWLINES; // a zero byte where `word` has a newline
        if x.wrapping_sub(ONES) & !x & HIGH != 0 {
            break;
        }
        high |= word;
        start += 8;
    }
    let mut ascii = high & HIGH == 0;
    for (i, &b) in bytes[start..].iter().enumerate() {
        if b == b'\n' {
            return (start + i, ascii);
        }
        ascii &= b.is_ascii();
    }
    (bytes.len(), ascii)
}

fn push_line(out: &mut String, prefix: &str, line: &str) {
    out.push_str(prefix);
    out.push_str(line);
    out.push('\n');
}

/// Greedy line breaking at single spaces, copying whole lines, of one line of text
/// (`ascii` says whether it is all ASCII): each break is the last space that keeps the line
/// within `width`, or the first space after it when a word is longer. Widths count
/// characters, not bytes, because translations are not ASCII.
fn push_paragraph(out: &mut String, prefix: &str, text: &str, ascii: bool, width: usize) {
    let mut rest = text;
    // `rest.len() <= width` means it fits: no more characters than bytes.
    while rest.len() > width {
        // The byte where character `width` starts, if the rest is longer than a line.
        let end = if ascii {
            width
        } else {
            // Characters start at every byte that is not a UTF-8 continuation byte.
            let starts = rest.bytes().enumerate().filter(|&(_, b)| b & 0xC0 != 0x80);
            match starts.map(|(i, _)| i).nth(width) {
                Some(end) => end,
                None => break,
            }
        };
        let at = rest.as_bytes()[..=end]
            .iter()
            .rposition(|&b| b == b' ')
            .or_else(|| rest.find(' '));
        let Some(at) = at else { break };
        push_line(out, prefix, &rest[..at]);
        rest = &rest[at + 1..];
    }
    push_line(out, prefix, rest);
}

/// Appends a reason as comment lines, in the catalogue's language: the explanation, then
/// a line with the formula and the stock default.
pub fn push_reason(out: &mut String, prefix: &str, reason: &Reason, width: usize, cat: &Catalogue) {
    push_wrapped(out, prefix, &cat.why(reason), width);
    let label = cat.get(&crate::render::LABEL_DEFAULT);
    match (reason.formula.as_deref(), reason.default) {
        (None, None) => {}
        (Some(formula), None) => push_wrapped(out, prefix, formula, width),
        (None, Some(default)) => push_joined(out, prefix, &[label, " ", default], width),
        (Some(formula), Some(default)) => {
            push_joined(out, prefix, &[formula, "; ", label, " ", default], width);
        }
    }
}

/// [`push_wrapped`] of the concatenation of `parts`, which are joined only when the text
/// does not fit on one line.
fn push_joined(out: &mut String, prefix: &str, parts: &[&str], width: usize) {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    if len == 0 || len > width || parts.iter().any(|p| p.bytes().any(|b| b == b'\n')) {
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
        let args = Args::Fixed(&["Connection", ""]);
        let tree = vec![
            Node::Comment("top".into()),
            Node::block(
                "http",
                vec![],
                vec![Node::Directive {
                    name: "proxy_set_header",
                    args: &args,
                    setting: 0,
                }],
            ),
        ];
        assert_eq!(
            write(&tree, Catalogue::english()),
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
        assert_eq!(quote(r#"a\b "c""#), r#""a\\b \"c\"""#);
        assert_eq!(quote("a\u{a0}b"), "\"a\u{a0}b\"");
        assert_eq!(quote("größe"), "größe");
    }

    #[test]
    fn paragraphs_split_as_lines_does() {
        let long = "word ".repeat(30);
        let texts = [
            String::new(),
            "\n".into(),
            "a\r\nb\r".into(),
            "one\n\n  kept whole\n".into(),
            format!("{long}\n{long}ü {long}\r\n"),
            format!("Größe {long}"),
        ];
        for text in &texts {
            let mut expected = String::new();
            for line in text.lines() {
                if line.starts_with("  ") {
                    push_line(&mut expected, "# ", line);
                } else {
                    push_paragraph(&mut expected, "# ", line, line.is_ascii(), 40);
                }
            }
            let mut out = String::new();
            push_wrapped(&mut out, "# ", text, 40);
            assert_eq!(out, expected, "{text:?}");
        }
    }

    /// The character-by-character line breaking that [`push_paragraph`] replaced.
    fn scanned_paragraph(out: &mut String, text: &str, width: usize) {
        let mut start = 0;
        let mut chars = 0;
        let mut space: Option<(usize, usize)> = None;
        for (i, &b) in text.as_bytes().iter().enumerate() {
            if b == b' ' {
                if chars > width
                    && let Some((at, before)) = space
                {
                    push_line(out, "", &text[start..at]);
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
            push_line(out, "", &text[start..at]);
            start = at + 1;
        }
        push_line(out, "", &text[start..]);
    }

    #[test]
    fn translations_break_as_before() {
        let long = format!("Größe {} ü", "wort ".repeat(20));
        let words = ["x".repeat(50), "ü".repeat(50)].join(" ");
        let catalogues: Vec<_> = crate::i18n::FILES
            .iter()
            .map(|(lang, _)| crate::i18n::built_in(*lang))
            .collect();
        let mut texts: Vec<&str> = catalogues
            .iter()
            .flat_map(|c| c.texts.values().map(|e| e.text.as_str()))
            .collect();
        texts.extend([long.as_str(), words.as_str()]);
        for text in texts {
            for line in text.lines() {
                for width in [20, 40, 84, 88, 90] {
                    let mut expected = String::new();
                    scanned_paragraph(&mut expected, line, width);
                    let mut out = String::new();
                    push_paragraph(&mut out, "", line, line.is_ascii(), width);
                    assert_eq!(out, expected, "{width}: {line}");
                }
            }
        }
    }
}
