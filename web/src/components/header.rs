//! The page header: title, language switcher, theme toggle.

use nginx_gen_core::Lang;
use nginx_gen_core::i18n::Catalogue;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::Props;
use crate::catalogues;
use crate::i18n::{T, native_name};
use crate::state::{Action, State, Theme};

/// Switches to `lang` once its catalogue is at hand (fetched the first time); when it
/// cannot be loaded, `failed` runs and the page stays in its language.
pub fn switch_language(
    state: &UseReducerHandle<State>,
    lang: Lang,
    failed: impl FnOnce() + 'static,
) {
    let state = state.clone();
    catalogues::with_catalogue(lang, move |loaded| {
        if let Ok(cat) = loaded {
            state.dispatch(Action::SetLang(cat));
        } else {
            failed();
            state.dispatch(Action::LangFailed(lang));
        }
    });
}

/// Title, tagline, language and theme.
#[function_component(Header)]
pub fn header(props: &Props) -> Html {
    let state = &props.state;
    let lang = state.lang;
    let cat: &Catalogue = state.cat();
    let on_lang = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(lang) = select.value().parse::<Lang>() {
                // On failure the switcher shows the page's language again.
                let shown = state.lang;
                switch_language(&state, lang, move || select.set_value(shown.as_str()));
            }
        })
    };
    let on_theme = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::SetTheme(state.theme.next())))
    };
    let theme_name = match state.theme {
        Theme::Auto => T::ThemeAuto,
        Theme::Light => T::ThemeLight,
        Theme::Dark => T::ThemeDark,
    }
    .get(cat);
    html! {
        <header class="top">
            <div class="brand">
                <h1><span class="logo" aria-hidden="true">{ "▚" }</span>{ "nginx-gen" }</h1>
                <p class="tagline">{ T::Tagline.get(cat) }</p>
            </div>
            <div class="controls">
                <label class="inline" for="lang">{ T::Language.get(cat) }</label>
                <select id="lang" data-testid="lang" onchange={on_lang}>
                    { for Lang::ALL.iter().map(|&l| html! {
                        <option value={l.as_str()} selected={l == lang} lang={l.as_str()}>{ native_name(l) }</option>
                    }) }
                </select>
                <button type="button" id="theme" class="ghost" data-testid="theme" onclick={on_theme}
                    aria-label={format!("{}: {theme_name}", T::Theme.get(cat))}>
                    <span aria-hidden="true">{ match state.theme { Theme::Auto => "◐ ", Theme::Light => "☀ ", Theme::Dark => "☾ " } }</span>
                    { theme_name }
                </button>
            </div>
        </header>
    }
}
