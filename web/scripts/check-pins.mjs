#!/usr/bin/env node
// Offline dependency hygiene for the front end (CI runs it; npm audit cannot
// reach its registry from the CI machines): every package in package.json is
// pinned to one exact version (no ^ ~ * x ranges, tags, URLs or git refs),
// package-lock.json exists, lists the same direct dependencies at the same
// versions, and gives every installed package a version and an integrity hash.
//
//   node web/scripts/check-pins.mjs [project dir]   exit 1 with every problem listed
//
// Uses nothing beyond Node's standard library.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const exact = /^\d+\.\d+\.\d+(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
const sections = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];

/** Returns the problems found in dir's package.json and package-lock.json. */
export function checkPins(dir) {
  const problems = [];
  const read = (name) => {
    const path = join(dir, name);
    if (!existsSync(path)) {
      problems.push(`${name} is missing`);
      return null;
    }
    try {
      return JSON.parse(readFileSync(path, "utf8"));
    } catch (err) {
      problems.push(`${name} is not valid JSON: ${err.message}`);
      return null;
    }
  };
  const pkg = read("package.json");
  if (!pkg) return problems;
  const wanted = new Map();
  for (const section of sections) {
    for (const [name, spec] of Object.entries(pkg[section] ?? {})) {
      if (typeof spec !== "string" || !exact.test(spec)) {
        problems.push(`package.json ${section}.${name} is ${JSON.stringify(spec)}, not one exact version (write e.g. "1.2.3")`);
      }
      wanted.set(name, { section, spec });
    }
  }
  const lock = read("package-lock.json");
  if (!lock) return problems;
  if (!(lock.lockfileVersion >= 2) || typeof lock.packages !== "object") {
    problems.push(`package-lock.json has lockfileVersion ${lock.lockfileVersion}; run npm install with npm ≥ 7`);
    return problems;
  }
  const root = lock.packages[""] ?? {};
  for (const section of sections) {
    const inPkg = pkg[section] ?? {};
    const inLock = root[section] ?? {};
    for (const name of new Set([...Object.keys(inPkg), ...Object.keys(inLock)])) {
      if (inPkg[name] !== inLock[name]) {
        problems.push(`package-lock.json is out of date: ${section}.${name} is ${JSON.stringify(inLock[name])} there, ${JSON.stringify(inPkg[name])} in package.json (run npm install)`);
      }
    }
  }
  for (const [name, { spec }] of wanted) {
    const entry = lock.packages[`node_modules/${name}`];
    if (!entry) {
      problems.push(`package-lock.json does not install ${name}`);
    } else if (entry.version !== spec) {
      problems.push(`package-lock.json installs ${name}@${entry.version}, package.json pins ${spec}`);
    }
  }
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === "" || entry.link) continue;
    if (!entry.version || !entry.integrity) {
      problems.push(`package-lock.json entry ${path} has no ${entry.version ? "integrity hash" : "version"}`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const problems = checkPins(dir);
  if (problems.length) {
    console.error("front-end dependencies are not pinned:\n  " + problems.join("\n  "));
    process.exit(1);
  }
  console.log("front-end dependencies: every package pinned, lockfile consistent");
}
