// The web page end to end: dist/ (built by `trunk build --release`) served from 127.0.0.1
// by a plain static server, driven in Debian's Chromium with playwright-core.
//   trunk build --release && cargo build --release -p nginx-gen && node --test tests/e2e/web.test.mjs
// For 24 input combinations the text of every output tab must equal, byte for byte, what
// `nginx-gen --format …` prints for the same inputs. Also: share-URL round trip, language
// switch, invalid input marked at the field, the .tar.gz download, keyboard use, no
// third-party request, offline reload. Screenshots go to tests/artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, cli, DIST, ARTIFACTS, CLI } from './web/harness.mjs';

const TABS = ['nginx', 'site', 'sysctl', 'systemd', 'json', 'script'];

// Each combination: CLI flags (beyond --vcpu/--ram) and the same inputs as form actions.
// A form action is [field, value]: text for text inputs, a choice for selects, true/false
// for checkboxes; `lang` is the language switcher.
const COMBOS = [
  { vcpu: 4, ram: '8G', set: [] },
  { vcpu: 1, ram: '512M', set: [] },
  { vcpu: 2, ram: '2G', set: [['workload', 'proxy']] },
  { vcpu: 8, ram: '16G', set: [['workload', 'api'], ['upstreams', '10.0.0.2:9000, 10.0.0.3:9000']] },
  { vcpu: 16, ram: '64G', set: [['workload', 'mixed'], ['tls', true]] },
  { vcpu: 4, ram: '8G', set: [['release', 'debian-13'], ['tls', true], ['http3', true]] },
  { vcpu: 4, ram: '8G', set: [['tls', true], ['tls_profile', 'modern'], ['ocsp_stapling', true]] },
  { vcpu: 2, ram: '4G', set: [['nginx_version', '1.22'], ['tls', true]] },
  { vcpu: 32, ram: '128G', set: [['workload', 'proxy'], ['behind_lb', true], ['trusted_proxies', '10.1.0.0/16']] },
  { vcpu: 4, ram: '8G', set: [['brotli', true], ['static_files', '500000']] },
  { vcpu: 4, ram: '8G', set: [['layout', 'rhel'], ['brotli', true]] },
  { vcpu: 4, ram: '8G', set: [['layout', 'docker'], ['workload', 'proxy']] },
  { vcpu: 4, ram: '8G', set: [['layout', 'nginx-org'], ['root', '/srv/www']] },
  { vcpu: 6, ram: '12G', set: [['clients', '50000']] },
  { vcpu: 4, ram: '1G', set: [['clients', '100000'], ['workload', 'api']] },
  { vcpu: 4, ram: '8G', set: [['server_names', 'shop.example, www.shop.example'], ['tls', true]] },
  { vcpu: 4, ram: '8G', set: [['listen', '127.0.0.1:8080'], ['workload', 'proxy'], ['upstreams', 'unix:/run/app.sock']] },
  { vcpu: 4, ram: '8G', set: [['tls', true], ['tls_port', '8443'], ['tls_cert', '/etc/ssl/site.pem'], ['tls_key', '/etc/ssl/site.key']] },
  { vcpu: 4, ram: '8G', set: [['openssl_version', '3.5'], ['tls', true]] },
  { vcpu: 4, ram: '8G', set: [['response_size', '1M'], ['workload', 'proxy']] },
  { vcpu: 4, ram: '8G', set: [['lang', 'de'], ['tls', true]] },
  { vcpu: 2, ram: '2G', set: [['lang', 'ru'], ['workload', 'mixed']] },
  { vcpu: 8, ram: '32G', set: [['lang', 'nl'], ['workload', 'api'], ['behind_lb', true]] },
  { vcpu: 3, ram: '1.5G', set: [['lang', 'es'], ['release', 'nginx-org-stable'], ['tls', true], ['http3', true], ['brotli', true], ['workload', 'mixed']] },
];

const FLAG = { upstreams: 'upstream', server_names: 'server-name', trusted_proxies: 'trusted-proxy' };
const SELECTS = new Set(['workload', 'release', 'layout', 'tls_profile']);

