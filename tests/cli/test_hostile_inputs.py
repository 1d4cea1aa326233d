"""The cases of hostile input that once ended in a traceback, each run through the real entry point.

Deep JSON models, deep formulas on the command line, in ``.ctl`` files and in custom rules, deep
TOML, and a reader that closes standard output: each is a one-line message naming the input with
exit status 2, or (the pipe) a quiet end with the status a shell shows for ``cat`` in the same place.
Formulas up to the documented depth are still checked, by every strategy, and a normal form that
shares subformulas costs its DAG, not its (exponential) tree.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from checker import STRATEGIES, check
from checker.ctl import MAX_NESTING, CTLSyntaxError, normalize, parse, subformulas
from checker.rsm_json import load_rsm
from tests.cli.helpers import subprocess_env
from tests.cli.test_fuzz_cli import SHARED, run_cli

REPO = Path(__file__).resolve().parents[2]
MODEL = SHARED / "example.rsm"


def one_error_line(err: str, *needles: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "error" in lines[0]
    for n in needles:
        assert n in lines[0], lines[0]


def test_deeply_nested_json_model(tmp_path: Path) -> None:
    deep = tmp_path / "deep.rsm"
    deep.write_text("[" * 5000 + "]" * 5000)
    code, _, err = run_cli("rsm", str(deep), "E X a")
    assert code == 2
    one_error_line(err, "deep.rsm", "nested too deeply")


def test_deep_bad_value_is_shown_briefly(tmp_path: Path) -> None:
    """A wrong value deep enough to break ``repr`` is named in a bounded line."""
    bad = tmp_path / "bad.rsm"
    labels = "[" * 900 + "]" * 900
    bad.write_text(
        '{"components": [{"name": "a", "nodes": [{"name": "n", "labels": ' + labels + ', "is_entry": true}]}],'
        ' "initial_component": "a", "initial_node": "n"}'
    )
    code, _, err = run_cli("rsm", str(bad), "E X a")
    assert code == 2
    one_error_line(err, "bad.rsm", "labels")
    assert len(err) < 400


@pytest.mark.parametrize(
    "formula",
    [
        "E X " * 400 + "a",
        "(" * 2000 + "a" + ")" * 2000,
        "~" * 5000 + "a",
        " & ".join(["a"] * 5000),
        " --> ".join(["a"] * 5000),
        "A (a U " * 3000 + "b" + ")" * 3000,
    ],
    ids=["EX-400", "parens-2000", "not-5000", "and-chain-5000", "implies-chain-5000", "AU-3000"],
)
def test_deep_formula_argument(formula: str) -> None:
    code, _, err = run_cli("rsm", str(MODEL), formula)
    assert code == 2
    one_error_line(err, "formula", f"at most {MAX_NESTING} levels deep")
    assert len(err) < 300  # the formula is not echoed whole


def test_deep_formula_in_ctl_file_names_file_and_line(tmp_path: Path) -> None:
    ctl = tmp_path / "f.ctl"
    ctl.write_text("E X blue\n" + "E X " * 400 + "blue\n")
    code, _, err = run_cli("rsm", str(MODEL), str(ctl))
    assert code == 2
    one_error_line(err, "f.ctl", "line 2")


def test_chained_iff_prints_as_written() -> None:
    """``<->`` is its own operator until the normal form: printing a chain of 30 (59 levels deep as
    conjunctions of implications sharing both sides) takes its length, not 2**30."""
    code, out, err = run_cli("rsm", str(MODEL), " <-> ".join(["blue"] * 30))
    assert code == 0, err
    assert len(out.splitlines()[0]) < 400


def test_formula_too_long_for_a_file_name() -> None:
    """A long formula argument is not taken for a path (the OS refuses such a name)."""
    code, out, err = run_cli("rsm", str(MODEL), " | ".join(["blue"] * 90))
    assert code == 0, err
    assert out.split()[0] in ("true", "false")


def test_deep_custom_rule_in_check(tmp_path: Path) -> None:
    (tmp_path / "ctlsp.toml").write_text(
        '[[rules.custom]]\nid = "deep"\nmessage = "m"\nformula = "' + "E X " * 5000 + 'free"\n'
    )
    (tmp_path / "a.c").write_text("void f(void) {}\n")
    code, _, err = run_cli("check", str(tmp_path), "--no-cache", "--no-progress", "--jobs", "1")
    assert code == 2
    one_error_line(err, "ctlsp.toml:4", "deep", f"at most {MAX_NESTING} levels deep")


@pytest.mark.parametrize("name", ["ctlsp.toml", "pyproject.toml"])
def test_deep_toml(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("[tool.ctlsp]\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    (tmp_path / "a.c").write_text("void f(void) {}\n")
    code, _, err = run_cli("check", str(tmp_path), "--config", str(tmp_path / name), "--no-cache", "--jobs", "1")
    assert code == 2
    one_error_line(err, name, "nested too deeply")


@pytest.mark.parametrize(
    "argv",
    [
        ["rsm", str(MODEL), "E X blue"],
        ["check", str(REPO / "examples"), "--no-cache", "--no-progress", "--jobs", "1"],
    ],
    ids=["rsm", "check"],
)
def test_closed_output_pipe_ends_quietly(argv: list[str]) -> None:
    """The reader is gone before ctlsp writes: no traceback, the status a shell shows for a tool
    ended by SIGPIPE (128 + 13), as ``cat file | head`` gives."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", *argv],
        cwd=REPO,
        env=subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "Broken pipe" not in err and "BrokenPipe" not in err


