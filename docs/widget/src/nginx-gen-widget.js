// <nginx-gen-widget>: a live nginx-gen calculator for documentation pages.
//
//   <script type="module" src="nginx-gen-widget.js"></script>
//   <nginx-gen-widget vcpu="4" ram="8G" workload="static" show="nginx,sysctl"></nginx-gen-widget>
//
// The built file (wasm/build.sh) inlines the wasm-bindgen glue and loads
// nginx_gen_wasm_bg.wasm from next to itself. Attributes (docs/wasm.md has the full list):
//   any input of the JSON schema, in kebab-case: vcpu, ram, workload, tls, server-names
//     (comma-separated), upstreams, clients, lang, layout, … — the preset;
//   show   outputs, comma-separated: nginx, site, sysctl, systemd, explain, all, json,
//          script, summary (default "summary,nginx,sysctl");
//   form   "off" hides the form (vCPU, RAM, workload); shown otherwise;
//   theme  "light", "dark" or "auto" (default: follows prefers-color-scheme);
//   wasm   URL of the .wasm file, when it is not next to the script.
//   i18n   URL of the folder of language catalogues (default: i18n/ next to the script);
//          a widget whose lang is not English fetches <i18n>/<lang>.json once per page.
import * as glue from './glue.js'; // replaced by wasm/build-widget.mjs

const FILE_FORMATS = ['nginx', 'site', 'sysctl', 'systemd']; // the order of generate().files
const DEFAULT_SHOW = 'summary,nginx,sysctl';
const LISTS = new Set(['server_names', 'listen', 'upstreams', 'trusted_proxies', 'limit_paths']);
const FLAGS = new Set([
  'existing_default_server', 'tls', 'ocsp_stapling', 'ktls', 'http3', 'canonical',
  'upstream_resolve', 'cache_status', 'spa', 'behind_lb', 'proxy_protocol', 'rate_limit',
  'bootstrap', 'brotli',
]);
const INPUTS = [
  'vcpu', 'ram', 'workload', 'release', 'existing_default_server', 'nginx_version',
  'openssl_version', 'tls', 'tls_cert', 'tls_key', 'tls_profile', 'tls_port', 'ocsp_stapling',
  'resolver', 'ktls', 'file_max', 'http3', 'hsts', 'server_names', 'canonical', 'root', 'listen', 'upstreams',
  'upstream_resolve', 'clients', 'static_files', 'response_size', 'other_memory', 'cache',
  'cache_status', 'spa', 'behind_lb', 'trusted_proxies', 'cdn', 'proxy_protocol', 'rate_limit', 'limit_paths', 'max_body_size', 'bootstrap', 'brotli',
  'access_log', 'status_port', 'php_version', 'php_child_memory', 'layout', 'lang', 'policy',
];

let loading = null;
/** Loads the module once for every widget on the page. */
function load(url) {
  loading ??= glue.default(url ? { module_or_path: new URL(url, document.baseURI) } : undefined);
  return loading;
}

const catalogues = new Map(); // lang -> Promise, shared by every widget on the page
/** Hands the module the catalogue of `lang` (fetched once per page); English is built in. */
function catalogue(lang, base) {
  if (!lang || lang === 'en') return Promise.resolve();
  if (!catalogues.has(lang)) {
    const url = new URL(`${lang}.json`, new URL(base || './i18n/', base ? document.baseURI : import.meta.url));
    catalogues.set(lang, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      return r.text();
    }).then((text) => { glue.setCatalogue(text); }).catch((error) => {
      catalogues.delete(lang); // try again next time
      throw error;
    }));
  }
  return catalogues.get(lang);
}

let steps = null; // Promise, shared by every widget on the page
/** Hands the module the install script's functions (script/install-steps.sh next to this
 *  file, fetched once per page): only show="script" needs them, so they are not in the
 *  module. */
function installSteps() {
  steps ??= fetch(new URL('./script/install-steps.sh', import.meta.url)).then((r) => {
    if (!r.ok) throw new Error(`${r.url}: HTTP ${r.status}`);
    return r.text();
  }).then((text) => { glue.setInstallSteps(text); }).catch((error) => {
    steps = null; // try again next time
    throw error;
  });
  return steps;
}

