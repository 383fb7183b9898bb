//! The security analysers gixy-ng and Gixy-Next over generated trees.
//!
//! Policy (docs/verification.md): no finding of MEDIUM or HIGH severity from either, ever,
//! and no allow-list: the generator is fixed, never a list. The one way past a finding is
//! [`REFUTED`]: a finding a live behaviour proves wrong, confirmed in the tree it names.

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

    /// The entry of [`REFUTED`] that proves this finding wrong for the tree it is in:
    /// every file under the directory of the nginx.conf gixy was given.
    pub fn refuted(&self) -> Option<&'static Refuted> {
        let entry = REFUTED
            .iter()
            .find(|r| r.plugin == self.plugin && self.reason.starts_with(r.reason))?;
        let mut text = String::new();
        read_tree(Path::new(&self.path).parent()?, &mut text).ok()?;
        (entry.holds)(&text).then_some(entry)
    }
}

/// A finding a live behaviour proves wrong: the analyser misreads what nginx does. It
/// passes only where `holds` confirms, in the file the finding names, the configuration
/// the behaviour serves; it is still counted and printed, never hidden.
#[derive(Debug)]
pub struct Refuted {
    /// The plugin.
    pub plugin: &'static str,
    /// The start of its reason.
    pub reason: &'static str,
    /// The live behaviour (tests/behaviour) that shows nginx doing what the finding denies.
    pub behaviour: &'static str,
    /// Whether a file has the configuration the behaviour serves.
    pub holds: fn(&str) -> bool,
}

/// Every refuted finding.
pub const REFUTED: &[Refuted] = &[Refuted {
    // Gixy-Next 0.9.0 looks for `resolver` around the proxy_pass only, not in the upstream
    // block its own message names; nginx 1.27.3 and later read it there (the upstream
    // module's `resolver`), and the behaviour follows a name that moves.
    plugin: "stale_dns_cache",
    reason: "Upstream uses `server ... resolve`, but no `resolver` is configured",
    behaviour: "upstream_name_followed",
    holds: resolving_upstreams_have_a_resolver,
}];

/// Appends the text of every file under `dir`, recursively.
fn read_tree(dir: &Path, text: &mut String) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            read_tree(&path, text)?;
        } else if let Ok(file) = std::fs::read_to_string(&path) {
            text.push_str(&file);
            text.push('\n');
        }
    }
    Ok(())
}

/// Every `upstream` block of the configuration text with a `server … resolve` has a
/// `resolver` of its own, and there is such a block. Blocks written otherwise than the
/// generator writes them (a brace on its own line, a comment after it) do not count.
pub fn resolving_upstreams_have_a_resolver(text: &str) -> bool {
    let mut blocks = Vec::new();
    let mut block: Option<(bool, bool)> = None;
    for line in text.lines().map(str::trim) {
        let words: Vec<&str> = line.trim_end_matches(';').split_whitespace().collect();
        if words.first() == Some(&"upstream") && line.ends_with('{') {
            block = Some((false, false));
        } else if let Some((resolve, resolver)) = block.as_mut() {
            match words.first() {
                _ if line == "}" => blocks.extend(block.take()),
                Some(&"server") if words.contains(&"resolve") => *resolve = true,
                Some(&"resolver") => *resolver = true,
                _ => {}
            }
        }
    }
    blocks.iter().any(|&(resolve, _)| resolve)
        && blocks
            .iter()
            .all(|&(resolve, resolver)| !resolve || resolver)
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

/// Findings that fail the policy: every one of MEDIUM or HIGH severity that no live
/// behaviour refutes ([`REFUTED`]). There is no allow-list; LOW and UNSPECIFIED findings
/// are reported, never hidden.
pub fn violations(findings: &[Finding]) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.serious() && f.refuted().is_none())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resolving_upstream_needs_its_own_resolver() {
        let with = "upstream app {\n    zone app 1m;\n    server app:3000 resolve;\n    resolver 127.0.0.11 valid=10s;\n}\n";
        assert!(resolving_upstreams_have_a_resolver(with));
        let without = "upstream app {\n    server app:3000 resolve;\n}\nresolver 1.1.1.1;\n";
        assert!(!resolving_upstreams_have_a_resolver(without));
        // No resolving upstream: nothing to refute.
        assert!(!resolving_upstreams_have_a_resolver(
            "upstream app {\n    server app:3000;\n}\n"
        ));
        assert!(!resolving_upstreams_have_a_resolver(&format!(
            "{with}{without}"
        )));
        // `resolve` among other parameters still counts.
        let weighted = "upstream b {\n    server b:80 resolve weight=2;\n}\n";
        assert!(!resolving_upstreams_have_a_resolver(&format!(
            "{with}{weighted}"
        )));
    }
}
