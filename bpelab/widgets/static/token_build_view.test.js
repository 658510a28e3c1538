// node --test: what the "how a token was built" panel writes (token_build_view.js), on builds small
// enough to check by hand. Drawing needs a DOM: tests/browser/test_token_build_in_browser.py checks it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildFromMerges, buildWithRanks } from "./token_build.js";
import { buildLines, madeInsideNote, mergesText, partText, reachNote, stepLabel, stepLine, treeLines } from "./token_build_view.js";

const bytes = (text) => Array.from(new TextEncoder().encode(text));
const vocabulary = (tokens) => new Map(tokens.map((t, rank) => [Array.from(t).join(","), rank]));

test("a part is its text with whitespace drawn, or its bytes when it is half a character", () => {
  assert.equal(partText(bytes(" K")), "⋅K");
  assert.equal(partText(bytes("東")), "東");
  assert.equal(partText(bytes("東").slice(0, 2)), "<E6><9D>"); // 東 is E6 9D B1: two of its three bytes
  assert.equal(partText([0x0a]), "↵");
  assert.equal(partText(bytes("\u200d")), "U+200D ZERO WIDTH JOINER"); // drawn as nothing: named, as the chips name it
});

test("each step says which two parts it joined and at what rank; step 0 is the bytes", () => {
  const build = buildWithRanks(bytes(" ab"), vocabulary([[32], [97], [98], bytes("ab"), bytes(" ab")]));
  assert.equal(stepLabel(2, build.steps.length), "Step 2 of 2");
  assert.equal(stepLine(build, 0), "The 3 bytes of the token, before any merge.");
  assert.equal(stepLine(build, 1), "Merged a + b → ab (rank 3).");
  assert.equal(stepLine(build, 2), "Merged ⋅ + ab → ⋅ab (rank 4).");
  assert.deepEqual(treeLines(build), ["⋅ab (rank 4)", "  ⋅ (byte)", "  ab (rank 3)", "    a (byte)", "    b (byte)"]);
});

test("a learner's token is numbered by merge, not by id", () => {
  // merges: (a, b) -> 256 is merge 1, (256, c) -> 257 is merge 2
  const build = buildFromMerges(257, [[97, 98, 256], [256, 99, 257]]);
  assert.deepEqual(buildLines(build, "mine").slice(2), [
    "Step 1 of 2: Merged a + b → ab (merge 1).",
    "Step 2 of 2: Merged ab + c → abc (merge 2).",
    "abc (merge 2)", "  ab (merge 1)", "    a (byte)", "    b (byte)", "  c (byte)",
  ]);
  assert.equal(buildLines(build, "mine")[0], "How abc was built (mine): id 257, 2 merges");
});

test("half a character is drawn as bytes at every step where it stands alone", () => {
  const e = bytes("東"); // E6 9D B1: E6 9D merges first, then the whole character
  const build = buildWithRanks(e, vocabulary([[0xe6], [0x9d], [0xb1], e.slice(0, 2), e]));
  assert.equal(stepLine(build, 1), "Merged <E6> + <9D> → <E6><9D> (rank 3).");
  assert.equal(stepLine(build, 2), "Merged <E6><9D> + <B1> → 東 (rank 4).");
});

test("a token no merge reaches says so and shows the parts merges do reach", () => {
  // abc has rank 3 but neither ab nor bc exists: added as it is
  const build = buildWithRanks(bytes("abc"), vocabulary(["a", "b", "c", "abc"].map(bytes)));
  assert.equal(build.reachable, false);
  const tail = " tiktoken gives it all the same where a piece of the text is exactly this token: its " +
    "whole-piece lookup returns it before any merge.";
  const stop = "Merging in rank order with the tokens older than this one does not reach it: from its bytes, the merges " +
    "stop at 3 parts: a | b | c.";
  assert.deepEqual(build.halves, []); // no cut of abc into two older tokens: a+bc and ab+c need bc or ab
  assert.equal(reachNote(build), stop + " No two older tokens join to make it." + tail);
  const halves = [{ left: bytes("a"), left_id: 0, right: bytes("bc"), right_id: 4 }];
  assert.equal(reachNote({ ...build, halves }), stop + " It is two older tokens joined: a (rank 0) + bc (rank 4)." + tail);
  assert.deepEqual(treeLines(build), []);
  assert.equal(reachNote(buildWithRanks(bytes("ab"), vocabulary(["a", "b", "ab"].map(bytes)))), "");
  // the title says the merges stop short: none of them builds abc
  assert.equal(buildLines(build, "toy")[0], "How abc was built (toy): id 3, 0 merges, which stop at 3 parts: " +
    "merging the tokens older than it never builds it");
});

test("a part without parents of its own is built as the longer token's run made it", () => {
  // abc (rank 5) has no parents below its rank (bc is 6); inside abcd (rank 7) bc comes first, then a + bc
  const build = buildWithRanks(bytes("abcd"), vocabulary(["a", "b", "c", "d", "e", "abc", "bc", "abcd"].map(bytes)));
  assert.equal(build.reachable, true);
  assert.deepEqual(build.steps.map((s) => [s.id, s.position]), [[6, 1], [5, 0], [7, 0]]);
  assert.deepEqual(treeLines(build), ["abcd (rank 7)", "  abc (rank 5)", "    a (byte)", "    bc (rank 6)",
    "      b (byte)", "      c (byte)", "  d (byte)"]);
  assert.equal(buildWithRanks(bytes("abc"), vocabulary(["a", "b", "c", "d", "e", "abc", "bc", "abcd"].map(bytes))).reachable, false);
  // the key says a lower rank was learned earlier: the note says why bc (6) sits under abc (5)
  assert.equal(madeInsideNote(build), "abc (rank 5) has no parents of its own (lesson 07, section 7): merging below " +
    "this token's rank makes it from a + bc, and bc (rank 6) ranks above it.");
  assert.equal(buildLines(build)[1], madeInsideNote(build));
  assert.equal(madeInsideNote(buildWithRanks(bytes("ab"), vocabulary(["a", "b", "ab"].map(bytes)))), "");
});

const steps = (n) => Array.from({ length: n }, () => ({}));

test("the title counts one merge as '1 merge', not '1 merges'; none and two are plural", () => {
  assert.equal(mergesText({ steps: steps(1), reachable: true, parts: [] }), "1 merge");
  assert.equal(mergesText({ steps: steps(0), reachable: true, parts: [] }), "0 merges");
  assert.equal(mergesText({ steps: steps(2), reachable: true, parts: [] }), "2 merges");
});

test("a token merging never builds, after one merge: '1 merge, which stops at'", () => {
  const build = { steps: steps(1), reachable: false, parts: [[97], [98], [99]], numbering: "rank" };
  assert.equal(mergesText(build), "1 merge, which stops at 3 parts: merging the tokens older than it never builds it");
});
