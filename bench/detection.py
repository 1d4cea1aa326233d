"""Detection breadth: ctlsp, ``clang --analyze`` and cppcheck on the corpus and on real C projects.

Corpus (``tests/corpus/``, see its README): per rule, markers found and missed and false findings (on a
fixed twin, or on a bad twin's unmarked lines) for each tool, scored ``unit`` (same file and rule
anywhere in the twin: the tools put a bug on different lines); ctlsp's ``exact`` score (the line too)
is printed beside it.  Each tool's checker ids and messages are mapped to the corpus's rule names by
the tables below; a finding no row maps is not counted.

Real projects: findings per 1,000 lines per tool, and ctlsp's findings held to the reviewed list
``bench/reviewed/<name>.toml`` (``[[finding]]`` with file, line, rule, verdict true/false, cause):
every finding not in the list is printed, so that a new false positive shows.  The default projects
are downloaded into ``--work`` at run time (never committed): Lua 5.4 (from the lupa sdist, as
``bench/c_bench.py``), zlib 1.2.11 (from the pyminizip sdist), lz4, brotli, zstd and eight more PyPI
sdists, and SQLite's amalgamation (from the npm package better-sqlite3, as ``bench/edit_latency.py``).

    .venv/bin/python bench/detection.py [--work DIR] [--no-corpus] [--no-default-projects]
                                        [--project DIR ...] [--tool ctlsp|clang|cppcheck ...]

clang comes from Debian (``apt-get install -y clang``), cppcheck too; a missing tool is said so and
left out.  A tool still running after ``--tool-timeout`` seconds (600) on a project (clang: on one of
its files) is stopped and said so: its time there is a lower bound (cppcheck 2.10 runs for more than
half an hour on brotli).  Not run in CI.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.c_bench import fetch_lupa  # noqa: E402
from bench.edit_latency import fetch_sqlite  # noqa: E402
from server.workspace import collect  # noqa: E402
from tests.corpus_test.ctlsp_runner import check_json  # noqa: E402
from tests.corpus_test.scoring import (  # noqa: E402
    RULES,
    Case,
    CaseScore,
    Counts,
    Mark,
    Report,
    Unit,
    discover,
    score_case,
    tally,
)

# ----- the mapping tables: (tool's checker id, regex on the message, corpus rules) -------------------
# A row with several rules: the finding takes the first rule a marker of its twin still needs, else the
# first.  clang ids are analyzer checkers ([unix.Malloc]) or compiler flags ([-Wuninitialized]).
CLANG_MAP: list[tuple[str, str, tuple[str, ...]]] = [
    ("unix.Malloc", r"after it is freed|after its release", ("use-after-free", "return-freed-pointer")),
    ("unix.Malloc", r"free released memory|released memory", ("double-free",)),
    ("unix.Malloc", r"[Pp]otential (memory )?leak", ("memory-leak", "memory-leak-overwrite", "memory-leak-realloc")),
    ("unix.Malloc", r"free\(\)|not memory allocated|offset by|address of", ("free-non-heap",)),
    ("core.NullDereference", r"", ("known-null-dereference", "null-dereference")),
    ("core.uninitialized.Assign", r"", ("uninitialised-read",)),
    ("core.uninitialized.UndefReturn", r"", ("uninitialised-read",)),
    ("core.uninitialized.Branch", r"", ("uninitialised-read",)),
    ("core.uninitialized.ArraySubscript", r"", ("uninitialised-read",)),
    ("core.UndefinedBinaryOperatorResult", r"garbage|uninitiali", ("uninitialised-read",)),
    ("core.CallAndMessage", r"uninitiali", ("uninitialised-read",)),
    ("deadcode.DeadStores", r"", ("dead-store",)),
    ("core.StackAddressEscape", r"", ("return-local-address",)),
    ("alpha.unix.Stream", r"leak|never closed", ("resource-leak",)),
    ("alpha.unix.PthreadLock", r"already been acquired", ("double-lock",)),
    ("alpha.unix.PthreadLock", r"already been unlocked|not locked|unlock", ("unlock-without-lock",)),
    ("alpha.unix.PthreadLock", r"still locked|not released", ("lock-not-released",)),
    ("alpha.deadcode.UnreachableCode", r"", ("unreachable-code",)),
    ("-Wreturn-stack-address", r"", ("return-local-address",)),
    ("-Wuninitialized", r"", ("uninitialised-read",)),
    ("-Wsometimes-uninitialized", r"", ("uninitialised-read",)),
    ("-Wconditional-uninitialized", r"", ("uninitialised-read",)),
    ("-Wunused-variable", r"", ("unused-variable",)),
    ("-Wunused-but-set-variable", r"", ("unused-variable",)),
    ("-Wfree-nonheap-object", r"", ("free-non-heap",)),
    ("-Wunused-result", r"", ("unchecked-return",)),
    ("-Wunreachable-code", r"", ("unreachable-code",)),
]
CPPCHECK_MAP: list[tuple[str, str, tuple[str, ...]]] = [
    ("memleak", r"", ("memory-leak", "memory-leak-overwrite")),
    ("memleakOnRealloc", r"", ("memory-leak-realloc",)),
    ("leakReturnValNotUsed", r"", ("memory-leak", "unchecked-return")),
    ("leakNoVarFunctionCall", r"", ("memory-leak",)),
    ("doubleFree", r"", ("double-free",)),
    ("deallocDealloc", r"", ("double-free",)),
    ("deallocuse", r"", ("use-after-free",)),
    ("deallocret", r"", ("return-freed-pointer",)),
    ("nullPointer", r"", ("known-null-dereference", "null-dereference")),
    ("nullPointerRedundantCheck", r"", ("known-null-dereference", "null-dereference")),
    ("nullPointerOutOfMemory", r"", ("null-dereference",)),
    ("ctunullpointer", r"", ("null-dereference", "known-null-dereference")),
    ("ctunullpointerOutOfMemory", r"", ("null-dereference",)),
    ("uninitvar", r"", ("uninitialised-read",)),
    ("uninitdata", r"", ("uninitialised-read",)),
    ("uninitStructMember", r"", ("uninitialised-read",)),
    ("legacyUninitvar", r"", ("uninitialised-read",)),
    ("unreadVariable", r"", ("dead-store",)),
    ("redundantAssignment", r"", ("dead-store",)),
    ("unusedVariable", r"", ("unused-variable",)),
    ("unusedAllocatedMemory", r"", ("unused-variable",)),
    ("resourceLeak", r"", ("resource-leak",)),
    ("autovarInvalidDeallocation", r"", ("free-non-heap",)),
    ("invalidFree", r"", ("free-non-heap",)),
    ("returnDanglingLifetime", r"", ("return-local-address",)),
    ("autoVariables", r"", ("return-local-address",)),
    ("returnLocalVariable", r"", ("return-local-address",)),
    ("danglingLifetime", r"", ("return-local-address",)),
    ("unreachableCode", r"", ("unreachable-code",)),
    ("ignoredReturnValue", r"", ("unchecked-return",)),
    ("ignoredReturnErrorCode", r"", ("unchecked-return",)),
]
CLANG_CHECKERS = ("alpha.unix.Stream", "alpha.unix.PthreadLock", "alpha.deadcode.UnreachableCode")
CPPCHECK_ARGS = ("--enable=warning,style", "--inconclusive", "--quiet")
TOOL_TIMEOUT = 600.0  # seconds a tool may take on one project (one file for clang); --tool-timeout


def run_limited(cmd: Sequence[str]) -> str:
    """``cmd``'s stderr; on :data:`TOOL_TIMEOUT`, its whole process group is killed (cppcheck's -j
    forks) and :class:`subprocess.TimeoutExpired` raised."""
    with subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as proc:
        try:
            return proc.communicate(timeout=TOOL_TIMEOUT)[1]
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise


@dataclass(frozen=True)
class Raw:
    """A tool's finding before mapping: ``file`` absolute, ``check`` its checker id or flag."""

    file: str
    line: int
    check: str
    message: str


