//! Renderers: pure functions from a [`Plan`] to file contents, one module per format.
//!
//! nginx files are built as an [`crate::ir::Node`] tree and written by one writer; the
//! sysctl, systemd and text formats have their own small line-based writers.

mod explain;
mod json;
mod nginx;
mod php;
mod script;
mod site;
mod sysctl;
mod systemd;
mod texts;

pub use crate::ir::Origin;
pub use explain::{
    explain_directive, explain_directive_in, explain_table, explain_table_in, known_names, summary,
    summary_in, warning_message,
};
pub use json::{JsonPlan, SCHEMA_VERSION, json, json_in};
pub use nginx::{nginx_conf, nginx_conf_in, nginx_conf_with_origins};
pub use php::{php_pool_in, php_pool_with_origins};
pub use script::{
    INSTALL_STEPS, InstallSteps, install_script, install_script_in, install_script_with,
};
pub use site::{site, site_in, site_with_origins};
pub use sysctl::{sysctl, sysctl_in, sysctl_with_origins};
pub use systemd::{systemd, systemd_in, systemd_with_origins};
pub(crate) use texts::LABEL_DEFAULT;
pub use texts::TEXTS;

use std::borrow::Cow;

use serde::Serialize;

use crate::choice::choice;
use crate::i18n::Catalogue;
use crate::plan::{FileKind, Plan, Scope, Setting};
use crate::{POLICY_VERSION, VERSION};

choice! {
    /// What to render.
    pub enum Format {
        /// Every file, each under a `==> path <==` header, then the capacity summary.
        All = "all",
        /// `/etc/nginx/nginx.conf`.
        Nginx = "nginx",
        /// The site file in `/etc/nginx/conf.d/`.
        Site = "site",
        /// The `sysctl.d` file.
        Sysctl = "sysctl",
        /// The systemd drop-in.
        Systemd = "systemd",
        /// The PHP-FPM pool file (workload php; empty otherwise).
        PhpPool = "php-fpm",
        /// The whole plan as JSON.
        Json = "json",
        /// A human explanation of every value.
        Explain = "explain",
        /// A shell script that installs the files with backups, tests and reloads.
        Script = "script",
    }
}

/// A file to install.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct File {
    /// Absolute path on the target machine.
    pub path: String,
    /// Contents.
    pub contents: String,
}

/// Path of the sysctl.d file.
pub const SYSCTL_PATH: &str = "/etc/sysctl.d/99-nginx-gen.conf";
/// Path of the systemd drop-in.
pub const SYSTEMD_PATH: &str = "/etc/systemd/system/nginx.service.d/nginx-gen.conf";
/// Path of the main nginx configuration.
pub const NGINX_PATH: &str = "/etc/nginx/nginx.conf";

/// The installed path of `file` for `plan`: the one `file → path` mapping.
pub fn path_of(plan: &Plan, file: FileKind) -> String {
    match file {
        FileKind::Nginx => NGINX_PATH.into(),
        FileKind::Site => plan.site_path(),
        FileKind::Sysctl => SYSCTL_PATH.into(),
        FileKind::Systemd => SYSTEMD_PATH.into(),
        FileKind::PhpPool => plan.inputs.layout.php_pool(plan.inputs.php_version),
    }
}

/// Whether the plan has `file`: the PHP-FPM pool only for the php workload.
pub fn has_file(plan: &Plan, file: FileKind) -> bool {
    file != FileKind::PhpPool || plan.tuning.php.is_some()
}

/// The files to install, in order, in English: four, and the PHP-FPM pool for php.
pub fn files(plan: &Plan) -> Vec<File> {
    files_in(plan, Catalogue::english())
}

/// The files to install, in order, in the catalogue's language.
pub fn files_in(plan: &Plan, cat: &Catalogue) -> Vec<File> {
    let head = Header::new(plan, cat);
    let contents = [
        nginx::render(plan, cat, &head),
        site::render(plan, cat, &head),
        sysctl::render(plan, None, cat, &head),
        systemd::render(plan, None, cat, &head),
        php::render(plan, None, cat, &head),
    ];
    FileKind::ALL
        .into_iter()
        .zip(contents)
        .filter(|(kind, _)| has_file(plan, *kind))
        .map(|(kind, contents)| File {
            path: path_of(plan, kind),
            contents,
        })
        .collect()
}

/// Renders one format in English.
pub fn render(plan: &Plan, format: Format) -> String {
    render_in(plan, format, Catalogue::english())
}

/// Renders one format in the catalogue's language: the plan holds English, so one plan
/// renders in every language.
pub fn render_in(plan: &Plan, format: Format, cat: &Catalogue) -> String {
    // Always some: the steps are given.
    render_with(plan, format, cat, Some(InstallSteps::BUILT_IN)).unwrap_or_default()
}

/// [`render_in`] for the builds that load the install script's functions on demand (the
/// page, the module): `None` when `format` is the install script and `steps` is `None`.
pub fn render_with(
    plan: &Plan,
    format: Format,
    cat: &Catalogue,
    steps: Option<InstallSteps<'_>>,
) -> Option<String> {
    Some(match format {
        Format::All => {
            let mut out = String::new();
            for file in files_in(plan, cat) {
                out.push_str("==> ");
                out.push_str(&file.path);
                out.push_str(" <==\n");
                out.push_str(&file.contents);
                out.push('\n');
            }
            out.push_str(&summary_in(plan, cat));
            out
        }
        Format::Nginx => nginx_conf_in(plan, cat),
        Format::Site => site_in(plan, cat),
        Format::Sysctl => sysctl_in(plan, cat),
        Format::Systemd => systemd_in(plan, cat),
        Format::PhpPool => php_pool_in(plan, cat),
        Format::Json => json_in(plan, cat),
        Format::Explain => explain_table_in(plan, cat),
        Format::Script => install_script_with(plan, cat, steps?),
    })
}

