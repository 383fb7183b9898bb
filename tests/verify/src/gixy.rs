//! The security analysers gixy-ng and Gixy-Next over generated trees.
//!
//! Policy (docs/verification.md): no finding of MEDIUM or HIGH severity from either, ever,
//! and no allow-list: the generator is fixed, never a list.

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

/// One analyser: its name in reports and its binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analyser {
    /// `gixy-ng` or `Gixy-Next`.
    pub name: &'static str,
    /// The `gixy` entry point of its virtualenv.
    pub bin: PathBuf,
}

fn venv_bin(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map_or_else(
        || {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(default)
        },
        PathBuf::from,
    )
}

/// The gixy-ng binary: `NGINX_GEN_GIXY`, else `.venv/bin/gixy` at the repository root.
pub fn binary() -> PathBuf {
    venv_bin("NGINX_GEN_GIXY", ".venv/bin/gixy")
}

/// Both analysers. They install the same Python package name (`gixy`), so each has its own
/// virtualenv: gixy-ng in `.venv/` (`NGINX_GEN_GIXY`), Gixy-Next in `.venv-next/`
/// (`NGINX_GEN_GIXY_NEXT`); `scripts/stages/50-verify.sh` creates both.
pub fn analysers() -> Vec<Analyser> {
    vec![
        Analyser {
            name: "gixy-ng",
            bin: binary(),
        },
        Analyser {
            name: "Gixy-Next",
            bin: venv_bin("NGINX_GEN_GIXY_NEXT", ".venv-next/bin/gixy-next"),
        },
    ]
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

/// Findings that fail the policy: every one of MEDIUM or HIGH severity. There is no
/// allow-list; LOW and UNSPECIFIED findings are reported, never hidden.
pub fn violations(findings: &[Finding]) -> Vec<&Finding> {
    findings.iter().filter(|f| f.serious()).collect()
}
