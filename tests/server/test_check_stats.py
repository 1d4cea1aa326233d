"""``ctlsp check --stats`` says where the checking's time went: extraction, projection, model checking
and refutation, measured on the workers and summed over them, so that with ``-j2``, file by file and
on a Dask cluster the phases add up to no more than the time they split.  No test asserts a
wall-clock duration: only names, signs and sums."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from extractors.api import Config
from extractors.phase_clock import PHASES
from server.check_runner import RunResult, run_check
from server.workspace import collect, read_sources
from tests.cli.c_project import write_project
from tests.cli.helpers import run_inproc

SPLIT = [*PHASES, "other"]
ROUNDING = 0.005 * (len(SPLIT) + 1)  # each printed value is rounded to 1/100 s


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("stats") / "proj", n=12)


def _time_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("ctlsp: time: ")]
    assert len(lines) == 1, err
    return lines[0]


def _split(text: str) -> dict[str, float]:
    """``projection 0.12s, model checking 0.30s, ...`` as a dict, in the order printed."""
    parts = [re.fullmatch(r"([a-z ]+) (\d+\.\d\d)s", p.strip()) for p in text.split(",")]
    assert all(parts), text
    return {m.group(1): float(m.group(2)) for m in parts if m}


def _assert_adds_up(split: dict[str, float], total: float) -> None:
    assert list(split) == SPLIT
    assert all(s >= 0 for s in split.values())
    assert sum(split[p] for p in PHASES) <= total + ROUNDING
    assert sum(split.values()) == pytest.approx(total, abs=ROUNDING)


def test_stats_split_the_units_time_into_phases(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = run_inproc(capsys, str(tree), "--no-cache", "--stats", "-j2")
    assert run.code == 1  # the project has bugs
    line = _time_line(run.err)
    m = re.search(r"; (\d+) units, (\d+\.\d\d)s on 2 workers \(([^)]*)\)", line)
    assert m is not None, line
    assert int(m.group(1)) > 1
    _assert_adds_up(_split(m.group(3)), float(m.group(2)))


def test_stats_split_the_checking_in_one_process(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = run_inproc(capsys, str(tree), "--no-cache", "--stats", "-j1")
    line = _time_line(run.err)
    m = re.search(r"checking (\d+\.\d\d)s; checking: ([^;]*)", line)
    assert m is not None, line
    split = _split(m.group(2))
    _assert_adds_up(split, sum(split.values()))
    assert sum(split.values()) <= float(m.group(1)) + ROUNDING  # part of the checking's wall clock


def _assert_result_adds_up(result: RunResult) -> None:
    assert result.units > 1 and result.problems == []
    assert result.check_seconds == pytest.approx(result.unit_seconds)
    assert set(result.check_phases) == set(PHASES)
    assert all(s >= 0 for s in result.check_phases.values())
    assert sum(result.check_phases.values()) <= result.check_seconds
    assert result.check_phases["model checking"] > 0  # measured on the workers and sent back


def test_phases_come_back_from_a_process_pool(tree: Path) -> None:
    sources, _ = read_sources(collect([str(tree)]))
    _assert_result_adds_up(run_check(Config(), sources, cache=None, cache_root=None, jobs=2))


@pytest.mark.slow
def test_phases_come_back_from_a_dask_cluster(tree: Path) -> None:
    pytest.importorskip("distributed")
    sources, _ = read_sources(collect([str(tree)]))
    result = run_check(Config(), sources, cache=None, cache_root=None, jobs=2, executor="dask", unit_target=60)
    _assert_result_adds_up(result)
