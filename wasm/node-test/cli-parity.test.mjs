// The `nodejs` package gives the CLI's output, byte for byte.
//   wasm/build.sh nodejs && cargo build --release -p nginx-gen && node --test wasm/node-test/
// NGINX_GEN overrides the CLI binary (default target/release/nginx-gen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const wasm = require(path.join(root, 'wasm', 'pkg-nodejs', 'nginx_gen_wasm.js'));
const pkg = JSON.parse(readFileSync(path.join(root, 'wasm', 'pkg-nodejs', 'package.json'), 'utf8'));
const CLI = process.env.NGINX_GEN || path.join(root, 'target', 'release', 'nginx-gen');
// English is built in; the other languages come from the package's catalogues.
for (const lang of ['de', 'nl', 'ru', 'es']) {
  assert.equal(wasm.setCatalogue(readFileSync(path.join(root, 'wasm', 'pkg-nodejs', 'i18n', `${lang}.json`), 'utf8')), lang);
}
// So are the install script's functions (for --format script).
wasm.setInstallSteps(readFileSync(path.join(root, 'wasm', 'pkg-nodejs', 'script', 'install-steps.sh'), 'utf8'));

// Input combinations: every workload, layout, language and TLS option, small and large
// machines, string and number scalars. vcpu and ram are always given (no host probing).
const COMBOS = [
  { vcpu: 1, ram: '512M' },
  { vcpu: 1, ram: '256M', workload: 'static' },
  { vcpu: 2, ram: '4G', workload: 'proxy' },
  { vcpu: 4, ram: '8G', workload: 'api', upstreams: ['10.0.0.2:9000', '10.0.0.3:9000'] },
  { vcpu: 8, ram: '16G', workload: 'mixed', root: '/srv/www' },
  { vcpu: 64, ram: '256G', workload: 'static', static_files: 5000000 },
  { vcpu: 1024, ram: '16T', workload: 'proxy', clients: 1000000 },
  { vcpu: '3', ram: '1.5G', clients: '200' },
  { vcpu: 4, ram: '8G', tls: true, server_names: ['example.com', 'www.example.com'] },
  { vcpu: 4, ram: '8G', tls: true, tls_profile: 'modern', http3: true },
  { vcpu: 2, ram: '2G', tls: true, ocsp_stapling: true, tls_cert: '/etc/ssl/site.pem', tls_key: '/etc/ssl/site.key' },
  { vcpu: 2, ram: '2G', tls: true, tls_port: 8443, listen: ['8080'] },
  { vcpu: 4, ram: '8G', workload: 'proxy', behind_lb: true, trusted_proxies: ['10.1.0.0/16'] },
  { vcpu: 4, ram: '8G', workload: 'api', behind_lb: true },
  { vcpu: 4, ram: '8G', brotli: true, response_size: '256K' },
  { vcpu: 4, ram: '8G', layout: 'rhel' },
  { vcpu: 4, ram: '8G', layout: 'nginx-org', workload: 'mixed' },
  { vcpu: 4, ram: '8G', layout: 'docker', workload: 'proxy', upstreams: ['app:3000'] },
  { vcpu: 4, ram: '8G', nginx_version: '1.18', openssl_version: '1.1.1' },
  { vcpu: 4, ram: '8G', nginx_version: '1.24', tls: true },
  { vcpu: 2, ram: '4G', lang: 'de', workload: 'proxy' },
  { vcpu: 2, ram: '4G', lang: 'nl', tls: true },
  { vcpu: 2, ram: '4G', lang: 'ru', workload: 'mixed' },
  { vcpu: 2, ram: '4G', lang: 'es', workload: 'api' },
  { vcpu: 6, ram: '12G', listen: ['127.0.0.1:8080'], server_names: ['_'] },
  { vcpu: 2, ram: '1G', workload: 'proxy', upstreams: ['unix:/run/app.sock'] },
];

const LIST_FLAGS = { server_names: 'server-name', upstreams: 'upstream', trusted_proxies: 'trusted-proxy' };

/** The CLI flags that say the same as a RawInputs document. */
function flags(raw) {
  const args = [];
  for (const [field, value] of Object.entries(raw)) {
    if (LIST_FLAGS[field]) for (const v of value) args.push(`--${LIST_FLAGS[field]}`, v);
    else if (value === true) args.push(`--${field.replaceAll('_', '-')}`);
    else if (value !== false) args.push(`--${field.replaceAll('_', '-')}`, String(value));
  }
  assert.ok(args.includes('--vcpu') && args.includes('--ram'), 'always --vcpu and --ram');
  return args;
}

