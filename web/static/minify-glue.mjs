// trunk post_build hook (release builds): minify the wasm-bindgen JS glue with esbuild and
// write the new digest into index.html's `integrity` attribute. trunk's own JS minifier
// cannot parse the glue (`export default`) and leaves it as generated, 39 KB.
// esbuild comes from npm (package.json); scripts/setup.sh installs it.
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

const sri = (text) => `sha384-${createHash("sha384").update(text).digest("base64")}`;
const glue = readdirSync(dir).filter((f) => /^nginx-gen-web-[0-9a-f]+\.js$/.test(f));
if (glue.length !== 1) throw new Error(`minify-glue: expected one glue file, found ${glue.join(", ") || "none"}`);

const file = join(dir, glue[0]);
const before = readFileSync(file, "utf8");
const { code } = esbuild.transformSync(before, { minify: true, format: "esm", loader: "js" });
const html = join(dir, "index.html");
const page = readFileSync(html, "utf8");
if (!page.includes(sri(before))) throw new Error(`minify-glue: index.html has no integrity digest of ${glue[0]}`);
writeFileSync(file, code);
writeFileSync(html, page.replace(sri(before), sri(code)));
