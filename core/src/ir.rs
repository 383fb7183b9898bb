//! A small typed tree for nginx configuration, built by the renderers and written once by
//! [`write`]. Arguments are quoted here and nowhere else.

use std::fmt::Write;

/// One node of an nginx configuration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// `# text`, wrapped to the line width.
    Comment(String),
    /// An empty line.
    Blank,
    /// `name args;`
    Directive {
        /// Directive name.
        name: String,
        /// Arguments, unquoted.
        args: Vec<String>,
    },
    /// `name args { children }`
    Block {
        /// Block name (`http`, `server`, `location`, …).
        name: String,
        /// Arguments, unquoted.
        args: Vec<String>,
        /// Contents.
        children: Vec<Node>,
    },
}

impl Node {
    /// A directive.
    pub fn directive(name: impl Into<String>, args: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Self::Directive { name: name.into(), args: args.into_iter().map(Into::into).collect() }
    }
    /// A block.
    pub fn block(name: impl Into<String>, args: impl IntoIterator<Item = impl Into<String>>, children: Vec<Self>) -> Self {
        Self::Block { name: name.into(), args: args.into_iter().map(Into::into).collect(), children }
    }
}

/// Comment lines are wrapped to this width (indentation included).
const WIDTH: usize = 92;

/// Writes `nodes` as nginx configuration text.
pub fn write(nodes: &[Node]) -> String {
    let mut out = String::new();
    write_level(&mut out, nodes, 0);
    out
}

fn write_level(out: &mut String, nodes: &[Node], depth: usize) {
    let indent = "    ".repeat(depth);
    for node in nodes {
        match node {
            Node::Blank => out.push('\n'),
            Node::Comment(text) => {
                for line in wrap(text, WIDTH.saturating_sub(indent.len() + 2).max(40)) {
                    let _ = writeln!(out, "{indent}# {line}");
                }
            }
            Node::Directive { name, args } => {
                let _ = writeln!(out, "{indent}{name}{};", join_args(args));
            }
            Node::Block { name, args, children } => {
                let _ = writeln!(out, "{indent}{name}{} {{", join_args(args));
                write_level(out, children, depth + 1);
                let _ = writeln!(out, "{indent}}}");
            }
        }
    }
}

fn join_args(args: &[String]) -> String {
    args.iter().fold(String::new(), |mut s, a| {
        s.push(' ');
        s.push_str(&quote(a));
        s
    })
}

/// Quotes an argument when nginx would otherwise split or end it there.
pub fn quote(arg: &str) -> String {
    let needs = arg.is_empty()
        || arg.chars().any(|c| c.is_whitespace() || matches!(c, ';' | '{' | '}' | '"' | '\'' | '#'));
    if !needs {
        return arg.to_owned();
    }
    let mut s = String::with_capacity(arg.len() + 2);
    s.push('"');
    for c in arg.chars() {
        if matches!(c, '"' | '\\') {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

/// Splits `text` into lines of at most `width` characters at spaces, and at newlines;
/// lines indented by two spaces are kept whole.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        // Indented lines are preformatted (commands to copy): never broken.
        if paragraph.starts_with("  ") {
            lines.push(paragraph.to_owned());
            continue;
        }
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_nested_blocks_and_quotes() {
        let tree = vec![
            Node::Comment("top".into()),
            Node::block("http", Vec::<String>::new(), vec![Node::directive("proxy_set_header", ["Connection", ""])]),
        ];
        assert_eq!(write(&tree), "# top\nhttp {\n    proxy_set_header Connection \"\";\n}\n");
    }

    #[test]
    fn quoting_neutralises_syntax() {
        assert_eq!(quote("a;b"), "\"a;b\"");
        assert_eq!(quote("h3=\":443\"; ma=86400"), "\"h3=\\\":443\\\"; ma=86400\"");
        assert_eq!(quote("plain"), "plain");
    }
}
