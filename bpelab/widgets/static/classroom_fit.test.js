// node --test: how classroom mode chooses its type size (classroom_fit.js); the browser tests measure the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LARGEST_PX, SMALLEST_PX, largestFitting, layouts, probeSteps } from "./classroom_fit.js";
import { trainBpe } from "./bpe_train.js";
import { traceOf } from "./trace.js";

test("bisection finds the largest size that fits, to a quarter pixel", () => {
  const found = largestFitting((px) => px <= 23.6);
  assert.ok(found <= 23.6 && found > 23.6 - 0.5, found);
  assert.ok(largestFitting((px) => px <= 40) > 39.5);
  assert.equal(largestFitting(() => true), LARGEST_PX);
  assert.equal(largestFitting(() => false), SMALLEST_PX); // nothing fits: the smallest, and the page scrolls
  assert.ok(largestFitting((px) => px <= 30, 25) > 29.5); // from a lower bound already known to fit
});

test("the layouts tried: beside or under the words, one to three columns, never more columns than words", () => {
  assert.deepEqual(layouts(2), [{ side: true, columns: 1 }, { side: true, columns: 2 }, { side: false, columns: 1 }, { side: false, columns: 2 }]);
  assert.equal(layouts(12).length, 6);
  assert.equal(layouts(0).length, 2);
});

test("a run is measured at step 0, its last step, and the step whose symbols are longest", () => {
  const text = "antidisestablishmentarianism internationalization " + "low lower ".repeat(3);
  const trace = traceOf(trainBpe(text, 40), { topWords: 30, topPairs: 6 });
  const steps = probeSteps(trace, 6);
  const n = trace.merges.length;
  assert.ok(steps.includes(0) && steps.includes(n));
  assert.ok(steps.length >= 2 && steps.length <= 3);
  assert.ok(steps.every((s) => Number.isInteger(s) && s >= 0 && s <= n));
  // no run at all: step 0 only
  assert.deepEqual(probeSteps(traceOf(trainBpe("", 0)), 6), [0]);
});
