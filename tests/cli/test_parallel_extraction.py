"""Extraction on several cores (``server.parallel_extraction``): models built by a forked copy of
the project and handed back give the project, the findings and the witnesses of building them all
in one process; a model built in another context is never taken."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

from checker.querydb import Cancelled
from extractors.api import Config, Finding, Project
from server import parallel_extraction
from server.parallel_extraction import deal, extract_in_parallel, fork_workers
from server.workspace import collect, read_sources
from tests.cli.c_project import write_project


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("parx") / "proj")


def _project(root: Path, config: Config | None = None) -> Project:
    sources, problems = read_sources(collect([str(root)]))
    assert not problems
    project = Project(config or Config(), strategy="lazy")
    for path, text in sources.items():
        project.update_file(path, text)
    return project


def _witnesses(found: dict[str, list[Finding]]) -> dict[str, list[tuple[object, ...]]]:
    return {p: [f.witness for f in fs] for p, fs in found.items()}


def test_shares_cover_every_function_once_and_weigh_about_the_same(tree: Path) -> None:
    keys = _project(tree).model_keys()
    assert len(keys) > 40
    shares = deal(keys, 3)
    assert sorted(k for s in shares for k in s) == sorted(keys)
    weights = sorted(sum(len(k[2]) for k in s) for s in shares)
    assert weights[-1] - weights[0] <= max(len(k[2]) for k in keys)


@pytest.mark.skipif(not fork_workers(), reason="parallel extraction forks")
def test_models_built_by_a_forked_copy_give_the_same_project(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel_extraction, "MIN_FUNCTIONS", 1)
    alone = _project(tree)
    together = _project(tree)
    assert extract_in_parallel(together, 2) == []
    assert together.db.handed  # the child's share came back ...
    graph = together.call_graph()
    assert not together.db.handed  # ... and every model of it was taken
    assert graph == alone.call_graph()
    assert together.counters["functions_extracted"] == alone.counters["functions_extracted"] == len(graph)
    assert together.counters["functions_reused"] == 0  # built ahead for this check, not reused
    expected = alone.check()
    got = together.check()
    assert sum(map(len, expected.values())) > 50
    assert got == expected and _witnesses(got) == _witnesses(expected)


def test_a_model_built_in_another_context_is_not_taken(tree: Path) -> None:
    """Another project whose configuration defines a macro builds every model under another key:
    handed in, none of them is used, and the project builds its own."""
    elsewhere = _project(tree, Config(defines=(("NDEBUG", None),)))
    here = _project(tree)
    keys = here.model_keys()
    built = elsewhere.build_models(keys)
    own = _project(tree).build_models(keys)
    assert {k for _, _, k, _ in built}.isdisjoint(k for _, _, k, _ in own)
    here.hand_models(built)
    graph = here.call_graph()
    assert len(here.db.handed) == len(built)  # none taken
    assert graph == _project(tree).call_graph()
    assert here.check() == _project(tree).check()


@pytest.mark.skipif(not fork_workers(), reason="parallel extraction forks")
def test_a_write_cancels_the_build_here_and_nothing_is_handed(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that comes while the models are built (an edit in the language server) cancels this
    process's share at its next query: the cancellation reaches the caller, the children are told
    to stop, none of their models is handed in, and the project checks as before."""
    monkeypatch.setattr(parallel_extraction, "MIN_FUNCTIONS", 1)
    project = _project(tree)
    parent, real = os.getpid(), project.build_models

    def build(keys: Any) -> Any:
        if os.getpid() == parent:
            raise Cancelled("a write is pending")
        return real(keys)

    monkeypatch.setattr(project, "build_models", build)
    with pytest.raises(Cancelled):
        extract_in_parallel(project, 2)
    assert parallel_extraction._STOP is None and parallel_extraction._PROJECT is None
    assert not project.db.handed
    monkeypatch.undo()
    assert project.check() == _project(tree).check()


def _build_in_a_daemon(root: str, conn: Any) -> None:
    parallel_extraction.MIN_FUNCTIONS = 1  # a forked copy of the test process: its own module
    try:
        project = _project(Path(root))
        problems = extract_in_parallel(project, 2)
        conn.send((problems, len(project.db.handed)))
    except BaseException as e:  # said, so that the test fails at once with the reason
        conn.send(([repr(e)], 0))


@pytest.mark.skipif(not fork_workers(), reason="parallel extraction forks")
def test_a_daemonic_process_builds_on_several_cores_too(tree: Path) -> None:
    """The language server's checker process is daemonic (it ends with the server), which
    multiprocessing refuses children to: the builders fork all the same."""
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe()
    process = context.Process(target=_build_in_a_daemon, args=(str(tree), there), daemon=True)
    process.start()
    try:
        assert here.poll(120), "the daemonic process answered nothing"
        problems, handed = here.recv()
    finally:
        process.join(30)
    assert problems == [] and handed > 0
