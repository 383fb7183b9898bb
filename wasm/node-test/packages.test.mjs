// The three wasm-pack outputs are fit to publish and work: package.json fields from Cargo,
// every listed file present, and each target's module gives the CLI's output.
//   wasm/build.sh && cargo build --release -p nginx-gen && node --test wasm/node-test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const CLI = process.env.NGINX_GEN || path.join(root, 'target', 'release', 'nginx-gen');
const cargoVersion = readFileSync(path.join(root, 'Cargo.toml'), 'utf8').match(/^version = "(.+)"$/m)[1];
const PACKAGES = { bundler: 'pkg', web: 'pkg-web', nodejs: 'pkg-nodejs' };
const INPUT = { vcpu: 2, ram: '4G', workload: 'api' };
const expected = execFileSync(CLI, ['--no-detect', '--vcpu', '2', '--ram', '4G', '--workload', 'api', '--format', 'nginx'], { encoding: 'utf8' });

for (const [target, dir] of Object.entries(PACKAGES)) {
  const pkgDir = path.join(root, 'wasm', dir);
  test(`${target} package (wasm/${dir}) is fit to publish`, { skip: !existsSync(pkgDir) && `wasm/${dir} not built` }, () => {
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'nginx-gen-wasm');
    assert.equal(pkg.version, cargoVersion, 'version from Cargo');
    assert.equal(pkg.license, 'MIT');
    assert.ok(pkg.description && pkg.repository, 'description and repository from Cargo');
    assert.equal(pkg.types, 'nginx_gen_wasm.d.ts');
    assert.ok(pkg.main || pkg.module, 'an entry point');
    for (const f of pkg.files) assert.ok(existsSync(path.join(pkgDir, f)), `listed file ${f} exists`);
    for (const f of ['de', 'nl', 'ru', 'es']) assert.ok(existsSync(path.join(pkgDir, 'i18n', `${f}.json`)), `i18n/${f}.json`);
    assert.ok(existsSync(path.join(pkgDir, 'script', 'install-steps.sh')), 'script/install-steps.sh');
    for (const f of ['README.md', 'i18n/', 'script/', pkg.types, pkg.main || pkg.module, 'nginx_gen_wasm_bg.wasm']) {
      assert.ok(pkg.files.includes(f), `${f} is published`);
    }
    assert.match(readFileSync(path.join(pkgDir, 'README.md'), 'utf8'), /## Usage[\s\S]*generate\(/, 'README with a usage example');
    // Generated TypeScript: every exported function and every type it names is declared.
    const dts = readFileSync(path.join(pkgDir, pkg.types), 'utf8');
    for (const name of ['generate', 'render', 'summary', 'explain', 'setCatalogue', 'setInstallSteps', 'defaults', 'choices', 'schemaVersion', 'version', 'policyVersion']) {
      assert.match(dts, new RegExp(`export function ${name}\\(`), name);
    }
    for (const type of ['RawInputs', 'Scalar', 'Generated', 'JsonPlan', 'JsonSetting', 'Scope', 'Reason', 'Capacity', 'Warning', 'Omitted', 'InputError', 'InputFailure', 'Choices']) {
      assert.match(dts, new RegExp(`export (interface|type) ${type}\\b`), type);
    }
    assert.match(dts, /export function generate\(inputs: RawInputs \| string, today\?: string \| null\): Generated;/);
  });
}

test('the web package runs with initSync', { skip: !existsSync(path.join(root, 'wasm/pkg-web')) && 'not built' }, async () => {
  const web = await import(path.join(root, 'wasm/pkg-web/nginx_gen_wasm.js'));
  web.initSync({ module: readFileSync(path.join(root, 'wasm/pkg-web/nginx_gen_wasm_bg.wasm')) });
  assert.equal(web.render(INPUT, 'nginx'), expected);
  // Another language needs its catalogue, which the package ships in i18n/.
  const german = { ...INPUT, lang: 'de' };
  assert.throws(() => web.render(german, 'nginx'), (err) => err.field === 'lang' && /setCatalogue/.test(err.accepted));
  assert.equal(web.setCatalogue(readFileSync(path.join(root, 'wasm/pkg-web/i18n/de.json'), 'utf8')), 'de');
  assert.equal(web.render(german, 'nginx'),
    execFileSync(CLI, ['--no-detect', '--vcpu', '2', '--ram', '4G', '--workload', 'api', '--lang', 'de', '--format', 'nginx'], { encoding: 'utf8' }));
  // So does the install script, its functions being in script/.
  assert.throws(() => web.render(INPUT, 'script'), (err) => err.field === 'format' && /setInstallSteps/.test(err.message) && /install-steps\.sh/.test(err.accepted));
  web.setInstallSteps(readFileSync(path.join(root, 'wasm/pkg-web/script/install-steps.sh'), 'utf8'));
  assert.equal(web.render(INPUT, 'script'),
    execFileSync(CLI, ['--no-detect', '--vcpu', '2', '--ram', '4G', '--workload', 'api', '--format', 'script'], { encoding: 'utf8' }));
});

test('the bundler package runs where .wasm imports are supported (node --experimental-wasm-modules)',
  { skip: !existsSync(path.join(root, 'wasm/pkg')) && 'not built' }, () => {
    const out = execFileSync(process.execPath, ['--experimental-wasm-modules', '--no-warnings', '--input-type=module', '-e',
      `const m = await import(${JSON.stringify(path.join(root, 'wasm/pkg/nginx_gen_wasm.js'))});
       process.stdout.write(m.render(${JSON.stringify(INPUT)}, 'nginx'));`], { encoding: 'utf8' });
    assert.equal(out, expected);
  });
