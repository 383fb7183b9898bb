//! `nginx-gen`: the command-line front end. Parses flags, reads `--input`, fills in from
//! the host what neither gives (unless `--no-detect`), and prints or writes what core
//! renders.

mod apply;
mod args;
mod check;
mod write;

use std::fmt::Write as _;
use std::io::{self, Read, Write as _};
use std::process::ExitCode;

use anstream::eprintln;
use anstyle::{AnsiColor, Style};
use clap::{CommandFactory, Parser};
use nginx_gen_core::render::{self, Format};
use nginx_gen_core::{InputErrors, Inputs, Plan, RawInputs, i18n};

use args::{Cli, Command, Generate};
use nginx_gen::host::{self, Host};

const ERROR: Style = AnsiColor::Red.on_default().bold();
const NOTE: Style = AnsiColor::Cyan.on_default();

/// Why the program stopped.
enum Failure {
    /// Invalid input or usage: exit 2.
    Input(InputErrors),
    /// A usage problem described in one line: exit 2.
    Usage(String),
    /// Anything else (I/O): exit 1.
    Other(String),
    /// The report said it all (`check` found differences): exit 1.
    Drift,
    /// The report named the invalid inputs (`fleet`: a host's facts or inputs): exit 2.
    InvalidReported,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(errors)) => {
            for e in &errors.0 {
                let name = match args::flag_of(&e.field) {
                    Some(flag) => format!("{} ({flag})", e.field),
                    None => e.field.clone(),
                };
                eprintln!("{ERROR}error:{ERROR:#} invalid {name}: {}", e.message);
                eprintln!("       accepted: {}", e.accepted);
            }
            ExitCode::from(2)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("{ERROR}error:{ERROR:#} {message}");
            ExitCode::from(2)
        }
        Err(Failure::Other(message)) => {
            eprintln!("{ERROR}error:{ERROR:#} {message}");
            ExitCode::from(1)
        }
        Err(Failure::Drift) => ExitCode::from(1),
        Err(Failure::InvalidReported) => ExitCode::from(2),
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        None => generate(&cli.generate),
        Some(Command::Explain { name, generate }) => {
            let plan = plan(&generate)?;
            let cat = i18n::built_in(plan.inputs.lang);
            match render::explain_directive_in(&plan, &name, &cat) {
                Some(text) => print(&text),
                None => Err(Failure::Usage(format!(
                    "nginx-gen writes no '{name}' for these inputs; it knows: {}",
                    render::known_names(&plan).join(", ")
                ))),
            }
        }
        Some(Command::Apply {
            generate,
            install_root,
            dry_run,
        }) => apply(&generate, &install_root, dry_run),
        Some(Command::Rollback {
            id,
            list,
            dry_run,
            install_root,
        }) => rollback(&install_root, id.as_deref(), list, dry_run),
        Some(Command::Check {
            check: args,
            install_root,
        }) => check(args, &install_root),
        Some(Command::Fleet {
            facts,
            input,
            out,
            format,
        }) => fleet(&facts, input.as_deref(), out.as_deref(), format == "json"),
        Some(Command::Schema) => print(&(nginx_gen_core::inputs::json_schema() + "\n")),
        Some(Command::Completions { shell }) => {
            clap_complete::generate(shell, &mut Cli::command(), "nginx-gen", &mut io::stdout());
            Ok(())
        }
        Some(Command::Man) => clap_mangen::Man::new(Cli::command())
            .render(&mut io::stdout())
            .map_err(|e| Failure::Other(format!("cannot write the man page: {e}"))),
    }
}

