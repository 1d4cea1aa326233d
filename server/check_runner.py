"""Runs the front end over many files: per-file result cache, then work units for the rest.

Why per file: the front end (``extractors.api.Project``) already reuses model-checking results
through the cache mapping, but building the models is still half of a run.  Each file's findings are
therefore stored under a digest of everything they depend on: the file's functions, their positions
and suppressions, and every function they can reach (callees in other files included), as well as the
configuration and the analyser's own code.  An unchanged file whose callees are unchanged is not
checked at all; editing a callee re-checks exactly its callers' files.

Why units: checking dominates (extraction is ~10x faster), and functions are independent once every
worker knows all functions.  The functions of the files to check are cut into units along the call
graph (:mod:`server.work_units`), so that one huge file uses every core; each worker holds the whole
extracted project (so interprocedural results equal a one-process run) and checks the units it is
handed.  A file's findings are put together once all its functions are in, exactly as
``Project.check`` gives them, and only then cached.  Workers are a local process pool or a Dask
cluster (:mod:`server.dask_executor`); one job checks file by file in this process, the reference
the others are compared with.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import multiprocessing
import os
import pickle
import time
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from extractors.api import PHASES, Config, Finding, Project, Unmodelled, phases_between
from server.collector import tune as tune_collector
from server.disk_cache import DiskCache, Namespaced
from server.parallel_extraction import extract_in_parallel, fork_workers, read_in_parallel
from server.progress import Done, Progress, Start
from server.work_units import Assembly, Unit, plan, target_size
from server.workspace import load_headers, read_header

_KEY_VERSION = "file-findings-2"
CHECK_COUNTERS = (
    "checks_run", "checks_reused", "checks_bounded", "models_built", "functions_check_reused", "model_errors"
)

# A run checks each model once and then exits, so a knowledge base would only be recorded, never
# reused across edits; without it the same verdicts and witnesses come 10-35% faster.
ONE_SHOT_STRATEGY = "lazy"
EXECUTORS = ("local", "dask")


@dataclass
class RunResult:
    findings: dict[str, list[Finding]]
    files_checked: int = 0
    files_reused: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    workers: int = 1
    problems: list[str] = field(default_factory=list)
    not_checked: list[Unmodelled] = field(default_factory=list)  # functions that could not be modelled
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase, in the order run
    units: int = 0  # work units handed to workers (0: checked file by file in this process)
    unit_seconds: float = 0.0  # the units' time on their workers, added up
    slowest: Done | None = None
    # Where the checking went, summed over workers: seconds per phase of extractors.phase_clock.PHASES
    # (each unit's own, as its worker measured them, plus the files checked in this process), and the
    # seconds they are part of (the units' and those files' own); the rest is bookkeeping.
    check_phases: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))
    check_seconds: float = 0.0

    def add_phases(self, seconds: float, phases: Mapping[str, float]) -> None:
        self.check_seconds += seconds
        for name, spent in phases.items():
            self.check_phases[name] = self.check_phases.get(name, 0.0) + spent


def _internal(path: str, stage: str, e: BaseException) -> str:
    return f"{path}: internal error while {stage} ({type(e).__name__}: {e}); file skipped, please report"


@functools.cache
def tool_digest() -> str:
    """Digest of the analyser's own source, so a changed ctlsp never serves stale cached results
    (and a worker running another version refuses work)."""
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


# ----- what a worker is given --------------------------------------------------------------------
@dataclass(frozen=True)
class Texts:
    """The texts a project holds (sources, and the headers and compile database the edge handed in,
    None for one that cannot be read), named by :attr:`digest`."""

    sources: dict[str, str]
    headers: dict[str, str | None]

    def digest(self, tool: str, config: Config) -> str:
        """What names a worker's project: the same digest, the same inputs (compile database paths
        count from the working folder, so it is named too)."""
        h = hashlib.sha256(f"{tool}|{config.digest()}|{os.getcwd()}".encode())
        for kind, texts in (("source", self.sources), ("header", self.headers)):
            for path in sorted(texts):
                h.update(f"\0{kind}\0{path}\0{texts[path]!r}".encode("utf-8", "surrogatepass"))
        return h.hexdigest()


@dataclass(frozen=True)
class Payload:
    """Everything a worker needs to hold the client's project: the configuration and the extracted
    project (:meth:`~extractors.api.Project.export`, pickled: the texts of the sources, headers and
    compile flags, each file's items and context, every function's model, each with what it was
    derived from), so that a worker reads no file of the checked tree and parses and builds
    nothing.  It is all a remote worker is sent besides the units' function ids; ``tool`` makes a
    worker of another ctlsp version refuse; ``digest`` (:meth:`Texts.digest`) names the project,
    which a worker keeps for the units that follow."""

    config: Config
    state: bytes
    digest: str
    tool: str


class _Recording(Mapping[str, str]):
    """The texts ``workspace.load_headers`` asks for (sources, else the file), remembered."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = sources
        self.read: dict[str, str | None] = {}

    def __getitem__(self, path: str) -> str:
        text = self.sources.get(path)
        if text is None:
            text = read_header(path)
        self.read[path] = text
        if text is None:
            raise KeyError(path)
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self.sources)

    def __len__(self) -> int:
        return len(self.sources)


