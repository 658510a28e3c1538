// The merge stepper, drawn in the browser from a training trace (bpelab/widgets/trace.py).
//
// Python computes the trace once; every step is drawn here, so stepping never waits for a kernel
// and a static page (the course's site, opened as file://) steps through all merges. The only thing
// sent back to Python is the step shown (`current_step`), so that `stepper.step` reads it.
// The same module draws the classroom page (site/present.html, `make present`): with
// `trainForm` set (or on a static page, where no Python answers), a form trains typed text here,
// with bpe.js, and the stepper shows that run.

import { PALETTE, CHIP_CSS, drawChips, ensureCss, makeChips } from "./chips.js";
import { END_OF_WORD, trainBpe } from "./bpe.js";
import { traceOf } from "./trace.js";

const STEPPER_CSS = `
.bpe-stepper{font-size:14px;display:flex;flex-direction:column;gap:4px;color:#000;background:#fff}
.bpe-stepper .bpe-sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;
  clip:rect(0,0,0,0);white-space:nowrap;border:0}
.bpe-stepper .bpe-controls{display:flex;flex-wrap:wrap;align-items:center;gap:4px 6px}
.bpe-stepper button{font:inherit;padding:2px 10px;border:1px solid #767676;border-radius:3px;background:#f0f0f0;color:#000;cursor:pointer}
.bpe-stepper button:disabled{color:#595959;background:#fafafa;cursor:default}
.bpe-stepper button:focus-visible,.bpe-stepper input:focus-visible,.bpe-stepper select:focus-visible,
.bpe-stepper textarea:focus-visible{outline:2px solid #1a5fb4;outline-offset:1px}
.bpe-stepper .bpe-step-box input{width:5em;font:inherit}
.bpe-stepper .bpe-status>div{margin:2px 0;overflow-wrap:anywhere}
.bpe-stepper .bpe-step-label{font-weight:bold;font-size:1.1em}
.bpe-stepper .bpe-columns{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-start}
.bpe-stepper .bpe-left{flex:1 1 340px;min-width:0}
.bpe-stepper .bpe-right{flex:1 1 280px;min-width:0}
.bpe-stepper .bpe-word-table,.bpe-stepper .bpe-pair-table{border-collapse:collapse}
/* the words in columns, row after row: forty words fit on a screen, with no box that scrolls */
.bpe-stepper .bpe-word-table{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:0 14px}
.bpe-stepper .bpe-word-row{display:flex;align-items:center;gap:2px}
.bpe-stepper .bpe-word-row .bpe-chips{line-height:1.5}
.bpe-stepper .bpe-word-table .bpe-freq{text-align:right;padding-right:6px;white-space:nowrap;min-width:2.8em}
.bpe-stepper .bpe-pair-table td,.bpe-stepper .bpe-pair-table th{padding:0 6px 0 0;overflow-wrap:anywhere;text-align:left}
.bpe-stepper .bpe-pair-table .bpe-score{text-align:right}
.bpe-stepper .bpe-pair-table .bpe-winner{font-weight:bold}
.bpe-stepper .bpe-bar{background:#4477AA;height:10px}
.bpe-stepper .bpe-log div{line-height:1.4;overflow-wrap:anywhere}
.bpe-stepper .bpe-legend,.bpe-stepper .bpe-note{font-size:0.9em}
.bpe-stepper .bpe-merged-sample{outline:3px solid #222;outline-offset:-1px;font-weight:bold;padding:0 3px}
.bpe-stepper .bpe-next-sample{border-bottom:3px dashed #000}
.bpe-stepper .bpe-train-form{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:flex-end}
.bpe-stepper .bpe-train-form textarea{font-family:ui-monospace,Menlo,Consolas,monospace;width:min(40em,100%);min-height:3.5em}
.bpe-stepper .bpe-train-form input{width:5em}
.bpe-stepper .bpe-message{flex-basis:100%}
/* a projector (classroom mode: make present, site/present.html): large type, every word row and
   the step line in view at 1280x720 without scrolling, no box that scrolls by itself */
.bpe-projector{font-size:18px}
.bpe-projector button{font-size:20px;padding:4px 14px}
.bpe-projector .bpe-step-box,.bpe-projector .bpe-step-ref,.bpe-projector .bpe-more{display:none}
.bpe-projector .bpe-status{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 24px}
.bpe-projector .bpe-status>div{margin:0}
.bpe-projector .bpe-step-label{font-size:26px}
.bpe-projector .bpe-pair,.bpe-projector .bpe-next-pair{font-size:22px}
.bpe-projector .bpe-pair code,.bpe-projector .bpe-next-pair code{font-size:24px}
.bpe-projector .bpe-statline{flex-basis:100%;display:flex;flex-wrap:wrap;gap:0 24px;font-size:14px}
.bpe-projector .bpe-statline>div{margin:0}
.bpe-projector .bpe-columns{flex-wrap:nowrap}
.bpe-projector .bpe-left{flex:1 1 560px}
.bpe-projector .bpe-right{display:contents}
.bpe-projector .bpe-pairs,.bpe-projector .bpe-log{min-width:0;font-size:16px}
.bpe-projector .bpe-pairs{flex:0 1 auto}
.bpe-projector .bpe-log{flex:1 1 260px}
.bpe-projector .bpe-pair-table td{overflow-wrap:normal;white-space:nowrap}
.bpe-projector .bpe-bar{height:14px;zoom:0.6}
.bpe-projector .bpe-pair-table th{white-space:nowrap}
.bpe-projector .bpe-word-table{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:0 18px}
.bpe-projector .bpe-word-row{display:flex;align-items:center;gap:4px}
.bpe-projector .bpe-chips{font-size:24px;line-height:1.6}
.bpe-projector .bpe-chip{padding:1px 6px;margin:2px 2px}
.bpe-projector .bpe-freq{font-size:18px;min-width:2.6em}
`;

