#!/usr/bin/env node
// Copies the front-end files the Go server embeds from node_modules/ into
// static/vendor/. The result is committed, so `go run` and `go build` never
// need Node or npm.
//
//   npm ci && npm run vendor           refresh static/vendor/
//   npm run vendor -- --check          exit 1 when static/vendor/ is out of date
//
// The script owns static/vendor/ completely: files there that are not listed
// below are deleted. It is deterministic and idempotent (a file is rewritten
// only when its bytes differ) and uses nothing beyond Node's standard library.

import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync, rmdirSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const vendorDir = join(root, "static", "vendor");

// Each entry: the npm package, which of its files land where under
// static/vendor/, and which whole directories are copied (every file in them).
const packages = [
  {
    name: "htmx.org",
    files: {
      "dist/htmx.min.js": "htmx/htmx.min.js",
      LICENSE: "htmx/LICENSE",
    },
  },
  {
    // pdf.js: the display library (an ES module the editor imports on demand),
    // its worker, and the standard fonts for PDFs that do not embed them.
    // Not copied: source maps, the scripting sandbox (we run no PDF scripts),
    // cMaps (CJK text in non-embedded fonts; add them when a customer needs
    // them) and the wasm image decoders (JBIG2/JPEG 2000 fall back to JS).
    name: "pdfjs-dist",
    files: {
      "build/pdf.min.mjs": "pdfjs/pdf.min.mjs",
      "build/pdf.worker.min.mjs": "pdfjs/pdf.worker.min.mjs",
      LICENSE: "pdfjs/LICENSE",
    },
    dirs: {
      standard_fonts: "pdfjs/standard_fonts",
    },
  },
];

const check = process.argv.includes("--check");
const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const pinned = { ...rootPkg.dependencies, ...rootPkg.devDependencies };

const sha = (buf) => createHash("sha256").update(buf).digest("hex").slice(0, 10);
const problems = [];
const wanted = new Map(); // path relative to static/vendor → Buffer

for (const pkg of packages) {
  const pkgDir = join(root, "node_modules", ...pkg.name.split("/"));
  const manifestPath = join(pkgDir, "package.json");
  if (!existsSync(manifestPath)) {
    fail(`${pkg.name} is not installed: run \`npm ci\` first`);
  }
  const installed = JSON.parse(readFileSync(manifestPath, "utf8")).version;
  if (pinned[pkg.name] !== installed) {
    fail(`${pkg.name}: package.json pins ${pinned[pkg.name]} but ${installed} is installed: run \`npm ci\``);
  }
  for (const [from, to] of Object.entries(pkg.files)) {
    const src = join(pkgDir, ...from.split("/"));
    if (!existsSync(src)) {
      fail(`${pkg.name}@${installed} has no ${from}`);
    }
    wanted.set(to, readFileSync(src));
  }
  for (const [from, to] of Object.entries(pkg.dirs ?? {})) {
    const srcDir = join(pkgDir, ...from.split("/"));
    if (!existsSync(srcDir)) {
      fail(`${pkg.name}@${installed} has no ${from}/`);
    }
    for (const entry of readdirSync(srcDir, { withFileTypes: true })) {
      if (entry.isFile()) wanted.set(`${to}/${entry.name}`, readFileSync(join(srcDir, entry.name)));
    }
  }
}

// Write (or compare) every wanted file.
for (const [rel, content] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
  const dst = join(vendorDir, ...rel.split("/"));
  const current = existsSync(dst) ? readFileSync(dst) : null;
  if (current !== null && current.equals(content)) {
    log(`${"unchanged".padEnd(10)} ${rel} (${sha(content)})`);
    continue;
  }
  if (check) {
    problems.push(`${(current === null ? "missing" : "differs").padEnd(8)} static/vendor/${rel}`);
    continue;
  }
  mkdirSync(dirname(dst), { recursive: true });
  writeFileSync(dst, content);
  log(`${(current === null ? "added" : "updated").padEnd(10)} ${rel} (${sha(content)})`);
}

// Remove what is no longer wanted, then empty directories.
for (const rel of listFiles(vendorDir)) {
  if (wanted.has(rel)) continue;
  if (check) {
    problems.push(`${"extra".padEnd(8)} static/vendor/${rel}`);
    continue;
  }
  rmSync(join(vendorDir, ...rel.split("/")));
  log(`${"removed".padEnd(10)} ${rel}`);
}
if (!check) removeEmptyDirs(vendorDir);

if (problems.length > 0) {
  console.error("static/vendor/ is out of date; run `npm ci && npm run vendor`:");
  for (const p of problems) console.error("  " + p);
  process.exit(1);
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const parent = entry.parentPath ?? entry.path;
      out.push(relative(vendorDir, join(parent, entry.name)).split(sep).join("/"));
    }
  }
  return out.sort();
}

function removeEmptyDirs(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const sub = join(dir, entry.name);
      removeEmptyDirs(sub);
      if (readdirSync(sub).length === 0) rmdirSync(sub);
    }
  }
}

function log(msg) {
  console.log(`vendor: ${msg}`);
}

function fail(msg) {
  console.error(`vendor: ${msg}`);
  process.exit(1);
}
