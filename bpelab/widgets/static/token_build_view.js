// The "how a token was built" panel: steps through a TokenBuild (token_build.js's buildWithRanks /
// buildFromMerges, or Python's TokenBuild.as_dict(), the same shape) with the stepper's chips,
// First/Back/Next/Last and keys, each step's rank, merge number or score (a SentencePiece piece:
// sentencepiece_build.js), and the whole build as a tree.
//
// Any view that draws chips can open it: openTokenBuild(container, build, options). What it says is
// written by buildLines / stepLine (plain text, no DOM), which bpelab/widgets/token_build_view.py
// writes the same way for the notebook's text fallback; tests/test_token_build_view.py holds them equal.

import { CHIP_CSS, chipLabel, drawChips, ensureCss, showWhitespace } from "./chips.js";
import { replay } from "./token_build.js";

export const TOKEN_BUILD_CSS = `
.bpe-token-build{border:1px solid #767676;border-radius:4px;padding:6px 8px;margin-top:6px;background:#fff;color:#000;
  font-family:var(--jp-ui-font-family,sans-serif);font-size:14px;display:flex;flex-direction:column;gap:4px}
.bpe-token-build:focus-visible,.bpe-token-build button:focus-visible{outline:2px solid #1a5fb4;outline-offset:1px}
.bpe-token-build h3{font-size:1em;margin:0}
.bpe-token-build .bpe-tb-controls{display:flex;flex-wrap:wrap;align-items:center;gap:4px 6px}
.bpe-token-build button{font:inherit;padding:2px 10px;border:1px solid #767676;border-radius:3px;background:#f0f0f0;color:#000;cursor:pointer}
.bpe-token-build button:disabled{color:#595959;background:#fafafa;cursor:default}
.bpe-token-build .bpe-step-label{font-weight:600}
.bpe-token-build .bpe-tb-tree ul{margin:0;padding-left:1.4em;list-style:disc}
.bpe-token-build .bpe-tb-tree code,.bpe-token-build .bpe-tb-step code{font-family:var(--bpe-text-fonts,monospace)}
.bpe-token-build .bpe-tb-note{font-size:.9em}
`;