# ----- the bound and what it keeps --------------------------------------------------------------------
def test_depth_bound_is_exact() -> None:
    parse("E X " * (MAX_NESTING - 1) + "a")
    parse("(" * (MAX_NESTING - 1) + "a" + ")" * (MAX_NESTING - 1))
    parse(" & ".join(["a"] * MAX_NESTING))
    for text in ("E X " * MAX_NESTING + "a", "(" * MAX_NESTING + "a" + ")" * MAX_NESTING,
                 " & ".join(["a"] * (MAX_NESTING + 1))):
        with pytest.raises(CTLSyntaxError, match="levels deep"):
            parse(text)


def _at_stack_depth(extra: int, fn):  # type: ignore[no-untyped-def]
    return fn() if extra == 0 else _at_stack_depth(extra - 1, fn)


@pytest.mark.parametrize(
    "text",
    [
        "E X " * (MAX_NESTING - 1) + "blue",
        "A X " * (MAX_NESTING - 1) + "blue",
        "A (blue U " * (MAX_NESTING - 2) + "red" + ")" * (MAX_NESTING - 2),
        "A (" * (MAX_NESTING - 2) + "blue" + " W red)" * (MAX_NESTING - 2),
        " <-> ".join(["blue"] * (MAX_NESTING // 2)),
        "A G (" * 30 + "blue --> A F red" + ")" * 30,
    ],
    ids=["EX", "AX", "AU-right", "AW-left", "iff", "AG-AF"],
)
def test_deepest_formulas_are_checked_by_every_strategy(text: str) -> None:
    """At the bound, with 150 frames already on the stack (a server handler's depth), every
    strategy decides the formula and forms witnesses without meeting the recursion limit."""
    model = load_rsm(MODEL)
    f = parse(text)
    verdicts = {
        _at_stack_depth(150, lambda s=s, w=w: check(model, f, s, witness=w).holds)
        for s in STRATEGIES
        for w in (False, True)
    }
    assert len(verdicts) == 1


def test_shared_normal_form_is_dag_sized() -> None:
    """``A (p U q)`` mentions ``q`` three times in normal form, so nesting to the right triples the
    tree per level; the normal form, its distinct subformulas and every pass over them stay linear."""
    k = MAX_NESTING - 2
    f = parse("A (blue U " * k + "red" + ")" * k)
    phi = normalize(f)
    assert len(subformulas(phi)) < 20 * k
    assert normalize(parse("A (blue U " * k + "red" + ")" * k)) == phi  # equality walks the DAG
    # pickled in a process with other string hashes, the formula is still found by its content here
    text = "A (blue U " * k + "red" + ")" * k
    script = (
        "import pickle, sys; from checker.ctl import parse; "
        f"sys.stdout.buffer.write(pickle.dumps(parse({text!r})))"
    )
    env = {**subprocess_env(), "PYTHONHASHSEED": "1"}
    data = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, check=True, cwd=REPO).stdout
    assert {f: "found"}.get(pickle.loads(data)) == "found"
    check(load_rsm(MODEL), f, "kb", witness=True)
