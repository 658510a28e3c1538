// Classroom mode (make present, site/present.html): the merge stepper with a form around it.
//
// One widget, one drawing path: Voilà and the static page both draw this form and the stepper
// (stepper.js) inside it. The form offers the lessons' corpora (synced from Python as data), a text
// box, the number of merges, both tie rules and Train. With a kernel, Train asks Python to train
// (the `train_request` traitlet; Python answers with a new trace and a message); on a page with no
// kernel (globalThis.bpelabStatic, the stepper's own rule) the form trains here with bpe_train.js.
// "Stop when no pair occurs twice" (on by default) ends a run where a merge would shorten the text by one token for one more vocabulary entry. Where the app
// is the page (Voilà, present.html), classroom_fit.js sizes the type to the window. The keys are the
// stepper's (stepper.js): → or N, ← or B, Home, End, on the form's buttons as on the stepper.

import { splitWords } from "./bpe.js";
import { trainBpe } from "./bpe_train.js";
import { traceOf } from "./trace.js";
import { TIE_RULE_NAMES } from "./stepper_text.js";
import { el, isStatic } from "./view_basics.js";
import { FIT_CSS, makeFitter } from "./classroom_fit.js";
import { pairsLeftAtEnd, stopReason } from "./train_form.js";
import { STEPPER_KEYS, renderStepper } from "./stepper.js";

export const OWN_TEXT = "your own text";

const CLASSROOM_CSS = `
.bpe-classroom{font-size:clamp(18px,min(1.45vw,2.6vh),34px);color:#000;background:#fff}
.bpe-classroom .bpe-sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;
  clip:rect(0,0,0,0);white-space:nowrap;border:0}
.bpe-classroom .bpe-row{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px;margin:2px 0}
.bpe-classroom select,.bpe-classroom input,.bpe-classroom textarea,.bpe-classroom button{font:inherit;color:#000}
.bpe-classroom .bpe-form-button{padding:2px 12px;border:1px solid #767676;border-radius:3px;background:#f0f0f0;cursor:pointer}
.bpe-classroom .bpe-form-button[aria-pressed="true"]{background:#1a5fb4;color:#fff;border-color:#1a5fb4}
.bpe-classroom .bpe-train{font-weight:bold}
.bpe-classroom .bpe-merges input{width:4.5em}
.bpe-classroom .bpe-corpus-choice select{max-width:24em}
.bpe-classroom .bpe-tie-rule{display:flex;align-items:center;gap:4px}
.bpe-classroom .bpe-corpus-input{display:flex;gap:8px;align-items:center}
.bpe-classroom .bpe-corpus-input textarea{flex:1 1 auto;min-width:0;font-family:var(--bpe-text-fonts,monospace);resize:vertical;
  overflow-y:auto;line-height:1.3}
.bpe-classroom .bpe-stepper.bpe-projector{font-size:inherit} /* the classroom's size, which the fit sets */
.bpe-classroom .bpe-message{margin:2px 0}
.bpe-classroom .bpe-message:empty{display:none}
/* Hide the corpus shares the stepper's button row; the keys are told beside Train, hidden with the corpus */
.bpe-classroom .bpe-keys{color:#333}
.bpe-classroom .bpe-controls .bpe-hide-settings{margin-left:auto}
.bpe-classroom :focus-visible{outline:2px solid #1a5fb4;outline-offset:1px}
`;

// ---- pure helpers (node --test checks them; Python holds the same sentences) ----

const thousands = (n) => n.toLocaleString("en-US");

/** Why there is nothing sensible to train (the sentences of Python's classroom._problem_with), or null. */
export function problemWith(text, merges, { maxMerges = 500, maxCharacters = 50000 } = {}) {
  if (!Number.isInteger(merges) || merges < 1 || merges > maxMerges) {
    return `Classroom mode learns from 1 to ${maxMerges} merges; you asked for ${Number.isNaN(merges) ? "no number" : merges}. ` +
      "Change the number of merges, then press Train.";
  }
  if (splitWords(text).length === 0) {
    return "There is no text to train on yet: choose a corpus above, or type a few words, then press Train.";
  }
  const length = Array.from(text).length; // code points, as Python's len()
  if (length > maxCharacters) {
    return `This text has ${thousands(length)} characters; classroom mode trains at most ${thousands(maxCharacters)} ` +
      "(stepping through more is slow and hard to read). Paste a shorter part, then press Train.";
  }
  return null;
}

