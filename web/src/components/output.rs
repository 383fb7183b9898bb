//! The output: one tab per file (plus the JSON plan and the install script), each with
//! light highlighting, a copy button and, on directive lines, a link to its reason.

use std::rc::Rc;

use nginx_gen_core::i18n::Catalogue;
use nginx_gen_core::render::{self, SYSCTL_PATH, SYSTEMD_PATH};
use wasm_bindgen::JsCast;
use web_sys::{Element, KeyboardEvent};
use yew::prelude::*;
use yew::virtual_dom::Key;

use super::Props;
use crate::highlight::{self, Class, Role};
use crate::i18n::T;
use crate::state::{Action, Output, State, Tab};
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
        Tab::Php => "php-fpm".into(),
        Tab::Json => "JSON".into(),
        Tab::Script => T::Script.get(state.cat()).into(),
    }
}

fn tab_path(state: &State, tab: Tab) -> String {
    match tab {
        Tab::Nginx => render::NGINX_PATH.into(),
        Tab::Site => state.output.plan.site_path(),
        Tab::Sysctl => SYSCTL_PATH.into(),
        Tab::Systemd => SYSTEMD_PATH.into(),
        Tab::Php => {
            let i = &state.output.plan.inputs;
            i.layout.php_pool(i.php_version)
        }
        Tab::Json => format!("nginx-gen --format json  # {}", T::Files.get(state.cat())),
        Tab::Script => "install.sh".into(),
    }
}

/// Shows `tab`; the install script's first (or, after a failure, next) showing fetches its
/// functions ([`crate::install_steps`]).
fn show_tab(state: &UseReducerHandle<State>, tab: Tab) {
    state.dispatch(Action::SetTab(tab));
    if tab == Tab::Script && !matches!(state.steps, Some(Ok(()))) {
        let dispatch = state.dispatcher();
        crate::install_steps::with_steps(move |loaded| dispatch.dispatch(Action::Steps(loaded)));
    }
}

