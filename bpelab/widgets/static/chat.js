// The chat view: a conversation as a model sees it (bpelab/widgets/chat.py computes, this draws).
//
// With a kernel, Python renders the turns in each format (bpelab/chat_formats.py) and sends the
// tokens. On a page without one (globalThis.bpelabStatic) this module renders them itself: the same
// layout as chat_layout (special tokens are fixed strings placed between the turns' text), each text
// segment encoded with production.js's encoder for the format's encoding. Held equal to Python by
// tests/test_js_chat.py.

import { PY_SPACE } from "./bpe.js";
import { CHIP_CSS, drawChips, ensureCss, makeChips } from "./chips.js";
import { KERNEL_WAIT_MS, el, isStatic } from "./view_basics.js";
import { encodeOrdinary, productionEncoder } from "./production.js";

export const ROLES = ["system", "user", "assistant"];

const CHAT_CSS = `
.bpe-chat{display:flex;flex-direction:column;gap:6px;max-width:100%;font-family:var(--jp-ui-font-family,sans-serif)}
.bpe-chat label{font-weight:600;margin-right:6px}
.bpe-chat-turn{display:flex;gap:6px;align-items:flex-start}
.bpe-chat-turn textarea{flex:1;box-sizing:border-box;height:44px;font-size:14px;font-family:var(--bpe-text-fonts,monospace)}
.bpe-chat button,.bpe-chat select{font-size:14px}
.bpe-chat .bpe-chips-box{max-height:360px;overflow:auto;white-space:normal}
.bpe-chat .bpe-chips-box:focus{outline:2px solid #1a5fb4}
.bpe-chat table{border-collapse:collapse;font-size:13px}
.bpe-chat td,.bpe-chat th{border:1px solid #999;padding:1px 6px;text-align:right}
.bpe-chat .bpe-chat-note{white-space:normal;line-height:1.5;font-size:0.9em}
.bpe-chip.bpe-chip-special{color:#fff;background:#3d3d5c !important;border:1px dashed #fff}
.bpe-chip.bpe-chip-special .bpe-chip-id{color:#e8e8ff}
.bpe-chip.bpe-chip-trained{box-shadow:inset 0 -5px 0 #0b6e2e,0 0 0 2px #0b6e2e}
.bpe-chat-key-trained{box-shadow:inset 0 -5px 0 #0b6e2e,0 0 0 2px #0b6e2e;padding:0 4px;margin:0 2px}
.bpe-chat-key-special{color:#fff;background:#3d3d5c;padding:0 4px}
`;

/** Python's str.strip() (Meta's template strips each message): exactly Python's whitespace, not JS's trim(). */
const STRIP = new RegExp(`^(?:${PY_SPACE.source})|(?:${PY_SPACE.source})$`, "gu");
export function pythonStrip(text) {
  return text.replace(STRIP, "");
}

/** One character of Python's whitespace (str.isspace()). */
const PY_SPACE_CHAR = new RegExp(`^(?:${PY_SPACE.source})$`, "u");

/**
 * The pieces Meta's Tokenizer.encode encodes one by one (bpelab.chat_formats.llama3_pieces): windows of 400,000
 * characters (code points, as Python counts), each cut where a run of whitespace or of other characters passes 25,000.
 */
export function llama3Pieces(text) {
  const chars = Array.from(text);
  const pieces = [];
  for (let start = 0; start < chars.length; start += 400000) {
    const window = chars.slice(start, start + 400000);
    let run = 0;
    let inSpace = PY_SPACE_CHAR.test(window[0]);
    let cut = 0;
    window.forEach((ch, i) => {
      const now = PY_SPACE_CHAR.test(ch);
      if (inSpace !== now) {
        run = 1;
        inSpace = now;
      } else {
        run += 1;
        if (run > 25000) {
          pieces.push(window.slice(cut, i).join(""));
          cut = i;
          run = 1;
        }
      }
    });
    pieces.push(window.slice(cut).join(""));
  }
  return pieces.length ? pieces : [""];
}

/**
 * The format's segments in order (bpelab.chat_formats.chat_layout, the same fields): special tokens,
 * and text encoded as one piece each, with where the turn's own text and the trained-on part begin.
 * `format`: {name, harmonySystem, harmonyInstructions} (Python sends the harmony strings).
 */
