"""Throughput of ``ctlsp check`` on real C code nobody here wrote, next to cppcheck in the same run.

Sources: Lua 5.4 as shipped inside the ``lupa`` sdist from PyPI (``pip download --no-binary :all:``),
and LuaJIT's ``minilua.c`` from the same sdist as one big single file (~7.8k lines: Lua 5.1
amalgamated).  cppcheck comes from Debian (``apt-get install cppcheck``, tried when running as root).

Measured, each as a separate process and wall time: ctlsp cold (no cache) with ``--jobs N`` and with
one job, ctlsp warm (second run on the on-disk cache), cppcheck (``-j N``, default checks), and both
tools on the single big file.  Prints lines/second and the ctlsp/cppcheck time ratio.

    .venv/bin/python bench/c_bench.py [--work DIR] [--jobs N] [--lupa-version 2.8]

Big inputs (issue 17), ``--big``: SQLite's amalgamation alone (``--sqlite``, default the
better-sqlite3 sdist's ``sqlite3.c`` under the work folder), and a tree of every project unpacked
under the work folder and ``--more`` folders (default ``/tmp/ctlsp-detection``).  Each is checked
cold by ctlsp ``-j1``, ``-j2`` and ``--executor dask`` (a local cluster of two processes), by
``cppcheck -j2`` and by ``clang --analyze`` (one file per process, two at a time), each in a fresh
process; printed: seconds, lines per second, the peak resident memory of the largest process of
the run, and ctlsp's time ratio to cppcheck and clang.  ``--max-files N`` keeps the first N files
of each input, for a quick smoke run of this code path:

    .venv/bin/python bench/c_bench.py --big [--sqlite FILE] [--more DIR ...] [--skip PROJECT/PATH ...]
        [--max-files N] [--no-install]

Not run in CI (timings depend on the machine); anything missing is skipped with a message.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from server.check_runner import default_jobs  # noqa: E402
from server.workspace import collect  # noqa: E402


@dataclass
class Timing:
    label: str
    seconds: float
    lines: int
    findings: str = ""

    @property
    def rate(self) -> float:
        return self.lines / self.seconds if self.seconds > 0 else float("inf")


def fetch_lupa(work: Path, version: str) -> Path | None:
    """The unpacked lupa sdist (downloaded once into ``work``)."""
    root = work / f"lupa-{version}"
    if root.is_dir():
        return root
    work.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps", "-d", str(work)]
    proc = subprocess.run([*cmd, f"lupa=={version}"], capture_output=True, text=True)
    sdists = sorted(work.glob(f"lupa-{version}.tar.gz"))
    if proc.returncode != 0 or not sdists:
        print(f"skip: cannot download the lupa sdist: {proc.stderr.strip()[-300:]}")
        return None
    with tarfile.open(sdists[0]) as tar:
        tar.extractall(work, filter="data")
    return root if root.is_dir() else None


def ensure_cppcheck() -> str | None:
    found = shutil.which("cppcheck")
    if found:
        return found
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        print("installing cppcheck with apt-get ...")
        subprocess.run(["apt-get", "update"], capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "cppcheck"], capture_output=True)
        return shutil.which("cppcheck")
    return None


def count_lines(paths: list[str]) -> int:
    return sum(Path(p).read_bytes().count(b"\n") for p in paths)


def run_timed(
    cmd: list[str], env: dict[str, str] | None = None
) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return time.perf_counter() - start, proc


def ctlsp(target: Path, lines: int, label: str, *extra: str) -> Timing | None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "server.cli_check", str(target), "--format", "json", "--no-progress", *extra]
    seconds, proc = run_timed(cmd, env)
    if proc.returncode not in (0, 1):
        print(f"ctlsp failed ({label}): {proc.stderr.strip()[-500:]}")
        return None
    summary = json.loads(proc.stdout)["summary"]
    c = summary["counters"]
    note = (
        f"{summary['findings']} findings; files checked {summary['files_checked']}, "
        f"reused {summary['files_reused']}; model checks run {c.get('checks_run', 0)}, "
        f"reused {c.get('checks_reused', 0)}, bounded {c.get('checks_bounded', 0)}; workers {c.get('workers', 1)}"
    )
    return Timing(label, seconds, lines, note)


def cppcheck(exe: str, target: Path, lines: int, label: str, jobs: int) -> Timing | None:
    cmd = [exe, "--quiet", f"-j{jobs}", "--template={file}:{line}: {severity}: {message} [{id}]", str(target)]
    seconds, proc = run_timed(cmd)
    if proc.returncode != 0:
        print(f"cppcheck failed ({label}): {proc.stderr.strip()[-300:]}")
        return None
    n = sum(1 for ln in proc.stderr.splitlines() if ": " in ln and "[" in ln)
    return Timing(label, seconds, lines, f"{n} messages")


def show(rows: list[Timing]) -> None:
    width = max(len(r.label) for r in rows)
    for r in rows:
        print(
            f"  {r.label:<{width}}  {r.lines:>7} lines  {r.seconds:8.2f} s  "
            f"{r.rate:9.0f} lines/s  {r.findings}"
        )


# ----- big inputs (--big) ------------------------------------------------------------------------
_MEASURE = """
import json, os, resource, subprocess, sys, threading, time
out, cmd = sys.argv[1], sys.argv[2:]
peak = [0]  # the largest resident set seen of any process under this one, in kB


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return next((int(ln.split()[1]) for ln in f if ln.startswith("VmRSS:")), 0)
    except (OSError, ValueError):
        return 0


