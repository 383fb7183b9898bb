// The documentation widget in a real browser: docs/widget/ served as-is from 127.0.0.1 by a
// plain static server, driven in Debian's Chromium with playwright-core. Each widget's text
// must be the CLI's for its preset. Screenshots: tests/artifacts/widget*.png.
//   wasm/build.sh web && cargo build --release -p nginx-gen && node --test tests/e2e/widget.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ARTIFACTS, CLI, ROOT, serve } from './web/harness.mjs';

const SITE = path.join(ROOT, 'docs', 'widget');

let server, base, browser;

before(async () => {
  for (const f of ['nginx-gen-widget.js', 'nginx_gen_wasm_bg.wasm']) {
    assert.ok(existsSync(path.join(SITE, f)), `docs/widget/${f} is missing: run wasm/build.sh web`);
  }
  ({ server, base } = await serve(SITE));
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
    // playwright-core starts Chromium with a fresh temporary profile of its own.
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

const LISTS = { 'server-names': 'server-name', upstreams: 'upstream', 'trusted-proxies': 'trusted-proxy' };
const FLAGS = new Set(['tls', 'ocsp-stapling', 'http3', 'behind-lb', 'brotli']);
const NOT_INPUTS = new Set(['id', 'show', 'form', 'theme', 'wasm', 'i18n', 'data-state', 'class', 'style']);

/** The CLI flags for a widget's attributes (the preset). */
function flagsOf(attrs) {
  const args = [];
  for (const [name, value] of Object.entries(attrs)) {
    if (NOT_INPUTS.has(name)) continue;
    if (LISTS[name]) for (const v of value.split(',')) args.push(`--${LISTS[name]}`, v.trim());
    else if (FLAGS.has(name)) { if (value !== 'false') args.push(`--${name}`); }
    else args.push(`--${name}`, value);
  }
  assert.ok(args.includes('--vcpu') && args.includes('--ram'), 'presets give vcpu and ram');
  return args;
}

// Without host detection: the widget has none, so it matches the CLI's `--no-detect` output.
const cli = (args) => execFileSync(CLI, args.includes('--no-detect') ? args : [...args, '--no-detect'], { encoding: 'utf8' });

/** Every widget: its attributes, state and the text of each output. */
function readWidgets(page) {
  return page.evaluate(() => [...document.querySelectorAll('nginx-gen-widget')].map((w) => ({
    id: w.id,
    state: w.getAttribute('data-state'),
    attrs: Object.fromEntries([...w.attributes].map((a) => [a.name, a.value])),
    outputs: Object.fromEntries([...w.shadowRoot.querySelectorAll('[data-format]')]
      .filter((el) => el.tagName === 'CODE' || el.tagName === 'P')
      .map((el) => [el.dataset.format, el.textContent])),
    titles: [...w.shadowRoot.querySelectorAll('section h4')].map((h) => h.textContent),
    error: w.shadowRoot.querySelector('.error, .failed')?.textContent ?? '',
    hasForm: !!w.shadowRoot.querySelector('form'),
  })));
}

async function openPage(options = {}) {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'], ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  return { context, page, problems };
}

/** Checks each output of a widget against the CLI for the given flags. */
function assertSameAsCli(widget, flags) {
  const show = widget.attrs.show.split(',');
  assert.deepEqual(Object.keys(widget.outputs).sort(), [...show].sort(), `${widget.id}: every output shown`);
  for (const format of show) {
    const text = widget.outputs[format];
    if (format === 'summary') {
      // The summary is what the CLI prints after the files.
      assert.ok(text.length > 40 && cli([...flags, '--format', 'all']).endsWith(text), `${widget.id}: summary`);
    } else {
      assert.equal(text, cli([...flags, '--format', format]), `${widget.id}: --format ${format} ${flags.join(' ')}`);
    }
  }
}

test('both widgets of the example page show the CLI text for their presets', async () => {
  const { context, page, problems } = await openPage();
  await page.goto(base);
  await page.waitForFunction(() => [...document.querySelectorAll('nginx-gen-widget')].every((w) => w.dataset.state === 'ready'));
  const widgets = await readWidgets(page);
  assert.equal(widgets.length, 2);
  assert.notDeepEqual(flagsOf(widgets[0].attrs), flagsOf(widgets[1].attrs), 'different presets');
  for (const w of widgets) {
    assert.equal(w.error, '', `${w.id}: no error`);
    assertSameAsCli(w, flagsOf(w.attrs));
  }
  // File outputs are titled with their install path, as the CLI writes them.
  const files = JSON.parse(cli([...flagsOf(widgets[0].attrs), '--format', 'json'])).settings.map((s) => s.file);
  for (const title of widgets[0].titles) assert.ok(files.includes(title), title);
  assert.equal(widgets[0].hasForm, true);
  assert.equal(widgets[1].hasForm, false, 'form="off"');
  await page.screenshot({ path: path.join(ARTIFACTS, 'widget.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('typing in the form recomputes; invalid input names the field and keeps a visible message', async () => {
  const { context, page, problems } = await openPage();
  await page.goto(base);
  const widget = page.locator('nginx-gen-widget#static');
  await page.waitForFunction(() => document.querySelector('#static').dataset.state === 'ready');
  await widget.locator('input[name="vcpu"]').fill('8');
  await widget.locator('input[name="ram"]').fill('16G');
  await widget.locator('select[name="workload"]').selectOption('mixed');
  let [w] = await readWidgets(page);
  assertSameAsCli(w, ['--vcpu', '8', '--ram', '16G', '--workload', 'mixed']);

  await widget.locator('input[name="ram"]').fill('16Q');
  await page.waitForFunction(() => document.querySelector('#static').dataset.state === 'invalid');
  [w] = await readWidgets(page);
  assert.match(w.error, /^ram: .*16Q.*\(accepted: .+\)/);
  assert.equal(await widget.locator('input[name="ram"]').getAttribute('aria-invalid'), 'true');
  assert.equal(await widget.locator('.error').isVisible(), true);
  // The last good output stays.
  assertSameAsCli(w, ['--vcpu', '8', '--ram', '16G', '--workload', 'mixed']);
  await widget.locator('input[name="ram"]').fill('2G');
  await page.waitForFunction(() => document.querySelector('#static').dataset.state === 'ready');
  [w] = await readWidgets(page);
  assertSameAsCli(w, ['--vcpu', '8', '--ram', '2G', '--workload', 'mixed']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a widget whose lang asks for another language fetches its catalogue once', async () => {
  const { context, page, problems } = await openPage();
  const fetched = [];
  page.on('request', (r) => { if (r.url().includes('/i18n/')) fetched.push(new URL(r.url()).pathname); });
  await page.route('**/i18n/es.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto(base);
  await page.waitForFunction(() => [...document.querySelectorAll('nginx-gen-widget')].every((w) => w.dataset.state === 'ready'));
  assert.deepEqual(fetched, [], 'English widgets fetch no catalogue');
  const add = (id, lang) => page.evaluate(([id, lang]) => {
    const w = document.createElement('nginx-gen-widget');
    Object.entries({ id, vcpu: '2', ram: '4G', workload: 'proxy', lang, show: 'nginx,summary', form: 'off' })
      .forEach(([k, v]) => w.setAttribute(k, v));
    document.body.append(w);
  }, [id, lang]);
  await add('de1', 'de');
  await add('de2', 'de');
  await page.waitForFunction(() => ['de1', 'de2'].every((id) => document.getElementById(id).dataset.state === 'ready'));
  assert.deepEqual(fetched, ['/i18n/de.json'], 'one request for two German widgets');
  const flags = ['--vcpu', '2', '--ram', '4G', '--workload', 'proxy', '--lang', 'de'];
  for (const w of (await readWidgets(page)).filter((w) => w.id.startsWith('de'))) {
    assert.equal(w.error, '', `${w.id}: no error`);
    assertSameAsCli(w, flags);
    assert.match(w.outputs.summary, /^Kapazität: /);
  }
  // A catalogue that cannot be fetched: English output and a visible note.
  await add('es', 'es');
  await page.waitForFunction(() => document.getElementById('es').dataset.state === 'ready');
  const es = (await readWidgets(page)).find((w) => w.id === 'es');
  assert.match(es.error, /The es texts did not load .*404.*showing English/);
  assert.equal(es.outputs.nginx, cli(['--vcpu', '2', '--ram', '4G', '--workload', 'proxy', '--format', 'nginx']));
  assert.deepEqual(problems.filter((p) => !p.includes('404')), []);
  await context.close();
});

test('show="script" fetches the install script\'s functions once and gives the CLI\'s script', async () => {
  const { context, page, problems } = await openPage();
  const fetched = [];
  page.on('request', (r) => { if (r.url().includes('/script/')) fetched.push(new URL(r.url()).pathname); });
  await page.goto(base);
  await page.waitForFunction(() => [...document.querySelectorAll('nginx-gen-widget')].every((w) => w.dataset.state === 'ready'));
  assert.deepEqual(fetched, [], 'widgets without the script fetch nothing more');
  for (const id of ['s1', 's2']) {
    await page.evaluate((id) => {
      const w = document.createElement('nginx-gen-widget');
      Object.entries({ id, vcpu: '2', ram: '4G', workload: 'proxy', tls: '', show: 'script', form: 'off' })
        .forEach(([k, v]) => w.setAttribute(k, v));
      document.body.append(w);
    }, id);
  }
  await page.waitForFunction(() => ['s1', 's2'].every((id) => document.getElementById(id).dataset.state === 'ready'));
  assert.deepEqual(fetched, ['/script/install-steps.sh'], 'one request for two widgets');
  for (const w of (await readWidgets(page)).filter((w) => ['s1', 's2'].includes(w.id))) {
    assert.equal(w.error, '', `${w.id}: no error`);
    assertSameAsCli(w, ['--vcpu', '2', '--ram', '4G', '--workload', 'proxy', '--tls']);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('copy buttons put the exact file on the clipboard', async () => {
  const { context, page } = await openPage();
  await page.goto(base);
  await page.waitForFunction(() => document.querySelector('#proxy').dataset.state === 'ready');
  const section = page.locator('nginx-gen-widget#proxy section[data-format="site"]');
  await section.locator('button').click();
  await page.waitForFunction(() => document.querySelector('#proxy').shadowRoot
    .querySelector('section[data-format="site"] button').textContent === 'Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const [, w] = await readWidgets(page);
  assert.equal(copied, cli([...flagsOf(w.attrs), '--format', 'site']));
  await context.close();
});

test('inherits the page font; light and dark modes', async () => {
  const { context, page } = await openPage({ colorScheme: 'light' });
  await page.goto(base);
  await page.waitForFunction(() => [...document.querySelectorAll('nginx-gen-widget')].every((w) => w.dataset.state === 'ready'));
  const look = () => page.evaluate(() => {
    const box = (id) => getComputedStyle(document.querySelector(id).shadowRoot.querySelector('.box'));
    const label = getComputedStyle(document.querySelector('#static').shadowRoot.querySelector('label'));
    return { body: getComputedStyle(document.body).fontFamily, label: label.fontFamily,
      staticBg: box('#static').backgroundColor, proxyBg: box('#proxy').backgroundColor };
  });
  const lum = (rgb) => rgb.match(/\d+/g).slice(0, 3).reduce((a, b) => a + Number(b), 0) / 3;
  let l = await look();
  assert.equal(l.label, l.body, 'the form uses the host page font');
  assert.ok(lum(l.staticBg) > 200, `light by default: ${l.staticBg}`);
  assert.ok(lum(l.proxyBg) < 60, `theme="dark": ${l.proxyBg}`);
  await page.emulateMedia({ colorScheme: 'dark' });
  l = await look();
  assert.ok(lum(l.staticBg) < 60, `follows prefers-color-scheme: dark: ${l.staticBg}`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'widget-dark.png'), fullPage: true });
  await context.close();
});

test('a missing .wasm gives a visible message, not a blank box', async () => {
  const { context, page } = await openPage();
  await page.route('**/nginx_gen_wasm_bg.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto(base);
  await page.waitForFunction(() => [...document.querySelectorAll('nginx-gen-widget')].every((w) => w.dataset.state === 'failed'));
  for (const w of await readWidgets(page)) {
    assert.match(w.error, /could not start: its WebAssembly module .* did not load/);
  }
  assert.equal(await page.locator('nginx-gen-widget#static .failed').isVisible(), true);
  await page.screenshot({ path: path.join(ARTIFACTS, 'widget-failed.png') });
  await context.close();
});
