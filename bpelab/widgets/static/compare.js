// Tokenizers side by side, drawn in the browser (bpelab/widgets/compare.py computes, this draws).
//
// One row of chips per chosen tokenizer, all on one grid whose column lines are every byte offset
// where some row cuts (cuts.js allCuts). A chip spans the columns from its first byte to its last,
// so a cut sits on the same vertical line in every row whatever the glyphs' widths (CJK, emoji,
// combining marks): alignment comes from byte offsets, never from measuring text. Each row is a
// CSS subgrid of that grid, so it stays one element (a list, class bpe-compare-row) for tests and
// screen readers. The spans the rows cut differently (cuts.js differingSpans) are drawn as dashed,
// shaded bands behind the rows, with a ≠ above them, and listed in words below for screen readers;
// compare_stretches.js decides what a band covers and counts each stretch's tokens.
//
// With a kernel, Python sends each tokenizer's pieces (`encodings`, as the explorer's); on the static
// site (globalThis.bpelabStatic) the page encodes typed text itself with the explorer's encoders.

import { CHIP_CSS, drawChips, ensureCss, makeChips, showWhitespace } from "./chips.js";
import { END_OF_WORD } from "./bpe.js";
import { canEncodeHere } from "./explorer.js";
import { counted, el, isStatic } from "./view_basics.js";
import { encodeWordLevel } from "./word_level.js";
import { tokenBuilds } from "./chip_builds.js";
import { linkExplorer } from "./explorer_link.js";
import { encodeOrdinary, productionEncoder } from "./production.js";
import { allCuts, comparedLengths, coveringLengths, differingSpans, tokenRanges } from "./cuts.js";
import { bandsOf, bytesText, describeSpan } from "./compare_stretches.js";

const COMPARE_CSS = `
.bpe-compare{display:flex;flex-direction:column;gap:8px;max-width:100%;font-family:bpe-signs,var(--jp-ui-font-family,sans-serif)}
.bpe-compare fieldset{border:1px solid #999;border-radius:4px;padding:4px 8px;margin:0}
.bpe-compare fieldset label{margin-right:14px;white-space:nowrap;display:inline-block}
.bpe-compare legend{font-weight:600}
.bpe-compare textarea{box-sizing:border-box;width:100%;height:60px;font-size:14px;font-family:var(--bpe-text-fonts,monospace)}
.bpe-compare-label-text{font-weight:600}
.bpe-compare-note{font-size:0.9em;line-height:1.5}
.bpe-compare-scroll{overflow-x:auto;max-width:100%;padding:6px 2px}
.bpe-compare-scroll:focus{outline:2px solid #1a5fb4}
.bpe-compare-grid{display:grid;row-gap:10px;column-gap:0;align-items:center;width:max-content}
.bpe-compare-name{grid-column:1;position:sticky;left:0;z-index:2;background:var(--jp-layout-color0,#fff);
  padding-right:8px;font-size:12px;font-weight:600;max-width:11em;overflow-wrap:anywhere}
.bpe-compare-row{display:grid;grid-template-columns:subgrid;line-height:1.3;z-index:1}
.bpe-compare-row .bpe-chip{margin:1px 1px;justify-content:center}
.bpe-compare-differs{z-index:0;align-self:stretch;margin:-4px 0;border:2px dashed #333;border-radius:4px;
  background:repeating-linear-gradient(135deg,#f2f2f2 0 5px,#d4d4d4 5px 10px)}
.bpe-compare-mark{grid-row:1;z-index:1;text-align:center;font-weight:700;color:#222;font-size:13px;padding:0 5px}
.bpe-compare-gap{color:#333;text-align:center;font-size:14px;font-weight:700;padding:0 2px}
.bpe-compare-message{grid-column:2 / -1;font-size:13px;font-style:italic}
.bpe-compare table{border-collapse:collapse;font-size:13px}
.bpe-compare th,.bpe-compare td{border:1px solid #bbb;padding:2px 8px;text-align:right}
.bpe-compare th[scope=row]{text-align:left}
.bpe-compare-spans{font-size:13px;line-height:1.5;margin:0;padding-left:20px}
`;

const MAX_SPANS_LISTED = 20; // the list under the grid: enough to read, not a wall of text
const COMPARE_WAIT_MS = 3000; // how long typed text waits for Python before the page answers itself
const compareUtf8 = new TextEncoder();
let compareCount = 0; // unique ids for label-for pairs when a page holds several views