def sample(stop):
    # processes this one does not wait for (a Dask forkserver's workers) escape RUSAGE_CHILDREN
    me = os.getpid()
    while not stop.wait(0.2):
        parent = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat") as f:
                        parent[int(name)] = int(f.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    pass
        under, grew = {me}, True
        while grew:
            more = {p for p, pp in parent.items() if pp in under and p not in under}
            under |= more
            grew = bool(more)
        peak[0] = max([peak[0], *(rss_kb(p) for p in under - {me})])


stop = threading.Event()
if os.path.isdir("/proc"):
    threading.Thread(target=sample, args=(stop,), daemon=True).start()
start = time.perf_counter()
with open(out, "w") as f:
    rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
seconds = time.perf_counter() - start
stop.set()
maxrss = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, peak[0])
print(json.dumps({"rc": rc, "seconds": seconds, "maxrss_kb": maxrss}))
"""


@dataclass
class Measured(Timing):
    """A timing of a child process, with its peak resident memory."""

    peak_mb: float = 0.0
    note: str = ""


def measure(label: str, cmd: list[str], lines: int, ok: tuple[int, ...] = (0, 1)) -> Measured | None:
    """``cmd`` run from a fresh Python process, which reports its wall time and the peak resident
    memory of the largest process under it: the most of ``RUSAGE_CHILDREN`` (children and the
    descendants they waited for, such as pool workers) and of sampling every process under it five
    times a second (a local Dask cluster's workers are forked by a server process nobody waits
    for)."""
    with tempfile.NamedTemporaryFile("r", suffix=".out") as out:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        proc = subprocess.run(
            [sys.executable, "-c", _MEASURE, out.name, *cmd], capture_output=True, text=True, env=env
        )
        text = Path(out.name).read_text(errors="replace")
    if proc.returncode != 0:
        print(f"{label}: measuring failed: {proc.stderr.strip()[-300:]}")
        return None
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    if got["rc"] not in ok:
        print(f"{label}: exit {got['rc']}: {text.strip()[-300:]}")
        return None
    return Measured(label, got["seconds"], lines, peak_mb=got["maxrss_kb"] / 1024, note=_last_line(text))


def _last_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.startswith("ctlsp: ") and "findings" in ln]
    return lines[-1][len("ctlsp: ") :] if lines else ""


def big_inputs(
    work: Path, sqlite: Path | None, more: list[Path], max_files: int | None, skip: tuple[str, ...] = ()
) -> dict[str, list[str]]:
    """Private copies (a cold cache every time) of sqlite3.c alone and of the tree: every unpacked
    project folder under ``work`` and ``more`` (once per name; not this bench's own copies), each
    limited to its first ``max_files`` C files, without the folders ``skip`` names (paths that start
    with a project's folder name, such as ``lupa-2.8/lupa``)."""
    skipped = [Path(s).parts for s in skip]
    out: dict[str, list[str]] = {}
    corpus = work / "big-corpus"
    shutil.rmtree(corpus, ignore_errors=True)
    if sqlite is not None and sqlite.is_file():
        (corpus / "sqlite").mkdir(parents=True)
        shutil.copy(sqlite, corpus / "sqlite" / sqlite.name)
        out["sqlite3.c alone"] = [str(corpus / "sqlite" / sqlite.name)]
    else:
        print(f"skip: no {sqlite} (sqlite3.c of the better-sqlite3 sdist from npm)")
    seen: set[str] = set()
    tree: list[str] = []
    for root in [work, *more]:
        if not root.is_dir():
            continue
        for project in sorted(p for p in root.iterdir() if p.is_dir()):
            if project.name in seen or project.name in ("corpus", "big-corpus", "projects"):
                continue
            seen.add(project.name)
            files = sorted(
                f
                for f in collect([str(project)])
                if not any((project.name, *Path(f).relative_to(project).parts)[: len(s)] == s for s in skipped)
            )
            if max_files is not None:
                files = files[:max_files]
            for f in files:
                target = corpus / "tree" / project.name / Path(f).relative_to(project)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(f, target)
                tree.append(str(target))
    if tree:
        out[f"tree of {len(seen)} projects"] = tree
    return out


def ensure_tool(name: str, package: str, install: bool) -> str | None:
    found = shutil.which(name)
    if found or not install:
        return found
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        print(f"installing {package} with apt-get ...")
        subprocess.run(["apt-get", "update"], capture_output=True)
        subprocess.run(["apt-get", "install", "-y", package], capture_output=True)
    return shutil.which(name)


_CLANG_ALL = """
import os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
jobs, clang, files = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
def one(f):
    incs = []
    d = os.path.dirname(f)
    while d and d != os.path.dirname(d):
        incs.append("-I" + d)
        if os.path.basename(os.path.dirname(d)) in ("tree", "big-corpus"):
            break
        d = os.path.dirname(d)
    return subprocess.run([clang, "--analyze", "-o", os.devnull, *incs, f], capture_output=True).returncode
with ThreadPoolExecutor(jobs) as pool:
    codes = list(pool.map(one, files))
print(f"ctlsp: clang on {len(files)} files, {sum(1 for c in codes if c)} with errors (findings not counted)")
"""


def big_main(args: argparse.Namespace) -> int:
    inputs = big_inputs(args.work, args.sqlite, args.more, args.max_files, tuple(args.skip))
    if not inputs:
        print("skip: no big input found")
        return 0
    cppcheck_exe = ensure_tool("cppcheck", "cppcheck", args.install)
    clang_exe = ensure_tool("clang", "clang", args.install)
    print(f"machine: {os.cpu_count()} cores; peak memory: the largest process of each run\n")
    for name, files in inputs.items():
        lines = count_lines(files)
        c_files = [f for f in files if f.endswith(".c")]
        print(f"{name}: {len(files)} files, {lines} lines")
        ctlsp_cmd = [sys.executable, "-m", "server.cli_check", *files, "--no-cache", "--no-progress"]
        rows = [
            measure("ctlsp -j1", [*ctlsp_cmd, "--jobs", "1"], lines),
            measure("ctlsp -j2", [*ctlsp_cmd, "--jobs", "2"], lines),
            measure("ctlsp dask LocalCluster (2 processes)", [*ctlsp_cmd, "--jobs", "2", "--executor", "dask"], lines),
        ]
        others: list[Measured | None] = []
        if cppcheck_exe is None:
            print("  skip: cppcheck not found (apt-get install cppcheck)")
        else:
            others.append(measure("cppcheck -j2", [cppcheck_exe, "--quiet", "-j2", *c_files], lines, ok=(0,)))
        if clang_exe is None:
            print("  skip: clang not found (apt-get install clang)")
        else:
            cmd = [sys.executable, "-c", _CLANG_ALL, "2", clang_exe, *c_files]
            others.append(measure("clang --analyze, 2 files at a time", cmd, lines, ok=(0,)))
        got = [r for r in rows + others if r is not None]
        width = max((len(r.label) for r in got), default=0)
        for r in got:
            print(
                f"  {r.label:<{width}}  {r.seconds:8.2f} s  {r.rate:9.0f} lines/s  "
                f"{r.peak_mb:7.0f} MB  {r.note}"
            )
        for r in (x for x in rows if x is not None):
            for o in (x for x in others if x is not None):
                print(f"  time ratio {r.label} / {o.label}: {r.seconds / o.seconds:.2f}")
        print()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "ctlsp-c-bench")
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--lupa-version", default="2.8")
    ap.add_argument("--big", action="store_true", help="the big inputs: sqlite3.c alone and a multi-project tree")
    ap.add_argument("--sqlite", type=Path, help="sqlite3.c (default: WORK/better-sqlite3-*/sqlite3.c)")
    ap.add_argument("--more", type=Path, nargs="*", default=[Path("/tmp/ctlsp-detection")])
    ap.add_argument(
        "--skip", nargs="*", default=[], help="folders to leave out of the tree, as PROJECT/PATH (e.g. lupa-2.8/lupa)"
    )
    ap.add_argument("--max-files", type=int, help="keep the first N files of each input (a smoke run)")
    ap.add_argument("--no-install", dest="install", action="store_false", help="never apt-get a tool")
    args = ap.parse_args()
    if args.big:
        if args.sqlite is None:
            found = sorted(args.work.glob("better-sqlite3-*/sqlite3.c"))
            args.sqlite = found[-1] if found else args.work / "sqlite3.c"
        return big_main(args)

    lupa = fetch_lupa(args.work, args.lupa_version)
    if lupa is None:
        return 0
    # a private copy, so the on-disk cache of earlier runs never makes the "cold" run warm
    corpus = args.work / "corpus"
    shutil.rmtree(corpus, ignore_errors=True)
    shutil.copytree(
        lupa / "third-party" / "lua54", corpus / "lua54", ignore=shutil.ignore_patterns("testes", "manual")
    )
    big_src = lupa / "third-party" / "luajit21" / "src" / "host" / "minilua.c"
    (corpus / "single").mkdir()
    big = corpus / "single" / "minilua.c"
    shutil.copy(big_src, big)

    lua = corpus / "lua54"
    files = collect([str(lua)])
    lines = count_lines(files)
    big_lines = count_lines([str(big)])
    print(
        f"corpus: Lua 5.4 from lupa {args.lupa_version}: {len(files)} files, {lines} lines; "
        f"{big.name}: {big_lines} lines"
    )
    print(f"machine: {os.cpu_count()} cores, jobs {args.jobs}\n")

    rows: list[Timing] = []
    for t in (
        ctlsp(lua, lines, f"ctlsp cold -j{args.jobs}", "--no-cache", "--jobs", str(args.jobs)),
        ctlsp(lua, lines, "ctlsp cold -j1", "--no-cache", "--jobs", "1"),
        ctlsp(lua, lines, "ctlsp first run (fills cache)", "--jobs", str(args.jobs)),
        ctlsp(lua, lines, "ctlsp warm (cache)", "--jobs", str(args.jobs)),
        ctlsp(big, big_lines, "ctlsp single big file", "--no-cache", "--jobs", "1"),
    ):
        if t is not None:
            rows.append(t)

    exe = ensure_cppcheck()
    cpp: list[Timing] = []
    if exe is None:
        print("skip: cppcheck not found (apt-get install cppcheck); no ratio")
    else:
        version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
        print(f"{version}")
        for t in (
            cppcheck(exe, lua, lines, f"cppcheck -j{args.jobs}", args.jobs),
            cppcheck(exe, big, big_lines, "cppcheck single big file", 1),
        ):
            if t is not None:
                cpp.append(t)
    show(rows + cpp)

    by = {r.label: r for r in rows + cpp}
    pairs = [
        (f"ctlsp cold -j{args.jobs}", f"cppcheck -j{args.jobs}"),
        ("ctlsp warm (cache)", f"cppcheck -j{args.jobs}"),
        ("ctlsp single big file", "cppcheck single big file"),
    ]
    print()
    for a, b in pairs:
        if a in by and b in by:
            print(f"  time ratio {a} / {b}: {by[a].seconds / by[b].seconds:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