def map_rules(raw: Raw, table: Sequence[tuple[str, str, tuple[str, ...]]]) -> tuple[str, ...]:
    for check, pattern, rules in table:
        if raw.check == check and re.search(pattern, raw.message):
            return rules
    return ()


# ----- the tools -----------------------------------------------------------------------------------
Runner = Callable[[Path, list[Path]], list[Raw]]


def run_ctlsp(target: Path, files: list[Path]) -> list[Raw]:
    doc = check_json([target])
    found = doc["findings"]
    assert isinstance(found, list)
    return [
        Raw(
            str(Path(f["location"]["path"]).resolve()),
            f["location"]["start_line"] + 1,
            f["rule_id"],
            f["message"],
        )
        for f in found
    ]


CLANG_LINE = re.compile(r"^(.*?):(\d+):\d+: warning: (.*) \[([^\]]+)\]$")


def include_folders(target: Path, files: list[Path]) -> list[str]:
    """What clang needs to compile a project it has no build for: every folder of its files and
    every folder above a header's up to ``target`` (brotli's ``#include <brotli/decode.h>`` is
    under ``c/include``), then Python's headers (the PyPI sdists' extension modules include
    ``Python.h``).  Without these, clang stops at the first missing header and analyses nothing."""
    found: dict[str, None] = {}
    root = target.resolve()
    for p in files:
        found[str(p.parent)] = None
        if p.suffix == ".h":
            for d in p.resolve().parents:
                if d == root or root not in d.parents:
                    break
                found[str(d)] = None
    found[sysconfig.get_paths()["include"]] = None
    return sorted(found)


