"""Replay a witness path on the oracle's configuration graph and check it proves the formula.

Independent of how the engine found the path: every step must be a transition of the operational
semantics, a lasso must close either on the very configuration it started from (a cycle of the
configuration graph) or on the same (component, node) with the stack grown (pumped recursion) and
never popped below its depth in between, and the labels along the path must
meet the path requirements of the existential operators (checked with the exact oracle labelling).
"""

from __future__ import annotations

from checker.ctl import EG, EU, EX, And, Formula, Or
from checker.model import RSM
from checker.witness import Step
from tests.checker.oracle import Config, Labeller, Moves, build_graph, initial_config, normalize_ref


def _config(rsm: RSM, step: Step) -> Config:
    """A box node ``(b, n)`` in the caller is the same configuration as ``n`` in the callee under ``b``."""
    return normalize_ref(rsm, tuple(step.stack), step.component, step.node)


class Replay:
    def __init__(self, rsm: RSM, steps: tuple[Step, ...], loop_start: int | None) -> None:
        self.rsm = rsm
        self.moves = Moves(rsm)
        self.path = [_config(rsm, s) for s in steps]
        self.loop = loop_start
        self.graph = build_graph(rsm, max_states=20_000)
        self.lab = Labeller(self.graph)

    def holds(self, f: Formula, i: int) -> bool:
        """Surely holds; on a bounded (recursive) unfolding an undecided value is given the benefit."""
        state = self.graph.index.get(self.path[i])
        if state is None:
            return not self.graph.exact
        value = self.lab.value(f, state)
        return value is True or (value is None and not self.graph.exact)

    def next_index(self, i: int) -> int | None:
        if i + 1 < len(self.path):
            return i + 1
        return self.loop

    def check_transitions(self) -> None:
        assert self.path, "empty witness"
        assert self.path[0] == initial_config(self.rsm), f"witness starts at {self.path[0]}"
        for i in range(len(self.path) - 1):
            a, b = self.path[i], self.path[i + 1]
            assert b in self.moves.successors(a), f"step {i}: {a} -> {b} is not a transition"
        if self.loop is not None:
            self._check_lasso()

    def _check_lasso(self) -> None:
        assert self.loop is not None and 0 <= self.loop < len(self.path)
        head_stack, comp, node = self.path[self.loop]
        closing = [
            s
            for s in self.moves.successors(self.path[-1])
            if s[1:] == (comp, node) and s[0][: len(head_stack)] == head_stack
        ]
        assert closing, f"lasso does not close: {self.path[-1]} never steps back to {comp}/{node}"
        if self.path[self.loop] in closing:
            return
        for cfg in self.path[self.loop :]:
            assert cfg[0][: len(head_stack)] == head_stack, f"loop pops below its start: {cfg}"

    def proves(self, f: Formula, i: int = 0) -> bool:
        """Whether the path from position ``i`` demonstrates ``f`` (normal form, existential parts)."""
        match f:
            case Or(left=a, right=b):
                return self.proves(a, i) or self.proves(b, i)
            case And(left=a, right=b):
                return self.holds(f, i) and (self.proves(a, i) or self.proves(b, i))
            case EX(arg=a):
                j = self.next_index(i)
                return j is not None and self.holds(a, j) and self.proves(a, j)
            case EU(left=a, right=b):
                for j in range(i, len(self.path)):
                    if self.holds(b, j) and self.proves(b, j):
                        return True
                    if not self.holds(a, j):
                        return False
                return False
            case EG(arg=a):
                return (
                    self.loop is not None
                    and i <= self.loop
                    and all(self.holds(a, j) for j in range(i, len(self.path)))
                )
        return self.holds(f, i)
