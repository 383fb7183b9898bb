//! Translations: one catalogue per language, applied when the plan is rendered.
//!
//! The plan holds English only: every text the output shows is a registry entry with a
//! stable id and its English template ([`Text`]): reasons and warnings
//! ([`crate::rules::texts`]), the renderers' labels, titles and header lines
//! ([`crate::render::TEXTS`]) and the input error messages ([`crate::inputs::TEXTS`]).
//! [`english`] lists them all. A renderer given a [`Catalogue`] looks each text up by id
//! and falls back to the English.
//!
//! Catalogues are data, `core/i18n/<lang>.json`:
//!
//! ```json
//! { "lang": "de",
//!   "texts": { "sendfile": { "from": "5f0e6c2a3d4b1e77", "text": "Dateien …" }, … } }
//! ```
//!
//! `from` is the [`fingerprint`] of the English template the text was translated from, so
//! a changed English text makes its translations stale ([`Catalogue::check`] lists them;
//! a test fails on any). Ids starting with `ui.` belong to the web page's own text and are
//! checked by the page's tests. Core has no file access: the CLI builds the files in with
//! `include_str!`, the page and the module fetch them.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::inputs::Lang;
use crate::plan::Reason;
use crate::rules::Text;

/// Every English text of the output, each id once: reasons and warnings, the renderers'
/// texts, the input error messages.
pub fn english() -> impl Iterator<Item = &'static Text> {
    crate::rules::texts()
        .chain(crate::render::TEXTS.iter().copied())
        .chain(crate::inputs::TEXTS.iter().copied())
}

/// FNV-1a 64 of an English template, as 16 hex digits: a catalogue entry's `from`.
pub fn fingerprint(text: &str) -> String {
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// FNV-1a 64 (a `const fn`, so a file compiled in can be fingerprinted while compiling).
pub(crate) const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

/// One translated text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// [`fingerprint`] of the English it was translated from.
    pub from: String,
    /// The translation, with the English template's `{placeholders}`.
    pub text: String,
}

/// The translations of one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    /// Its language.
    pub lang: Lang,
    /// Translations by id.
    pub texts: Texts,
}

/// Translations by id: a list kept sorted by id and searched by bisection. (Not a
/// `BTreeMap`: its code was 18 KB of the page's `.wasm`, for a few hundred entries that
/// are read once and looked up by id.)
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Texts(Vec<(String, Entry)>);

impl Texts {
    /// No translations.
    pub const fn new() -> Self {
        Self(Vec::new())
    }

    fn find(&self, id: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(id))
    }

    /// The entry of `id`.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.find(id).ok().map(|i| &self.0[i].1)
    }

    /// The entry of `id`, to change it.
    pub fn get_mut(&mut self, id: &str) -> Option<&mut Entry> {
        self.find(id).ok().map(|i| &mut self.0[i].1)
    }

    /// Sets the entry of `id`, returning the one it replaces.
    pub fn insert(&mut self, id: String, entry: Entry) -> Option<Entry> {
        match self.find(&id) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, entry)),
            Err(i) => {
                self.0.insert(i, (id, entry));
                None
            }
        }
    }

    /// Removes the entry of `id`.
    pub fn remove(&mut self, id: &str) -> Option<Entry> {
        self.find(id).ok().map(|i| self.0.remove(i).1)
    }

    /// The ids, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    /// The ids and their entries, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Entry)> {
        self.0.iter().map(|(k, e)| (k, e))
    }

    /// The entries, in id order.
    pub fn values(&self) -> impl Iterator<Item = &Entry> {
        self.0.iter().map(|(_, e)| e)
    }

    /// How many translations.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Default for Catalogue {
    /// English (an empty catalogue), built without cloning [`Catalogue::english`].
    fn default() -> Self {
        Self {
            lang: Lang::En,
            texts: Texts::new(),
        }
    }
}

static ENGLISH: Catalogue = Catalogue {
    lang: Lang::En,
    texts: Texts::new(),
};

/// A catalogue file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueError(pub String);

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a translation catalogue: {}", self.0)
    }
}

impl std::error::Error for CatalogueError {}

/// What is wrong with a catalogue against today's English.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Ids whose English changed since they were translated (`from` differs).
    pub stale: Vec<&'static str>,
    /// Ids with no translation.
    pub missing: Vec<&'static str>,
    /// Ids the registry does not have (and that are not the page's `ui.` ids).
    pub unknown: Vec<String>,
    /// Ids whose translation has other `{placeholders}` than the English.
    pub placeholders: Vec<&'static str>,
}

