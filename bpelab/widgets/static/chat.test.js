// node --test: the chat view's layout, counts and chips (held to Python over 300 conversations by
// tests/test_js_chat.py; here, hand-checked cases).
import { test } from "node:test";
import assert from "node:assert/strict";
import { chatChips, chatLayout, chatSummary, encodeLayout, pythonStrip } from "./chat.js";

const byChar = (text) => ({ ids: Array.from(text, (ch) => ch.codePointAt(0)), pieces: Array.from(text, (ch) => [...new TextEncoder().encode(ch)]) });
const SPECIALS = { "<|begin_of_text|>": 1, "<|start_header_id|>": 2, "<|end_header_id|>": 3, "<|eot_id|>": 4 };

test("Python's strip: U+001C and U+0085 are whitespace, U+FEFF is not (JavaScript's trim says the reverse)", () => {
  assert.equal(pythonStrip("\x1c\x85 hi\u3000\n"), "hi");
  assert.equal(pythonStrip("\ufeffhi"), "\ufeffhi");
});

test("Llama 3: a header per turn, the stripped text, <|eot_id|>; only the answer and its end are trained on", () => {
  const turns = [{ role: "user", text: " Hi " }, { role: "assistant", text: "Yo" }];
  const layout = chatLayout(turns, { name: "llama3" });
  assert.deepEqual(layout.map((s) => s.text), ["<|begin_of_text|>", "<|start_header_id|>", "user", "<|end_header_id|>", "\n\n", "Hi", "<|eot_id|>",
    "<|start_header_id|>", "assistant", "<|end_header_id|>", "\n\n", "Yo", "<|eot_id|>"]);
  const r = encodeLayout(layout, byChar, SPECIALS);
  assert.deepEqual(r.ids.filter((_, k) => r.trained[k]), [89, 111, 4]); // "Y", "o", <|eot_id|>
  const s = chatSummary(r, turns);
  assert.deepEqual(s.rows.map((row) => [row.tokens, row.text, row.format, row.trained]), [[11, 2, 9, 0], [16, 2, 14, 3]]); // one token per character here
  assert.equal(s.header, 1);
  assert.equal(s.overhead, 24); // 28 tokens, 4 of them the turns' own text
});

test("ChatML: a token that starts in the role line is the format's, even if it runs into the text", () => {
  const turns = [{ role: "assistant", text: "ok" }];
  const layout = chatLayout(turns, { name: "chatml" });
  const twoAtATime = (text) => { // pieces of two characters: "as", "si", ..., "t\n", "ok"
    const chars = Array.from(text); const ids = []; const pieces = [];
    for (let k = 0; k < chars.length; k += 2) { const p = chars.slice(k, k + 2).join(""); ids.push(p); pieces.push([...new TextEncoder().encode(p)]); }
    return { ids, pieces };
  };
  const r = encodeLayout(layout, twoAtATime, { "<|im_start|>": 7, "<|im_end|>": 8 });
  assert.deepEqual(r.ids, [7, "as", "si", "st", "an", "t\n", "ok", 8, "\n"]);
  assert.deepEqual(r.own, [false, false, false, false, false, false, true, false, false]);
  assert.deepEqual(r.trained, [false, false, false, false, false, false, true, true, false]);
});

test("harmony: only the conversation's last message, an answer, ends with <|return|>", () => {
  const format = { name: "harmony", harmonySystem: "S", harmonyInstructions: "# Instructions\n\n" };
  const ends = (turns) => chatLayout(turns, format).filter((s) => s.text === "<|return|>").length;
  assert.equal(ends([{ role: "user", text: "a" }, { role: "assistant", text: "b" }]), 1);
  assert.equal(ends([{ role: "assistant", text: "b" }, { role: "user", text: "a" }]), 0);
  const trained = chatLayout([{ role: "assistant", text: "b" }], format).filter((s) => s.trained_from === 0).map((s) => s.text);
  assert.deepEqual(trained, ["<|channel|>", "final", "<|message|>", "b", "<|return|>"]);
});

test("a special token is its own chip, even when a combining mark follows it", () => {
  const chips = chatChips(["<|message|>", [0xcc, 0x81], [0x61]], [true, false, false]);
  assert.deepEqual(chips.map((c) => c.tokens), [[0], [1], [2]]);
});