/**
 * Where everything goes, without a DOM: `rows` are [{pieces, ids, wordEnd}] of the same `text`.
 * Returns {lines: column lines (byte offsets), spans: differing byte ranges, bands: [{start, end, spans}]
 * (compare_stretches.js bandsOf), rows: [{chips, gaps, ranges, wordEnd, count}]} where a chip is makeChips's
 * {tokens, text} plus its byte range and whether it lies in a differing span, and `ranges` each token's bytes.
 */
export function compareLayout(text, rows) {
  const covered = rows.map((row) => coveringLengths(text, row.pieces, row.wordEnd ?? null));
  // column lines at every edge, gaps' included; spans from the rows as compared (gaps joined on)
  const lines = allCuts(covered.map((segments) => segments.map(([length]) => length)));
  const spans = differingSpans(covered.map(comparedLengths));
  const inSpan = (start, end) => spans.some(([a, b]) => start < b && a < end);
  const laidOut = rows.map((row, r) => {
    const startOf = new Map(); // token position -> [start, end] in bytes
    const gaps = [];
    let at = 0;
    for (const [length, position] of covered[r]) {
      if (position === null) gaps.push([at, at + length]);
      else startOf.set(position, [at, at + length]);
      at += length;
    }
    const chips = foldBareWordEnds(makeChips(row.pieces, { wordEnd: row.wordEnd ?? null }), startOf)
      .map((chip) => {
        const placed = chip.tokens.filter((i) => startOf.has(i));
        const start = startOf.get(placed[0])[0];
        const end = startOf.get(placed[placed.length - 1])[1];
        return { ...chip, start, end, differs: inSpan(start, end) };
      });
    const ranges = tokenRanges(text, row.pieces, row.wordEnd ?? null);
    return { chips, gaps, ranges, wordEnd: row.wordEnd ?? null, count: row.count ?? row.pieces.length };
  });
  const bands = bandsOf(spans, laidOut.map((row) => [...row.chips.map((c) => [c.start, c.end]), ...row.gaps]));
  return { lines, spans, bands, rows: laidOut };
}

/** A chip of a bare "</w>" covers no text: it joins the chip before it (one chip, two tokens, both ids). */
function foldBareWordEnds(chips, startOf) {
  const out = [];
  for (const chip of chips) {
    const last = out[out.length - 1];
    if (chip.tokens.some((i) => startOf.has(i)) || !last) out.push(chip);
    else out[out.length - 1] = { tokens: [...last.tokens, ...chip.tokens], text: last.text + chip.text };
  }
  return out.filter((chip) => chip.tokens.some((i) => startOf.has(i)));
}

/** Count, bytes per token and count against the first row, as the table shows them. */
export function rowStats(text, counts) {
  const nBytes = compareUtf8.encode(text).length;
  return counts.map((count) => ({
    count,
    bytesPerToken: count ? (nBytes / count).toFixed(2) : "–",
    relative: counts[0] ? `${(count / counts[0]).toFixed(2)}×` : "–",
  }));
}

/**
 * Draw the comparison of `rows` ([{label, name, pieces, ids, wordEnd, count} or {label, name, message}])
 * into a new element. `onChipClick({label, name, tokens, ids, pieces, start, end, element})`, when given,
 * makes every chip a button that calls it (the token-build panel opens from here).
 */