def run_clang(target: Path, files: list[Path]) -> list[Raw]:
    """``clang --analyze -Wall`` (plus the alpha checkers named above) on each .c file, one process
    per core at a time as cppcheck's ``-j`` and ctlsp's jobs use them; -I every folder."""
    exe = shutil.which("clang")
    assert exe is not None
    includes = [f"-I{d}" for d in include_folders(target, files)]
    out: list[Raw] = []
    with tempfile.TemporaryDirectory() as tmp:

        def analyze(job: tuple[int, Path]) -> str:
            i, src = job
            cmd = [exe, "--analyze", "-Wall", *includes]
            for c in CLANG_CHECKERS:
                cmd += ["-Xclang", "-analyzer-checker", "-Xclang", c]
            cmd += ["-o", f"{tmp}/{i}.plist", str(src)]
            return run_limited(cmd)

        sources = list(enumerate(p for p in files if p.suffix == ".c"))
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            for stderr in pool.map(analyze, sources):
                for line in stderr.splitlines():
                    m = CLANG_LINE.match(line)
                    if m:
                        out.append(Raw(str(Path(m[1]).resolve()), int(m[2]), m[4], m[3]))
    return sorted(set(out), key=lambda r: (r.file, r.line, r.check))


CPPCHECK_LINE = re.compile(r"^(.*?):(\d+):([A-Za-z0-9_]+):(\w+):(.*)$")


def run_cppcheck(target: Path, files: list[Path]) -> list[Raw]:
    exe = shutil.which("cppcheck")
    assert exe is not None
    cmd = [exe, *CPPCHECK_ARGS, f"-j{os.cpu_count() or 1}", "--template={file}:{line}:{id}:{severity}:{message}"]
    cmd += sorted({f"-I{p.parent}" for p in files if p.suffix == ".h"})
    out = []
    for line in run_limited([*cmd, str(target)]).splitlines():
        m = CPPCHECK_LINE.match(line)
        if m and m[1]:
            out.append(Raw(str(Path(m[1]).resolve()), int(m[2]), m[3], m[5]))
    return out


@dataclass(frozen=True)
class Tool:
    name: str
    run: Runner
    table: Sequence[tuple[str, str, tuple[str, ...]]] | None  # None: the ids are the corpus's rules


