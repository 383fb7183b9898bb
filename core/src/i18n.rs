//! Translations of the reason texts.
//!
//! Every reason has a stable id (see [`crate::plan::Reason::id`]); a translation is looked
//! up by language and id, and English is used where none exists. English is the text
//! built into the plan; the catalogues of the other languages live in `i18n/<lang>.rs`,
//! one `(id, text)` pair per reason. A test below walks a grid of inputs and fails when
//! a reason the plan can produce has no translation.

mod de;
mod es;
mod nl;
mod ru;

use crate::inputs::Lang;

fn table(lang: Lang) -> &'static [(&'static str, &'static str)] {
    match lang {
        Lang::En => &[],
        Lang::De => de::TABLE,
        Lang::Nl => nl::TABLE,
        Lang::Ru => ru::TABLE,
        Lang::Es => es::TABLE,
    }
}

/// The translation of reason `id` into `lang`, if there is one.
pub fn translate(lang: Lang, id: &str) -> Option<&'static str> {
    // Each catalogue sorted by id once, then searched: a plan looks up ~100 reasons.
    type Sorted = std::sync::LazyLock<Vec<(&'static str, &'static str)>>;
    fn sorted(lang: Lang) -> Vec<(&'static str, &'static str)> {
        let mut rows = table(lang).to_vec();
        rows.sort_unstable();
        rows
    }
    static DE: Sorted = Sorted::new(|| sorted(Lang::De));
    static NL: Sorted = Sorted::new(|| sorted(Lang::Nl));
    static RU: Sorted = Sorted::new(|| sorted(Lang::Ru));
    static ES: Sorted = Sorted::new(|| sorted(Lang::Es));
    let rows: &[(&str, &str)] = match lang {
        Lang::En => return None,
        Lang::De => &DE,
        Lang::Nl => &NL,
        Lang::Ru => &RU,
        Lang::Es => &ES,
    };
    rows.binary_search_by_key(&id, |(k, _)| k)
        .ok()
        .map(|i| rows[i].1)
}

/// Every translated text, for tests of the text writers.
#[cfg(test)]
pub(crate) fn all_texts() -> impl Iterator<Item = &'static str> {
    [Lang::De, Lang::Nl, Lang::Ru, Lang::Es]
        .into_iter()
        .flat_map(|lang| table(lang).iter().map(|(_, text)| *text))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::inputs::{Inputs, RawInputs};
    use crate::plan::Plan;

    /// Every reason id reachable from a grid of inputs that switches each branch of the
    /// plan: workloads, TLS and its options, load balancer, versions, layouts, sizes.
    fn reachable_ids() -> BTreeSet<&'static str> {
        let mut ids = BTreeSet::new();
        let sizes = [
            (1, "512M", "10"),
            (2, "2G", "100000"),
            (4, "8G", "1000"),
            (16, "64G", "5000000"),
            (64, "256G", "10000000"),
        ];
        for workload in ["static", "proxy", "api", "mixed"] {
            for (tls, http3, ocsp) in [
                (false, false, false),
                (true, false, false),
                (true, true, true),
                (true, false, true),
            ] {
                for (nginx, openssl) in [
                    ("1.22", "3.0"),
                    ("1.30", "3.5"),
                    ("1.18", "1.1.1"),
                    ("1.25.0", "3.0"),
                ] {
                    for behind_lb in [false, true] {
                        for brotli in [false, true] {
                            for (i, (vcpu, ram, files)) in sizes.iter().enumerate() {
                                let layout = ["debian", "rhel", "nginx-org", "docker"][i % 4];
                                let upstreams = if i % 2 == 0 {
                                    vec!["127.0.0.1:8080".to_owned()]
                                } else {
                                    vec!["10.0.0.2:9000".to_owned(), "app.internal:3000".to_owned()]
                                };
                                let raw = RawInputs {
                                    vcpu: Some((*vcpu).into()),
                                    ram: Some((*ram).into()),
                                    workload: Some(workload.into()),
                                    nginx_version: Some(nginx.into()),
                                    openssl_version: Some(openssl.into()),
                                    tls: Some(tls),
                                    http3: Some(http3 && nginx != "1.22" && nginx != "1.18"),
                                    ocsp_stapling: Some(ocsp),
                                    tls_profile: Some(
                                        if i % 2 == 0 { "intermediate" } else { "modern" }.into(),
                                    ),
                                    behind_lb: Some(behind_lb),
                                    brotli: Some(brotli),
                                    static_files: Some(crate::inputs::Scalar::Text(
                                        (*files).into(),
                                    )),
                                    upstreams: Some(upstreams),
                                    layout: Some(layout.into()),
                                    ..RawInputs::default()
                                };
                                let inputs = Inputs::from_raw(&raw)
                                    .unwrap_or_else(|e| panic!("{raw:?}: {e}"));
                                let plan = Plan::new(&inputs);
                                ids.extend(plan.settings.iter().map(|s| s.reason.id));
                                ids.extend(plan.omitted.iter().map(|o| o.reason.id));
                            }
                        }
                    }
                }
            }
        }
        ids
    }

    #[test]
    fn every_reachable_reason_is_translated() {
        let ids = reachable_ids();
        assert!(
            ids.len() > 100,
            "the grid reaches only {} reasons",
            ids.len()
        );
        for &lang in Lang::ALL.iter().filter(|l| **l != Lang::En) {
            let missing: Vec<_> = ids
                .iter()
                .filter(|id| translate(lang, id).is_none())
                .collect();
            assert!(missing.is_empty(), "{lang}: no translation for {missing:?}");
        }
    }

    #[test]
    fn catalogues_have_no_duplicates_or_blanks() {
        for &lang in Lang::ALL {
            let mut seen = BTreeSet::new();
            for (id, text) in table(lang) {
                assert!(seen.insert(*id), "{lang}: {id} twice");
                assert!(!text.trim().is_empty(), "{lang}: {id} is blank");
            }
        }
    }

    #[test]
    fn english_is_built_in_and_plans_use_translations() {
        assert_eq!(translate(Lang::En, "sendfile"), None);
        let inputs = Inputs {
            lang: Lang::De,
            ..Inputs::default()
        };
        let plan = Plan::new(&inputs);
        assert_eq!(
            plan.get("sendfile").unwrap().reason.why,
            translate(Lang::De, "sendfile").unwrap()
        );
    }
}
