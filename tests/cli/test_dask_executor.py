"""``--executor dask``: the same work units on a Dask cluster (a ``LocalCluster`` of two worker processes
here) give the one-process findings and witnesses, and survive a worker killed mid-run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import distributed  # in the test extra: a missing install fails here rather than skipping
import pytest

from extractors.api import Config, Finding, Project
from server.check_runner import RunResult, run_check
from server.progress import Done
from server.workspace import collect, read_sources
from tests.cli.c_project import write_project
from tests.cli.helpers import REPO, run_inproc, subprocess_env

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.LocalCluster]:
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as c:
        yield c


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("dask") / "proj")


def _run(root: Path, **kw: object) -> RunResult:
    sources, _ = read_sources(collect([str(root)]))
    return run_check(Config(), sources, cache=None, cache_root=None, **kw)


def _witnesses(found: dict[str, list[Finding]]) -> dict[str, list[tuple[object, ...]]]:
    return {p: [f.witness for f in fs] for p, fs in found.items()}


def test_a_cluster_gives_the_one_process_findings_and_witnesses(
    tree: Path, cluster: distributed.LocalCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    serial = _run(tree, jobs=1)
    remote = _run(tree, jobs=1, executor="dask", scheduler=cluster.scheduler_address, unit_target=60)
    assert remote.units > 5 and remote.workers == 2 and remote.problems == []
    assert remote.findings == serial.findings
    assert _witnesses(remote.findings) == _witnesses(serial.findings)
    assert sum(map(len, remote.findings.values())) > 50
    # and through the command, with a cache folder the workers share
    cache = tree.parent / "cache"
    one = run_inproc(capsys, str(tree), "--format", "json", "--no-cache", "--jobs", "1")
    argv = ["--format", "json", "--cache-dir", str(cache), "--executor", "dask", "--scheduler"]
    via = run_inproc(capsys, str(tree), *argv, cluster.scheduler_address)
    assert via.code == 1 and via.json()["findings"] == one.json()["findings"]
    assert len(list(cache.rglob("*"))) > 10  # verdicts and file findings written there
    again = run_inproc(capsys, str(tree), *argv, cluster.scheduler_address)
    assert again.json()["summary"]["files_reused"] == 3 and again.json()["findings"] == one.json()["findings"]


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(
    tmp_path: Path, cluster: distributed.LocalCluster
) -> None:
    tree = write_project(tmp_path / "other", n=150)  # a project the workers do not hold yet
    serial = _run(tree, jobs=1)
    killed: list[tuple[int, int]] = []  # (pid, units it was running)

    def on_progress(done: Done) -> None:
        if killed:
            return
        client = distributed.default_client()  # the run's own client
        busy = {w: len(keys) for w, keys in client.processing().items() if keys}
        if busy:  # the first unit is in: kill a worker that has work
            address = max(busy, key=busy.__getitem__)
            pid = client.run(os.getpid, workers=[address])[address]
            os.kill(pid, signal.SIGKILL)
            killed.append((pid, busy[address]))

    remote = _run(
        tree, jobs=1, executor="dask", scheduler=cluster.scheduler_address, unit_target=20, on_progress=on_progress
    )
    with distributed.Client(cluster.scheduler_address) as client:
        client.wait_for_workers(2, timeout=30)  # the nanny restarted it
        after = client.run(os.getpid)
    assert killed and killed[0][1] > 0
    assert killed[0][0] not in after.values()
    assert remote.problems == [] and remote.files_checked == 3
    assert remote.findings == serial.findings
    assert _witnesses(remote.findings) == _witnesses(serial.findings)
    for found in remote.findings.values():
        keys = [(f.rule_id, f.location) for f in found]
        assert len(keys) == len(set(keys))


def test_a_worker_keeps_one_project_per_payload(tree: Path, tmp_path: Path) -> None:
    """A worker adopts the client's project on its first unit and keeps it for the next units of the
    same payload; a payload of other texts replaces it; a unit gives what a project adopted for it
    alone gives."""
    import gc

    from server import dask_executor
    from server.check_runner import (
        ONE_SHOT_STRATEGY,
        Payload,
        build_project,
        check_unit,
        hand_in_headers,
        payload_of,
    )
    from server.work_units import plan, target_size

    def payload(root: Path) -> tuple[Payload, list[tuple[str, ...]]]:
        sources, _ = read_sources(collect([str(root)]))
        client = Project(Config(), strategy=ONE_SHOT_STRATEGY, sweeps=False)
        for path, text in sources.items():
            client.update_file(path, text)
        texts = hand_in_headers(client, sources)
        graph = client.call_graph()
        units = plan(graph, set(sources), target_size(graph, 2))
        return payload_of(client, texts), [u.functions for u in units]

    first, units = payload(tree)
    other, _ = payload(write_project(tmp_path / "other", n=8))
    try:
        one = dask_executor._check_on_worker(first, None, units[0])
        held = dask_executor._HELD
        two = dask_executor._check_on_worker(first, None, units[1])
        assert held is not None and dask_executor._HELD is held
        dask_executor._check_on_worker(other, None, units[0])
        assert dask_executor._HELD is not held
    finally:
        dask_executor._HELD = None
        gc.unfreeze()
    alone = build_project(first, None)
    gc.unfreeze()
    assert one.found == check_unit(alone, units[0]).found and sum(map(len, one.found.values())) > 0
    assert two.found == check_unit(alone, units[1]).found


def test_a_local_cluster_forks_its_workers_from_a_server_process(tree: Path) -> None:
    """Without ``--scheduler`` the cluster is started here, its workers forked from a server process
    that imported ctlsp (not spawned by this one, each importing it again), which do not profile
    the units they run, and gives the one-process findings."""
    parents: list[set[int]] = []
    profiling: list[set[object]] = []

    def on_progress(done: Done) -> None:
        if not parents:
            client = distributed.default_client()
            parents.append(set(client.run(os.getppid).values()))
            profiling.append(set(client.run(_profiling).values()))

    serial = _run(tree, jobs=1)
    local = _run(tree, jobs=2, executor="dask", unit_target=60, on_progress=on_progress)
    assert local.workers == 2 and local.problems == [] and local.findings == serial.findings
    assert parents and len(parents[0]) == 1 and os.getpid() not in parents[0]
    assert profiling == [{False}]


def _profiling() -> object:
    """On a worker: whether it samples the stacks of the tasks it runs (Dask's default: yes)."""
    import dask

    return dask.config.get("distributed.worker.profile.enabled")


def test_without_dask_the_executor_is_a_usage_error(tree: Path) -> None:
    code = (
        "import sys; sys.modules['distributed'] = None\n"  # as if it were not installed
        "from server.cli_check import main\n"
        f"raise SystemExit(main([{str(tree)!r}, '--no-cache', '--executor', 'dask']))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=subprocess_env(), capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == "ctlsp: error: --executor dask needs Dask distributed: pip install 'ctlsp[dask]'"


def test_an_unreachable_scheduler_is_reported_after_extraction_and_leaves_no_thread(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection is made while the client extracts; its failure is the user's one-line error."""
    import socket
    import threading

    from server import dask_executor

    monkeypatch.setattr(dask_executor, "CONNECT_TIMEOUT", 2)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    with pytest.raises(dask_executor.DaskUnavailable, match=f"cannot reach the Dask scheduler at {address}"):
        _run(tree, jobs=2, executor="dask", scheduler=address)
    assert not [t for t in threading.enumerate() if t.name == "ctlsp-dask-connect"]