/// The header every file starts with: tool, policy and the command that reproduces it;
/// `what` names the file in the catalogue's language.
pub fn header_lines(plan: &Plan, what: &str, cat: &Catalogue) -> Vec<String> {
    Header::new(plan, cat)
        .lines(what, cat)
        .into_iter()
        .map(Cow::into_owned)
        .collect()
}

/// The header lines every file of one render shares, computed once for all of them; only
/// the first line, which names the file, differs.
pub(crate) struct Header<'a> {
    shared: [Cow<'a, str>; 4],
}

impl<'a> Header<'a> {
    pub(crate) fn new(plan: &Plan, cat: &'a Catalogue) -> Self {
        Self {
            shared: [
                target_line(plan, cat).into(),
                cat.get(&texts::REPRODUCE).into(),
                ["  ", &plan.command].concat().into(),
                cat.get(&texts::EXPLAIN_MORE).into(),
            ],
        }
    }

    /// The header of the file `what` names.
    pub(crate) fn lines<'h>(&'h self, what: &str, cat: &Catalogue) -> [Cow<'h, str>; 5] {
        let [target, reproduce, command, explain] = &self.shared;
        [
            cat.fill(
                &texts::GENERATED,
                &[
                    ("what", what),
                    ("version", VERSION),
                    ("policy", POLICY_VERSION),
                ],
            )
            .into(),
            Cow::Borrowed(target),
            Cow::Borrowed(reproduce),
            Cow::Borrowed(command),
            Cow::Borrowed(explain),
        ]
    }
}

/// Which nginx, OpenSSL and layout the files are for; `any` reads as the oldest supported
/// version or later (the portable form).
fn target_line(plan: &Plan, cat: &Catalogue) -> String {
    let i = &plan.inputs;
    let v = i.versions();
    let version = |target: crate::inputs::Target, oldest: crate::Version| match target {
        crate::inputs::Target::Known(known) => known.to_string(),
        crate::inputs::Target::Any => {
            cat.fill(&texts::ANY_VERSION, &[("min", &oldest.to_string())])
        }
    };
    cat.fill(
        &texts::TARGET,
        &[
            ("nginx", &version(i.nginx_version, v.nginx)),
            ("openssl", &version(i.openssl_version, v.openssl)),
            ("layout", i.layout.as_str()),
        ],
    )
}

/// Appends [`Setting::value`] to `out` without building it first.
fn push_value(out: &mut String, setting: &Setting) {
    for (i, arg) in setting.args.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(arg);
    }
}

/// Settings of `scope` with their index in the plan, paired with whether each starts a new
/// reason (so a run of `set_real_ip_from` lines shares one comment).
pub fn with_new_reason(plan: &Plan, scope: Scope) -> impl Iterator<Item = (&Setting, usize, bool)> {
    let mut previous: Option<&'static str> = None;
    plan.settings
        .iter()
        .enumerate()
        .filter(move |(_, s)| s.scope == scope)
        .map(move |(index, s)| {
            let new = previous != Some(s.reason.id);
            previous = Some(s.reason.id);
            (s, index, new)
        })
}

/// The files with, for each, where every setting's lines are: what the web page links
/// to reasons and what the benchmark edits, so neither parses the text back.
pub fn files_with_origins(plan: &Plan) -> Vec<(File, Vec<Origin>)> {
    files_with_origins_in(plan, Catalogue::english())
}

/// [`files_with_origins`] in the catalogue's language.
pub fn files_with_origins_in(plan: &Plan, cat: &Catalogue) -> Vec<(File, Vec<Origin>)> {
    let head = Header::new(plan, cat);
    let with_origins =
        |render: fn(&Plan, Option<&mut Vec<Origin>>, &Catalogue, &Header) -> String| {
            let mut origins = Vec::new();
            let out = render(plan, Some(&mut origins), cat, &head);
            (out, origins)
        };
    let rendered = [
        nginx::render_with_origins(plan, cat, &head),
        site::render_with_origins(plan, cat, &head),
        with_origins(sysctl::render),
        with_origins(systemd::render),
        with_origins(php::render),
    ];
    FileKind::ALL
        .into_iter()
        .zip(rendered)
        .filter(|(kind, _)| has_file(plan, *kind))
        .map(|(kind, (contents, origins))| {
            let path = path_of(plan, kind);
            (File { path, contents }, origins)
        })
        .collect()
}

/// Line counting for the line-based writers (sysctl, systemd): the origin of a setting
/// written from byte `reason_at` (its comment) to `directive_at` (its line).
pub(crate) fn line_origin(
    out: &str,
    setting: usize,
    reason_at: usize,
    directive_at: usize,
) -> Origin {
    let lines = |end: usize| crate::ir::count_lines(&out[..end]);
    Origin {
        setting,
        first: lines(reason_at),
        line: lines(directive_at),
    }
}
