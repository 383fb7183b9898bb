//! The report of `check`: text for people, JSON for monitoring. Both say the same: whether
//! the host matches, where the inputs came from and every finding.

use std::fmt::Write as _;

use serde_json::json;

use super::Finding;

/// The report as text: one block per finding, then a verdict line.
pub fn text(inputs_from: &str, findings: &[Finding], command: &str) -> String {
    let mut out = String::new();
    for f in findings {
        let _ = writeln!(out, "[{}] {}", f.check, f.subject);
        let _ = writeln!(out, "    planned: {}", f.planned);
        let _ = writeln!(out, "    found:   {}", f.found);
        let _ = writeln!(out, "    why:     {}", f.reason);
        let _ = writeln!(out, "    fix:     {}", f.fix);
        out.push('\n');
    }
    if findings.is_empty() {
        let _ = writeln!(out, "the host matches the plan (inputs from {inputs_from})");
    } else {
        let n = findings.len();
        let s = if n == 1 { "" } else { "s" };
        let _ = writeln!(
            out,
            "{n} difference{s} from the plan (inputs from {inputs_from})"
        );
        let apply = command.strip_prefix("nginx-gen").unwrap_or(command);
        let _ = writeln!(out, "the plan's files: nginx-gen apply{apply}");
    }
    out
}

/// The report as JSON: `{matches, inputs_from, command, findings: [{check, subject,
/// planned, found, reason, fix}]}`, with one trailing newline.
pub fn json(inputs_from: &str, findings: &[Finding], command: &str) -> String {
    let list: Vec<_> = findings
        .iter()
        .map(|f| {
            json!({
                "check": f.check,
                "subject": f.subject,
                "planned": f.planned,
                "found": f.found,
                "reason": f.reason,
                "fix": f.fix,
            })
        })
        .collect();
    let doc = json!({
        "matches": findings.is_empty(),
        "inputs_from": inputs_from,
        "command": command,
        "findings": list,
    });
    format!("{doc:#}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_say_the_same() {
        let f = Finding::new(
            "sysctl",
            "net.core.somaxconn".into(),
            "4096".into(),
            "128".into(),
            "why".into(),
            "sysctl -w".into(),
        );
        let t = text("the flags", std::slice::from_ref(&f), "nginx-gen --vcpu 2");
        assert!(
            t.starts_with("[sysctl] net.core.somaxconn\n    planned: 4096\n    found:   128\n")
        );
        assert!(t.contains("1 difference from the plan (inputs from the flags)"));
        assert!(t.contains("nginx-gen apply --vcpu 2"));
        let j: serde_json::Value = serde_json::from_str(&json("the flags", &[f], "c")).unwrap();
        assert_eq!(j["matches"], false);
        assert_eq!(j["findings"][0]["found"], "128");
        assert_eq!(j["inputs_from"], "the flags");
        assert!(text("x", &[], "c").starts_with("the host matches the plan"));
        let j: serde_json::Value = serde_json::from_str(&json("x", &[], "c")).unwrap();
        assert_eq!(j["matches"], true);
        assert_eq!(j["findings"].as_array().unwrap().len(), 0);
    }
}
