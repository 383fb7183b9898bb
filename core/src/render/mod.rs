//! Renderers: pure functions from a [`Plan`] to file contents, one module per format.
//!
//! nginx files are built as an [`crate::ir::Node`] tree and written by one writer; the
//! sysctl, systemd and PHP-FPM files share one small line-based writer, `Lines`.

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
pub use script::{
    INSTALL_STEPS, InstallSteps, install_script, install_script_in, install_script_with,
};
pub(crate) use texts::LABEL_DEFAULT;
pub use texts::TEXTS;

use std::borrow::Cow;

use serde::Serialize;

use crate::choice::choice;
use crate::i18n::Catalogue;
use crate::ir::{self, push_reason, push_wrapped};
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

impl Format {
    /// The one file this format prints, if it prints one.
    pub const fn file(self) -> Option<FileKind> {
        match self {
            Self::Nginx => Some(FileKind::Nginx),
            Self::Site => Some(FileKind::Site),
            Self::Sysctl => Some(FileKind::Sysctl),
            Self::Systemd => Some(FileKind::Systemd),
            Self::PhpPool => Some(FileKind::PhpPool),
            Self::All | Self::Json | Self::Explain | Self::Script => None,
        }
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
    FileKind::ALL
        .into_iter()
        .filter(|&kind| has_file(plan, kind))
        .map(|kind| File {
            path: path_of(plan, kind),
            contents: writer(kind)(plan, cat, &head, None),
        })
        .collect()
}

/// One file's writer: the file in the catalogue's language under the header one render
/// shares, noting where each setting's lines are when given somewhere to note them.
type Writer = fn(&Plan, &Catalogue, &Header, Option<&mut Vec<Origin>>) -> String;

/// The writer of `file`: the one `file → writer` mapping.
fn writer(file: FileKind) -> Writer {
    match file {
        FileKind::Nginx => nginx::render,
        FileKind::Site => site::render,
        FileKind::Sysctl => sysctl::render,
        FileKind::Systemd => systemd::render,
        FileKind::PhpPool => php::render,
    }
}

/// One file in the catalogue's language (the PHP-FPM pool is empty unless the workload
/// is php).
pub fn file_in(plan: &Plan, file: FileKind, cat: &Catalogue) -> String {
    writer(file)(plan, cat, &Header::new(plan, cat), None)
}

/// [`file_in`], and where each setting's lines are: what the web page links to reasons.
pub fn file_with_origins_in(plan: &Plan, file: FileKind, cat: &Catalogue) -> (String, Vec<Origin>) {
    let mut origins = Vec::new();
    let out = writer(file)(plan, cat, &Header::new(plan, cat), Some(&mut origins));
    (out, origins)
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
        Format::Nginx => file_in(plan, FileKind::Nginx, cat),
        Format::Site => file_in(plan, FileKind::Site, cat),
        Format::Sysctl => file_in(plan, FileKind::Sysctl, cat),
        Format::Systemd => file_in(plan, FileKind::Systemd, cat),
        Format::PhpPool => file_in(plan, FileKind::PhpPool, cat),
        Format::Json => json_in(plan, cat),
        Format::Explain => explain_table_in(plan, cat),
        Format::Script => install_script_with(plan, cat, steps?),
    })
}

/// The header every file starts with: tool, policy and the command that reproduces it;
/// `what` names the file in the catalogue's language.
fn header_lines(plan: &Plan, what: &str, cat: &Catalogue) -> Vec<String> {
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
    FileKind::ALL
        .into_iter()
        .filter(|&kind| has_file(plan, kind))
        .map(|kind| {
            let mut origins = Vec::new();
            let contents = writer(kind)(plan, cat, &head, Some(&mut origins));
            (
                File {
                    path: path_of(plan, kind),
                    contents,
                },
                origins,
            )
        })
        .collect()
}

/// Writes an nginx file's tree, noting where each setting's lines are when asked.
fn write_tree(
    nodes: &[ir::Node<'_>],
    cat: &Catalogue,
    origins: Option<&mut Vec<Origin>>,
) -> String {
    match origins {
        Some(origins) => {
            let (out, found) = ir::write_with_origins(nodes, cat);
            origins.extend(found);
            out
        }
        None => ir::write(nodes, cat),
    }
}

/// How much of a setting's reason goes above its line in a line-based file.
#[derive(Clone, Copy)]
enum Why {
    /// The whole reason: its text, formula and default.
    Reason,
    /// Its formula alone, under a reason the setting before it already gave.
    FormulaOnly,
}

/// The line-based writers' output (sysctl, systemd, the PHP-FPM pool): comments under
/// one prefix, each setting as `name<separator>value` under its reason, and where each
/// setting's lines are, when asked.
struct Lines<'o> {
    out: String,
    origins: Option<&'o mut Vec<Origin>>,
    /// What starts a comment line: `# `, or `; ` in PHP's ini files.
    prefix: &'static str,
}

impl<'o> Lines<'o> {
    /// Width the comment lines wrap at.
    const WIDTH: usize = 90;

    /// An empty file of about `capacity` bytes whose comments start with `prefix`.
    fn new(capacity: usize, prefix: &'static str, origins: Option<&'o mut Vec<Origin>>) -> Self {
        Self {
            out: String::with_capacity(capacity),
            origins,
            prefix,
        }
    }

    /// `text`, wrapped, as comment lines.
    fn comment(&mut self, text: &str) {
        push_wrapped(&mut self.out, self.prefix, text, Self::WIDTH);
    }

    /// `text` as it is (section headers, blank lines, fixed lines).
    fn raw(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// The setting at `index` of the plan under its reason (or the part `why` says).
    fn setting(
        &mut self,
        index: usize,
        setting: &Setting,
        separator: &str,
        why: Why,
        cat: &Catalogue,
    ) {
        let out = &mut self.out;
        let reason_at = out.len();
        match (why, &setting.reason.formula) {
            (Why::Reason, _) => push_reason(out, self.prefix, &setting.reason, Self::WIDTH, cat),
            (Why::FormulaOnly, Some(formula)) => {
                push_wrapped(out, self.prefix, formula, Self::WIDTH);
            }
            (Why::FormulaOnly, None) => {}
        }
        if let Some(origins) = self.origins.as_deref_mut() {
            let lines = |end: usize| ir::count_lines(&out[..end]);
            origins.push(Origin {
                setting: index,
                first: lines(reason_at),
                line: lines(out.len()),
            });
        }
        for part in [setting.name, separator] {
            out.push_str(part);
        }
        push_value(out, setting);
        out.push('\n');
    }

    /// The file's text.
    fn finish(self) -> String {
        self.out
    }
}
