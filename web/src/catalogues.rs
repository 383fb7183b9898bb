//! The other languages, loaded on demand: English is built in; choosing another language
//! fetches its catalogue (`i18n/<lang>.json`, the core's file, copied into the build by
//! trunk) once, keeps it for the session, and only then switches, so the plan is not
//! recomputed and the page never shows a half-translated state. The service worker keeps
//! every fetched catalogue for offline use.

use std::cell::RefCell;
use std::rc::Rc;

use nginx_gen_core::Lang;
use nginx_gen_core::i18n::Catalogue;

thread_local! {
    static LOADED: RefCell<Vec<Rc<Catalogue>>> = const { RefCell::new(Vec::new()) };
}

/// The address of a language's catalogue, relative to the page.
pub fn url(lang: Lang) -> String {
    format!("i18n/{lang}.json")
}

/// Reads a fetched catalogue; it must be the language asked for.
pub fn parse(lang: Lang, text: &str) -> Result<Catalogue, String> {
    let cat = read(text)?;
    if cat.lang == lang {
        Ok(cat)
    } else {
        Err(format!("{} holds {}", url(lang), cat.lang))
    }
}

/// In the browser, the engine's `JSON.parse` reads the file: core's JSON reader would add
/// 3.5 KB to the page for a document the browser reads anyway. `lang` and `texts` are
/// read as core reads them (other keys ignored; an entry needs its `from` and `text`).
#[cfg(target_arch = "wasm32")]
fn read(text: &str) -> Result<Catalogue, String> {
    use nginx_gen_core::i18n::{Entry, Texts};
    use wasm_bindgen::{JsCast, JsValue};
    let not = |what: &str| format!("not a translation catalogue: {what}");
    let doc = js_sys::JSON::parse(text).map_err(|_| not("not JSON"))?;
    let field = |value: &JsValue, key: &str| {
        js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    };
    let lang = field(&doc, "lang")
        .as_string()
        .ok_or_else(|| not("missing field `lang`"))?;
    let lang = lang
        .parse::<Lang>()
        .map_err(|()| not(&format!("unknown language `{lang}`")))?;
    let texts = field(&doc, "texts");
    if !texts.is_object() {
        return Err(not("missing field `texts`"));
    }
    let mut cat = Catalogue {
        lang,
        texts: Texts::new(),
    };
    for pair in js_sys::Object::entries(texts.unchecked_ref()).iter() {
        let pair: js_sys::Array = pair.unchecked_into();
        let (id, entry) = (pair.get(0).as_string().unwrap_or_default(), pair.get(1));
        let (Some(from), Some(text)) = (
            field(&entry, "from").as_string(),
            field(&entry, "text").as_string(),
        ) else {
            return Err(not(&format!("`{id}`: missing field `from` or `text`")));
        };
        cat.texts.insert(id, Entry { from, text });
    }
    Ok(cat)
}

/// Natively (the tests), core's reader.
#[cfg(not(target_arch = "wasm32"))]
fn read(text: &str) -> Result<Catalogue, String> {
    Catalogue::from_json(text).map_err(|e| e.to_string())
}

/// The catalogue of `lang` if it is at hand (English always is).
pub fn cached(lang: Lang) -> Option<Rc<Catalogue>> {
    if lang == Lang::En {
        return Some(Rc::new(Catalogue::default()));
    }
    LOADED.with(|l| l.borrow().iter().find(|c| c.lang == lang).cloned())
}

/// Keeps a catalogue read elsewhere (the browser tests, whose server has no `i18n/`).
pub fn keep(cat: Catalogue) {
    LOADED.with(|l| l.borrow_mut().push(Rc::new(cat)));
}

/// Hands `done` the catalogue of `lang`: at once when it is at hand, otherwise after one
/// fetch (an error names what failed).
pub fn with_catalogue(lang: Lang, done: impl FnOnce(Result<Rc<Catalogue>, String>) + 'static) {
    if let Some(cat) = cached(lang) {
        done(Ok(cat));
        return;
    }
    crate::browser::fetch_then(
        url(lang),
        Box::new(move |text| {
            let loaded = text.and_then(|text| parse(lang, &text)).map(|cat| {
                let cat = Rc::new(cat);
                LOADED.with(|l| l.borrow_mut().push(cat.clone()));
                cat
            });
            done(loaded);
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_catalogue_must_be_the_language_asked_for() {
        let (_, de) = nginx_gen_core::i18n::FILES[0];
        assert_eq!(parse(Lang::De, de).unwrap().lang, Lang::De);
        assert!(parse(Lang::Nl, de).unwrap_err().contains("holds de"));
        assert!(parse(Lang::De, "<html>offline</html>").is_err());
        assert_eq!(cached(Lang::En).unwrap().lang, Lang::En);
        assert!(cached(Lang::Ru).is_none());
    }
}
