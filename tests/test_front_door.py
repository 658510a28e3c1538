"""``import bpelab``: every name it offers is the one its module defines, and the light parts stay light."""

import importlib
import subprocess
import sys

import pytest

import bpelab


@pytest.mark.parametrize("name", bpelab.__all__)
def test_every_name_bpelab_offers_is_its_modules_own(name):
    home = importlib.import_module(bpelab._HOMES[name])
    assert getattr(bpelab, name) is getattr(home, name)
    assert name in dir(bpelab)


def test_a_name_bpelab_does_not_have_says_so():
    with pytest.raises(AttributeError, match="no attribute 'BPETokeniser'"):
        bpelab.BPETokeniser  # noqa: B018


def test_the_save_hook_and_the_setup_command_import_no_pandas():
    """The Jupyter server runs the save hook on every save: importing it must not cost the seconds pandas takes."""
    code = "import sys, bpelab.course.save_hook, bpelab.setup_data; print(sorted({'pandas', 'matplotlib'} & set(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