/// Prints to stdout; a closed pipe (`| head`) is not an error.
fn print(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Failure::Other(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

/// Flags over `--input` over the detected host, validated into a plan.
fn plan(args: &Generate) -> Result<Plan, Failure> {
    plan_under(args, std::path::Path::new("/"))
}

/// [`plan`] for the tree under `root` (`apply --install-root`): the existing default server is
/// looked for there.
fn plan_under(args: &Generate, root: &std::path::Path) -> Result<Plan, Failure> {
    let file = match &args.input {
        None => RawInputs::default(),
        Some(path) => {
            let text = if path.as_os_str() == "-" {
                let mut s = String::new();
                io::stdin().read_to_string(&mut s).map(|_| s)
            } else {
                std::fs::read_to_string(path)
            }
            .map_err(|e| Failure::Usage(format!("cannot read --input {}: {e}", path.display())))?;
            RawInputs::from_json(&text).map_err(Failure::Input)?
        }
    };
    let mut raw = args.raw().over(file);
    if !args.no_detect {
        let (detected, in_container) = detect(raw, root);
        let facts = site_facts(&detected, in_container);
        raw = detected.over(facts);
    }
    let bootstrap_unset = raw.bootstrap.is_none();
    let today = today(args.today.as_deref())?;
    Inputs::from_raw(&raw)
        .map(|mut i| {
            // No certificate yet: serve HTTP and the ACME location until certbot has one.
            if !args.no_detect && i.tls && bootstrap_unset {
                let (cert, _) = i.certificate_paths();
                if !std::path::Path::new(&cert).exists() {
                    eprintln!(
                        "{NOTE}nginx-gen:{NOTE:#} no certificate at {cert} yet: HTTP only, with the ACME location (--bootstrap); run again once certbot has it"
                    );
                    i.bootstrap = true;
                }
            }
            let mut plan = Plan::new(&i);
            plan.check_date(today);
            plan
        })
        .map_err(|errors| {
            // The messages in the language asked for, when that much is valid.
            let lang = raw.lang.as_deref().and_then(|l| l.parse().ok());
            Failure::Input(
                errors.localized(&i18n::built_in(lang.unwrap_or(nginx_gen_core::Lang::En))),
            )
        })
}

/// Today in days since 1970-01-01: `--today`, else the clock's (UTC). The core has no clock.
fn today(given: Option<&str>) -> Result<i64, Failure> {
    match given {
        Some(date) => nginx_gen_core::policy::cdn::days(date)
            .ok_or_else(|| Failure::Usage(format!("--today {date}: want a date as YYYY-MM-DD"))),
        None => Ok(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs() / 86_400).unwrap_or(0))),
    }
}

/// What the site needs to know of this host, for the inputs not given: IPv6 (the default
/// listens are dual stack) and, for OCSP stapling or upstream names, the DNS server.
fn site_facts(raw: &RawInputs, in_container: bool) -> RawInputs {
    RawInputs {
        listen: host::listen_without_ipv6(raw, nginx_gen::host::ipv6()),
        // Only where it is used, so other commands do not name this host's DNS server.
        resolver: host::needs_host_resolver(raw, in_container)
            .then(nginx_gen::host::resolver)
            .flatten()
            // A link-local server with a zone (fe80::1%eth0) is no address nginx takes.
            .filter(|r| r.parse::<nginx_gen_core::inputs::Resolver>().is_ok()),
        ..RawInputs::default()
    }
}

/// Fills in from the host every fact the command line and `--input` leave out: the
/// machine's size, and the software (nginx and OpenSSL versions, layout, brotli modules,
/// an existing default server) independently of it, unless the files are for a container
/// made on its host. Says on stderr what it used. Returns the inputs and whether this
/// machine is a container.
fn detect(given: RawInputs, root: &std::path::Path) -> (RawInputs, bool) {
    let host = Host::detect();
    let software = host.runs_the_target(&given);
    let used = host.used(&given);
    let detected = RawInputs {
        ktls: Some(host::ktls()),
        file_max: host::file_max().map(Into::into),
        ..host.raw(used)
    };
    let ktls_given = given.ktls.is_some();
    let other_memory_given = given.other_memory.is_some();
    let mut raw = given.over(detected);
    let mut line = host.describe_used(used);
    if raw.ktls == Some(true) && !ktls_given {
        line.push_str(", kernel TLS");
    }
    if !software {
        line.push_str("; not this host's nginx, layout, modules or sites: the files are for a container (the image's)");
    }
    // A site that already is the default server on one of the site's ports.
    if raw.existing_default_server.is_none()
        && software
        && let Ok(inputs) = Inputs::from_raw(&raw)
    {
        let mut ports: Vec<u16> = inputs.listen.iter().map(|l| l.port).collect();
        ports.dedup();
        if inputs.tls {
            ports.push(inputs.tls_port);
        }
        let found = host::existing_default_servers_under(root, inputs.layout, &ports);
        if !found.is_empty() {
            raw.existing_default_server = Some(true);
            let sites: Vec<String> = found
                .iter()
                .map(|(path, port)| format!("{path} on port {port}"))
                .collect();
            let _ = write!(line, ", an existing default server ({})", sites.join(", "));
        }
    }
    // Services beside nginx whose memory the plan cannot know: a hint, not a value (their
    // peak is not what they hold now).
    if !other_memory_given && software {
        let services = host::other_services();
        if !services.is_empty() {
            let list: Vec<String> = services
                .iter()
                .map(|(name, rss)| format!("{name} {rss}"))
                .collect();
            let _ = write!(
                line,
                "; other services use memory here ({} now): pass their peak as --other-memory",
                list.join(", ")
            );
        }
    }
    eprintln!("{NOTE}nginx-gen:{NOTE:#} {line}");
    (raw, host.container)
}

