//! Runs the hostile-input corpus (`tests/hostile/*.jsonl`) against the `nginx-gen` binary.
//!
//! Every case must end with exit code 2, an error message on stderr that names the field
//! (`vcpu`, or its flag `--vcpu`), no panic, nothing on stdout and no file written under
//! `--out`. A case marked `"accept": true` is a valid combination instead: exit 0, no panic,
//! and the tree it writes passes Debian's `nginx -t` without a warning (with `--tls` the
//! runner adds the shared test certificate). The binary is `NGINX_GEN_BIN`
//! (scripts/stages/50-verify.sh sets it), else `target/debug/nginx-gen`.
//!
//! - flags.jsonl: command-line flags;
//! - json.jsonl: `--input` documents (also every flag case written as a document);
//! - sizes.jsonl: malformed or out-of-range sizes, as flags and in documents;
//! - url.jsonl: URL-state query strings as the web page keeps its form in the address,
//!   decoded like `URLSearchParams` into an input document and run through `--input`
//!   (until the web front end exposes its own URL-state parser to native tests).
#![allow(clippy::format_push_string, reason = "failure reports only")]
#![allow(
    clippy::disallowed_methods,
    reason = "test harness: files, environment, processes"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use nginx_gen_verify::nginx::{Nginx, jobs, parallel};
use serde_json::{Map, Value, json};

#[derive(Debug)]
struct Case {
    origin: String,
    args: Vec<String>,
    stdin_doc: Option<String>,
    field: String,
    /// A valid input: generated, and the tree passes `nginx -t`.
    accept: bool,
    /// A finding reported to core and not fixed yet: run and reported, fails only with
    /// `NGINX_GEN_VERIFY_STRICT=1`.
    pending: Option<String>,
}

fn binary() -> PathBuf {
    std::env::var_os("NGINX_GEN_BIN").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/debug/nginx-gen"),
        PathBuf::from,
    )
}

fn corpus(name: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hostile")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(n, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1)))
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|s| s.as_str().expect("a string").to_owned())
        .collect()
}

/// Whether input `name` is a list (`listen`, `server_names` …), from the input registry.
fn is_list(name: &str) -> bool {
    nginx_gen_core::inputs::input(name)
        .is_some_and(|i| matches!(i.kind, nginx_gen_core::inputs::Kind::List { .. }))
}

/// The input document a URL state stands for: list fields collect repeated keys,
/// `true`/`false` are booleans, everything else is text (numbers too, as forms send them).
fn url_state_doc(state: &str) -> String {
    let mut doc = Map::new();
    // Split and decoded as the page does (`+` a space, invalid escapes kept as written).
    for (k, v) in nginx_gen_web::share::parse_query(state) {
        let value = match v.as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(v.clone()),
        };
        if is_list(&k) {
            doc.entry(k)
                .or_insert_with(|| json!([]))
                .as_array_mut()
                .expect("list")
                .push(Value::String(v));
        } else {
            doc.insert(k, value);
        }
    }
    Value::Object(doc).to_string()
}

fn all_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for c in corpus("flags.jsonl") {
        cases.push(Case {
            origin: format!("flags {}", c["args"]),
            args: strings(&c["args"]),
            stdin_doc: None,
            field: c["field"].as_str().expect("field").to_owned(),
            accept: c["accept"].as_bool().unwrap_or(false),
            pending: c.get("pending").and_then(Value::as_str).map(str::to_owned),
        });
    }
    for c in corpus("json.jsonl") {
        let doc = c["doc"].as_str().expect("doc").to_owned();
        cases.push(Case {
            origin: format!("json {doc:?}"),
            args: Vec::new(),
            stdin_doc: Some(doc),
            field: c["field"].as_str().expect("field").to_owned(),
            accept: c["accept"].as_bool().unwrap_or(false),
            pending: c.get("pending").and_then(Value::as_str).map(str::to_owned),
        });
    }
    for c in corpus("sizes.jsonl") {
        let size = c["size"].as_str().expect("size");
        for field in strings(&c["fields"]) {
            let mut doc = Map::new();
            doc.insert(field.clone(), Value::String(size.to_owned()));
            let doc = Value::Object(doc).to_string();
            cases.push(Case {
                origin: format!("size {field}={size:?} (json)"),
                args: Vec::new(),
                stdin_doc: Some(doc),
                field: field.clone(),
                accept: false,
                pending: None,
            });
            if !size.contains('\0') {
                cases.push(Case {
                    origin: format!("size {field}={size:?} (flag)"),
                    args: vec![format!("--{}={size}", field.replace('_', "-"))],
                    stdin_doc: None,
                    field,
                    accept: false,
                    pending: None,
                });
            }
        }
    }
    for c in corpus("url.jsonl") {
        let state = c["state"].as_str().expect("state");
        cases.push(Case {
            origin: format!("url-state {state:?}"),
            args: Vec::new(),
            stdin_doc: Some(url_state_doc(state)),
            field: c["field"].as_str().expect("field").to_owned(),
            accept: c["accept"].as_bool().unwrap_or(false),
            pending: c.get("pending").and_then(Value::as_str).map(str::to_owned),
        });
    }
    cases
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|e| {
            if e.path().is_dir() {
                files_under(&e.path())
            } else {
                vec![e.path()]
            }
        })
        .collect()
}

/// What an accepted case runs with: the certificate for `--tls` and the nginx that checks
/// the tree.
struct Check {
    cert: String,
    key: String,
    nginx: Nginx,
}

