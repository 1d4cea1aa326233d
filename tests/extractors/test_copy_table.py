"""``aliases.copy_table`` (every value's must-aliases in one pass) against the definition it
computes: a separate must-analysis per copied value, run here as the oracle on every function of
the detection corpus, the realistic test programs and Lua's sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.aliases import _ASSIGNING, copy_table
from extractors.api import Project
from extractors.cfg import Cfg

ROOT = Path(__file__).resolve().parents[2]


def one_value(cfg: Cfg, v: str) -> dict[int, frozenset[str]]:
    """The must-aliases of ``v`` alone: the locals holding its value on every path into a node."""
    if not any(src == v for n in cfg.nodes for _, src in n.copies):
        return {}
    followed = {n for n in cfg.declared if n != v and n not in cfg.addr_taken and n not in cfg.static_locals}
    preds: list[list[int]] = [[] for _ in cfg.nodes]
    for u, succ in enumerate(cfg.succ):
        for w, _ in succ:
            preds[w].append(u)
    out: list[frozenset[str] | None] = [None] * len(cfg.nodes)
    into: list[frozenset[str]] = [frozenset()] * len(cfg.nodes)
    todo, queued = [cfg.entry], {cfg.entry}
    while todo:
        n = todo.pop()
        queued.discard(n)
        known = [s for p in preds[n] if (s := out[p]) is not None] if n != cfg.entry else []
        held = frozenset.intersection(*known) if known else frozenset()
        into[n] = held
        node = cfg.nodes[n]
        assigned = {p for p, a in node.events if a in _ASSIGNING} | {c.result for c in node.calls if c.result}
        if any(p == v or v.startswith(p + "->") or v.startswith(p + ".") or v == "*" + p for p in assigned):
            new: frozenset[str] = frozenset()
        else:
            now = set(held - assigned)
            now.update(t for t, s in node.copies if t in followed and (s == v or s in held))
            new = frozenset(now)
        if new != out[n]:
            out[n] = new
            for w, _ in cfg.succ[n]:
                if w not in queued:
                    queued.add(w)
                    todo.append(w)
    return {n: held for n, held in enumerate(into) if held}


def sources() -> list[Path]:
    corpus = sorted((ROOT / "tests" / "corpus").rglob("*.c"))
    return corpus + sorted((ROOT / "tests" / "extractors" / "data").rglob("*.c"))


def test_the_table_is_every_value_s_own_analysis() -> None:
    compared = copied = 0
    for path in sources():
        p = Project()
        p.update_file(str(path), path.read_text(errors="replace"))
        for fm in p.files[str(path)].model.functions.values():
            cfg = fm.cfg
            table = copy_table(cfg)
            values = {s for n in cfg.nodes for _, s in n.copies} | {v for n in cfg.nodes for v, _ in n.events}
            for v in sorted(values):
                expected = one_value(cfg, v)
                assert table.get(v, {}) == expected, (path.name, fm.name, v)
                compared += 1
                copied += bool(expected)
    assert compared > 1000 and copied > 25  # the comparison saw real copies, not only empty tables


@pytest.mark.parametrize(
    "src, v, local, held",
    [
        ("void f(char *p) { char *q = p; char *r = q; free(r); }", "p", "r", True),
        ("void f(char *p) { char *q = p; char *r = q; q = 0; free(r); }", "p", "r", True),
        ("void f(char *p) { char *q = p; char *r = q; p = 0; free(r); }", "p", "r", False),
        ("void f(char *p, int c) { char *q; if (c) q = p; else q = 0; free(q); }", "p", "q", False),
    ],
)
def test_copies_of_copies_and_what_ends_them(src: str, v: str, local: str, held: bool) -> None:
    p = Project()
    p.update_file("t.c", src)
    cfg = p.files["t.c"].model.functions["f"].cfg
    free = next(n.id for n in cfg.nodes if n.text.startswith("free"))
    assert (local in copy_table(cfg).get(v, {}).get(free, frozenset())) is held