const STYLE = `
:host { display: block; font: inherit; color: inherit; margin: 1.25em 0;
  --ngw-bg: #f7f7f8; --ngw-fg: #1d1d1f; --ngw-border: #d0d0d7; --ngw-accent: #0b6e4f;
  --ngw-code-bg: #ffffff; --ngw-error-bg: #fdecea; --ngw-error-fg: #8a1c12; }
:host([theme="dark"]) { --ngw-bg: #1f2126; --ngw-fg: #e8e8ea; --ngw-border: #3a3d45;
  --ngw-accent: #5fd3a5; --ngw-code-bg: #15171b; --ngw-error-bg: #3b1714; --ngw-error-fg: #ffb4a8; }
@media (prefers-color-scheme: dark) {
  :host(:not([theme="light"])) { --ngw-bg: #1f2126; --ngw-fg: #e8e8ea; --ngw-border: #3a3d45;
    --ngw-accent: #5fd3a5; --ngw-code-bg: #15171b; --ngw-error-bg: #3b1714; --ngw-error-fg: #ffb4a8; }
}
.box { background: var(--ngw-bg); color: var(--ngw-fg); border: 1px solid var(--ngw-border);
  border-radius: 8px; padding: .75em 1em; }
form { display: flex; flex-wrap: wrap; gap: .5em 1.25em; align-items: end; margin-bottom: .75em; }
label { display: flex; flex-direction: column; font-size: .85em; gap: .2em; }
input, select, button { font: inherit; color: inherit; background: var(--ngw-code-bg);
  border: 1px solid var(--ngw-border); border-radius: 4px; padding: .25em .45em; }
input { width: 7em; }
input[aria-invalid="true"] { border-color: var(--ngw-error-fg); outline: 1px solid var(--ngw-error-fg); }
.error, .failed { background: var(--ngw-error-bg); color: var(--ngw-error-fg); border-radius: 4px;
  padding: .5em .75em; margin: .5em 0; white-space: pre-wrap; }
.error:empty { display: none; }
.summary { margin: .25em 0 .75em; font-size: .9em; }
section { margin-top: .75em; }
header { display: flex; justify-content: space-between; align-items: center; gap: 1em; }
h4 { margin: 0; font-size: .9em; font-weight: 600; overflow-wrap: anywhere; }
button { cursor: pointer; font-size: .8em; }
button:hover { border-color: var(--ngw-accent); }
pre { background: var(--ngw-code-bg); border: 1px solid var(--ngw-border); border-radius: 4px;
  margin: .35em 0 0; padding: .6em .8em; overflow: auto; max-height: 28em; font-size: .8em;
  line-height: 1.45; font-family: var(--nginx-gen-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace); }
.loading { opacity: .7; font-style: italic; }
`;

/** Reads a RawInputs document from the element's attributes (kebab-case field names). */
function presetOf(el) {
  const raw = {};
  for (const field of INPUTS) {
    const value = el.getAttribute(field.replaceAll('_', '-'));
    if (value === null) continue;
    if (FLAGS.has(field)) raw[field] = value === '' || value === 'true' || value === field.replaceAll('_', '-');
    else if (LISTS.has(field)) raw[field] = value.split(',').map((s) => s.trim()).filter(Boolean);
    else raw[field] = value;
  }
  return raw;
}

function element(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v);
  }
  el.append(...children);
  return el;
}

