// The encode explorer, drawn in the browser (bpelab/widgets/explorer.py computes, this draws).
//
// With a kernel, typed text goes to Python, which sends back each tokenizer's ids and token pieces
// (`encodings`); this module draws them as chips with a count line. On a page without a kernel
// (the course's static site sets globalThis.bpelabStatic) it encodes typed text itself:
//   - the lesson's word-level tokenizers: cut the text into words as Python did (whitespace, or
//     the training split written as a JavaScript regex by Python), spell each word as its code
//     points plus "</w>", replay the merges in order (bpe.js's replacePair);
//   - GPT-2, GPT-4, GPT-4o: js-tiktoken, whose scripts are loaded only when one is chosen (production.js).
// Held to Python by tests/test_js_explorer.py (word-level) and tests/test_js_production.py (tiktoken).

import { END_OF_WORD, replacePair, splitWords } from "./bpe.js";
import { CHIP_CSS, drawChips, ensureCss, makeChips } from "./chips.js";
import { encodeOrdinary, productionEncoder } from "./production.js";

const EXPLORER_CSS = `
.bpe-explorer{display:flex;flex-direction:column;gap:6px;max-width:100%;font-family:var(--jp-ui-font-family,sans-serif)}
.bpe-explorer label{font-weight:600;margin-right:6px}
.bpe-explorer select{max-width:100%;font-size:14px;padding:2px}
.bpe-explorer textarea{box-sizing:border-box;width:100%;height:90px;font-size:14px;font-family:ui-monospace,Menlo,Consolas,monospace}
.bpe-explorer .bpe-token-count{white-space:normal;overflow-wrap:anywhere;line-height:1.5}
.bpe-explorer .bpe-chips-box{max-height:320px;overflow:auto;white-space:normal}
.bpe-explorer .bpe-chips-box:focus{outline:2px solid #1a5fb4}
.bpe-explorer .bpe-explorer-note{white-space:normal;overflow-wrap:anywhere;line-height:1.5;font-size:0.9em}
`;

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A word spelled as its code points plus "</w>", then the merges replayed in the order learned. */
export function encodeWord(word, merges) {
  let symbols = [...Array.from(word), END_OF_WORD];
  for (const [left, right, merged] of merges) symbols = replacePair(symbols, left, right, merged);
  return symbols;
}

/** The pieces Python's split_text(text, pattern) gives, for a pattern Python wrote for JavaScript. */
export function cutWords(text, jsPattern) {
  if (jsPattern === null || jsPattern === undefined) return splitWords(text);
  const pieces = [];
  for (const match of text.matchAll(new RegExp(jsPattern, "gu"))) if (match[0].length) pieces.push(match[0]);
  return pieces;
}

/** Ids and pieces of `text` under a word-level tokenizer description (what explorer.py sends). */
export function encodeWordLevel(tokenizer, text) {
  const vocab = new Map(tokenizer.vocabulary.map((symbol, i) => [symbol, i]).reverse()); // first id wins
  const pieces = cutWords(text, tokenizer.split).flatMap((word) => encodeWord(word, tokenizer.merges));
  return { ids: pieces.map((p) => (vocab.has(p) ? vocab.get(p) : "?")), pieces };
}

/** True when the tokens of a multi-token chip cut a code point's UTF-8 bytes (not only a grapheme). */
function cutsCodePoint(chip, pieces) {
  return chip.tokens.some((i) => {
    if (typeof pieces[i] === "string") return false;
    try {
      strictUtf8.decode(Uint8Array.from(pieces[i]));
      return false;
    } catch {
      return true;
    }
  });
}

/** Why a text has fewer chips than tokens (bpelab.widgets.explorer.why_fewer_chips says the same). */
export function whyFewerChips(chips, pieces, wordEnd = null) {
  const joined = chips.filter((chip) => chip.tokens.length > 1);
  const reasons = [];
  if (joined.some((chip) => cutsCodePoint(chip, pieces))) reasons.push("one character whose UTF-8 bytes they cut");
  const apart = joined.find((chip) => !cutsCodePoint(chip, pieces));
  if (apart) {
    let shown = apart.text;
    if (wordEnd && shown.endsWith(wordEnd)) shown = shown.slice(0, -wordEnd.length);
    reasons.push(`one character as you see it, such as ${shown.trim()}, whose code points they keep apart`);
  }
  return reasons.length ? "fewer chips than tokens: a chip spanning several tokens holds " + reasons.join(", or ") : "";
}