impl Report {
    /// Whether the catalogue is complete and current.
    pub fn is_clean(&self) -> bool {
        self.stale.is_empty()
            && self.missing.is_empty()
            && self.unknown.is_empty()
            && self.placeholders.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = |what: &str, ids: &[&str]| {
            if ids.is_empty() {
                Ok(())
            } else {
                writeln!(f, "  {what} ({}): {}", ids.len(), ids.join(", "))
            }
        };
        line("stale: English changed since translated", &self.stale)?;
        line("missing", &self.missing)?;
        let unknown: Vec<&str> = self.unknown.iter().map(String::as_str).collect();
        line("unknown ids", &unknown)?;
        line("placeholders differ from the English", &self.placeholders)
    }
}

/// The `{name}` placeholders of a template, sorted.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        names.push(&rest[open + 1..open + close]);
        rest = &rest[open + close + 1..];
    }
    names.sort_unstable();
    names
}

/// `template` with each `{name}` replaced by its value; unknown names stay as written.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 1..open + close];
        match values.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => out.push_str(v),
            None => out.push_str(&rest[open..=open + close]),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

impl Catalogue {
    /// English: no translations, every text is the registry's.
    pub fn english() -> &'static Self {
        &ENGLISH
    }

    /// Reads a catalogue file (`core/i18n/<lang>.json`).
    ///
    /// Read by core's own JSON reader (`crate::json`); keys other than `lang` and `texts`
    /// (and than `from` and `text` in an entry) are ignored.
    pub fn from_json(text: &str) -> Result<Self, CatalogueError> {
        Self::read(text).map_err(|e| CatalogueError(e.to_string()))
    }

    fn read(text: &str) -> Result<Self, crate::json::Error> {
        use crate::json::{MAX_DEPTH, Reader};
        /// A string value, set once.
        fn string(
            r: &mut Reader<'_>,
            slot: &mut Option<String>,
            name: &str,
        ) -> Result<(), crate::json::Error> {
            if slot.is_some() {
                return Err(r.error(format!("duplicate field `{name}`"), false));
            }
            *slot = Some(r.string().map_err(|mut e| {
                if !e.message.starts_with("EOF") {
                    e.message = format!("invalid type for `{name}`, expected a string");
                }
                e
            })?);
            Ok(())
        }
        let mut r = Reader::new(text)?;
        let (mut lang, mut texts) = (None, None);
        let mut first = true;
        while let Some(key) = r.next_key(&mut first)? {
            match key.as_str() {
                "lang" => string(&mut r, &mut lang, "lang")?,
                "texts" if texts.is_some() => {
                    return Err(r.error("duplicate field `texts`", false));
                }
                "texts" => {
                    let mut map = Texts::new();
                    let mut first = true;
                    while let Some(id) = r.next_key(&mut first)? {
                        let (mut from, mut text) = (None, None);
                        let mut first = true;
                        while let Some(key) = r.next_key(&mut first)? {
                            match key.as_str() {
                                "from" => string(&mut r, &mut from, "from")?,
                                "text" => string(&mut r, &mut text, "text")?,
                                // Other keys are ignored, as they were.
                                _ => r.skip(MAX_DEPTH)?,
                            }
                        }
                        let (Some(from), Some(text)) = (from, text) else {
                            return Err(
                                r.error(format!("`{id}`: missing field `from` or `text`"), false)
                            );
                        };
                        map.insert(id, Entry { from, text });
                    }
                    texts = Some(map);
                }
                _ => r.skip(MAX_DEPTH)?,
            }
        }
        if !r.at_end() {
            return Err(r.error("trailing characters", true));
        }
        let lang = lang.ok_or_else(|| r.error("missing field `lang`", false))?;
        let lang = lang.parse::<Lang>().map_err(|()| {
            r.error(
                format!(
                    "unknown variant `{lang}`, expected one of {}",
                    Lang::NAMES.join(", ")
                ),
                false,
            )
        })?;
        let texts = texts.ok_or_else(|| r.error("missing field `texts`", false))?;
        Ok(Self { lang, texts })
    }

    /// The catalogue as its file's JSON, in registry order, one entry per line.
    pub fn to_json(&self) -> String {
        let order: BTreeMap<&str, usize> = english().enumerate().map(|(i, t)| (t.id, i)).collect();
        let mut entries: Vec<(&String, &Entry)> = self.texts.iter().collect();
        entries.sort_by_key(|(id, _)| (order.get(id.as_str()).copied().unwrap_or(usize::MAX), *id));
        let mut out = format!("{{\n  \"lang\": \"{}\",\n  \"texts\": {{", self.lang);
        for (i, (id, entry)) in entries.into_iter().enumerate() {
            let key = serde_json::to_string(id).unwrap_or_default();
            let value = serde_json::to_string(entry).unwrap_or_default();
            out.push_str(if i == 0 { "\n    " } else { ",\n    " });
            out.push_str(&key);
            out.push_str(": ");
            out.push_str(&value);
        }
        out.push_str("\n  }\n}\n");
        out
    }

    /// The text of `text` in this language: its translation, or the English.
    pub fn get<'a>(&'a self, text: &'a Text) -> &'a str {
        self.lookup(text.id).unwrap_or(text.en)
    }

    /// The translation of id `id`, if there is one.
    pub fn lookup(&self, id: &str) -> Option<&str> {
        self.texts.get(id).map(|e| e.text.as_str())
    }

    /// [`Self::get`] with each `{name}` replaced by its value.
    pub fn fill(&self, text: &Text, values: &[(&str, &str)]) -> String {
        fill(self.get(text), values)
    }

    /// A reason's explanation in this language (the plan holds the English).
    pub fn why<'a>(&'a self, reason: &'a Reason) -> Cow<'a, str> {
        match self.lookup(reason.id) {
            Some(text) => crate::policy::fill_versions(text),
            None => Cow::Borrowed(&reason.why),
        }
    }

    /// Stale, missing, unknown and mismatched entries against today's English.
    pub fn check(&self) -> Report {
        let mut report = Report::default();
        let mut known = std::collections::BTreeSet::new();
        for t in english() {
            known.insert(t.id);
            match self.texts.get(t.id) {
                None => report.missing.push(t.id),
                Some(entry) => {
                    if entry.from != fingerprint(t.en) {
                        report.stale.push(t.id);
                    }
                    if placeholders(&entry.text) != placeholders(t.en) {
                        report.placeholders.push(t.id);
                    }
                }
            }
        }
        report.unknown = self
            .texts
            .keys()
            .filter(|id| !id.starts_with("ui.") && !known.contains(id.as_str()))
            .cloned()
            .collect();
        report
    }
}

