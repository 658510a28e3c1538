// The encode explorer, drawn in the browser (bpelab/widgets/explorer.py computes, this draws).
//
// With a kernel, typed text goes to Python, which sends back each tokenizer's ids and token pieces
// (`encodings`); this module draws them as chips with a count line. On a page without a kernel
// (the course's static site sets globalThis.bpelabStatic) it encodes typed text itself:
//   - the lesson's word-level tokenizers: word_level.js, as Python splits and merges;
//   - GPT-2, GPT-4, GPT-4o, Llama 3: js-tiktoken, whose scripts are loaded only when one is chosen (production.js);
//   - Mistral 7B: the course's SentencePiece encoder (sentencepiece.js), its pieces script loaded when chosen.
// Held to Python by tests/test_js_explorer.py (word-level), tests/test_js_production.py (tiktoken) and
// tests/test_js_sentencepiece.py (SentencePiece).
// The count line is count_line.js's; a clicked chip opens its token's build (chip_builds.js).

import { END_OF_WORD } from "./bpe.js";
import { CHIP_CSS, ensureCss } from "./chips.js";
import { encodeOrdinary, productionEncoder } from "./production.js";
import { drawChipsInView, makeChipsInSlices } from "./chips_in_view.js";
import { linkExplorer } from "./explorer_link.js";
import { SLICES_FROM_CHARS, encodeOrdinaryInSlices } from "./encode_in_slices.js";
import { KERNEL_WAIT_MS, el, isStatic } from "./view_basics.js";
import { encodeWordLevel } from "./word_level.js";
import { summary } from "./count_line.js";
import { armChips, tokenBuilds } from "./chip_builds.js";

const EXPLORER_CSS = `
.bpe-explorer{display:flex;flex-direction:column;gap:6px;max-width:100%;font-family:var(--jp-ui-font-family,sans-serif)}
.bpe-explorer label{font-weight:600;margin-right:6px}
.bpe-explorer select{max-width:100%;font-size:14px;padding:2px}
.bpe-explorer textarea{box-sizing:border-box;width:100%;height:90px;font-size:14px;font-family:var(--bpe-text-fonts,monospace)}
.bpe-explorer .bpe-token-count{white-space:normal;overflow-wrap:anywhere;line-height:1.5}
.bpe-explorer .bpe-chips-box{max-height:320px;overflow:auto;white-space:normal}
.bpe-explorer .bpe-chips-box:focus{outline:2px solid #1a5fb4}
.bpe-explorer .bpe-chips-box .bpe-chip{cursor:pointer}
.bpe-explorer .bpe-chips-box .bpe-chip:focus-visible{outline:3px solid #1a5fb4;outline-offset:1px}
.bpe-explorer .bpe-explorer-note{white-space:normal;overflow-wrap:anywhere;line-height:1.5;font-size:0.9em}
`;

/** True when a page without Python can encode new text with this tokenizer. */
export function canEncodeHere(tokenizer) {
  return tokenizer.kind === "word" || ((tokenizer.kind === "tiktoken" || tokenizer.kind === "sentencepiece") && tokenizer.browser === true);
}

/** Which models use the encodings offered: Python writes each clause from tiktoken's model table. */
export function modelsNote(tokenizers) {
  const clauses = tokenizers.filter((t) => t.models).map((t) => t.models);
  return clauses.length ? ` Models by encoding, from tiktoken's model table: ${clauses.join(". ")}.` : "";
}

