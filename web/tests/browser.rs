//! Components and URL state in headless Chromium (wasm-bindgen-test):
//!   CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!     cargo test --target wasm32-unknown-unknown -p nginx-gen-web
#![cfg(target_arch = "wasm32")]

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use nginx_gen_core::i18n::built_in;
use nginx_gen_core::render::{self, Format};
use nginx_gen_core::{Inputs, Lang, Plan};
use nginx_gen_web::catalogues;
use nginx_gen_web::components::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, Event, EventInit, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

/// The inputs the page computes from a document of its form's fields: without a release,
/// the page's default one.
fn page_inputs(json: &str) -> Inputs {
    let mut raw = nginx_gen_core::RawInputs::from_json(json).unwrap();
    raw.release
        .get_or_insert_with(|| nginx_gen_core::policy::SUGGESTED.to_string());
    Inputs::from_raw(&raw).unwrap()
}

/// What `nginx-gen --format FORMAT` prints for these inputs as the page computes them (a
/// document without a release gets the page's default one), in their language.
fn cli_text(json: &str, format: Format) -> String {
    let plan = Plan::new(&page_inputs(json));
    render::render_in(&plan, format, &built_in(plan.inputs.lang))
}

/// The test runner serves no `i18n/` (the end-to-end test fetches the real files): the
/// tests hand the page the catalogues it would fetch, through the cache it fills.
fn keep_catalogue(lang: Lang) {
    if catalogues::cached(lang).is_none() {
        catalogues::keep(built_in(lang));
    }
}

fn set_query(query: &str) {
    let w = web_sys::window().unwrap();
    let path = w.location().pathname().unwrap();
    w.history()
        .unwrap()
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query}")),
        )
        .unwrap();
}

fn query() -> String {
    web_sys::window().unwrap().location().search().unwrap()
}

/// The query string once it equals `want`, or after about six seconds, whatever it is
/// then (the URL is written by an effect after rendering).
/// Waits (bounded) until the URL's query holds every one of `parts`, and says whether it
/// does; share URLs write every input, so tests name the parameters they changed.
async fn query_soon(parts: &[&str]) -> bool {
    let holds = || {
        let q = query();
        q.starts_with("?v=1&") && parts.iter().all(|p| q.contains(p))
    };
    for _ in 0..100 {
        if holds() {
            break;
        }
        tick().await;
    }
    holds()
}

async fn tick() {
    yew::platform::time::sleep(Duration::from_millis(60)).await;
}

/// The page has one URL: tests that mount the app take turns.
static BUSY: AtomicBool = AtomicBool::new(false);

/// Mounts the app (reading the current URL) in a fresh element.
async fn mount(query: &str) -> (Element, yew::AppHandle<App>) {
    for _ in 0..300 {
        if !BUSY.swap(true, Ordering::SeqCst) {
            break;
        }
        tick().await;
    }
    set_query(query);
    let doc = web_sys::window().unwrap().document().unwrap();
    let root = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    let handle = yew::Renderer::<App>::with_root(root.clone()).render();
    tick().await;
    (root, handle)
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} not found"))
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

fn fire(el: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&Event::new_with_event_init_dict(kind, &init).unwrap())
        .unwrap();
}

async fn type_into(root: &Element, selector: &str, value: &str) {
    let input: HtmlInputElement = find(root, selector).dyn_into().unwrap();
    input.set_value(value);
    fire(&input, "input");
    tick().await;
}

async fn choose(root: &Element, selector: &str, value: &str) {
    let select: HtmlSelectElement = find(root, selector).dyn_into().unwrap();
    select.set_value(value);
    fire(&select, "change");
    tick().await;
}

fn done(root: &Element, handle: yew::AppHandle<App>) {
    handle.destroy();
    root.remove();
    BUSY.store(false, Ordering::SeqCst);
}

#[wasm_bindgen_test]
async fn default_page_shows_the_cli_output_for_the_guide_machine() {
    let (root, app) = mount("?lang=en").await;
    assert_eq!(
        text(&root, "[data-testid=out-nginx]"),
        cli_text("{}", Format::Nginx)
    );
    assert_eq!(
        find(&root, "#f-vcpu")
            .dyn_into::<HtmlInputElement>()
            .unwrap()
            .value(),
        "4"
    );
    assert_eq!(
        text(&root, "[data-testid=command]"),
        page_inputs("{}").to_command()
    );
    // Every field has a label and a hint.
    for key in ["vcpu", "ram", "workload", "tls", "http3", "trusted_proxies"] {
        assert!(
            root.query_selector(&format!("label[for=f-{key}]"))
                .unwrap()
                .is_some(),
            "{key}"
        );
        assert!(!text(&root, &format!("#h-{key}")).is_empty(), "{key}");
    }
    done(&root, app);
}

