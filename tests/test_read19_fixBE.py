"""Fresh read 19 of lessons 05, 06 and 07 (fixBE): a sentence about pieces outside the vocabulary, checkers that
passed a normalising or stripping answer, a slow checker, the fast trainer's cost on one long word, and prose that
said more than its cells show."""

from __future__ import annotations

import unicodedata
from types import SimpleNamespace

import nbformat

from bpelab.exercises import check_decode_words

LESSON_05 = "notebooks/05_encoding_and_decoding.ipynb"
LESSON_06 = "notebooks/06_byte_level_bpe.ipynb"
LESSON_07 = "notebooks/07_regex_and_real_tokenizers.ipynb"


def _cells(path: str) -> list[nbformat.NotebookNode]:
    return nbformat.read(path, as_version=4).cells


def _cell(path: str, cell_id: str) -> str:
    return next(cell.source for cell in _cells(path) if cell.id == cell_id)


def _report(capsys, checker, fn) -> tuple[bool, str]:
    capsys.readouterr()
    result = checker(fn, record=False)
    return bool(result), capsys.readouterr().out


# ---- finding 1: a piece outside the vocabulary is a character never seen, not a piece of a word never seen ---------


def test_lesson_05_says_which_pieces_fall_outside_the_vocabulary() -> None:
    text = " ".join(_cell(LESSON_05, "cell-20").split())
    assert "only if the word's *characters* were seen" not in text
    assert "`s`, `low`, `l` and `</w>`" in text and "only `y`" in text


# ---- finding 3: decode_words keeps a carriage return and a decomposed accent ------------------------------------------


def _decode_words(symbols):
    return "".join(symbols).replace("</w>", " ").rstrip(" ")


def test_decode_words_refuses_nfc_with_a_hint(capsys) -> None:
    passed, out = _report(capsys, check_decode_words, lambda s: unicodedata.normalize("NFC", _decode_words(s)))
    assert not passed and "you normalised the text (unicodedata.normalize('NFC', ...))" in out, out


def test_decode_words_refuses_a_stripped_carriage_return(capsys) -> None:
    passed, out = _report(capsys, check_decode_words, lambda s: _decode_words(s).rstrip(" \r"))
    assert not passed and "a carriage return" in out and "rstrip(' \\r')" in out, out


def test_decode_words_names_tabs_and_no_break_spaces_made_spaces(capsys) -> None:
    passed, out = _report(
        capsys, check_decode_words, lambda s: "".join(s).replace("</w>", " ").replace("\t", " ").rstrip(" ")
    )
    assert not passed and "you turned each tab into a space" in out and "string.whitespace" not in out, out
    passed, out = _report(
        capsys, check_decode_words, lambda s: "".join(s).replace("</w>", " ").replace("\xa0", " ").rstrip(" ")
    )
    assert not passed and "you turned each no-break space" in out and "rstrip(' \\xa0')" not in out, out


def test_decode_words_still_passes_the_answer(capsys) -> None:
    passed, out = _report(capsys, check_decode_words, _decode_words)
    assert passed, out


# ---- finding 5: check_find_parents loads each encoding once a check --------------------------------------------------


def test_find_parents_loads_each_encoding_once_a_check(capsys, monkeypatch) -> None:
    from bpelab.exercises import check_find_parents, real_tokenizers

    loaded: list[str] = []
    load = real_tokenizers.load_encoding

    def counting(name: str):
        loaded.append(name)
        return load(name)

    monkeypatch.setattr(real_tokenizers, "load_encoding", counting)
    passed, _ = _report(capsys, check_find_parents, lambda token, ranks: (token[:1], token[1:]))
    assert not passed
    assert sorted(loaded) == ["cl100k_base", "llama3"], loaded


# ---- finding 6: the fast trainer finds a new pair's first place while it counts it -----------------------------------


def test_fast_trainer_scans_no_word_for_the_pairs_a_fresh_symbol_makes(monkeypatch) -> None:
    from bpelab import fast
    from bpelab.corpora import read_corpus

    text = read_corpus("english_train")[:3_000]
    trainer = fast.IncrementalTrainer([tuple(text.encode())], [1])
    scans = 0
    tie_key = fast.IncrementalTrainer.tie_key

    def counting(self, pair):
        nonlocal scans
        scans += 1
        return tie_key(self, pair)

    monkeypatch.setattr(fast.IncrementalTrainer, "tie_key", counting)
    new_ids = iter(range(256, 10_000))
    merges = list(trainer.learn(60, lambda pair: next(new_ids), min_count=2))
    assert len(merges) == 60
    # one call a merge for the pair on top of the heap (and a few for entries whose first place moved), none for
    # each pair a merge creates
    assert scans < 2 * len(merges), scans