export function drawComparison(text, rows, { showIds = true, onChipClick = null } = {}) {
  const drawn = rows.filter((row) => !row.message);
  const layout = compareLayout(text, drawn);
  const column = new Map(layout.lines.map((p, i) => [p, i + 1])); // byte offset -> subgrid line
  const grid = el("div", { class: "bpe-compare-grid" });
  grid.dataset.text = text; // which text these rows show (the page redraws as the reader types)
  grid.style.gridTemplateColumns = `max-content repeat(${Math.max(layout.lines.length - 1, 1)}, auto)`;
  grid.style.gridTemplateRows = `auto repeat(${rows.length}, auto)`;
  for (const { start, end, spans } of layout.bands) {
    const band = el("div", { class: "bpe-compare-differs", "aria-hidden": "true", "data-start": String(start), "data-end": String(end),
      "data-spans": spans.map(([a, b]) => `${a}-${b}`).join(" ") });
    band.style.gridRow = `1 / ${rows.length + 2}`;
    band.style.gridColumn = `${column.get(start) + 1} / ${column.get(end) + 1}`;
    const mark = el("div", { class: "bpe-compare-mark", "aria-hidden": "true", text: "≠", "data-start": String(start), "data-end": String(end) });
    mark.style.gridColumn = band.style.gridColumn;
    grid.append(band, mark);
  }
  const stats = rowStats(text, drawn.map((row) => row.count ?? row.pieces.length));
  let d = 0;
  rows.forEach((row, r) => {
    const name = el("div", { class: "bpe-compare-name", "aria-hidden": "true", text: row.label });
    name.style.gridRow = String(r + 2);
    grid.append(name);
    if (row.message) {
      const note = el("div", { class: "bpe-compare-message bpe-compare-row", "data-tokenizer": row.name, text: row.message });
      note.style.gridRow = String(r + 2);
      grid.append(note);
      return;
    }
    const placed = layout.rows[d];
    const stat = stats[d++];
    const list = drawChips(row.pieces, { ids: row.ids, showIds, wordEnd: row.wordEnd ?? null, chips: placed.chips });
    list.querySelectorAll("wbr").forEach((node) => node.remove()); // the grid places chips; no line breaks
    list.classList.add("bpe-compare-row");
    list.dataset.tokenizer = row.name;
    list.setAttribute("aria-label", `${row.label}: ${counted(stat.count, "token")}, ${stat.bytesPerToken} bytes per token, ${stat.relative} the first row`);
    list.style.gridRow = String(r + 2);
    list.style.gridColumn = "2 / -1";
    list.querySelectorAll(".bpe-chip").forEach((chipEl, k) => {
      const chip = placed.chips[k];
      chipEl.style.gridColumn = `${column.get(chip.start)} / ${column.get(chip.end)}`;
      chipEl.dataset.start = String(chip.start);
      chipEl.dataset.end = String(chip.end);
      if (row.ids) chipEl.dataset.ids = chip.tokens.map((i) => row.ids[i]).join(" "); // for tests and the panel
      if (chip.differs) chipEl.classList.add("bpe-compare-chip-differs");
      if (onChipClick) makeClickable(chipEl, () => onChipClick({
        label: row.label, name: row.name, tokens: chip.tokens, ids: chip.tokens.map((i) => row.ids?.[i]),
        pieces: chip.tokens.map((i) => row.pieces[i]), start: chip.start, end: chip.end, element: chipEl,
      }));
    });
    const data = compareUtf8.encode(text);
    for (const [start, end] of placed.gaps) { // a word-level tokenizer's skipped whitespace, beside its list
      const gap = el("span", { class: "bpe-compare-gap", "aria-hidden": "true", text: showWhitespace(bytesText(data, start, end)) });
      gap.style.gridColumn = `${column.get(start) + 1} / ${column.get(end) + 1}`;
      gap.style.gridRow = String(r + 2);
      grid.append(gap);
    }
    grid.append(list);
  });
  return { grid, layout, stats, drawn };
}

function makeClickable(chipEl, open) {
  chipEl.tabIndex = 0;
  chipEl.style.cursor = "pointer";
  chipEl.addEventListener("click", open);
  chipEl.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      open();
    }
  });
}

function statsTable(drawn, stats) {
  const head = el("tr", {}, ...["tokenizer", "tokens", "bytes per token", "tokens against the first row"].map((t) => el("th", { scope: "col", text: t })));
  const body = drawn.map((row, i) => el("tr", {},
    el("th", { scope: "row", text: row.label }),
    el("td", { text: String(stats[i].count) }), el("td", { text: stats[i].bytesPerToken }), el("td", { text: stats[i].relative })));
  return el("table", { class: "bpe-compare-stats" }, el("caption", { class: "bpe-sr", text: "Token counts side by side" }), el("thead", {}, head), el("tbody", {}, ...body));
}

