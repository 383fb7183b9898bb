//! Translations of the reason texts.
//!
//! Every reason has a stable id (see [`crate::plan::Reason::id`]); a translation is looked
//! up by language and id, and English is used where none exists.

use crate::inputs::Lang;

/// The translation of reason `id` into `lang`, if there is one.
pub fn translate(lang: Lang, id: &str) -> Option<&'static str> {
    let table: &[(&str, &str)] = match lang {
        Lang::En | Lang::De | Lang::Nl | Lang::Ru | Lang::Es => &[],
    };
    table.iter().find(|(k, _)| *k == id).map(|(_, v)| *v)
}