/** The count line's parts, as plain text: [main line, notes...]. */
export function summary(text, ids, pieces, { wordLevel = false, wordUnit = "words", maxTokens = 3000, count = null } = {}) {
  const shown = pieces.slice(0, maxTokens);
  const nTokens = count ?? ids.length; // Python sends at most maxTokens ids, and the full count
  const wordEnd = wordLevel ? END_OF_WORD : null;
  const chips = makeChips(shown, { wordEnd });
  const nBytes = utf8.encode(text).length;
  let head = `${nTokens} tokens`;
  if (wordLevel) head += ` for ${pieces.filter((p) => p.endsWith(END_OF_WORD)).length} ${wordUnit}`;
  const parts = [head, `${chips.length} chips`, `${nBytes} bytes`];
  if (nTokens) parts.push(`${(nBytes / nTokens).toFixed(2)} bytes per token`);
  const notes = [];
  if (chips.length !== shown.length) notes.push(`(${whyFewerChips(chips, shown, wordEnd)})`);
  if (nTokens > maxTokens) notes.push(`(showing the first ${maxTokens} tokens)`);
  if (ids.slice(0, maxTokens).includes("?")) notes.push("(? = a character never seen in training: it has no id)");
  return [parts.join(" · "), ...notes];
}

/** True when a page without Python can encode new text with this tokenizer. */
function canEncodeHere(tokenizer) {
  return tokenizer.kind === "word" || (tokenizer.kind === "tiktoken" && tokenizer.browser === true);
}

