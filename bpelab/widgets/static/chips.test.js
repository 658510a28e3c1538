// node --test: chip grouping and labels (the drawing itself is checked in the browser tests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { backgrounds, chipLabel, makeChips, showWhitespace, spoken } from "./chips.js";

test("tokens that cut one character are one chip", () => {
  const thumbs = [...new TextEncoder().encode("👍")];
  const chips = makeChips([thumbs.slice(0, 2), thumbs.slice(2), " ok"]);
  assert.deepEqual(chips.map((c) => c.tokens), [[0, 1], [2]]);
  assert.equal(chips[0].text, "👍");
});

test("a skin tone stays with its emoji; </w> ends a chip", () => {
  assert.deepEqual(makeChips(["👍", "🏽", "a"]).map((c) => c.tokens), [[0, 1], [2]]);
  assert.deepEqual(makeChips(["e</w>", "\u0301x</w>"], { wordEnd: "</w>" }).map((c) => c.tokens), [[0], [1]]);
});

test("whitespace is drawn and said", () => {
  assert.equal(showWhitespace(" a\tb\n"), "⋅a→b↵");
  assert.equal(spoken(" a"), "space a");
  assert.equal(chipLabel("\u200d"), "U+200D");
});

test("a colour repeated by its neighbour is striped", () => {
  const fills = backgrounds(["#77AADD", "#77AADD", "#EE8866"]);
  assert.equal(fills[0], "#77AADD");
  assert.match(fills[1], /^repeating-linear-gradient/);
  assert.equal(fills[2], "#EE8866");
});

test("a leading U+FEFF is text, not a byte order mark to drop", () => {
  const chips = makeChips(["\ufeffa", "b"]);
  assert.deepEqual(chips.map((c) => c.text), ["\ufeffa", "b"]);
  assert.deepEqual(makeChips([[0xef, 0xbb, 0xbf], [0x61]]).map((c) => c.text), ["\ufeff", "a"]);
});
