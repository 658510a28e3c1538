"""Stopping a learner's function that runs away: an endless loop, a string that grows forever, a loop over
``itertools.count()``. Every call a checker makes goes through ``call_guarded``, which turns a runaway into ``Runaway``.

Two guards, because neither sees everything:

- a line counter (``sys.settrace``): more than ``MAX_STEPS`` lines of the learner's Python is a runaway. It
  counts the same on every machine, so the usual endless ``while`` loop gets the same message everywhere, in
  about a second (on a machine so busy that 2,000,000 traced lines take longer than ``MAX_SECONDS``, the
  clock's message comes first: both say the function did not finish). Lines run inside the course's own
  package (frames whose code lives under ``bpelab/``) are not counted: a learner's search that calls
  ``tokenizer.encode`` a dozen times on a long text runs millions of them, and is not a runaway for that.
  The clock and the memory limit still apply to them. A checker whose own guard is a count of the course's calls
  (lesson 08's search: the sizes it measures) calls ``new_line_allowance`` at each of them, so the limit holds
  between two such calls: how a correct helper of the learner's is written (a loop over the characters of a long
  text) does not decide the verdict, and an endless loop that makes no such call is still stopped.
- a watchdog thread, for what the counter cannot see or sees too slowly: a loop on ONE line
  (``while True: pass``: Python 3.11 reports no line event for a jump back to the same line), a loop whose
  steps get slower and slower (``s += "x"`` copies the whole string each time while a tracer runs), memory
  that grows without end (``s = s + s``). Past ``MAX_SECONDS``, or ``MAX_MEMORY`` bytes more than the process
  held when the call began, it marks the call as stopped and asks for an event at every instruction of the
  running frames (``frame.f_trace_opcodes``), with a tracer that raises at the next one.

The exception is raised by the tracer in the learner's own thread, at a point of Python code, so the call runs
where it always did (a notebook's main thread, with its globals, its prints and its stop button) and nothing is
left running afterwards. A learner's ``except Exception`` does not catch it. A bare ``except:`` does, and Python
then unsets the tracer that raised it, so the watchdog raises it again from outside every ``GRACE_SECONDS``
(``PyThreadState_SetAsyncExc``, as the stop button does), which ends the usual ``except: continue`` loop.

What no guard can stop: one call into C code that never returns (``sum(itertools.count())``: no Python
instruction runs inside it), and a loop that catches every exception forever, inside its own endless loop
(the stop button cannot either: only restarting the kernel ends those).
"""

from __future__ import annotations

import ctypes
import os
import sys
import sysconfig
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

MAX_STEPS = 2_000_000
"""Lines of Python a learner's function may run on one case before it counts as runaway (lines inside
``bpelab`` itself not counted; a checker that counts its own operations gives a new allowance at each of them:
``new_line_allowance``).

Most exercises' straightforward solutions need at most about 50,000 on the largest case; those whose textbook
answer is quadratic set their own allowance (``warmup.MAX_LINES``, ``sentencepiece.NEXT_MERGE_LINES``,
``parity.GINI_LINES``: lesson 14's gini double loop runs 250,504 to about 2,000,000 lines over 500 values)."""

PACKAGE_DIRECTORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
"""Where the course's own code lives (``.../bpelab/``): its lines are not counted."""


def _library_directories() -> tuple[str, ...]:
    """Python's standard library and installed packages, each as written and with its links resolved."""
    found = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(sorted({os.path.join(path, "") for path in found | {os.path.realpath(p) for p in found}}))


LIBRARY_DIRECTORIES = _library_directories()
"""Where Python's standard library and the installed packages live: their lines are not the learner's either. A
tracer that follows them made ``statistics.mean`` over a generator ten times slower than it is, so a right answer
passed or failed with the machine's load. The learner's code they call back (a generator's body) is still counted,
and the clock still stops a call that never comes back from them."""

UNTRACED = (PACKAGE_DIRECTORY, *LIBRARY_DIRECTORIES)
"""Code under these folders runs without the line counter (see ``PACKAGE_DIRECTORY``, ``LIBRARY_DIRECTORIES``)."""

