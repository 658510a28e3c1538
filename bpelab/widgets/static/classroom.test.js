// node --test: the classroom form's rules that need no browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { OWN_TEXT, keyAction, problemWith, runSummary } from "./classroom.js";

test("the form's buttons take the stepper's keys: → or N, ← or B, Home, End, and a clicker's", () => {
  assert.equal(keyAction("ArrowRight"), "next");
  assert.equal(keyAction("PageDown"), "next");
  assert.equal(keyAction("n"), "next");
  assert.equal(keyAction("N"), "next");
  assert.equal(keyAction("ArrowLeft"), "back");
  assert.equal(keyAction("PageUp"), "back");
  assert.equal(keyAction("B"), "back");
  assert.equal(keyAction("Home"), "first");
  assert.equal(keyAction("End"), "last");
  assert.equal(keyAction("x"), null);
});

test("nothing sensible to train gets a sentence saying what to do", () => {
  assert.match(problemWith("the cat", 0), /from 1 to 500 merges; you asked for 0\. Change the number of merges/);
  assert.match(problemWith("the cat", 2.5), /you asked for 2\.5/);
  assert.match(problemWith("the cat", NaN), /you asked for no number/);
  assert.match(problemWith(" \u3000\n", 5), /no text to train on yet/); // Python's whitespace, ideographic space too
  assert.match(problemWith("a".repeat(11), 5, { maxCharacters: 10 }), /This text has 11 characters; classroom mode trains at most 10 /);
  assert.equal(problemWith("👩‍💻".repeat(3), 5, { maxCharacters: 9 }), null); // 9 code points, 15 UTF-16 units
  assert.equal(problemWith("the cat", 500), null);
});

test("the summary says what was made, and why fewer than asked", () => {
  assert.equal(runSummary({ made: 6, words: 5, distinct: 5, tieBreak: "lexicographic", stoppedEarly: false, asked: 6 }),
    "Trained 6 merges on 5 words (5 different), ties: smallest pair. Step with Next ▶.");
  assert.equal(runSummary({ made: 1, words: 2, distinct: 1, tieBreak: "first", stoppedEarly: true, asked: 4 }, " in this page:"),
    "Trained in this page: 1 merge on 2 words (1 different), ties: first seen. " +
    "You asked for 4, but after 1 every word is a single symbol: nothing is left to merge.");
  assert.equal(runSummary({ made: 24, words: 12, distinct: 12, tieBreak: "first", stoppedEarly: true, asked: 100, pairsLeft: true }),
    "Trained 24 merges on 12 words (12 different), ties: first seen. Stopped after 24 merges of the 100 asked for: " +
    "no pair occurs twice any more (merging a pair seen once would shorten the text by one token and add one vocabulary entry).");
  assert.equal(OWN_TEXT, "your own text");
});
