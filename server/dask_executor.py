"""Work units on a Dask cluster: ``ctlsp check --executor dask [--scheduler tcp://HOST:PORT]``.

The client (:mod:`server.check_runner`) extracts the project, computes the call graph and the units
(cheap); this module ships them.  The connection (and a local cluster) is made in a background thread
while the client extracts.  What goes over the network: the :class:`~server.check_runner.Payload`
(the configuration and the client's extracted project, pickled: the source texts, the texts of
the headers and compile flags it read, each file's items and every function's model, so that a
worker parses nothing and builds no model) to the scheduler, as the argument of a task returning
it, and from there once to each worker (replicated before the units start, so that no worker looks
closer to them; a worker that joins later fetches it from a peer; a task's result, unlike
scattered data, is computed again if every worker holding it dies), each unit's function ids, and
back the units' findings as dicts with their counters.  No worker reads a file of the checked tree,
so workers need only ctlsp installed (``pip install 'ctlsp[dask]'``) and, to share verdicts, the
``--cache-dir`` folder on a shared file system (each worker opens it as its on-disk cache; entries
are content-addressed and written atomically, so concurrent writers are safe).

A worker process adopts the client's project on its first unit and keeps it for the next units of
the same payload and cache folder (one project per process; a new one replaces it).  Failures are
Dask's to handle: a unit that raises is retried (:data:`RETRIES`), a unit whose worker dies is
rescheduled by the scheduler; a unit that still fails is an outcome carrying the exception, which
the runner reports as a problem.  Each unit is one future, whose result is taken once: a unit that
ran twice is still counted once.
"""

from __future__ import annotations

import gc
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from extractors.api import Project
from server.check_runner import Outcome, Payload, UnitOutput, build_project, check_unit, tool_digest
from server.work_units import Unit

RETRIES = 2  # a unit that raised is tried this many more times before it is reported
CONNECT_TIMEOUT = 30  # seconds to reach the scheduler and see a first worker
INSTALL_HINT = "--executor dask needs Dask distributed: pip install 'ctlsp[dask]'"


class DaskUnavailable(Exception):
    """Dask is not installed, or the scheduler cannot be reached: a one-line message for the user."""


# ----- worker side -------------------------------------------------------------------------------
@dataclass
class _Held:
    """This process's project, by payload and cache folder."""

    key: tuple[str, str | None]
    project: Project


_HELD: _Held | None = None
_LOCK = threading.Lock()  # a Project is used by one thread at a time (workers with several threads)


def _held(payload: Payload, cache_root: str | None) -> Project:
    """The held project of ``payload``, built if another one (or none) is held. Call under _LOCK."""
    global _HELD
    if payload.tool != tool_digest():
        raise RuntimeError(f"worker runs another ctlsp (code digest {tool_digest()}, client {payload.tool})")
    key = (payload.digest, cache_root)
    if _HELD is None or _HELD.key != key:
        _HELD = None  # the old project goes before the new one is built
        gc.unfreeze()  # (build_project froze it)
        _HELD = _Held(key, build_project(payload, cache_root))
    return _HELD.project


def _check_on_worker(payload: Payload, cache_root: str | None, functions: tuple[str, ...]) -> UnitOutput:
    with _LOCK:
        return check_unit(_held(payload, cache_root), functions)


def _payload(payload: Payload) -> Payload:
    return payload


# ----- client side -------------------------------------------------------------------------------
@dataclass
class DaskSession:
    client: Any  # distributed.Client
    payload: Any  # the scattered payload's future
    cache_root: str | None
    workers: int
    run_id: str

    def run(self, units: list[Unit]) -> Iterator[Outcome]:
        """Each unit's outcome as it finishes: its output, or the exception it failed with after
        Dask's retries (a worker that died too often is ``KilledWorker``)."""
        from distributed import as_completed

        futures = {
            self.client.submit(
                _check_on_worker,
                self.payload,
                self.cache_root,
                u.functions,
                key=f"ctlsp-unit-{self.run_id}-{u.number}",
                retries=RETRIES,
                pure=False,
                priority=len(units) - u.number,  # biggest first
            ): u
            for u in units
        }
        for fut in as_completed(list(futures)):
            unit = futures[fut]
            outcome: UnitOutput | BaseException
            try:
                outcome = fut.result()
            except Exception as e:
                outcome = e
            fut.release()
            yield unit, outcome


