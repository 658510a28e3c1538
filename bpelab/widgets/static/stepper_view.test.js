// node --test: the run replayed on the words on screen (stepper_view.js). Drawing needs a DOM; the
// browser tests (tests/browser/test_stepper_in_browser.py) check what is drawn.
import { test } from "node:test";
import assert from "node:assert/strict";
import { endText, replay, stepNote, tokensIn } from "./stepper_view.js";

test("each merge replaces its pair in every shown word and marks where the merged symbol landed", () => {
  // symbols: 0 a, 1 b, 2 </w>, 3 ab, 4 abab; the word "abab</w>"
  const trace = { words: [[0, 1, 0, 1, 2], [1, 2]], merges: [[0, 1, 3, 2], [3, 3, 4, 1]] };
  assert.deepEqual(replay(trace), [
    [{ word: [0, 1, 0, 1, 2], merged: [] }, { word: [1, 2], merged: [] }],
    [{ word: [3, 3, 2], merged: [0, 1] }, { word: [1, 2], merged: [] }],
    [{ word: [4, 2], merged: [0] }, { word: [1, 2], merged: [] }],
  ]);
});

test("a run of one symbol merges from the left, one pair at a time, as Python's merge does", () => {
  // "aaa": a + a merges the first two, the third stays alone
  const states = replay({ words: [[0, 0, 0]], merges: [[0, 0, 1, 1]] });
  assert.deepEqual(states[1], [{ word: [1, 0], merged: [0] }]);
});

test("a step's note says why the NEXT merge was chosen; runs without notes have none", () => {
  const trace = { merges: [[0, 1, 2, "3"], [2, 2, 3, "2"]], notes: ["worst off: Tamil", "worst off: Amharic"] };
  assert.equal(stepNote(trace, 0), "worst off: Tamil");
  assert.equal(stepNote(trace, 1), "worst off: Amharic");
  assert.equal(stepNote(trace, 2), null); // after the last merge there is no next one
  assert.equal(stepNote({ merges: trace.merges }, 0), null);
});

test("the last step says the run's own end note when it has one (a replay stopped early), else no merges left", () => {
  assert.equal(endText({ merges: [] }), "no merges left");
  assert.equal(endText({ merges: [], endNote: "the stepper stops early, before single merge 8 of 10" }),
    "the stepper stops early, before single merge 8 of 10");
});

test("the count line says one token and one word in the singular, any other count in the plural", () => {
  assert.equal(tokensIn(1, 1, "pieces (words and punctuation)"), "token in 1 piece (words and punctuation)");
  assert.equal(tokensIn(2, 1, "words"), "tokens in 1 word");
  assert.equal(tokensIn(0, 0, "words"), "tokens in 0 words");
  assert.equal(tokensIn(7, 3, "words"), "tokens in 3 words");
});
