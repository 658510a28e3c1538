"""The engine's number comparison (``same``): numpy's numbers are compared as numbers, at the check's tolerance.

numpy's float16 and float32 are not subclasses of ``float``; ``same`` used to hand them to numpy's ``==``, which
compares at float16 or float32 precision, so an answer off by 4e-4 passed a check that allows 1e-9.
"""

from __future__ import annotations

import pytest

from bpelab.exercises import check_bytes_per_token
from bpelab.exercises.comparing import same

np = pytest.importorskip("numpy")


def test_numpy_floats_are_compared_within_the_tolerance():
    assert not same(np.float16(2 / 9), 2 / 9)  # 0.22216796875
    assert not same(np.float32(2 / 9), 2 / 9)  # 0.2222222238779068, 7e-9 relative
    assert same(np.float32(0.25), 0.25)  # exact in float32: the same number
    assert same(np.float64(2 / 9), 2 / 9) and same(np.float64(0.1) + np.float64(0.2), 0.3)
    assert same(np.int64(2), 2.0)  # an int where a float is expected is fine, as for Python ints


def test_numpy_numbers_keep_the_int_rule():
    assert same(np.int64(2), 2)  # a numpy int for an int
    assert not same(np.float32(2.0), 2) and not same(np.float16(2.0), 2)  # a float where an int is expected
    assert same(np.float32(2.0), 2, loose_ints=True)


def test_python_numbers_unchanged():
    assert same(0.1 + 0.2, 0.3) and not same(0.2222, 2 / 9) and same(2, 2.0) and not same(2.0, 2)
    assert not same(True, 1.0) and same(10**400, 10**400) and not same(10**400, 1.0)


def bytes_per_token(tokenizer, text):
    return len(text.encode("utf-8")) / len(tokenizer.encode(text))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_bytes_per_token_in_a_numpy_float_of_less_precision_is_refused(capsys, dtype):
    to = getattr(np, dtype)

    def fn(tokenizer, text):
        return to(bytes_per_token(tokenizer, text))

    assert check_bytes_per_token(bytes_per_token, record=False).passed
    assert not check_bytes_per_token(fn, record=False).passed