export const TIE_RULE_NAMES = { first: "first seen", lexicographic: "smallest pair" };
const PLAY_INTERVAL_MS = 800;
let lastUsed = null; // the stepper last clicked in: keys pressed on the page itself go to it

// ---- how symbols are written (as Python's repr, so the page reads like the notebook's text) ----

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function hex(code, width) {
  return code.toString(16).padStart(width, "0");
}

/** A string as Python's repr() writes it: quotes, and escapes for what does not print. */
export function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && /[\p{C}\p{Z}]/u.test(ch)) {
      out += code < 0x100 ? "\\x" + hex(code, 2) : code < 0x10000 ? "\\u" + hex(code, 4) : "\\U" + hex(code, 8);
    } else out += ch;
  }
  return quote + out + quote;
}

/** Bytes as Python's repr() writes them: b'\xe2\x80'. */
function bytesRepr(bytes) {
  let out = "";
  for (const b of bytes) {
    if (b === 0x5c || b === 0x27) out += "\\" + String.fromCharCode(b);
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b === 0x09) out += "\\t";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += "\\x" + hex(b, 2);
  }
  return "b'" + out + "'";
}

function symbolWriter(trace) {
  const { symbols, ids } = trace;
  if (!ids) return { text: (s) => pyRepr(symbols[s]), plain: (s) => symbols[s], piece: (s) => symbols[s] };
  const decode = (s) => {
    try {
      return strictUtf8.decode(Uint8Array.from(symbols[s]));
    } catch {
      return null;
    }
  };
  return {
    text: (s) => {
      const shown = decode(s);
      return `${shown === null ? bytesRepr(symbols[s]) : pyRepr(shown)} [${ids[s]}]`;
    },
    plain: (s) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(Uint8Array.from(symbols[s])),
    piece: (s) => symbols[s],
  };
}

// ---- the run, replayed on the words on screen ----

