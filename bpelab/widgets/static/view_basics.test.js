// el() is the one element builder every view draws with; Node has no DOM, so a small stand-in records
// what el asks of document.createElement's element.
import { test } from "node:test";
import assert from "node:assert/strict";
import { el, isStatic } from "./view_basics.js";

function recordingDocument() {
  return {
    createElement(tag) {
      return {
        tag,
        attributes: {},
        children: [],
        textContent: "",
        setAttribute(name, value) {
          this.attributes[name] = value;
        },
        append(...nodes) {
          this.children.push(...nodes);
        },
      };
    },
  };
}

test("el sets text and attributes, and leaves out null and undefined children", () => {
  globalThis.document = recordingDocument();
  try {
    const child = el("b", { text: "low" });
    const node = el("div", { class: "row", "aria-label": "step 3" }, null, child, undefined, "</w>", 0, "");
    assert.equal(node.tag, "div");
    assert.deepEqual(node.attributes, { class: "row", "aria-label": "step 3" });
    assert.deepEqual(node.children, [child, "</w>", 0, ""]); // 0 and "" are children a view may mean
    assert.equal(child.textContent, "low");
  } finally {
    delete globalThis.document;
  }
});

test("isStatic is true only where the static page says so", () => {
  assert.equal(isStatic(), false);
  globalThis.bpelabStatic = true;
  try {
    assert.equal(isStatic(), true);
  } finally {
    delete globalThis.bpelabStatic;
  }
});
