"""Extraction on several cores: the models of a batch check built by forked copies of the project,
and the pieces of a file shown for the first time read by them.

Why: a batch check builds every function's model before the first unit can run (units need the
whole project in scope), and building them is a fifth of a cold check of a huge file
(sqlite3.c: 19 s of 97 s), all on one core while the others wait.

How: once every file is read (items, headers), the functions are dealt into shares of about equal
text, one per worker.  Forked children build their shares and send the models back pickled; this
process builds its own share meanwhile, then hands the children's models to its project
(:meth:`extractors.api.Project.hand_models`), which takes a model only where it would build one
under the same model key, so the project is the same as if it had built them all.  A child that
fails costs nothing but time: its share is built here when the check asks for it.

A file's pieces (:mod:`extractors.pieces`) are read the same way before its items are
(:func:`read_in_parallel`): a piece is its own key, so what a copy read of it is what this process
would read (:meth:`extractors.api.Project.hand_pieces`).
"""

from __future__ import annotations

import functools
import gc
import heapq
import multiprocessing
import pickle
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.synchronize import Event
from typing import Any, TypeVar

from extractors.api import ModelKey, Piece, Project

T = TypeVar("T")

MIN_FUNCTIONS = 400
"""Below this many functions, a fork and the models' round trip cost more than building them."""
MIN_PIECES = 400
"""Below this many pieces, a fork and the items' round trip cost more than reading them."""

_PROJECT: Project | None = None  # what forked children build from
_STOP: Event | None = None  # set: children stop building and send what they built
_BATCH = 16  # models a child builds between looks at _STOP


def fork_workers() -> bool:
    """Fork only on Linux: macOS may crash forked children of threaded processes; Windows cannot."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def deal(keys: Sequence[ModelKey], shares: int) -> list[list[ModelKey]]:
    """``keys`` in ``shares`` lists of about equal text, longest first into the lightest share
    (a model's cost grows with its text)."""
    return _deal(sorted(keys, key=lambda k: (-len(k[2]), k[0], k[1])), shares, lambda k: len(k[2]))


def _deal(items: Sequence[T], shares: int, size: Callable[[T], int]) -> list[list[T]]:
    """``items`` (heaviest first) in ``shares`` lists of about equal size, each into the lightest."""
    out: list[list[T]] = [[] for _ in range(shares)]
    heap = [(0, k) for k in range(shares)]
    for item in items:
        weight, k = heapq.heappop(heap)
        out[k].append(item)
        heapq.heappush(heap, (weight + size(item), k))
    return out


def _build(project: Project, keys: list[ModelKey]) -> list[Any]:
    return project.build_models(keys)


def _read(path: str, project: Project, pieces: list[Piece]) -> list[Any]:
    return project.read_pieces(path, pieces)


def _share(work: Callable[[Project, list[T]], list[Any]], items: list[T]) -> bytes:
    """In a forked child: ``work`` done on ``items`` a batch at a time until told to stop, pickled."""
    assert _PROJECT is not None, "forked without a project"
    done = []
    for at in range(0, len(items), _BATCH):
        if _STOP is not None and _STOP.is_set():
            break
        done.extend(work(_PROJECT, items[at : at + _BATCH]))
    return pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL)


def _unpickled(data: bytes) -> Any:
    """A child's share unpickled with the collector off, as unpickling a few hundred thousand
    objects otherwise triggers full collections over the whole project (measured: four times
    slower on sqlite3.c's models)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if enabled:
            gc.enable()


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
    return _on_copies(project, deal(keys, workers), _build, project.hand_models)


def read_in_parallel(project: Project, path: str, workers: int) -> list[str]:
    """Read the pieces of ``path`` (set in ``project``, its items not read yet) with ``workers``
    processes, as :func:`extract_in_parallel` builds models; returns the problems met, which
    never lose a piece: what a child did not send back is read in this process when asked for."""
    pieces = project.pieces(path)
    if workers < 2 or len(pieces) < MIN_PIECES or not fork_workers():
        return []
    shares = _deal(sorted(pieces, key=lambda p: -len(p[1])), workers, lambda p: len(p[1]))
    return _on_copies(project, shares, functools.partial(_read, path), project.hand_pieces)


def _on_copies(
    project: Project,
    shares: list[list[T]],
    work: Callable[[Project, list[T]], list[Any]],
    take: Callable[[list[Any]], None],
) -> list[str]:
    """``work`` on ``shares[0]`` done here and on each other share by a forked child of this
    process (``work`` must pickle: a module's function), whose results this one ``take``s; the
    problems met."""
    global _PROJECT, _STOP
    context = multiprocessing.get_context("fork")
    _PROJECT, _STOP = project, context.Event()
    problems: list[str] = []
    try:
        with (
            warnings.catch_warnings(),  # Python 3.12+ warns of forking a threaded process: see above
            project.db.snapshot(),
            ProcessPoolExecutor(max_workers=len(shares) - 1, mp_context=context) as pool,
        ):
            warnings.filterwarnings("ignore", "This process .* is multi-threaded", DeprecationWarning)
            with _children_allowed():  # the pool forks every child at the first submit
                futures: list[Future[bytes]] = [pool.submit(_share, work, share) for share in shares[1:]]
            try:
                work(project, shares[0])
            except BaseException:
                _STOP.set()
                raise
            for future in futures:
                try:
                    take(_unpickled(future.result()))
                except (BrokenProcessPool, OSError, pickle.PickleError, RecursionError) as e:
                    problems.append(f"parallel extraction: a worker failed ({type(e).__name__}: {e}); done here")
    except (BrokenProcessPool, OSError) as e:
        problems.append(f"parallel extraction: no process pool ({e}); done here")
    finally:
        _PROJECT, _STOP = None, None
    return problems