/** The CLI flags for a combination. */
function flags(combo) {
  const args = ['--vcpu', String(combo.vcpu), '--ram', combo.ram];
  for (const [field, value] of combo.set) {
    if (value === true) args.push(`--${field.replaceAll('_', '-')}`);
    else if (FLAG[field]) for (const v of value.split(/[,\s]+/).filter(Boolean)) args.push(`--${FLAG[field]}`, v);
    else args.push(`--${field.replaceAll('_', '-')}`, value);
  }
  return args;
}

/** Sets one input the way a user does. */
async function setInput(page, field, value) {
  if (field === 'lang') return page.selectOption('#lang', value);
  if (value === true || value === false) return page.setChecked(`#f-${field}`, value);
  if (SELECTS.has(field)) return page.selectOption(`#f-${field}`, value);
  return page.fill(`#f-${field}`, value);
}

/** The text a tab shows (after clicking it). */
async function tabText(page, tab) {
  await page.click(`[data-testid=tab-${tab}]`);
  return page.locator(`[data-testid=out-${tab}]`).textContent();
}

/** Waits (bounded) until the nginx tab shows `want`; returns what it shows. */
async function waitForText(page, tab, want) {
  let got = '';
  for (let i = 0; i < 50; i += 1) {
    got = await tabText(page, tab);
    if (got === want) break;
    await page.waitForTimeout(100);
  }
  return got;
}

function firstDifference(a, b) {
  const la = a.split('\n'), lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i += 1) {
    if (la[i] !== lb[i]) return `line ${i + 1}:\n  page: ${JSON.stringify(la[i])}\n  cli:  ${JSON.stringify(lb[i])}`;
  }
  return 'equal';
}

let site, context, outside = [];

before(async () => {
  assert.ok(existsSync(path.join(DIST, 'index.html')), 'dist/ is missing: run trunk build --release');
  assert.ok(existsSync(CLI), `${CLI} is missing: run cargo build --release -p nginx-gen`);
  mkdirSync(ARTIFACTS, { recursive: true });
  site = await serve(DIST);
  context = await launch();
  // Any request to another host fails the run (the page must need none).
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== new URL(site.base).origin && url.protocol.startsWith('http')) {
      outside.push(url.href);
      return route.abort();
    }
    return route.continue();
  });
});

after(async () => {
  await context?.close();
  site?.server.close();
});

async function openPage(query = '') {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(site.base + query);
  await page.waitForSelector('[data-testid=out-nginx]');
  return { page, errors };
}