export function chatLayout(turns, format) {
  const out = [];
  const special = (text, turn, trained = false) => out.push({ special: true, text, turn, own_from: null, trained_from: trained ? 0 : null });
  const plain = (text, turn, ownFrom = null, trainedFrom = null) => out.push({ special: false, text, turn, own_from: ownFrom, trained_from: trainedFrom });
  const last = turns.length - 1;
  if (format.name === "harmony") {
    special("<|start|>", null); plain("system", null); special("<|message|>", null);
    plain(format.harmonySystem, null); special("<|end|>", null);
    turns.forEach((turn, i) => {
      const answer = turn.role === "assistant";
      special("<|start|>", i);
      if (turn.role === "system") {
        plain("developer", i); special("<|message|>", i);
        plain(format.harmonyInstructions + turn.text, i, format.harmonyInstructions.length);
      } else if (answer) {
        plain("assistant", i); special("<|channel|>", i, true); plain("final", i, null, 0);
        special("<|message|>", i, true); plain(turn.text, i, 0, 0);
      } else {
        plain(turn.role, i); special("<|message|>", i); plain(turn.text, i, 0);
      }
      special(answer && i === last ? "<|return|>" : "<|end|>", i, answer);
    });
  } else if (format.name === "chatml") {
    turns.forEach((turn, i) => {
      const answer = turn.role === "assistant";
      const head = turn.role + "\n";
      special("<|im_start|>", i); plain(head + turn.text, i, head.length, answer ? head.length : null);
      special("<|im_end|>", i, answer); plain("\n", i);
    });
  } else if (format.name === "llama3") {
    special("<|begin_of_text|>", null);
    turns.forEach((turn, i) => {
      const answer = turn.role === "assistant";
      special("<|start_header_id|>", i); plain(turn.role, i); special("<|end_header_id|>", i);
      plain("\n\n", i);
      for (const piece of llama3Pieces(pythonStrip(turn.text))) plain(piece, i, 0, answer ? 0 : null);
      special("<|eot_id|>", i, answer);
    });
  } else {
    throw new Error(`unknown chat format ${format.name}`);
  }
  return out;
}

const chatBytes = new TextEncoder();
const utf8Length = (text) => chatBytes.encode(text).length;

/**
 * Encode a layout: `encode(text)` gives {ids, pieces} (production.js's encodeOrdinary), `specials` maps a
 * special token to its id. The result has Python's ChatWidget fields: ids, pieces, special, turn, own, trained.
 */
export function encodeLayout(layout, encode, specials) {
  const r = { ids: [], pieces: [], special: [], turn: [], own: [], trained: [] };
  const push = (id, piece, special, turn, own, trained) => {
    r.ids.push(id); r.pieces.push(piece); r.special.push(special); r.turn.push(turn); r.own.push(own); r.trained.push(trained);
  };
  for (const seg of layout) {
    if (seg.special) {
      push(specials[seg.text], seg.text, true, seg.turn, false, seg.trained_from === 0);
      continue;
    }
    // code units (JS) and code points (Python) count differently: compare byte offsets, as Python does
    const own = seg.own_from === null ? null : utf8Length(Array.from(seg.text).slice(0, seg.own_from).join(""));
    const trained = seg.trained_from === null ? null : utf8Length(Array.from(seg.text).slice(0, seg.trained_from).join(""));
    const { ids, pieces } = encode(seg.text);
    let at = 0;
    ids.forEach((id, k) => {
      const piece = Array.from(pieces[k]);
      push(id, piece, false, seg.turn, own !== null && at >= own, trained !== null && at >= trained);
      at += piece.length;
    });
  }
  return r;
}

/** Per turn: tokens, own text tokens, format tokens, trained on; and the format's overhead (not own text). */
export function chatSummary(rendering, turns) {
  const rows = turns.map((turn, i) => ({ turn: i, role: turn.role, tokens: 0, text: 0, format: 0, trained: 0 }));
  let header = 0;
  rendering.ids.forEach((_, k) => {
    const i = rendering.turn[k];
    if (i === null) { header += 1; return; }
    rows[i].tokens += 1;
    rows[i][rendering.own[k] ? "text" : "format"] += 1;
    if (rendering.trained[k]) rows[i].trained += 1;
  });
  const overhead = rendering.own.filter((own) => !own).length;
  const trained = rendering.trained.filter(Boolean).length;
  return { rows, header, overhead, total: rendering.ids.length, trained };
}

/** Chips that never join a special token to its text neighbour (a combining mark after "<|message|>" would). */
export function chatChips(pieces, special) {
  const chips = [];
  let start = 0;
  const flush = (end) => {
    if (end > start) for (const chip of makeChips(pieces.slice(start, end))) chips.push({ tokens: chip.tokens.map((k) => k + start), text: chip.text });
  };
  special.forEach((isSpecial, k) => {
    if (!isSpecial) return;
    flush(k);
    chips.push({ tokens: [k], text: pieces[k] });
    start = k + 1;
  });
  flush(pieces.length);
  return chips;
}


let chatCount = 0;

