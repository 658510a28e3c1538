// The merge stepper's view: one step of a training trace drawn as the status lines, the words as chips,
// the pair table and the merge log, with the CSS they need. It draws and never listens: the widget
// (stepper.js) owns the step, the buttons and the model, and calls drawView each time the step changes.

import { PALETTE, drawChips, makeChips } from "./chips.js";
import { END_OF_WORD } from "./bpe.js";
import { TIE_RULE_NAMES, fixed2, symbolWriter } from "./stepper_text.js";

export const STEPPER_CSS = `
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
export function replay(trace) {
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

/** A DOM element with its attributes (`class`, `text` or any other) and children: the one small builder
 *  the view, the widget and the classroom's form all draw with. */
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

/** The view's parts that stay from step to step (redrawing only what changed keeps a step within a frame). */
export function skeleton() {
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
export function drawView(trace, states, step, topRowsLog, projector, rows, page) {
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

export function legendNode(trace) {
  const more = (text) => el("span", { class: "bpe-more", text });
  return el("div", { class: "bpe-legend" }, more("Chips: "), el("span", { class: "bpe-merged-sample", text: "bold outline" }),
    " = merged", more(" at this step"), " · ", el("span", { class: "bpe-next-sample", text: "dashed underline" }), " = merges next",
    more(" · colours follow the symbol (six colours, so symbols share them; a striped chip has its left neighbour's colour)"),
    trace.hasMarker ? " · </w> ends a word" : "", ".");
}
