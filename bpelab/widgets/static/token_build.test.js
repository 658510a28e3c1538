// node --test: how a token was built (token_build.js), on vocabularies small enough to check by hand.
// tests/test_token_build.py holds the same functions equal to Python on the real vocabularies.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildFromMerges, buildFromWordMerges, buildWithRanks, rankLookup, replay } from "./token_build.js";

const bytes = (text) => Array.from(new TextEncoder().encode(text));
/** A Map keyed as js-tiktoken keys its rankMap: the bytes joined with ",". */
const vocabulary = (tokens) => new Map(tokens.map((t, rank) => [bytes(t).join(","), rank]));

test("abc: ab (rank 3) merges before bc (rank 4), then ab and c join at abc's rank", () => {
  const ranks = vocabulary(["a", "b", "c", "ab", "bc", "abc"]);
  const build = buildWithRanks(bytes("abc"), ranks);
  assert.equal(build.reachable, true);
  assert.equal(build.id, 5);
  assert.deepEqual(build.steps.map((s) => [s.before, s.position, s.left, s.right, s.id, s.after]), [
    [[[97], [98], [99]], 0, [97], [98], 3, [[97, 98], [99]]],
    [[[97, 98], [99]], 0, [97, 98], [99], 5, [[97, 98, 99]]],
  ]);
  assert.deepEqual(build.tree, {
    token: [97, 98, 99], id: 5, children: [
      { token: [97, 98], id: 3, children: [{ token: [97], id: 0, children: [] }, { token: [98], id: 1, children: [] }] },
      { token: [99], id: 2, children: [] },
    ],
  });
  assert.equal(build.steps.every((s) => s.number === s.id), true);
});

test("a tie goes to the leftmost pair: aaaa is aa + aa, the left aa first", () => {
  const build = buildWithRanks(bytes("aaaa"), vocabulary(["a", "aa", "aaaa"]));
  assert.deepEqual(build.steps.map((s) => [s.position, s.id]), [[0, 1], [1, 1], [0, 2]]);
  assert.deepEqual(replay(build).at(-1), [bytes("aaaa")]);
});

test("ranks above the token's own are not used: it was learned before them", () => {
  // "bc" exists but only later (rank 5): abc is a + b + c joined at rank 4, never through bc
  const build = buildWithRanks(bytes("abc"), vocabulary(["a", "b", "c", "ab", "abc", "bc"]));
  assert.deepEqual(build.steps.map((s) => s.id), [3, 4]);
});

test("a token no merge reaches is reported unreachable with the parts it stops at, and no tree", () => {
  const build = buildWithRanks(bytes("abc"), vocabulary(["a", "b", "c", "abc"]));
  assert.equal(build.reachable, false);
  assert.deepEqual(build.parts, [[97], [98], [99]]);
  assert.deepEqual(build.steps, []);
  assert.equal(build.tree, null);
});

test("a token whose parent has no parents of its own is reached: BPE below its rank passes through", () => {
  // abcd's parents are abc (rank 4) and d; below rank 4, abc's bytes stop at a, b, c (bc ranks 6), but below
  // abcd's rank (7) BPE makes bc, then abc: lesson 07's rule finds abcd's parents, and the panel builds it
  const ranks = vocabulary(["a", "b", "c", "d", "abc", "x", "bc", "abcd"]);
  const build = buildWithRanks(bytes("abcd"), ranks);
  assert.equal(build.reachable, true);
  assert.deepEqual(build.parts, [[97, 98, 99, 100]]);
  assert.deepEqual(build.tree.children.map((c) => c.token), [[97, 98, 99], [100]]);
  const abc = buildWithRanks(bytes("abc"), ranks);
  assert.equal(abc.reachable, false); // its own bytes, below its own rank, stop at a | b | c
  assert.deepEqual(abc.parts, [[97], [98], [99]]);
  assert.equal(abc.tree, null);
});

test("half a character stays bytes; a rank function works as well as a Map", () => {
  const ranks = new Map([["195", 0], ["169", 1], ["195,169", 2]]); // é is 0xC3 0xA9
  const fromMap = buildWithRanks(bytes("é"), ranks);
  const fromFunction = buildWithRanks(Uint8Array.from(bytes("é")), (b) => ranks.get(b.join(",")));
  assert.deepEqual(fromMap, fromFunction);
  assert.deepEqual(fromMap.steps[0].before, [[0xc3], [0xa9]]);
  assert.equal(fromMap.tree.id, 2);
});

test("a single byte is built in no steps; a non-token is refused by name", () => {
  const ranks = vocabulary(["a", "b"]);
  assert.deepEqual(buildWithRanks([97], ranks).steps, []);
  assert.equal(buildWithRanks([97], ranks).reachable, true);
  assert.throws(() => buildWithRanks(bytes("ab"), ranks), /not a token/);
  assert.throws(() => rankLookup({}), /Map/);
});

test("a learner's token is read from its merge log, numbered by merge, the same merge leftmost first", () => {
  const merges = [[97, 98, 256], [256, 99, 257], [97, 97, 258], [258, 258, 259]];
  const build = buildFromMerges(259, merges);
  assert.deepEqual(build.token, bytes("aaaa"));
  assert.deepEqual(build.steps.map((s) => [s.position, s.id, s.number]), [[0, 258, 3], [1, 258, 3], [0, 259, 4]]);
  assert.deepEqual(buildFromMerges(257, merges).steps.map((s) => [s.left, s.right]), [[[97], [98]], [[97, 98], [99]]]);
  assert.deepEqual(buildFromMerges(120, merges).steps, []);
  assert.throws(() => buildFromMerges(300, merges), /not a byte or a merged token/);
});

test("a word-level symbol is built from its merge log: leaves are characters and </w>, steps numbered by merge", () => {
  // lesson 03's toy: l+o (1), lo+w (2), low+</w> (3), e+s (4)
  const merges = [["l", "o", "lo"], ["lo", "w", "low"], ["low", "</w>", "low</w>"], ["e", "s", "es"]];
  const vocabulary = ["</w>", "e", "l", "o", "s", "w", "lo", "low", "low</w>", "es"];
  const build = buildFromWordMerges("low</w>", merges, vocabulary);
  assert.equal(build.leaves, "symbols");
  assert.equal(build.id, 8);
  assert.deepEqual(build.steps.map((s) => [s.position, s.number, s.id]), [[0, 1, 6], [0, 2, 7], [0, 3, 8]]);
  assert.deepEqual(build.steps[0].before, ["l", "o", "w", "</w>"].map(bytes));
  assert.deepEqual(replay(build).at(-1), [bytes("low</w>")]);
  assert.throws(() => buildFromWordMerges("x", merges, vocabulary), /not in this tokenizer's vocabulary/);
});