export const ALL_TOKENS = "all tokens"; // the message that asks Python for every token of a long text (explorer.py)
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
  const buildBox = el("div", { class: "bpe-explorer-build" });
  const builds = tokenBuilds(model, buildBox);
  const box = el("div", { class: "bpe-explorer" },
    el("div", { class: "bpe-tokenizer-select" }, el("label", { for: select.id, text: "tokenizer" }), select),
    el("div", { class: "bpe-explorer-input" }, el("label", { for: textarea.id, text: "your text" }), el("br"), textarea),
    el("div", { class: "bpe-explorer-view" }, count, el("div", { class: "bpe-explorer-chips" }, chipsBox)),
    buildBox, note);
  root.append(box);
  const link = isStatic() ? linkExplorer(box, { view: currentView, apply: applyView, after: note }) : null;
  let inView = { stop() {} }; // the long-text drawing of the chips shown now
  let drawing = 0; // the latest draw wins when a vocabulary loads after the reader typed on

  function fillMenu() {
    select.replaceChildren(...tokenizers().map((t, i) => el("option", { value: String(i), text: t.label })));
    select.value = String(model.get("selected"));
  }

  function fillNote() {
    const base = "Hover a chip for the id and text of each token in it. ⋅ is a space, → a tab, ↵ a new line. " +
      "Tokens that make up one character as you see it are drawn as one chip.";
    const offline = tokenizers().filter((t) => !canEncodeHere(t)).map((t) => t.label);
    const rest = !isStatic()
      ? " The chips follow your typing."
      : " Your typing is tokenized in this page" +
        (offline.length ? `, except by ${offline.join(", ")}, which need${offline.length === 1 ? "s" : ""} the running notebook.` : ".");
    const own = tokenizers().filter((t) => t.note).map((t) => " " + t.note).join("");
    note.replaceChildren(el("small", { text: base + rest + own + modelsNote(tokenizers()) }));
  }

  async function show(label, text, encoded, tokenizer) {
    const wordLevel = tokenizer.kind === "word";
    const ticket = drawing;
    const chips = await makeChipsInSlices(encoded.pieces, { wordEnd: wordLevel ? END_OF_WORD : null, cancelled: () => ticket !== drawing });
    if (chips === null) return; // the reader typed on: a newer draw shows its own
    const [head, ...notes] = summary(text, encoded.ids, encoded.pieces, {
      wordLevel, wordUnit: tokenizer.wordUnit || "words", maxTokens: encoded.pieces.length, count: encoded.count, chips,
    });
    const number = head.slice(0, head.indexOf(" ")); // the count in bold, whatever its noun: "1 token", "1754 tokens"
    count.replaceChildren(el("b", { text: number }), head.slice(number.length),
      ...notes.map((n) => el("small", { text: " " + n })));
    chipsBox.setAttribute("aria-label", `${label}: the tokens as chips`);
    drawInView(encoded, chips, wordLevel);
    armChips(chipsBox, chips, (index, chipNote) => builds.open(tokenizer, text, index, encoded.pieces[index], chipNote, encoded.ids[index]), encoded.pieces);
  }

  /** Every chip the page has, drawn as the chip box scrolls (chips_in_view.js): 100 KB never freezes it. */
  function drawInView(encoded, chips, wordLevel) {
    inView.stop();
    inView = drawChipsInView(chipsBox, encoded.pieces, {
      ids: encoded.ids, showIds: model.get("show_ids"), breakLines: true, wordEnd: wordLevel ? END_OF_WORD : null, chips,
    });
  }

  /** js-tiktoken's ids for `text`; a long one in slices, its progress shown (encode_in_slices.js). */
  async function encodeProduction(ticket, encoder, text, label) {
    if (ticket !== drawing) return null;
    // SentencePiece merges each word once and remembers it: 100 KB is one short task, no slices needed
    if (text.length < SLICES_FROM_CHARS || encoder.sentencePiece) return encodeOrdinary(encoder, text);
    return encodeOrdinaryInSlices(encoder, text, {
      cancelled: () => ticket !== drawing,
      onProgress: (done, total) => message(`encoding with ${label}… ${Math.floor((100 * done) / total)}%`),
    });
  }

  /** The view a link keeps: the text and the chosen tokenizer's label. */
  function currentView() {
    return { tokenizer: tokenizers()[Number(select.value)].label, text: textarea.value };
  }

  /** Show a view a link brought; the tokenizer's label, or null when this explorer lacks it. */
  function applyView(view) {
    const index = tokenizers().findIndex((t) => t.label === view.tokenizer);
    if (typeof view.text === "string") textarea.value = view.text;
    if (index >= 0) select.value = String(index);
    model.set("text", textarea.value);
    model.set("selected", Number(select.value));
    model.save_changes();
    draw();
    return index >= 0 ? view.tokenizer : null;
  }

  function message(text) {
    inView.stop();
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
      if (!isStatic() && stored.count > stored.ids.length) askForAllTokens(tokenizer.label, text);
      return show(tokenizer.label, text, stored, tokenizer);
    }
    if (isStatic()) return encodeHere(ticket, tokenizer, text, false);
    message(`encoding with ${tokenizer.label}…`); // Python answers through `encodings`
    // no answer (a saved notebook reopened: this widget's Python side is gone): encode here if possible
    setTimeout(() => ticket === drawing && encodeHere(ticket, tokenizer, text, true), KERNEL_WAIT_MS);
  }

  /**
   * A long text with a kernel: the synced state holds its first tokens only (a saved notebook stays small),
   * so the page asks Python for all of them by message; they arrive as a message too, and are drawn as
   * they scroll into view. No answer (no kernel): the first tokens stay, and the count line says so.
   */
  function askForAllTokens(label, text) {
    model.send({ want: ALL_TOKENS, label, text });
  }

  function onMessage(content) {
    const all = content && content[ALL_TOKENS];
    if (!all) return;
    const tokenizer = tokenizers()[Number(select.value)];
    if (all.label !== tokenizer.label || all.text !== textarea.value) return; // the reader moved on
    drawing += 1; // a newer draw: the first tokens' drawing, if still under way, gives way
    show(tokenizer.label, all.text, all, tokenizer);
  }

  async function encodeHere(ticket, tokenizer, text, pythonSilent) {
    if (tokenizer.kind === "word") return show(tokenizer.label, text, encodeWordLevel(tokenizer, text), tokenizer);
    if (canEncodeHere(tokenizer) && isStatic()) {
      message(`loading ${tokenizer.label}'s vocabulary…`);
      try {
        const encoder = await productionEncoder(tokenizer.encoding);
        const encoded = await encodeProduction(ticket, encoder, text, tokenizer.label);
        if (encoded && ticket === drawing) show(tokenizer.label, text, encoded, tokenizer);
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
    link?.changed();
    draw();
  });
  textarea.addEventListener("input", () => {
    model.set("text", textarea.value);
    model.save_changes();
    link?.changed();
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
  model.on("change:token_build", builds.onAnswer);
  model.on("msg:custom", onMessage);
  textarea.value = model.get("text");
  fillMenu();
  fillNote();
  draw();
  return () => {
    model.off("change:text", onText);
    model.off("change:selected", onSelected);
    model.off("change:encodings", draw);
    model.off("change:tokenizers", onTokenizers);
    model.off("change:token_build", builds.onAnswer);
    model.off("msg:custom", onMessage);
  };
}

export default { render: renderExplorer };
