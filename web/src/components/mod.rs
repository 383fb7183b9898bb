//! The Yew components. Each receives the state handle and dispatches [`Action`]s; none
//! computes anything the core or the reducer already does.

mod form;
mod header;
mod output;
mod side;

use std::rc::Rc;

use nginx_gen_core::i18n::Catalogue;
use yew::prelude::*;

use crate::share::{Problem, ShareState};
use crate::state::{Action, State, Theme};
use crate::{browser, i18n, i18n::T};

pub use form::InputForm;
pub use header::Header;
pub use output::OutputPanel;
pub use side::{ReasonPanel, Summary};

impl Reducible for State {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(State::reduce(&self, action))
    }
}

/// What every component gets: the state and the way to change it.
#[derive(Properties, PartialEq, Clone, Debug)]
pub struct Props {
    /// The state handle (dispatches actions).
    pub state: UseReducerHandle<State>,
}

/// The state the page opens with: the URL, the browser's language, the stored theme.
pub fn initial_state() -> State {
    let share = ShareState::from_query(&browser::query());
    let detected = i18n::detect(browser::languages().iter().map(String::as_str));
    let mut state = State::from_share(share, Some(detected));
    state.theme = browser::load("nginx-gen-theme").map_or(Theme::Auto, |t| Theme::parse(&t));
    state
}

/// How long the inputs rest before the URL is rewritten.
const URL_DELAY_MS: i32 = 250;

/// The whole page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(initial_state);
    {
        // The URL follows the inputs once typing pauses: `history.replaceState` lays the
        // page out (to save the scroll position) and costs more than a whole keystroke's
        // render, so it stays out of the keystroke's frame.
        let latest = use_mut_ref(|| 0_u32);
        let query = state.output.query.clone();
        use_effect_with(query, move |query| {
            let query = query.clone();
            let mine = {
                let mut latest = latest.borrow_mut();
                *latest = latest.wrapping_add(1);
                *latest
            };
            wasm_bindgen_futures::spawn_local(async move {
                browser::sleep(URL_DELAY_MS).await;
                if *latest.borrow() == mine {
                    browser::replace_query(&query);
                }
            });
        });
    }
    {
        // A language named by the URL or the browser: load its texts once.
        let state = state.clone();
        use_effect_with((), move |()| {
            if state.cat().lang != state.lang {
                header::switch_language(&state, state.lang, || {});
            }
        });
    }
    use_effect_with((state.theme, state.lang), |(theme, lang)| {
        browser::set_root_attribute("data-theme", theme.as_str());
        browser::set_root_attribute("lang", lang.as_str());
        browser::store("nginx-gen-theme", theme.as_str());
    });
    let cat: &Catalogue = state.cat();
    html! {
        <>
            <a class="skip" href="#output">{ T::Skip.get(cat) }</a>
            <Header state={state.clone()} />
            <Notices state={state.clone()} />
            <main class="layout">
                <InputForm state={state.clone()} />
                <OutputPanel state={state.clone()} />
                <aside class="side">
                    <ReasonPanel state={state.clone()} />
                    <Summary state={state.clone()} />
                </aside>
            </main>
            <footer><p>{ T::Footer.get(cat) }</p></footer>
        </>
    }
}

/// Notices about the opening URL and about invalid inputs.
#[function_component(Notices)]
fn notices(props: &Props) -> Html {
    let state = &props.state;
    let cat: &Catalogue = state.cat();
    let dismiss = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::DismissNotices))
    };
    html! {
        <div class="notices">
            if !state.notices.is_empty() {
                <div class="notice warn" role="status" data-testid="url-notice">
                    <p>{ T::UrlNotice.get(cat) }</p>
                    <ul>
                        { for state.notices.iter().map(|n| {
                            let why = match &n.problem {
                                Problem::Unknown => T::UnknownParam.get(cat).to_owned(),
                                Problem::Invalid(message) => message.clone(),
                                Problem::Version => T::NewerLink.get(cat).to_owned(),
                            };
                            html! { <li><code>{ format!("{}={}", n.param, n.value) }</code>{ ": " }{ why }</li> }
                        }) }
                    </ul>
                    <button type="button" class="ghost" onclick={dismiss}>{ T::Dismiss.get(cat) }</button>
                </div>
            }
            if let Some(lang) = state.lang_failed {
                <div class="notice error" role="status" data-testid="lang-notice">
                    <p>{ format!("{} ({})", T::LangFailed.get(cat), crate::i18n::native_name(lang)) }</p>
                </div>
            }
            if state.errors.is_some() {
                <div class="notice error" role="status" data-testid="invalid-notice">
                    <p>{ T::InvalidNotice.get(cat) }</p>
                </div>
            }
        </div>
    }
}
