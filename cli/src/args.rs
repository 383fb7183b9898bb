//! Command-line flags. The inputs' flags are built from core's input registry
//! ([`nginx_gen_core::inputs::INPUTS`]): name, value, help, heading and accepted choices.
//! Values stay text here: core validates them (one parser for every front end), so
//! `--ram 8Q` and `{"ram": "8Q"}` get the same message.
#![allow(
    clippy::doc_markdown,
    reason = "doc comments here are the --help text, shown verbatim"
)]

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Parser, Subcommand, value_parser};
use clap_complete::Shell;
use nginx_gen_core::inputs::{self, Group, INPUTS, Input, Kind, RawValue};
use nginx_gen_core::{Format, RawInputs};

const EXAMPLES: &str = "\
Examples:
  nginx-gen                                   tune for this machine (detected)
  nginx-gen --vcpu 4 --ram 8G                 the guide's VPS, static site
  nginx-gen --vcpu 2 --ram 4G --workload proxy --upstream 127.0.0.1:3000 --tls \\
            --server-name example.com --out /tmp/nginx-gen
  nginx-gen --vcpu 8 --ram 16G --format explain
  nginx-gen explain worker_connections --vcpu 4 --ram 8G
  nginx-gen --input site.json --format json
  nginx-gen apply --vcpu 4 --ram 8G --dry-run   the diff against what is installed
  nginx-gen apply --vcpu 4 --ram 8G             stage, nginx -t, back up, install
  nginx-gen check --format json                 the running host against the applied plan

Exit codes: 0 success, 2 invalid input or usage, 1 anything else.";

