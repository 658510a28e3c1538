"""The course's corpora, under their first address: they live in ``bpelab.corpora`` now, below every layer
that reads them (widgets, measurements, plots, the benchmark). Lessons written earlier import them from here."""

from bpelab.corpora import CORPORA, Language, languages, load_parallel, read_corpus

__all__ = ["CORPORA", "Language", "languages", "load_parallel", "read_corpus"]