function replaceMarked(word, left, right, merged) {
  const out = [];
  const at = [];
  for (let i = 0; i < word.length; i++) {
    if (i + 1 < word.length && word[i] === left && word[i + 1] === right) {
      at.push(out.length);
      out.push(merged);
      i += 1;
    } else out.push(word[i]);
  }
  return { word: out, at };
}

function nextSites(word, left, right) {
  const at = [];
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] === left && word[i + 1] === right) {
      at.push(i, i + 1);
      i += 1;
    }
  }
  return at;
}

/** Every shown word at every step, with where the last merge landed: [step][row] = {word, merged}. */
function replay(trace) {
  const states = [trace.words.map((word) => ({ word, merged: [] }))];
  for (const [a, b, c] of trace.merges) {
    const before = states[states.length - 1];
    states.push(before.map(({ word }) => {
      const { word: after, at } = replaceMarked(word, a, b, c);
      return { word: after, merged: at };
    }));
  }
  return states;
}

// ---- drawing ----

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function unitLabel(trace) {
  return trace.unit.split(" (")[0];
}

/** x with two decimals, as Python's f"{x:.2f}" writes it (an exact tie rounds to even). */
export function fixed2(x) {
  const exact = x.toFixed(60);
  const [whole, decimals] = exact.split(".");
  if (/^50*$/.test(decimals.slice(2))) {
    const cents = BigInt(whole.replace("-", "") + decimals.slice(0, 2));
    const even = cents % 2n === 0n ? cents : cents + 1n;
    const digits = even.toString().padStart(3, "0");
    return (x < 0 ? "-" : "") + digits.slice(0, -2) + "." + digits.slice(-2);
  }
  return x.toFixed(2);
}

function statsNode(trace, step) {
  const tokens = trace.tokens[step];
  const b = (x) => el("b", { text: String(x) });
  const node = el("div", { class: "bpe-stats" });
  if (trace.bytes !== null) {
    if (!tokens) node.textContent = "no tokens";
    else node.append(b(tokens), ` tokens for ${trace.bytes} bytes: `, b(fixed2(trace.bytes / tokens)), " bytes per token");
    return node;
  }
  const words = trace.wordsTotal;
  const unit = unitLabel(trace).slice(0, -1);
  // the parts in .bpe-more explain; a projector leaves them out so the line fits
  const more = (text) => el("span", { class: "bpe-more", text });
  node.append(
    "vocabulary ", b(trace.startVocab + step), " symbols", more(` (${trace.startVocab} to start + ${step} merges)`), " · ",
    b(tokens), ` tokens in ${words} ${trace.unit} · `, b(fixed2(words ? tokens / words : 0)), ` tokens per ${unit} · `,
    b(fixed2(tokens ? trace.characters / tokens : 0)), " characters per token",
    more(` (a word's own characters${trace.hasMarker ? "; </w> counts as none" : ""})`),
  );
  return node;
}

/** The sentence a screen reader hears at `step` (the same as MergeStepper.announcement). */
export function announcement(trace, step) {
  const n = trace.merges.length;
  const head = `Step ${step} of ${n}`;
  if (step === 0) return `${head}: nothing merged yet`;
  const w = symbolWriter(trace);
  const [a, b, c, count] = trace.merges[step - 1];
  return `${head}: merged ${w.plain(a)} + ${w.plain(b)} into ${w.plain(c)}, ${trace.scoreName} ${count}`;
}

/** The view's parts that stay from step to step (redrawing only what changed keeps a step within a frame). */
function skeleton() {
  const status = el("div", { class: "bpe-status" });
  const note = el("div", { class: "bpe-note bpe-words-note" });
  const table = el("table", { class: "bpe-word-table" });
  const words = el("div", { class: "bpe-words", role: "region" }, table);
  const pairs = el("div", { class: "bpe-pairs" });
  const log = el("div", { class: "bpe-log", role: "region", "aria-label": "merge log" });
  const root = el("div", { class: "bpe-page" }, status,
    el("div", { class: "bpe-columns" }, el("div", { class: "bpe-left" }, note, words), el("div", { class: "bpe-right" }, pairs, log)));
  return { root, status, note, table, words, pairs, log };
}

