// A clicked chip opens how its token was built (token_build_view.js draws the steps).
//
// The chips are one Tab stop (arrows move between them); a click or Enter opens the chip's token. With a
// kernel Python builds it (bpelab.token_build); a static page builds it here from js-tiktoken's ranks,
// Mistral's pieces and scores (sentencepiece_build.js) or the lesson tokenizer's merges (token_build.js). The explorer and the side-by-side view both use this.

import { whyOneChip } from "./chips.js";
import { productionEncoder } from "./production.js";
import { buildFromWordMerges, buildWithRanks } from "./token_build.js";
import { buildPiece } from "./sentencepiece_build.js";
import { openTokenBuild } from "./token_build_view.js";
import { KERNEL_WAIT_MS, el, isStatic } from "./view_basics.js";

/**
 * Chips that open their token's build: a click, or Enter / Space on the focused chip. The chips are ONE
 * tab stop (← → move between them), not 3,000. A chip holding several tokens (they cut one character, or
 * keep apart the code points of one) opens its first; clicking it again opens the next, so each half character can be looked at in turn.
 */
export function armChips(chipsBox, chips, open, pieces) {
  // chips: makeChips's groups for the whole text; a long text's chips are drawn page by page as they
  // scroll into view (chips_in_view.js), so each drawn chip finds its group by its place, data-bpe-chip
  const first = chipsBox.querySelector(".bpe-chip");
  if (first) first.tabIndex = 0; // the chips are one Tab stop; arrows move within them
  const placeOf = (target) => {
    const chip = target.closest?.(".bpe-chip");
    return chip && chip.dataset.bpeChip !== undefined ? Number(chip.dataset.bpeChip) : -1;
  };
  let last = { k: -1, turn: 0 };
  const openChip = (k) => {
    const tokens = chips[k].tokens;
    last = { k, turn: last.k === k ? (last.turn + 1) % tokens.length : 0 };
    const chipNote = tokens.length > 1
      ? `This chip holds ${tokens.length} tokens (${whyOneChip(chips[k], pieces)}); this is token ${last.turn + 1} of them: click the chip again for the next.`
      : "";
    open(tokens[last.turn], chipNote);
  };
  chipsBox.onclick = (event) => {
    const k = placeOf(event.target);
    if (k >= 0) openChip(k);
  };
  chipsBox.onkeydown = (event) => {
    const k = placeOf(event.target);
    if (k < 0) return;
    const to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: chips.length - 1 }[event.key];
    const target = to === undefined ? null : chipsBox.querySelector(`.bpe-chip[data-bpe-chip="${to}"]`);
    if (target) { // a chip of a page not drawn yet (far down a long text) is not reached by keys
      event.preventDefault();
      event.target.closest(".bpe-chip").tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openChip(k);
    }
  };
}

/**
 * Builds of clicked tokens, into `buildBox`. With a kernel, Python builds (bpelab.token_build): the page
 * sets `build_request` and draws Python's `token_build` when it answers that request. A static page
 * builds here: GPT-2/GPT-4/GPT-4o/Llama 3 from js-tiktoken's ranks, Mistral 7B from its scores, the lesson's word-level tokenizers from the
 * merges the page already has (token_build.js, as Python does).
 */
export function tokenBuilds(model, buildBox) {
  let asked = 0; // the latest request: an older answer arriving late is not drawn
  const memos = new Map(); // encoding -> the pieces found so far (token_build.js reuses them)
  const say = (text) => buildBox.replaceChildren(el("div", { class: "bpe-build-message", role: "status", text }));
  const draw = (build, tokenizer, chipNote) => openTokenBuild(buildBox, build, { title: tokenizer.label, note: chipNote });
  async function here(ticket, tokenizer, piece, chipNote, id) {
    if (tokenizer.kind === "word") return draw(buildFromWordMerges(piece, tokenizer.merges, tokenizer.vocabulary), tokenizer, chipNote);
    if (!((tokenizer.kind === "tiktoken" || tokenizer.kind === "sentencepiece") && tokenizer.browser)) {
      return say(`How ${tokenizer.label}'s tokens were built needs the running notebook (Python builds them).`);
    }
    const encoder = await productionEncoder(tokenizer.encoding);
    if (encoder.sentencePiece) { // a piece's bytes do not name it (the dummy prefix is not drawn): its id does
      const build = buildPiece(encoder.sentencePiece, id);
      if (ticket === asked) draw(build, tokenizer, chipNote);
      return;
    }
    if (!memos.has(tokenizer.encoding)) memos.set(tokenizer.encoding, new Map());
    const build = buildWithRanks(Array.from(piece), encoder.rankMap, memos.get(tokenizer.encoding));
    if (ticket === asked) draw(build, tokenizer, chipNote);
  }
  return {
    open(tokenizer, text, index, piece, chipNote, id) {
      const ticket = ++asked;
      if (isStatic()) {
        here(ticket, tokenizer, piece, chipNote, id).catch((err) => ticket === asked && say(`could not build this token (${err.message})`));
        return;
      }
      say(`building token ${index + 1} with ${tokenizer.label}…`);
      buildBox.dataset.chipNote = chipNote;
      model.set("build_request", { label: tokenizer.label, text, index, ticket });
      model.save_changes();
      setTimeout(() => {
        if (ticket === asked && !buildBox.querySelector(".bpe-token-build")) say("Python did not answer: run this explorer's cell again to see how tokens were built.");
      }, KERNEL_WAIT_MS);
    },
    onAnswer() {
      const answer = model.get("token_build") || {};
      if (answer.ticket !== asked) return;
      const tokenizer = model.get("tokenizers").find((t) => t.label === answer.label) || { label: answer.label };
      if (answer.error) say(answer.error);
      else draw(answer.build, tokenizer, buildBox.dataset.chipNote || "");
    },
  };
}
