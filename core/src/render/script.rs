//! A POSIX shell script that installs the files with `nginx-gen apply`'s steps
//! (docs/lifecycle.md): **stage** a copy of `/etc/nginx` with the new files and **validate**
//! it with `nginx -t` before anything moves; **backup** into a set `nginx-gen rollback`
//! reads; **install** through temporary names and renames, the manifest last; the
//! **service** steps the changed settings call for, then the probes. A failure after the
//! first move restores every file and brings nginx back to them.
//!
//! The shell is one static part ([`INSTALL_STEPS`], the functions, the same for every plan)
//! and a short per-plan part: the command, where to probe, each file as a here-document,
//! `main`.

use std::fmt::Write;

use super::{files_in, header_lines, texts};
use crate::i18n::Catalogue;
use crate::inputs::{Ip, ServerName};
use crate::ir::push_wrapped;
use crate::plan::Plan;
use crate::{POLICY_VERSION, VERSION};

/// The here-document delimiter; validated inputs cannot produce a line equal to it.
const EOF_MARK: &str = "NGINX_GEN_EOF";

/// Comment lines are wrapped to this width, the `# ` included.
const WIDTH: usize = 84;

/// The functions of every install script, the same for every plan
/// (`core/script/install-steps.sh`; `set -f`: no globbing of the path lists). The plan
/// part sets `cmd` (JSON-escaped), `tool`, `policy`, `addr`, `port`, `tls`, `names`, calls
/// `new PATH` for each file, then `main`. Its paths are `render::{SYSCTL_PATH,
/// SYSTEMD_PATH}` and the manifest's (a test checks).
///
/// The CLI compiles the file in. The web page and the module do not: it is 3.2 KB of
/// their compressed size that only the install script needs, so they fetch it when the
/// script is first asked for (as they fetch a language's catalogue) and hand it over as
/// [`InstallSteps::check`]ed text.
pub const INSTALL_STEPS: &str = include_str!("../../script/install-steps.sh");

/// FNV-1a 64 of this build's [`INSTALL_STEPS`], computed while compiling: a fetched copy
/// must match it, so the page and the module write the CLI's script or none.
const INSTALL_STEPS_FNV: u64 = crate::i18n::fnv1a(INSTALL_STEPS.as_bytes());

/// The install script's functions, known to be this build's ([`INSTALL_STEPS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallSteps<'a>(&'a str);

impl<'a> InstallSteps<'a> {
    /// The steps compiled into this build.
    pub const BUILT_IN: InstallSteps<'static> = InstallSteps(INSTALL_STEPS);

    /// `text` as the steps, when it is this build's `install-steps.sh` byte for byte.
    ///
    /// # Errors
    /// When it is another file or another build's (a stale cache, an error page).
    pub fn check(text: &'a str) -> Result<Self, &'static str> {
        if crate::i18n::fnv1a(text.as_bytes()) == INSTALL_STEPS_FNV {
            Ok(Self(text))
        } else {
            Err("not this version's install-steps.sh")
        }
    }
}

/// Renders the install script in English.
pub fn install_script(plan: &Plan) -> String {
    install_script_in(plan, Catalogue::english())
}

/// Renders the install script in the catalogue's language, with the built-in steps.
pub fn install_script_in(plan: &Plan, cat: &Catalogue) -> String {
    install_script_with(plan, cat, InstallSteps::BUILT_IN)
}

/// Writes the probes' variables: the first IPv4 listen address (loopback for the
/// wildcard) and its port, the TLS port (empty without TLS or while bootstrapping) and the
/// literal server names (not wildcards or regexes), as `nginx-gen apply` probes; all empty
/// without an IPv4 listen.
fn push_probes(out: &mut String, plan: &Plan) {
    let i = &plan.inputs;
    let Some(listen) = i.listen.iter().find(|l| l.addr.is_none_or(Ip::is_ipv4)) else {
        out.push_str("addr= port= tls= names=\n");
        return;
    };
    let addr = listen.addr.unwrap_or(Ip::V4([127, 0, 0, 1]));
    let _ = write!(out, "addr={addr} port={} tls=", listen.port);
    if i.tls && !i.bootstrap {
        let _ = write!(out, "{}", i.tls_port);
    }
    out.push_str(" names='");
    let mut sep = "";
    for name in i.server_names.iter().map(ServerName::as_str) {
        if !name.starts_with(['*', '~', '.']) && !name.ends_with('*') && name != "_" {
            out.push_str(sep);
            out.push_str(name);
            sep = " ";
        }
    }
    out.push_str("'\n");
}

/// Renders the install script in the catalogue's language (its comments; the messages
/// it prints stay English, as the shell quotes them) with `steps`' functions.
pub fn install_script_with(plan: &Plan, cat: &Catalogue, steps: InstallSteps<'_>) -> String {
    let files = files_in(plan, cat);
    let mut out = String::from("#!/bin/sh\n");
    for line in header_lines(plan, cat.get(&texts::WHAT_SCRIPT), cat) {
        let _ = writeln!(out, "# {line}");
    }
    push_wrapped(&mut out, "# ", cat.get(&texts::SCRIPT_ROOT), WIDTH);
    // The path lists are split on purpose (`set -f`); `a= b=` assigns empty strings.
    out.push_str("# shellcheck disable=SC1007,SC2086\nset -eu\n\n");
    push_wrapped(&mut out, "# ", cat.get(&texts::SCRIPT_STEPS), WIDTH);
    out.push_str(steps.0);
    out.push('\n');
    push_wrapped(&mut out, "# ", cat.get(&texts::SCRIPT_PLAN), WIDTH);
    // The command goes into JSON strings (set.json, the manifest) and single quotes.
    out.push_str("cmd='");
    for c in plan.command.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\'' => out.push_str("'\\''"),
            _ => out.push(c),
        }
    }
    let _ = writeln!(
        out,
        "' tool='nginx-gen {VERSION}' policy='{POLICY_VERSION}'"
    );
    push_probes(&mut out, plan);
    for file in &files {
        let _ = write!(
            out,
            "new '{path}' <<'{EOF_MARK}'\n{contents}{EOF_MARK}\n",
            path = file.path,
            contents = file.contents,
        );
    }
    out.push_str("main\n");
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_library_names_the_paths_apply_uses() {
        use crate::render::{SYSCTL_PATH, SYSTEMD_PATH};
        assert!(super::INSTALL_STEPS.contains(&format!("Y={SYSCTL_PATH}\n")));
        assert!(super::INSTALL_STEPS.contains(&format!("U={SYSTEMD_PATH}\n")));
    }

    #[test]
    fn only_this_builds_steps_are_accepted() {
        use super::{INSTALL_STEPS, InstallSteps};
        assert_eq!(
            InstallSteps::check(INSTALL_STEPS),
            Ok(InstallSteps::BUILT_IN)
        );
        let edited = INSTALL_STEPS.replacen("set -f", "set -fx", 1);
        assert!(
            InstallSteps::check(&edited)
                .unwrap_err()
                .contains("not this version's")
        );
        assert!(InstallSteps::check("<!doctype html>").is_err());
    }
}