const strictPart = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A part's text when its bytes are valid UTF-8 alone, else null (half a character). */
export function partString(bytes) {
  try {
    return strictPart.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/** How a part is written: its text with whitespace drawn ("⋅Kub"), or its bytes ("<E6><97>") when it is half a
 * character; a part of invisible characters only is named as the chips name it ("U+200D ZERO WIDTH JOINER"). */
export function partText(bytes) {
  const text = partString(bytes);
  if (text !== null) return chipLabel(text);
  return partBytes(bytes);
}

function partBytes(bytes) {
  return Array.from(bytes, (b) => `<${b.toString(16).toUpperCase().padStart(2, "0")}>`).join("");
}

/** A part as a chip's text, whitespace drawn: drawChips names an invisible part itself (chipLabel). */
function partChipText(bytes) {
  const text = partString(bytes);
  return text !== null ? showWhitespace(text) : partBytes(bytes);
}

/** What a step's number counts, as the panel writes it: "rank 127933", "merge 12" or "score -2" (SentencePiece). */
export function numberText(build, number) {
  return `${build.numbering === "merge" || build.numbering === "score" ? build.numbering : "rank"} ${number}`;
}

/** "Step k of n". */
export function stepLabel(k, n) {
  return `Step ${k} of ${n}`;
}

/** What step `k` did, in one line (k = 0: where it starts). */
export function stepLine(build, k) {
  const n = build.steps.length;
  if (k === 0 && build.leaves === "symbols") {
    const start = n ? build.steps[0].before.length : 1;
    return `The ${start} symbols the word starts as (its characters, and </w> at a word's end), before any merge.`;
  }
  if (k === 0 && build.leaves === "characters") {
    const start = n ? build.steps[0].before.length : 1;
    return `The ${start} character${start === 1 ? "" : "s"} of the piece (▁ is a space), before any merge${n ? "" : " (a single character needs none)"}.`;
  }
  if (k === 0) return `The ${build.token.length} bytes of the token, before any merge${n ? "" : " (a single byte needs none)"}.`;
  const s = build.steps[k - 1];
  return `Merged ${partText(s.left)} + ${partText(s.right)} → ${partText([...s.left, ...s.right])} (${numberText(build, s.number)}).`;
}

/**
 * The note under the title for a token merging in rank order does not reach: where the merges stop, the two
 * older tokens it joins (`build.halves`), and how tiktoken gives it all the same.
 */
export function reachNote(build) {
  if (build.reachable) return "";
  if (build.numbering === "score") {
    return "Merging in score order does not reach this piece: from its characters, joining pairs that form pieces " +
      `scoring at least its own stops at ${build.parts.length} parts: ${build.parts.map(partText).join(" | ")}. ` +
      "SentencePiece's encoder never gives it.";
  }
  const stop = "Merging in rank order with the tokens older than this one does not reach it: from its bytes, the merges stop at " +
    `${build.parts.length} parts: ${build.parts.map(partText).join(" | ")}.`;
  let joined = "";
  if (build.halves && build.halves.length) {
    const cuts = build.halves.map((h) => `${partText(h.left)} (rank ${h.left_id}) + ${partText(h.right)} (rank ${h.right_id})`);
    joined = ` It is two older tokens joined: ${cuts.join(" or ")}.`;
  } else if (build.halves) {
    joined = " No two older tokens join to make it.";
  }
  return stop + joined + " tiktoken gives it all the same where a piece of the text is exactly this token: its " +
    "whole-piece lookup returns it before any merge.";
}

/**
 * For a tree with a node ranked below one of its children: that node has no parents of its own and was made inside
 * this token (Llama 3's `ерату` in ` температу`), which the key's "lower = earlier" would not explain
 * (token_build_view.py's made_inside_note).
 */
export function madeInsideNote(build) {
  const found = [];
  const seen = new Set();
  const walk = (n) => {
    const later = n.children.filter((c) => c.id > n.id);
    const key = n.token.join(",");
    if (build.numbering === "rank" && later.length && !seen.has(key)) {
      seen.add(key);
      const [left, right] = n.children;
      found.push(`${partText(n.token)} (rank ${n.id}) has no parents of its own (lesson 07, section 7): ` +
        `merging below this token's rank makes it from ${partText(left.token)} + ${partText(right.token)}, ` +
        `and ${later.map((c) => `${partText(c.token)} (rank ${c.id})`).join(" and ")} ranks above it.`);
    }
    n.children.forEach(walk);
  };
  if (build.tree) walk(build.tree);
  return found.join(" ");
}

/** The tree as indented lines: "⋅Kubernetes (rank 127933)", its two parts under it. */
export function treeLines(build) {
  if (!build.tree) return [];
  const lines = [];
  const walk = (node, depth) => {
    lines.push(`${"  ".repeat(depth)}${partText(node.token)} (${node.children.length ? numberText(build, numberOf(build, node)) : leafWord(build)})`);
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(build.tree, 0);
  return lines;
}

function leafWord(build) {
  return { symbols: "symbol", characters: "character" }[build.leaves] || "byte";
}

function numberOf(build, node) {
  const step = build.steps.find((s) => s.id === node.id);
  return step ? step.number : node.id;
}

/**
 * The title's count of merges; for a token they never build, where they stop, so the count is not read as a
 * recipe for it (token_build_view.py's merges_text).
 */
export function mergesText(build) {
  const n = build.steps.length;
  const merges = n === 1 ? `${n} merge` : `${n} merges`;
  if (build.reachable) return merges;
  if (build.numbering === "score") return `${merges}, which ${n === 1 ? "stops" : "stop"} at ${build.parts.length} parts: score-order merging never builds it`;
  return `${merges}, which ${n === 1 ? "stops" : "stop"} at ${build.parts.length} parts: merging the tokens older than it never builds it`;
}

/** The whole panel as text lines: the title, every step's label and line, the tree (the text fallback's shape). */
export function buildLines(build, title = "") {
  const head = `How ${partText(build.token)} was built${title ? ` (${title})` : ""}: id ${build.id}, ${mergesText(build)}`;
  const lines = [head];
  const note = reachNote(build);
  if (note) lines.push(note);
  const inside = madeInsideNote(build);
  if (inside) lines.push(inside);
  if (build.note) lines.push(build.note);
  for (let k = 0; k <= build.steps.length; k += 1) lines.push(`${stepLabel(k, build.steps.length)}: ${stepLine(build, k)}`);
  return [...lines, ...treeLines(build)];
}

// ---- drawing ----

function node(tag, attrs = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") made.className = value;
    else if (key === "text") made.textContent = value;
    else made.setAttribute(key, value);
  }
  made.append(...children.filter((c) => c !== null && c !== undefined));
  return made;
}

/** The ids the panel knows for parts: merged tokens from the steps, single bytes from the tree. */
function knownIds(build) {
  const ids = new Map();
  const walk = (n) => {
    ids.set(n.token.join(","), n.id);
    n.children.forEach(walk);
  };
  if (build.tree) walk(build.tree);
  for (const s of build.steps) ids.set([...s.left, ...s.right].join(","), s.id);
  return ids;
}

/** One frame's parts as chips, one chip per part (never grouped: a half character is its own part). */
function partChips(parts, ids, marks) {
  const pieces = parts.map(partChipText);
  const chips = pieces.map((text, i) => ({ tokens: [i], text }));
  const partIds = parts.map((p) => ids.get(p.join(",")) ?? "?");
  return drawChips(pieces, { ids: partIds, showIds: true, marks, chips });
}

function treeList(build, root) {
  const item = (n) => {
    // a production token's rank is its id; a learner's merge number is not, so both are said
    const what = !n.children.length ? `a ${leafWord(build)}, id ${n.id}` : build.numbering === "rank" ? `rank ${n.id}` : `${numberText(build, numberOf(build, n))}, id ${n.id}`;
    const li = node("li", {}, node("code", { text: partText(n.token) }), ` (${what})`);
    if (n.children.length) li.append(node("ul", {}, ...n.children.map(item)));
    return li;
  };
  return node("ul", {}, item(root));
}

// Which panel the page's keys go to, marked in the DOM as the stepper marks its own (stepper.js): a
// page may hold several views, each with its own copy of this module. The last one used takes the keys.
const KEYS_IN_USE = "data-bpe-keys";

function takeKeys(panel) {
  for (const other of document.querySelectorAll(`[${KEYS_IN_USE}]`)) if (other !== panel) other.removeAttribute(KEYS_IN_USE);
  panel.setAttribute(KEYS_IN_USE, "");
}

const KEY_WORDS = {
  merge: "merge k is the k-th merge your tokenizer learned.",
  rank: "a merge's rank is the order it was learned in (lower = earlier).",
  score: "a merge's score orders it: SentencePiece joins the pair forming the highest-scoring piece first, the leftmost of equal scores.",
};

const STEP_KEYS = { ArrowRight: "next", ArrowLeft: "back", PageDown: "next", PageUp: "back", Home: "first", End: "last" };

/**
 * Open the panel for `build` inside `container` (replacing a panel already open there).
 * options: `title` (the tokenizer's name), `note` (a line under the title), `step` (where to start,
 * default 0), `focus` (default true: the panel takes focus and the keys). Returns {root, go, step, close}.
 */
export function openTokenBuild(container, build, { title = "", note = "", step = 0, focus = true } = {}) {
  container.replaceChildren(); // the panel, or a message, shown before: one panel per container
  ensureCss(container, CHIP_CSS);
  ensureCss(container, TOKEN_BUILD_CSS, "bpe-token-build-css");
  const n = build.steps.length;
  const frames = replay(build);
  const ids = knownIds(build);
  const heading = `How ${partText(build.token)} was built${title ? ` in ${title}` : ""}`;
  const panel = node("section", { class: "bpe-token-build", tabindex: "-1", "aria-label": heading, "data-token-id": String(build.id) });
  const button = (text, css, tip, before, after) => {
    const b = node("button", { type: "button", class: css, title: tip });
    if (before) b.append(node("span", { "aria-hidden": "true", text: before + " " }));
    b.append(text);
    if (after) b.append(node("span", { "aria-hidden": "true", text: " " + after }));
    return b;
  };
  const first = button("First", "bpe-first", `back to the single ${leafWord(build)}s`, "◀◀");
  const back = button("Back", "bpe-back", "undo one merge", "◀");
  const next = button("Next", "bpe-next", "make the next merge", null, "▶");
  const last = button("Last", "bpe-last", "jump to the whole token", null, "▶▶");
  const close = button("Close", "bpe-close", "close this panel");
  const label = node("div", { class: "bpe-step-label", "aria-live": "polite" });
  const line = node("div", { class: "bpe-tb-step" });
  const chipsBox = node("div", { class: "bpe-tb-parts" });
  const reach = reachNote(build);
  const inside = madeInsideNote(build);
  panel.append(...[
    node("h3", {}, heading, ` · id ${build.id} · ${mergesText(build)}`),
    note ? node("div", { class: "bpe-tb-note", text: note }) : null,
    reach ? node("div", { class: "bpe-tb-note bpe-tb-unreachable", text: reach }) : null,
    inside ? node("div", { class: "bpe-tb-note bpe-tb-inside", text: inside }) : null,
    build.note ? node("div", { class: "bpe-tb-note bpe-tb-kind", text: build.note }) : null,
    node("div", { class: "bpe-tb-controls" }, first, back, next, last, label, close),
    line, chipsBox,
    node("div", { class: "bpe-tb-note", text: `Keys: ← → one merge, Home / End the first and last. Numbers under the chips are ids; ` +
      KEY_WORDS[build.numbering] }),
    build.tree ? node("details", { class: "bpe-tb-tree", open: "" }, node("summary", { text: "The whole build as a tree" }), treeList(build, build.tree)) : null,
  ].filter(Boolean));
  let at = -1;
  function go(k) {
    const to = Math.max(0, Math.min(n, k));
    if (to === at) return;
    at = to;
    label.textContent = stepLabel(at, n);
    line.textContent = stepLine(build, at);
    const marks = {};
    if (at > 0) marks[build.steps[at - 1].position] = ["merged"];
    if (at < n) {
      const p = build.steps[at].position;
      (marks[p] ??= []).push("next");
      (marks[p + 1] ??= []).push("next");
    }
    chipsBox.replaceChildren(partChips(frames[at], ids, marks));
    chipsBox.setAttribute("aria-label", `the parts at step ${at}`);
    first.disabled = back.disabled = at === 0;
    next.disabled = last.disabled = at === n;
    panel.dataset.step = String(at);
  }
  const moves = { first: () => go(0), back: () => go(at - 1), next: () => go(at + 1), last: () => go(n) };
  first.addEventListener("click", moves.first);
  back.addEventListener("click", moves.back);
  next.addEventListener("click", moves.next);
  last.addEventListener("click", moves.last);
  const onKey = (event) => {
    const which = STEP_KEYS[event.key];
    if (!which || event.altKey || event.ctrlKey || event.metaKey) return false;
    event.preventDefault();
    moves[which]();
    return true;
  };
  panel.addEventListener("pointerdown", () => takeKeys(panel));
  panel.addEventListener("focusin", () => takeKeys(panel));
  panel.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select, summary")) return;
    if (onKey(event)) event.stopPropagation();
  });
  // keys with nothing focused (a button went disabled under the pointer) go to the panel in use
  const onPageKey = (event) => {
    if (!panel.isConnected) return document.removeEventListener("keydown", onPageKey);
    const target = event.target;
    if (event.defaultPrevented || !panel.hasAttribute(KEYS_IN_USE)) return;
    if (target === document.body || target === document.documentElement) onKey(event);
  };
  const onPagePointer = (event) => {
    if (!panel.isConnected) return document.removeEventListener("pointerdown", onPagePointer, true);
    if (!panel.contains(event.target)) panel.removeAttribute(KEYS_IN_USE);
  };
  document.addEventListener("keydown", onPageKey);
  document.addEventListener("pointerdown", onPagePointer, true);
  const shut = () => {
    document.removeEventListener("keydown", onPageKey);
    document.removeEventListener("pointerdown", onPagePointer, true);
    panel.remove();
  };
  close.addEventListener("click", shut);
  go(step);
  container.append(panel);
  if (focus) {
    takeKeys(panel);
    panel.focus({ preventScroll: false });
  }
  return { root: panel, go, step: () => at, close: shut };
}
