// node --test: chip grouping and labels (the drawing itself is checked in the browser tests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { backgrounds, chipLabel, idLine, makeChips, showWhitespace, spoken, whyOneChip } from "./chips.js";

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
  assert.equal(chipLabel("\u200d"), "U+200D ZERO WIDTH JOINER");
});

test("a chip of invisible characters names them, and ids a vocabulary lacks are said plainly", () => {
  // FE0F + ZWJ: one grapheme (both extend), a blank chip with "? ?" under it before (issue 21)
  const [chip, end] = makeChips(["\ufe0f", "\u200d", "</w>"], { wordEnd: "</w>" });
  assert.deepEqual([chip.tokens, end.tokens], [[0, 1], [2]]);
  assert.equal(chipLabel(chip.text), "U+FE0F VARIATION SELECTOR-16 + U+200D ZERO WIDTH JOINER");
  assert.equal(chipLabel("\ufe0e"), "U+FE0E VARIATION SELECTOR-15");
  assert.equal(chipLabel("\u{e0101}"), "U+E0101 VARIATION SELECTOR-18");
  assert.equal(chipLabel("a\u200d"), "a\u200d"); // a visible character shows itself
  assert.equal(idLine(["?", "?"]), "no ids");
  assert.equal(idLine(["?"]), "no id");
  assert.equal(idLine([12, "?"]), "12 ?");
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

test("utf8Size accepts exactly the characters a strict UTF-8 decoder accepts (every first and second byte)", async () => {
  const { utf8Size } = await import("./chips.js");
  const strictDecoder = new TextDecoder("utf-8", { fatal: true });
  for (let first = 0; first < 256; first++) {
    for (let second = 0; second < 256; second++) {
      for (const size of [1, 2, 3, 4]) {
        const bytes = Uint8Array.from([first, second, 0x80, 0xbf].slice(0, size));
        if (size > 1 && (second & 0xc0) !== 0x80) continue;
        let valid = true;
        try {
          strictDecoder.decode(bytes);
        } catch {
          valid = false;
        }
        const expected = valid && Array.from(strictDecoder.decode(bytes)).length === 1 ? size : 0;
        const got = utf8Size(bytes, 0);
        if (got === size || expected === size) assert.equal(got, expected, `bytes ${[...bytes]}`);
      }
    }
  }
});

test("isWholeUtf8 agrees with a strict decoder on random bytes", async () => {
  const { isWholeUtf8 } = await import("./chips.js");
  const strictDecoder = new TextDecoder("utf-8", { fatal: true });
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) >> 8;
  const lead = [0x41, 0xc3, 0xa9, 0xe0, 0xed, 0xf0, 0xf4, 0xf5, 0x80, 0xbf, 0x9f, 0x90, 0x8f];
  for (let k = 0; k < 20000; k++) {
    const bytes = Uint8Array.from({ length: 1 + (next() % 6) }, () => (next() % 3 ? lead[next() % lead.length] : next() % 256));
    let valid = true;
    try {
      strictDecoder.decode(bytes);
    } catch {
      valid = false;
    }
    assert.equal(isWholeUtf8(bytes), valid, `bytes ${[...bytes]}`);
  }
});

test("a chip of several tokens says why: a character's bytes cut, or code points kept apart", () => {
  const thumbs = [...new TextEncoder().encode("👍")];
  const bytePieces = [thumbs.slice(0, 2), thumbs.slice(2)];
  const [cut] = makeChips(bytePieces);
  assert.equal(whyOneChip(cut, bytePieces), 'they cut the UTF-8 bytes of a character in "👍"');
  const wordPieces = ["👍", "🏽"]; // word-level: two code points, no byte cut
  const [apart] = makeChips(wordPieces);
  assert.equal(whyOneChip(apart, wordPieces), '"👍🏽" is one character as you see it, made of code points the tokens keep apart');
  const tone = [...new TextEncoder().encode("🏽")];
  const [bytesApart] = makeChips([thumbs, tone]); // byte-level tokens that end on a code point's end
  assert.match(whyOneChip(bytesApart, [thumbs, tone]), /made of code points the tokens keep apart/);
});