/// Turns a machine's size and workload into a tuned, validated nginx setup:
/// nginx.conf, a site file, a sysctl.d file and a systemd drop-in, each value with its reason.
#[derive(Debug, Parser)]
#[command(name = "nginx-gen", version, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub generate: Generate,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant, reason = "parsed once per run")]
pub enum Command {
    /// Explain one directive, sysctl or limit: its value for these inputs and why.
    Explain {
        /// Directive, sysctl key or systemd setting, e.g. worker_connections.
        name: String,
        #[command(flatten)]
        generate: Generate,
    },
    /// Install the files on this host: staged, checked with nginx -t, backed up, atomic.
    ///
    /// Renders the same files as --out, stages them next to their targets, checks the
    /// staged tree with the real `nginx -t` before anything is moved, keeps a backup set of
    /// every file it replaces or removes under /var/lib/nginx-gen/backups/ID/ and a manifest
    /// of the files it owns (/var/lib/nginx-gen/manifest.json), so a later run with other
    /// inputs replaces its own files. Any failure after the first move restores every file.
    /// Exit codes: 0 applied or nothing to do, 1 failed (rolled back; the step is named),
    /// 2 invalid input.
    Apply {
        #[command(flatten)]
        generate: Generate,
        /// Install under DIR instead of / (an image, a chroot, a test root); the host's
        /// services are then left alone. (--root is the site's document root.)
        #[arg(long, value_name = "DIR", default_value = "/")]
        install_root: PathBuf,
        /// Print a unified diff of every file against what is installed; change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Restore a backup set that `apply` made (default: the last), validated and probed.
    ///
    /// Puts back, byte for byte, every file the set's run replaced or removed and removes
    /// the files it created, with the same steps as apply: the restored tree is checked
    /// with nginx -t before anything moves, then reloaded and probed.
    /// Exit codes: 0 restored, 1 failed (the files as they were before the rollback),
    /// 2 invalid usage (no such set).
    Rollback {
        /// The backup set (an ID under /var/lib/nginx-gen/backups/); default: the last.
        id: Option<String>,
        /// List the backup sets, newest first; change nothing.
        #[arg(long, conflicts_with = "id")]
        list: bool,
        /// Print a unified diff of what the rollback would change; change nothing.
        #[arg(long)]
        dry_run: bool,
        /// The root the set was applied under (as `apply --install-root`).
        #[arg(long, value_name = "DIR", default_value = "/")]
        install_root: PathBuf,
    },
    /// Audit the running nginx and kernel against the plan for this host; change nothing.
    ///
    /// Takes the inputs as generate does (flags, --input, detection); with none of them,
    /// from the command in /var/lib/nginx-gen/manifest.json when apply left one. Compares
    /// the file limits of the nginx master and workers (/proc/PID/limits), the workers
    /// running against the CPUs nginx may use, the listen backlog of nginx's sockets (ss),
    /// the kernel's settings (/proc/sys) against the sysctl.d file, the running
    /// configuration (nginx -T) against the plan's nginx.conf and site file, and counts
    /// worker_connections, open-file and upstream errors in the tail of the error logs.
    /// Each difference comes with the planned and found values, the reason and the fix.
    /// Exit codes: 0 the host matches the plan, 1 a difference or something that could not
    /// be read, 2 invalid input or usage (nothing read).
    Check {
        #[command(flatten)]
        check: CheckArgs,
        /// Read the manifest and the installed nginx.conf under DIR instead of / (a test
        /// root); the processes, sockets and kernel are this host's.
        #[arg(long, value_name = "DIR", default_value = "/")]
        install_root: PathBuf,
    },
    /// Plan many hosts offline from Ansible's fact cache: one tree per host and a table.
    ///
    /// Reads every host of a jsonfile fact cache directory (ansible.cfg: fact_caching =
    /// jsonfile, fact_caching_connection = DIR). Each host's facts (vCPUs, memory,
    /// distribution, container, IPv6, and the nginx -V the deploy/ansible role caches) give
    /// the inputs the host's own detection would, with the role's cached nginx_gen_host_inputs
    /// (host and group variables) over --input over them. Prints a table (host, vCPU,
    /// RAM, workers, connections, capacity, warnings); --out DIR writes each host's tree
    /// under DIR/HOST/. Changes nothing on any host. Exit codes: 0 every host planned,
    /// 1 the cache cannot be read, 2 a host's facts or inputs are invalid (named; the other
    /// hosts are still planned).
    Fleet {
        /// The fact cache directory, or a file of `ansible-inventory --list` (each host's
        /// variables read as its facts).
        #[arg(long, value_name = "DIR|FILE")]
        facts: PathBuf,
        /// Inputs for every host, as a JSON --input document (a host's nginx_gen_host_inputs
        /// win over it).
        #[arg(long, value_name = "FILE")]
        input: Option<PathBuf>,
        /// Write each host's files under DIR/HOST/ (DIR/HOST/etc/nginx/nginx.conf, …).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The table: text, or json.
        #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = PossibleValuesParser::new(["text", "json"]))]
        format: String,
    },
    /// Print the JSON schema of the --input document.
    Schema,
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: Shell,
    },
    /// Print the man page (roff).
    Man,
}

/// The inputs and where the output goes.
#[derive(Debug)]
pub struct Generate {
    /// The inputs given as flags (unset flags are `None`).
    pub inputs: RawInputs,
    /// Do not probe the host.
    pub no_detect: bool,
    /// The JSON input document to read.
    pub input: Option<PathBuf>,
    /// What to print.
    pub format: Option<String>,
    /// Where to write the files.
    pub out: Option<PathBuf>,
    /// The date the date-dependent warnings use (`YYYY-MM-DD`); the clock's if unset.
    pub today: Option<String>,
}

/// The inputs of `check` (those of generate) and its report format: `--format` is `text`
/// or `json` there; `--out` is not taken.
#[derive(Debug)]
pub struct CheckArgs {
    /// The inputs, as for generate (`format` and `out` unset).
    pub generate: Generate,
    /// The report as JSON.
    pub json: bool,
    /// `--out` was given (a usage error).
    pub out_given: bool,
}

