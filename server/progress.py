"""Progress of a batch check on the console: units done of all, findings so far, the slowest unit.

The runner (:mod:`server.check_runner`) says what finished with a :class:`Done` per unit (a file,
when one process checks file by file); this module only draws it, with rich, on stderr, and only
when the command asks for it (stderr is a terminal).  Drawing happens in the thread that calls the
callbacks: the runner calls them from its own loop, never from a worker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Done:
    """One unit of work finished: ``label`` names it (its first function, or its file), ``seconds``
    it took where it ran, ``findings`` those of the files it completed."""

    label: str
    seconds: float
    findings: int


Start = Callable[[int], None]
Progress = Callable[[Done], None]


@dataclass
class Tally:
    """What the bar shows besides the count: findings so far and the slowest unit."""

    findings: int = 0
    slowest: Done | None = None

    def add(self, done: Done) -> None:
        self.findings += done.findings
        if self.slowest is None or done.seconds > self.slowest.seconds:
            self.slowest = done

    def text(self) -> str:
        slow = "" if self.slowest is None else f"  slowest {self.slowest.seconds:.1f}s {self.slowest.label}"
        return f"{self.findings} findings{slow}"


@contextmanager
def console_progress(enabled: bool) -> Iterator[tuple[Start, Progress]]:
    """(start(total units), done(Done)) callbacks drawing a transient rich bar on stderr, or doing
    nothing when not ``enabled``."""
    if not enabled:
        yield (lambda total: None), (lambda done: None)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    bar = Bar(
        TextColumn("checking"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("units"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[tally]}"),
        console=Console(stderr=True),
        transient=True,
    )
    tally = Tally()
    task = bar.add_task("check", total=None, tally=tally.text())

    def done(d: Done) -> None:
        tally.add(d)
        bar.update(task, advance=1, tally=tally.text())

    with bar:
        yield (lambda total: bar.update(task, total=total)), done
