//! A POSIX shell script that installs the files: backups first, then `nginx -t`, and only
//! if that passes, `sysctl --system`, `systemctl daemon-reload` and a reload. On a failed
//! test it puts the previous files back.

use std::fmt::Write;

use super::{files, header_lines};
use crate::plan::Plan;

/// The here-document delimiter; validated inputs cannot produce a line equal to it.
const EOF_MARK: &str = "NGINX_GEN_EOF";

/// Renders the install script.
pub fn install_script(plan: &Plan) -> String {
    let files = files(plan);
    let mut out = String::from("#!/bin/sh\n");
    for line in header_lines(plan, "Install script") {
        let _ = writeln!(out, "# {line}");
    }
    out.push_str(
        "# Run as root. Existing files are copied to a backup directory first; if `nginx -t`\n\
         # rejects the result, they are put back and nothing is reloaded.\n\
         set -eu\n\
         backup=\"/var/backups/nginx-gen/$(date +%Y%m%d-%H%M%S)\"\n\
         mkdir -p \"$backup\"\n\n\
         put() {\n\
         \x20   # put PATH: move PATH.nginx-gen-new into place, keeping a backup of PATH.\n\
         \x20   if [ -e \"$1\" ]; then mkdir -p \"$backup$(dirname \"$1\")\" && cp -p \"$1\" \"$backup$1\"; fi\n\
         \x20   mv \"$1.nginx-gen-new\" \"$1\"\n\
         }\n\n\
         restore() {\n\
         \x20   # restore PATH: the backup if there is one, otherwise remove the new file.\n\
         \x20   if [ -e \"$backup$1\" ]; then cp -p \"$backup$1\" \"$1\"; else rm -f \"$1\"; fi\n\
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
         systemctl daemon-reload\n\
         # LimitNOFILE applies to the master at its next restart; workers get\n\
         # worker_rlimit_nofile on this reload already.\n\
         systemctl reload nginx\n\
         echo \"nginx-gen: installed; previous files are in $backup\"\n",
    );
    out
}