#[wasm_bindgen_test]
async fn typing_recomputes_and_updates_the_url() {
    let (root, app) = mount("?lang=en").await;
    type_into(&root, "#f-vcpu", "8").await;
    choose(&root, "#f-workload", "api").await;
    assert_eq!(
        text(&root, "[data-testid=out-nginx]"),
        cli_text(r#"{"vcpu": 8, "workload": "api"}"#, Format::Nginx)
    );
    assert!(
        query_soon(&["&vcpu=8&", "&workload=api&", "&policy="]).await,
        "{}",
        query()
    );
    // Other tabs show their file.
    let sysctl_tab = find(&root, "[data-testid=tab-sysctl]");
    sysctl_tab
        .dyn_ref::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    tick().await;
    assert_eq!(
        text(&root, "[data-testid=out-sysctl]"),
        cli_text(r#"{"vcpu": 8, "workload": "api"}"#, Format::Sysctl)
    );
    done(&root, app);
}

#[wasm_bindgen_test]
async fn invalid_value_is_marked_and_output_kept() {
    let (root, app) = mount("?lang=en").await;
    let before = text(&root, "[data-testid=out-nginx]");
    type_into(&root, "#f-ram", "lots").await;
    let input = find(&root, "#f-ram");
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(
        text(&root, "#e-ram").contains("'lots'"),
        "{}",
        text(&root, "#e-ram")
    );
    assert!(
        root.query_selector("[data-testid=invalid-notice]")
            .unwrap()
            .is_some()
    );
    assert_eq!(text(&root, "[data-testid=out-nginx]"), before);
    type_into(&root, "#f-ram", "2G").await;
    assert!(root.query_selector("#e-ram").unwrap().is_none());
    done(&root, app);
}

#[wasm_bindgen_test]
async fn share_url_is_read_with_notices_for_bad_parameters() {
    keep_catalogue(Lang::De);
    let (root, app) = mount("?v=1&workload=proxy&tls=1&vcpu=zero&colour=blue&lang=de").await;
    // The URL's language switches once its catalogue is at hand (an effect after mounting).
    for _ in 0..50 {
        if text(&root, "#inputs-title") == "Ihre Maschine" {
            break;
        }
        tick().await;
    }
    assert_eq!(
        find(&root, "#f-workload")
            .dyn_into::<HtmlSelectElement>()
            .unwrap()
            .value(),
        "proxy"
    );
    assert_eq!(
        find(&root, "#f-vcpu")
            .dyn_into::<HtmlInputElement>()
            .unwrap()
            .value(),
        "4"
    );
    let notice = text(&root, "[data-testid=url-notice]");
    assert!(
        notice.contains("colour=blue") && notice.contains("vcpu=zero"),
        "{notice}"
    );
    assert_eq!(
        text(&root, "[data-testid=out-nginx]"),
        cli_text(
            r#"{"workload": "proxy", "tls": true, "lang": "de"}"#,
            Format::Nginx
        )
    );
    assert!(
        query_soon(&["&workload=proxy&", "&tls=1&", "&lang=de&"]).await,
        "{}",
        query()
    );
    assert_eq!(text(&root, "#inputs-title"), "Ihre Maschine");
    done(&root, app);
}

#[wasm_bindgen_test]
async fn language_switcher_translates_ui_and_reasons() {
    keep_catalogue(Lang::Ru);
    let (root, app) = mount("?lang=en").await;
    choose(&root, "#lang", "ru").await;
    assert_eq!(text(&root, "#inputs-title"), "Ваша машина");
    assert_eq!(
        text(&root, "[data-testid=out-nginx]"),
        cli_text(r#"{"lang": "ru"}"#, Format::Nginx)
    );
    assert!(query_soon(&["&lang=ru&"]).await, "{}", query());
    let html = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .document_element()
        .unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("ru"));
    done(&root, app);
}

#[wasm_bindgen_test]
async fn a_language_that_cannot_be_fetched_leaves_the_page_as_it_was() {
    // No catalogue kept for Spanish: the page fetches i18n/es.json, which this server
    // does not have (404).
    let (root, app) = mount("?lang=en").await;
    let before = text(&root, "[data-testid=out-nginx]");
    choose(&root, "#lang", "es").await;
    for _ in 0..50 {
        if root
            .query_selector("[data-testid=lang-notice]")
            .unwrap()
            .is_some()
        {
            break;
        }
        tick().await;
    }
    let notice = text(&root, "[data-testid=lang-notice]");
    assert!(notice.contains("Español"), "{notice}");
    assert_eq!(text(&root, "[data-testid=out-nginx]"), before);
    assert_eq!(text(&root, "#inputs-title"), "Your machine");
    assert_eq!(
        find(&root, "#lang")
            .dyn_into::<HtmlSelectElement>()
            .unwrap()
            .value(),
        "en",
        "the switcher shows the page's language again"
    );
    done(&root, app);
}

#[wasm_bindgen_test]
async fn focusing_a_directive_shows_its_reason() {
    let (root, app) = mount("?lang=en").await;
    let line = find(&root, "[data-testid=out-nginx] .dir");
    fire(&line, "focusin");
    line.dyn_ref::<web_sys::HtmlElement>()
        .unwrap()
        .focus()
        .unwrap();
    tick().await;
    let why = text(&root, "[data-testid=reason-why]");
    assert!(why.contains("unprivileged"), "{why}");
    done(&root, app);
}

/// The line elements of a tab's text, in order.
fn line_elements(root: &Element, tab: &str) -> Vec<Element> {
    let mut lines = Vec::new();
    let mut next = find(root, &format!("[data-testid=out-{tab}] code")).first_element_child();
    while let Some(line) = next {
        next = line.next_element_sibling();
        lines.push(line);
    }
    lines
}

#[wasm_bindgen_test]
async fn an_edit_renders_only_the_lines_it_changes() {
    let (root, app) = mount("?lang=en").await;
    let tab: web_sys::HtmlElement = find(&root, "[data-testid=tab-json]").dyn_into().unwrap();
    tab.click();
    tick().await;
    let before: Vec<(Element, String)> = line_elements(&root, "json")
        .into_iter()
        .map(|l| {
            let text = l.text_content().unwrap_or_default();
            (l, text)
        })
        .collect();
    // TLS adds about 250 lines all through the JSON plan.
    let tls: HtmlInputElement = find(&root, "#f-tls").dyn_into().unwrap();
    tls.set_checked(true);
    fire(&tls, "change");
    tick().await;
    assert_eq!(
        text(&root, "[data-testid=out-json]"),
        cli_text(r#"{"tls": true}"#, Format::Json)
    );
    // A line diff of the two texts keeps their longest common subsequence: the least an
    // edit must make or move. The rest changes with the plan (TLS moves the site's
    // settings to its HTTPS server), whatever the renderer does.
    let after: Vec<String> = line_elements(&root, "json")
        .iter()
        .map(|l| l.text_content().unwrap_or_default())
        .collect();
    let was: Vec<String> = before.iter().map(|(_, x)| x.clone()).collect();
    let common = nginx_gen_web::highlight::common_lines(&was, &after);
    let mut kept = 0;
    for (line, was) in &before {
        if line.is_connected() {
            kept += 1;
            // A line that stays is not rewritten.
            assert_eq!(&line.text_content().unwrap_or_default(), was);
        }
    }
    // The page keeps nearly all of them: a repeated line is known by its place between two
    // unique ones, so some more are remade (108 of 1042 when the site's charset settings
    // moved with TLS; all but 15 % of the lines is the bar).
    assert!(
        kept * 100 + before.len() * 15 >= common * 100,
        "{kept} line elements kept; a line diff keeps {common} of {}",
        before.len()
    );
    done(&root, app);
}

#[wasm_bindgen_test]
async fn pointing_at_a_reason_comment_shows_that_reason() {
    let (root, app) = mount("?lang=en").await;
    let comment = find(&root, "[data-testid=out-nginx] .r");
    let setting = comment.get_attribute("data-setting").unwrap();
    fire(&comment, "mouseover");
    tick().await;
    // The comment and its directive are marked; the directive line names the setting the
    // reason panel shows.
    let directive = find(
        &root,
        &format!("[data-testid=out-nginx] .dir[data-setting='{setting}']"),
    );
    assert!(directive.class_list().contains("active"));
    assert!(comment.class_list().contains("active"));
    let shown = text(&root, "[data-testid=reason] .directive code");
    let name = shown.split(' ').next().unwrap();
    assert!(
        directive
            .text_content()
            .unwrap()
            .trim_start()
            .starts_with(name),
        "{shown}"
    );
    assert!(!text(&root, "[data-testid=reason-why]").is_empty());
    done(&root, app);
}

/// The page reads a fetched catalogue with the browser's `JSON.parse`: the same catalogue
/// as core's reader, and the same refusals.
#[wasm_bindgen_test]
fn catalogues_read_by_the_browser_equal_cores() {
    for (lang, json) in nginx_gen_core::i18n::FILES {
        let read = catalogues::parse(lang, json).unwrap();
        assert_eq!(
            read,
            nginx_gen_core::i18n::Catalogue::from_json(json).unwrap()
        );
    }
    let (_, de) = nginx_gen_core::i18n::FILES[0];
    assert!(
        catalogues::parse(Lang::Nl, de)
            .unwrap_err()
            .contains("holds de")
    );
    assert!(catalogues::parse(Lang::De, "<html>offline</html>").is_err());
    assert!(catalogues::parse(Lang::De, r#"{"lang":"de"}"#).is_err());
    let no_text = r#"{"lang":"de","texts":{"gzip":{"from":"0"}}}"#;
    assert!(
        catalogues::parse(Lang::De, no_text)
            .unwrap_err()
            .contains("`gzip`")
    );
}
