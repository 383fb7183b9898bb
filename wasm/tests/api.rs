//! The JS API contract, run inside a real wasm engine:
//! `wasm-pack test --node --mode no-install wasm` (scripts/stages/40-wasm.sh).
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, JSON, Reflect};
use nginx_gen_core::{Inputs, Plan, RawInputs, render};
use nginx_gen_wasm as api;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn js(json: &str) -> JsValue {
    JSON::parse(json).expect("test JSON parses")
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).expect("an object")
}

fn text(v: &JsValue) -> String {
    JSON::stringify(v).expect("serialisable").into()
}

fn plan(json: &str) -> Plan {
    Plan::new(&Inputs::from_json(json).expect("valid test inputs"))
}

/// The thrown value is a JS `Error` naming `field`, with `accepted` and `errors`.
fn assert_error(err: &JsValue, field: &str) {
    assert!(
        err.is_instance_of::<js_sys::Error>(),
        "not an Error: {err:?}"
    );
    let e: &js_sys::Error = err.unchecked_ref();
    assert_eq!(String::from(e.name()), "InputError");
    assert_eq!(
        get(err, "field").as_string().as_deref(),
        Some(field),
        "{}",
        String::from(e.message())
    );
    let accepted = get(err, "accepted").as_string().unwrap_or_default();
    assert!(!accepted.is_empty(), "{field}: no accepted range");
    let errors: Array = get(err, "errors").dyn_into().expect("errors is an array");
    assert!(errors.length() >= 1);
    let first = errors.get(0);
    assert_eq!(get(&first, "field").as_string().as_deref(), Some(field));
    assert!(
        get(&first, "message")
            .as_string()
            .is_some_and(|m| !m.is_empty())
    );
    assert_eq!(get(&first, "accepted").as_string(), Some(accepted));
    assert!(
        String::from(e.message()).contains(field),
        "message names the field"
    );
}

#[wasm_bindgen_test]
fn generate_is_the_cli_json_document_plus_files() {
    let input = r#"{"vcpu": 8, "ram": "16G", "workload": "mixed", "tls": true, "server_names": ["example.net"]}"#;
    let out = api::generate(&js(input), None).expect("valid");
    let plan = plan(input);
    let files = get(&out, "files");
    let doc = js(&text(&out));
    Reflect::delete_property(doc.unchecked_ref::<js_sys::Object>(), &"files".into()).unwrap();
    assert_eq!(
        text(&doc),
        text(&js(&render::json(&plan))),
        "same document as --format json"
    );
    let expected = render::files(&plan);
    let keys = js_sys::Object::keys(files.unchecked_ref::<js_sys::Object>());
    assert_eq!(keys.length() as usize, expected.len());
    for (i, file) in expected.iter().enumerate() {
        assert_eq!(
            keys.get(i as u32).as_string().as_deref(),
            Some(file.path.as_str()),
            "file order"
        );
        assert_eq!(
            get(&files, &file.path).as_string().as_deref(),
            Some(file.contents.as_str())
        );
    }
    assert_eq!(
        get(&out, "schema_version").as_f64(),
        Some(f64::from(api::schema_version()))
    );
    assert_eq!(get(&out, "generator").as_string(), Some(api::version()));
    assert_eq!(
        get(&out, "policy_version").as_string(),
        Some(api::policy_version())
    );
}