def available_tools(wanted: Sequence[str]) -> list[Tool]:
    tools: list[Tool] = []
    for name in wanted:
        if name == "ctlsp":
            tools.append(Tool("ctlsp", run_ctlsp, None))
        elif name == "clang":
            if shutil.which("clang"):
                version = subprocess.run(["clang", "--version"], capture_output=True, text=True).stdout
                print(f"clang: {version.splitlines()[0]} (--analyze -Wall, plus {', '.join(CLANG_CHECKERS)})")
                tools.append(Tool("clang", run_clang, CLANG_MAP))
            else:
                print("clang: ABSENT (apt-get install -y clang): left out of every table")
        elif name == "cppcheck":
            if shutil.which("cppcheck"):
                version = subprocess.run(["cppcheck", "--version"], capture_output=True, text=True).stdout
                print(f"cppcheck: {version.strip()} ({' '.join(CPPCHECK_ARGS)})")
                tools.append(Tool("cppcheck", run_cppcheck, CPPCHECK_MAP))
            else:
                print("cppcheck: ABSENT (apt-get install -y cppcheck): left out of every table")
    return tools


def to_reports(tool: Tool, unit: Unit, raws: Iterable[Raw], wanted: Iterable[Mark]) -> list[Report]:
    """Mapped reports of one twin; a many-rule row takes a rule a still unmatched marker needs."""
    need = {(m.file, m.rule) for m in wanted}
    out: list[Report] = []
    for r in raws:
        rules = (r.check,) if tool.table is None else map_rules(r, tool.table)
        if not rules:
            continue
        file = unit.relative(r.file)
        rule = next((x for x in rules if (file, x) in need), rules[0])
        out.append(Report(file, r.line, rule, r.message))
    return out


# ----- the corpus ------------------------------------------------------------------------------------
def corpus_scores(tool: Tool, cases: list[Case]) -> tuple[list[CaseScore], list[CaseScore]]:
    """(unit scores, exact scores) of one tool on every case."""
    unit_scores, exact_scores = [], []
    for case in cases:
        marks = case.marks()
        reps = []
        for twin in (case.bad, case.fixed):
            raws = tool.run(twin.target, list(twin.files))
            reps.append(to_reports(tool, twin, raws, marks if twin is case.bad else ()))
        unit_scores.append(score_case(case, reps[0], reps[1], how="unit"))
        exact_scores.append(score_case(case, reps[0], reps[1], how="exact"))
    return unit_scores, exact_scores


def found_by_any(scores: Iterable[list[CaseScore]]) -> dict[str, int]:
    """Per rule, how many marked bugs at least one of the tools whose ``scores`` are given found
    (the target is to find more than the other tools together, per rule)."""
    found: set[tuple[str, Mark]] = set()
    for per_tool in scores:
        for score in per_tool:
            found.update((score.case.id, m) for m in score.found)
    out: dict[str, int] = {}
    for _, m in found:
        out[m.rule] = out.get(m.rule, 0) + 1
    return out


def print_corpus_table(
    cases: list[Case], results: dict[str, dict[str, Counts]], exact: dict[str, Counts], others: dict[str, int] | None
) -> None:
    tools = list(results)
    marks: dict[str, int] = {}
    for c in cases:
        for m in c.marks():
            marks[m.rule] = marks.get(m.rule, 0) + 1
    head = f"{'rule':<24} {'bugs':>4}"
    for t in tools:
        head += f" | {t + ' found/missed/false':>28}"
    head += f" | {'ctlsp exact line':>17}"
    if others is not None:
        head += f" | {'others together':>15}"
    print(head)
    print("-" * len(head))
    totals = {t: Counts() for t in tools}
    ex_total = Counts()
    for rule in RULES:
        if rule not in marks and not any(rule in results[t] for t in tools):
            continue
        row = f"{rule:<24} {marks.get(rule, 0):>4}"
        for t in tools:
            n = results[t].get(rule, Counts())
            totals[t].found += n.found
            totals[t].missed += n.missed
            totals[t].false += n.false
            row += f" | {n.found:>10} {n.missed:>8} {n.false:>8}"
        e = exact.get(rule, Counts())
        ex_total.found += e.found
        ex_total.false += e.false
        row += f" | {e.found:>8} {e.false:>8}"
        if others is not None:
            row += f" | {others.get(rule, 0):>15}"
        print(row)
    print("-" * len(head))
    row = f"{'total':<24} {sum(marks.values()):>4}"
    for t in tools:
        row += f" | {totals[t].found:>10} {totals[t].missed:>8} {totals[t].false:>8}"
    row += f" | {ex_total.found:>8} {ex_total.false:>8}"
    if others is not None:
        row += f" | {sum(others.values()):>15}"
    print(row)


