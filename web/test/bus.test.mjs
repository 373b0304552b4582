import { test } from "node:test";
import assert from "node:assert/strict";
import { createBus } from "../src/editor/bus.mjs";

test("the bus notifies in order; off and an aborted signal unsubscribe", () => {
  const bus = createBus();
  const heard = [];
  const a = (d) => heard.push(["a", d.n]);
  const b = (d) => heard.push(["b", d.n]);
  const ctl = new AbortController();
  bus.on("saved", a);
  bus.on("saved", b, { signal: ctl.signal });
  bus.emit("saved", { n: 1 });
  bus.off("saved", a);
  bus.emit("saved", { n: 2 });
  ctl.abort();
  bus.emit("saved", { n: 3 });
  bus.on("saved", a, { signal: ctl.signal }); // already aborted: not added
  bus.emit("saved", { n: 4 });
  bus.emit("nobody-listens", { n: 5 });
  assert.deepEqual(heard, [["a", 1], ["b", 1], ["b", 2]]);
});

test("a listener that unsubscribes while the bus notifies does not skip the next one", () => {
  const bus = createBus();
  const heard = [];
  const once = () => {
    heard.push("once");
    bus.off("select", once);
  };
  bus.on("select", once);
  bus.on("select", () => heard.push("always"));
  bus.emit("select", {});
  bus.emit("select", {});
  assert.deepEqual(heard, ["once", "always", "always"]);
});
