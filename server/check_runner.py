"""Runs the front end over many files: per-file result cache, then a process pool for the rest.

Why per file: the front end (``extractors.api.Project``) already reuses model-checking results
through the cache mapping, but building the models is still half of a run.  Each file's findings are
therefore stored under a digest of everything they depend on: the file's functions, their positions
and suppressions, and every function they can reach (callees in other files included), as well as the
configuration and the analyser's own code.  An unchanged file whose callees are unchanged is not
checked at all; editing a callee re-checks exactly its callers' files.

Why a pool: checking dominates (extraction is ~10x faster), and files are independent once every
worker knows all functions.  Each worker therefore holds the whole extracted project (so
interprocedural results equal a sequential run) and checks the files it is handed, one at a time,
largest first.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import sys
from collections.abc import Callable, Mapping, MutableMapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractors.api import Config, Finding, Project, Unmodelled
from server.disk_cache import DiskCache, Namespaced
from server.workspace import load_headers

_KEY_VERSION = "file-findings-2"
CHECK_COUNTERS = ("checks_run", "checks_reused", "models_built", "functions_check_reused", "model_errors")

Progress = Callable[[int], None]
# A run checks each model once and then exits, so a knowledge base would only be recorded, never
# reused across edits; without it the same verdicts and witnesses come 10-35% faster.
ONE_SHOT_STRATEGY = "lazy"


@dataclass
class RunResult:
    findings: dict[str, list[Finding]]
    files_checked: int = 0
    files_reused: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    workers: int = 1
    problems: list[str] = field(default_factory=list)
    not_checked: list[Unmodelled] = field(default_factory=list)  # functions that could not be modelled


def _internal(path: str, stage: str, e: BaseException) -> str:
    return f"{path}: internal error while {stage} ({type(e).__name__}: {e}); file skipped, please report"


def tool_digest() -> str:
    """Digest of the analyser's own source, so a changed ctlsp never serves stale cached results."""
    h = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    for pkg in ("checker", "extractors"):
        for f in sorted((root / pkg).rglob("*")):
            if f.suffix in (".py", ".toml") and f.is_file():
                h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def file_digests(project: Project, sources: Mapping[str, str], salt: str) -> dict[str, str]:
    """Per file, the key of its cached findings: the project's own findings key (see
    :meth:`Project.findings_keys`), salted with the tool and configuration digests."""
    return {path: _sha("\n".join([_KEY_VERSION, salt, key])) for path, key in project.findings_keys(sources).items()}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _decode(raw: bytes) -> list[Finding] | None:
    try:
        data = json.loads(raw)
        return [Finding.from_dict(d) for d in data]
    except (ValueError, KeyError, TypeError):
        return None  # a damaged entry is a miss


def _encode(findings: list[Finding]) -> bytes:
    return json.dumps([f.to_dict() for f in findings]).encode()


def _check_counters(counters: Mapping[str, int]) -> dict[str, int]:
    return {k: int(counters.get(k, 0)) for k in CHECK_COUNTERS}


def _delta(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, int]:
    return {k: after[k] - before[k] for k in after}


# ----- worker side -------------------------------------------------------------------------------
_WORKER: Project | None = None


def _init_worker(config: Config, sources: dict[str, str], cache_root: str | None) -> None:
    global _WORKER
    cache: MutableMapping[str, bytes] | None = None
    if cache_root:
        cache = Namespaced(DiskCache(cache_root), f"check|{tool_digest()}|")
    _WORKER = Project(config, cache=cache, strategy=ONE_SHOT_STRATEGY)
    for path, text in sources.items():
        try:
            _WORKER.update_file(path, text)
        except Exception:
            _WORKER.remove_file(path)  # already reported by the main process
    load_headers(_WORKER, sources)


def _check_in_worker(path: str) -> tuple[str, list[dict[str, Any]], dict[str, int]]:
    assert _WORKER is not None, "worker not initialised"
    before = _check_counters(_WORKER.counters)
    found = _WORKER.check([path]).get(path, [])
    return path, [f.to_dict() for f in found], _delta(before, _check_counters(_WORKER.counters))


