// Helpers for tests/e2e/web.test.mjs: a static server for dist/ on 127.0.0.1, Debian's
// Chromium through playwright-core, and the release CLI.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const DIST = path.join(ROOT, 'dist');
export const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts');
export const CLI = process.env.NGINX_GEN || path.join(ROOT, 'target', 'release', 'nginx-gen');

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
};

/** Serves dir on 127.0.0.1 (random port) like any static file server; counts requests
 *  and keeps their paths. */
export async function serve(dir) {
  const stats = { requests: 0, paths: [] };
  const server = http.createServer(async (req, res) => {
    stats.requests += 1;
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    stats.paths.push(rel);
    const file = path.join(dir, rel.endsWith('/') ? rel + 'index.html' : rel);
    if (!file.startsWith(dir + path.sep)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': MIME[path.extname(file)] || 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, stats, base: `http://127.0.0.1:${server.address().port}/` };
}

/** Debian's Chromium, headless, with a fresh profile. */
export async function launch() {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'nginx-gen-web-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    permissions: ['clipboard-read', 'clipboard-write'],
    viewport: { width: 1440, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  return context;
}

/** The release a visitor without a link starts from (core's `policy::SUGGESTED`). */
export const PAGE_RELEASE = 'ubuntu-24.04';

/** The CLI's output for these flags as the page computes them: without host detection (the
 * page has none, so `--no-detect`) and, unless named, from the page's default release. */
export function cli(args) {
  const all = args.includes('--no-detect') ? [...args] : [...args, '--no-detect'];
  if (!all.includes('--release')) all.push('--release', PAGE_RELEASE);
  return execFileSync(CLI, all, { encoding: 'utf8', maxBuffer: 16 << 20 });
}