# ----- real projects ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Project:
    name: str
    root: Path


def _sdist(work: Path, spec: str, folder: str) -> Path | None:
    root = work / folder
    if root.is_dir():
        return root
    work.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps", "-q", "-d", str(work), spec]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    tars = sorted(work.glob(f"{folder}.tar.gz"))
    if proc.returncode != 0 or not tars:
        print(f"skip {spec}: cannot download the sdist: {proc.stderr.strip()[-300:]}")
        return None
    with tarfile.open(tars[0]) as tar:
        tar.extractall(work, filter="data")
    return root if root.is_dir() else None


def _copy_c(src: Path, dest: Path, recursive: bool, skip: tuple[str, ...] = ()) -> None:
    """The .c and .h files of ``src`` (and its sub-folders if ``recursive``, but those named in
    ``skip``) under ``dest``."""
    files = src.rglob("*") if recursive else src.glob("*")
    for p in files:
        if p.relative_to(src).parts[0] in skip:
            continue
        if p.is_file() and p.suffix in (".c", ".h"):
            target = dest / p.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(p, target)


def default_projects(work: Path) -> list[Project]:
    """Lua 5.4, zlib 1.2.11, lz4's library, brotli's C library, the C of eight more PyPI sdists
    (cffi's backend, pyppmd, bitarray, cmark-gfm as cmarkgfm bundles it, ujson, regex, Pillow's
    ``src`` and psycopg2's ``psycopg``), SQLite's amalgamation (the npm package better-sqlite3
    ships it: 271k lines in one file), zstd's (the zstandard sdist's ``zstd``: 54k lines),
    libuv's ``src`` and ``include`` (as the uvloop sdist vendors it), libsodium's library (as
    pynacl's sdist bundles it) and pycryptodome's C (its tests left out), copied to
    ``work/projects``."""
    base = work / "projects"
    out: list[Project] = []

    def add(
        name: str, src: Path | None, recursive: bool = False, only: tuple[str, ...] = (), skip: tuple[str, ...] = ()
    ) -> None:
        """``only``: the sub-folders of ``src`` to copy (recursively), when not all of it; ``skip``:
        sub-folders left out (a project's tests)."""
        if src is None or not src.is_dir():
            print(f"skip {name}: no sources")
            return
        dest = base / name
        if not dest.is_dir():
            for part in only:
                _copy_c(src / part, dest / part, True)
            if not only:
                _copy_c(src, dest, recursive, skip)
        out.append(Project(name, dest))

    lupa = fetch_lupa(work, "2.8")
    add("lua54", lupa / "third-party" / "lua54" if lupa else None)
    mz = _sdist(work, "pyminizip==0.2.6", "pyminizip-0.2.6")
    add("zlib", mz / "zlib-1.2.11" if mz else None)
    lz4 = _sdist(work, "lz4==4.4.5", "lz4-4.4.5")
    add("lz4", lz4 / "lz4libs" if lz4 else None)
    br = _sdist(work, "brotli==1.2.1", "brotli-1.2.1")
    add("brotli", br / "c" if br else None, recursive=True)
    cffi = _sdist(work, "cffi==1.17.1", "cffi-1.17.1")
    add("cffi", cffi / "src" / "c" if cffi else None)
    ppmd = _sdist(work, "pyppmd==1.1.1", "pyppmd-1.1.1")
    add("pyppmd", ppmd / "src" if ppmd else None, recursive=True)
    ba = _sdist(work, "bitarray==3.12.3", "bitarray-3.12.3")
    add("bitarray", ba / "bitarray" if ba else None)
    cm = _sdist(work, "cmarkgfm==2025.10.22", "cmarkgfm-2025.10.22")
    add("cmark", cm / "third_party" / "cmark" if cm else None, recursive=True)
    uj = _sdist(work, "ujson==6.1.0", "ujson-6.1.0")
    add("ujson", uj / "src" / "ujson" if uj else None, recursive=True)
    rx = _sdist(work, "regex==2026.11.19", "regex-2026.11.19")
    add("regex", rx / "src" if rx else None)
    pil = _sdist(work, "pillow==13.0.0", "pillow-13.0.0")
    add("pillow", pil / "src" if pil else None, recursive=True)
    pg = _sdist(work, "psycopg2==2.9.13", "psycopg2-2.9.13")
    add("psycopg2", pg, recursive=True)  # from the root: its files include "psycopg/x.h"
    sq = fetch_sqlite(work)
    add("sqlite3", sq.parent if sq else None)
    zs = _sdist(work, "zstandard==0.25.0", "zstandard-0.25.0")
    add("zstd", zs / "zstd" if zs else None)
    uv = _sdist(work, "uvloop==0.23.0", "uvloop-0.23.0")
    add("libuv", uv / "vendor" / "libuv" if uv else None, only=("src", "include"))  # not its tests
    na = _sdist(work, "pynacl==1.6.2", "pynacl-1.6.2")
    add("libsodium", na / "src" / "libsodium" / "src" / "libsodium" if na else None, recursive=True)
    pc = _sdist(work, "pycryptodome==4.4.0", "pycryptodome-4.4.0")
    add("pycryptodome", pc / "src" if pc else None, recursive=True, skip=("test",))
    return out


