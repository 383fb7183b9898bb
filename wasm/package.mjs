// Completes the package.json that wasm-pack writes from Cargo metadata (name, version,
// description, license, repository, files, main/module, types) so it is fit to publish:
// README and licence in `files`, the target in the description, engines for Node.
// Usage: node wasm/package.mjs wasm/pkg-nodejs nodejs
import { readFileSync, writeFileSync, existsSync, copyFileSync, cpSync } from 'node:fs';
import path from 'node:path';

const [dir, target] = process.argv.slice(2);
if (!dir || !['web', 'bundler', 'nodejs'].includes(target)) {
  console.error('usage: node wasm/package.mjs <pkg dir> <web|bundler|nodejs>');
  process.exit(2);
}
const file = path.join(dir, 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));
const root = path.resolve(import.meta.dirname, '..');

for (const key of ['name', 'version', 'license', 'files', 'types']) {
  if (!pkg[key]) throw new Error(`${file}: wasm-pack wrote no "${key}"`);
}
if (!pkg.main && !pkg.module) throw new Error(`${file}: wasm-pack wrote neither "main" nor "module"`);
copyFileSync(path.join(root, 'wasm', 'README.md'), path.join(dir, 'README.md'));
const licence = ['LICENSE', 'LICENSE-MIT', 'LICENSE.md'].find((f) => existsSync(path.join(root, f)));
if (licence && !existsSync(path.join(dir, licence))) copyFileSync(path.join(root, licence), path.join(dir, licence));

// The translations, loaded on demand with setCatalogue(): English is built in.
cpSync(path.join(root, 'core', 'i18n'), path.join(dir, 'i18n'), { recursive: true });
// The install script's functions, loaded on demand with setInstallSteps().
cpSync(path.join(root, 'core', 'script'), path.join(dir, 'script'), { recursive: true });

const extra = ['README.md', 'i18n/', 'script/', ...(licence ? [licence] : [])];
pkg.files = [...new Set([...pkg.files, ...extra])];
pkg.keywords = [...new Set([...(pkg.keywords || []), 'nginx', 'webassembly'])];
pkg.nginxGenTarget = target; // which wasm-pack --target built this directory
if (target === 'nodejs') pkg.engines = { node: '>=18' };
writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
console.log(`${file}: ${pkg.name}@${pkg.version} (${target}), files: ${pkg.files.join(', ')}`);