test('every tab equals the CLI byte for byte for 24 input combinations', async () => {
  const { page, errors } = await openPage('?lang=en');
  for (const [n, combo] of COMBOS.entries()) {
    await page.click('[data-testid=reset]');
    await page.selectOption('#lang', 'en');
    await setInput(page, 'vcpu', String(combo.vcpu));
    await setInput(page, 'ram', combo.ram);
    for (const [field, value] of combo.set) await setInput(page, field, value);
    const args = flags(combo);
    for (const tab of TABS) {
      const want = cli([...args, '--format', tab]);
      const got = tab === 'nginx' ? await waitForText(page, tab, want) : await tabText(page, tab);
      assert.ok(got === want, `combination ${n} (${args.join(' ')}) --format ${tab}: ${firstDifference(got, want)}`);
    }
    assert.equal(await page.locator('[data-testid=invalid-notice]').count(), 0, `combination ${n} is valid`);
    // The command the page shows reproduces the same inputs.
    const command = await page.locator('[data-testid=command]').textContent();
    const shown = command.split(' ').slice(1);
    assert.equal(cli([...shown, '--format', 'nginx']), cli([...args, '--format', 'nginx']), `combination ${n}: ${command}`);
    // The install tab (the last one shown) gives apply and check for the same inputs.
    const rest = command.slice('nginx-gen'.length);
    assert.equal(await page.locator('[data-testid=apply-command]').textContent(), `sudo nginx-gen apply${rest}`);
    assert.equal(await page.locator('[data-testid=check-command]').textContent(), `sudo nginx-gen check${rest}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('share URL: every input and the policy, versioned; opening it reproduces the output', async () => {
  const { page } = await openPage();
  await page.selectOption('#lang', 'en');
  await page.fill('#f-vcpu', '8');
  await page.selectOption('#f-workload', 'proxy');
  await page.setChecked('#f-tls', true);
  await page.fill('#f-server_names', 'a.example, b.example');
  // Every input is written (a later default cannot change an old link), with the policy.
  const want = ['?v=1&vcpu=8&ram=8G&', '&workload=proxy&', '&server_names=a.example,b.example&',
    '&tls=1&', '&http3=0&', '&lang=en&policy='];
  const complete = (u) => want.every((part) => u.search.includes(part));
  await page.waitForURL(complete, { timeout: 5000 }).catch(() => {});
  const url = new URL(page.url());
  for (const part of want) assert.ok(url.search.includes(part), `${part} in ${url.search}`);
  await page.click('[data-testid=share]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url.href);
  const texts = {};
  for (const tab of TABS) texts[tab] = await tabText(page, tab);

  const { page: again, errors } = await openPage(url.search);
  for (const tab of TABS) assert.equal(await tabText(again, tab), texts[tab], tab);
  assert.equal(await again.inputValue('#f-vcpu'), '8');
  assert.equal(texts.nginx, cli(['--vcpu', '8', '--ram', '8G', '--workload', 'proxy', '--tls', '--server-name', 'a.example', '--server-name', 'b.example', '--format', 'nginx']));
  assert.deepEqual(errors, []);
  await page.close();
  await again.close();
});

test('a link written under another tuning policy opens, and the page says so', async () => {
  const { page, errors } = await openPage('?v=1&vcpu=2&policy=2026.11&lang=en');
  const warnings = page.locator('[data-testid=warnings]');
  await warnings.getByText('2026.11').waitFor({ timeout: 5000 });
  const text = await warnings.textContent();
  assert.match(text, /tuning policy 2026\.11/, text);
  assert.equal(await tabText(page, 'nginx'), cli(['--vcpu', '2', '--ram', '8G', '--policy', '2026.11', '--format', 'nginx']));
  assert.deepEqual(errors, []);
  await page.close();
});

test('unknown or invalid URL parameters fall back to the defaults with a visible notice', async () => {
  const { page } = await openPage('?v=1&vcpu=0&ram=16G&colour=blue&http3=1&lang=en');
  const notice = page.locator('[data-testid=url-notice]');
  await notice.waitFor();
  const text = await notice.textContent();
  for (const part of ['colour=blue', 'vcpu=0', 'http3=1']) assert.ok(text.includes(part), text);
  assert.equal(await tabText(page, 'nginx'), cli(['--vcpu', '4', '--ram', '16G', '--format', 'nginx']));
  const fallback = ['?v=1&vcpu=4&ram=16G&', '&http3=0&'];
  const rewritten = (u) => fallback.every((part) => u.search.includes(part)) && !u.search.includes('colour');
  await page.waitForURL(rewritten, { timeout: 5000 }).catch(() => {});
  assert.ok(rewritten(new URL(page.url())), new URL(page.url()).search);
  await page.close();
});

/** The language catalogues a page requests (from the server or its service worker). */
function catalogueRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (p.includes('/i18n/')) seen.push(p.replace(/^.*\/i18n\//, ''));
  });
  return seen;
}

test('language switch: UI text, reasons and the URL follow; browser language is detected', async () => {
  const page = await context.newPage();
  const fetched = catalogueRequests(page);
  await page.goto(site.base + '?lang=en');
  await page.waitForSelector('[data-testid=out-nginx]');
  assert.deepEqual(fetched, [], 'English needs no catalogue');
  await page.selectOption('#lang', 'de');
  await page.locator('h2#inputs-title', { hasText: 'Ihre Maschine' }).waitFor();
  assert.deepEqual(fetched, ['de.json'], 'a switch fetches exactly one catalogue');
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  await page.waitForURL((u) => /lang=de/.test(u.search), { timeout: 5000 }).catch(() => {});
  assert.match(new URL(page.url()).search, /lang=de/);
  assert.equal(await tabText(page, 'nginx'), cli(['--vcpu', '4', '--ram', '8G', '--lang', 'de', '--format', 'nginx']));
  // The reason panel shows the translated reason of a focused directive.
  await page.locator('[data-testid=out-nginx] .dir').first().focus();
  assert.match(await page.locator('[data-testid=reason-why]').textContent(), /unprivilegierten Konto/);
  // Warnings, the capacity line and input errors follow the language too.
  await page.fill('#f-ram', '16Q');
  await page.locator('#f-ram[aria-invalid=true]').waitFor();
  assert.match(await page.locator('[data-testid=field-ram]').textContent(), /unbekannte Einheit 'Q'/);
  await page.fill('#f-ram', '8G');
  await page.selectOption('#lang', 'es');
  await page.locator('h2#inputs-title', { hasText: 'Su máquina' }).waitFor();
  await page.selectOption('#lang', 'de');
  await page.locator('h2#inputs-title', { hasText: 'Ihre Maschine' }).waitFor();
  await page.selectOption('#lang', 'en');
  await page.locator('h2#inputs-title', { hasText: 'Your machine' }).waitFor();
  assert.deepEqual(fetched, ['de.json', 'es.json'], 'each catalogue is fetched once, English never');
  assert.equal(await tabText(page, 'nginx'), cli(['--vcpu', '4', '--ram', '8G', '--format', 'nginx']));
  await page.close();

  // Browser language: without lang in the URL the page follows navigator.languages.
  const p2 = await context.newPage();
  await p2.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['fr-FR', 'nl-NL', 'en'] }));
  await p2.goto(site.base);
  await p2.locator('h2#inputs-title', { hasText: 'Je machine' }).waitFor();
  await p2.waitForURL((u) => /lang=nl/.test(u.search), { timeout: 5000 }).catch(() => {});
  assert.match(new URL(p2.url()).search, /lang=nl/);
  await p2.close();
});

test('invalid input is marked at the field with the core message; the last valid output stays', async () => {
  const { page } = await openPage('?lang=en');
  await page.fill('#f-vcpu', '2');
  const before = await waitForText(page, 'nginx', cli(['--vcpu', '2', '--ram', '8G', '--format', 'nginx']));
  await page.fill('#f-ram', '8Q');
  const error = page.locator('[data-testid=error-ram]');
  await error.waitFor();
  assert.equal(await page.getAttribute('#f-ram', 'aria-invalid'), 'true');
  assert.match(await page.getAttribute('#f-ram', 'aria-describedby'), /e-ram/);
  // The message is the core's: the CLI names the same problem.
  let stderr = '';
  try { execFileSync(CLI, ['--vcpu', '2', '--ram', '8Q'], { encoding: 'utf8', stdio: 'pipe' }); } catch (e) { stderr = e.stderr; }
  const message = await error.locator('.msg').textContent();
  assert.ok(stderr.includes(message), `page: ${message}\ncli: ${stderr}`);
  await page.locator('[data-testid=invalid-notice]').waitFor();
  assert.equal(await tabText(page, 'nginx'), before);
  await page.screenshot({ path: path.join(ARTIFACTS, 'web-invalid.png') });
  await page.fill('#f-ram', '4G');
  await error.waitFor({ state: 'detached' });
  await page.close();
});

test('download: a .tar.gz laid out like /etc with the CLI files', async () => {
  const { page } = await openPage('?v=1&workload=mixed&tls=1&lang=en');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  assert.equal(download.suggestedFilename(), 'nginx-gen.tar.gz');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nginx-gen-tgz-'));
  const tgz = path.join(dir, 'out.tar.gz');
  await download.saveAs(tgz);
  execFileSync('gzip', ['-t', tgz]);
  const listing = execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' }).trim().split('\n');
  const out = path.join(dir, 'x');
  mkdirSync(out);
  execFileSync('tar', ['-xzf', tgz, '-C', out]);
  const all = cli(['--vcpu', '4', '--ram', '8G', '--workload', 'mixed', '--tls', '--format', 'all']);
  const files = [...all.matchAll(/^==> (\/\S+) <==\n/gm)].map((m) => m[1]);
  assert.equal(files.length, 4);
  for (const f of files) {
    assert.ok(listing.includes(f.slice(1)), `${f} in ${listing}`);
    const want = cli(['--vcpu', '4', '--ram', '8G', '--workload', 'mixed', '--tls', '--format',
      f.includes('sysctl') ? 'sysctl' : f.includes('systemd') ? 'systemd' : f.endsWith('nginx.conf') ? 'nginx' : 'site']);
    assert.equal(readFileSync(path.join(out, f), 'utf8'), want, f);
  }
  await page.close();
});

test('keyboard: tabs with arrow keys, directives focusable, reasons shown; copy button', async () => {
  const { page } = await openPage('?lang=en');
  await page.focus('[data-testid=tab-nginx]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid=tab-site][aria-selected=true]', { timeout: 5000 });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-site');
  await page.keyboard.press('End');
  await page.waitForSelector('[data-testid=tab-script][aria-selected=true]', { timeout: 5000 });
  await page.keyboard.press('Home');
  await page.waitForSelector('[data-testid=tab-nginx][aria-selected=true]', { timeout: 5000 });
  await page.keyboard.press('Tab'); // → copy button of the panel
  await page.keyboard.press('Tab'); // → first directive line
  const focused = await page.evaluate(() => document.activeElement.className);
  assert.match(focused, /dir/);
  await page.locator('[data-testid=reason-why]').waitFor({ timeout: 5000 });
  assert.ok((await page.locator('[data-testid=reason-why]').textContent()).length > 10);
  await page.click('[data-testid=copy]');
  await page.locator('[data-testid=copy-status]', { hasText: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), cli(['--vcpu', '4', '--ram', '8G', '--format', 'nginx']));
  // Every form control has a label; the output announces politely.
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select')]
    .filter((el) => !el.labels?.length && !el.getAttribute('aria-label')).map((el) => el.id));
  assert.deepEqual(unlabelled, []);
  assert.equal(await page.locator('#output [aria-live=polite]').count(), 1);
  await page.close();
});

test('themes: follows prefers-color-scheme and the toggle; phone width has no horizontal scroll', async () => {
  const { page } = await openPage('?lang=en');
  await page.emulateMedia({ colorScheme: 'dark' });
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await bg();
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await bg();
  assert.notEqual(dark, light);
  await page.click('[data-testid=theme]'); // auto → light
  await page.click('[data-testid=theme]'); // light → dark
  await page.waitForSelector('html[data-theme=dark]', { timeout: 5000 });
  assert.equal(await bg(), dark);
  await page.screenshot({ path: path.join(ARTIFACTS, 'web-dark.png') });
  await page.click('[data-testid=theme]'); // back to auto
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at 375px`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'web-phone.png') });
  await page.close();
});

