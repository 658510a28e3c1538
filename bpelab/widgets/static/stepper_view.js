// The merge stepper's view: one step of a training trace drawn as the status lines, the words as chips,
// the pair table and the merge log, with the CSS they need. It draws and never listens: the widget
// (stepper.js) owns the step, the buttons and the model, and calls drawView each time the step changes.

import { PALETTE, drawChips, makeChips } from "./chips.js";
import { END_OF_WORD } from "./bpe.js";
import { TIE_RULE_NAMES, fixed2, symbolWriter } from "./stepper_text.js";
import { BAR_WIDTH } from "./trace.js";
import { countedUnit } from "./count_line.js";
import { counted, el } from "./view_basics.js";

export const STEPPER_CSS = `
.bpe-stepper{font-size:14px;display:flex;flex-direction:column;gap:4px;color:#000;background:#fff}
.bpe-stepper:focus{outline:none} /* focused by a click on its words (stepper.js): the keys are its, no ring */
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
.bpe-stepper code{font-family:var(--bpe-text-fonts,monospace)}
.bpe-stepper .bpe-train-form textarea{font-family:var(--bpe-text-fonts,monospace);width:min(40em,100%);min-height:3.5em}
.bpe-stepper .bpe-train-form input[type=number]{width:5em} /* not the checkbox: 5em wide, it left a gap */
.bpe-stepper .bpe-message{flex-basis:100%}
/* a projector (classroom mode: make present, site/present.html). Type scales with the screen and is never
   under 18px; the words take the whole width, in as many columns as the widest word leaves room for (drawView
   sets --bpe-word-col to its width), so a word's chips stay on one line; the pair table and the merge log sit
   side by side under the words. At 1280x720 a class's twelve long words, the pairs and the log are in view. */
.bpe-projector{font-size:clamp(18px,min(1.45vw,2.6vh),34px)}
.bpe-projector button{font-size:1em;padding:.1em .6em}
.bpe-projector .bpe-step-ref,.bpe-projector .bpe-more{display:none}
.bpe-projector .bpe-step-box input{width:4em}
.bpe-projector .bpe-status{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 1.2em}
.bpe-projector .bpe-status>div{margin:0}
.bpe-projector .bpe-step-label{font-size:1.4em}
.bpe-stepper.bpe-projector code{font-size:1em} /* not JupyterLab's 13px */
.bpe-projector .bpe-pair,.bpe-projector .bpe-next-pair{font-size:1.1em}
.bpe-projector .bpe-statline{flex-basis:100%;display:flex;flex-wrap:wrap;gap:0 1.2em}
.bpe-projector .bpe-statline>div{margin:0}
.bpe-projector .bpe-legend,.bpe-projector .bpe-note{font-size:1em}
.bpe-projector .bpe-words-note.bpe-all-shown{display:none}
.bpe-projector .bpe-columns{flex-direction:column;flex-wrap:nowrap;gap:.3em}
.bpe-projector .bpe-left{flex:none;width:100%}
.bpe-projector .bpe-right{flex:none;width:100%;display:flex;flex-wrap:wrap;align-items:flex-start;gap:.2em 2em}
.bpe-projector .bpe-pairs{flex:0 1 auto;min-width:0}
.bpe-projector .bpe-log{flex:1 1 16em;min-width:0}
.bpe-projector .bpe-log div{line-height:1.3}
.bpe-projector .bpe-log small{font-size:1em}
.bpe-projector .bpe-pair-table td{overflow-wrap:normal;white-space:nowrap;line-height:1.3}
.bpe-projector .bpe-bar{height:.7em}
.bpe-projector .bpe-pair-table th{white-space:nowrap;line-height:1.3}
/* a column holds the widest word, but at most half the width (two columns beat one long list: a word wider
   than that wraps, its </w> kept with its last letter), and never less than 14em (a phone: one column) */
.bpe-projector .bpe-word-table{gap:0 1.2em;
  grid-template-columns:repeat(auto-fill,minmax(max(min(var(--bpe-word-col,12em),calc(50% - .6em)),min(100%,14em)),1fr))}
.bpe-projector .bpe-word-row{gap:.2em;padding:1px 0}
.bpe-projector .bpe-words{margin-top:.35em}
.bpe-projector .bpe-word-row .bpe-chips{font-size:1em;line-height:1.25}
.bpe-projector .bpe-chip{padding:0 .15em;margin:1px}
.bpe-projector .bpe-word-table .bpe-freq{min-width:2em;padding-right:.2em}
/* a phone: no line may be wider than the screen */
@media (max-width:640px){
.bpe-projector .bpe-word-row .bpe-chips{font-size:15px}
.bpe-projector .bpe-pair-table td{white-space:normal;overflow-wrap:anywhere}
.bpe-projector .bpe-pair code,.bpe-projector .bpe-next-pair code{overflow-wrap:anywhere}
}
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

function unitLabel(trace) {
  return trace.unit.split(" (")[0];
}

/** "token" for one, "tokens" for any other count ("1 tokens in 1 pieces" read as a slip). */
function noun(n, word) {
  return n === 1 ? word : `${word}s`;
}

/** The words after the bold token count: "token in 1 piece (words and punctuation)", "tokens in 6 words". */
export function tokensIn(tokens, words, unit) {
  return `${noun(tokens, "token")} in ${countedUnit(words, unit)}`;
}

function statsNode(trace, step) {
  const tokens = trace.tokens[step];
  const b = (x) => el("b", { text: String(x) });
  const node = el("div", { class: "bpe-stats" });
  if (trace.bytes !== null) {
    if (!tokens) node.textContent = "no tokens";
    else node.append(b(tokens), ` ${noun(tokens, "token")} for ${counted(trace.bytes, "byte")}: `, b(fixed2(trace.bytes / tokens)), " bytes per token");
    return node;
  }
  const words = trace.wordsTotal;
  const unit = unitLabel(trace).slice(0, -1);
  // the parts in .bpe-more explain; a projector leaves them out so the line fits
  const more = (text) => el("span", { class: "bpe-more", text });
  node.append(
    "vocabulary ", b(trace.startVocab + step), " symbols", more(` (${trace.startVocab} to start + ${step} merges)`), " · ",
    b(tokens), ` ${tokensIn(tokens, words, trace.unit)} · `, el("span", { class: "bpe-more" }, b(fixed2(words ? tokens / words : 0)), ` tokens per ${unit} · `),
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
  if (step === n) next.append(el("b", { text: "End of this replay" }), `: ${endText(trace)}.`);
  else {
    const [a, b, , count] = trace.merges[step];
    next.append("Next merge", el("span", { class: "bpe-step-ref", text: ` (step ${step + 1})` }), ": ",
      code(pairText(a, b)), ` (${trace.scoreName} ${count})`);
  }
  const why = stepNote(trace, step);
  if (why) next.append(el("div", { class: "bpe-note bpe-step-note", text: why }));
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
  page.note.classList.toggle("bpe-all-shown", distinct <= shown); // a projector needs no line to say so
  if (projector) fitColumns(trace, table);
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
    // the column names in spans: a fitted classroom keeps them for screen readers only (classroom_fit.js)
    const t = el("table", { class: "bpe-pair-table" }, el("tr", {},
      el("th", { scope: "col" }, el("span", { class: "bpe-col-name", text: "pair" })),
      el("th", { scope: "col" }, el("span", { class: "bpe-col-name", text: trace.scoreName })),
      el("th", { scope: "col" }, el("span", { class: "bpe-sr-only", text: "bar" })),
      el("th", { scope: "col" }, el("span", { class: "bpe-sr-only", text: "next?" }))));
    tableData.rows.forEach(([a, b, score, width], k) => {
      // the longest bar is BAR_WIDTH px, or --bpe-bar-max where the page sets it (a fitted classroom: in em)
      const bar = trace.lowerWins ? null
        : el("div", { class: "bpe-bar", style: `width:calc(${(width / BAR_WIDTH).toFixed(4)} * var(--bpe-bar-max, ${BAR_WIDTH}px))` });
      const star = k === tableData.winner ? ["★", el("span", { class: "bpe-star-word", text: " next" })] : [];
      t.append(el("tr", k === tableData.winner ? { class: "bpe-winner" } : {}, el("td", {}, code(pairText(a, b))),
        el("td", { class: "bpe-score", text: score }), el("td", {}, bar), el("td", {}, ...star)));
    });
    pairs.append(el("b", { text: heading }), t);
  }

  const log = page.log;
  // the heading line says what is left out, so the log takes no more lines than it shows
  const first = Math.max(1, step - topRowsLog + 1);
  log.replaceChildren(el("div", {}, el("b", { text: "Merge log" }),
    first > 1 ? el("small", { text: ` (${first - 1} earlier merges not shown)` }) : null));
  if (step === 0) log.append(el("div", {}, el("small", { text: "no merges yet" })));
  for (let k = first; k <= step; k++) {
    const [a, b, c, count] = trace.merges[k - 1];
    // a projector leaves out what the pair makes (the words show it): one line per merge
    const line = [`${k}. ${pairText(a, b)}`, el("span", { class: "bpe-more", text: ` → ${w.text(c)}` }), ` (${trace.scoreName} ${count})`];
    log.append(el("div", {}, k === step ? el("b", {}, ...line) : el("span", {}, ...line)));
  }
  page.root.dataset.step = String(step);
}

/** Why the next merge (the one after `step`) was chosen, when the run says (a parity-aware run names the
 *  language that was worst off, whose pair counts the table shows); null otherwise. */
/** What the last step says: the run's own words when it gives them (a SentencePiece replay may stop before
 *  its merges end, and says where and why), else that no merges are left. */
export function endText(trace) {
  return typeof trace.endNote === "string" && trace.endNote ? trace.endNote : "no merges left";
}

export function stepNote(trace, step) {
  const notes = trace.notes;
  return Array.isArray(notes) && step < notes.length ? notes[step] : null;
}

const widestRow = new WeakMap(); // trace -> its widest word row drawn so far, in em of the word table

/** Make the word columns as wide as the widest row, so that a word's chips never wrap. Rows are widest at
 *  step 0 (a merge only narrows a word) and the widest seen is kept: the columns stay put while stepping. */
function fitColumns(trace, table) {
  const em = parseFloat(getComputedStyle(table).fontSize);
  if (!em || !table.children.length) return;
  let widest = widestRow.get(trace) ?? 0;
  for (const row of table.children) {
    const [freq, cell] = row.children;
    let width = freq.getBoundingClientRect().width + parseFloat(getComputedStyle(row).columnGap || "0");
    const chips = cell.querySelectorAll(".bpe-chip");
    const style = chips.length ? getComputedStyle(chips[0]) : null;
    const margins = style ? parseFloat(style.marginLeft) + parseFloat(style.marginRight) : 0;
    for (const chip of chips) width += chip.getBoundingClientRect().width + margins;
    widest = Math.max(widest, width / em);
  }
  widestRow.set(trace, widest);
  table.style.setProperty("--bpe-word-col", `${(widest + 0.3).toFixed(2)}em`);
}

export function legendNode(trace) {
  const more = (text) => el("span", { class: "bpe-more", text });
  return el("div", { class: "bpe-legend" }, more("Chips: "), el("span", { class: "bpe-merged-sample", text: "bold outline" }),
    " = merged", more(" at this step"), " · ", el("span", { class: "bpe-next-sample", text: "dashed underline" }), " = ", more("merges "), "next",
    more(" · colours follow the symbol (six colours, so symbols share them; a striped chip has its left neighbour's colour)"),
    trace.hasMarker ? more(" · </w> ends a word") : "", ".");
}
