"""Work units of a batch check: groups of functions instead of files, and their results put back.

Why not files: one file can be most of the work (SQLite's amalgamation is 270k lines in one file), and
a pool handed whole files then runs it on one core.  A unit is a group of functions to check with the
whole project in scope (:meth:`extractors.api.Project.check_functions`).

How they are cut (:func:`plan`): the functions of the files to check are split into the strongly
connected parts of their call graph, and a part is never split (its members share projections, and a
recursive cycle's projections may depend on where building it began, so one worker builds it whole).
Parts are packed in file order into units of about ``target`` CFG nodes, so that a unit holds
neighbouring functions, which tend to call the same helpers, whose projections a worker then builds
once.  Units are handed out biggest first, so that the last ones to finish are small.

Invariants: every function of the files to check is in exactly one unit; :class:`Assembly` gives a
file's findings only when all its functions are in, and then exactly what ``Project.check`` gives
for it (:meth:`extractors.api.Project.assemble`, functions in the project's order).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from checker.graphs import strongly_connected
from extractors.api import Finding, FunctionNode

UNITS_PER_WORKER = 8  # enough for balance and a moving progress bar, few enough to cost nothing
MIN_UNIT = 400  # CFG nodes: below this a unit's round trip costs more than its check


@dataclass(frozen=True)
class Unit:
    """Function ids to check together; ``size``: their CFG nodes, the unit's estimated cost."""

    number: int
    functions: tuple[str, ...]
    size: int


def target_size(nodes: Sequence[FunctionNode], workers: int) -> int:
    """The size units are packed to: about :data:`UNITS_PER_WORKER` per worker, at least
    :data:`MIN_UNIT`, but never so large that some worker gets nothing (whoever chose more than
    one worker for a small project chose the pool)."""
    total = sum(n.size for n in nodes)
    workers = max(1, workers)
    return max(1, min(max(MIN_UNIT, total // (workers * UNITS_PER_WORKER)), total // workers))


def plan(graph: Sequence[FunctionNode], files: Collection[str], target: int) -> list[Unit]:
    """The units that check every function of ``files`` (``graph``: the project's functions in its
    order), biggest first; see the module's docstring."""
    nodes = [n for n in graph if n.path in files]
    position = {n.ident: i for i, n in enumerate(nodes)}
    by_id = {n.ident: n for n in nodes}
    parts = strongly_connected(
        [n.ident for n in nodes], lambda i: [c for c in by_id[i].callees if c in by_id]
    )
    parts.sort(key=lambda part: min(position[i] for i in part))  # file order
    units: list[list[str]] = []
    sizes: list[int] = []
    current: list[str] = []
    size = 0
    for part in parts:
        part_size = sum(by_id[i].size for i in part)
        if current and size + part_size > target:
            units.append(current)
            sizes.append(size)
            current, size = [], 0
        current.extend(sorted(part, key=position.__getitem__))
        size += part_size
    if current:
        units.append(current)
        sizes.append(size)
    order = sorted(range(len(units)), key=lambda k: (-sizes[k], k))
    return [Unit(n, tuple(units[k]), sizes[k]) for n, k in enumerate(order)]


class Assembly:
    """Collects units' findings per function and hands out each file once all its functions are in.

    ``assemble(path, per_function)`` is :meth:`extractors.api.Project.assemble`."""

    def __init__(
        self,
        graph: Sequence[FunctionNode],
        files: Iterable[str],
        assemble: Callable[[str, list[list[Finding]]], list[Finding]],
    ) -> None:
        wanted = set(files)
        self._order: dict[str, list[str]] = {p: [] for p in wanted}
        for n in graph:
            if n.path in wanted:
                self._order[n.path].append(n.ident)
        self._missing = {p: set(ids) for p, ids in self._order.items()}
        self._file_of = {i: p for p, ids in self._order.items() for i in ids}
        self._found: dict[str, list[Finding]] = {}
        self._assemble = assemble

    def without_functions(self) -> list[str]:
        """Files with nothing to check (no modelled function): complete from the start."""
        return sorted(p for p, ids in self._order.items() if not ids)

    def add(self, found: Mapping[str, list[Finding]]) -> dict[str, list[Finding]]:
        """Take a unit's findings per function id; the files this completes, with their findings.
        A function already in (a unit that ran twice) is not taken again."""
        done: dict[str, list[Finding]] = {}
        for ident, fs in found.items():
            path = self._file_of.get(ident)
            if path is None or ident in self._found:
                continue
            self._found[ident] = fs
            missing = self._missing[path]
            missing.discard(ident)
            if not missing:
                done[path] = self.file(path)
        return done

    def file(self, path: str) -> list[Finding]:
        return self._assemble(path, [self._found[i] for i in self._order[path]])

    def files_of(self, unit: Unit) -> list[str]:
        """The files ``unit`` has functions of (a unit that failed leaves them incomplete)."""
        return sorted({self._file_of[i] for i in unit.functions if i in self._file_of})