def hand_in_headers(project: Project, sources: Mapping[str, str]) -> Texts:
    """``workspace.load_headers`` on ``project``; the texts it then holds."""
    recording = _Recording(sources)
    load_headers(project, recording)
    return Texts(dict(sources), recording.read)


def payload_of(project: Project, texts: Texts) -> Payload:
    """What rebuilds ``project`` (which holds ``texts``, every model built) in a worker."""
    state = pickle.dumps(project.export(), protocol=pickle.HIGHEST_PROTOCOL)
    tool = tool_digest()
    return Payload(project.config, state, texts.digest(tool, project.config), tool)


UNIT_WEIGHT = 300_000
"""What a worker's database may hold beyond its extracted project, for the projections, models and
verdicts later units may reuse (in the units of the database's weight, about one small record each).
Reuse across units is what units of neighbouring functions are for, but kept without bound it made
a worker's memory the sum of all its units (2 GB on sqlite3.c)."""


SERIAL_UNITS_MIN_LINES = 50_000
"""From this many lines to check in one process, the check runs in units as a worker does: one
``Project.check`` of everything holds every projection it built until it ends (3.9 GB on
sqlite3.c), where units let go of theirs after each (as :data:`UNIT_WEIGHT` bounds)."""


def prepare_worker(project: Project) -> Project:
    """``project``, every model extracted, with its checks bounded by :data:`UNIT_WEIGHT` (see
    :func:`check_unit`)."""
    project.call_graph()  # extracts every model, which the bound must not count
    project.bound_checks(UNIT_WEIGHT)
    return project


def build_project(payload: Payload, cache_root: str | None) -> Project:
    """A worker's project: the client's, adopted from the payload (no file of the tree is read, no
    model built), with every check bounded (:func:`prepare_worker`).  The worker is a process of
    its own (spawned, or a Dask worker) that no command's ``run`` set up, so the collector is tuned
    here: with CPython's default thresholds the full collections over the extracted project made
    a Dask worker's units 60% slower than a forked worker's; it is off while the state is
    unpickled, which otherwise triggers full collections over it, and the project is frozen
    (``gc.freeze``) once in, so that no full collection walks it, nor does the exit's."""
    tune_collector()
    cache: MutableMapping[str, bytes] | None = None
    if cache_root:
        cache = Namespaced(DiskCache(cache_root), f"check|{payload.tool}|")
    project = Project(payload.config, cache=cache, strategy=ONE_SHOT_STRATEGY, sweeps=False)
    enabled = gc.isenabled()
    gc.disable()
    try:
        project.adopt(pickle.loads(payload.state))  # noqa: S301 - the client's own export
    finally:
        if enabled:
            gc.enable()
    prepare_worker(project)
    gc.freeze()
    return project


