// Static checks of the editor's sources (web/src): one module talks to the
// server, and no module imports itself back through others.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const NETWORK_MODULE = "editor/server.mjs";

/** Every .mjs file under dir, as absolute paths. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".mjs") ? [p] : [];
  });
}

test("only the network module sends requests or reads the CSRF token", () => {
  const banned = ["fetch(", "htmx.ajax", "XMLHttpRequest", "EventSource(", "csrf-token"];
  const found = [];
  for (const file of sources(src)) {
    const name = relative(src, file);
    if (name === NETWORK_MODULE) continue;
    const text = readFileSync(file, "utf8");
    for (const word of banned) if (text.includes(word)) found.push(`${name}: ${word}`);
  }
  assert.deepEqual(found, [], `only ${NETWORK_MODULE} may talk to the server`);
  const net = readFileSync(join(src, NETWORK_MODULE), "utf8");
  assert.ok(net.includes("fetch(") && net.includes("htmx.ajax"), "the network module is where requests go out");
});

/** The relative imports of a module, resolved to absolute paths. */
function importsOf(file) {
  const text = readFileSync(file, "utf8");
  const out = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/gms)) out.push(resolve(dirname(file), m[1]));
  for (const m of text.matchAll(/^\s*import\s*["'](\.{1,2}\/[^"']+)["']/gm)) out.push(resolve(dirname(file), m[1]));
  return out;
}

/** An import cycle of the graph (a list of modules, the first repeated last), or null. */
export function findCycle(graph) {
  const state = new Map(); // module → "open" while on the path, "done" after
  const path = [];
  const visit = (m) => {
    if (state.get(m) === "done") return null;
    if (state.get(m) === "open") return [...path.slice(path.indexOf(m)), m];
    state.set(m, "open");
    path.push(m);
    for (const next of graph.get(m) || []) {
      const c = visit(next);
      if (c) return c;
    }
    path.pop();
    state.set(m, "done");
    return null;
  };
  for (const m of graph.keys()) {
    const c = visit(m);
    if (c) return c;
  }
  return null;
}

test("findCycle finds a cycle and only a cycle", () => {
  assert.deepEqual(findCycle(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]])), ["a", "b", "c", "a"]);
  assert.equal(findCycle(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]])), null);
});

test("no import cycle in web/src", () => {
  const files = sources(src);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  assert.ok([...graph.values()].some((deps) => deps.length > 0), "the imports are read");
  for (const [f, deps] of graph) for (const d of deps) assert.ok(graph.has(d), `${relative(src, f)} imports ${relative(src, d)}, which is not under web/src`);
  const cycle = findCycle(graph);
  assert.equal(cycle, null, cycle && `import cycle: ${cycle.map((m) => relative(src, m)).join(" → ")}`);
});
