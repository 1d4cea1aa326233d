"""Throughput of ``ctlsp check`` on real C code nobody here wrote, next to cppcheck in the same run.

Sources: Lua 5.4 as shipped inside the ``lupa`` sdist from PyPI (``pip download --no-binary :all:``),
and LuaJIT's ``minilua.c`` from the same sdist as one big single file (~7.8k lines: Lua 5.1
amalgamated).  cppcheck comes from Debian (``apt-get install cppcheck``, tried when running as root).

Measured, each as a separate process and wall time: ctlsp cold (no cache) with ``--jobs N`` and with
one job, ctlsp warm (second run on the on-disk cache), cppcheck (``-j N``, default checks), and both
tools on the single big file.  Prints lines/second and the ctlsp/cppcheck time ratio.

    .venv/bin/python bench/c_bench.py [--work DIR] [--jobs N] [--lupa-version 2.8]

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
        f"reused {c.get('checks_reused', 0)}; workers {c.get('workers', 1)}"
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "ctlsp-c-bench")
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--lupa-version", default="2.8")
    args = ap.parse_args()

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