class UnitOutput(NamedTuple):
    """A unit's result as it travels back: per function id its unplaced findings as dicts, the
    check counters it moved, its seconds on the worker, and those seconds per phase
    (:data:`extractors.phase_clock.PHASES`; they add up to at most ``seconds``)."""

    found: dict[str, list[dict[str, Any]]]
    counters: dict[str, int]
    seconds: float
    phases: dict[str, float]


def check_unit(project: Project, functions: tuple[str, ...]) -> UnitOutput:
    """A unit checked on a worker's project (:func:`prepare_worker`); the projector goes after it,
    so that a worker holds the projections of one unit and what its bounded database keeps."""
    start = time.perf_counter()
    before = _check_counters(project.counters)
    spent = project.seconds
    found = project.check_functions(functions)
    project.forget_projector()
    dicts = {ident: [f.to_dict() for f in fs] for ident, fs in found.items()}
    phases = phases_between(spent, project.seconds)
    return UnitOutput(dicts, _delta(before, _check_counters(project.counters)), time.perf_counter() - start, phases)


Outcome = tuple[Unit, UnitOutput | BaseException]


# ----- local pool worker side --------------------------------------------------------------------
_WORKER: Project | None = None


def _init_worker(payload: Payload, cache_root: str | None) -> None:
    global _WORKER
    _WORKER = build_project(payload, cache_root)


def _bound_forked() -> None:
    """A forked worker's bound, set in the child: the client's own project keeps its bound."""
    assert _WORKER is not None, "forked without a project"
    prepare_worker(_WORKER)


def _check_unit_in_worker(functions: tuple[str, ...]) -> UnitOutput:
    assert _WORKER is not None, "worker not initialised"
    return check_unit(_WORKER, functions)


# ----- main side ---------------------------------------------------------------------------------
class _Phases:
    """Wall-clock seconds per phase of a run, in the order they ran."""

    def __init__(self, into: dict[str, float]) -> None:
        self.into = into

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.into[name] = self.into.get(name, 0.0) + time.perf_counter() - start


class _Collector:
    """Takes finished units: a file complete with all its functions is put together, counted,
    cached and reported to the progress callback."""

    def __init__(
        self,
        result: RunResult,
        assembly: Assembly,
        units: list[Unit],
        cache: MutableMapping[str, bytes] | None,
        digests: Mapping[str, str],
        on_progress: Progress | None,
    ) -> None:
        self.result, self.assembly, self.units = result, assembly, units
        self.cache, self.digests = cache, digests
        self.on_progress = on_progress
        self.counters = _check_counters({})
        self.complete: set[str] = set()
        for path in assembly.without_functions():
            self.file(path, [])

    def file(self, path: str, found: list[Finding]) -> None:
        if path in self.complete:
            return
        self.complete.add(path)
        self.result.findings[path] = found
        self.result.files_checked += 1
        if self.cache is not None:
            self.cache["file|" + self.digests[path]] = _encode(found)

    def take(self, unit: Unit, outcome: UnitOutput | BaseException) -> None:
        if isinstance(outcome, BaseException):
            files = ", ".join(self.assembly.files_of(unit)) or "?"
            self.result.problems.append(_internal(files, f"checking unit {unit.number}", outcome))
            return
        found = {i: [Finding.from_dict(d) for d in ds] for i, ds in outcome.found.items()}
        completed = self.assembly.add(found)
        for path, fs in completed.items():
            self.file(path, fs)
        for k, v in outcome.counters.items():
            self.counters[k] = self.counters.get(k, 0) + v
        self.result.unit_seconds += outcome.seconds
        self.result.add_phases(outcome.seconds, outcome.phases)
        done = Done(unit.functions[0] if unit.functions else "?", outcome.seconds, sum(map(len, completed.values())))
        if self.result.slowest is None or done.seconds > self.result.slowest.seconds:
            self.result.slowest = done
        if self.on_progress:
            self.on_progress(done)


