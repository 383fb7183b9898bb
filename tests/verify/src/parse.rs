//! A parser of nginx's configuration grammar, written from `ngx_conf_read_token` (nginx
//! `src/core/ngx_conf_file.c`), independent of core's writer: tokens are separated by white
//! space, `;` ends a directive, `{`/`}` open and close a block, `#` at the start of a token
//! comments out the rest of the line, a token may be quoted with `"` or `'`, and a
//! backslash escapes the next character. Unquoting follows `ngx_conf_read_token` too:
//! `\"`, `\'`, `\\` lose their backslash, `\t`, `\r`, `\n` become control characters and
//! any other backslash stays.
//!
//! It reads what nginx reads, so a value that could add, close or comment out a directive
//! shows up here as an extra or missing node.

use std::fmt;

/// One directive or block as nginx would see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// Directive name.
    pub name: String,
    /// Arguments, unquoted.
    pub args: Vec<String>,
    /// `Some` for a block (`name args { … }`), `None` for `name args;`.
    pub block: Option<Vec<Directive>>,
    /// Line of the name (1-based).
    pub line: usize,
}

/// Why a text is not valid nginx configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Line (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Semicolon,
    Open,
    Close,
}

fn unescape(raw: &[char]) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == '\\' && i + 1 < raw.len() {
            match raw[i + 1] {
                c @ ('"' | '\'' | '\\') => {
                    out.push(c);
                    i += 2;
                    continue;
                }
                't' => {
                    out.push('\t');
                    i += 2;
                    continue;
                }
                'r' => {
                    out.push('\r');
                    i += 2;
                    continue;
                }
                'n' => {
                    out.push('\n');
                    i += 2;
                    continue;
                }
                _ => {}
            }
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

fn tokenize(text: &str) -> Result<Vec<(Token, usize)>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let err = |line, message: &str| {
        Err(ParseError {
            line,
            message: message.to_owned(),
        })
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            ' ' | '\t' | '\r' => i += 1,
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ';' => {
                tokens.push((Token::Semicolon, line));
                i += 1;
            }
            '{' => {
                tokens.push((Token::Open, line));
                i += 1;
            }
            '}' => {
                tokens.push((Token::Close, line));
                i += 1;
            }
            '"' | '\'' => {
                let start_line = line;
                let quote = c;
                i += 1;
                let start = i;
                loop {
                    if i >= chars.len() {
                        return err(start_line, "unterminated quoted string");
                    }
                    match chars[i] {
                        '\\' => i += 2,
                        '\n' => {
                            line += 1;
                            i += 1;
                        }
                        q if q == quote => break,
                        _ => i += 1,
                    }
                }
                let end = i.min(chars.len());
                tokens.push((Token::Word(unescape(&chars[start..end])), start_line));
                i += 1;
                // nginx: after a closing quote comes white space, ';', '{', '}' or ')'.
                if let Some(&next) = chars.get(i)
                    && !(next.is_ascii_whitespace() || matches!(next, ';' | '{' | '}' | ')'))
                {
                    return err(
                        line,
                        &format!("unexpected \"{next}\" after a quoted string"),
                    );
                }
            }
            _ => {
                let start = i;
                let start_line = line;
                while i < chars.len() {
                    match chars[i] {
                        '\\' => i += 2,
                        ' ' | '\t' | '\r' | '\n' | ';' | '{' | '}' => break,
                        _ => i += 1,
                    }
                }
                let end = i.min(chars.len());
                tokens.push((Token::Word(unescape(&chars[start..end])), start_line));
            }
        }
    }
    Ok(tokens)
}

/// Parses a whole file into its directives.
pub fn parse(text: &str) -> Result<Vec<Directive>, ParseError> {
    if text.contains('\0') {
        return Err(ParseError {
            line: 1,
            message: "NUL byte in the file".into(),
        });
    }
    let tokens = tokenize(text)?;
    let mut pos = 0;
    let nodes = parse_level(&tokens, &mut pos, 0)?;
    if pos != tokens.len() {
        let line = tokens[pos].1;
        return Err(ParseError {
            line,
            message: "unexpected \"}\"".into(),
        });
    }
    Ok(nodes)
}