/** anywidget's entry point: turns to edit, a format to choose, the rendering as chips and counts. */
export function renderChat({ model, el: root }) {
  ensureCss(root, CHIP_CSS);
  ensureCss(root, CHAT_CSS, "bpe-chat-css");
  const uid = `bpe-chat-${++chatCount}`;
  const select = el("select", { id: `${uid}-format` });
  const turnsBox = el("div", { class: "bpe-chat-turns" });
  const add = el("button", { type: "button", class: "bpe-chat-add", text: "Add a turn" });
  const status = el("div", { class: "bpe-token-count", "aria-live": "polite" });
  const chipsBox = el("div", { class: "bpe-chips-box", role: "region", tabindex: "0" });
  const table = el("div", { class: "bpe-chat-table" });
  const key = el("div", { class: "bpe-chat-note" },
    el("span", { class: "bpe-chat-key-special", text: "dark chips" }), " are special tokens the format adds; ",
    el("span", { class: "bpe-chat-key-trained", text: "ringed and underlined in green" }),
    " are the tokens a model is trained to write (the assistant's answers and their end token). Hover a chip for its id.");
  root.append(el("div", { class: "bpe-chat" },
    el("div", {}, el("label", { for: select.id, text: "chat format" }), select),
    turnsBox, el("div", {}, add), status, chipsBox, table, key));
  let drawing = 0;

  const turns = () => model.get("turns");
  const formats = () => model.get("formats");
  const setTurns = (next) => { model.set("turns", next); model.save_changes(); fillTurns(); draw(); };

  function fillTurns() {
    const rows = turns().map((turn, i) => {
      const role = el("select", { id: `${uid}-role-${i}`, "aria-label": `turn ${i + 1}: role` },
        ...ROLES.map((r) => el("option", { value: r, text: r })));
      role.value = turn.role;
      const text = el("textarea", { id: `${uid}-text-${i}`, "aria-label": `turn ${i + 1}: text`, spellcheck: "false" });
      text.value = turn.text;
      const remove = el("button", { type: "button", class: "bpe-chat-remove", text: "Remove", "aria-label": `remove turn ${i + 1}` });
      role.addEventListener("change", () => setTurns(turns().map((t, k) => (k === i ? { ...t, role: role.value } : t))));
      text.addEventListener("input", () => {
        model.set("turns", turns().map((t, k) => (k === i ? { ...t, text: text.value } : t)));
        model.save_changes();
        draw();
      });
      remove.addEventListener("click", () => setTurns(turns().filter((_, k) => k !== i)));
      return el("div", { class: "bpe-chat-turn" }, role, text, remove);
    });
    turnsBox.replaceChildren(...rows);
  }

  function fillMenu() {
    select.replaceChildren(...formats().map((f) => el("option", { value: f.name, text: f.label })));
    select.value = model.get("format");
  }

  function show(format, rendering) {
    const current = turns();
    const s = chatSummary(rendering, current);
    status.replaceChildren(el("b", { text: String(s.total) }),
      ` tokens · ${s.overhead} of them the format's (not your text) · ${s.trained} trained on`);
    const marks = {};
    rendering.ids.forEach((_, k) => {
      marks[k] = [...(rendering.special[k] ? ["special"] : []), ...(rendering.trained[k] ? ["trained"] : [])];
    });
    chipsBox.setAttribute("aria-label", `${format.label}: the conversation as tokens`);
    chipsBox.replaceChildren(drawChips(rendering.pieces, {
      ids: rendering.ids, showIds: true, marks, breakLines: true, chips: chatChips(rendering.pieces, rendering.special),
    }));
    const head = el("tr", {}, ...["turn", "role", "tokens", "your text", "format", "trained on"].map((h) => el("th", { scope: "col", text: h })));
    const body = s.rows.map((r) => el("tr", {}, ...[r.turn + 1, r.role, r.tokens, r.text, r.format, r.trained].map((v) => el("td", { text: String(v) }))));
    if (s.header) body.unshift(el("tr", {}, ...["—", "format header", s.header, 0, s.header, 0].map((v) => el("td", { text: String(v) }))));
    table.replaceChildren(el("table", { class: "bpe-chat-counts" }, el("caption", { text: "tokens per turn" }), el("thead", {}, head), el("tbody", {}, ...body)));
  }

  function message(text) {
    status.replaceChildren(text);
    chipsBox.replaceChildren();
    table.replaceChildren();
  }

  function sameTurns(a, b) {
    return a.length === b.length && a.every((t, i) => t.role === b[i].role && t.text === b[i].text);
  }

  async function draw() {
    const ticket = ++drawing;
    const format = formats().find((f) => f.name === select.value) || formats()[0];
    const stored = (model.get("renderings") || {})[format.name];
    if (stored && sameTurns(stored.turns, turns())) return show(format, stored);
    if (isStatic()) return renderHere(ticket, format);
    message(`rendering with ${format.label}…`);
    setTimeout(() => ticket === drawing && renderHere(ticket, format), KERNEL_WAIT_MS);
  }

  async function renderHere(ticket, format) {
    try {
      const encoder = await productionEncoder(format.encoding);
      if (ticket !== drawing) return;
      const layout = chatLayout(turns(), format);
      show(format, encodeLayout(layout, (text) => encodeOrdinary(encoder, text), format.specials));
    } catch (err) {
      if (ticket === drawing) message(`${format.label} cannot be rendered in this page (${err.message}): run the notebook.`);
    }
  }

  select.addEventListener("change", () => { model.set("format", select.value); model.save_changes(); draw(); });
  add.addEventListener("click", () => {
    const current = turns();
    const next = current.length && current[current.length - 1].role === "user" ? "assistant" : "user";
    setTurns([...current, { role: next, text: "" }]);
  });
  const onFormat = () => { select.value = model.get("format"); draw(); };
  model.on("change:renderings", draw);
  model.on("change:format", onFormat);
  fillMenu();
  fillTurns();
  draw();
  return () => { model.off("change:renderings", draw); model.off("change:format", onFormat); };
}

export default { render: renderChat };
