"""``ctlsp rsm`` run as a real subprocess: verdict lines, statistics, witnesses, JSON and errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.checker.conftest import bench_file

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "rsm", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_ctl_file_prints_one_line_per_formula_and_statistics() -> None:
    p = _run(str(bench_file("example.rsm")), str(bench_file("example.ctl")))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    verdicts = [line.split()[0] for line in lines[:-1]]
    assert verdicts == ["true", "true", "false", "true"]
    assert "E X (E G (blue))" in lines[0]
    assert lines[-1].startswith("4 formula(s), 3 true; contexts built ") and "time " in lines[-1]


@pytest.mark.parametrize("strategy", ["lazy", "exhaustive", "kb"])
def test_single_formula_and_strategy(strategy: str) -> None:
    p = _run(str(bench_file("test.rsm")), "E G a", "--strategy", strategy)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0].split() == ["true", "E", "G", "(a)"]


def test_witness_shows_stack_and_loop() -> None:
    p = _run(str(bench_file("example.rsm")), "E X E G blue", "--witness")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "witness:" in out and "[a1.b] a2/n6" in out and "<- loop starts" in out


def test_counterexample_for_false_universal() -> None:
    p = _run(str(bench_file("example.rsm")), "A F black", "--witness")
    assert p.stdout.startswith("false") and "counterexample:" in p.stdout


def test_json_output_for_zip_default_formulas() -> None:
    p = _run(str(bench_file("dataflow.zip")), "--json", "--witness")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["strategy"] == "lazy" and len(doc["results"]) == 1
    row = doc["results"][0]
    assert row["holds"] is False and row["contexts"] >= 1 and row["witness_kind"] == "counterexample"
    assert row["witness"][0]["stack"] == [] and all(
        {"component", "node", "stack"} <= s.keys() for s in row["witness"]
    )


def test_zip_usedef_member() -> None:
    p = _run(str(bench_file("dataflow.zip")), "--zip-formulas", "usedef", "--json")
    assert [r["holds"] for r in json.loads(p.stdout)["results"]] == [True, True, False]


@pytest.mark.slow
def test_jobs_give_the_same_verdicts_in_formula_order() -> None:
    one = _run(str(bench_file("avroraReg.zip")), "--zip-formulas", "usedef", "--json")
    two = _run(
        str(bench_file("avroraReg.zip")), "--zip-formulas", "usedef", "--json", "--jobs", "2", "--no-reduce"
    )
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr

    def verdicts(p: subprocess.CompletedProcess[str]) -> list[tuple[int, str, bool]]:
        return [(r["line"], r["formula"], r["holds"]) for r in json.loads(p.stdout)["results"]]

    assert len(verdicts(one)) > 400 and verdicts(one) == verdicts(two)
    contexts = [sum(r["contexts"] for r in json.loads(p.stdout)["results"]) for p in (one, two)]
    assert contexts[0] * 5 < contexts[1], "collapsing atom-free callees should spare most contexts"
    assert not all(h for _, _, h in verdicts(one)) and any(h for _, _, h in verdicts(one))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.rsm", "p"], "cannot read"),
        (["{model}", "A G ("], "column 6: expected a formula"),
        (["{model}", "nope.ctl"], "nope.ctl: no such formula file"),
        (["{model}"], "no FORMULAS given"),
        (["{bad}", "p"], "not valid JSON"),
        (["{badctl}", "p"], "line 2"),
        (["{model}", "p", "--jobs", "0"], "--jobs must be at least 1"),
        (["{model}", "p", "--jobs", "2", "--strategy", "kb"], "--jobs needs"),
    ],
)
def test_errors_are_one_line_with_exit_code_2(tmp_path: Path, args: list[str], message: str) -> None:
    bad = tmp_path / "bad.rsm"
    bad.write_text("{")
    badctl = tmp_path / "bad.ctl"
    badctl.write_text("A G p\nE (\n")
    subs = {"{model}": str(bench_file("example.rsm")), "{bad}": str(bad), "{badctl}": str(badctl)}
    argv = [subs.get(a, a) for a in args]
    if args[0] == "{badctl}":
        argv = [subs["{model}"], str(badctl)]
    p = _run(*argv)
    assert p.returncode == 2
    assert p.stdout == ""
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ctlsp rsm: error:") and message in err[0], p.stderr