fn parse_level(
    tokens: &[(Token, usize)],
    pos: &mut usize,
    depth: usize,
) -> Result<Vec<Directive>, ParseError> {
    let mut out = Vec::new();
    loop {
        let Some((tok, line)) = tokens.get(*pos) else {
            if depth > 0 {
                let line = tokens.last().map_or(1, |t| t.1);
                return Err(ParseError {
                    line,
                    message: "unexpected end of file, expecting \"}\"".into(),
                });
            }
            return Ok(out);
        };
        match tok {
            Token::Close => {
                if depth == 0 {
                    return Err(ParseError {
                        line: *line,
                        message: "unexpected \"}\"".into(),
                    });
                }
                *pos += 1;
                return Ok(out);
            }
            Token::Semicolon | Token::Open => {
                return Err(ParseError {
                    line: *line,
                    message: "a directive without a name".into(),
                });
            }
            Token::Word(name) => {
                let name = name.clone();
                let line = *line;
                *pos += 1;
                let mut args = Vec::new();
                loop {
                    match tokens.get(*pos) {
                        Some((Token::Word(w), _)) => {
                            args.push(w.clone());
                            *pos += 1;
                        }
                        Some((Token::Semicolon, _)) => {
                            *pos += 1;
                            out.push(Directive {
                                name,
                                args,
                                block: None,
                                line,
                            });
                            break;
                        }
                        Some((Token::Open, _)) => {
                            *pos += 1;
                            let children = parse_level(tokens, pos, depth + 1)?;
                            out.push(Directive {
                                name,
                                args,
                                block: Some(children),
                                line,
                            });
                            break;
                        }
                        Some((Token::Close, l)) => {
                            return Err(ParseError {
                                line: *l,
                                message: format!("unexpected \"}}\" in \"{name}\""),
                            });
                        }
                        None => {
                            return Err(ParseError {
                                line,
                                message: format!("unexpected end of file in \"{name}\""),
                            });
                        }
                    }
                }
            }
        }
    }
}

/// The directives as compact text, one per line, for failure messages.
pub fn dump(nodes: &[Directive]) -> String {
    fn level(out: &mut String, nodes: &[Directive], depth: usize) {
        for n in nodes {
            out.push_str(&"  ".repeat(depth));
            out.push_str(&n.name);
            for a in &n.args {
                out.push(' ');
                out.push_str(&format!("{a:?}"));
            }
            match &n.block {
                None => out.push_str(";\n"),
                Some(children) => {
                    out.push_str(" {\n");
                    level(out, children, depth + 1);
                    out.push_str(&"  ".repeat(depth));
                    out.push_str("}\n");
                }
            }
        }
    }
    let mut out = String::new();
    level(&mut out, nodes, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(nodes: &[Directive]) -> Vec<&str> {
        nodes.iter().map(|n| n.name.as_str()).collect()
    }

    #[test]
    fn directives_blocks_and_comments() {
        let t = parse(
            "# c\nuser www-data; # trailing\nhttp {\n  a b \"c d\";\n  server { listen 80; }\n}\n",
        )
        .unwrap();
        assert_eq!(names(&t), ["user", "http"]);
        let http = t[1].block.as_ref().unwrap();
        assert_eq!(http[0].args, ["b", "c d"]);
        assert_eq!(http[1].block.as_ref().unwrap()[0].args, ["80"]);
    }

    #[test]
    fn quoting_and_escapes_like_nginx() {
        let t = parse(r#"add_header Alt-Svc "h3=\":443\"; ma=86400" always;"#).unwrap();
        assert_eq!(t[0].args, ["Alt-Svc", "h3=\":443\"; ma=86400", "always"]);
        let t = parse("a 'x;y' b\\;c;").unwrap();
        assert_eq!(
            t[0].args,
            ["x;y", "b\\;c"],
            "nginx keeps the backslash of an escaped semicolon"
        );
        // '#' inside a word is not a comment; at the start of a token it is.
        assert!(parse("d #e;").is_err());
        assert_eq!(parse("a b#c;").unwrap()[0].args, ["b#c"]);
    }

    #[test]
    fn structural_errors() {
        assert!(parse("a {").is_err());
        assert!(parse("}").is_err());
        assert!(parse("a b").is_err());
        assert!(parse("a \"b").is_err());
        assert!(parse("a \"b\"c;").is_err());
        assert!(parse("a\0;").is_err());
        assert!(parse(";").is_err());
    }
}
