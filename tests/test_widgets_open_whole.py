"""Every view reaches the page whole: the state sent when its channel opens is all the state it has when its
constructor returns (bpelab/widgets/whole_state.py says why: anywidget drops updates sent while the page is
still loading the view's module, and JupyterLab drew an empty classroom stepper)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets
import pytest

from bpelab import train_bpe
from bpelab.widgets import ChatView, ClassroomStepper, CompareView, EncodeExplorer, MergeStepper

VIEWS: dict[str, Callable[[], Any]] = {
    "classroom": ClassroomStepper,
    "classroom, own text": lambda: ClassroomStepper(corpus="hug pug pun bun hugs", merges=4, tie_break="lexicographic"),
    "classroom, not trained": lambda: ClassroomStepper(train=False),
    "classroom, blank text": lambda: ClassroomStepper(corpus="   "),
    "stepper": lambda: MergeStepper(train_bpe("low lower newest widest", 6)),
    "explorer": EncodeExplorer,
    "explorer, GPT-4o chosen": lambda: EncodeExplorer(text="héllo 👋 wörld", selected="GPT-4o (o200k_base)"),
    "side by side": CompareView,
    "chat": ChatView,
    "chat, Llama 3": lambda: ChatView([("user", "hi"), ("assistant", "hello")], format="llama3"),
}


def plain(state: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(state, default=str)))


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """The state of every widget channel opened, in order: what ``Widget.open`` sends in its opening message.

    Recorded at ``Widget.open`` rather than at the comm it creates: ipywidgets 7 makes an ``ipykernel`` Comm
    there and 8.1 calls ``comm.create_comm``, and the course allows both (pyproject.toml)."""
    states: list[dict[str, Any]] = []
    original = ipywidgets.Widget.open

    def recording(self: ipywidgets.Widget) -> None:
        if self.comm is None:
            states.append(plain(self.get_state()))
        original(self)

    monkeypatch.setattr(ipywidgets.Widget, "open", recording)
    yield states


@pytest.mark.parametrize("name", VIEWS)
def test_the_state_sent_at_opening_is_the_whole_state(name: str, opened: list[dict[str, Any]]) -> None:
    view = VIEWS[name]()
    own = [state for state in opened if state.get("_anywidget_id") == view._anywidget_id]
    assert len(own) == 1, f"{name}: {len(own)} channels opened for one view"
    now = plain(view.get_state())
    late = sorted(key for key in now if now[key] != own[0].get(key))
    assert not late, f"{name}: set after its channel opened, so sent as updates the page may drop: {late}"


def test_a_view_whose_constructor_fails_opens_no_channel(opened: list[dict[str, Any]]) -> None:
    with pytest.raises(ValueError, match="merges"):
        ClassroomStepper(merges=0)
    assert not [state for state in opened if state.get("_anywidget_id", "").endswith("ClassroomStepper")]
