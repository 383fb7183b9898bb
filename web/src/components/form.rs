//! The input form: every input of the core, in four groups, each with a hint and the
//! core's message when its value is rejected.

use nginx_gen_core::i18n::Catalogue;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::Props;
use crate::fields::{Field, Section, Widget};
use crate::i18n::{T, section_title};
use crate::state::{Action, State};

/// The form.
#[function_component(InputForm)]
pub fn input_form(props: &Props) -> Html {
    let state = &props.state;
    let cat: &Catalogue = state.cat();
    let reset = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Reset))
    };
    html! {
        <section class="inputs" aria-labelledby="inputs-title">
            <h2 id="inputs-title">{ T::Inputs.get(cat) }</h2>
            <form onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())} novalidate=true>
                { for Section::ALL.iter().map(|&g| html! {
                    <fieldset ~className={format!("group group-{}", g.id())}>
                        <legend>{ section_title(g).get(cat) }</legend>
                        { for Field::all().iter().filter(|f| f.section() == g).map(|&f| field(state, f)) }
                    </fieldset>
                }) }
                <button type="button" class="ghost" data-testid="reset" onclick={reset}>{ T::Reset.get(cat) }</button>
            </form>
        </section>
    }
}

fn field(state: &UseReducerHandle<State>, f: Field) -> Html {
    let cat: &Catalogue = state.cat();
    let key = f.key();
    let (label, hint) = match f.texts() {
        Some((label, hint)) => (label.get(cat), hint.get(cat)),
        None => (f.input().help, ""),
    };
    let id = format!("f-{key}");
    let hint_id = format!("h-{key}");
    let err_id = format!("e-{key}");
    let error = state.error(f);
    let described = if error.is_some() {
        format!("{err_id} {hint_id}")
    } else {
        hint_id.clone()
    };
    let value = state.form.get(f).to_owned();
    let on_text = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            state.dispatch(Action::Set(f, input.value()));
        })
    };
    let invalid = if error.is_some() { "true" } else { "false" };
    let control = match f.widget() {
        Widget::Checkbox => {
            let on_change = {
                let state = state.clone();
                Callback::from(move |e: Event| {
                    let input: HtmlInputElement = e.target_unchecked_into();
                    state.dispatch(Action::Set(f, input.checked().to_string()));
                })
            };
            return html! {
                <div ~className={if error.is_some() { "field flag invalid" } else { "field flag" }} data-testid={format!("field-{key}")}>
                    <input type="checkbox" id={id.clone()} name={key} checked={state.form.flag(f)} onchange={on_change}
                        aria-describedby={described} aria-invalid={invalid} />
                    <label for={id}>{ label }</label>
                    <small id={hint_id} class="hint">{ hint }</small>
                    { error_html(&err_id, error, cat) }
                </div>
            };
        }
        Widget::Select => {
            let names = f.choices();
            let on_change = {
                let state = state.clone();
                Callback::from(move |e: Event| {
                    let select: HtmlSelectElement = e.target_unchecked_into();
                    state.dispatch(Action::Set(f, select.value()));
                })
            };
            html! {
                <select id={id.clone()} name={key} onchange={on_change} aria-describedby={described} aria-invalid={invalid}>
                    { for names.iter().map(|&n| html! { <option value={n} selected={n == value}>{ n }</option> }) }
                </select>
            }
        }
        // One element for the three text inputs: an attribute given `None` is left out.
        widget => {
            let number = widget == Widget::Number;
            let placeholder = match f.key() {
                "clients" => T::Auto.get(cat).to_owned(),
                _ if number => String::new(),
                _ => placeholder(state, f),
            };
            html! {
                <input type="text" inputmode={number.then_some("numeric")} id={id.clone()} name={key} value={value} oninput={on_text}
                    placeholder={placeholder}
                    autocomplete="off" autocapitalize={(!number).then_some("none")} spellcheck="false" aria-describedby={described} aria-invalid={invalid} />
            }
        }
    };
    html! {
        <div ~className={if error.is_some() { "field invalid" } else { "field" }} data-testid={format!("field-{key}")}>
            <label for={id}>{ label }</label>
            { control }
            <small id={hint_id} class="hint">{ hint }</small>
            { error_html(&err_id, error, cat) }
        </div>
    }
}

/// What an empty optional field means, shown as its placeholder.
fn placeholder(state: &State, f: Field) -> String {
    let plan = &state.output.plan;
    match f.key() {
        "root" => plan.root().to_owned(),
        "tls_cert" => plan
            .get("ssl_certificate")
            .map_or_else(String::new, nginx_gen_core::plan::Setting::value),
        "tls_key" => plan
            .get("ssl_certificate_key")
            .map_or_else(String::new, nginx_gen_core::plan::Setting::value),
        _ => String::new(),
    }
}

fn error_html(id: &str, error: Option<&nginx_gen_core::InputError>, cat: &Catalogue) -> Html {
    match error {
        None => html! {},
        Some(e) => html! {
            <p id={id.to_owned()} class="error" data-testid={format!("error-{}", e.field)}>
                <span class="msg">{ &e.message }</span>
                <span class="accepted">{ format!(" {} {}", T::Accepted.get(cat), e.accepted) }</span>
            </p>
        },
    }
}