/** Draw step `step` into the parts of `page` (a skeleton()); `rows` keeps word rows already drawn. */
function drawView(trace, states, step, topRowsLog, projector, rows, page) {
  const n = trace.merges.length;
  const w = symbolWriter(trace);
  const code = (text) => el("code", { text });
  const pairText = (a, b) => `${w.text(a)} + ${w.text(b)}`;
  const status = page.status;
  status.replaceChildren(el("div", { class: "bpe-step-label", text: `Step ${step} of ${n}` }));
  const pair = el("div", { class: "bpe-pair" });
  if (step === 0) pair.textContent = "Nothing merged yet.";
  else {
    const [a, b, c, count] = trace.merges[step - 1];
    pair.append(el("b", {}, "Merged", el("span", { class: "bpe-step-ref", text: ` at step ${step}` }), ":"), " ",
      code(pairText(a, b)), " → ", code(w.text(c)), ` (${trace.scoreName} ${count})`);
  }
  const next = el("div", { class: "bpe-next-pair" });
  if (step === n) next.append(el("b", { text: "No merges left" }), " in this replay.");
  else {
    const [a, b, , count] = trace.merges[step];
    next.append("Next merge", el("span", { class: "bpe-step-ref", text: ` (step ${step + 1})` }), ": ",
      code(pairText(a, b)), ` (${trace.scoreName} ${count})`);
  }
  if (projector) status.append(pair, next, el("div", { class: "bpe-statline" }, statsNode(trace, step), legendNode(trace)));
  else status.append(pair, next, statsNode(trace, step));

  // the words, one row each (class bpe-word-row: the classroom's tests find rows by it)
  const lines = [];
  const coming = step < n ? trace.merges[step] : null;
  states[step].forEach(({ word, merged }, row) => {
    const upcoming = coming ? nextSites(word, coming[0], coming[1]) : [];
    // a row looks the same wherever its word and marks are the same: most rows do not change from one
    // step to the next, so they are drawn once and reused (a step then draws in well under a frame)
    const key = `${row}|${word.join(",")}|${merged.join(",")}|${upcoming.join(",")}`;
    const drawn = rows.get(key);
    if (drawn) {
      lines.push(drawn);
      return;
    }
    const marks = {};
    for (const i of merged) marks[i] = ["merged"];
    for (const i of upcoming) (marks[i] ??= []).push("next");
    const pieces = word.map(w.piece);
    const wordEnd = trace.ids ? null : END_OF_WORD;
    // colours follow the symbol; a chip that covers several tokens takes its first token's colour
    const grouped = makeChips(pieces, { wordEnd });
    const colours = grouped.map((chip) => PALETTE[word[chip.tokens[0]] % PALETTE.length]);
    const ids = trace.ids ? word.map((s) => trace.ids[s]) : null;
    const chips = drawChips(pieces, { ids, showIds: !!ids, marks, colours, wordEnd, chips: grouped });
    const line = el("tr", { class: "bpe-word-row" }, el("td", { class: "bpe-freq", text: `×${trace.counts[row]}` }), el("td", {}, chips));
    rows.set(key, line);
    lines.push(line);
  });
  const distinct = trace.distinct;
  const shown = trace.words.length;
  const note = distinct > shown ? `showing ${shown} of ${distinct} distinct ${trace.unit} (the most frequent)`
    : distinct === 1 ? `showing the one ${unitLabel(trace).slice(0, -1)}` : `showing all ${distinct} distinct ${trace.unit}`;
  // move rows into place one by one: a row that stays where it was is not touched at all
  const table = page.table;
  lines.forEach((line, i) => {
    if (table.children[i] !== line) table.insertBefore(line, table.children[i] ?? null);
  });
  while (table.children.length > lines.length) table.lastChild.remove();
  page.note.textContent = note;
  page.words.setAttribute("aria-label", `${unitLabel(trace)} at step ${step}`);

  const pairs = page.pairs;
  pairs.replaceChildren();
  const tableData = trace.pairs[step];
  if (tableData === null) pairs.append(el("b", { text: "Adjacent pairs:" }), " none has a rank, so the encoder stops here.");
  else if (tableData.rows.length === 0) pairs.append(el("b", { text: "Pair counts:" }), " no pairs left: every word is one symbol.");
  else {
    let heading;
    if (trace.lowerWins) heading = `Ranks of the adjacent pairs (lowest merges first; top ${tableData.rows.length} of ${tableData.total})`;
    else {
      heading = `Pair counts (top ${tableData.rows.length} of ${tableData.total}; ties: ${TIE_RULE_NAMES[trace.tieBreak] ?? trace.tieBreak})`;
      if (tableData.winner < 0) heading += ": training stopped here";
    }
    const t = el("table", { class: "bpe-pair-table" }, el("tr", {},
      el("th", { scope: "col", text: "pair" }), el("th", { scope: "col", text: trace.scoreName }),
      el("th", { scope: "col" }, el("span", { class: "bpe-sr-only", text: "bar" })),
      el("th", { scope: "col" }, el("span", { class: "bpe-sr-only", text: "next?" }))));
    tableData.rows.forEach(([a, b, score, width], k) => {
      const bar = trace.lowerWins ? null : el("div", { class: "bpe-bar", style: `width:${width}px` });
      t.append(el("tr", k === tableData.winner ? { class: "bpe-winner" } : {}, el("td", {}, code(pairText(a, b))),
        el("td", { class: "bpe-score", text: score }), el("td", {}, bar), el("td", { text: k === tableData.winner ? "★ next" : "" })));
    });
    pairs.append(el("b", { text: heading }), t);
  }

  const log = page.log;
  log.replaceChildren(el("b", { text: "Merge log" }));
  const first = Math.max(1, step - topRowsLog + 1);
  if (first > 1) log.append(el("div", {}, el("small", { text: `(${first - 1} earlier merges not shown)` })));
  if (step === 0) log.append(el("div", {}, el("small", { text: "no merges yet" })));
  for (let k = first; k <= step; k++) {
    const [a, b, c, count] = trace.merges[k - 1];
    const line = `${k}. ${pairText(a, b)} → ${w.text(c)} (${trace.scoreName} ${count})`;
    log.append(el("div", {}, k === step ? el("b", { text: line }) : line));
  }
  page.root.dataset.step = String(step);
}

