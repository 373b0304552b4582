#!/usr/bin/env node
// Builds what the Go binary serves from the front end's sources, with the
// esbuild pinned in package.json. The outputs are committed, so `go run`
// needs no Node:
//
//   web/src/editor/main.mjs (and its modules) → static/js/editor.js
//   web/src/css/app.css                       → static/css/app.css
//   web/src/css/editor.css                    → static/css/editor.css
//   web/src/editor/preview.mjs                → static/js/preview.js
//   web/src/css/preview.css                   → static/css/preview.css
//
// The last two are "Preview as…" (docs/review.md): an ES module and its
// stylesheet the room imports on the first click of [data-preview], outside
// the room's size budget.
//
// The stylesheets are written by hand, with their comments, in web/src/css/;
// what is served is the same rules minified (the room's JS+CSS gzip budget,
// docs/frontend.md). Nothing is lowered: no browser target, so logical
// properties, :has() and nesting reach the browser as written.
//
//   npm run build              write the outputs that changed
//   npm run build -- --check   exit 1 when a committed output is stale (CI)
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The outputs: the served file (relative to the repository) and how esbuild makes it. */
const outputs = [
  {
    out: "static/js/editor.js",
    options: { entryPoints: [join(root, "web", "src", "editor", "main.mjs")], bundle: true, format: "iife", target: "es2020" },
  },
  {
    out: "static/js/preview.js",
    options: { entryPoints: [join(root, "web", "src", "editor", "preview.mjs")], bundle: true, format: "esm", target: "es2020" },
  },
  ...["app", "editor", "preview"].map((name) => ({
    out: `static/css/${name}.css`,
    options: {
      entryPoints: [join(root, "web", "src", "css", `${name}.css`)],
      // One line that says where the rules are written (seen in a diff or a conflict).
      banner: { css: `/* built from web/src/css/${name}.css by npm run build: edit that file */` },
    },
  })),
];

const check = process.argv.includes("--check");
let stale = 0;
for (const { out, options } of outputs) {
  const result = await build({ ...options, minify: true, legalComments: "none", write: false, logLevel: "warning" });
  const code = Buffer.from(result.outputFiles[0].contents);
  const path = join(root, out);
  const current = existsSync(path) ? readFileSync(path) : null;
  const fresh = current !== null && current.equals(code);
  if (check) {
    if (!fresh) {
      console.error(`${out} is stale: run \`npm run build\` and commit it`);
      stale++;
    }
  } else if (!fresh) {
    writeFileSync(path, code);
    console.log(`build: wrote ${out} (${code.length} bytes)`);
  } else {
    console.log(`build: ${out} unchanged`);
  }
}
if (check) {
  if (stale) process.exit(1);
  console.log(`build: ${outputs.map((o) => o.out).join(", ")} are current`);
}
