// node --test: the keys the stepper widget (stepper.js) answers. Buttons, Play and the form need a DOM:
// the browser tests (tests/browser/test_stepper_in_browser.py) press them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { onKey } from "./stepper.js";

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