function legendNode(trace) {
  const more = (text) => el("span", { class: "bpe-more", text });
  return el("div", { class: "bpe-legend" }, more("Chips: "), el("span", { class: "bpe-merged-sample", text: "bold outline" }),
    " = merged", more(" at this step"), " · ", el("span", { class: "bpe-next-sample", text: "dashed underline" }), " = merges next",
    more(" · colours follow the symbol (six colours, so symbols share them; a striped chip has its left neighbour's colour)"),
    trace.hasMarker ? " · </w> ends a word" : "", ".");
}

function button(label, css, tip, arrowsBefore, arrowsAfter) {
  const b = el("button", { type: "button", class: css, title: tip });
  if (arrowsBefore) b.append(el("span", { "aria-hidden": "true", text: arrowsBefore + " " }));
  b.append(label);
  if (arrowsAfter) b.append(el("span", { "aria-hidden": "true", text: " " + arrowsAfter }));
  return b;
}

// ---- the widget ----

function isStatic() {
  return globalThis.bpelabStatic === true;
}

/** anywidget's entry point: draw the stepper into `el` and keep it in step with the model.
 *  `ownForm: false`: the caller draws the training form (classroom.js, around the stepper). */
export function renderStepper({ model, el: root }, { ownForm = true } = {}) {
  ensureCss(root, CHIP_CSS);
  ensureCss(root, STEPPER_CSS, "bpe-stepper-css");
  const box = el("div", { class: "bpe-stepper" });
  root.append(box);
  let trace = model.get("trace");
  let states = replay(trace);
  let rows = new Map(); // drawn word rows, by word and marks (see drawView)
  let step = Math.min(model.get("current_step") ?? 0, trace.merges.length);
  let timer = null;

  const first = button("First", "bpe-first", "back to step 0, before any merge", "◀◀");
  const back = button("Back", "bpe-back", "undo one merge", "◀");
  const next = button("Next", "bpe-next", "make the next merge", null, "▶");
  const last = button("Last", "bpe-last", "jump to the last merge", null, "▶▶");
  const play = el("button", { type: "button", class: "bpe-play", title: "play the merges one by one", "aria-pressed": "false", text: "Play" });
  const input = el("input", { type: "number", min: "0", step: "1" });
  const stepBox = el("label", { class: "bpe-step-box" }, "step ", input);
  const controls = el("div", { class: "bpe-controls" }, first, back, next, last, play, stepBox);
  const live = el("div", { role: "status", "aria-live": "polite", "aria-atomic": "true", class: "bpe-sr-only" });
  const announce = el("div", { class: "bpe-announce" }, live);
  const page = skeleton();
  const views = el("div", { class: "bpe-views" }, page.root);
  const legend = el("div", { class: "bpe-legend-box" });
  const form = ownForm ? trainForm() : null;
  if (form && model.get("train_form")) box.append(form);
  box.append(controls, announce, views, legend);
  if (form && !model.get("train_form")) box.append(form);

  function draw() {
    const n = trace.merges.length;
    input.max = String(n);
    input.value = String(step);
    input.setAttribute("aria-label", `step, 0 to ${n}`);
    first.disabled = back.disabled = step === 0;
    next.disabled = last.disabled = step === n;
    play.disabled = n === 0;
    const projector = !!model.get("projector");
    box.classList.toggle("bpe-projector", projector);
    drawView(trace, states, step, model.get("log_rows") ?? 12, projector, rows, page);
    legend.replaceChildren(...(projector ? [] : [legendNode(trace)])); // a projector has it beside the stats
    live.textContent = announcement(trace, step);
  }

  function go(target, { fromModel = false } = {}) {
    const n = trace.merges.length;
    target = Math.max(0, Math.min(n, Math.trunc(target)));
    if (Number.isNaN(target) || target === step) return;
    step = target;
    draw();
    if (!fromModel) {
      model.set("current_step", step);
      model.save_changes();
    }
  }

  function stopPlaying() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
  }

  function togglePlay() {
    if (timer !== null) return stopPlaying();
    if (step === trace.merges.length) go(0);
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      go(step + 1);
      if (step === trace.merges.length) stopPlaying();
    }, PLAY_INTERVAL_MS);
  }

  const moves = { first: () => go(0), back: () => go(step - 1), next: () => go(step + 1), last: () => go(trace.merges.length) };
  first.addEventListener("click", moves.first);
  back.addEventListener("click", moves.back);
  next.addEventListener("click", moves.next);
  last.addEventListener("click", moves.last);
  play.addEventListener("click", togglePlay);
  input.addEventListener("change", () => go(Number(input.value)));
  input.addEventListener("input", () => input.value !== "" && go(Number(input.value))); // ↑ / ↓ in the box
  box.addEventListener("pointerdown", () => (lastUsed = box));
  box.addEventListener("focusin", () => (lastUsed = box));
  box.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return; // typing keeps its keys
    if (onKey(event, moves)) event.stopPropagation();
  });
  const onPageKey = (event) => {
    if (event.defaultPrevented) return; // the classroom page's own keys already moved it
    const target = event.target;
    if (target !== document.body && target !== document.documentElement) return;
    if (lastUsed !== box && !(lastUsed === null && document.querySelector(".bpe-stepper") === box)) return;
    onKey(event, moves);
  };
  document.addEventListener("keydown", onPageKey);

  const onModel = () => {
    trace = model.get("trace");
    states = replay(trace);
    rows = new Map();
    step = -1;
    go(model.get("current_step") ?? 0, { fromModel: true });
  };
  const onStep = () => go(model.get("current_step"), { fromModel: true });
  model.on("change:trace", onModel);
  model.on("change:current_step", onStep);
  draw();

  function trainForm() {
    if (!(model.get("train_form") || (isStatic() && !trace.ids && trace.scoreName === "count"))) return null;
    const text = el("textarea", { rows: "3", "aria-label": "text to train on" });
    text.value = model.get("train_text") ?? "";
    text.placeholder = "Type or paste a text: words are cut at spaces, as in lessons 02–04";
    const merges = el("input", { type: "number", min: "0", max: "500", value: String(model.get("train_merges") ?? 20) });
    const tie = el("select", {}, el("option", { value: "first", text: "first seen" }), el("option", { value: "lexicographic", text: "smallest pair" }));
    tie.value = trace.tieBreak === "lexicographic" ? "lexicographic" : "first";
    // lesson 04 cuts its real text with lesson 02's regex first; offered here, on by default where the run did
    const split = el("input", { type: "checkbox", class: "bpe-split-punctuation" });
    split.checked = trace.unit.startsWith("pieces (");
    const train = el("button", { type: "button", class: "bpe-train", text: "Train" });
    const message = el("div", { class: "bpe-message", role: "status", "aria-live": "polite" });
    train.addEventListener("click", () => {
      const n = Number(merges.value);
      if (!Number.isInteger(n) || n < 0 || n > 500) {
        message.textContent = "Merges must be a whole number from 0 to 500.";
        return;
      }
      if (!text.value.trim()) {
        message.textContent = "Type some text first: training needs words.";
        return;
      }
      const most = model.get("max_characters") ?? 50000;
      if (text.value.length > most) {
        message.textContent = `This text has ${text.value.length} characters; this page trains at most ${most}. Paste a shorter part.`;
        return;
      }
      const result = trainBpe(text.value, n, { tieBreak: tie.value, splitPunctuation: split.checked });
      stopPlaying();
      trace = traceOf(result, { topWords: model.get("top_words") ?? 40, topPairs: model.get("top_pairs") ?? 10 });
      states = replay(trace);
      rows = new Map();
      step = 0;
      draw();
      const learned = result.merges.length;
      message.textContent = `Trained in this page on ${trace.wordsTotal} words: ${learned} merge${learned === 1 ? "" : "s"}` +
        (result.stoppedEarly ? ` (stopped early: no pair left after ${learned})` : "") + ". Press Next or →.";
    });
    const fields = el("div", { class: "bpe-train-form", role: "group", "aria-label": "train on your own text" },
      el("label", {}, "Your text", el("br"), text), el("label", {}, "merges ", merges), el("label", {}, "ties ", tie),
      el("label", {}, split, " cut off punctuation first"), train, message);
    if (model.get("train_form")) return fields; // the classroom page: the form is the point
    // a lesson's page: offered, folded, under each stepper of word-level training
    return el("details", { class: "bpe-train-details" }, el("summary", { text: "Train on your own text, in this page" }), fields);
  }

  return () => {
    stopPlaying();
    document.removeEventListener("keydown", onPageKey);
    model.off("change:trace", onModel);
    model.off("change:current_step", onStep);
  };
}

function onKey(event, moves) {
  // PageDown / PageUp: what a presenter's clicker sends
  const which = { ArrowRight: "next", ArrowLeft: "back", PageDown: "next", PageUp: "back", Home: "first", End: "last" }[event.key];
  if (!which || event.altKey || event.ctrlKey || event.metaKey) return false;
  event.preventDefault();
  moves[which]();
  return true;
}

export default { render: renderStepper };
