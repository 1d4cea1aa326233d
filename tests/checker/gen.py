"""Hypothesis strategies: small random RSMs (multi-entry/exit, boxes, optional recursion) and CTL formulas."""

from __future__ import annotations

from hypothesis import strategies as st

from checker.ctl import (
    AF,
    AG,
    AU,
    AW,
    AX,
    EF,
    EG,
    EU,
    EW,
    EX,
    And,
    Atom,
    FalseF,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    TrueF,
)
from checker.model import RSM, Box, Component, Node, Ref, build_rsm

ATOMS = ("a", "b", "c")


@st.composite
def rsms(draw: st.DrawFn, recursive: bool) -> RSM:
    """1-4 components of 1-6 nodes; every non-exit node and every return node gets a successor.

    With ``recursive`` false, boxes only call later components, so the RSM is non-recursive and
    the oracle is exact; with it true, boxes may call any component (itself included).
    """
    k = draw(st.integers(1, 4))
    shapes = []
    for i in range(k):
        n = draw(st.integers(1, 6))
        n_entry = draw(st.integers(1, min(2, n)))
        n_exit = draw(st.integers(0, min(2, n)))
        both = n == 1 and n_exit == 1 or draw(st.integers(0, 9)) == 0 and n_exit > 0
        entries = list(range(n_entry))
        exits = list(range(n - n_exit, n))
        if not both:
            exits = [x for x in exits if x not in entries]
        labels = [frozenset(draw(st.sets(st.sampled_from(ATOMS)))) for _ in range(n)]
        nodes = tuple(Node(f"n{i}_{j}", labels[j], j in entries, j in exits) for j in range(n))
        shapes.append(nodes)
    comps = []
    for i, nodes in enumerate(shapes):
        callees = list(range(k)) if recursive else list(range(i + 1, k))
        boxes = []
        if callees:
            for j in range(draw(st.integers(0, 2))):
                boxes.append(Box(f"b{i}_{j}", f"C{draw(st.sampled_from(callees))}"))
        sources: list[Ref] = [nd.name for nd in nodes if not nd.is_exit]
        targets: list[Ref] = [nd.name for nd in nodes if not nd.is_entry]
        for b in boxes:
            callee = shapes[int(b.component[1:])]
            sources += [(b.name, nd.name) for nd in callee if nd.is_exit]
            targets += [(b.name, nd.name) for nd in callee if nd.is_entry]
        edges: list[tuple[Ref, Ref]] = []
        if targets:
            for s in sources:
                for t in draw(st.lists(st.sampled_from(targets), min_size=1, max_size=2, unique=True)):
                    edges.append((s, t))
        comps.append(Component(f"C{i}", nodes, tuple(boxes), tuple(edges)))
    init = draw(st.sampled_from([nd.name for nd in shapes[0] if nd.is_entry]))
    return build_rsm(comps, "C0", init)


_UNARY = (Not, EX, EF, EG, AX, AF, AG)
_BINARY = (And, Or, Implies, Iff, EU, EW, AU, AW)


def formulas(max_depth: int = 3) -> st.SearchStrategy[Formula]:
    leaves: st.SearchStrategy[Formula] = st.sampled_from([*(Atom(a) for a in ATOMS * 3), TrueF(), FalseF()])

    def extend(inner: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        return st.one_of(
            st.builds(lambda op, x: op(x), st.sampled_from(_UNARY), inner),
            st.builds(lambda op, x, y: op(x, y), st.sampled_from(_BINARY), inner, inner),
        )

    strat = leaves
    for _ in range(max_depth):
        strat = st.one_of(leaves, extend(strat))
    return strat
