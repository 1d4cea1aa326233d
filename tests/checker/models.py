"""Hand-built RSMs of the worked examples in the notes, written in a compact notation.

``comp("A1", "n1:entry:q n2:p n4:exit:r", "n1>b1.n1 (b1.n4)>n5", {"b1": "A1"})``: nodes are
``name[:entry][:exit][:label,label]``; edges are ``src>dst`` with ``box.node`` for call/return nodes.
"""

from __future__ import annotations

from checker.model import RSM, Box, Component, Node, Ref, build_rsm


def _ref(text: str) -> Ref:
    text = text.strip("()")
    if "." in text:
        box, node = text.split(".", 1)
        return (box, node)
    return text


def comp(name: str, nodes: str, edges: str = "", boxes: dict[str, str] | None = None) -> Component:
    ns = []
    for spec in nodes.split():
        parts = spec.split(":")
        flags = set(parts[1:])
        labels = frozenset(x for p in parts[1:] if p not in ("entry", "exit") for x in p.split(",") if x)
        ns.append(Node(parts[0], labels, "entry" in flags, "exit" in flags))
    es = []
    for e in edges.split():
        src, dst = e.split(">")
        es.append((_ref(src), _ref(dst)))
    bs = tuple(Box(b, c) for b, c in (boxes or {}).items())
    return Component(name, tuple(ns), bs, tuple(es))


def rsm(*components: Component, init: str | None = None) -> RSM:
    first = components[0]
    return build_rsm(components, first.name, init or first.entries[0])


def t2_journal() -> RSM:
    """Seed 000/002 §8.3 T2: the journal's running example, reconstructed in the notes."""
    return rsm(
        comp(
            "A1",
            "n1:entry:q n2:p n4:exit:r n5:exit:p",
            "n1>b1.n1 n1>b2.n3 b2.n6>n2 b2.n6>n4 n2>b2.n3 b1.n4>n5 b1.n5>n4",
            {"b1": "A1", "b2": "A2"},
        ),
        comp("A2", "n3:entry:p n6:exit:p", "n3>n6"),
    )


def seed4_test1(with_recursion: bool = True) -> RSM:
    """Seed 004 §7 Test 1 (EG through infinite recursion) and its variant 1b."""
    f_edges = "f0>fc.f0 fc.f1>f1 f0>f1" if with_recursion else "f0>f1"
    return rsm(
        comp("M", "m0:entry:p m1:p m2:exit", "m0>mc.f0 mc.f1>m1 m1>m2", {"mc": "F"}),
        comp("F", "f0:entry:p f1:exit:p", f_edges, {"fc": "F"} if with_recursion else {}),
    )


def seed4_test2(goal: bool) -> RSM:
    """Seed 004 §7 Test 2: EU through a recursion cycle, with or without ``q`` after the call."""
    m1 = "m1:exit:q" if goal else "m1:exit"
    return rsm(
        comp("M", f"m0:entry:p {m1}", "m0>mc.f0 mc.f1>m1", {"mc": "F"}),
        comp("F", "f0:entry:p f1:exit:p", "f0>fc.f0 fc.f1>f1 f0>f1", {"fc": "F"}),
    )


def seed4_test3() -> RSM:
    """Seed 004 §7 Test 3: EX across call boundaries."""
    return rsm(
        comp("M", "m0:entry m1:exit:q", "m0>mc.f0 mc.f1>m1", {"mc": "F"}),
        comp("F", "f0:entry f1:exit", "f0>f1"),
    )


def seed4_test5(callee_size: int = 30) -> RSM:
    """Seed 004 §7 Test 5: ``p`` with a self-loop at the entry decides ``EG p`` before any call."""
    chain = " ".join(f"g{i}" for i in range(1, callee_size)) + f" g{callee_size}:exit"
    g_edges = " ".join(f"g{i}>g{i + 1}" for i in range(callee_size))
    return rsm(
        comp(
            "Main",
            "s0:entry:p s1 s2:exit",
            "s0>s0 s0>big.g0 big.g30>s1 s1>s2".replace("30", str(callee_size)),
            {"big": "Big"},
        ),
        comp("Big", f"g0:entry {chain}", g_edges),
    )