@dataclass(frozen=True)
class Reviewed:
    file: str
    line: int
    rule: str
    verdict: bool
    cause: str


def read_reviewed(path: Path) -> list[Reviewed]:
    if not path.is_file():
        return []
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        Reviewed(e["file"], int(e["line"]), e["rule"], bool(e["verdict"]), e.get("cause", ""))
        for e in doc.get("finding", [])
    ]


def count_lines(files: Iterable[Path]) -> int:
    return sum(p.read_bytes().count(b"\n") for p in files)


def run_projects(tools: list[Tool], projects: list[Project]) -> None:
    """Per project and tool: mapped findings (all findings) and per 1,000 lines, and the wall time of
    the tool's whole run on the project (every tool uses every core: ctlsp's jobs, cppcheck's -j,
    one clang process per core); then the total time of each tool and ctlsp's ratio to it."""
    head = f"\n{'project':<10} {'files':>5} {'lines':>7}"
    print(head + "".join(f" | {t.name + ' mapped (all), time':>34}" for t in tools))
    per_project: dict[str, list[Report]] = {}
    seconds = {t.name: 0.0 for t in tools}
    timed_out: dict[str, list[str]] = {t.name: [] for t in tools}  # projects a tool ran out of time on
    total_lines = 0
    for proj in projects:
        files = [Path(p) for p in collect([str(proj.root)])]
        lines = count_lines(files)
        total_lines += lines
        row = f"{proj.name:<10} {len(files):>5} {lines:>7}"
        unit = Unit(proj.name, proj.root, tuple(files))
        for tool in tools:
            started = time.perf_counter()
            try:
                raws = tool.run(proj.root, files)
            except subprocess.TimeoutExpired:
                took = time.perf_counter() - started
                seconds[tool.name] += took
                timed_out[tool.name].append(proj.name)
                row += f" | {'timed out after':>27} {took:6.1f}s"
                continue
            took = time.perf_counter() - started
            seconds[tool.name] += took
            mapped = to_reports(tool, unit, raws, ())
            if tool.name == "ctlsp":
                per_project[proj.name] = mapped
            k = 1000 / lines if lines else 0.0
            row += f" | {len(mapped):>5} {len(mapped) * k:>5.2f}/kl ({len(raws):>4} {len(raws) * k:5.2f}) {took:6.1f}s"
        print(row)
    if len(projects) > 1 or len(tools) > 1:
        print(f"\ntime on all {len(projects)} projects ({total_lines} lines), one run:")
        for tool in tools:
            # a tool stopped at the time limit took at least that long: the ratio is then a bound
            bound = "<=" if timed_out[tool.name] and not timed_out.get("ctlsp") else "="
            ratio = f", ctlsp / {tool.name} {bound} {seconds['ctlsp'] / seconds[tool.name]:.2f}" if (
                "ctlsp" in seconds and tool.name != "ctlsp" and seconds[tool.name] > 0
            ) else ""
            late = f" (at least: stopped after {TOOL_TIMEOUT:.0f} s on {', '.join(timed_out[tool.name])})" if (
                timed_out[tool.name]
            ) else ""
            print(f"  {tool.name:<9} {seconds[tool.name]:7.1f} s{late}{ratio}")
    for proj in projects:
        if proj.name not in per_project:
            continue
        reviewed = read_reviewed(REPO / "bench" / "reviewed" / f"{proj.name}.toml")
        known = {(r.file, r.line, r.rule): r for r in reviewed}
        found = per_project[proj.name]
        hits = [known[(f.file, f.line, f.rule)] for f in found if (f.file, f.line, f.rule) in known]
        new = [f for f in found if (f.file, f.line, f.rule) not in known]
        gone = len(reviewed) - len(hits)
        true_n = sum(1 for r in hits if r.verdict)
        print(
            f"\nctlsp on {proj.name}: {len(found)} findings; reviewed {len(hits)} "
            f"({true_n} true, {len(hits) - true_n} false); unreviewed {len(new)}; "
            f"reviewed but no longer reported {gone}"
        )
        for r in hits:
            if not r.verdict:
                print(f"  false (reviewed) {r.file}:{r.line} [{r.rule}] {r.cause}")
        for f in new:
            print(f"  UNREVIEWED {f.file}:{f.line} [{f.rule}] {f.message}")


