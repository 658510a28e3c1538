// node --test: the browser's word-level BPE on hand-checked examples (the 600-text comparison with
// Python's train_bpe is tests/test_js_training.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { bestPair, compareCodePoints, countPairs, getWordFrequencies, replacePair, splitPieces, splitWords, trainBpe } from "./bpe.js";

const TOY = "low ".repeat(5) + "lower ".repeat(2) + "newest ".repeat(3) + "widest ".repeat(2);

test("words are cut at Python's whitespace, not JavaScript's", () => {
  assert.deepEqual(splitWords(" a\u3000b\x1cc\x85d\ufeffe "), ["a", "b", "c", "d\ufeffe"]);
  assert.deepEqual(splitWords(""), []);
});

test("a word is its code points plus </w>, counted in first-seen order", () => {
  assert.deepEqual(getWordFrequencies("ab 👍🏽 ab"), [[["a", "b", "</w>"], 2], [["👍", "🏽", "</w>"], 1]]);
});

test("the toy corpus: l+o first (7, met before o+w), then lo+w, then low+</w> (5, met before e+s)", () => {
  const result = trainBpe(TOY, 3);
  assert.deepEqual(result.merges, [["l", "o", "lo"], ["lo", "w", "low"], ["low", "</w>", "low</w>"]]);
  assert.deepEqual(result.steps.map((s) => s.count), [7, 7, 5]);
});

test("ties: first seen against the smallest pair", () => {
  const pairs = countPairs(getWordFrequencies("ba ab"));
  assert.deepEqual(bestPair(pairs, "first").slice(0, 2), ["b", "a"]);
  assert.deepEqual(bestPair(pairs, "lexicographic").slice(0, 2), ["a", "</w>"]);
});

test("strings compare by code point, as in Python (not by UTF-16 unit)", () => {
  assert.ok(compareCodePoints("\uff01", "😀") < 0); // U+FF01 < U+1F600; "\uff01" < "😀" is false in JS
  assert.ok("\uff01" > "😀");
});

test("a pair is replaced left to right without overlaps", () => {
  assert.deepEqual(replacePair(["a", "a", "a"], "a", "a", "aa"), ["aa", "a"]);
});

test("training stops early when no pair is left", () => {
  const result = trainBpe("ab", 10);
  assert.equal(result.merges.length, 2);
  assert.equal(result.stoppedEarly, true);
  assert.throws(() => trainBpe("ab", -1), RangeError);
  assert.throws(() => trainBpe("ab", 1, { tieBreak: "random" }), RangeError);
});

test("lesson 02's split cuts punctuation off words, with Unicode's word class", () => {
  assert.deepEqual(splitPieces("Hello, world!! naïve e\u0301 x_y 3.5"), ["Hello", ",", "world", "!!", "naïve", "e\u0301", "x_y", "3", ".", "5"]);
  assert.deepEqual(trainBpe("ab, ab!", 1, { splitPunctuation: true }).initial.map(([w, n]) => [w.join(""), n]), [["ab</w>", 2], [",</w>", 1], ["!</w>", 1]]);
});