def _units(
    project: Project,
    todo: list[str],
    result: RunResult,
    clock: _Phases,
    cache: MutableMapping[str, bytes] | None,
    digests: Mapping[str, str],
    workers: int,
    unit_target: int | None,
    on_progress: Progress | None,
) -> _Collector:
    """The units that check ``todo``, in a collector that puts their results together."""
    with clock("planning"):
        graph = project.call_graph()
        units = plan(graph, set(todo), unit_target or target_size(graph, workers))
    result.units = len(units)
    return _Collector(result, Assembly(graph, todo, project.assemble), units, cache, digests, on_progress)


def run_check(
    config: Config,
    sources: dict[str, str],
    *,
    cache: MutableMapping[str, bytes] | None,
    cache_root: str | None,
    jobs: int,
    pool_min_lines: int = 0,
    executor: str = "local",
    scheduler: str | None = None,
    unit_target: int | None = None,
    on_start: Start | None = None,
    on_progress: Progress | None = None,
    serial_units_min_lines: int = SERIAL_UNITS_MIN_LINES,
) -> RunResult:
    """Findings for every file in ``sources`` (all of them are one project).

    ``cache`` holds per-file findings and, through the project, model-checking results; ``cache_root``
    lets workers open the same on-disk cache.  ``executor="local"``: a process pool of ``jobs``
    workers, used when ``jobs > 1`` and the files to check have at least ``pool_min_lines`` lines
    (else file by file in this process); ``"dask"``: the Dask cluster at ``scheduler``.
    ``unit_target``: the size units are packed to (CFG nodes; default from the workers' count).
    Checked in this process, files of at least ``serial_units_min_lines`` lines in all are cut
    into units too, for the memory bound that units have (:data:`SERIAL_UNITS_MIN_LINES`).
    """
    with ExitStack() as stack:
        connection = None
        if executor == "dask":  # the cluster starts while this process extracts
            from server.dask_executor import Connection

            connection = stack.enter_context(Connection(scheduler or "", jobs))
        result = RunResult(findings={})
        clock = _Phases(result.phases)
        tool = tool_digest()
        with clock("extraction"):  # parse, items, headers, every function's model (the keys read them)
            project = Project(
                config,
                cache=Namespaced(cache, f"check|{tool}|") if cache is not None else None,
                strategy=ONE_SHOT_STRATEGY,
                sweeps=False,
            )
            sources = dict(sources)
            for path, text in list(sources.items()):
                try:
                    if jobs > 1:  # a big file's pieces on every core (a small one's: here only)
                        project.set_file(path, text)
                        result.problems.extend(read_in_parallel(project, path, jobs))
                    project.update_file(path, text)
                except Exception as e:  # one bad file must not cost the user the report on all others
                    result.problems.append(_internal(path, "reading", e))
                    project.remove_file(path)
                    del sources[path]
                finally:
                    project.drop_handed_pieces()
            texts = hand_in_headers(project, sources)
            if jobs > 1 and _lines(sources, sources) >= pool_min_lines:
                result.problems.extend(extract_in_parallel(project, jobs))
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
        lines = _lines(sources, todo)
        counters = _check_counters({})
        if todo and connection is not None:
            from server.dask_executor import session

            with clock("shipping"):  # the extracted project, to every worker
                dask = stack.enter_context(session(connection, payload_of(project, texts), cache_root))
            result.workers = dask.workers
            collector = _units(project, todo, result, clock, cache, digests, dask.workers, unit_target, on_progress)
            if on_start:
                on_start(result.units)
            with clock("checking"):
                for unit, outcome in dask.run(collector.units):
                    collector.take(unit, outcome)
            counters = collector.counters
            todo = []  # a unit that failed on the cluster is in the problems, not checked again here
        elif todo and jobs > 1 and lines >= pool_min_lines:
            collector = _units(project, todo, result, clock, cache, digests, jobs, unit_target, on_progress)
            counters = collector.counters
            if len(collector.units) > 1:
                result.workers = min(jobs, len(collector.units))
                if on_start:
                    on_start(result.units)
                try:
                    with clock("checking"):
                        for unit, outcome in _run_pool(project, texts, cache_root, collector.units, result.workers):
                            collector.take(unit, outcome)
                    todo = []
                except (OSError, BrokenProcessPool) as e:
                    result.problems.append(f"process pool failed ({e}); checking in one process instead")
                    result.workers = 1
                finally:
                    global _WORKER
                    _WORKER = None
            else:
                result.units = 0
            todo = [p for p in todo if p not in collector.complete]
        if todo and _lines(sources, todo) >= serial_units_min_lines:
            collector = _units(project, todo, result, clock, cache, digests, 1, unit_target, on_progress)
            if on_start:
                on_start(result.units)
            prepare_worker(project)
            with clock("checking"):
                for unit in collector.units:
                    try:
                        output: UnitOutput | BaseException = check_unit(project, unit.functions)
                    except Exception as e:
                        output = e
                    collector.take(unit, output)
            for k, v in collector.counters.items():
                counters[k] += v
            todo = []
        if todo:
            if on_start:
                on_start(len(todo))
            spent, start = project.seconds, time.perf_counter()
            with clock("checking"):
                done = _run_serial(project, todo, on_progress, result.problems)
            result.add_phases(time.perf_counter() - start, phases_between(spent, project.seconds))
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