fn generate(args: &Generate) -> Result<(), Failure> {
    let plan = plan(args)?;
    // Every catalogue is built in; the plan is English until rendered.
    let cat = i18n::built_in(plan.inputs.lang);
    let Some(dir) = &args.out else {
        return print(&render::render_in(&plan, args.format(), &cat));
    };
    let files = render::files_in(&plan, &cat);
    let written = write::write_all(dir, &files)
        .map_err(|e| Failure::Other(format!("cannot write under {}: {e}", dir.display())))?;
    let mut text = String::new();
    for path in written {
        let _ = writeln!(text, "wrote {}", path.display());
    }
    text.push_str(&render::summary_in(&plan, &cat));
    if args.format() != Format::All {
        text.push_str("note: --format is ignored with --out, which writes every file\n");
    }
    print(&text)
}

/// `--install-root` must be a directory: a usage error (exit 2) otherwise.
fn install_root_is_dir(root: &std::path::Path) -> Result<(), Failure> {
    if root.is_dir() {
        Ok(())
    } else {
        Err(Failure::Usage(format!(
            "--install-root {} is not a directory",
            root.display()
        )))
    }
}

/// `nginx-gen apply`: exit 0 applied or nothing to do, 1 failed (rolled back), 2 bad input.
fn apply(args: &Generate, root: &std::path::Path, dry_run: bool) -> Result<(), Failure> {
    if args.out.is_some() {
        return Err(Failure::Usage(
            "apply installs under --install-root (default /); --out is for generate".into(),
        ));
    }
    if args.format.is_some() {
        return Err(Failure::Usage(
            "apply installs every file; --format is for generate".into(),
        ));
    }
    install_root_is_dir(root)?;
    let plan = plan_under(args, root)?;
    let cat = i18n::built_in(plan.inputs.lang);
    let files = render::files_in(&plan, &cat);
    let options = apply::Options {
        root,
        dry_run,
        command: &plan.command,
    };
    let php = plan
        .tuning
        .php
        .is_some()
        .then(|| apply::php::Fpm::of(plan.inputs.layout, plan.inputs.php_version));
    let mut service = apply::service::Host::detect(root)
        .with_probes(apply::service::probes(&plan))
        .with_php(php);
    match apply::apply(&files, &options, &mut service) {
        Ok(report) => print(&report),
        Err(failed) => {
            let _ = print(&failed.report);
            Err(Failure::Other(format!(
                "apply failed at step {}: {}",
                failed.step, failed.message
            )))
        }
    }
}

/// `nginx-gen rollback`: exit 0 restored (or listed), 1 failed (left as before), 2 bad usage.
fn rollback(
    root: &std::path::Path,
    id: Option<&str>,
    list: bool,
    dry_run: bool,
) -> Result<(), Failure> {
    install_root_is_dir(root)?;
    if list {
        return apply::rollback::list(root)
            .map_err(Failure::Usage)
            .and_then(|text| print(&text));
    }
    let options = apply::rollback::Options { root, id, dry_run };
    let mut service = apply::service::Host::detect(root)
        .with_probes(apply::rollback::probes(root, id))
        .with_php(apply::rollback::php(root, id));
    match apply::rollback::rollback(&options, &mut service) {
        Ok(report) => print(&report),
        Err(apply::rollback::Error::Usage(message)) => Err(Failure::Usage(message)),
        Err(apply::rollback::Error::Failed(failed)) => {
            let _ = print(&failed.report);
            Err(Failure::Other(format!(
                "rollback failed at step {}: {}",
                failed.step, failed.message
            )))
        }
    }
}

