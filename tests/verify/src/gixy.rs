//! The gixy-ng security analyser over generated trees, and the reviewed allow-list.
//!
//! Policy (docs/verification.md): no finding of MEDIUM or HIGH severity, ever; a LOW or
//! UNSPECIFIED finding passes only when its plugin is in `tests/verify/gixy-allow.txt`
//! with the reason it was reviewed and judged wrong or inapplicable.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One gixy finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The plugin (check) name.
    pub plugin: String,
    /// `UNSPECIFIED`, `LOW`, `MEDIUM` or `HIGH`.
    pub severity: String,
    /// The nginx.conf gixy was given.
    pub path: String,
    /// The file and line of the finding.
    pub location: String,
    /// gixy's reason.
    pub reason: String,
}

impl Finding {
    /// Whether the severity is MEDIUM or above.
    pub fn serious(&self) -> bool {
        matches!(self.severity.as_str(), "MEDIUM" | "HIGH")
    }
}

/// An allow-list entry: a LOW finding judged not applicable, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowed {
    /// Plugin name.
    pub plugin: String,
    /// Why it is accepted.
    pub reason: String,
}

/// Reads the allow-list: `plugin: reason` lines; `#` comments and blank lines ignored.
pub fn allow_list(text: &str) -> Result<Vec<Allowed>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let (plugin, reason) = t
            .split_once(':')
            .ok_or_else(|| format!("gixy-allow.txt line {}: expected `plugin: reason`", n + 1))?;
        let reason = reason.trim();
        if reason.len() < 20 {
            return Err(format!(
                "gixy-allow.txt line {}: the reason for {plugin} is missing or too short",
                n + 1
            ));
        }
        out.push(Allowed {
            plugin: plugin.trim().to_owned(),
            reason: reason.to_owned(),
        });
    }
    Ok(out)
}

/// The gixy binary: `NGINX_GEN_GIXY`, else `.venv/bin/gixy` at the repository root.
pub fn binary() -> PathBuf {
    std::env::var_os("NGINX_GEN_GIXY").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/gixy"),
        PathBuf::from,
    )
}

fn field(v: &Value, name: &str) -> String {
    v.get(name)
        .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_owned))
        .unwrap_or_default()
}

/// Runs gixy (JSON output) over `confs` in one process and returns every finding.
pub fn run(gixy: &Path, confs: &[PathBuf]) -> Result<Vec<Finding>, String> {
    if confs.is_empty() {
        return Ok(Vec::new());
    }
    let out = Command::new(gixy)
        .args(["-f", "json"])
        .args(confs)
        .output()
        .map_err(|e| {
            format!(
                "cannot run {}: {e} (scripts/stages/50-verify.sh creates the virtualenv)",
                gixy.display()
            )
        })?;
    // gixy exits 1 when it reports findings; anything it could not parse shows on stderr
    // and as missing JSON.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: Value = serde_json::from_str(stdout.trim()).map_err(|e| {
        format!(
            "gixy printed no JSON ({e}); exit {:?}; stderr:\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    let list = json.as_array().ok_or("gixy's JSON is not a list")?;
    Ok(list
        .iter()
        .map(|f| Finding {
            plugin: field(f, "plugin"),
            severity: field(f, "severity"),
            path: field(f, "path"),
            location: format!("{}:{}", field(f, "file"), field(f, "line")),
            reason: field(f, "reason"),
        })
        .collect())
}

/// Findings that fail the policy: every serious one, and LOW ones not in `allowed`.
pub fn violations<'a>(findings: &'a [Finding], allowed: &[Allowed]) -> Vec<&'a Finding> {
    findings
        .iter()
        .filter(|f| f.serious() || !allowed.iter().any(|a| a.plugin == f.plugin))
        .collect()
}
