#!/usr/bin/env node
// Bundles the editor's ES modules (web/src/editor/) into static/js/editor.js
// with the esbuild pinned in package.json. The bundle is committed, so
// `go run` needs no Node.
//
//   npm run build              write static/js/editor.js
//   npm run build -- --check   exit 1 when the committed bundle is stale (CI)
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const out = join(root, "static", "js", "editor.js");
const result = await build({
  entryPoints: [join(root, "web", "src", "editor", "main.mjs")],
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2020",
  legalComments: "none",
  write: false,
  logLevel: "warning",
});
const code = Buffer.from(result.outputFiles[0].contents);
const current = existsSync(out) ? readFileSync(out) : null;
if (process.argv.includes("--check")) {
  if (!current || !current.equals(code)) {
    console.error("static/js/editor.js is stale: run `npm run build` and commit it");
    process.exit(1);
  }
  console.log("build: static/js/editor.js is current");
} else if (!current || !current.equals(code)) {
  writeFileSync(out, code);
  console.log(`build: wrote static/js/editor.js (${code.length} bytes)`);
} else {
  console.log("build: static/js/editor.js unchanged");
}
