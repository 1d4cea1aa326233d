"""Work units (``server.work_units``): functions cut along the call graph, checked on a process pool,
give exactly the findings and witnesses of the one-process run, file by file, and fill the cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.api import Config, Finding, Project
from server.check_runner import RunResult, check_unit, run_check
from server.disk_cache import DiskCache
from server.work_units import Assembly, plan
from server.workspace import collect, read_sources
from tests.cli.c_project import write_project
from tests.cli.helpers import run_inproc


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("units") / "proj")


def _sources(root: Path) -> dict[str, str]:
    sources, problems = read_sources(collect([str(root)]))
    assert not problems
    return sources


def _run(root: Path, jobs: int, target: int | None = None, cache: Path | None = None) -> RunResult:
    disk = DiskCache(cache) if cache is not None else None
    return run_check(
        Config(), _sources(root), cache=disk, cache_root=str(cache) if cache else None, jobs=jobs, unit_target=target
    )


def _witnesses(found: dict[str, list[Finding]]) -> dict[str, list[tuple[object, ...]]]:
    return {p: [f.witness for f in fs] for p, fs in found.items()}


def _project(root: Path) -> Project:
    project = Project(Config(), strategy="lazy")
    for path, text in _sources(root).items():
        project.update_file(path, text)
    return project


def test_plan_covers_every_function_once_and_keeps_cycles_whole(tree: Path) -> None:
    project = _project(tree)
    graph = project.call_graph()
    files = {n.path for n in graph}
    units = plan(graph, files, target=40)
    placed = [i for u in units for i in u.functions]
    assert sorted(placed) == sorted(n.ident for n in graph)  # each exactly once
    util = str(tree / "util.c")
    pair = {f"{util}:walk_odd", f"{util}:walk_even"}
    one_each = plan(graph, files, target=1)  # a unit per strongly connected part
    assert sorted(len(u.functions) for u in one_each)[-2:] == [1, 2]
    assert any(set(u.functions) == pair for u in one_each)  # a recursive pair is never split
    unit_of = {i: u.number for u in units for i in u.functions}
    big = str(tree / "big.c")
    assert len({unit_of[n.ident] for n in graph if n.path == big}) > 5  # the big file is split
    assert [u.size for u in units] == sorted((u.size for u in units), reverse=True)  # biggest first
    only_big = plan(graph, {big}, target=40)
    assert {i.rsplit(":", 1)[0] for u in only_big for i in u.functions} == {big}


def test_assembly_completes_a_file_only_with_all_its_functions(tree: Path) -> None:
    project = _project(tree)
    graph = project.call_graph()
    paths = sorted({n.path for n in graph})
    units = plan(graph, set(paths), target=40)
    assembly = Assembly(graph, paths, project.assemble)
    got: dict[str, list[Finding]] = {}
    for u in reversed(units):  # smallest first: any order must do
        done = assembly.add(project.check_functions(u.functions))
        assert not set(done) & set(got)  # a file comes once
        got.update(done)
        assert assembly.add(project.check_functions(u.functions)) == {}  # a unit run twice adds nothing
    expected = project.check()
    assert got == expected and _witnesses(got) == _witnesses(expected)


def test_a_worker_that_forgets_between_units_assembles_the_same_findings(tree: Path) -> None:
    """A worker drops its projector after each unit and may keep nothing checks add (a zero bound
    evicts each projection, model and verdict as soon as it is stored): the units still assemble
    exactly what one check of the whole project finds, witnesses included."""
    worker = _project(tree)
    graph = worker.call_graph()
    worker.bound_checks(0)
    extracted = worker.counters["functions_extracted"]
    paths = sorted({n.path for n in graph})
    units = plan(graph, set(paths), target=40)
    assembly = Assembly(graph, paths, worker.assemble)
    got: dict[str, list[Finding]] = {}
    for u in units:
        out = check_unit(worker, u.functions)
        got.update(assembly.add({i: [Finding.from_dict(d) for d in ds] for i, ds in out.found.items()}))
    # a new projector per unit at least (a zero bound keeps not even the unit's own between reads)
    assert worker.db.counters()["projector"].executed >= len(units)
    assert worker.db.counters()["projection"].evicted > 0
    assert worker.counters["functions_extracted"] == extracted  # the models stay: none built again
    expected = _project(tree).check()
    assert sum(map(len, expected.values())) > 50
    assert got == expected and _witnesses(got) == _witnesses(expected)


def test_a_worker_keeps_nothing_only_an_edit_would_read(tree: Path) -> None:
    """A batch worker's texts never change: it makes no value records and stores no values' own
    bounds, which a check of edited texts reads again; a project that is no worker keeps both."""
    worker, editor = _project(tree), _project(tree)
    worker.call_graph()
    worker.bound_checks(10**9)
    for project in (worker, editor):
        project.check_functions(tuple(n.ident for n in project.call_graph()))
    for table in ("value_record", "own_bound"):
        assert worker.db.counters()[table].executed == 0
        assert editor.db.counters()[table].executed > 0


def test_a_bound_for_checks_never_raises_the_configured_one(tree: Path) -> None:
    project = Project(Config(), max_weight=50_000)
    for path, text in _sources(tree).items():
        project.update_file(path, text)
    project.call_graph()
    held = project.db.weight
    project.bound_checks(10**9)  # what is held now is pinned: the rest may have the bound's remainder
    assert project.db.weight == 0 and project.db.max_weight == 50_000 - held
    project.bound_checks(100)
    assert project.db.max_weight == 100


def test_units_on_two_processes_give_the_one_process_findings_and_witnesses(tree: Path) -> None:
    serial = _run(tree, jobs=1)
    pooled = _run(tree, jobs=2, target=60)
    assert (serial.units, serial.workers) == (0, 1)
    assert pooled.units > 5 and pooled.workers == 2
    assert sum(map(len, serial.findings.values())) > 50
    assert pooled.findings == serial.findings
    assert _witnesses(pooled.findings) == _witnesses(serial.findings)
    assert any(  # witnesses enter callees in another file
        st.location.path.endswith("util.c") for fs in serial.findings.values() for f in fs for st in f.witness
    )
    assert (pooled.files_checked, pooled.problems) == (3, [])


def test_units_in_one_process_give_the_file_by_file_findings_and_witnesses(tree: Path) -> None:
    """A large check in one process runs in units, for their memory bound: the same findings."""
    serial = _run(tree, jobs=1)
    units = run_check(
        Config(), _sources(tree), cache=None, cache_root=None, jobs=1, unit_target=60, serial_units_min_lines=0
    )
    assert units.units > 5 and units.workers == 1 and serial.units == 0
    assert units.findings == serial.findings
    assert _witnesses(units.findings) == _witnesses(serial.findings)
    assert (units.files_checked, units.problems) == (3, [])
    assert units.counters["checks_run"] >= serial.counters["checks_run"] > 0


def test_units_fill_the_file_cache_that_the_next_run_reads(tree: Path, tmp_path: Path) -> None:
    first = _run(tree, jobs=2, target=60, cache=tmp_path / "cache")
    again = _run(tree, jobs=2, target=60, cache=tmp_path / "cache")
    assert first.units > 5 and (again.files_reused, again.files_checked, again.units) == (3, 0, 0)
    assert again.findings == first.findings and _witnesses(again.findings) == _witnesses(first.findings)


def test_stats_name_the_phases_and_units(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_inproc(capsys, str(tree), "--no-cache", "--jobs", "2", "--stats")
    time_line = [ln for ln in r.err.splitlines() if ln.startswith("ctlsp: time: ")]
    assert len(time_line) == 1
    assert "extraction" in time_line[0] and "checking" in time_line[0] and "units" in time_line[0]
    assert r.err.strip().splitlines()[-1].startswith("ctlsp: ")  # the summary stays last