impl Args for CheckArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        Generate::augment_args(cmd)
            .mut_arg("format", |a| {
                a.value_parser(PossibleValuesParser::new(["text", "json"]))
                    .help("The report: text, or json for monitoring [default: text]")
            })
            .mut_arg("out", |a| a.hide(true))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for CheckArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut generate = Generate::from_arg_matches(m)?;
        let json = generate.format.take().as_deref() == Some("json");
        let out_given = generate.out.take().is_some();
        Ok(Self {
            generate,
            json,
            out_given,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The flag of one registry input.
fn input_arg(input: &Input) -> Arg {
    let mut arg = Arg::new(input.name)
        .long(input.flag.long)
        .help(input.help_line())
        .help_heading(input.group.title());
    if let Some(short) = input.flag.short {
        arg = arg.short(short);
    }
    if input.is_switch() {
        return arg.action(ArgAction::SetTrue);
    }
    arg = arg
        .value_name(input.flag.value_name)
        .action(if input.repeatable() {
            ArgAction::Append
        } else {
            ArgAction::Set
        });
    match input.kind {
        Kind::Choice(names) => arg.value_parser(PossibleValuesParser::new(names)),
        // Negative numbers reach core, which names the range instead of clap guessing a flag.
        Kind::Int { .. } | Kind::Size { .. } => arg
            .value_parser(value_parser!(String))
            .allow_hyphen_values(true),
        _ => arg.value_parser(value_parser!(String)),
    }
}

/// The flags that are not inputs, placed among the inputs' headings by `augment_args`.
fn no_detect_arg() -> Arg {
    let d = inputs::defaults();
    Arg::new("no_detect")
        .long("no-detect")
        .action(ArgAction::SetTrue)
        .help(format!(
            "Do not probe the host; use the built-in defaults ({} vCPU, {}) for missing values",
            d.vcpu, d.ram
        ))
        .help_heading(Group::Machine.title())
}

fn output_args() -> [Arg; 4] {
    let heading = Group::Output.title();
    [
        Arg::new("input")
            .long("input")
            .value_name("FILE")
            .value_parser(value_parser!(PathBuf))
            .help("Read inputs from a JSON file (or - for stdin); flags override its values")
            .help_heading(heading),
        Arg::new("format")
            .long("format")
            .value_name("FORMAT")
            .value_parser(PossibleValuesParser::new(Format::NAMES))
            .help("What to print [default: all]")
            .help_heading(heading),
        Arg::new("out")
            .long("out")
            .value_name("DIR")
            .value_parser(value_parser!(PathBuf))
            .help(
                "Write the files under DIR (DIR/etc/nginx/nginx.conf, …) instead of printing them",
            )
            .help_heading(heading),
        Arg::new("today")
            .long("today")
            .value_name("DATE")
            .help("The date the CDN ranges' age is checked against (YYYY-MM-DD) [default: the clock's]")
            .help_heading(heading),
    ]
}

impl Args for Generate {
    /// Every registry input under its group's heading (the heading's order is the order of
    /// [`Group::ALL`]), `--no-detect` after the machine, `--input`, `--format` and `--out`
    /// before the output's inputs.
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for group in Group::ALL {
            if group == Group::Output {
                cmd = cmd.args(output_args());
            }
            for input in INPUTS.iter().filter(|i| i.group == group) {
                cmd = cmd.arg(input_arg(input));
            }
            if group == Group::Machine {
                cmd = cmd.arg(no_detect_arg());
            }
        }
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for Generate {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut inputs = RawInputs::default();
        for input in INPUTS {
            let value = if input.is_switch() {
                m.get_flag(input.name).then_some(RawValue::Bool(true))
            } else if input.repeatable() {
                m.get_many::<String>(input.name)
                    .map(|values| RawValue::List(values.cloned().collect()))
            } else {
                m.get_one::<String>(input.name).cloned().map(RawValue::Text)
            };
            inputs.set(input.name, value).map_err(|_| {
                clap::Error::raw(
                    clap::error::ErrorKind::InvalidValue,
                    format!("--{} does not fit its input's type\n", input.flag.long),
                )
            })?;
        }
        Ok(Self {
            inputs,
            no_detect: m.get_flag("no_detect"),
            input: m.get_one::<PathBuf>("input").cloned(),
            format: m.get_one::<String>("format").cloned(),
            out: m.get_one::<PathBuf>("out").cloned(),
            today: m.get_one::<String>("today").cloned(),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Generate {
    /// The inputs given as flags (unset flags are `None`).
    pub fn raw(&self) -> RawInputs {
        self.inputs.clone()
    }

    /// The chosen output format.
    pub fn format(&self) -> Format {
        self.format
            .as_deref()
            .and_then(|f| f.parse().ok())
            .unwrap_or(Format::All)
    }
}

/// The flag that sets a JSON field, for error messages.
pub fn flag_of(field: &str) -> Option<String> {
    inputs::input(field).map(|i| format!("--{}", i.flag.long))
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};
    use nginx_gen_core::Inputs;
    use nginx_gen_core::inputs::{INPUTS, RawValue};

    use super::Cli;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    #[test]
    fn check_takes_text_or_json_and_the_inputs() {
        let parse = |args: &[&str]| {
            let mut words = vec!["nginx-gen", "check"];
            words.extend(args);
            match Cli::try_parse_from(words).map(|c| c.command) {
                Ok(Some(super::Command::Check { check, .. })) => Ok(check),
                Ok(other) => panic!("{other:?}"),
                Err(e) => Err(e),
            }
        };
        let c = parse(&["--format", "json", "--vcpu", "2"]).unwrap();
        assert!(c.json && !c.out_given);
        assert_eq!(
            c.generate.raw().get("vcpu"),
            Some(RawValue::Text("2".into()))
        );
        assert!(c.generate.format.is_none());
        assert!(!parse(&["--format", "text"]).unwrap().json);
        assert!(!parse(&[]).unwrap().json);
        assert!(parse(&["--format", "nginx"]).is_err());
        assert!(parse(&["--out", "/tmp/x"]).unwrap().out_given);
        let help = Cli::command()
            .find_subcommand_mut("check")
            .unwrap()
            .render_long_help()
            .to_string();
        assert!(help.contains("text, or json for monitoring"), "{help}");
        assert!(!help.contains("--out"), "{help}");
    }

    #[test]
    fn every_registry_input_has_exactly_its_flag() {
        let cmd = Cli::command();
        for input in INPUTS {
            let matching: Vec<_> = cmd
                .get_arguments()
                .filter(|a| a.get_long() == Some(input.flag.long))
                .collect();
            assert_eq!(matching.len(), 1, "--{}", input.flag.long);
            let arg = matching[0];
            assert_eq!(arg.get_id(), input.name);
            assert_eq!(arg.get_short(), input.flag.short);
            assert_eq!(arg.get_help_heading(), Some(input.group.title()));
            assert_eq!(
                arg.get_action().takes_values(),
                !input.is_switch(),
                "{}",
                input.name
            );
        }
    }

    #[test]
    fn a_short_name_in_the_registry_reaches_clap() {
        let input = nginx_gen_core::inputs::Input {
            flag: nginx_gen_core::inputs::Flag::value("vcpu", "N").with_short('c'),
            ..INPUTS[0]
        };
        let arg = super::input_arg(&input);
        assert_eq!(arg.get_short(), Some('c'));
        assert_eq!(arg.get_long(), Some("vcpu"));
    }

    /// Every input, set to its sample: `to_command` read back by this CLI's flags gives the
    /// same inputs, so every registry entry has a flag that means what the JSON field means.
    #[test]
    fn every_input_round_trips_through_the_command_line() {
        for input in INPUTS {
            let raw = Inputs::sample_document(input.name).unwrap();
            let inputs = Inputs::from_raw(&raw).unwrap();
            assert_ne!(inputs, Inputs::default(), "{}", input.name);
            let command = inputs.to_command();
            let words: Vec<&str> = command.split(' ').collect();
            let cli = Cli::try_parse_from(&words).unwrap_or_else(|e| panic!("{command}: {e}"));
            let parsed = Inputs::from_raw(&cli.generate.raw()).unwrap();
            assert_eq!(parsed, inputs, "{command}");
            assert!(
                matches!(
                    cli.generate.raw().get(input.name),
                    Some(RawValue::Text(_) | RawValue::List(_) | RawValue::Bool(true))
                ),
                "{command}"
            );
        }
    }
}