def _lines(sources: Mapping[str, str], paths: Iterable[str]) -> int:
    return sum(sources[p].count("\n") + 1 for p in paths)


def _run_serial(
    project: Project, todo: list[str], on_progress: Progress | None, problems: list[str]
) -> dict[str, tuple[list[Finding], dict[str, int]]]:
    """File by file in this process, through ``Project.check``: the reference the units agree with."""
    done = {}
    for path in todo:
        before = _check_counters(project.counters)
        start = time.perf_counter()
        found: list[Finding] = []
        try:
            found = project.check([path]).get(path, [])
        except Exception as e:
            problems.append(_internal(path, "checking", e))
        else:
            done[path] = (found, _delta(before, _check_counters(project.counters)))
        if on_progress:
            on_progress(Done(path, time.perf_counter() - start, len(found)))
    return done


def _make_pool(project: Project, texts: Texts, cache_root: str | None, workers: int) -> ProcessPoolExecutor:
    """Forked workers on Linux inherit the extracted project (no re-import, no re-extraction:
    measured 5x less pool overhead on Lua); elsewhere spawned workers each adopt its export
    (:func:`build_project`).
    Forked children never print or draw, so the parent's progress thread cannot deadlock them."""
    global _WORKER
    if fork_workers():
        _WORKER = project  # planning extracted every model: the children inherit them
        return ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("fork"), initializer=_bound_forked
        )
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(payload_of(project, texts), cache_root),
    )


def _run_pool(
    project: Project, texts: Texts, cache_root: str | None, units: list[Unit], workers: int
) -> Iterator[Outcome]:
    """Each unit's outcome as it finishes (its output, or the exception it raised); a broken pool
    raises :class:`BrokenProcessPool` to the caller, which checks what is left in one process."""
    gc.freeze()  # what forked workers inherit: their full collections never walk it (nor copy its pages)
    try:
        with _make_pool(project, texts, cache_root, workers) as pool:
            yield from _outcomes(pool, units)
    finally:
        gc.unfreeze()


def _outcomes(pool: ProcessPoolExecutor, units: list[Unit]) -> Iterator[Outcome]:
    futures = {pool.submit(_check_unit_in_worker, u.functions): u for u in units}
    pending: set[Future[UnitOutput]] = set(futures)
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for fut in finished:
            try:
                out: UnitOutput | BaseException = fut.result()
            except BrokenProcessPool:
                raise
            except Exception as e:
                out = e
            yield futures[fut], out


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