class NginxGenWidget extends HTMLElement {
  static observedAttributes = ['show', 'form', ...INPUTS.map((f) => f.replaceAll('_', '-'))];

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.overrides = {}; // what the reader typed into the form
  }

  connectedCallback() {
    const box = element('div', { class: 'box', part: 'box' });
    box.append(element('p', { class: 'loading', text: 'Loading the nginx-gen calculator…' }));
    this.shadowRoot.replaceChildren(element('style', { text: STYLE }), box);
    this.box = box;
    load(this.getAttribute('wasm')).then(
      () => this.withLanguage(() => { this.ready = true; this.build(); }),
      (error) => this.fail(error),
    );
  }

  attributeChangedCallback() {
    if (this.ready) this.withLanguage(() => this.build());
  }

  /** Runs `then` once the catalogue of the widget's language (and, to show the install
   *  script, its functions) are loaded; when the catalogue cannot be, the widget shows
   *  English and says why; when the functions cannot be, the script's section does. */
  withLanguage(then) {
    this.languageProblem = null;
    this.scriptProblem = null;
    const lang = this.inputs().lang;
    const texts = catalogue(lang, this.getAttribute('i18n')).catch((error) => {
      this.languageProblem = `The ${lang} texts did not load (${error.message}); showing English.`;
    });
    const script = this.shown().includes('script') && installSteps().catch((error) => {
      this.scriptProblem = `The install script's functions did not load (${error.message}).`;
    });
    Promise.all([texts, script]).then(then);
  }

  /** The outputs the `show` attribute asks for. */
  shown() {
    return (this.getAttribute('show') || DEFAULT_SHOW).split(',').map((s) => s.trim()).filter(Boolean);
  }

  fail(error) {
    const where = this.getAttribute('wasm') || 'nginx_gen_wasm_bg.wasm next to nginx-gen-widget.js';
    this.box.replaceChildren(element('p', { class: 'failed', role: 'alert', part: 'error',
      text: `The nginx-gen calculator could not start: its WebAssembly module (${where}) did not load.\n${error}` }));
    this.setAttribute('data-state', 'failed');
  }

  /** The inputs: the preset from the attributes, then what the reader typed (English
   *  when the language's catalogue could not be loaded). */
  inputs() {
    const inputs = { ...presetOf(this), ...this.overrides };
    if (this.languageProblem) delete inputs.lang;
    return inputs;
  }

  build() {
    const children = [];
    const off = ['off', 'false', 'none'].includes((this.getAttribute('form') || '').toLowerCase());
    if (!off) children.push(this.buildForm());
    this.errorBox = element('div', { class: 'error', role: 'alert', part: 'error' });
    this.outputs = element('div', { part: 'outputs' });
    children.push(this.errorBox, this.outputs);
    this.box.replaceChildren(...children);
    this.update();
  }

  buildForm() {
    const preset = { ...glue.defaults(), ...presetOf(this), ...this.overrides };
    const form = element('form', { part: 'form' });
    form.addEventListener('submit', (e) => e.preventDefault());
    const field = (name, label, control) => {
      control.name = name;
      control.addEventListener('input', () => {
        this.overrides[name] = control.value;
        this.update();
      });
      form.append(element('label', {}, label, control));
    };
    field('vcpu', 'vCPU', element('input', { type: 'number', min: '1', max: '1024', inputmode: 'numeric', value: String(preset.vcpu) }));
    field('ram', 'RAM', element('input', { type: 'text', value: String(preset.ram), spellcheck: 'false', autocomplete: 'off' }));
    const select = element('select');
    for (const w of glue.choices().workload) select.append(element('option', { value: w, text: w }));
    select.value = preset.workload;
    field('workload', 'Workload', select);
    return form;
  }

  update() {
    const inputs = this.inputs();
    const show = this.shown();
    for (const control of this.shadowRoot.querySelectorAll('input, select')) control.removeAttribute('aria-invalid');
    let files;
    try {
      files = Object.keys(glue.generate(inputs).files);
      const sections = show.map((format) => {
        const text = format === 'summary' ? glue.summary(inputs)
          : format === 'script' && this.scriptProblem ? this.scriptProblem : glue.render(inputs, format);
        if (format === 'summary') return element('p', { class: 'summary', part: 'summary', 'data-format': 'summary', text });
        const i = FILE_FORMATS.indexOf(format);
        const title = i >= 0 ? files[i] : `nginx-gen --format ${format}`;
        return this.section(format, title, text);
      });
      this.outputs.replaceChildren(...sections);
      this.errorBox.textContent = this.languageProblem || '';
      this.setAttribute('data-state', 'ready');
    } catch (error) {
      // Invalid input: name the field and what is accepted; keep the last good output.
      const problems = error.errors || [{ field: 'input', message: String(error), accepted: '' }];
      this.errorBox.textContent = problems
        .map((p) => `${p.field}: ${p.message}${p.accepted ? ` (accepted: ${p.accepted})` : ''}`)
        .join('\n');
      for (const p of problems) this.shadowRoot.querySelector(`[name="${p.field}"]`)?.setAttribute('aria-invalid', 'true');
      this.setAttribute('data-state', 'invalid');
    }
  }

  section(format, title, text) {
    const code = element('code', { 'data-format': format, text });
    const copy = element('button', { type: 'button', part: 'copy', 'aria-label': `Copy ${title}`, text: 'Copy' });
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(code.textContent);
        copy.textContent = 'Copied';
      } catch {
        const range = document.createRange();
        range.selectNodeContents(code);
        const sel = getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        copy.textContent = 'Selected: press Ctrl+C';
      }
      setTimeout(() => { copy.textContent = 'Copy'; }, 2000);
    });
    return element('section', { 'data-format': format },
      element('header', {}, element('h4', { text: title }), copy),
      element('pre', { part: 'code' }, code));
  }
}

if (!customElements.get('nginx-gen-widget')) customElements.define('nginx-gen-widget', NginxGenWidget);
export { NginxGenWidget };
