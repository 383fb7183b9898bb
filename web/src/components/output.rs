//! The output: one tab per file (plus the JSON plan and the install script), each with
//! light highlighting, a copy button and, on directive lines, a link to its reason.

use nginx_gen_core::i18n::Catalogue;
use nginx_gen_core::render::{self, SYSCTL_PATH, SYSTEMD_PATH};
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::Props;
use crate::highlight::{self, Class};
use crate::i18n::T;
use crate::state::{Action, State, Tab};
use crate::{archive, browser};

fn tab_label(state: &State, tab: Tab) -> String {
    match tab {
        Tab::Nginx => "nginx.conf".into(),
        Tab::Site => state
            .output
            .plan
            .site_path()
            .rsplit('/')
            .next()
            .unwrap_or("site")
            .to_owned(),
        Tab::Sysctl => "sysctl.d".into(),
        Tab::Systemd => "systemd".into(),
        Tab::Json => "JSON".into(),
        Tab::Script => T::Script.get(&state.cat).into(),
    }
}

fn tab_path(state: &State, tab: Tab) -> String {
    match tab {
        Tab::Nginx => render::NGINX_PATH.into(),
        Tab::Site => state.output.plan.site_path(),
        Tab::Sysctl => SYSCTL_PATH.into(),
        Tab::Systemd => SYSTEMD_PATH.into(),
        Tab::Json => format!("nginx-gen --format json  # {}", T::Files.get(&state.cat)),
        Tab::Script => "install.sh".into(),
    }
}

/// Tabs, code, copy and download.
#[function_component(OutputPanel)]
pub fn output_panel(props: &Props) -> Html {
    let state = &props.state;
    let cat: &Catalogue = &state.cat;
    // Result of the last copy: which button, and whether it worked (announced politely).
    let copied = use_state(|| None::<(&'static str, bool)>);
    let tab = state.tab;
    let text = state.output.text(tab).to_owned();

    let copy = |what: &'static str, text: String| {
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            browser::copy(&text, move |ok| copied.set(Some((what, ok))));
        })
    };
    let on_copy = copy("file", text.clone());
    let on_share = copy("share", browser::url_with(&state.output.query));
    let on_command = copy("command", state.output.command.clone());
    let on_download = {
        let plan = state.output.plan.clone();
        Callback::from(move |_: MouseEvent| {
            let bytes = archive::tar_gz(&render::files(&plan), browser::now_secs());
            browser::download("nginx-gen.tar.gz", &bytes, "application/gzip");
        })
    };
    let on_key = {
        let state = state.clone();
        Callback::from(move |e: KeyboardEvent| {
            let i = Tab::ALL.iter().position(|t| *t == state.tab).unwrap_or(0);
            let n = Tab::ALL.len();
            let next = match e.key().as_str() {
                "ArrowRight" => (i + 1) % n,
                "ArrowLeft" => (i + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            state.dispatch(Action::SetTab(Tab::ALL[next]));
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&format!("tab-{}", Tab::ALL[next].id())))
                .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok())
            {
                let _ = el.focus();
            }
        })
    };
    let status = match *copied {
        Some((_, true)) => T::Copied.get(cat),
        Some((_, false)) => T::CopyFailed.get(cat),
        None => "",
    };
    let cap = &state.output.plan.capacity;
    let announce = format!(
        "{}: {} · {}: {}",
        T::CapClients.get(cat),
        cap.clients,
        T::Warnings.get(cat),
        state.output.plan.warnings.len()
    );

    html! {
        <section class="output" id="output" aria-labelledby="output-title" tabindex="-1">
            <div class="output-head">
                <h2 id="output-title">{ T::Output.get(cat) }</h2>
                <div class="actions">
                    <button type="button" class="primary" data-testid="download" onclick={on_download} title={T::DownloadHint.get(cat).to_owned()}>{ T::Download.get(cat) }</button>
                    <button type="button" class="ghost" data-testid="share" onclick={on_share}>{ T::ShareLink.get(cat) }</button>
                </div>
            </div>
            <p class="status" aria-live="polite" data-testid="status">
                <span class="visually-hidden">{ announce }</span>
                <span data-testid="copy-status">{ status }</span>
            </p>
            <div class="command">
                <span>{ T::Command.get(cat) }</span>
                <code data-testid="command">{ &state.output.command }</code>
                <button type="button" class="ghost small" onclick={on_command} aria-label={format!("{} — {}", T::Copy.get(cat), T::Command.get(cat))}>{ T::Copy.get(cat) }</button>
            </div>
            <div class="tabs" role="tablist" aria-label={T::Files.get(cat).to_owned()} onkeydown={on_key}>
                { for Tab::ALL.iter().map(|&t| {
                    let label = tab_label(state, t);
                    let state = state.clone();
                    let selected = t == tab;
                    html! {
                        <button type="button" role="tab" id={format!("tab-{}", t.id())} data-testid={format!("tab-{}", t.id())}
                            aria-selected={if selected { "true" } else { "false" }} aria-controls="panel"
                            tabindex={if selected { "0" } else { "-1" }}
                            onclick={Callback::from(move |_: MouseEvent| state.dispatch(Action::SetTab(t)))}>
                            { label }
                        </button>
                    }
                }) }
            </div>
            <div class="panel" role="tabpanel" id="panel" aria-labelledby={format!("tab-{}", tab.id())}>
                <div class="panel-head">
                    <code class="path">{ tab_path(state, tab) }</code>
                    <button type="button" class="ghost small" data-testid="copy" onclick={on_copy}
                        aria-label={format!("{} {}", T::Copy.get(cat), tab_label(state, tab))}>{ T::Copy.get(cat) }</button>
                </div>
                if tab == Tab::Script {
                    <p class="hint">{ T::ScriptHint.get(cat) }</p>
                }
                <Code state={state.clone()} />
            </div>
        </section>
    }
}

/// The highlighted text of the current tab; directive lines are focusable and select
/// their reason.
#[function_component(Code)]
fn code(props: &Props) -> Html {
    let state = &props.state;
    let tab = state.tab;
    let text = state.output.text(tab);
    let links = if tab.is_config() {
        highlight::settings_by_line(&state.output.plan, tab, text)
    } else {
        Vec::new()
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let last = lines.len() - 1;
    html! {
        <pre class="code" data-testid={format!("out-{}", tab.id())} aria-label={tab_label(state, tab)}><code>
            { for lines.iter().enumerate().map(|(n, line)| {
                let pieces = highlight::line(tab, line);
                let body = html! { <>{ for pieces.iter().map(|(class, piece)| match class {
                    Class::Plain => html! { { *piece } },
                    c => html! { <span class={c.css()}>{ *piece }</span> },
                }) }</> };
                let newline = if n < last { "\n" } else { "" };
                match links.get(n).copied().flatten() {
                    Some(i) => {
                        let select = {
                            let state = state.clone();
                            Callback::from(move |_: FocusEvent| state.dispatch(Action::Select(Some(i))))
                        };
                        let hover = {
                            let state = state.clone();
                            Callback::from(move |_: MouseEvent| state.dispatch(Action::Select(Some(i))))
                        };
                        let active = state.selected == Some(i);
                        html! {
                            <><span class={classes!("dir", active.then_some("active"))} tabindex="0" data-setting={i.to_string()}
                                aria-describedby={active.then_some("reason")}
                                onfocus={select} onmouseenter={hover.clone()} onclick={hover}>{ body }</span>{ newline }</>
                        }
                    }
                    None => html! { <>{ body }{ newline }</> },
                }
            }) }
        </code></pre>
    }
}
