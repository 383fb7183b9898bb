// Keystroke latency of the web page: from the input event to the output on screen, in
// Debian's headless Chromium against the release build in dist/ served from 127.0.0.1.
//   trunk build --release && cargo build --release -p nginx-gen && node bench/web-latency.mjs
// Options: --rounds N (default 5), --loads N (page loads for the first render, default 5),
//          --profile PREFIX (also record a CPU profile of the first measured round of each
//          tab: PREFIX-nginx.cpuprofile, PREFIX-json.cpuprofile, for Chrome's DevTools),
//          --dist DIR (another build, e.g. one that keeps function names for profiling).
// Writes the figures to tests/artifacts/web-latency.txt and prints them. Reported, not
// asserted: the target is a median ≤ 16 ms (one frame at 60 Hz).
//
// Each edit is what a keystroke does to a field: the script sets the control's value and
// dispatches the event the browser would (`input` for text, `change` for selects and check
// boxes) and takes performance.now() just before. A MutationObserver on the output notes
// the time of the first DOM change after which the shown text equals what
// `nginx-gen --format …` prints for the new inputs ("DOM"), then reads the layout, which
// makes Chromium recalculate style and lay the page out ("DOM + layout"). Between edits the
// page is left idle for two frames and 30 ms.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { serve, launch, cli, DIST, ARTIFACTS } from '../tests/e2e/web/harness.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROUNDS = Number(arg('--rounds', 5));
const LOADS = Number(arg('--loads', 5));
const PROFILE = arg('--profile', null);
const DIR = arg('--dist', DIST);
if (!(ROUNDS >= 1 && LOADS >= 1)) throw new Error('--rounds and --loads take a number ≥ 1');

// The edits of one round, from the defaults (4 vCPU, 8G, static, no TLS): every step is
// one keystroke (or one choice) whose result is valid and changes the output.
const EDITS = [
  ['vcpu', '48'], ['vcpu', '4'], ['vcpu', '41'], ['vcpu', '4'], ['vcpu', '42'], ['vcpu', '4'],
  ['ram', '18G'], ['ram', '8G'], ['ram', '28G'], ['ram', '8G'],
  ['clients', '5'], ['clients', '50'], ['clients', '500'], ['clients', '5000'], ['clients', '500'],
  ['clients', '50'], ['clients', '5'], ['clients', ''],
  ['workload', 'proxy'], ['workload', 'api'], ['workload', 'mixed'], ['workload', 'static'],
  ['tls', true], ['tls', false], ['tls', true], ['tls', false],
];
const TABS = ['nginx', 'json'];

/** The CLI flags for the form values in `form`. */
function flags(form) {
  const args = ['--lang', 'en', '--vcpu', form.vcpu, '--ram', form.ram, '--workload', form.workload];
  if (form.clients) args.push('--clients', form.clients);
  if (form.tls) args.push('--tls');
  return args;
}

/** Every edit with the text the tab must show after it. */
function plan(tab) {
  const form = { vcpu: '4', ram: '8G', clients: '', workload: 'static', tls: false };
  return EDITS.map(([field, value]) => {
    form[field] = value;
    return { field, value, want: cli([...flags(form), '--format', tab]) };
  });
}

