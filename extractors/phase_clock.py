"""Seconds per phase of a check, for ``ctlsp check --stats`` (where the time of the work units went).

Why exclusive spans: the phases nest in the code (a function's projection asks for model checks and
refutations while it runs), but a phase's seconds must not count those of the phases opened inside
it, so that the phases of a unit add up to no more than the unit's time.  A span therefore stops the
clock of the span it interrupts and restarts it when it closes.

Invariants: every second between the outermost span's start and its end is counted in exactly one
phase; ``seconds`` only grows (callers take deltas around a piece of work); the overhead is two
``perf_counter`` calls per span, so spans open per function, per model check and per refutation,
never per node.  One clock per project, used by one thread at a time (as the project is).
"""

from __future__ import annotations

from time import perf_counter
from types import TracebackType

EXTRACTION = "extraction"  # building the function models a check reads (a worker's first unit)
PROJECTION = "projection"  # projecting values onto the models, and what a function's check does besides
MODEL_CHECKING = "model checking"  # verdicts and witnesses, with the views they are checked on
REFUTATION = "refutation"  # witness refutation (extractors.refute), its z3 calls and checks again
PHASES = (EXTRACTION, PROJECTION, MODEL_CHECKING, REFUTATION)


class PhaseClock:
    """Exclusive seconds per phase name; ``with clock(MODEL_CHECKING): ...`` times a span."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._open: list[str] = []  # the phases of the spans open now, innermost last
        self._since = 0.0  # when the innermost open span's clock last started

    def __call__(self, phase: str) -> _Span:
        return _Span(self, phase)

    def _switch(self, to: str | None, leaving: bool) -> None:
        """Charge the time since ``_since`` to the innermost open phase, then open ``to`` (or, when
        ``leaving``, close the innermost), restarting the clock."""
        now = perf_counter()
        if self._open:
            top = self._open[-1]
            self.seconds[top] = self.seconds.get(top, 0.0) + (now - self._since)
        if leaving:
            self._open.pop()
        elif to is not None:
            self._open.append(to)
        self._since = now

    def snapshot(self) -> dict[str, float]:
        """The seconds so far (a copy: callers subtract one snapshot from a later one)."""
        return dict(self.seconds)


class _Span:
    __slots__ = ("clock", "phase")

    def __init__(self, clock: PhaseClock, phase: str) -> None:
        self.clock, self.phase = clock, phase

    def __enter__(self) -> None:
        self.clock._switch(self.phase, leaving=False)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.clock._switch(None, leaving=True)


def phases_between(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """Per phase of :data:`PHASES`, the seconds between two snapshots (0.0 for a phase not run)."""
    return {p: max(0.0, after.get(p, 0.0) - before.get(p, 0.0)) for p in PHASES}