/// The catalogue files as the repository has them: what the CLI builds in.
pub const FILES: [(Lang, &str); 4] = [
    (Lang::De, include_str!("../i18n/de.json")),
    (Lang::Nl, include_str!("../i18n/nl.json")),
    (Lang::Ru, include_str!("../i18n/ru.json")),
    (Lang::Es, include_str!("../i18n/es.json")),
];

/// The built-in catalogue of `lang` (English has none). Only for front ends that ship all
/// languages (the CLI, tests); the page and the module load theirs on demand and should
/// not call this, so that the files stay out of their bundles.
///
/// # Panics
/// When a built-in file is not a catalogue, which the tests rule out.
pub fn built_in(lang: Lang) -> Catalogue {
    FILES.iter().find(|(l, _)| *l == lang).map_or_else(
        || Catalogue::english().clone(),
        |(_, json)| Catalogue::from_json(json).expect("the built-in catalogues are valid"),
    )
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use crate::inputs::{Inputs, RawInputs};
    use crate::plan::Plan;

    #[test]
    fn every_catalogue_is_complete_and_current() {
        let mut problems = String::new();
        for (lang, json) in FILES {
            let cat = Catalogue::from_json(json).unwrap_or_else(|e| panic!("{lang}: {e}"));
            assert_eq!(
                cat.lang, lang,
                "core/i18n/{lang}.json names another language"
            );
            let report = cat.check();
            if !report.is_clean() {
                let _ = write!(problems, "core/i18n/{lang}.json:\n{report}");
            }
        }
        assert!(
            problems.is_empty(),
            "translations to update (after translating, set `from` to the English's \
             fingerprint: `cargo run -p nginx-gen-core --example i18n-status` prints both):\n\
             {problems}"
        );
    }

    #[test]
    fn catalogue_files_are_written_canonically() {
        for (lang, json) in FILES {
            let cat = Catalogue::from_json(json).unwrap();
            assert_eq!(
                cat.to_json(),
                json,
                "{lang}: rewrite with the i18n-status example"
            );
            for (id, entry) in cat.texts.iter() {
                assert!(!entry.text.trim().is_empty(), "{lang}: {id} is blank");
            }
        }
    }

    #[test]
    fn english_ids_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for t in english() {
            assert!(seen.insert(t.id), "{} twice in the registry", t.id);
        }
        assert!(seen.len() > 200, "only {} texts", seen.len());
    }

    #[test]
    fn the_check_names_stale_missing_unknown_and_placeholder_mismatches() {
        let mut cat = built_in(Lang::De);
        cat.texts.get_mut("gzip").unwrap().from = fingerprint("an older English text");
        cat.texts.remove("sendfile");
        cat.texts.insert(
            "no.such.id".into(),
            Entry {
                from: String::new(),
                text: "x".into(),
            },
        );
        cat.texts.insert(
            "ui.anything".into(),
            Entry {
                from: String::new(),
                text: "x".into(),
            },
        );
        cat.texts.get_mut("http3_firewall").unwrap().text = "UDP {prot}".into();
        let report = cat.check();
        assert_eq!(report.stale, ["gzip"]);
        assert_eq!(report.missing, ["sendfile"]);
        assert_eq!(report.unknown, ["no.such.id"]);
        assert_eq!(report.placeholders, ["http3_firewall"]);
        let shown = report.to_string();
        assert!(
            shown.contains("stale: English changed since translated (1): gzip"),
            "{shown}"
        );
    }

    #[test]
    fn fingerprints_are_fnv1a_64() {
        assert_eq!(fingerprint(""), "cbf29ce484222325");
        assert_eq!(fingerprint("a"), "af63dc4c8601ec8c");
    }

    #[test]
    fn reasons_are_translated_at_render_time_with_versions_filled() {
        let plan = Plan::new(&Inputs::default());
        let de = built_in(Lang::De);
        let sendfile = &plan.get("sendfile").unwrap().reason;
        assert_eq!(de.why(sendfile), de.lookup("sendfile").unwrap());
        assert_eq!(Catalogue::english().why(sendfile), sendfile.why);
        // A reason whose text names a version through a `{Feature}` placeholder.
        let tls = Plan::new(&Inputs::from_json(r#"{"tls":true,"nginx_version":"1.22"}"#).unwrap());
        let reasons: Vec<&Reason> = tls
            .settings
            .iter()
            .map(|s| &s.reason)
            .chain(tls.omitted.iter().map(|o| &o.reason))
            .filter(|r| de.lookup(r.id).is_some_and(|t| t.contains('{')))
            .collect();
        assert!(!reasons.is_empty());
        for reason in reasons {
            let text = de.why(reason);
            assert!(
                !text.contains('{') && text != de.lookup(reason.id).unwrap(),
                "{text}"
            );
        }
    }

    #[test]
    fn plans_do_not_depend_on_the_language() {
        let raw = |lang: &str| RawInputs {
            lang: Some(lang.into()),
            tls: Some(true),
            ..RawInputs::default()
        };
        let en = Plan::new(&Inputs::from_raw(&raw("en")).unwrap());
        let de = Plan::new(&Inputs::from_raw(&raw("de")).unwrap());
        assert_eq!(en.settings, de.settings);
        assert_eq!(en.omitted, de.omitted);
        assert_eq!(en.warnings, de.warnings);
    }

    #[test]
    fn unknown_keys_are_ignored_and_the_last_id_wins() {
        let cat = Catalogue::from_json(
            r#"{"note": [1, {"x": null}], "lang": "de", "texts": {"a": {"from": "f", "text": "1", "by": "x"}, "a": {"from": "g", "text": "\u00e9"}}}"#,
        )
        .unwrap();
        assert_eq!(cat.lang, Lang::De);
        assert_eq!(cat.texts.len(), 1);
        assert_eq!(cat.texts.get("a").unwrap().from, "g");
        assert_eq!(cat.texts.get("a").unwrap().text, "\u{e9}");
    }

    #[test]
    fn a_broken_file_is_an_error_not_a_panic() {
        for bad in [
            "",
            "{",
            "[]",
            r#"{"lang":"xx","texts":{}}"#,
            r#"{"lang":"de"}"#,
            r#"{"lang":"de","lang":"de","texts":{}}"#,
            r#"{"lang":"de","texts":{"a":{"from":"x"}}}"#,
            r#"{"lang":"de","texts":{"a":{"from":"x","text":1}}}"#,
            r#"{"lang":"de","texts":{"a":"x"}}"#,
            r#"{"lang":4,"texts":{}}"#,
            r#"{"lang":"de","texts":{}} x"#,
        ] {
            assert!(Catalogue::from_json(bad).is_err(), "{bad}");
        }
    }
}