# ----- main side ---------------------------------------------------------------------------------
def run_check(
    config: Config,
    sources: dict[str, str],
    *,
    cache: MutableMapping[str, bytes] | None,
    cache_root: str | None,
    jobs: int,
    pool_min_lines: int = 0,
    on_start: Callable[[int], None] | None = None,
    on_progress: Progress | None = None,
) -> RunResult:
    """Findings for every file in ``sources`` (all of them are one project).

    ``cache`` holds per-file findings and, through the project, model-checking results; ``cache_root``
    lets worker processes open the same on-disk cache.  The pool is used when ``jobs > 1``, at least
    two files need checking and they have at least ``pool_min_lines`` lines together.
    """
    tool = tool_digest()
    project = Project(
        config,
        cache=Namespaced(cache, f"check|{tool}|") if cache is not None else None,
        strategy=ONE_SHOT_STRATEGY,
    )
    result = RunResult(findings={})
    sources = dict(sources)
    for path, text in list(sources.items()):
        try:
            project.update_file(path, text)
        except Exception as e:  # one bad file must not cost the user the report on all others
            result.problems.append(_internal(path, "reading", e))
            project.remove_file(path)
            del sources[path]
    load_headers(project, sources)
    salt = f"{tool}|{config.digest()}"
    digests = file_digests(project, sources, salt)

    todo: list[str] = []
    for path in sources:
        raw = cache.get("file|" + digests[path]) if cache is not None else None
        cached = _decode(raw) if raw is not None else None
        if cached is None:
            todo.append(path)
        else:
            result.findings[path] = cached
            result.files_reused += 1

    todo.sort(key=lambda p: (-len(sources[p]), p))
    counters = _check_counters({})
    if on_start:
        on_start(len(todo))
    lines = sum(sources[p].count("\n") + 1 for p in todo)
    done: dict[str, tuple[list[Finding], dict[str, int]]] | None = None
    if jobs > 1 and len(todo) > 1 and lines >= pool_min_lines:
        result.workers = min(jobs, len(todo))
        try:
            done = _run_pool(
                project, config, sources, cache_root, todo, result.workers, on_progress, result.problems
            )
        except (OSError, BrokenProcessPool) as e:
            result.problems.append(f"process pool failed ({e}); checking in one process instead")
            result.workers = 1
        finally:
            global _WORKER
            _WORKER = None
    if done is None:
        done = _run_serial(project, todo, on_progress, result.problems)
    for path, (found, delta) in done.items():
        result.findings[path] = found
        result.files_checked += 1
        for k, v in delta.items():
            counters[k] += v
        if cache is not None:
            cache["file|" + digests[path]] = _encode(found)

    # the project's own "files_reused" is about in-memory reuse, which a one-shot run never has
    extraction = {
        k: v for k, v in project.counters.items() if k not in CHECK_COUNTERS and k != "files_reused"
    }
    result.counters = {**extraction, **counters}
    result.findings = {p: result.findings.get(p, []) for p in sources}
    result.not_checked = [u for p in sources for u in project.unmodelled(p)]
    return result


def _run_serial(
    project: Project, todo: list[str], on_progress: Progress | None, problems: list[str]
) -> dict[str, tuple[list[Finding], dict[str, int]]]:
    done = {}
    for path in todo:
        before = _check_counters(project.counters)
        try:
            found = project.check([path]).get(path, [])
        except Exception as e:
            problems.append(_internal(path, "checking", e))
        else:
            done[path] = (found, _delta(before, _check_counters(project.counters)))
        if on_progress:
            on_progress(1)
    return done


def fork_workers() -> bool:
    """Fork only on Linux: macOS may crash forked children of threaded processes; Windows cannot."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _make_pool(
    project: Project, config: Config, sources: dict[str, str], cache_root: str | None, workers: int
) -> ProcessPoolExecutor:
    """Forked workers on Linux inherit the extracted project (no re-import, no re-extraction:
    measured 5x less pool overhead on Lua); elsewhere spawned workers rebuild it once each.
    Forked children never print or draw, so the parent's progress thread cannot deadlock them."""
    global _WORKER
    if fork_workers():
        _WORKER = project
        return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(config, sources, cache_root),
    )


def _run_pool(
    project: Project,
    config: Config,
    sources: dict[str, str],
    cache_root: str | None,
    todo: list[str],
    workers: int,
    on_progress: Progress | None,
    problems: list[str],
) -> dict[str, tuple[list[Finding], dict[str, int]]]:
    out: dict[str, tuple[list[Finding], dict[str, int]]] = {}
    with _make_pool(project, config, sources, cache_root, workers) as pool:
        futures = {pool.submit(_check_in_worker, p): p for p in todo}
        pending: set[Future[tuple[str, list[dict[str, Any]], dict[str, int]]]] = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                try:
                    path, dicts, delta = fut.result()
                except Exception as e:
                    problems.append(_internal(futures[fut], "checking", e))
                    continue
                out[path] = ([Finding.from_dict(d) for d in dicts], delta)
                if on_progress:
                    on_progress(1)
    return out


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
