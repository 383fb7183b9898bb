// trunk post_build hook (release builds): shrinks what the browser loads first.
//  1. The names of the functions the .wasm imports from its JS glue: wasm-bindgen gives
//     each one a 16-digit hash (`__wbg_appendChild_dbf7ad2f48413560`), written once in the
//     .wasm and once in the glue, where neither compression nor a minifier can shorten
//     them. Each becomes a short name in both files (`w2f`), and so does the name of the
//     module they are imported from (`./nginx-gen-web_bg.js`, written with every import).
//  2. The glue is minified with esbuild (trunk's own JS minifier cannot parse it and
//     leaves it as generated).
//  3. wasm-opt runs twice more on the renamed .wasm (`--flatten --rereloop -Oz --gufa -Oz`,
//     then `--gufa -Oz`, with the wasm features index.html gives trunk's run): each round
//     after the previous one's output finds more to fold (docs/web.md).
//  4. index.html gets the new integrity digests of both files.
// esbuild comes from npm (package.json); scripts/setup.sh installs it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error("minify-glue: run by trunk (TRUNK_STAGING_DIR is not set)");
if (process.env.TRUNK_PROFILE !== "release") process.exit(0);

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  throw new Error("minify-glue: esbuild is missing (scripts/setup.sh runs npm ci)");
}

const one = (pattern) => {
  const found = readdirSync(dir).filter((f) => pattern.test(f));
  if (found.length !== 1) throw new Error(`minify-glue: expected one ${pattern}, found ${found.join(", ") || "none"}`);
  return join(dir, found[0]);
};
const jsFile = one(/^nginx-gen-web-[0-9a-f]+\.js$/);
const wasmFile = one(/^nginx-gen-web-[0-9a-f]+_bg\.wasm$/);
const htmlFile = join(dir, "index.html");

// --- the .wasm's import section ------------------------------------------------------------
function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}
function leb(n) {
  const out = [];
  do {
    const b = n % 128;
    n = Math.floor(n / 128);
    out.push(n ? b | 0x80 : b);
  } while (n);
  return out;
}
const utf8 = new TextEncoder();
const text = new TextDecoder("utf-8", { fatal: true });

/// The .wasm with its function imports renamed by `rename(name)` and their modules by
/// `renameModule(name)` (undefined: kept).
function renameImports(wasm, rename, renameModule) {
  const out = [wasm.subarray(0, 8)];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = readLeb(wasm, at + 1);
    const end = start + size;
    if (id !== 2) {
      out.push(wasm.subarray(at, end));
      at = end;
      continue;
    }
    let [count, p] = readLeb(wasm, start);
    const body = leb(count);
    while (count--) {
      const name = () => {
        const [len, from] = readLeb(wasm, p);
        p = from + len;
        return text.decode(wasm.subarray(from, p));
      };
      const module = name();
      const field = name();
      const descStart = p;
      const kind = wasm[p++];
      const limits = () => {
        const flags = wasm[p++];
        p = readLeb(wasm, p)[1];
        if (flags & 1) p = readLeb(wasm, p)[1];
      };
      if (kind === 0) p = readLeb(wasm, p)[1]; // function: type index
      else if (kind === 1) (p++, limits()); // table: element type, limits
      else if (kind === 2) limits(); // memory
      else if (kind === 3) p += 2; // global: value type, mutability
      else if (kind === 4) p = readLeb(wasm, p + 1)[1]; // tag: attribute, type index
      else throw new Error(`minify-glue: unknown import kind ${kind}`);
      const renamed = (kind === 0 && rename(field)) || field;
      for (const s of [renameModule(module) || module, renamed]) body.push(...leb(utf8.encode(s).length), ...utf8.encode(s));
      body.push(...wasm.subarray(descStart, p));
    }
    if (p !== end) throw new Error("minify-glue: the import section did not parse");
    out.push(Uint8Array.from([id, ...leb(body.length), ...body]));
    at = end;
  }
  return Buffer.concat(out);
}

// --- rename, minify, record ----------------------------------------------------------------
const sri = (bytes) => `sha384-${createHash("sha384").update(bytes).digest("base64")}`;
const wasmBefore = readFileSync(wasmFile);
let glue = readFileSync(jsFile, "utf8");
const jsBefore = glue;

const escape = (s) => s.replace(/[$]/g, "\\$&");
let next = 0;
const modules = new Map();
const renameModule = (module) => {
  // The module's name is the key of the glue's import object, written there once.
  if (!modules.has(module)) {
    const quoted = JSON.stringify(module);
    const short = glue.split(quoted).length === 2 ? `m${modules.size}` : undefined;
    if (short) glue = glue.replace(quoted, JSON.stringify(short));
    modules.set(module, short);
  }
  return modules.get(module);
};
const renamed = renameImports(wasmBefore, (field) => {
  // Only hashed names that the glue writes exactly once (as the key of its import object).
  if (!/_[0-9a-f]{16}$/.test(field)) return undefined;
  const pattern = new RegExp(`(?<![\\w$])${escape(field)}(?![\\w$])`, "g");
  if ((glue.match(pattern) || []).length !== 1) return undefined;
  const short = `w${(next++).toString(36)}`;
  glue = glue.replace(pattern, short);
  return short;
}, renameModule);
if (next === 0) throw new Error("minify-glue: no import was renamed; has wasm-bindgen's naming changed?");

// The features trunk's wasm-opt run was given (the root index.html's data-wasm-opt-params).
const params = readFileSync("index.html", "utf8").match(/data-wasm-opt-params="([^"]*)"/);
if (!params) throw new Error("minify-glue: index.html has no data-wasm-opt-params");
const features = params[1].split(/\s+/).filter((p) => p.startsWith("--enable-"));
writeFileSync(wasmFile, renamed);
// Two runs: GUFA (whole-program value flow) in a run of its own after the first finds
// more than the same passes in one run (measured, docs/web.md).
for (const passes of [["--flatten", "--rereloop", "-Oz", "--gufa", "-Oz"], ["--gufa", "-Oz"]]) {
  execFileSync("wasm-opt", [...features, ...passes, wasmFile, "-o", wasmFile], { stdio: "inherit" });
}
const wasm = readFileSync(wasmFile);

const { code } = esbuild.transformSync(glue, { minify: true, format: "esm", loader: "js" });
let page = readFileSync(htmlFile, "utf8");
for (const [before, after] of [[jsBefore, code], [wasmBefore, wasm]]) {
  if (!page.includes(sri(before))) throw new Error("minify-glue: index.html lacks an integrity digest it should have");
  page = page.replace(sri(before), sri(after));
}
writeFileSync(wasmFile, wasm);
writeFileSync(jsFile, code);
writeFileSync(htmlFile, page);
console.log(`minify-glue: ${next} import names shortened; glue ${jsBefore.length} -> ${code.length} bytes`);
