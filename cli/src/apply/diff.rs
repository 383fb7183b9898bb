//! `apply --dry-run`: a unified diff of one file against what is installed (`similar`,
//! already in the lock file through insta).

use similar::TextDiff;

/// The unified diff from `old` (absent: `/dev/null`) to `new` (absent: removed), three
/// lines of context, headed `--- a/PATH` / `+++ b/PATH`. Empty when they are equal.
pub fn unified(path: &str, old: Option<&str>, new: Option<&str>) -> String {
    if old == new {
        return String::new();
    }
    let rel = path.trim_start_matches('/');
    let from = if old.is_some() {
        format!("a/{rel}")
    } else {
        "/dev/null".to_owned()
    };
    let to = if new.is_some() {
        format!("b/{rel}")
    } else {
        "/dev/null".to_owned()
    };
    let (old, new) = (old.unwrap_or(""), new.unwrap_or(""));
    let diff = TextDiff::from_lines(old, new);
    let mut out = diff
        .unified_diff()
        .context_radius(3)
        .header(&from, &to)
        .missing_newline_hint(true)
        .to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn a_changed_line_is_a_hunk() {
        let d = unified("/etc/x.conf", Some("a\nb\nc\n"), Some("a\nB\nc\n"));
        assert!(d.starts_with("--- a/etc/x.conf\n+++ b/etc/x.conf\n@@ -1,3 +1,3 @@\n"));
        assert!(d.contains("\n-b\n+B\n"));
    }

    #[test]
    fn new_and_removed_files_use_dev_null() {
        assert!(unified("/x", None, Some("a\n")).starts_with("--- /dev/null\n+++ b/x\n"));
        assert!(unified("/x", Some("a\n"), None).starts_with("--- a/x\n+++ /dev/null\n"));
        assert_eq!(unified("/x", Some("a\n"), Some("a\n")), "");
    }
}