def dask_installed() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


class Connection:
    """A client of a scheduler (and the ``LocalCluster`` it runs, when none was given), made in a
    background thread: starting a cluster takes seconds (processes, imports), which the client's
    own extraction meanwhile covers.  ``scheduler`` empty: a ``LocalCluster`` of ``local_workers``
    processes of one thread each, started here.  :meth:`client` waits for it; :meth:`close` (or
    leaving the ``with`` block) stops both."""

    def __init__(self, scheduler: str, local_workers: int) -> None:
        if not dask_installed():
            raise DaskUnavailable(INSTALL_HINT)
        import dask

        # the payload (sources and models) is big on purpose and sent once per worker: no warning
        dask.config.set({"distributed.admin.large-graph-warning-threshold": "1TB"})
        self._cluster: Any = None
        self._client: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._connect, args=(scheduler, local_workers), name="ctlsp-dask-connect", daemon=True
        )
        self._thread.start()

    def _connect(self, scheduler: str, local_workers: int) -> None:
        from distributed import Client

        try:
            if not scheduler:
                self._cluster = _local_cluster(local_workers)
                scheduler = self._cluster.scheduler_address
            try:
                self._client = Client(scheduler, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as e:
                raise DaskUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
            try:
                self._client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except TimeoutError:
                raise DaskUnavailable(f"the Dask scheduler at {scheduler} has no workers") from None
        except BaseException as e:  # handed to the thread that waits for the client
            self._error = e

    def client(self) -> Any:
        """The connected ``distributed.Client``; raises what connecting raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._client

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._thread.join()
        try:
            if self._client is not None:
                self._client.close()
        finally:
            if self._cluster is not None:
                self._cluster.close()


def _local_cluster(workers: int) -> Any:
    """A cluster of ``workers`` processes on this machine.  Where the platform has it, its workers
    are forked from a server process that imported ctlsp once, rather than spawned and each
    importing it again while the client extracts on the same cores; and a forked worker leaves
    without tearing its project down object by object (``os._exit``).  Its HTTP server (metrics,
    no dashboard) takes a free port: Dask's default one may be another cluster's.  Its workers do
    not profile the tasks they run: Dask samples every running task's stack a hundred times a
    second, which made a unit 13% slower (a projection's stack is deep) for a profile nobody
    looks at here."""
    import multiprocessing

    import dask
    from distributed import LocalCluster
    from distributed.utils import get_mp_context

    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    settings = {"distributed.worker.multiprocessing-method": method, "distributed.worker.profile.enabled": False}
    with dask.config.set(settings):  # the nannies hand their workers the configuration they start in
        if method == "forkserver":  # (Dask sets its own preload once, on its first call)
            get_mp_context().set_forkserver_preload(["distributed", __name__])
        return LocalCluster(n_workers=workers, processes=True, threads_per_worker=1, dashboard_address=":0")


@contextmanager
def session(connection: Connection, payload: Payload, cache_root: str | None) -> Iterator[DaskSession]:
    """The units' session on ``connection``'s cluster, the payload broadcast to its workers."""
    client = connection.client()
    workers = max(1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()))
    run_id = uuid.uuid4().hex[:12]
    # a task, not scattered data: if every worker holding it dies, the scheduler computes it
    # again from its spec instead of failing every unit left
    held = client.submit(_payload, payload, key=f"ctlsp-payload-{run_id}", pure=False)
    client.replicate([held])  # on every worker, so that none looks closer to the units
    try:
        yield DaskSession(client, held, cache_root, workers, run_id)
    finally:
        held.release()