/// `nginx-gen check`: exit 0 the host matches the plan, 1 a difference (or something
/// unreadable), 2 bad input or usage.
fn check(args: args::CheckArgs, root: &std::path::Path) -> Result<(), Failure> {
    if args.out_given {
        return Err(Failure::Usage(
            "check reads the host and writes nothing; --out is for generate".into(),
        ));
    }
    install_root_is_dir(root)?;
    let (generate, inputs_from) =
        check::source::choose(args.generate, root).map_err(Failure::Usage)?;
    eprintln!("{NOTE}nginx-gen:{NOTE:#} check: inputs from {inputs_from}");
    let plan = plan_under(&generate, root)?;
    let cat = i18n::built_in(plan.inputs.lang);
    let findings = check::run(&plan, &cat, root);
    let report = if args.json {
        check::report::json(&inputs_from, &findings, &plan.command)
    } else {
        check::report::text(&inputs_from, &findings, &plan.command)
    };
    print(&report)?;
    if findings.is_empty() {
        Ok(())
    } else {
        Err(Failure::Drift)
    }
}

/// `nginx-gen fleet`: exit 0 every host planned, 1 the cache unreadable, 2 a host invalid.
fn fleet(
    facts: &std::path::Path,
    input: Option<&std::path::Path>,
    out: Option<&std::path::Path>,
    json: bool,
) -> Result<(), Failure> {
    use nginx_gen::fleet;
    let base = match input {
        None => RawInputs::default(),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                Failure::Usage(format!("cannot read --input {}: {e}", path.display()))
            })?;
            RawInputs::from_json(&text).map_err(Failure::Input)?
        }
    };
    let entries = fleet::read_source(facts).map_err(Failure::Other)?;
    if entries.is_empty() {
        return Err(Failure::Usage(format!(
            "no host in {} (a fact cache directory, ansible.cfg: fact_caching = jsonfile, fact_caching_connection = DIR; or the file of ansible-inventory --list)",
            facts.display()
        )));
    }
    let mut rows = Vec::with_capacity(entries.len());
    for entry in &entries {
        let plan = fleet::inputs_of(&entry.facts, &base).and_then(|raw| {
            Inputs::from_raw(&raw)
                .map(|i| Plan::new(&i))
                .map_err(|errors| {
                    errors
                        .0
                        .iter()
                        .map(|e| match args::flag_of(&e.field) {
                            Some(flag) => format!("invalid {} ({flag}): {}", e.field, e.message),
                            None => format!("invalid {}: {}", e.field, e.message),
                        })
                        .collect::<Vec<_>>()
                        .join("; ")
                })
        });
        let planned = match plan {
            Err(e) => Err(e),
            Ok(plan) => {
                let tree = match out {
                    None => None,
                    Some(dir) => {
                        let dir = dir.join(&entry.name);
                        let cat = i18n::built_in(plan.inputs.lang);
                        write::write_all(&dir, &render::files_in(&plan, &cat)).map_err(|e| {
                            Failure::Other(format!("cannot write under {}: {e}", dir.display()))
                        })?;
                        Some(dir.display().to_string())
                    }
                };
                Ok(fleet::Planned {
                    vcpu: plan.inputs.vcpu,
                    ram: plan.inputs.ram.to_string(),
                    workers: plan.tuning.workers,
                    worker_connections: plan.tuning.worker_connections,
                    capacity: plan.capacity.clients,
                    limited_by: serde_json::to_value(plan.capacity.limited_by)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                    warnings: plan
                        .warnings
                        .iter()
                        .map(|w| (w.id.to_owned(), w.message.clone()))
                        .collect(),
                    command: plan.command.clone(),
                    tree,
                })
            }
        };
        rows.push(fleet::Row {
            host: entry.name.clone(),
            plan: planned,
        });
    }
    print(&if json {
        fleet::json(&rows)
    } else {
        fleet::text(&rows)
    })?;
    if rows.iter().all(|r| r.plan.is_ok()) {
        Ok(())
    } else {
        Err(Failure::InvalidReported)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_field_has_a_flag() {
        let raw = nginx_gen_core::Inputs::default().to_raw();
        let json = serde_json::to_value(raw).unwrap();
        for field in json.as_object().unwrap().keys() {
            assert!(super::args::flag_of(field).is_some(), "{field}");
        }
    }
}
