import { test } from "node:test";
import assert from "node:assert/strict";
import { allCuts, comparedLengths, coveringLengths, cutPositions, differingSpans, tokenRanges, tokensOverlapping } from "./cuts.js";

test("cut positions are the running sums, 0 and the end included", () => {
  assert.deepEqual(cutPositions([2, 3]), [0, 2, 5]);
  assert.deepEqual(cutPositions([]), [0]);
  assert.throws(() => cutPositions([2, 0]), /positive whole number/);
});

test("the rows agree outside the differing spans, which end at common cuts", () => {
  // "the⋅a": [the][⋅a] against [th][e][⋅a]: only "the" (bytes 0-3) is cut differently
  assert.deepEqual(differingSpans([[3, 2], [2, 1, 2]]), [[0, 3]]);
  assert.deepEqual(differingSpans([[3, 2], [3, 2]]), []);
  // two separate disagreements, then one spanning a token the other rows cut twice
  assert.deepEqual(differingSpans([[1, 1, 2, 2], [2, 2, 1, 1], [2, 2, 2]]), [[0, 2], [4, 6]]);
  assert.deepEqual(allCuts([[3, 2], [2, 1, 2]]), [0, 2, 3, 5]);
  assert.throws(() => differingSpans([[3], [2]]), /different lengths/);
});

test("a word-level row finds its tokens in the text; skipped whitespace is a gap", () => {
  assert.deepEqual(coveringLengths("low lower", ["low</w>", "low", "er</w>"], "</w>"), [[3, 0], [1, null], [3, 1], [2, 2]]);
  assert.deepEqual(coveringLengths("é🙂", [[0xc3, 0xa9], [0xf0, 0x9f], [0x99, 0x82]]), [[2, 0], [2, 1], [2, 2]]);
  assert.deepEqual(coveringLengths("  a ", ["a</w>"], "</w>"), [[2, null], [1, 0], [1, null]]);
  assert.throws(() => coveringLengths("abc", ["x"]), /not in the text/);
});

test("compared, a gap joins the token after it, so the cut between words sits before the space", () => {
  const toy = comparedLengths(coveringLengths("low lowest", ["low</w>", "low", "est</w>"], "</w>"));
  assert.deepEqual(toy, [3, 4, 3]);
  assert.deepEqual(differingSpans([toy, [3, 7]]), [[3, 10]]);
  assert.deepEqual(comparedLengths([[2, null], [1, 0], [1, null]]), [4]); // a gap at the end joins the token before it
});

test("a stretch's tokens are those sharing a byte with it; a bare </w> ends the word before it", () => {
  const ranges = tokenRanges("20 x", ["2", "0", "</w>", "x</w>"], "</w>");
  assert.deepEqual(ranges, [[0, 1], [1, 2], [2, 2], [3, 4]]);
  assert.deepEqual(tokensOverlapping(ranges, 0, 2), [0, 1, 2]);
  assert.deepEqual(tokensOverlapping(ranges, 2, 4), [3]);
  assert.deepEqual(tokensOverlapping([[0, 4], [4, 6]], 2, 5), [0, 1]); // a token crossing an edge counts in both
  assert.deepEqual(tokensOverlapping([[0, 4], [4, 6]], 4, 6), [1]); // touching at byte 4 shares no byte
  assert.throws(() => tokensOverlapping(ranges, 2, 2), /start < end/);
});
