// node --test: what a stretch counts and what a band covers (compare_stretches.js), on texts checked by hand.
// tests/test_compare.py holds tokensInSpan equal to Python's tokens_between on generated text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareLayout } from "./compare.js";
import { bandsOf, describeSpan, tokensInSpan } from "./compare_stretches.js";

const utf8 = (text) => Array.from(new TextEncoder().encode(text));

// "ते" is 6 bytes and one character as you see it: cut 2|1|2|1 and 3|3, the rows share cuts 0, 3 and 6,
// so it holds two stretches, and each row's chip (the whole character) runs across both
const te = utf8("\u0924\u0947");
const rows = [{ pieces: [te.slice(0, 2), te.slice(2, 3), te.slice(3, 5), te.slice(5)] }, { pieces: [te.slice(0, 3), te.slice(3)] }];

test("a stretch counts the tokens overlapping it, not the tokens of the chips overlapping it", () => {
  const layout = compareLayout("ते", rows);
  assert.deepEqual(layout.spans, [[0, 3], [3, 6]]);
  assert.deepEqual(layout.rows.map((row) => row.chips.map((c) => [c.start, c.end])), [[[0, 6]], [[0, 6]]]);
  assert.deepEqual(tokensInSpan("ते", [0, 3], layout).map((r) => r.tokens), [[0, 1], [0]]);
  assert.deepEqual(tokensInSpan("ते", [3, 6], layout).map((r) => r.tokens), [[2, 3], [1]]);
  assert.equal(describeSpan("ते", [3, 6], layout, ["A", "B"]), "“े” (bytes 3–6): A: 2 tokens (� | �); B: 1 token (े)");
});

test("stretches inside one chip share one band; a band takes in the whole chips it touches", () => {
  assert.deepEqual(compareLayout("ते", rows).bands, [{ start: 0, end: 6, spans: [[0, 3], [3, 6]] }]);
  // a stretch [2, 3] inside a chip [1, 4] of one row: the band is the chip's
  assert.deepEqual(bandsOf([[2, 3]], [[[0, 1], [1, 4]], [[0, 1], [1, 2], [2, 3], [3, 4]]]), [{ start: 1, end: 4, spans: [[2, 3]] }]);
  // widening can chain through rows: [3, 4] takes in [2, 5] of row 1, which takes in [1, 5] of row 2, no further
  assert.deepEqual(bandsOf([[3, 4]], [[[0, 1], [1, 2], [2, 5]], [[0, 1], [1, 5]]]), [{ start: 1, end: 5, spans: [[3, 4]] }]);
  // bands that only touch stay two; a stretch inside the band before it joins that band
  assert.deepEqual(bandsOf([[0, 2], [2, 4]], [[[0, 2], [2, 4]]]).length, 2);
  assert.deepEqual(bandsOf([[0, 1], [2, 3]], [[[0, 4]]]), [{ start: 0, end: 4, spans: [[0, 1], [2, 3]] }]);
});

test("a word-level row's bare </w> counts in the stretch of the word it ends", () => {
  const layout = compareLayout("20 x", [{ pieces: ["2", "0", "</w>", "x</w>"], wordEnd: "</w>" }, { pieces: ["20", " x"] }]);
  assert.deepEqual(layout.spans, [[0, 2]]);
  assert.deepEqual(tokensInSpan("20 x", [0, 2], layout).map((r) => r.shown), [["2", "0", "</w>"], ["20"]]);
});
