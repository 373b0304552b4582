// Unit tests of the offline pin check (web/scripts/check-pins.mjs): node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { checkPins } from "../scripts/check-pins.mjs";

const integrity = "sha512-AAAA";

function project(pkg, lock) {
  const dir = mkdtempSync(join(tmpdir(), "check-pins-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
  if (lock !== undefined) writeFileSync(join(dir, "package-lock.json"), JSON.stringify(lock));
  return dir;
}

function lockFor(deps, devDeps = {}, installed = { ...deps, ...devDeps }) {
  const packages = { "": { dependencies: deps, devDependencies: devDeps } };
  for (const [name, version] of Object.entries(installed)) packages[`node_modules/${name}`] = { version, integrity };
  return { lockfileVersion: 3, packages };
}

function problems(pkg, lock) {
  const dir = project(pkg, lock);
  try {
    return checkPins(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the project's own package.json and lockfile pass", () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  assert.deepEqual(checkPins(root), []);
});

test("exact versions with a consistent lockfile pass", () => {
  const deps = { "htmx.org": "2.0.11", "pdfjs-dist": "5.6.205" };
  const dev = { esbuild: "0.28.2", x: "1.0.0-rc.1" };
  assert.deepEqual(problems({ dependencies: deps, devDependencies: dev }, lockFor(deps, dev)), []);
});

test("every kind of range is refused", () => {
  for (const spec of ["^2.0.11", "~2.0.11", "*", "2.x", "2", ">=2.0.0", "2.0.11 - 2.0.12", "latest", "", "git+https://x/y.git", "file:../y", "https://x/y.tgz", "2.0.11 || 2.0.12"]) {
    const deps = { "htmx.org": spec };
    const got = problems({ dependencies: deps }, lockFor(deps, {}, { "htmx.org": "2.0.11" }));
    assert.ok(got.some((p) => p.includes("not one exact version")), `${JSON.stringify(spec)}: ${got}`);
  }
});

test("a missing, stale or hashless lockfile is refused", () => {
  const deps = { "htmx.org": "2.0.11" };
  assert.match(problems({ dependencies: deps }).join("\n"), /package-lock.json is missing/);
  assert.match(problems({ dependencies: deps }, lockFor({ "htmx.org": "2.0.10" }, {}, { "htmx.org": "2.0.10" })).join("\n"), /out of date[\s\S]*pins 2.0.11/);
  assert.match(problems({ dependencies: deps }, lockFor(deps, {}, {})).join("\n"), /does not install htmx.org/);
  const noHash = lockFor(deps);
  delete noHash.packages["node_modules/htmx.org"].integrity;
  assert.match(problems({ dependencies: deps }, noHash).join("\n"), /has no integrity hash/);
  assert.match(problems({ dependencies: deps }, { lockfileVersion: 1, dependencies: {} }).join("\n"), /lockfileVersion 1/);
});
