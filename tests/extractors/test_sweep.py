"""A project's memory between checks (``Project.tidy``, ``Database.sweep`` from ``Project.roots``):
typing leaves the memos of every old text behind, and a sweep forgets them and everything only they
used, while keeping all that a later check reuses: the same edits, checked with and without
sweeps in between, run exactly the same computations and find the same."""

from __future__ import annotations

import random

import pytest

from extractors import project as engine
from extractors.api import Project
from extractors.check_queries import VERDICTS
from extractors.queries import function_model

FUNCTIONS = 30


def chain(functions: int = FUNCTIONS) -> list[str]:
    """Functions each handing a block to the one before it (interprocedural projections), every
    fifth leaking it; one function per element."""
    out = ["void take0(char *p)\n{\n    p[0] = 0;\n    free(p);\n}\n"]
    for i in range(1, functions):
        tail = "" if i % 5 == 0 else f"    take{i - 1}(p);\n"
        out.append(
            f"void take{i}(char *p)\n{{\n    int n = {i};\n    p[0] = n;\n{tail}}}\n"
            if i % 3
            else f"int make{i}(int x)\n{{\n    char *p = malloc(x);\n    if (!p) return 0;\n"
            f"    p[0] = 1;\n{tail}    return x;\n}}\n"
        )
    return out


def text_of(functions: list[str]) -> str:
    return "#include <stdlib.h>\n" + "\n".join(functions)


def edits(count: int, seed: int = 7) -> list[str]:
    """Texts after each of ``count`` one-line edits inside random bodies."""
    rng = random.Random(seed)
    functions = chain()
    out = []
    for version in range(count):
        i = rng.randrange(len(functions))
        body = functions[i].split("\n")
        at = rng.randrange(2, len(body) - 2)
        body.insert(at, f"    int v{version} = {version};" if rng.random() < 0.5 else "    (void)0;")
        functions[i] = "\n".join(body)
        out.append(text_of(functions))
    return out


def executed(p: Project) -> dict[str, int]:
    return {name: c.executed for name, c in p.db.counters().items() if c.executed}


def test_sweeping_between_checks_loses_no_reuse() -> None:
    swept, kept = Project(), Project()
    for p in (swept, kept):
        p.update_file("chain.c", text_of(chain()))
        p.check()
    forgotten = 0
    for text in edits(25):
        found = []
        for p in (swept, kept):
            p.update_file("chain.c", text)
            found.append(p.check())
        assert found[0] == found[1]
        forgotten += swept.db.sweep(swept.roots())
    assert forgotten > 0
    assert executed(swept) == executed(kept)  # no memo a later check needed was forgotten
    assert swept.db.memo_count() < kept.db.memo_count()


def test_a_sweep_leaves_only_what_todays_texts_need() -> None:
    p = Project()
    p.update_file("chain.c", text_of(chain()))
    p.check()
    for text in edits(25):
        p.update_file("chain.c", text)
        p.check()
    verdicts = len(p.db.content(VERDICTS))
    assert p.db.memo_count(function_model) > FUNCTIONS  # the models of old texts
    assert p.db.sweep(p.roots()) > 0
    assert p.db.memo_count(function_model) == FUNCTIONS
    before = executed(p)
    again = p.check()
    assert executed(p) == before  # the current texts' findings, all still there
    fresh = Project()
    fresh.update_file("chain.c", edits(25)[-1])
    assert again == fresh.check()
    shorter = text_of(chain(10))  # twenty functions deleted: what was known of them goes
    p.update_file("chain.c", shorter)
    p.check()
    assert p.db.sweep(p.roots()) > 0
    assert p.db.memo_count(function_model) == 10
    assert len(p.db.content(VERDICTS)) < verdicts


def test_tidy_sweeps_once_the_memos_have_grown_by_a_tenth(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "SWEEP_SLACK", 0)
    p = Project()
    p.update_file("chain.c", text_of(chain()))
    p.check()
    p.tidy()
    last = p.db.memo_count()
    sweeps = 0
    for text in edits(60):
        p.update_file("chain.c", text)
        p.check()
        held = p.db.memo_count()
        dropped = p.tidy()
        if held >= last + last // 10:
            assert dropped > 0
            sweeps += 1
            last = held - dropped
        else:
            assert dropped == 0 and p.db.memo_count() == held
    assert sweeps >= 3
