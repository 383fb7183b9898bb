//! Which translations are stale or missing, and a helper to add new ones.
//!
//! ```sh
//! cargo run -p nginx-gen-core --example i18n-status            # the report
//! cargo run -p nginx-gen-core --example i18n-status -- --merge new.json
//! ```
//!
//! The report lists, per language, every id whose English changed since it was
//! translated (with the old translation, today's English and its fingerprint) and every
//! id without a translation. `--merge FILE` reads `{"de": {"id": "text", …}, …}`, sets
//! each text with `from` = today's English fingerprint, and rewrites `core/i18n/*.json`
//! in canonical form. Exit status 1 when anything is stale or missing.
#![allow(
    clippy::disallowed_methods,
    reason = "a developer tool beside the library: it reads and writes the catalogue files"
)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use nginx_gen_core::Lang;
use nginx_gen_core::i18n::{self, Catalogue, Entry, Texts};

fn path(lang: Lang) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("i18n/{lang}.json"))
}

fn load(lang: Lang) -> Catalogue {
    let text = std::fs::read_to_string(path(lang)).unwrap_or_default();
    Catalogue::from_json(&text).unwrap_or_else(|_| Catalogue {
        lang,
        texts: Texts::new(),
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, file] = args.as_slice()
        && flag == "--merge"
    {
        let new: BTreeMap<String, BTreeMap<String, String>> =
            match std::fs::read_to_string(file).map(|t| serde_json::from_str(&t)) {
                Ok(Ok(new)) => new,
                Ok(Err(e)) => return fail(&format!("{file}: {e}")),
                Err(e) => return fail(&format!("{file}: {e}")),
            };
        let english: BTreeMap<&str, &str> = i18n::english().map(|t| (t.id, t.en)).collect();
        for (lang, texts) in new {
            let Ok(lang) = lang.parse::<Lang>() else {
                return fail(&format!("unknown language {lang}"));
            };
            let mut cat = load(lang);
            for (id, text) in texts {
                let Some(en) = english.get(id.as_str()) else {
                    return fail(&format!("{lang}: {id} is not an id of the registry"));
                };
                let from = i18n::fingerprint(en);
                cat.texts.insert(id, Entry { from, text });
            }
            if let Err(e) = std::fs::write(path(lang), cat.to_json()) {
                return fail(&format!("{}: {e}", path(lang).display()));
            }
        }
    } else if !args.is_empty() {
        return fail("usage: i18n-status [--merge FILE]");
    }
    let mut clean = true;
    for &lang in Lang::ALL.iter().filter(|l| **l != Lang::En) {
        let cat = load(lang);
        let report = cat.check();
        if report.is_clean() {
            println!("{lang}: complete and current ({} texts)", cat.texts.len());
            continue;
        }
        clean = false;
        print!("{lang}:\n{report}");
        for t in i18n::english().filter(|t| report.stale.contains(&t.id)) {
            println!("  {} (English now {}):", t.id, i18n::fingerprint(t.en));
            println!("    en: {}", t.en);
            println!(
                "    {lang}: {}",
                cat.texts.get(t.id).map_or("", |e| e.text.as_str())
            );
        }
    }
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("i18n-status: {message}");
    ExitCode::from(2)
}