/** What a training run made, in one line (Python's classroom._summary); `where` says who trained it.
 *  `pairsLeft`: a pair was left where the run stopped (so it stopped because none occurs twice). */
export function runSummary({ made, words, distinct, tieBreak, stoppedEarly, asked, pairsLeft = false }, where = "") {
  const head = `Trained${where} ${made} merge${made === 1 ? "" : "s"} on ${words} words (${distinct} different), ` +
    `ties: ${TIE_RULE_NAMES[tieBreak]}.`;
  if (stoppedEarly) return `${head} ${stopReason(made, asked, pairsLeft)}`;
  return `${head} Step with Next ▶.`;
}

/** Which stepper button a key presses (the stepper's own keys, stepper.js), or null. */
export function keyAction(key) {
  return STEPPER_KEYS[key] ?? null;
}

// ---- the widget ----

function ensureStyle(root) {
  if (root.querySelector('style[data-bpe="bpe-classroom-css"]')) return;
  const style = el("style", { "data-bpe": "bpe-classroom-css" });
  style.textContent = CLASSROOM_CSS + FIT_CSS;
  root.prepend(style);
}

/** anywidget's entry point: the form, the message line, then the stepper (drawn by stepper.js). */
export function renderClassroom({ model, el: root }) {
  ensureStyle(root);
  const noKernel = isStatic(); // the stepper's rule: a static page has no Python
  const isPage = noKernel || document.body?.hasAttribute("data-voila") === true; // the app is the whole page
  const corpora = model.get("corpora") ?? [];
  const limits = { maxMerges: model.get("max_merges") ?? 500, maxCharacters: model.get("max_characters") ?? 50000 };

  const choice = el("select", {}, ...[...corpora.map((c) => c.label), OWN_TEXT].map((label) => el("option", { value: label, text: label })));
  const merges = el("input", { type: "number", min: "1", max: String(limits.maxMerges), step: "1" });
  const ties = Object.entries(TIE_RULE_NAMES).map(([value, label]) =>
    el("button", { type: "button", class: "bpe-form-button", "data-tie": value, "aria-pressed": "false", text: label }));
  const train = el("button", { type: "button", class: "bpe-form-button bpe-train", title: "learn the merges of the text in the box", text: "Train" });
  const text = el("textarea", { rows: "2", placeholder: "Type or paste a text here: words are cut at spaces, as in lessons 02–04" });
  const single = el("input", { type: "checkbox" });
  const keys = el("div", { class: "bpe-keys", text: "Keys: → or N next · ← or B back · Home · End (a clicker too) · F11 full screen" });
  const settings = el("div", { class: "bpe-settings bpe-train-form", role: "group", "aria-label": "the text to train on" },
    el("div", { class: "bpe-row" },
      el("label", { class: "bpe-corpus-choice" }, "corpus ", choice),
      el("label", { class: "bpe-merges" }, "merges ", merges),
      el("div", { class: "bpe-tie-rule", role: "group", "aria-label": "ties" }, el("span", { "aria-hidden": "true", text: "ties" }), ...ties),
      el("label", { class: "bpe-stop-single" }, single, " stop when no pair occurs twice"),
      train, keys),
    el("label", { class: "bpe-corpus-input" }, el("span", { text: "text" }), text));
  const hide = el("button", { type: "button", class: "bpe-form-button bpe-hide-settings", "aria-expanded": "true", text: "Hide the corpus" });
  const message = el("div", { class: "bpe-message", role: "status", "aria-live": "polite" });
  const area = el("div", { class: "bpe-stepper-area" });
  const app = el("div", { class: "bpe-classroom" }, settings, message, area);
  root.append(app);

  const trainedNow = () => ({ text: model.get("train_text"), merges: model.get("train_merges"), tie: model.get("tie_break"),
    single: model.get("stop_at_single") !== false });
  let trained = trainedNow();
  let trainedMessage = model.get("message");

  let storing = false; // while the form writes the model, the model's echoes must not rewrite the form
  const store = (values) => {
    storing = true;
    try {
      for (const [name, value] of Object.entries(values)) model.set(name, value);
    } finally {
      storing = false;
    }
    model.save_changes();
  };
  const tell = (sentence) => {
    store({ message: sentence });
    showMessage(); // anywidget's model tells no listener of a change made here
  };
  const fill = () => {
    if (storing) return;
    // what Python (or the page) holds, into the form; a field the teacher is typing in keeps its text
    if (choice.value !== model.get("corpus_label")) choice.value = model.get("corpus_label");
    if (text.value !== model.get("train_text")) text.value = model.get("train_text") ?? "";
    if (document.activeElement !== merges) merges.value = String(model.get("train_merges"));
    for (const button of ties) button.setAttribute("aria-pressed", String(button.dataset.tie === model.get("tie_break")));
    single.checked = model.get("stop_at_single") !== false;
    autosize();
  };
  // the text box shows the whole text (up to about a third of the screen; a longer one scrolls in the box)
  function autosize() {
    text.style.height = "auto";
    const most = Math.max(3 * parseFloat(getComputedStyle(text).lineHeight || "20"), 0.35 * window.innerHeight);
    text.style.height = `${Math.min(text.scrollHeight + 2, most)}px`;
  }
  const showMessage = () => {
    message.textContent = model.get("message") ?? "";
    if (message.textContent.startsWith("Trained")) {
      // a run just arrived (from Python or from this page): what it was trained on is current
      trained = trainedNow();
      trainedMessage = message.textContent;
    }
  };
  const settingsChanged = () => {
    const same = text.value === trained.text && Number(merges.value) === trained.merges && model.get("tie_break") === trained.tie &&
      single.checked === trained.single;
    tell(same ? trainedMessage : "The text or the settings changed: press Train to learn its merges.");
  };

  function trainHere({ tie, keepStep }) {
    const asked = Number(merges.value === "" ? NaN : merges.value);
    const problem = problemWith(text.value, asked, limits);
    if (problem) return tell(problem);
    const result = trainBpe(text.value, asked, { tieBreak: tie, minCount: single.checked ? 2 : 1 });
    const trace = traceOf(result, { topWords: model.get("top_words") ?? 30, topPairs: model.get("top_pairs") ?? 6 });
    const step = keepStep ? Math.min(model.get("current_step") ?? 0, trace.merges.length) : 0;
    model.set("trace", trace); // the stepper redraws, then moves to the step
    model.set("current_step", step);
    store({ train_text: text.value, train_merges: asked, tie_break: tie, stop_at_single: single.checked });
    tell(runSummary({ made: result.merges.length, words: trace.wordsTotal, distinct: trace.distinct, tieBreak: tie,
      stoppedEarly: result.stoppedEarly, asked, pairsLeft: pairsLeftAtEnd(result) }, " in this page:"));
    fill();
  }

  function askPython({ tie, keepStep }) {
    const asked = merges.value === "" ? 0 : Number(merges.value);
    const n = (model.get("train_request")?.n ?? 0) + 1; // a new request each press, even with the same text
    store({ train_request: { text: text.value, merges: asked, tie_break: tie, stop_at_single: single.checked, keep_step: keepStep, n } });
  }

  const request = (options) => (noKernel ? trainHere(options) : askPython(options));
  train.addEventListener("click", () => request({ tie: model.get("tie_break"), keepStep: false }));
  for (const button of ties) {
    button.addEventListener("click", () => {
      if (button.dataset.tie === model.get("tie_break")) return;
      const hasRun = (model.get("trace")?.words ?? []).length > 0;
      if (hasRun) return request({ tie: button.dataset.tie, keepStep: true }); // the same moment, under the other rule
      store({ tie_break: button.dataset.tie });
      fill();
    });
  }
  choice.addEventListener("change", () => {
    const corpus = corpora.find((c) => c.label === choice.value);
    text.value = corpus ? corpus.text : "";
    if (corpus) merges.value = String(corpus.merges);
    store({ corpus_label: choice.value, train_text: text.value, ...(corpus ? { train_merges: corpus.merges } : {}) });
    settingsChanged();
  });
  single.addEventListener("change", () => {
    store({ stop_at_single: single.checked });
    settingsChanged();
  });
  text.addEventListener("input", () => {
    const preset = corpora.find((c) => c.label === choice.value);
    if (preset && text.value !== preset.text) choice.value = OWN_TEXT; // the class's own text now
    store({ corpus_label: choice.value, train_text: text.value });
    settingsChanged();
    autosize();
    refit(200); // the box grew or shrank: the type follows, once typing pauses
  });
  merges.addEventListener("change", () => {
    const asked = Number(merges.value === "" ? NaN : merges.value);
    const problem = problemWith("-", asked, limits); // says so as soon as the number is typed
    if (problem) return tell(problem);
    store({ train_merges: asked });
    settingsChanged();
  });
  hide.addEventListener("click", () => {
    const hidden = !settings.hidden;
    settings.hidden = hidden;
    hide.textContent = hidden ? "Show the corpus" : "Hide the corpus";
    hide.setAttribute("aria-expanded", String(!hidden));
    if (!hidden) autosize();
    refit();
  });

  // the stepper's keys on the form's buttons (outside the stepper) press the stepper's buttons; the stepper
  // takes its own keys, and the page's (stepper.js); keys typed in a text box belong to the box. Stopped
  // here, so that a notebook around the app (JupyterLab) never sees them
  const onKey = (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (!target?.closest || target.closest("input, textarea, select, .bpe-stepper")) return;
    const which = keyAction(event.key);
    const button = which && area.querySelector(`.bpe-stepper button.bpe-${which}`);
    if (!button) return;
    event.preventDefault();
    event.stopPropagation();
    if (!button.disabled) button.click();
  };
  app.addEventListener("keydown", onKey);

  const fields = ["corpus_label", "train_text", "train_merges", "tie_break", "stop_at_single"];
  for (const name of fields) model.on(`change:${name}`, fill);
  model.on("change:message", showMessage);
  fill();
  showMessage();
  const stepper = renderStepper({ model, el: area }, { ownForm: false });
  area.querySelector(".bpe-controls")?.append(hide); // beside First … Play (stepper.js draws that row)

  // the type size: fitted to the window where the app is the page; a notebook's cell keeps the CSS sizes
  const fitter = isPage ? makeFitter(app, stepper, { logRows: model.get("log_rows") ?? 6, resized: autosize }) : null;
  let refitTimer = null;
  function refit(delay = 0) {
    if (!fitter) return;
    clearTimeout(refitTimer);
    refitTimer = setTimeout(() => fitter.fit(), delay);
  }
  const fitNow = () => fitter?.fit();
  const afterStep = () => fitter?.keepInView();
  const onResize = () => fitNow(); // resize events come once a frame at most
  model.on("change:trace", fitNow); // after the stepper's own listener: the new run is drawn
  model.on("change:current_step", afterStep);
  window.addEventListener("resize", onResize);
  if (fitter) {
    if (app.isConnected) fitNow(); // the page shows its first run fitted; once more when the fonts have loaded
    else requestAnimationFrame(fitNow);
    document.fonts?.ready.then(fitNow);
  }
  return () => {
    stepper();
    clearTimeout(refitTimer);
    app.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
    model.off("change:trace", fitNow);
    model.off("change:current_step", afterStep);
    for (const name of fields) model.off(`change:${name}`, fill);
    model.off("change:message", showMessage);
  };
}

export default { render: renderClassroom };