// Without host detection: the module has none, so it matches the CLI's `--no-detect` output.
const cli = (args) => execFileSync(CLI, args.includes('--no-detect') ? args : [...args, '--no-detect'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const label = (raw) => flags(raw).join(' ');

test('at least 20 combinations', () => assert.ok(COMBOS.length >= 20));

for (const raw of COMBOS) {
  test(`generate() == nginx-gen ${label(raw)} --format json`, () => {
    const expected = JSON.parse(cli([...flags(raw), '--format', 'json']));
    const { files, ...document } = wasm.generate(raw);
    assert.deepStrictEqual(document, expected);
    // Same bytes when written the same way.
    assert.equal(JSON.stringify(document, null, 2) + '\n', cli([...flags(raw), '--format', 'json']));
    // The files are the CLI's, in its order.
    const paths = Object.keys(files);
    assert.equal(paths.length, 4);
    ['nginx', 'site', 'sysctl', 'systemd'].forEach((format, i) => {
      assert.equal(files[paths[i]], cli([...flags(raw), '--format', format]), `${format}: ${paths[i]}`);
    });
  });
}

test('render() == nginx-gen --format F for every format', () => {
  for (const raw of [COMBOS[3], COMBOS[9], COMBOS[20]]) {
    for (const format of wasm.choices().format) {
      assert.equal(wasm.render(raw, format), cli([...flags(raw), '--format', format]), `${label(raw)} --format ${format}`);
    }
  }
});

test('explain() == nginx-gen explain NAME', () => {
  const raw = { vcpu: 2, ram: '4G', workload: 'proxy' };
  let compared = 0;
  for (const name of ['worker_connections', 'worker_processes', 'net.core.somaxconn', 'LimitNOFILE', 'keepalive_timeout']) {
    for (const lang of ['en', 'de']) {
      let expected;
      try {
        expected = cli(['explain', name, ...flags(raw), '--lang', lang]);
      } catch (e) {
        // Not written for these inputs: the wasm API says so too, naming the directive.
        assert.throws(() => wasm.explain(name, lang, raw), (err) => err.field === 'directive');
        continue;
      }
      assert.equal(wasm.explain(name, lang, raw), expected, `${name} ${lang}`);
      compared += 1;
    }
  }
  assert.ok(compared >= 8, `${compared} explanations compared`);
});

test('--input FILE and generate() read the same document', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nginx-gen-wasm-'));
  try {
    const raw = { vcpu: '4', ram: '8G', workload: 'mixed', tls: true, server_names: ['example.org'] };
    const file = path.join(dir, 'in.json');
    writeFileSync(file, JSON.stringify(raw));
    const { files, ...document } = wasm.generate(JSON.stringify(raw));
    assert.deepStrictEqual(document, JSON.parse(cli(['--input', file, '--format', 'json'])));
    // The result's inputs are themselves a valid --input document giving the same result.
    writeFileSync(file, JSON.stringify(document.inputs));
    assert.deepStrictEqual(document, JSON.parse(cli(['--input', file, '--format', 'json'])));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('invalid input: the CLI exits 2 and generate() throws an Error naming the same field', () => {
  for (const [raw, field] of [
    [{ vcpu: 0, ram: '8G' }, 'vcpu'],
    [{ vcpu: 4, ram: '8Q' }, 'ram'],
    [{ vcpu: 4, ram: '8G', workload: 'batch' }, 'workload'],
    [{ vcpu: 4, ram: '8G', http3: true }, 'http3'],
    [{ vcpu: 4, ram: '8G', server_names: ['a;b'] }, 'server_names'],
  ]) {
    assert.throws(() => cli(flags(raw)), (e) => e.status === 2 && e.stderr.includes(field));
    assert.throws(() => wasm.generate(raw), (err) => {
      assert.ok(err instanceof Error);
      assert.equal(err.field, field);
      assert.ok(err.accepted.length > 0);
      assert.equal(err.errors[0].field, field);
      return true;
    });
  }
});

test('versions match the CLI and the package', () => {
  const doc = JSON.parse(cli(['--vcpu', '1', '--ram', '1G', '--format', 'json']));
  assert.equal(wasm.version(), doc.generator);
  assert.equal(wasm.schemaVersion(), doc.schema_version);
  assert.equal(wasm.policyVersion(), doc.policy_version);
  assert.equal(pkg.version, wasm.version(), 'package.json version comes from Cargo');
  // The document's inputs also name the running policy; defaults() is the inputs alone.
  assert.deepStrictEqual({ ...wasm.defaults(), policy: wasm.policyVersion() }, JSON.parse(cli(['--no-detect', '--format', 'json'])).inputs);
});