/// An accepted case's arguments and document with the test certificate where TLS is on and
/// none is named (`nginx -t` loads it).
fn with_certificate(case: &Case, check: &Check) -> (Vec<String>, Option<String>) {
    let mut args = case.args.clone();
    if args.iter().any(|a| a == "--tls") && !args.iter().any(|a| a.starts_with("--tls-cert")) {
        args.extend(["--tls-cert".into(), check.cert.clone()]);
        args.extend(["--tls-key".into(), check.key.clone()]);
    }
    let doc = case.stdin_doc.as_ref().map(|doc| {
        let Ok(Value::Object(mut map)) = serde_json::from_str::<Value>(doc) else {
            return doc.clone();
        };
        if map.get("tls") == Some(&Value::Bool(true)) && !map.contains_key("tls_cert") {
            map.insert("tls_cert".into(), Value::String(check.cert.clone()));
            map.insert("tls_key".into(), Value::String(check.key.clone()));
        }
        Value::Object(map).to_string()
    });
    (args, doc)
}

fn run(bin: &Path, case: &Case, check: &Check) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out_dir = dir.path().join("out");
    let (args, doc) = if case.accept {
        with_certificate(case, check)
    } else {
        (case.args.clone(), case.stdin_doc.clone())
    };
    let mut cmd = Command::new(bin);
    cmd.arg("--no-detect")
        .args(&args)
        .arg("--out")
        .arg(&out_dir)
        .env("NO_COLOR", "1");
    if let Some(doc) = &doc {
        let input = dir.path().join("input.json");
        std::fs::write(&input, doc).map_err(|e| e.to_string())?;
        cmd.arg("--input").arg(&input);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if case.accept {
        return accepted(&out, &stderr, &out_dir, &check.nginx);
    }
    let mut problems = Vec::new();
    if out.status.code() != Some(2) {
        problems.push(format!("exit {:?}, expected 2", out.status.code()));
    }
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        problems.push("panicked".to_owned());
    }
    let flag = format!("--{}", case.field.replace('_', "-"));
    if !(stderr.contains(&case.field) || stderr.contains(&flag)) {
        problems.push(format!(
            "the message does not name {} or {flag}",
            case.field
        ));
    }
    if !out.stdout.is_empty() {
        problems.push(format!(
            "stdout not empty: {:?}",
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    let written = files_under(&out_dir);
    if !written.is_empty() {
        problems.push(format!("files written: {written:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\n  stderr: {}",
            problems.join("; "),
            stderr.trim()
        ))
    }
}

/// An accepted case: exit 0, no panic, and `nginx -t` passes the tree without a warning.
fn accepted(
    out: &std::process::Output,
    stderr: &str,
    out_dir: &Path,
    nginx: &Nginx,
) -> Result<(), String> {
    if out.status.code() != Some(0) || stderr.contains("panicked") {
        return Err(format!(
            "exit {:?}, expected 0 (a valid input)\n  stderr: {}",
            out.status.code(),
            stderr.trim()
        ));
    }
    let conf = out_dir.join("etc/nginx/nginx.conf");
    if !conf.is_file() {
        return Err(format!("no {} written", conf.display()));
    }
    nginx
        .test(&conf)
        .map(drop)
        .map_err(|e| format!("nginx -t failed: {}", e.trim()))
}

#[test]
fn url_states_become_input_documents() {
    assert_eq!(
        url_state_doc("server_names=a%3Bb+c&root=%ZZ%"),
        r#"{"root":"%ZZ%","server_names":["a;b c"]}"#
    );
    assert_eq!(
        url_state_doc("server_names=a&server_names=b&tls=true&vcpu=4"),
        r#"{"server_names":["a","b"],"tls":true,"vcpu":"4"}"#
    );
    // listen is a list (from the registry), like server_names.
    assert_eq!(
        url_state_doc("listen=80&listen=%2A%3A80"),
        r#"{"listen":["80","*:80"]}"#
    );
}

#[test]
#[ignore = "needs the nginx-gen binary: run by scripts/stages/50-verify.sh"]
fn hostile_corpus() {
    let bin = binary();
    assert!(
        bin.is_file(),
        "{} missing: build nginx-gen first or set NGINX_GEN_BIN",
        bin.display()
    );
    let cases = all_cases();
    assert!(cases.len() >= 300, "the corpus has {} cases", cases.len());
    let tmp = tempfile::tempdir().expect("temp dir");
    let cert =
        nginx_gen_testsupport::self_signed(tmp.path(), "example.com").expect("test certificate");
    let check = Check {
        cert: cert.cert.display().to_string(),
        key: cert.key.display().to_string(),
        nginx: Nginx::debian(),
    };
    let failures = parallel(&cases, jobs(), |c| run(&bin, c, &check));
    let strict = std::env::var("NGINX_GEN_VERIFY_STRICT").is_ok_and(|v| v == "1");
    let (pending, failures): (Vec<_>, Vec<_>) = failures
        .into_iter()
        .partition(|(i, _)| cases[*i].pending.is_some() && !strict);
    for (i, e) in &pending {
        let e = e.lines().next().unwrap_or_default();
        eprintln!(
            "PENDING {} ({}): {}: {e}",
            cases[*i].pending.as_deref().unwrap_or_default(),
            cases[*i].field,
            cases[*i].origin
        );
    }
    let mut msg = String::new();
    for (i, e) in failures.iter().take(100) {
        let e: String = e.chars().take(300).collect();
        msg.push_str(&format!(
            "\n{} (field {}): {e}",
            cases[*i].origin, cases[*i].field
        ));
    }
    assert!(
        failures.is_empty(),
        "{} of {} hostile inputs were not handled:{msg}",
        failures.len(),
        cases.len()
    );
    let accepted = cases.iter().filter(|c| c.accept).count();
    eprintln!(
        "hostile corpus: {} cases; {} exit 2 with the field named, no panic, no file written; {accepted} accepted and nginx -t-safe",
        cases.len(),
        cases.len() - accepted,
    );
}
