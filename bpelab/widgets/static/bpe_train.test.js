// node --test: the browser's incremental trainer on hand-checked examples (tests/test_js_training.py holds
// it equal to Python's train_bpe on hundreds of generated texts and a 50,000-character one).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BpeTraining, trainBpe, trainBpeInSlices } from "./bpe_train.js";

const TOY = "low ".repeat(5) + "lower ".repeat(2) + "newest ".repeat(3) + "widest ".repeat(2);

test("the toy corpus: l+o first (7, met before o+w), then lo+w, then low+</w> (5, met before e+s)", () => {
  const result = trainBpe(TOY, 3);
  assert.deepEqual(result.merges, [["l", "o", "lo"], ["lo", "w", "low"], ["low", "</w>", "low</w>"]]);
  assert.deepEqual(result.steps.map((s) => s.count), [7, 7, 5]);
});

test("ties: first seen against the smallest pair", () => {
  assert.deepEqual(trainBpe("ba ab", 1).merges[0], ["b", "a", "ba"]);
  assert.deepEqual(trainBpe("ba ab", 1, { tieBreak: "lexicographic" }).merges[0], ["a", "</w>", "a</w>"]);
});

test("each step keeps the pair table before it, in the trace's order, and the token total", () => {
  const result = trainBpe(TOY, 2);
  assert.equal(result.tables.length, 3); // before merge 1, before merge 2, after the last
  // five pairs share count 5: w+</w> (in "low") is met first, then w+e (in "lower"), then e+w ("newest")
  assert.deepEqual(result.tables[0].rows.slice(0, 4), [["l", "o", 7], ["o", "w", 7], ["w", "</w>", 5], ["w", "e", 5]]);
  assert.equal(result.tables[0].total, 14); // 3 pairs in low, 5 in lower, 6 in newest, 6 in widest: 14 distinct
  assert.deepEqual(result.tokens, [5 * 4 + 2 * 6 + 3 * 7 + 2 * 7, 5 * 3 + 2 * 5 + 3 * 7 + 2 * 7, 5 * 2 + 2 * 4 + 3 * 7 + 2 * 7]);
});

test("training stops early when no pair is left, and bad input is refused with what to do", () => {
  const result = trainBpe("ab", 10);
  assert.equal(result.merges.length, 2);
  assert.equal(result.stoppedEarly, true);
  assert.equal(result.tables.at(-1).total, 0);
  assert.throws(() => trainBpe("ab", -1), RangeError);
  assert.throws(() => trainBpe("ab", 1, { tieBreak: "random" }), RangeError);
  assert.throws(() => new BpeTraining("ab", 1).result(), /not finished/);
});

test("cut with lesson 02's split first, as lesson 04 trains its real text", () => {
  assert.deepEqual(trainBpe("ab, ab!", 1, { splitPunctuation: true }).initial.map(([w, n]) => [w.join(""), n]), [["ab</w>", 2], [",</w>", 1], ["!</w>", 1]]);
});

test("two merges that spell the same text make one symbol, as Python's strings do", () => {
  // a+b then ab+c makes "abc"; b+c then a+bc would too: the trainer must not count them apart
  const result = trainBpe("abc abc abx bcy bcy bcz", 6);
  const symbols = result.merges.map((m) => m[2]);
  assert.equal(new Set(symbols).size, symbols.length);
});

test("training in slices gives the same run and reports progress", async () => {
  const seen = [];
  const sliced = await trainBpeInSlices(TOY.repeat(3) + " slow newer lowest", 12, {}, { onProgress: (done, asked) => seen.push([done, asked]), sliceMs: 0 });
  assert.deepEqual(sliced, trainBpe(TOY.repeat(3) + " slow newer lowest", 12));
  assert.ok(seen.length > 1 && seen.at(-1)[0] === 12 && seen.every(([, asked]) => asked === 12));
});

test("minCount 2 stops before the first merge of a pair seen once, and says it stopped early", () => {
  // by hand: "aa" twice gives (a, a) and (a, </w>) twice each; "bc" gives (b, c) and (c, </w>) once each
  const train = trainBpe;
  const all = train("aa aa bc", 10);
  const stopped = train("aa aa bc", 10, { minCount: 2 });
  assert.deepEqual(all.steps.map((s) => s.count).slice(0, 2), [2, 2]);
  assert.ok(all.steps.some((s) => s.count === 1));
  assert.deepEqual(stopped.steps.map((s) => s.count), [2, 2]);
  assert.equal(stopped.stoppedEarly, true);
  assert.ok(stopped.tables[stopped.tables.length - 1].total > 0); // pairs were left: none occurred twice
  assert.throws(() => train("a", 1, { minCount: 0 }), /minCount must be 1 or more/);
});
