//! The few browser services the page uses: URL, clipboard, downloads, storage, language.
//! Every function does nothing (or returns a neutral value) where there is no window, so
//! the components also build, and the pure modules test, natively.

use wasm_bindgen::{JsCast, JsValue};

fn window() -> Option<web_sys::Window> {
    if cfg!(target_arch = "wasm32") {
        web_sys::window()
    } else {
        None
    }
}

/// The current query string, with its `?` (empty when none).
pub fn query() -> String {
    window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Replaces the query string without a navigation or a history entry.
pub fn replace_query(query: &str) {
    let Some(w) = window() else { return };
    let path = w.location().pathname().unwrap_or_default();
    let hash = w.location().hash().unwrap_or_default();
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(
            &JsValue::NULL,
            "",
            Some(&format!("{path}{query}{hash}")),
        );
    }
}

/// Resolves after `ms` milliseconds (at once where there is no window).
pub async fn sleep(ms: i32) {
    let Some(w) = window() else { return };
    let timer = js_sys::Promise::new(&mut |resolve, _| {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(timer).await;
}

/// The page's address with `query` as its query string.
pub fn url_with(query: &str) -> String {
    let Some(w) = window() else {
        return query.to_owned();
    };
    let l = w.location();
    format!(
        "{}{}{query}",
        l.origin().unwrap_or_default(),
        l.pathname().unwrap_or_default()
    )
}

/// The browser's preferred languages, most preferred first.
pub fn languages() -> Vec<String> {
    window()
        .map(|w| {
            w.navigator()
                .languages()
                .iter()
                .filter_map(|v| v.as_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Writes `text` to the clipboard; `done` gets whether it worked.
pub fn copy(text: &str, done: impl FnOnce(bool) + 'static) {
    let Some(w) = window() else {
        done(false);
        return;
    };
    let promise = w.navigator().clipboard().write_text(text);
    wasm_bindgen_futures::spawn_local(async move {
        done(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

/// Offers `bytes` as a download named `name`.
pub fn download(name: &str, bytes: &[u8], mime: &str) {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        if let Some(body) = doc.body() {
            let _ = body.append_child(&a);
            a.click();
            let _ = body.remove_child(&a);
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Sets an attribute of `<html>`.
pub fn set_root_attribute(name: &str, value: &str) {
    if let Some(root) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute(name, value);
    }
}

fn storage() -> Option<web_sys::Storage> {
    window().and_then(|w| w.local_storage().ok().flatten())
}

/// A value kept in `localStorage`.
pub fn load(key: &str) -> Option<String> {
    storage().and_then(|s| s.get_item(key).ok().flatten())
}

/// Keeps a value in `localStorage` (ignored when storage is unavailable).
pub fn store(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

/// Seconds since the epoch.
pub fn now_secs() -> u64 {
    if cfg!(target_arch = "wasm32") {
        (js_sys::Date::now() / 1000.0) as u64
    } else {
        0
    }
}

/// Fetches the text at `url` (relative to the page) and hands it to `done`, or why not: a
/// failed request, a status other than 200, or no window. (One boxed callback, so every
/// caller shares one future.)
pub fn fetch_then(url: String, done: Box<dyn FnOnce(Result<String, String>)>) {
    wasm_bindgen_futures::spawn_local(async move { done(fetch_text(&url).await) });
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let Some(w) = window() else {
        return Err("no browser".to_owned());
    };
    // The error's own message (a fetch rejects with a TypeError); not `{e:?}`: the release
    // build compiles `Debug` out (scripts/small-std.sh).
    let fail = |e: JsValue| {
        e.as_string()
            .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| e.message().into()))
            .unwrap_or_else(|| "the request failed".to_owned())
    };
    let response = wasm_bindgen_futures::JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(fail)?;
    let response: web_sys::Response = response.dyn_into().map_err(fail)?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(fail)?)
        .await
        .map_err(fail)?;
    text.as_string().ok_or_else(|| "not text".to_owned())
}