function isStatic() {
  return globalThis.bpelabStatic === true;
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

const KERNEL_WAIT_MS = 3000; // how long typed text waits for Python before the page answers itself
let explorerCount = 0; // unique ids for label-for pairs when a page holds several explorers

/** anywidget's entry point: draw the explorer into `el` and keep it in step with the model. */
export function renderExplorer({ model, el: root }) {
  ensureCss(root, CHIP_CSS);
  ensureCss(root, EXPLORER_CSS, "bpe-explorer-css");
  const uid = `bpe-explorer-${++explorerCount}`;
  const tokenizers = () => model.get("tokenizers");
  const select = el("select", { id: `${uid}-select` });
  const textarea = el("textarea", { id: `${uid}-text`, placeholder: "Type or paste text here", spellcheck: "false" });
  const count = el("div", { class: "bpe-token-count", "aria-live": "polite" });
  const chipsBox = el("div", { class: "bpe-chips-box", role: "region", tabindex: "0" });
  const note = el("div", { class: "bpe-explorer-note" });
  const box = el("div", { class: "bpe-explorer" },
    el("div", { class: "bpe-tokenizer-select" }, el("label", { for: select.id, text: "tokenizer" }), select),
    el("div", { class: "bpe-explorer-input" }, el("label", { for: textarea.id, text: "your text" }), el("br"), textarea),
    el("div", { class: "bpe-explorer-view" }, count, el("div", { class: "bpe-explorer-chips" }, chipsBox)),
    note);
  root.append(box);
  let drawing = 0; // the latest draw wins when a vocabulary loads after the reader typed on

  function fillMenu() {
    select.replaceChildren(...tokenizers().map((t, i) => el("option", { value: String(i), text: t.label })));
    select.value = String(model.get("selected"));
  }

  function fillNote() {
    const base = "Hover a chip for its ids, text and bytes. ⋅ is a space, → a tab, ↵ a new line. " +
      "Tokens that make up one character as you see it are drawn as one chip.";
    const offline = tokenizers().filter((t) => !canEncodeHere(t)).map((t) => t.label);
    const rest = !isStatic()
      ? " The chips follow your typing."
      : " Your typing is tokenized in this page" +
        (offline.length ? `, except by ${offline.join(", ")}, which need${offline.length === 1 ? "s" : ""} the running notebook.` : ".");
    note.replaceChildren(el("small", { text: base + rest }));
  }

  function show(label, text, encoded, tokenizer) {
    const wordLevel = tokenizer.kind === "word";
    const [head, ...notes] = summary(text, encoded.ids, encoded.pieces, {
      wordLevel, wordUnit: tokenizer.wordUnit || "words", maxTokens: model.get("max_tokens"), count: encoded.count,
    });
    const [number, ...restOfHead] = head.split(" tokens");
    count.replaceChildren(el("b", { text: number }), ` tokens${restOfHead.join(" tokens")}`,
      ...notes.map((n) => el("small", { text: " " + n })));
    const max = model.get("max_tokens");
    chipsBox.setAttribute("aria-label", `${label}: the tokens as chips`);
    chipsBox.replaceChildren(drawChips(encoded.pieces.slice(0, max), {
      ids: encoded.ids.slice(0, max), showIds: model.get("show_ids"), breakLines: true, wordEnd: wordLevel ? END_OF_WORD : null,
    }));
  }

  function message(text) {
    count.replaceChildren(text);
    chipsBox.replaceChildren();
  }

  async function draw() {
    const ticket = ++drawing;
    const tokenizer = tokenizers()[Number(select.value)];
    const text = textarea.value;
    const stored = (model.get("encodings") || {})[tokenizer.label];
    if (stored && stored.text === text) {
      if (stored.error) return message(stored.error);
      return show(tokenizer.label, text, stored, tokenizer);
    }
    if (isStatic()) return encodeHere(ticket, tokenizer, text, false);
    message(`encoding with ${tokenizer.label}…`); // Python answers through `encodings`
    // no answer (a saved notebook reopened: this widget's Python side is gone): encode here if possible
    setTimeout(() => ticket === drawing && encodeHere(ticket, tokenizer, text, true), KERNEL_WAIT_MS);
  }

  async function encodeHere(ticket, tokenizer, text, pythonSilent) {
    if (tokenizer.kind === "word") return show(tokenizer.label, text, encodeWordLevel(tokenizer, text), tokenizer);
    if (tokenizer.kind === "tiktoken" && tokenizer.browser && isStatic()) {
      message(`loading ${tokenizer.label}'s vocabulary…`);
      try {
        const encoder = await productionEncoder(tokenizer.encoding);
        if (ticket === drawing) show(tokenizer.label, text, encodeOrdinary(encoder, text), tokenizer);
      } catch (err) {
        if (ticket === drawing) message(`${tokenizer.label} could not be loaded here (${err.message}).`);
      }
      return;
    }
    message(pythonSilent
      ? `Python did not answer: run this explorer's cell again to encode new text with ${tokenizer.label}.`
      : `${tokenizer.label} needs the running notebook for new text: run the notebook, or choose another tokenizer.`);
  }

  select.addEventListener("change", () => {
    model.set("selected", Number(select.value));
    model.save_changes();
    draw();
  });
  textarea.addEventListener("input", () => {
    model.set("text", textarea.value);
    model.save_changes();
    draw();
  });
  const onText = () => {
    if (textarea.value !== model.get("text")) textarea.value = model.get("text");
    draw();
  };
  const onSelected = () => {
    select.value = String(model.get("selected"));
    draw();
  };
  const onTokenizers = () => {
    fillMenu();
    fillNote();
    draw();
  };
  model.on("change:text", onText);
  model.on("change:selected", onSelected);
  model.on("change:encodings", draw);
  model.on("change:tokenizers", onTokenizers);
  textarea.value = model.get("text");
  fillMenu();
  fillNote();
  draw();
  return () => {
    model.off("change:text", onText);
    model.off("change:selected", onSelected);
    model.off("change:encodings", draw);
    model.off("change:tokenizers", onTokenizers);
  };
}

export default { render: renderExplorer };
