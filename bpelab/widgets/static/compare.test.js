// node --test: the side-by-side layout (compare.js) on texts small enough to check by hand.
// tests/test_compare.py holds compareLayout equal to Python on generated multilingual text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareLayout, rowStats } from "./compare.js";
import { describeSpan } from "./compare_stretches.js";

const bytes = (text) => Array.from(new TextEncoder().encode(text));

test("two rows of 'the a': only 'the' is cut differently; chips carry their byte ranges", () => {
  const layout = compareLayout("the a", [{ pieces: ["the", " a"] }, { pieces: ["th", "e", " a"] }]);
  assert.deepEqual(layout.lines, [0, 2, 3, 5]);
  assert.deepEqual(layout.spans, [[0, 3]]);
  assert.deepEqual(layout.rows[1].chips.map((c) => [c.start, c.end, c.differs]), [[0, 2, true], [2, 3, true], [3, 5, false]]);
  assert.equal(describeSpan("the a", [0, 3], layout, ["A", "B"]), "“the” (bytes 0–3): A: 1 token (the); B: 2 tokens (th | e)");
});

test("an emoji cut into byte tokens is one chip, spanning the bytes of both tokens", () => {
  const layout = compareLayout("🙂", [{ pieces: [bytes("🙂").slice(0, 2), bytes("🙂").slice(2)] }, { pieces: [bytes("🙂")] }]);
  assert.deepEqual(layout.rows[0].chips.map((c) => [c.tokens, c.start, c.end]), [[[0, 1], 0, 4]]);
  assert.deepEqual(layout.spans, [[0, 4]]); // the cut inside it is still a disagreement
});

test("a word-level row: skipped whitespace is a gap, </w> covers no text", () => {
  const layout = compareLayout("low low", [{ pieces: ["low</w>", "low</w>"], wordEnd: "</w>" }, { pieces: ["low", " low"] }]);
  assert.deepEqual(layout.rows[0].gaps, [[3, 4]]);
  assert.deepEqual(layout.lines, [0, 3, 4, 7]); // the gap has columns of its own
  assert.deepEqual(layout.spans, []); // the gap joins "low": the cut before the space is the same
});

test("counts against the first row", () => {
  assert.deepEqual(rowStats("abcd", [4, 2]), [
    { count: 4, bytesPerToken: "1.00", relative: "1.00×" },
    { count: 2, bytesPerToken: "2.00", relative: "0.50×" },
  ]);
});

test("a bare </w> token joins the chip before it, so every token keeps its chip and id", () => {
  const layout = compareLayout("20 x", [{ pieces: ["2", "0", "</w>", "x</w>"], wordEnd: "</w>" }, { pieces: ["20", " x"] }]);
  assert.deepEqual(layout.rows[0].chips.map((c) => [c.tokens, c.text, c.start, c.end]), [
    [[0], "2", 0, 1], [[1, 2], "0</w>", 1, 2], [[3], "x</w>", 3, 4],
  ]);
});