test('offline: after the first visit the page loads and works with the network cut', async () => {
  const { page } = await openPage('?lang=en');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  // Reload once so the page is controlled by the worker, then cut the network.
  await page.reload();
  await page.waitForSelector('[data-testid=out-nginx]');
  assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller));
  // Use Russian once while online: the worker keeps its catalogue.
  await page.selectOption('#lang', 'ru');
  await page.locator('h2#inputs-title', { hasText: 'Ваша машина' }).waitFor();
  await page.selectOption('#lang', 'en');
  await context.setOffline(true);
  const before = site.stats.requests;
  try {
    await page.goto(site.base + '?v=1&vcpu=2&lang=en');
    await page.waitForSelector('[data-testid=out-nginx]');
    assert.equal(await tabText(page, 'nginx'), cli(['--vcpu', '2', '--ram', '8G', '--format', 'nginx']));
    await page.fill('#f-vcpu', '6');
    assert.equal(await waitForText(page, 'nginx', cli(['--vcpu', '6', '--ram', '8G', '--format', 'nginx'])),
      cli(['--vcpu', '6', '--ram', '8G', '--format', 'nginx']));
    // Switching to a language used before works offline.
    await page.selectOption('#lang', 'ru');
    await page.locator('h2#inputs-title', { hasText: 'Ваша машина' }).waitFor();
    const ru = cli(['--vcpu', '6', '--ram', '8G', '--lang', 'ru', '--format', 'nginx']);
    assert.equal(await waitForText(page, 'nginx', ru), ru);
  } finally {
    await context.setOffline(false);
  }
  assert.equal(site.stats.requests, before, 'no request reached the server while offline');
  await page.close();
});

test('screenshot of the page, and no request left 127.0.0.1', async () => {
  const { page } = await openPage('?v=1&workload=proxy&tls=1&http3=1&lang=en');
  await page.locator('[data-testid=out-nginx] .dir').nth(1).hover();
  await page.screenshot({ path: path.join(ARTIFACTS, 'web.png') });
  await page.screenshot({ path: path.join(ARTIFACTS, 'web-full.png'), fullPage: true });
  assert.deepEqual(outside, []);
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, 'index.html loads nothing from another host');
  writeFileSync(path.join(ARTIFACTS, 'web-e2e.txt'), `combinations: ${COMBOS.length}\n`);
  await page.close();
});
