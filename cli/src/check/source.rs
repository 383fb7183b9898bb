//! Where `check` takes its inputs from: the flags and `--input` when any is given, else the
//! `command` of the manifest `apply` left (`/var/lib/nginx-gen/manifest.json`), read back
//! by the same flag definitions, else detection as `generate` does.

use std::path::Path;

use clap::Parser;

use crate::apply::manifest::{self, Manifest};
use crate::args::{Cli, Generate};

/// Splits a command line as a POSIX shell does for words: blanks separate words; single
/// quotes keep everything; double quotes keep everything but `\"`, `\\`, `\$` and `` \` ``;
/// outside quotes a backslash keeps the next character. `Plan::command` quotes nothing (no
/// input value holds a blank), so this reads it and any quoting a person added to it.
pub fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err("an unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\' | '$' | '`')) => word.push(e),
                            Some(e) => {
                                word.push('\\');
                                word.push(e);
                            }
                            None => return Err("an unterminated double quote".into()),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err("an unterminated double quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') | None => {}
                    Some(e) => word.push(e),
                }
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// The inputs of a manifest's `command`, parsed by the CLI's own flags.
pub fn generate_of_command(command: &str) -> Result<Generate, String> {
    let words = shell_words(command)?;
    if words.first().map(String::as_str) != Some("nginx-gen") {
        return Err(format!(
            "the command does not start with nginx-gen: {command}"
        ));
    }
    let cli = Cli::try_parse_from(&words).map_err(|e| {
        let text = e.to_string();
        text.lines().next().unwrap_or_default().to_owned()
    })?;
    if cli.command.is_some() {
        return Err(format!("the command is not one of generate's: {command}"));
    }
    Ok(cli.generate)
}

/// Whether any input flag or `--input` was given.
pub fn inputs_given(args: &Generate) -> bool {
    args.input.is_some() || args.inputs != nginx_gen_core::RawInputs::default()
}

/// The inputs to plan with and a phrase saying where they came from; an unreadable
/// manifest or a command that does not parse is an error (bad input: exit 2).
pub fn choose(args: Generate, root: &Path) -> Result<(Generate, String), String> {
    if inputs_given(&args) {
        let from = match &args.input {
            Some(path) => format!("--input {} and the flags", path.display()),
            None => "the flags".into(),
        };
        return Ok((args, from));
    }
    let path = root.join(manifest::PATH.trim_start_matches('/'));
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let m = Manifest::from_json(&text)
                .map_err(|e| format!("{} is not a manifest: {e}", path.display()))?;
            let generate = generate_of_command(&m.command)
                .map_err(|e| format!("the command in {}: {e}", path.display()))?;
            Ok((generate, format!("the command in {}", path.display())))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let from = if args.no_detect {
                "the built-in defaults (--no-detect), without a manifest"
            } else {
                "this host's detection, as generate does, without a manifest"
            };
            Ok((args, from.into()))
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nginx_gen_core::Inputs;

    #[test]
    fn words_as_a_shell_splits_them() {
        assert_eq!(
            shell_words("nginx-gen --vcpu 2  --root '/srv/my site' --x \"a\\\"b\" c\\ d").unwrap(),
            [
                "nginx-gen",
                "--vcpu",
                "2",
                "--root",
                "/srv/my site",
                "--x",
                "a\"b",
                "c d"
            ]
        );
        assert_eq!(shell_words("a '' b").unwrap(), ["a", "", "b"]);
        assert!(shell_words("a 'b").is_err());
        assert!(shell_words("a \"b").is_err());
        assert!(shell_words("").unwrap().is_empty());
    }

    #[test]
    fn a_plans_command_reads_back_to_its_inputs() {
        let inputs = Inputs::from_raw(&Inputs::sample_document("server_names").unwrap()).unwrap();
        let generate = generate_of_command(&inputs.to_command()).unwrap();
        assert!(generate.no_detect);
        assert_eq!(Inputs::from_raw(&generate.raw()).unwrap(), inputs);
        assert!(generate_of_command("nginx-gen --vcpu two").is_ok());
        assert!(generate_of_command("nginx-gen --bogus 1").is_err());
        assert!(generate_of_command("rm -rf /").is_err());
        assert!(generate_of_command("nginx-gen schema").is_err());
    }

    #[test]
    fn flags_win_then_the_manifest_then_detection() {
        let dir = tempfile::tempdir().unwrap();
        let none = Cli::try_parse_from(["nginx-gen"]).unwrap().generate;
        let (_, from) = choose(none, dir.path()).unwrap();
        assert!(from.contains("detection"), "{from}");
        let lib = dir.path().join("var/lib/nginx-gen");
        std::fs::create_dir_all(&lib).unwrap();
        let m = Manifest {
            command: "nginx-gen --no-detect --vcpu 3 --ram 2G".into(),
            ..Manifest::default()
        };
        std::fs::write(lib.join("manifest.json"), m.to_json()).unwrap();
        let none = Cli::try_parse_from(["nginx-gen", "--no-detect"])
            .unwrap()
            .generate;
        let (g, from) = choose(none, dir.path()).unwrap();
        assert!(from.contains("manifest.json"), "{from}");
        assert_eq!(Inputs::from_raw(&g.raw()).unwrap().vcpu, 3);
        let flags = Cli::try_parse_from(["nginx-gen", "--vcpu", "5"])
            .unwrap()
            .generate;
        let (g, from) = choose(flags, dir.path()).unwrap();
        assert_eq!(
            (Inputs::from_raw(&g.raw()).unwrap().vcpu, from.as_str()),
            (5, "the flags")
        );
        std::fs::write(lib.join("manifest.json"), "{").unwrap();
        let none = Cli::try_parse_from(["nginx-gen"]).unwrap().generate;
        assert!(choose(none, dir.path()).is_err());
    }
}