def test_lesson_06_says_no_training_time_it_does_not_print() -> None:
    text = " ".join(_cell(LESSON_06, "bff0b855").split())
    assert "trains in seconds" not in text and "prints how long it took on your machine" in text


# ---- findings 7 and 8: lesson 06's longest tokens, and spell() past the vocabulary ----------------------------------


def test_lesson_06_says_what_the_longest_tokens_are() -> None:
    text = " ".join(_cell(LESSON_06, "7a4dae8d").split())
    assert "The longest tokens glue several words and their punctuation" not in text
    assert "`umbrell`" in text and "`, which `" in text
    printed = next(c for c in _cells(LESSON_06) if c.id == "1d3c994b").outputs[0]["text"]
    for token in [", and the ", ", which ", "of the ", "umbrell", "in the "]:
        assert f"b'{token}'" in printed


def test_lesson_06_spell_names_the_valid_ids() -> None:
    source = _cell(LESSON_06, "1d3c994b")
    assert "Change `token_id` and rerun" not in _cell(LESSON_06, "77b5487a")

    tok = SimpleNamespace(vocab={i: bytes([i]) for i in range(256)} | {256: b"ab"}, merges={(97, 98): 256})
    namespace = {"tok": tok}
    exec(source.split("by_length =")[0], namespace)  # spell alone, before the longest tokens are listed
    assert namespace["spell"](256) == "('a' + 'b')"
    try:
        namespace["spell"](257)
    except ValueError as error:
        assert "from 0 to 256" in str(error)
    else:
        raise AssertionError("spell(257) did not raise")


# ---- findings 9 and 10: lesson 07's random whitespace, and GPT-4o's optional leading character ------------------------


def test_lesson_07_names_the_whitespace_its_random_text_holds() -> None:
    text = " ".join(_cell(LESSON_07, "da4bdfc9").split())
    assert "every kind of whitespace" not in text
    bits = _cell(LESSON_07, "079285cb")
    for absent in ["\\x0c", "\\x85", "\\u3000", "\\u2029"]:
        assert absent not in bits


def test_lesson_07_names_gpt4o_optional_leading_character() -> None:
    from bpelab.patterns import split_text

    text = _cell(LESSON_07, "thai-vowels-after-md")
    assert "[^\\r\\n\\p{L}\\p{N}]?" in text.split("Either")[1]
    assert split_text(" Hello", "o200k") == [" Hello"] and split_text("(Hello", "o200k") == ["(Hello"]


# ---- finding 12: CompareView's printout counts one byte in the singular --------------------------------------------------


def test_compare_view_says_one_byte() -> None:
    from bpelab.widgets import CompareView

    printed = CompareView(text="a").render_text()
    assert printed.splitlines()[0].startswith("CompareView: 4 tokenizers, 1 byte, "), printed
    assert CompareView(text="ab").render_text().startswith("CompareView: 4 tokenizers, 2 bytes, ")


# ---- finding 11: three hints name the learner's bug ------------------------------------------------------------------


def test_split_pieces_names_the_ignored_pattern(capsys) -> None:
    import regex

    from bpelab.exercises import check_split_pieces
    from bpelab.patterns import PATTERNS

    passed, out = _report(capsys, check_split_pieces, lambda text, pattern: regex.findall(PATTERNS["gpt2"], text))
    assert not passed and "you split every text with PATTERNS['gpt2'] and ignored the `pattern` argument" in out, out


def test_build_vocab_names_a_loop_over_the_dict_without_items(capsys) -> None:
    from bpelab.exercises import check_build_vocab

    def build_vocab(merges):
        vocab = {i: bytes([i]) for i in range(256)}
        for (a, b), new in merges:
            vocab[new] = vocab[a] + vocab[b]
        return vocab

    passed, out = _report(capsys, check_build_vocab, build_vocab)
    assert not passed and "for (a, b), new in merges.items():" in out, out


def test_find_parents_names_the_leftmost_tie_rule(capsys) -> None:
    from bpelab.exercises import check_find_parents

    def find_parents(token, ranks):
        parts = [token[i : i + 1] for i in range(len(token))]
        while True:
            best = None
            for i in range(len(parts) - 1):
                rank = ranks.get(parts[i] + parts[i + 1])
                if rank is not None and rank < ranks[token] and (best is None or rank <= best[0]):
                    best = (rank, i)
            if best is None:
                return tuple(parts)
            i = best[1]
            parts[i : i + 2] = [parts[i] + parts[i + 1]]

    passed, out = _report(capsys, check_find_parents, find_parents)
    assert not passed and "you merged the rightmost" in out and "LEFTMOST" in out, out
