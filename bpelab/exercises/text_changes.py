"""What a learner's function did to a text it had to give back as it is: the tests behind the hints of lesson 06's
decode_ids and lesson 07's split_pieces, written once.

Each takes the text the answer had to give (``want``) and the text it gave (``got``) and says which change turns one
into the other, or None.
"""

from __future__ import annotations

import unicodedata


def whitespace_lost(want: str, got: str) -> str | None:
    """Where ``got`` is ``want`` less whitespace: "start", "end" or "start and the end" (``.strip()``, ``.rstrip()``,
    a piece of only whitespace dropped); None when it is not."""
    if not isinstance(want, str) or not isinstance(got, str) or got == want:
        return None
    at_end = want.startswith(got) and not want[len(got) :].strip()
    at_start = want.endswith(got) and not want[: len(want) - len(got)].strip()
    if at_end or at_start:
        return "end" if at_end else "start"
    return "start and the end" if got == want.strip() else None


def normal_form(want: str, got: str) -> str | None:
    """The Unicode normal form (``"NFKC"``, ...) that turns ``want`` into ``got``; None when none does."""
    if not isinstance(want, str) or not isinstance(got, str) or got == want:
        return None
    return next((form for form in ("NFC", "NFKC", "NFD", "NFKD") if got == unicodedata.normalize(form, want)), None)


NORMAL_FORMS = (
    "NFKC turns 'ﬁ' into 'fi' and full-width letters into plain ones, NFC joins an 'e' and a combining accent into "
    "one 'é'"
)


def crlf_made_lf(want: str, got: str) -> bool:
    """``got`` is ``want`` with each Windows line break '\\r\\n' turned into '\\n'."""
    return isinstance(want, str) and "\r\n" in want and got == want.replace("\r\n", "\n")
