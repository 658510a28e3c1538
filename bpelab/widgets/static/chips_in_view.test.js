// node --test: long texts' chips grouped in slices equal makeChips's; pages join at line ends; colours run on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PALETTE, makeChips } from "./chips.js";
import { CHIPS_PER_PAGE, makeChipsInSlices, pageColours, pageStarts } from "./chips_in_view.js";

const bytesOf = (text) => Array.from(new TextEncoder().encode(text));

/** Byte-level pieces cut every `step` bytes: they split emoji, ZWJ sequences and combining marks. */
function bytePieces(text, step) {
  const bytes = bytesOf(text);
  const pieces = [];
  for (let at = 0; at < bytes.length; at += step) pieces.push(bytes.slice(at, at + step));
  return pieces;
}

const HARD = "naïve e\u0301 👨‍👩‍👧 👍🏽 🇫🇷\n\n東京 עברית\r\n\tx\n".repeat(60);

test("chips grouped in slices are makeChips's, token positions and all (byte pieces that cut characters)", async () => {
  for (const step of [1, 2, 3, 5, 7]) {
    const pieces = bytePieces(HARD, step);
    assert.deepEqual(await makeChipsInSlices(pieces), makeChips(pieces), `step ${step}`);
  }
  const words = HARD.split(/\s+/).filter(Boolean).flatMap((w) => [...Array.from(w), "</w>"]);
  assert.deepEqual(await makeChipsInSlices(words, { wordEnd: "</w>" }), makeChips(words, { wordEnd: "</w>" }));
});

test("pages hold about CHIPS_PER_PAGE chips and end after a line when one is near", () => {
  const chips = makeChips(bytePieces(HARD.repeat(5), 2));
  const starts = pageStarts(chips);
  assert.equal(starts[0], 0);
  for (let p = 1; p < starts.length; p++) {
    const size = starts[p] - starts[p - 1];
    assert.ok(size >= CHIPS_PER_PAGE / 2 && size <= CHIPS_PER_PAGE, `page ${p}: ${size} chips`);
    assert.ok(chips[starts[p] - 1].text.endsWith("\n"), `page ${p} starts a line`);
  }
  assert.deepEqual(pageStarts(chips.slice(0, 10)), [0]);
});

test("colours continue the whole text's palette across pages", () => {
  assert.deepEqual(pageColours(4, 8), [PALETTE[4], PALETTE[5], PALETTE[0], PALETTE[1]]);
});