// Runs in the page: performs the edits on `tab` and returns the timings.
async function inPage({ tab, edits }) {
  const out = () => document.querySelector(`[data-testid=out-${tab}]`);
  const idle = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 30))));
  document.querySelector(`[data-testid=tab-${tab}]`).click();
  for (let i = 0; i < 50 && !out(); i += 1) await idle();
  await idle();
  const results = [];
  for (const { field, value, want } of edits) {
    const el = document.getElementById(`f-${field}`);
    const done = new Promise((resolve, reject) => {
      const timer = setTimeout(() => { observer.disconnect(); reject(new Error(`${field}=${value}: the output did not change to the CLI's text`)); }, 3000);
      const observer = new MutationObserver(() => {
        const dom = performance.now();
        if (out()?.textContent !== want) return;
        document.body.getBoundingClientRect();
        void document.body.offsetHeight;
        const layout = performance.now();
        observer.disconnect();
        clearTimeout(timer);
        resolve({ dom, layout });
      });
      observer.observe(document.getElementById('output'), { childList: true, subtree: true, characterData: true });
    });
    let start;
    if (typeof value === 'boolean') {
      el.checked = value;
      start = performance.now();
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (el.tagName === 'SELECT') {
      el.value = value;
      start = performance.now();
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } else {
      el.value = value;
      start = performance.now();
      el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
    }
    const { dom, layout } = await done;
    results.push({ edit: `${field}=${value}`, dom: dom - start, layout: layout - start });
    await idle();
  }
  return results;
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { n: s.length, median: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

const ms = (x) => `${x.toFixed(1)} ms`;

async function firstRender(context, base) {
  const page = await context.newPage();
  // Notes when the nginx tab first shows text, in ms since the navigation started.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid=out-nginx]')?.textContent) {
        window.firstRender = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${base}?lang=en`);
  await page.waitForFunction(() => window.firstRender !== undefined);
  const t = await page.evaluate(() => window.firstRender);
  await page.close();
  return t;
}

const site = await serve(path.resolve(DIR));
const context = await launch();
try {
  const loads = [];
  for (let i = 0; i < LOADS; i += 1) loads.push(await firstRender(context, site.base));
  const plans = Object.fromEntries(TABS.map((tab) => [tab, plan(tab)]));
  const samples = Object.fromEntries(TABS.map((tab) => [tab, []]));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${site.base}?lang=en`);
  await page.waitForSelector('[data-testid=out-nginx]');
  // One round to warm up (not counted), then the measured rounds.
  for (let round = 0; round <= ROUNDS; round += 1) {
    for (const tab of TABS) {
      const profiling = PROFILE && round === 1;
      let cdp;
      if (profiling) {
        cdp = await page.context().newCDPSession(page);
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
      }
      const results = await page.evaluate(inPage, { tab, edits: plans[tab] });
      if (profiling) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(`${PROFILE}-${tab}.cpuprofile`, JSON.stringify(profile));
        await cdp.detach();
      }
      if (round > 0) samples[tab].push(...results);
    }
  }
  await page.close();
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);

  const all = TABS.flatMap((tab) => samples[tab]);
  const load = os.loadavg().map((x) => x.toFixed(2)).join(', ');
  const row = (name, xs) => {
    const d = stats(xs.map((x) => x.dom));
    const l = stats(xs.map((x) => x.layout));
    return `${name.padEnd(14)} ${String(d.n).padStart(4)}  ${ms(d.median).padStart(9)} ${ms(d.p95).padStart(9)} ${ms(d.max).padStart(9)}   ${ms(l.median).padStart(9)} ${ms(l.p95).padStart(9)} ${ms(l.max).padStart(9)}`;
  };
  const first = stats(loads);
  const slowest = [...all].sort((a, b) => b.layout - a.layout).slice(0, 3).map((x) => `${x.edit} ${ms(x.layout)}`).join(', ');
  const report = [
    `web page keystroke latency (bench/web-latency.mjs), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `chromium headless, dist/ from 127.0.0.1; ${os.cpus().length} CPUs, load average ${load} after the run`,
    `${ROUNDS} rounds of ${EDITS.length} edits per tab (vCPU, RAM and clients typed, workload switched, TLS toggled), after one warm-up round`,
    '',
    `${'edits on tab'.padEnd(14)} ${'n'.padStart(4)}  ${'DOM: median'.padStart(9)} ${'p95'.padStart(9)} ${'max'.padStart(9)}   ${'+layout: med'.padStart(9)} ${'p95'.padStart(9)} ${'max'.padStart(9)}`,
    ...TABS.map((tab) => row(tab, samples[tab])),
    row('all', all),
    '',
    `slowest (DOM + layout): ${slowest}`,
    `first render (navigation start to the nginx tab's text, ${LOADS} loads): median ${ms(first.median)}, max ${ms(first.max)}, first load ${ms(loads[0])}`,
    `target: median input → DOM ≤ 16 ms`,
    '',
  ].join('\n');
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, 'web-latency.txt'), report);
  process.stdout.write(report);
} finally {
  await context.close();
  site.server.close();
}
