"""Extraction on several cores: the models of a batch check built by forked copies of the project.

Why: a batch check builds every function's model before the first unit can run (units need the
whole project in scope), and building them is a fifth of a cold check of a huge file
(sqlite3.c: 19 s of 97 s), all on one core while the others wait.

How: once every file is read (items, headers), the functions are dealt into shares of about equal
text, one per worker.  Forked children build their shares and send the models back pickled; this
process builds its own share meanwhile, then hands the children's models to its project
(:meth:`extractors.api.Project.hand_models`), which takes a model only where it would build one
under the same model key, so the project is the same as if it had built them all.  A child that
fails costs nothing but time: its share is built here when the check asks for it.
"""

from __future__ import annotations

import gc
import heapq
import multiprocessing
import pickle
import sys
import warnings
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.synchronize import Event

from extractors.api import ModelKey, Project

MIN_FUNCTIONS = 400
"""Below this many functions, a fork and the models' round trip cost more than building them."""

_PROJECT: Project | None = None  # what forked children build from
_STOP: Event | None = None  # set: children stop building and send what they built
_BATCH = 16  # models a child builds between looks at _STOP


def fork_workers() -> bool:
    """Fork only on Linux: macOS may crash forked children of threaded processes; Windows cannot."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def deal(keys: Sequence[ModelKey], shares: int) -> list[list[ModelKey]]:
    """``keys`` in ``shares`` lists of about equal text, longest first into the lightest share
    (a model's cost grows with its text)."""
    out: list[list[ModelKey]] = [[] for _ in range(shares)]
    heap = [(0, k) for k in range(shares)]
    for key in sorted(keys, key=lambda k: (-len(k[2]), k[0], k[1])):
        weight, k = heapq.heappop(heap)
        out[k].append(key)
        heapq.heappush(heap, (weight + len(key[2]), k))
    return out


def _build_share(keys: list[ModelKey]) -> bytes:
    assert _PROJECT is not None, "forked without a project"
    built = []
    for at in range(0, len(keys), _BATCH):
        if _STOP is not None and _STOP.is_set():
            break
        built.extend(_PROJECT.build_models(keys[at : at + _BATCH]))
    return pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL)


def take_models(project: Project, data: bytes) -> None:
    """Unpickle a child's share of models and hand them in; the collector stays off meanwhile, as
    unpickling a few hundred thousand objects otherwise triggers full collections over the whole
    project (measured: four times slower on sqlite3.c's models)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        built = pickle.loads(data)
    finally:
        if enabled:
            gc.enable()
    project.hand_models(built)


@contextmanager
def _children_allowed() -> Iterator[None]:
    """multiprocessing refuses children to a daemonic process, and the language server's checker
    process is one (it must end with the server). The builders end with their pool, inside
    :func:`extract_in_parallel`, so they never outlive it: the refusal is lifted while they fork."""
    config = multiprocessing.current_process()._config  # type: ignore[attr-defined]
    daemon = config.pop("daemon", None)
    try:
        yield
    finally:
        if daemon is not None:
            config["daemon"] = daemon


def extract_in_parallel(project: Project, workers: int, keys: Sequence[ModelKey] | None = None) -> list[str]:
    """Build the models of ``keys`` (default: every model of ``project``) with ``workers``
    processes (this one included; forked children, so only where forking is safe).  Returns the
    problems met, which never lose a model: what a child did not send back is built in this
    process when asked for.

    The project's database is held for reading while children fork, so that no other thread of
    this process (the language server's checker process has several) is writing it then: each
    child starts from a whole database.  A write that comes meanwhile cancels this process's own
    share at its next query (:class:`~checker.querydb.Cancelled` propagates); the children then
    stop within a few models and their work is dropped."""
    keys = project.model_keys() if keys is None else list(keys)
    if workers < 2 or len(keys) < MIN_FUNCTIONS or not fork_workers():
        return []
    shares = deal(keys, workers)
    global _PROJECT, _STOP
    context = multiprocessing.get_context("fork")
    _PROJECT, _STOP = project, context.Event()
    problems: list[str] = []
    try:
        with (
            warnings.catch_warnings(),  # Python 3.12+ warns of forking a threaded process: see above
            project.db.snapshot(),
            ProcessPoolExecutor(max_workers=workers - 1, mp_context=context) as pool,
        ):
            warnings.filterwarnings("ignore", "This process .* is multi-threaded", DeprecationWarning)
            with _children_allowed():  # the pool forks every child at the first submit
                futures: list[Future[bytes]] = [pool.submit(_build_share, share) for share in shares[1:]]
            try:
                project.build_models(shares[0])
            except BaseException:
                _STOP.set()
                raise
            for future in futures:
                try:
                    take_models(project, future.result())
                except (BrokenProcessPool, OSError, pickle.PickleError, RecursionError) as e:
                    problems.append(f"parallel extraction: a worker failed ({type(e).__name__}: {e}); built here")
    except (BrokenProcessPool, OSError) as e:
        problems.append(f"parallel extraction: no process pool ({e}); built here")
    finally:
        _PROJECT, _STOP = None, None
    return problems
