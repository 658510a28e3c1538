"""The course's corpora in ``data/``: English prose, code, and one text in sixteen languages."""

from __future__ import annotations

import csv
from dataclasses import dataclass

from bpelab.paths import data_dir

CORPORA = {
    "english_train": "english_train.txt",
    "english_heldout": "english_heldout.txt",
    "english_more": "english_more.txt",
    "code": "code.txt",
}


def read_corpus(name: str) -> str:
    """One corpus as text: "english_train", "english_heldout", "english_more" (more essays, for larger
    vocabularies), "code", or "parallel:<code>" (e.g. "parallel:ja")."""
    if name.startswith("parallel:"):
        return "\n".join(load_parallel()[name.split(":", 1)[1]]) + "\n"
    if name not in CORPORA:
        raise ValueError(f"unknown corpus {name!r}; choose from {sorted(CORPORA)} or 'parallel:<language code>'")
    return (data_dir() / CORPORA[name]).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    script: str
    spaces_between_words: bool


def languages() -> list[Language]:
    """The languages of the parallel corpus, English first."""
    with open(data_dir() / "parallel" / "languages.tsv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [Language(r["code"], r["name"], r["script"], r["spaces_between_words"] == "yes") for r in rows]


def load_parallel() -> dict[str, list[str]]:
    """Language code to its sentences; line i says the same thing in every language."""
    folder = data_dir() / "parallel"
    return {lang.code: (folder / f"{lang.code}.txt").read_text(encoding="utf-8").splitlines() for lang in languages()}
