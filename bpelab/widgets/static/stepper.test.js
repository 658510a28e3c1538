// node --test: the keys the stepper widget (stepper.js) answers. Buttons, Play and the form need a DOM:
// the browser tests (tests/browser/test_stepper_in_browser.py) press them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PLAY_SECONDS, focusableWithin, onKey } from "./stepper.js";
import { formProblem, trainedMessage } from "./train_form.js";

function press(key, modifiers = {}) {
  const pressed = [];
  const moves = { first: () => pressed.push("first"), back: () => pressed.push("back"), next: () => pressed.push("next"), last: () => pressed.push("last") };
  let prevented = false;
  const handled = onKey({ key, altKey: false, ctrlKey: false, metaKey: false, ...modifiers, preventDefault: () => (prevented = true) }, moves);
  return { handled, pressed, prevented };
}

test("N and B step as → and ← do, in every front end (the stepper stops them reaching a notebook)", () => {
  assert.deepEqual(press("n").pressed, ["next"]);
  assert.deepEqual(press("N").pressed, ["next"]);
  assert.deepEqual(press("b").pressed, ["back"]);
  assert.deepEqual(press("B").pressed, ["back"]);
  assert.equal(press("B").handled, true);
  assert.deepEqual(press("b", { ctrlKey: true }).pressed, []); // Ctrl+B is the browser's or JupyterLab's
});

/** A stand-in for a DOM element: its tag, attributes and parent, all that focusableWithin reads. */
function node(tagName, parentElement = null, attributes = {}, extra = {}) {
  return { tagName: tagName.toUpperCase(), parentElement, hasAttribute: (name) => name in attributes, ...extra };
}

test("a click on the words, a chip or a table focuses the stepper; a click on a control focuses the control", () => {
  const box = node("div", node("div"), { tabindex: "-1" });
  const row = node("tr", node("table", node("div", box)));
  const chip = node("span", node("span", node("td", row)));
  assert.equal(focusableWithin(chip, box), null); // the stepper takes the focus, and the keys
  assert.equal(focusableWithin(row, box), null);
  assert.equal(focusableWithin(box, box), null);
  const next = node("button", node("div", box));
  assert.equal(focusableWithin(node("span", next), next.parentElement.parentElement), next); // Next's arrow
  const textBox = node("textarea", node("label", node("details", box)));
  assert.equal(focusableWithin(textBox, box), textBox); // typing keeps its keys
  const summary = node("summary", node("details", box));
  assert.equal(focusableWithin(summary, box), summary);
  assert.equal(focusableWithin(node("input", box), box)?.tagName, "INPUT");
  const link = node("a", box, { href: "#" });
  assert.equal(focusableWithin(link, box), link);
  assert.equal(focusableWithin(node("a", box), box), null); // an anchor without href is not focusable
  const own = node("div", box, { tabindex: "0" });
  assert.equal(focusableWithin(node("span", own), box), own);
  assert.equal(focusableWithin(node("button", box, {}, { disabled: true }), box), null); // Back at step 0
});

test("Play offers slower and faster speeds than its 0.8 s, slowest first", () => {
  assert.ok(PLAY_SECONDS.includes(0.8));
  assert.deepEqual([...PLAY_SECONDS].sort((a, b) => b - a), PLAY_SECONDS);
  assert.ok(PLAY_SECONDS[0] >= 2 && PLAY_SECONDS[PLAY_SECONDS.length - 1] <= 0.5);
});

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
  // empty as Python's text.split() has it: U+001C–U+001F and U+0085 are whitespace there, U+FEFF is a word
  assert.match(formProblem("\x1c\x1d\x1e\x1f\x85", "10", 50000), /Type some text first/);
  assert.equal(formProblem("\ufeff", "10", 50000), null);
  assert.match(formProblem("abcdef", "10", 5), /6 characters; this page trains at most 5/);
  assert.equal(formProblem("low lower", "10", 50000), null);
  assert.equal(formProblem("👍🏽 中文", "10", 5), null); // 5 characters as Python counts them (8 UTF-16 units)
  assert.match(formProblem("👍🏽 中文!", "10", 5), /6 characters/);
});

test("a run says how many merges it learned, and when it stopped early", () => {
  assert.equal(trainedMessage({ merges: [1, 2], stoppedEarly: false }, 1), "Trained in this page on 1 word: 2 merges. Press Next or →.");
  assert.equal(trainedMessage({ merges: [1], stoppedEarly: true, tables: [{ total: 1 }, { total: 0 }] }, 2, 5),
    "Trained in this page on 2 words: 1 merge. You asked for 5, but after 1 every word is a single symbol: nothing is left to merge. Press Next or →.");
  assert.equal(trainedMessage({ merges: [1, 2], stoppedEarly: true, tables: [{ total: 4 }, { total: 3 }, { total: 2 }] }, 3, 9),
    "Trained in this page on 3 words: 2 merges. Stopped after 2 merges of the 9 asked for: no pair occurs twice any more " +
    "(merging a pair seen once would shorten the text by one token and add one vocabulary entry). Press Next or →.");
});
