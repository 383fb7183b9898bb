//! nginx configuration syntax, as `check` needs it: a tokenizer (words, quotes, escapes,
//! `;`, `{`, `}`, comments), a parser into directives and blocks, the split of `nginx -T`
//! output into its files (`# configuration file PATH:` markers) and the expansion of
//! `include` against those files, so the running configuration and the plan's files are
//! read by the same code.

use std::fmt;

/// One token of nginx's syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A word or a quoted string, unquoted and unescaped.
    Word(String),
    /// `;`
    Semi,
    /// `{`
    Open,
    /// `}`
    Close,
}

/// A syntax error, with its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The tokens of `text`, each with the line it starts on. As nginx's `ngx_conf_read_token`:
/// `#` starts a comment where a word could start; a quote (`"` or `'`) starts a string only
/// at a word's start; a backslash keeps the next character in the word or string; `{` right
/// after `$` is part of the word (`${name}`), and a `}` inside a word too; every word is then unescaped ([`unescape`]).
pub fn tokenize(text: &str) -> Result<Vec<(Token, usize)>, SyntaxError> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while let Some(&c) = chars.peek() {
        match c {
            '\n' => {
                line += 1;
                chars.next();
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            '#' => {
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            ';' | '{' | '}' => {
                chars.next();
                let t = match c {
                    ';' => Token::Semi,
                    '{' => Token::Open,
                    _ => Token::Close,
                };
                tokens.push((t, line));
            }
            '"' | '\'' => {
                let start = line;
                chars.next();
                let mut raw = String::new();
                loop {
                    match chars.next() {
                        None => {
                            return Err(SyntaxError {
                                line: start,
                                message: format!("unterminated {c}quoted{c} string"),
                            });
                        }
                        Some(q) if q == c => break,
                        Some(ch) => {
                            raw.push(ch);
                            if ch == '\\' {
                                raw.extend(chars.next());
                            }
                            line += usize::from(raw.ends_with('\n'));
                        }
                    }
                }
                let word = unescape(&raw);
                // nginx wants a separator after a closing quote.
                if chars
                    .peek()
                    .is_some_and(|&n| !(n.is_whitespace() || matches!(n, ';' | '{' | '}')))
                {
                    return Err(SyntaxError {
                        line,
                        message: "unexpected character after a quoted string".into(),
                    });
                }
                tokens.push((Token::Word(word), start));
            }
            _ => {
                let mut raw = String::new();
                let start = line;
                while let Some(&ch) = chars.peek() {
                    // As nginx: `}` inside a word is part of it.
                    if ch.is_whitespace() || ch == ';' {
                        break;
                    }
                    if ch == '{' && !raw.ends_with('$') {
                        break;
                    }
                    chars.next();
                    raw.push(ch);
                    if ch == '\\' {
                        raw.extend(chars.next());
                        line += usize::from(raw.ends_with('\n'));
                    }
                }
                let word = unescape(&raw);
                tokens.push((Token::Word(word), start));
            }
        }
    }
    Ok(tokens)
}

/// nginx's unescaping of a word: `\"`, `\'` and `\\` are the character, `\t`, `\r` and
/// `\n` the control character; any other backslash stays.
pub fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some(&e @ ('"' | '\'' | '\\')) => out.push(e),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('n') => out.push('\n'),
            _ => {
                out.push('\\');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// A file of a configuration: its path and its directives.
pub type ConfFile = (String, Vec<Directive>);

/// A directive: its name, arguments and, for a block, its children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// The name (`worker_connections`, `server`).
    pub name: String,
    /// The arguments, unquoted.
    pub args: Vec<String>,
    /// The children of a block (`events { … }`); `None` for a simple directive.
    pub block: Option<Vec<Directive>>,
}

impl Directive {
    /// The children of a block, or nothing.
    pub fn children(&self) -> &[Directive] {
        self.block.as_deref().unwrap_or(&[])
    }

    /// The arguments joined by spaces.
    pub fn value(&self) -> String {
        self.args.join(" ")
    }
}

/// Parses the text of one file into its directives.
pub fn parse(text: &str) -> Result<Vec<Directive>, SyntaxError> {
    let tokens = tokenize(text)?;
    let mut stack: Vec<(Directive, usize)> = Vec::new();
    let mut top: Vec<Directive> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut last_line = 1;
    for (token, line) in tokens {
        last_line = line;
        match token {
            Token::Word(w) => words.push(w),
            Token::Semi | Token::Open => {
                let mut it = std::mem::take(&mut words).into_iter();
                let Some(name) = it.next() else {
                    return Err(SyntaxError {
                        line,
                        message: "a directive without a name".into(),
                    });
                };
                let d = Directive {
                    name,
                    args: it.collect(),
                    block: (token == Token::Open).then(Vec::new),
                };
                if token == Token::Open {
                    stack.push((d, line));
                } else {
                    push(&mut stack, &mut top, d);
                }
            }
            Token::Close => {
                if !words.is_empty() {
                    return Err(SyntaxError {
                        line,
                        message: "a directive without its ';'".into(),
                    });
                }
                let Some((d, _)) = stack.pop() else {
                    return Err(SyntaxError {
                        line,
                        message: "an unexpected '}'".into(),
                    });
                };
                push(&mut stack, &mut top, d);
            }
        }
    }
    if let Some((_, line)) = stack.last() {
        return Err(SyntaxError {
            line: *line,
            message: "a block without its '}'".into(),
        });
    }
    if !words.is_empty() {
        return Err(SyntaxError {
            line: last_line,
            message: "a directive without its ';'".into(),
        });
    }
    Ok(top)
}

fn push(stack: &mut [(Directive, usize)], top: &mut Vec<Directive>, d: Directive) {
    match stack.last_mut() {
        Some((parent, _)) => parent.block.get_or_insert_with(Vec::new).push(d),
        None => top.push(d),
    }
}

/// The files of `nginx -T` output, in the order nginx read them: each starts at a line
/// `# configuration file PATH:` and runs to the next such line.
pub fn split_dump(dump: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    for line in dump.split_inclusive('\n') {
        let marker = line
            .trim_end()
            .strip_prefix("# configuration file ")
            .and_then(|rest| rest.strip_suffix(':'));
        match (marker, files.last_mut()) {
            (Some(path), _) => files.push((path.to_owned(), String::new())),
            (None, Some((_, text))) => text.push_str(line),
            (None, None) => {}
        }
    }
    files
}

/// Whether `name` matches the glob `pattern` (`*`, `?`; `*` does not cross `/`), as
/// `glob(3)` does for nginx's `include`.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    fn go(p: &[u8], n: &[u8]) -> bool {
        match p.split_first() {
            None => n.is_empty(),
            Some((b'*', rest)) => {
                (0..=n.len()).any(|i| !n[..i].contains(&b'/') && go(rest, &n[i..]))
            }
            Some((b'?', rest)) => n.first().is_some_and(|&c| c != b'/') && go(rest, &n[1..]),
            Some((c, rest)) => n.first() == Some(c) && go(rest, &n[1..]),
        }
    }
    go(pattern.as_bytes(), name.as_bytes())
}

