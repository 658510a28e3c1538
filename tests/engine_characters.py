"""Characters every regex engine of this environment classifies alike, for property tests across engines.

Python's `regex`, tiktoken's fancy-regex and the Oniguruma inside `tokenizers` each carry Unicode tables of
their own age. The oldest `tokenizers` the course allows knows no Unicode 15 ideograph (U+2EBF0, U+31350) and
no Unicode 16 letter (U+13460), which `regex` reads as letters: a character one engine has never heard of is a
question of versions, not of the pattern under test. So a drawn character is kept only if Oniguruma puts it in
the same classes the course's patterns use as `regex` does; the check is made per character, never per text,
so no text the patterns cut apart is filtered out.
"""

from functools import cache

import regex
from hypothesis import strategies as st
from tokenizers import Regex, pre_tokenizers

# every class the course's four patterns name (GPT-2, GPT-4, GPT-4o, Llama 3)
CLASSES = [r"\p{L}", r"\p{Lu}", r"\p{Ll}", r"\p{Lt}", r"\p{Lm}", r"\p{Lo}", r"\p{M}", r"\p{N}", r"\s"]


def oniguruma_matches(cls: str, char: str) -> bool:
    """Whether Oniguruma's `cls` matches `char` whole (a matched character is removed, leaving no piece)."""
    return not pre_tokenizers.Split(Regex(cls), "removed").pre_tokenize_str(char)


@cache
def same_in_every_engine(char: str) -> bool:
    return all((regex.fullmatch(cls, char) is not None) == oniguruma_matches(cls, char) for cls in CLASSES)


# assigned, not a lone surrogate, and classified alike
KNOWN_CHARACTERS = st.characters(exclude_categories=["Cn", "Cs"]).filter(same_in_every_engine)
