// node --test: what the stepper writes (stepper_text.js), as Python writes it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { announcement, fixed2, pyRepr, symbolWriter } from "./stepper_text.js";
import { trainBpe } from "./bpe_train.js";
import { traceOf } from "./trace.js";

test("symbols are written as Python's repr writes them", () => {
  assert.equal(pyRepr("th"), "'th'");
  assert.equal(pyRepr("don't"), '"don\'t"');
  assert.equal(pyRepr("a\u200db"), "'a\\u200db'");
  assert.equal(pyRepr("\n"), "'\\n'");
  assert.equal(pyRepr("é👍"), "'é👍'");
});

test("two decimals round a tie to even, as Python's format does", () => {
  assert.equal(fixed2(0.125), "0.12");
  assert.equal(fixed2(0.375), "0.38");
  assert.equal(fixed2(2.5), "2.50");
  assert.equal(fixed2(1 / 3), "0.33");
});

test("each step is announced with its merge and count", () => {
  const trace = traceOf(trainBpe("low ".repeat(5) + "lower ".repeat(2) + "newest ".repeat(3) + "widest ".repeat(2), 10));
  assert.equal(announcement(trace, 0), "Step 0 of 10: nothing merged yet");
  assert.equal(announcement(trace, 3), "Step 3 of 10: merged low + </w> into low</w>, count 5");
});

test("a byte-level symbol is written as text when it is whole UTF-8, as bytes when it is not, with its id", () => {
  // "hi" is two ASCII bytes; 0xE2 0x80 is the start of a three-byte character ("…" is E2 80 A6)
  const w = symbolWriter({ symbols: [[0x68, 0x69], [0xe2, 0x80]], ids: [5, 300] });
  assert.equal(w.text(0), "'hi' [5]");
  assert.equal(w.text(1), "b'\\xe2\\x80' [300]");
  assert.equal(w.plain(0), "hi");
  assert.deepEqual(w.piece(1), [0xe2, 0x80]);
});

test("a word-level symbol is written with repr in the tables and as itself in the spoken sentence", () => {
  const w = symbolWriter({ symbols: ["lo", "w</w>"], ids: null });
  assert.equal(w.text(1), "'w</w>'");
  assert.equal(w.plain(1), "w</w>");
  assert.equal(w.piece(0), "lo");
});