MAX_SECONDS = 5.0
"""Seconds one call may run. The line counter stops the usual endless loop well before (in about a second)."""

MAX_MEMORY = 512 * 2**20
"""Bytes of memory one call may add to the process. The exercises' answers need a few kilobytes."""

_ALLOWANCES: list[Callable[[], None]] = []
"""For each guarded call running now (innermost last), what sets its line count back to 0."""


def new_line_allowance() -> None:
    """Give the guarded call running now ``max_steps`` lines again, from here (nothing when none runs).

    Called by a checker's counted operation (``MeasuredTokenizer.truncated``) whose count is the real guard."""
    if _ALLOWANCES:
        _ALLOWANCES[-1]()


POLL_SECONDS = 0.05
"""How often the watchdog looks at a running call's clock and memory."""

GRACE_SECONDS = 1.0
"""How long a stopped call may go on (a bare ``except:`` caught the stop) before the watchdog stops it the hard way."""


class Runaway(BaseException):
    """Raised inside a learner's call to stop it; a BaseException so that ``except Exception`` lets it through.

    ``reason`` is ``"steps"``, ``"time"`` or ``"memory"``."""

    def __init__(self, reason: str = "time") -> None:
        super().__init__(reason)
        self.reason = reason


class _Watch:
    """One guarded call: its limits, and ``reason`` once a guard decided to stop it."""

    __slots__ = ("deadline", "forced", "memory_limit", "reason", "stopped_at", "stopper", "thread", "tracer")

    def __init__(self, thread: int, deadline: float, memory_limit: int | None) -> None:
        self.thread, self.deadline, self.memory_limit = thread, deadline, memory_limit
        self.tracer: Any = None  # the line counter, in every frame of the call
        self.stopper: Any = None  # raises Runaway: the watchdog puts it in the counter's place
        self.reason = ""
        self.stopped_at = 0.0
        self.forced = False

    def stop(self, reason: str) -> None:
        self.reason, self.stopped_at = reason, time.monotonic()


def resident_memory() -> int | None:
    """Bytes of memory the process holds now (Linux), or the most it ever held (macOS, other Unix); None elsewhere."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_SIZE
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:  # Windows: the time limit still applies
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, kilobytes elsewhere


try:
    _PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):  # Windows
    _PAGE_SIZE = 4096

_recent_memory: list[float | int | None] = [-1.0, None]
"""When the memory was last read, and what it was: a checker makes hundreds of calls, and one reading costs
about as much as ten small calls, so the starting point is read at most once a second."""


def _memory_at_start() -> int | None:
    now = time.monotonic()
    if now - (_recent_memory[0] or 0.0) > 1.0:
        _recent_memory[:] = [now, resident_memory()]
    memory = _recent_memory[1]
    return None if memory is None else int(memory)


class _Watchdog:
    """One daemon thread for all checks; it wakes every ``POLL_SECONDS`` only while a call is being watched."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._watch: _Watch | None = None
        self._idle = True
        self._thread: threading.Thread | None = None

    def watch(self, watch: _Watch | None) -> None:
        """Start watching ``watch`` (None: stop watching)."""
        with self._condition:
            self._watch = watch
            if watch is None:
                return
            if self._thread is None or not self._thread.is_alive():  # first use, or after a fork
                self._thread = threading.Thread(target=self._run, name="bpelab-checker-watchdog", daemon=True)
                self._thread.start()
            if self._idle:
                self._condition.notify()

    def _run(self) -> None:
        while True:
            with self._condition:
                while self._watch is None:
                    self._idle = True
                    self._condition.wait()
                self._idle = False
                watch = self._watch
                self._condition.wait(POLL_SECONDS)
                if self._watch is not watch:
                    continue
                if not watch.reason:
                    _inspect(watch)
                elif time.monotonic() - watch.stopped_at > GRACE_SECONDS:
                    _force_stop(watch)