#[wasm_bindgen_test]
fn inputs_as_object_json_text_or_nothing() {
    let object = api::generate(&js(r#"{"vcpu": "2", "ram": "4G"}"#), None).unwrap();
    let string = api::generate(&JsValue::from_str(r#"{"vcpu": 2, "ram": "4G"}"#), None).unwrap();
    assert_eq!(text(&object), text(&string));
    let none = api::generate(&JsValue::UNDEFINED, None).unwrap();
    assert_eq!(
        text(&none),
        text(&api::generate(&js("{}"), None).unwrap()),
        "undefined means the defaults"
    );
    assert_eq!(
        text(&none),
        text(&api::generate(&JsValue::NULL, None).unwrap())
    );
    // JSON.stringify drops undefined members, as an absent field.
    let obj = js(r#"{"vcpu": 2, "ram": "4G"}"#);
    Reflect::set(&obj, &"workload".into(), &JsValue::UNDEFINED).unwrap();
    assert_eq!(text(&api::generate(&obj, None).unwrap()), text(&object));
}

#[wasm_bindgen_test]
fn schema_round_trip() {
    api::set_catalogue(include_str!("../../core/i18n/de.json")).unwrap();
    for input in [
        r#"{"vcpu": 1, "ram": "512M"}"#,
        r#"{"vcpu": 16, "ram": "64G", "workload": "api", "upstreams": ["10.0.0.2:9000", "unix:/run/app.sock"], "behind_lb": true}"#,
        r#"{"vcpu": 4, "ram": "8G", "tls": true, "http3": true, "tls_profile": "modern", "brotli": true, "layout": "rhel", "lang": "de"}"#,
    ] {
        let first = api::generate(&js(input), None).unwrap();
        let inputs = get(&first, "inputs");
        // The inputs of the result are a complete, valid input document …
        let raw = RawInputs::from_json(&text(&inputs)).expect("inputs parse as RawInputs");
        let validated = Inputs::from_raw(&raw).expect("inputs validate");
        // It names the running policy, which validation reads as "unset".
        assert_eq!(raw.policy.as_deref(), Some(nginx_gen_core::POLICY_VERSION));
        let mut complete = validated.to_raw();
        complete.policy.clone_from(&raw.policy);
        assert_eq!(raw, complete, "complete document");
        // … that reproduces the same result.
        let again = api::generate(&inputs, None).unwrap();
        assert_eq!(text(&first), text(&again), "{input}");
    }
    let defaults = api::defaults().unwrap();
    assert_eq!(
        text(&defaults),
        serde_json::to_string(&Inputs::default().to_raw()).unwrap()
    );
    // The result's inputs are the defaults plus the running policy they were made with.
    let mut named = Inputs::default().to_raw();
    named.policy = Some(nginx_gen_core::POLICY_VERSION.to_owned());
    assert_eq!(
        text(&get(&api::generate(&defaults, None).unwrap(), "inputs")),
        serde_json::to_string(&named).unwrap()
    );
}

/// Other languages need their catalogue: asking without one names `lang`; after
/// `setCatalogue` every function renders in it, input errors included.
#[wasm_bindgen_test]
fn languages_need_their_catalogue() {
    let input = r#"{"vcpu": 2, "ram": "2G", "lang": "es"}"#;
    let err = api::render(&js(input), "nginx").unwrap_err();
    assert_eq!(get(&err, "field").as_string().as_deref(), Some("lang"));
    assert_eq!(
        api::set_catalogue(include_str!("../../core/i18n/es.json")).unwrap(),
        "es"
    );
    let es = nginx_gen_core::i18n::built_in(nginx_gen_core::Lang::Es);
    assert_eq!(
        api::render(&js(input), "nginx").unwrap(),
        render::render_in(&plan(input), render::Format::Nginx, &es)
    );
    assert_eq!(
        api::summary(&js(input)).unwrap(),
        render::summary_in(&plan(input), &es)
    );
    let err = api::render(&js(r#"{"vcpu": 0, "lang": "es"}"#), "nginx").unwrap_err();
    assert_eq!(
        get(&err, "accepted").as_string().as_deref(),
        Some("un número entero de 1 a 1024")
    );
    let err = api::set_catalogue("{}").unwrap_err();
    assert_eq!(get(&err, "field").as_string().as_deref(), Some("catalogue"));
}

#[wasm_bindgen_test]
fn render_summary_and_explain_match_core() {
    api::set_catalogue(include_str!("../../core/i18n/de.json")).unwrap();
    let input = r#"{"vcpu": 2, "ram": "2G", "workload": "proxy"}"#;
    let p = plan(input);
    for (i, name) in api::choices()
        .map(|c| get(&c, "format"))
        .map(|f| Array::from(&f))
        .unwrap()
        .iter()
        .enumerate()
    {
        let name = name.as_string().unwrap();
        let format = render::Format::ALL[i];
        assert_eq!(name, format.as_str());
        assert_eq!(
            api::render(&js(input), &name).unwrap(),
            render::render(&p, format),
            "{name}"
        );
    }
    assert_eq!(api::summary(&js(input)).unwrap(), render::summary(&p));
    let de = plan(r#"{"vcpu": 2, "ram": "2G", "workload": "proxy", "lang": "de"}"#);
    let german = nginx_gen_core::i18n::built_in(nginx_gen_core::Lang::De);
    assert_eq!(
        api::explain("worker_connections", Some("de".into()), &js(input)).unwrap(),
        render::explain_directive_in(&de, "worker_connections", &german).unwrap()
    );
    let default_plan = Plan::new(&Inputs::default());
    assert_eq!(
        api::explain("worker_processes", None, &JsValue::UNDEFINED).unwrap(),
        render::explain_directive(&default_plan, "worker_processes").unwrap()
    );
}

#[wasm_bindgen_test]
fn choices_list_every_accepted_name() {
    let c = api::choices().unwrap();
    let names = |k: &str| {
        Array::from(&get(&c, k))
            .iter()
            .map(|v| v.as_string().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(names("workload"), nginx_gen_core::Workload::NAMES);
    assert_eq!(names("layout"), nginx_gen_core::Layout::NAMES);
    assert_eq!(names("tls_profile"), nginx_gen_core::TlsProfile::NAMES);
    assert_eq!(names("lang"), nginx_gen_core::Lang::NAMES);
    assert_eq!(names("format"), render::Format::NAMES);
}

#[wasm_bindgen_test]
fn input_schema_is_the_registry_schema() {
    let schema = api::input_schema().unwrap();
    assert_eq!(
        text(&schema),
        serde_json::from_str::<serde_json::Value>(&nginx_gen_core::inputs::json_schema())
            .unwrap()
            .to_string()
    );
    let vcpu = get(&get(&schema, "properties"), "vcpu");
    assert_eq!(get(&vcpu, "maximum").as_f64(), Some(1024.0));
}

/// Every way an input can be wrong throws an `Error` naming the field, never a panic.
#[wasm_bindgen_test]
fn every_error_path_throws_a_named_error() {
    let cases: &[(&str, &str)] = &[
        (r#"{"vcpu": 0}"#, "vcpu"),
        (r#"{"vcpu": 1025}"#, "vcpu"),
        (r#"{"vcpu": "four"}"#, "vcpu"),
        (r#"{"vcpu": 4.5}"#, "vcpu"),
        (r#"{"vcpu": -1}"#, "vcpu"),
        (r#"{"vcpu": "99999999999999999999999"}"#, "vcpu"),
        (r#"{"ram": "8Q"}"#, "ram"),
        (r#"{"ram": "1M"}"#, "ram"),
        (r#"{"ram": "17T"}"#, "ram"),
        (r#"{"ram": 8}"#, "ram"),
        (r#"{"workload": "batch"}"#, "workload"),
        (r#"{"nginx_version": "1.2"}"#, "nginx_version"),
        (r#"{"nginx_version": "x"}"#, "nginx_version"),
        (r#"{"openssl_version": "1.0.2"}"#, "openssl_version"),
        (r#"{"tls": "yes"}"#, "tls"),
        (r#"{"tls_cert": "/etc/ssl/a.pem"}"#, "tls_key"),
        (r#"{"tls_key": "/etc/ssl/a.key"}"#, "tls_cert"),
        (
            r#"{"tls_cert": "relative.pem", "tls_key": "/k"}"#,
            "tls_cert",
        ),
        (r#"{"tls_profile": "old"}"#, "tls_profile"),
        (r#"{"tls_port": 0}"#, "tls_port"),
        (r#"{"tls_port": 70000}"#, "tls_port"),
        (r#"{"tls": true, "tls_port": 80}"#, "tls_port"),
        (r#"{"ocsp_stapling": true}"#, "ocsp_stapling"),
        (r#"{"http3": true}"#, "http3"),
        (
            r#"{"http3": true, "tls": true, "nginx_version": "1.22"}"#,
            "http3",
        ),
        (r#"{"server_names": []}"#, "server_names"),
        (r#"{"server_names": ["a;b"]}"#, "server_names"),
        (
            r#"{"server_names": ["a.example", "a.example"]}"#,
            "server_names",
        ),
        (r#"{"server_names": "example.com"}"#, "server_names"),
        (r#"{"root": "var/www"}"#, "root"),
        (r#"{"root": "/var/www/../etc"}"#, "root"),
        (r#"{"listen": ["0"]}"#, "listen"),
        (r#"{"listen": ["host:80"]}"#, "listen"),
        (r#"{"upstreams": ["10.0.0.5"]}"#, "upstreams"),
        (r#"{"upstreams": ["unix:relative.sock"]}"#, "upstreams"),
        (r#"{"clients": 0}"#, "clients"),
        (r#"{"static_files": -1}"#, "static_files"),
        (r#"{"response_size": "10"}"#, "response_size"),
        (r#"{"response_size": "2G"}"#, "response_size"),
        (r#"{"behind_lb": 1}"#, "behind_lb"),
        (
            r#"{"trusted_proxies": ["not-a-network"]}"#,
            "trusted_proxies",
        ),
        (r#"{"brotli": "no"}"#, "brotli"),
        (r#"{"layout": "bsd"}"#, "layout"),
        (r#"{"lang": "fr"}"#, "lang"),
        (r#"{"cpus": 4}"#, "cpus"),
        ("42", "input"),
        ("[1, 2]", "input"),
        ("true", "input"),
    ];
    for (input, field) in cases {
        let err = api::generate(&js(input), None).expect_err(input);
        assert_error(&err, field);
        // Every entry point validates the same way.
        assert_error(&api::render(&js(input), "nginx").expect_err(input), field);
        assert_error(&api::summary(&js(input)).expect_err(input), field);
        assert_error(
            &api::explain("worker_connections", None, &js(input)).expect_err(input),
            field,
        );
    }
    // Text that is not JSON at all, and a number where an object belongs.
    assert_error(
        &api::generate(&JsValue::from_str("{not json"), None).unwrap_err(),
        "input",
    );
    assert_error(
        &api::generate(&JsValue::from_f64(4.0), None).unwrap_err(),
        "input",
    );
    assert_error(
        &api::generate(&JsValue::from_bool(true), None).unwrap_err(),
        "input",
    );
}

#[wasm_bindgen_test]
fn the_date_comes_from_the_caller() {
    let cf = || js(r#"{"cdn": "cloudflare"}"#);
    let ids = |v: &JsValue| -> Vec<String> {
        Array::from(&get(v, "warnings"))
            .iter()
            .map(|w| get(&w, "id").as_string().unwrap())
            .collect()
    };
    assert!(ids(&api::generate(&cf(), None).unwrap()).is_empty());
    assert!(ids(&api::generate(&cf(), Some("2026-12-31".into())).unwrap()).is_empty());
    let old = api::generate(&cf(), Some("2027-12-31".into())).unwrap();
    assert_eq!(ids(&old), ["cdn_ranges"]);
    assert_error(
        &api::generate(&cf(), Some("31.12.2027".into())).unwrap_err(),
        "today",
    );
}

#[wasm_bindgen_test]
fn every_problem_is_listed() {
    let err = api::generate(
        &js(r#"{"vcpu": 0, "ram": "8Q", "workload": "x", "lang": "fr"}"#),
        None,
    )
    .unwrap_err();
    assert_error(&err, "vcpu");
    let fields: Vec<String> = Array::from(&get(&err, "errors"))
        .iter()
        .map(|e| get(&e, "field").as_string().unwrap())
        .collect();
    assert_eq!(fields, ["vcpu", "ram", "workload", "lang"]);
}

#[wasm_bindgen_test]
fn other_arguments_are_validated() {
    assert_error(
        &api::render(&JsValue::UNDEFINED, "pdf").unwrap_err(),
        "format",
    );
    assert_error(
        &api::explain("no_such_directive", None, &JsValue::UNDEFINED).unwrap_err(),
        "directive",
    );
    assert_error(
        &api::explain("worker_connections", Some("fr".into()), &JsValue::UNDEFINED).unwrap_err(),
        "lang",
    );
    let err = api::explain("nope", None, &JsValue::UNDEFINED).unwrap_err();
    assert!(
        get(&err, "accepted")
            .as_string()
            .unwrap()
            .contains("worker_connections"),
        "lists the known names"
    );
}

#[wasm_bindgen_test]
fn a_circular_object_is_an_input_error() {
    let obj = js_sys::Object::new();
    Reflect::set(&obj, &"self".into(), &obj).unwrap();
    assert_error(&api::generate(&obj, None).unwrap_err(), "input");
}

/// The install script's functions are not compiled in: `render(…, "script")` needs them
/// handed over first, and only this version's file is taken; then it is the CLI's script.
#[wasm_bindgen_test]
fn the_install_script_needs_its_steps() {
    let input = js(r#"{"vcpu": 2, "ram": "4G", "tls": true}"#);
    assert_error(&api::render(&input, "script").unwrap_err(), "format");
    assert_error(
        &api::set_install_steps("#!/bin/sh\necho another file\n".into()).unwrap_err(),
        "steps",
    );
    api::set_install_steps(include_str!("../../core/script/install-steps.sh").into()).unwrap();
    assert_eq!(
        api::render(&input, "script").unwrap(),
        render::install_script(&plan(r#"{"vcpu": 2, "ram": "4G", "tls": true}"#))
    );
}