/// Tabs, code, copy and download.
#[function_component(OutputPanel)]
pub fn output_panel(props: &Props) -> Html {
    let state = &props.state;
    let cat: &Catalogue = state.cat();
    // Result of the last copy: which button, and whether it worked (announced politely).
    let copied = use_state(|| None::<(&'static str, bool)>);
    // The tabs this plan has (the PHP-FPM pool only for php); a hidden tab shows nginx.conf.
    let tabs: Vec<Tab> = Tab::ALL
        .into_iter()
        .filter(|t| t.shown_for(&state.output.plan))
        .collect();
    let tab = if tabs.contains(&state.tab) {
        state.tab
    } else {
        Tab::Nginx
    };
    let script_ready = matches!(state.steps, Some(Ok(())));
    let waiting = tab == Tab::Script && !script_ready;

    // What a button copies is read when it is clicked, not on every render.
    let copy = |what: &'static str, text: fn(&Output, Tab) -> String| {
        let copied = copied.clone();
        let output = state.output.clone();
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            browser::copy(&text(&output, tab), move |ok| copied.set(Some((what, ok))));
        })
    };
    let on_copy = copy("file", |output, tab| output.text(tab).to_owned());
    let on_share = copy("share", |output, _| browser::url_with(&output.query));
    let on_command = copy("command", |output, _| output.command.clone());
    let on_download = {
        let output = state.output.clone();
        Callback::from(move |_: MouseEvent| {
            let bytes = archive::tar_gz(&render::files(&output.plan), browser::now_secs());
            browser::download("nginx-gen.tar.gz", &bytes, "application/gzip");
        })
    };
    let on_key = {
        let state = state.clone();
        let tabs = tabs.clone();
        Callback::from(move |e: KeyboardEvent| {
            let i = tabs.iter().position(|t| *t == state.tab).unwrap_or(0);
            let n = tabs.len();
            let next = match e.key().as_str() {
                "ArrowRight" => (i + 1) % n,
                "ArrowLeft" => (i + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            show_tab(&state, tabs[next]);
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&format!("tab-{}", tabs[next].id())))
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
                { for tabs.iter().map(|&t| {
                    let label = tab_label(state, t);
                    let state = state.clone();
                    let selected = t == tab;
                    html! {
                        <button type="button" role="tab" id={format!("tab-{}", t.id())} data-testid={format!("tab-{}", t.id())}
                            aria-selected={if selected { "true" } else { "false" }} aria-controls="panel"
                            tabindex={if selected { "0" } else { "-1" }}
                            onclick={Callback::from(move |_: MouseEvent| show_tab(&state, t))}>
                            { label }
                        </button>
                    }
                }) }
            </div>
            <div class="panel" role="tabpanel" id="panel" aria-labelledby={format!("tab-{}", tab.id())}>
                <div class="panel-head">
                    <code class="path">{ tab_path(state, tab) }</code>
                    <button type="button" class="ghost small" data-testid="copy" onclick={on_copy} disabled={waiting}
                        aria-label={format!("{} {}", T::Copy.get(cat), tab_label(state, tab))}>{ T::Copy.get(cat) }</button>
                </div>
                if tab == Tab::Script {
                    <p class="hint">{ T::ScriptHint.get(cat) }</p>
                    <div class="command">
                        <span>{ T::Command.get(cat) }</span>
                        <code data-testid="apply-command">{ subcommand(&state.output.command, "sudo nginx-gen apply") }</code>
                        <code data-testid="check-command">{ subcommand(&state.output.command, "sudo nginx-gen check") }</code>
                    </div>
                }
                if let (true, Some(Err(why))) = (waiting, &state.steps) {
                    <p class="notice error" role="status" data-testid="script-failed">{ T::ScriptFailed.get(cat) }{ " " }{ why }</p>
                }
                if !waiting {
                    <Code key={tab.id()} output={state.output.clone()} {tab} selected={state.selected}
                        label={tab_label(state, tab)} dispatch={state.dispatcher()} />
                }
            </div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct CodeProps {
    output: Rc<Output>,
    tab: Tab,
    /// The setting whose reason is shown.
    selected: Option<usize>,
    /// The tab's name, for assistive technology.
    label: AttrValue,
    dispatch: UseReducerDispatcher<State>,
}

/// One line of a tab's text, ready to show: its key among the lines, its text and what it
/// shows of the plan.
struct LineData {
    key: Key,
    text: AttrValue,
    role: Option<Role>,
}

/// The lines of a tab's text, keyed by [`highlight::line_keys`]: after an edit Yew keeps
/// every line the edit did not touch — element and component — and renders the new ones.
fn lines(output: &Output, tab: Tab) -> Vec<LineData> {
    let lines: Vec<&str> = output.text(tab).split('\n').collect();
    let roles = if tab.is_config() {
        highlight::roles(output.origins(tab), lines.len())
    } else {
        Vec::new()
    };
    let keys = highlight::line_keys(&lines);
    lines
        .iter()
        .zip(keys)
        .enumerate()
        .map(|(n, (&line, key))| {
            let shared: Rc<str> = Rc::from(line);
            LineData {
                key: key.map_or_else(|| Key::from(shared.clone()), Key::from),
                text: AttrValue::from(shared),
                role: roles.get(n).copied().flatten(),
            }
        })
        .collect()
}

/// The highlighted text of the current tab. Lines of a setting (its reason comment and its
/// directive) select that setting's reason when pointed at (a tap points too); directive
/// lines are focusable. One listener per event on the block serves every line.
#[function_component(Code)]
fn code(props: &CodeProps) -> Html {
    let CodeProps {
        output,
        tab,
        selected,
        label,
        dispatch,
    } = props;
    let tab = *tab;
    let lines = use_memo((output.clone(), tab), |(output, tab)| lines(output, *tab));
    let select = {
        let (dispatch, selected) = (dispatch.clone(), *selected);
        move |e: &Event| {
            let setting = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|el| el.closest("[data-setting]").ok().flatten())
                .and_then(|el| el.get_attribute("data-setting"))
                .and_then(|i| i.parse::<usize>().ok());
            if setting.is_some() && setting != selected {
                dispatch.dispatch(Action::Select(setting));
            }
        }
    };
    let on_focus = {
        let select = select.clone();
        Callback::from(move |e: FocusEvent| select(&e))
    };
    let on_pointer = Callback::from(move |e: MouseEvent| select(&e));
    let last = lines.len() - 1;
    html! {
        <pre class="code" data-testid={format!("out-{}", tab.id())} aria-label={label}
            onfocusin={on_focus} onmouseover={on_pointer}><code>
            { for lines.iter().enumerate().map(|(n, line)| html! {
                <Line key={line.key.clone()} text={line.text.clone()} {tab} role={line.role}
                    active={line.role.is_some_and(|r| Some(r.setting()) == *selected)} newline={n < last} />
            }) }
        </code></pre>
    }
}

#[derive(Properties, PartialEq)]
struct LineProps {
    text: AttrValue,
    tab: Tab,
    role: Option<Role>,
    /// Whether its setting's reason is shown.
    active: bool,
    /// Whether a newline follows (every line but the last).
    newline: bool,
}

/// One line: rendered when it is new or its props change, else left alone.
#[function_component(Line)]
fn line(p: &LineProps) -> Html {
    let class = match (p.role, p.active) {
        (None, _) => "l",
        (Some(Role::Reason(_)), false) => "l r",
        (Some(Role::Reason(_)), true) => "l r active",
        (Some(Role::Directive(_)), false) => "l dir",
        (Some(Role::Directive(_)), true) => "l dir active",
    };
    let directive = matches!(p.role, Some(Role::Directive(_)));
    // `~className` sets the DOM property: a `class` that is not a literal goes through
    // yew's `Classes`, an `IndexSet` whose code was 2.4 KB of the page's first load
    // (brotli; docs/web.md). The same in the form.
    html! {
        <span ~className={class} data-setting={p.role.map(|r| r.setting().to_string())}
            tabindex={directive.then_some("0")} aria-describedby={(directive && p.active).then_some("reason")}>
            { for highlight::line(p.tab, &p.text).into_iter().map(|(class, piece)| match class {
                Class::Plain => html! { piece },
                c => html! { <span ~className={c.css()}>{ piece }</span> },
            }) }
            if p.newline { { "\n" } }
        </span>
    }
}

/// The generate command (`nginx-gen --no-detect …`) as another subcommand with the same
/// inputs (`sudo nginx-gen apply --no-detect …`).
fn subcommand(command: &str, with: &str) -> String {
    match command.strip_prefix("nginx-gen") {
        Some(args) => [with, args].concat(),
        None => command.to_owned(),
    }
}