/** anywidget's entry point: the view into `el`, kept in step with the model. `onChipClick`: see drawComparison. */
export function renderCompare({ model, el: root, onChipClick = null }) {
  ensureCss(root, CHIP_CSS);
  ensureCss(root, COMPARE_CSS, "bpe-compare-css");
  const uid = `bpe-compare-${++compareCount}`;
  const tokenizers = () => model.get("tokenizers");
  const picker = el("fieldset", { class: "bpe-compare-picker" });
  const textarea = el("textarea", { id: `${uid}-text`, placeholder: "Type or paste text here", spellcheck: "false" });
  const status = el("div", { class: "bpe-compare-status", "aria-live": "polite" });
  const scroller = el("div", { class: "bpe-compare-scroll", role: "region", tabindex: "0", "aria-label": "the rows of chips, aligned on the text" });
  const table = el("div", { class: "bpe-compare-table" });
  const spansBox = el("div", { class: "bpe-compare-spans-box" });
  const note = el("div", { class: "bpe-compare-note" });
  const buildBox = el("div", { class: "bpe-explorer-build" });
  const box = el("div", { class: "bpe-compare" }, picker,
    el("div", {}, el("label", { class: "bpe-compare-label-text", for: textarea.id, text: "your text" }), el("br"), textarea),
    status, scroller, buildBox, table, spansBox, note);
  root.append(box);
  let drawing = 0;
  // on the static site the text and the rows live in the page address, as the explorer's do (explorer_link.js)
  const link = isStatic() ? linkExplorer(box, { view: currentView, apply: applyView, after: note }) : null;

  /** The view a link keeps: the text and the chosen rows' labels. */
  function currentView() {
    const chosen = model.get("chosen");
    return { tokenizer: chosen.join(", "), tokenizers: chosen, text: textarea.value };
  }

  /** Show a view a link brought; its rows' labels, or null when this view lacks one of them. */
  function applyView(view) {
    const known = tokenizers().map((t) => t.label);
    const asked = Array.isArray(view.tokenizers) ? view.tokenizers : [];
    const rows = asked.filter((label) => known.includes(label));
    if (typeof view.text === "string") textarea.value = view.text;
    model.set("text", textarea.value);
    if (rows.length >= 2 && rows.length <= 4) model.set("chosen", rows);
    model.save_changes();
    fillPicker();
    draw();
    return rows.length === asked.length && rows.length >= 2 ? rows.join(", ") : null;
  }
  const builds = tokenBuilds(model, buildBox); // the explorer's token-build panel, Python's or the page's
  let lastChip = { element: null, turn: 0 };
  /** A clicked chip opens how its token was built; a chip of several tokens opens the next at each click. */
  function openBuild({ label, tokens, ids, pieces, element }) {
    const turn = lastChip.element === element ? (lastChip.turn + 1) % tokens.length : 0;
    lastChip = { element, turn };
    const tokenizer = tokenizers().find((t) => t.label === label);
    const shown = scroller.querySelector(".bpe-compare-grid")?.dataset.text ?? textarea.value;
    const chipNote = tokens.length > 1
      ? `This chip holds ${tokens.length} tokens; this is token ${turn + 1} of them: click the chip again for the next.`
      : "";
    builds.open(tokenizer, shown, tokens[turn], pieces[turn], chipNote, ids[turn]);
  }

  function fillPicker() {
    const chosen = model.get("chosen");
    const boxes = tokenizers().map((t, i) => {
      const box = el("input", { type: "checkbox", id: `${uid}-t${i}`, value: t.label });
      box.checked = chosen.includes(t.label);
      box.addEventListener("change", onPick);
      return el("label", { for: box.id }, box, ` ${t.label}`);
    });
    picker.replaceChildren(el("legend", { text: "tokenizers side by side (choose 2 to 4)" }), ...boxes);
    limitPicks();
  }

  function limitPicks() { // at most four rows, at least two: the boxes that would break that are disabled
    const boxes = [...picker.querySelectorAll("input")];
    const n = boxes.filter((b) => b.checked).length;
    for (const box of boxes) box.disabled = (box.checked && n <= 2) || (!box.checked && n >= 4);
  }

  function onPick() {
    limitPicks();
    const chosen = [...picker.querySelectorAll("input")].filter((b) => b.checked).map((b) => b.value);
    model.set("chosen", chosen);
    model.save_changes();
    draw();
    link?.changed();
  }

  function fillNote() {
    const shown = tokenizers().map((t) => t.encoding).filter(Boolean);
    const harmony = shown.includes("o200k_base")
      ? " gpt-oss's o200k_harmony cuts ordinary text exactly as GPT-4o's o200k_base (only its special tokens differ), so it has no row of its own."
      : "";
    note.replaceChildren(el("small", { text: "The dashed, shaded bands marked ≠ hold the stretches of text the rows cut differently " +
      "(a band takes in whole chips, so the stretches inside one character share one; the list under the table says each stretch " +
      "and the tokens that overlap it); everywhere else every row cuts at the same places. Chips line up by the bytes they cover." + harmony }));
  }

  function rowFor(tokenizer, text, encoded) {
    const wordEnd = tokenizer.kind === "word" || tokenizer.kind === "word-python" ? END_OF_WORD : null;
    return { label: tokenizer.label, name: tokenizer.encoding || tokenizer.label, pieces: encoded.pieces, ids: encoded.ids, wordEnd, count: encoded.count ?? encoded.ids.length };
  }

  function show(text, rows) {
    const { grid, layout, stats, drawn } = drawComparison(text, rows, { showIds: model.get("show_ids"), onChipClick: onChipClick ?? openBuild });
    scroller.replaceChildren(grid);
    table.replaceChildren(drawn.length ? statsTable(drawn, stats) : "");
    const n = layout.spans.length;
    status.replaceChildren(drawn.length < 2 ? "" : `${n} stretch${n === 1 ? "" : "es"} of the text cut differently by the ${drawn.length} tokenizers`);
    const items = layout.spans.slice(0, MAX_SPANS_LISTED).map((span) => el("li", { text: describeSpan(text, span, layout, drawn.map((r) => r.label)) }));
    if (n > MAX_SPANS_LISTED) items.push(el("li", { text: `and ${n - MAX_SPANS_LISTED} more` }));
    spansBox.replaceChildren(n ? el("details", {}, el("summary", { text: "the stretches cut differently, in words" }), el("ul", { class: "bpe-compare-spans" }, ...items)) : "");
  }

  async function encodeRow(tokenizer, text, pythonSilent) {
    const stored = (model.get("encodings") || {})[tokenizer.label];
    if (stored && stored.text === text) {
      return stored.error ? { label: tokenizer.label, name: tokenizer.encoding || tokenizer.label, message: stored.error } : rowFor(tokenizer, text, stored);
    }
    if (tokenizer.kind === "word") return rowFor(tokenizer, text, encodeWordLevel(tokenizer, text));
    if (isStatic() && canEncodeHere(tokenizer)) {
      const encoder = await productionEncoder(tokenizer.encoding);
      return rowFor(tokenizer, text, encodeOrdinary(encoder, text));
    }
    const message = isStatic() || pythonSilent
      ? `${tokenizer.label} needs the running notebook for new text`
      : `encoding with ${tokenizer.label}…`;
    return { label: tokenizer.label, name: tokenizer.encoding || tokenizer.label, message, waiting: !isStatic() && !pythonSilent };
  }

  async function draw(pythonSilent = false) {
    const ticket = ++drawing;
    const text = textarea.value;
    const limit = model.get("max_chars");
    if (text.length > limit) {
      scroller.replaceChildren();
      table.replaceChildren();
      spansBox.replaceChildren();
      status.replaceChildren(`This text has ${text.length} characters; the side-by-side view compares up to ${limit}. Shorten it (the explorer takes long texts).`);
      return;
    }
    const chosen = model.get("chosen");
    const picked = tokenizers().filter((t) => chosen.includes(t.label));
    let rows;
    try {
      rows = await Promise.all(picked.map((t) => encodeRow(t, text, pythonSilent)));
    } catch (err) {
      if (ticket === drawing) status.replaceChildren(`A tokenizer could not be loaded here (${err.message}).`);
      return;
    }
    if (ticket !== drawing) return; // the reader typed on while a vocabulary loaded
    show(text, rows);
    if (rows.some((row) => row.waiting)) setTimeout(() => ticket === drawing && draw(true), COMPARE_WAIT_MS);
  }

  textarea.addEventListener("input", () => {
    model.set("text", textarea.value);
    model.save_changes();
    draw();
    link?.changed();
  });
  const onText = () => {
    if (textarea.value !== model.get("text")) textarea.value = model.get("text");
    draw();
  };
  const onChosen = () => {
    fillPicker();
    draw();
  };
  const onEncodings = () => draw();
  const onTokenizers = () => {
    fillPicker();
    fillNote();
    draw();
  };
  model.on("change:text", onText);
  model.on("change:chosen", onChosen);
  model.on("change:encodings", onEncodings);
  model.on("change:tokenizers", onTokenizers);
  model.on("change:token_build", builds.onAnswer);
  textarea.value = model.get("text");
  fillPicker();
  fillNote();
  draw();
  return () => {
    model.off("change:text", onText);
    model.off("change:chosen", onChosen);
    model.off("change:encodings", onEncodings);
    model.off("change:tokenizers", onTokenizers);
    model.off("change:token_build", builds.onAnswer);
  };
}

export default { render: renderCompare };