/// `path` made absolute against the configuration's directory, as nginx resolves an
/// `include`.
pub fn resolve(path: &str, conf_dir: &str) -> String {
    if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{}/{path}", conf_dir.trim_end_matches('/'))
    }
}

/// The directives of `main` with every `include` followed by the directives of the files
/// it names (taken from `files`, in their order), recursively. The `include` stays, with
/// its path made absolute, so it can be compared too. Includes nest at most 16 deep.
pub fn expand(main: &[Directive], files: &[ConfFile], conf_dir: &str) -> Vec<Directive> {
    fn go(ds: &[Directive], files: &[ConfFile], dir: &str, depth: u8) -> Vec<Directive> {
        let mut out = Vec::new();
        for d in ds {
            if d.name == "include" && d.block.is_none() && d.args.len() == 1 {
                let pattern = resolve(&d.args[0], dir);
                out.push(Directive {
                    args: vec![pattern.clone()],
                    ..d.clone()
                });
                if depth < 16 {
                    for (_, parsed) in files.iter().filter(|(p, _)| glob_match(&pattern, p)) {
                        out.extend(go(parsed, files, dir, depth + 1));
                    }
                }
            } else {
                out.push(Directive {
                    block: d.block.as_ref().map(|b| go(b, files, dir, depth)),
                    ..d.clone()
                });
            }
        }
        out
    }
    go(main, files, conf_dir, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Token> {
        tokenize(text)
            .unwrap()
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }

    fn w(s: &str) -> Token {
        Token::Word(s.into())
    }

    #[test]
    fn words_quotes_escapes_and_comments() {
        assert_eq!(
            words("worker_connections 768; # comment ; {\nevents{}"),
            [
                w("worker_connections"),
                w("768"),
                Token::Semi,
                w("events"),
                Token::Open,
                Token::Close
            ]
        );
        assert_eq!(
            words(r#"add_header X "a \"b\" c;#" always;"#),
            [
                w("add_header"),
                w("X"),
                w("a \"b\" c;#"),
                w("always"),
                Token::Semi
            ]
        );
        assert_eq!(
            words(r"return 200 'it\'s\n'; a\ b;"),
            [
                w("return"),
                w("200"),
                w("it's\n"),
                Token::Semi,
                w(r"a\ b"),
                Token::Semi
            ]
        );
        // `#` inside a word and `${…}` are part of the word.
        assert_eq!(
            words("set $a x#y${b}z;"),
            [w("set"), w("$a"), w("x#y${b}z"), Token::Semi]
        );
        let lines: Vec<usize> = tokenize("a;\n\n# x\nb 'c\nd';")
            .unwrap()
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert_eq!(lines, [1, 1, 4, 4, 5]);
    }

    #[test]
    fn syntax_errors_name_their_line() {
        assert_eq!(tokenize("a;\nb \"x;").unwrap_err().line, 2);
        assert!(tokenize("a \"x\"y;").is_err());
        assert_eq!(parse("a;\n}").unwrap_err().line, 2);
        assert_eq!(parse("events {\n a 1;").unwrap_err().line, 1);
        assert!(parse("a 1").is_err());
        assert!(parse("{ }").is_err());
        assert!(parse("x { a 1 }").is_err());
    }

    #[test]
    fn blocks_nest() {
        let conf =
            parse("user www-data;\nevents { worker_connections 768; }\nhttp { server { listen 80 default_server; } }")
                .unwrap();
        assert_eq!(conf.len(), 3);
        assert_eq!(conf[0].args, ["www-data"]);
        assert_eq!(conf[1].children()[0].value(), "768");
        let server = &conf[2].children()[0];
        assert_eq!(server.name, "server");
        assert_eq!(server.children()[0].args, ["80", "default_server"]);
        assert!(conf[0].block.is_none());
    }

    /// The head of Debian 12's `nginx -T` (trimmed), with the stderr line left out.
    const DUMP: &str = "# configuration file /etc/nginx/nginx.conf:\n\
        user www-data;\ninclude /etc/nginx/modules-enabled/*.conf;\n\
        events {\n\tworker_connections 768;\n}\nhttp {\n\tinclude /etc/nginx/mime.types;\n\
        \tinclude /etc/nginx/sites-enabled/*;\n}\n\n\
        # configuration file /etc/nginx/modules-enabled/50-mod-http-geoip.conf:\n\
        load_module modules/ngx_http_geoip_module.so;\n\n\
        # configuration file /etc/nginx/mime.types:\n\
        types {\n    text/html html htm shtml;\n}\n\n\
        # configuration file /etc/nginx/sites-enabled/default:\n\
        server {\n\tlisten 80 default_server;\n\tserver_name _;\n}\n";

    #[test]
    fn a_dump_splits_into_files_and_includes_expand() {
        let files = split_dump(DUMP);
        let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/etc/nginx/nginx.conf",
                "/etc/nginx/modules-enabled/50-mod-http-geoip.conf",
                "/etc/nginx/mime.types",
                "/etc/nginx/sites-enabled/default"
            ]
        );
        let parsed: Vec<(String, Vec<Directive>)> = files
            .iter()
            .map(|(p, t)| (p.clone(), parse(t).unwrap()))
            .collect();
        let conf = expand(&parsed[0].1, &parsed, "/etc/nginx");
        let names: Vec<&str> = conf.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["user", "include", "load_module", "events", "http"]);
        let http: Vec<&str> = conf[4].children().iter().map(|d| d.name.as_str()).collect();
        assert_eq!(http, ["include", "types", "include", "server"]);
    }

    #[test]
    fn globs_and_relative_includes() {
        assert!(glob_match(
            "/etc/nginx/conf.d/*.conf",
            "/etc/nginx/conf.d/a.conf"
        ));
        assert!(!glob_match(
            "/etc/nginx/conf.d/*.conf",
            "/etc/nginx/conf.d/a.conf~"
        ));
        assert!(!glob_match("/etc/nginx/*", "/etc/nginx/conf.d/a.conf"));
        assert!(glob_match(
            "/etc/nginx/sites-enabled/?efault",
            "/etc/nginx/sites-enabled/default"
        ));
        assert_eq!(
            resolve("conf.d/*.conf", "/etc/nginx/"),
            "/etc/nginx/conf.d/*.conf"
        );
        assert_eq!(resolve("/x", "/etc/nginx"), "/x");
    }
}
