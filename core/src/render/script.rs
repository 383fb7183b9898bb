//! A POSIX shell script that installs the files: backups first, then `nginx -t`, and only
//! if that passes, `sysctl --system`, `systemctl daemon-reload` and a reload. On a failed
//! test it puts the previous files back.

use std::fmt::Write;

use super::{files_in, header_lines, texts};
use crate::i18n::Catalogue;
use crate::ir::push_wrapped;
use crate::plan::Plan;

/// The here-document delimiter; validated inputs cannot produce a line equal to it.
const EOF_MARK: &str = "NGINX_GEN_EOF";

/// Comment lines are wrapped to this width, the `# ` included.
const WIDTH: usize = 84;

/// Renders the install script in English.
pub fn install_script(plan: &Plan) -> String {
    install_script_in(plan, Catalogue::english())
}

/// Renders the install script in the catalogue's language (its comments; the messages
/// it prints stay English, as the shell quotes them).
pub fn install_script_in(plan: &Plan, cat: &Catalogue) -> String {
    let files = files_in(plan, cat);
    let mut out = String::from("#!/bin/sh\n");
    for line in header_lines(plan, cat.get(&texts::WHAT_SCRIPT), cat) {
        let _ = writeln!(out, "# {line}");
    }
    push_wrapped(&mut out, "# ", cat.get(&texts::SCRIPT_ROOT), WIDTH);
    out.push_str(
        "set -eu\n\
         backup=\"/var/backups/nginx-gen/$(date +%Y%m%d-%H%M%S)\"\n\
         mkdir -p \"$backup\"\n\n\
         put() {\n",
    );
    push_wrapped(&mut out, "    # ", cat.get(&texts::SCRIPT_PUT), WIDTH);
    out.push_str(
        "    if [ -e \"$1\" ]; then mkdir -p \"$backup$(dirname \"$1\")\" && cp -p \"$1\" \"$backup$1\"; fi\n\
         \x20   mv \"$1.nginx-gen-new\" \"$1\"\n\
         }\n\n\
         restore() {\n",
    );
    push_wrapped(&mut out, "    # ", cat.get(&texts::SCRIPT_RESTORE), WIDTH);
    out.push_str(
        "    if [ -e \"$backup$1\" ]; then cp -p \"$backup$1\" \"$1\"; else rm -f \"$1\"; fi\n\
         }\n",
    );
    for file in &files {
        let _ = write!(
            out,
            "\nmkdir -p \"$(dirname '{path}')\"\ncat > '{path}.nginx-gen-new' <<'{EOF_MARK}'\n{contents}{EOF_MARK}\nput '{path}'\n",
            path = file.path,
            contents = file.contents,
        );
    }
    out.push_str(
        "\nif ! nginx -t; then\n    echo 'nginx -t failed: restoring the previous files' >&2\n",
    );
    for file in &files {
        let _ = writeln!(out, "    restore '{}'", file.path);
    }
    out.push_str(
        "    exit 1\nfi\n\
         sysctl --system >/dev/null\n\
         systemctl daemon-reload\n",
    );
    push_wrapped(&mut out, "# ", cat.get(&texts::SCRIPT_NOFILE), WIDTH);
    out.push_str(
        "systemctl reload nginx\n\
         echo \"nginx-gen: installed; previous files are in $backup\"\n",
    );
    out
}