def _inspect(watch: _Watch) -> None:
    """Stop the call if it is past its deadline or its memory limit (run by the watchdog, holding its lock)."""
    if time.monotonic() > watch.deadline:
        watch.stop("time")
    elif watch.memory_limit is not None and (resident_memory() or 0) > watch.memory_limit:
        watch.stop("memory")
    else:
        return
    frame: FrameType | None = sys._current_frames().get(watch.thread)
    while frame is not None:  # only the learner's frames carry this call's tracer
        if frame.f_trace is watch.tracer:
            frame.f_trace = watch.stopper  # the counter stays lean: it never looks at the clock itself
            frame.f_trace_opcodes = True  # an event at the next instruction, even in a one-line loop
        frame = frame.f_back


def _force_stop(watch: _Watch) -> None:
    """The call caught ``Runaway`` and went on (a bare ``except:``), and Python unset the tracer that raised it (it
    does so after a tracer's error): raise it in the learner's thread from outside, as Ctrl-C would, at its next
    backward jump or call. Repeated every ``GRACE_SECONDS`` while the call goes on."""
    watch.forced = True
    watch.stopped_at = time.monotonic()
    _SET_ASYNC_EXC(watch.thread, Runaway)


def _receive_forced_stop() -> None:
    """Take a forced stop that was sent as the call ended, here, rather than in the checker's own code.

    (Cancelling it with ``PyThreadState_SetAsyncExc(id, NULL)`` would leave Python 3.11's eval breaker set, and a
    traced call would then never get past its first instruction.)"""
    try:
        for _ in range(100):  # a backward jump checks for a pending asynchronous exception
            pass
    except Runaway:
        pass


_SET_ASYNC_EXC = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.py_object)(
    ("PyThreadState_SetAsyncExc", ctypes.pythonapi)
)
_WATCHDOG = _Watchdog()


def call_guarded(
    fn: Callable[..., Any], args: tuple, max_steps: int | None = MAX_STEPS, max_seconds: float | None = None
) -> Any:
    """``fn(*args)`` under both guards: what it returns, or what it raises; a runaway raises ``Runaway``.

    ``max_seconds`` replaces ``MAX_SECONDS`` for this call: a checker that bounds the work another way (lesson 08's
    search counts the sizes it measures) gives the clock a margin that only an endless loop reaches.
    ``max_steps=None`` counts no lines (the time and memory limits still apply); lines inside the ``bpelab``
    package are never counted (a function of the learner's that it calls back is). The counter replaces any
    tracer (a debugger's) for the duration of the call only, so breakpoints inside it do not fire.
    """
    memory = _memory_at_start()
    watch = _Watch(
        threading.get_ident(),
        time.monotonic() + (MAX_SECONDS if max_seconds is None else max_seconds),
        None if memory is None else memory + MAX_MEMORY,
    )
    steps, limit = 0, sys.maxsize if max_steps is None else max_steps

    def count_lines(frame: FrameType, event: str, arg: Any) -> Any:  # every line of the call: keep it lean
        nonlocal steps
        if event == "line":
            steps += 1
            if steps > limit:
                watch.stop("steps")
                raise Runaway("steps")
        return count_lines

    def on_call(frame: FrameType, event: str, arg: Any) -> Any:  # every function the call enters
        if watch.reason:
            raise Runaway(watch.reason)
        if frame.f_code.co_filename.startswith(UNTRACED):
            return None  # the course's code (encode, truncated), Python's library: their lines are not the learner's
        return count_lines

    def stop(frame: FrameType, event: str, arg: Any) -> Any:  # put in place by the watchdog
        raise Runaway(watch.reason)

    def fresh_count() -> None:
        nonlocal steps
        steps = 0

    watch.tracer, watch.stopper = count_lines, stop
    previous = sys.gettrace()
    _WATCHDOG.watch(watch)
    _ALLOWANCES.append(fresh_count)
    sys.settrace(on_call)  # this frame began before: only the frames of the call are traced
    try:
        return fn(*args)
    except Runaway:
        raise Runaway(watch.reason or "time") from None  # a forced stop carries no reason of its own
    finally:
        sys.settrace(previous)
        _ALLOWANCES.remove(fresh_count)
        _WATCHDOG.watch(None)  # from here on, no new forced stop
        if watch.forced:
            _receive_forced_stop()
