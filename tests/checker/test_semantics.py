"""The ``rsmcheck`` convention (checker/semantics.py) against the exact one and the published table.

Under the exact semantics four published verdicts are contradicted (see test_benchmarks.py); read
under the published tool's convention for calls into a callee entry that is also an exit, all six
published verdicts come out, by every strategy and by the independent use-def oracle.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checker import STRATEGIES, check
from checker.model import RSM, Box, Component, Node, build_rsm
from checker.rsm_json import load_ctl, load_rsm
from checker.semantics import DEAD_END_SUFFIX, apply_semantics, dead_end_calls, rsmcheck_view
from tests.checker.conftest import bench_file
from tests.checker.oracle import UseDefOracle
from tests.checker.test_benchmarks import BIG, PUBLISHED
from tests.checker.usedef import usedef_shape

ROOT = Path(__file__).resolve().parents[2]
USEDEF = "A G ( ( def ) --> E F ( use ) )"


def _empty_call_model() -> RSM:
    """main: i -> d{def} -> call of an empty method (entry = exit) -> u{use} -> x (exit)."""
    empty = Component("empty", (Node("e", frozenset({"e"}), is_entry=True, is_exit=True),))
    main = Component(
        "main",
        (
            Node("i", is_entry=True),
            Node("d", frozenset({"def"})),
            Node("u", frozenset({"use"})),
            Node("x", is_exit=True),
        ),
        (Box("b", "empty", ("e",), ("e",)),),
        (("i", "d"), ("d", ("b", "e")), (("b", "e"), "u"), ("u", "x")),
    )
    return build_rsm([empty, main], "main", "i")


def test_dead_end_calls_lists_calls_into_entry_exit_nodes() -> None:
    assert dead_end_calls(_empty_call_model()) == [("main", "b", "e")]


def test_exact_semantics_returns_from_an_empty_call() -> None:
    model = _empty_call_model()
    assert all(check(model, USEDEF, s).holds for s in STRATEGIES)
    assert check(model, "E F use").holds


def test_rsmcheck_semantics_stops_at_an_empty_call() -> None:
    view = rsmcheck_view(_empty_call_model())
    assert not any(check(view, USEDEF, s).holds for s in STRATEGIES)
    assert not check(view, "E F use").holds
    # the dead end keeps the callee entry's labels and, as a sink, satisfies E G of them
    assert check(view, "E F ( e & E G e )").holds
    sink = view.component("main").node(f"b:e{DEAD_END_SUFFIX}")
    assert sink.labels == frozenset({"e"}) and not sink.is_exit
    assert UseDefOracle(view).check(frozenset({"def"}), frozenset({"use"}))[0] is False


def test_apply_semantics_names() -> None:
    model = _empty_call_model()
    assert apply_semantics(model, "exact") is model
    assert apply_semantics(model, "rsmcheck") != model
    with pytest.raises(ValueError, match="unknown semantics"):
        apply_semantics(model, "other")


def test_fresh_sink_name_avoids_existing_nodes() -> None:
    model = _empty_call_model()
    main = model.component("main")
    clash = Node(f"b:e{DEAD_END_SUFFIX}")
    crowded = Component(main.name, (*main.nodes, clash), main.boxes, main.edges)
    view = rsmcheck_view(build_rsm([model.component("empty"), crowded], "main", "i"))
    names = [n.name for n in view.component("main").nodes]
    assert len(names) == len(set(names)) and f"b:e{DEAD_END_SUFFIX}2" in names


@pytest.mark.parametrize(
    ("rsm", "ctls"),
    [
        ("example.rsm", ["example.ctl"]),
        ("simple.rsm", ["simple_eg.ctl", "simple_eu.ctl"]),
        ("test.rsm", ["test.ctl", "test_globally.ctl", "test_local.ctl", "test_until.ctl"]),
    ],
)
def test_small_models_are_unchanged(rsm: str, ctls: list[str]) -> None:
    """They have no dead-end calls, so the view is the model itself and every verdict stays."""
    model = load_rsm(bench_file(rsm))
    assert rsmcheck_view(model) is model
    for name in ctls:
        for _, f in load_ctl(bench_file(name)):
            assert check(apply_semantics(model, "rsmcheck"), f).holds is check(model, f).holds


def _params() -> list[object]:
    return [pytest.param(n, marks=[pytest.mark.slow] if n in BIG else [], id=n) for n in PUBLISHED]


@pytest.mark.slow
@pytest.mark.parametrize("name", _params())
def test_rsmcheck_semantics_reproduces_published_verdict(name: str) -> None:
    path = bench_file(f"{name}.zip")
    view = rsmcheck_view(load_rsm(path))
    formula = load_ctl(path)[0][1]
    shape = usedef_shape(formula)
    assert shape is not None
    assert UseDefOracle(view).check(*shape)[0] is PUBLISHED[name]
    verdicts = {s: check(view, formula, s).holds for s in STRATEGIES}
    verdicts["lazy, unreduced"] = check(view, formula, "lazy", reduce=False).holds
    assert set(verdicts.values()) == {PUBLISHED[name]}, verdicts


def test_dataflow_rsmcheck_counterexample_ends_at_the_empty_call() -> None:
    """Under the tool's convention main's own def of i is the unused one: a() never returns."""
    path = bench_file("dataflow.zip")
    view = rsmcheck_view(load_rsm(path))
    result = check(view, load_ctl(path)[0][1], "lazy", witness=True)
    assert not result.holds and result.witness_kind == "counterexample" and result.witness is not None
    assert [s.node for s in result.witness][-1] == "cpL_examples_Dataflow__main_ALjava_lang_String_V__11_0"


def test_cli_semantics_flag() -> None:
    def run(*extra: str) -> dict[str, Any]:
        p = subprocess.run(
            [sys.executable, "-m", "server", "rsm", str(bench_file("avroraReg.zip")), "--json", *extra],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert p.returncode == 0, p.stderr
        doc: dict[str, Any] = json.loads(p.stdout)
        return doc

    exact, tool = run(), run("--semantics", "rsmcheck")
    assert exact["semantics"] == "exact" and tool["semantics"] == "rsmcheck"
    assert [r["holds"] for r in exact["results"]] == [False]
    assert [r["holds"] for r in tool["results"]] == [True]
