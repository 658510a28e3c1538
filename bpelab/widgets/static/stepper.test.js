// node --test: the keys the stepper widget (stepper.js) answers. Buttons, Play and the form need a DOM:
// the browser tests (tests/browser/test_stepper_in_browser.py) press them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { formProblem, onKey, trainedMessage } from "./stepper.js";

function press(key, modifiers = {}) {
  const pressed = [];
  const moves = { first: () => pressed.push("first"), back: () => pressed.push("back"), next: () => pressed.push("next"), last: () => pressed.push("last") };
  let prevented = false;
  const handled = onKey({ key, altKey: false, ctrlKey: false, metaKey: false, ...modifiers, preventDefault: () => (prevented = true) }, moves);
  return { handled, pressed, prevented };
}

test("arrows, a presenter's clicker (PageDown / PageUp), Home and End move the stepper", () => {
  assert.deepEqual(press("ArrowRight").pressed, ["next"]);
  assert.deepEqual(press("PageDown").pressed, ["next"]);
  assert.deepEqual(press("ArrowLeft").pressed, ["back"]);
  assert.deepEqual(press("PageUp").pressed, ["back"]);
  assert.deepEqual(press("Home").pressed, ["first"]);
  assert.deepEqual(press("End").pressed, ["last"]);
  assert.equal(press("End").prevented, true); // the page does not scroll as well
});

test("other keys, and keys held with Ctrl, Alt or Cmd, are left to the browser", () => {
  for (const outcome of [press("a"), press("ArrowRight", { ctrlKey: true }), press("ArrowLeft", { altKey: true }), press("End", { metaKey: true })]) {
    assert.deepEqual(outcome, { handled: false, pressed: [], prevented: false });
  }
});

test("the training form says what to type when the merges box is empty, 0 or out of range", () => {
  assert.equal(formProblem("low lower", "", 50000), "Type how many merges to learn, from 1 to 500.");
  assert.equal(formProblem("low lower", "  ", 50000), "Type how many merges to learn, from 1 to 500.");
  assert.match(formProblem("low lower", "0", 50000), /from 1 to 500, not 0/);
  assert.match(formProblem("low lower", "501", 50000), /from 1 to 500, not 501/);
  assert.match(formProblem("low lower", "2.5", 50000), /whole number/);
  assert.match(formProblem("  ", "10", 50000), /Type some text first/);
  assert.match(formProblem("abcdef", "10", 5), /6 characters; this page trains at most 5/);
  assert.equal(formProblem("low lower", "10", 50000), null);
  assert.equal(formProblem("👍🏽 中文", "10", 5), null); // 5 characters as Python counts them (8 UTF-16 units)
  assert.match(formProblem("👍🏽 中文!", "10", 5), /6 characters/);
});

test("a run says how many merges it learned, and when it stopped early", () => {
  assert.equal(trainedMessage({ merges: [1, 2], stoppedEarly: false }, 1), "Trained in this page on 1 word: 2 merges. Press Next or →.");
  assert.equal(trainedMessage({ merges: [1], stoppedEarly: true }, 2), "Trained in this page on 2 words: 1 merge (stopped early: no pair left after 1). Press Next or →.");
});