def main(argv: Sequence[str] | None = None) -> int:
    global TOOL_TIMEOUT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "ctlsp-detection")
    ap.add_argument("--project", action="append", default=[], type=Path, metavar="DIR")
    ap.add_argument("--no-default-projects", action="store_true")
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--tool", action="append", choices=("ctlsp", "clang", "cppcheck"))
    ap.add_argument("--tool-timeout", type=float, default=TOOL_TIMEOUT, help="seconds per tool and project")
    args = ap.parse_args(argv)
    TOOL_TIMEOUT = args.tool_timeout
    tools = available_tools(args.tool or ["ctlsp", "clang", "cppcheck"])
    if not args.no_corpus:
        cases = discover()
        print(f"\ncorpus: {len(cases)} cases, {sum(len(c.marks()) for c in cases)} marked bugs (scored per twin)")
        results: dict[str, dict[str, Counts]] = {}
        exact: dict[str, Counts] = {}
        other_scores: list[list[CaseScore]] = []
        for tool in tools:
            unit_scores, exact_scores = corpus_scores(tool, cases)
            results[tool.name] = tally(unit_scores)
            if tool.name == "ctlsp":
                exact = tally(exact_scores)
            else:
                other_scores.append(unit_scores)
        # the bugs clang and cppcheck find between them, next to ctlsp's (issue 13's target)
        others = found_by_any(other_scores) if len(other_scores) > 1 else None
        print_corpus_table(cases, results, exact, others)
    projects = [] if args.no_default_projects else default_projects(args.work)
    projects += [Project(p.resolve().name, p.resolve()) for p in args.project]
    if projects:
        run_projects(tools, projects)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
