// node --test: how the browser's word-level BPE cuts and spells words, on hand-checked examples (the
// trainer is bpe_train.test.js; the 600-text comparison with Python's train_bpe is tests/test_js_training.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { compareCodePoints, getWordFrequencies, replacePair, splitPieces, splitWords } from "./bpe.js";

test("words are cut at Python's whitespace, not JavaScript's", () => {
  assert.deepEqual(splitWords(" a\u3000b\x1cc\x85d\ufeffe "), ["a", "b", "c", "d\ufeffe"]);
  assert.deepEqual(splitWords(""), []);
});

test("a word is its code points plus </w>, counted in first-seen order", () => {
  assert.deepEqual(getWordFrequencies("ab 👍🏽 ab"), [[["a", "b", "</w>"], 2], [["👍", "🏽", "</w>"], 1]]);
});

test("strings compare by code point, as in Python (not by UTF-16 unit)", () => {
  assert.ok(compareCodePoints("\uff01", "😀") < 0); // U+FF01 < U+1F600; "\uff01" < "😀" is false in JS
  assert.ok("\uff01" > "😀");
  assert.ok(compareCodePoints("a😀", "a\uffff") > 0 && compareCodePoints("😀", "😁") < 0 && compareCodePoints("ab", "a") > 0);
  assert.equal(compareCodePoints("é", "é"), 0);
});

test("a pair is replaced left to right without overlaps", () => {
  assert.deepEqual(replacePair(["a", "a", "a"], "a", "a", "aa"), ["aa", "a"]);
});

test("lesson 02's split cuts punctuation off words, with Unicode's word class", () => {
  assert.deepEqual(splitPieces("Hello, world!! naïve e\u0301 x_y 3.5"), ["Hello", ",", "world", "!!", "naïve", "e\u0301", "x_y", "3", ".", "5"]);
});
