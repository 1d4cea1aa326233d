"""Edit latency of the language server: didChange -> publishDiagnostics for a one-line edit in one function.

Runs the real server (``python -m server serve``) under pygls' client, with the debounce set to 0 so
that the number is the server's own work (parse, re-extract, re-check, publish).  Each edit changes
one line inside one randomly chosen function; the comparison point is a full re-check of the same
file measured in the same run: a fresh Project (empty knowledge base and result cache) extracting and
checking the whole file in-process, and the cold didOpen -> publishDiagnostics of the server.

    .venv/bin/python bench/edit_latency.py [--edits 100] [--real FILE ...] [--no-lua] [--big-lines 50000]
        [--no-sqlite] [--memory-edits 1000] [--work DIR]

Inputs: a generated file of 200 functions (``generated``); real files, without ``--real`` a
zlib/libpng example and Lua's parser (lparser.c) and LuaJIT's minilua.c (a 7.8k-line amalgamation with
large recursive cycles), taken from the lupa sdist that ``bench/c_bench.py`` also checks (downloaded
once from PyPI into ``--work``); and two big inputs: a generated file of ``--big-lines`` lines
(``big``) and SQLite's amalgamation sqlite3.c (~270k lines), as shipped in the npm package
better-sqlite3 (pinned; ``npm pack`` downloads it once into ``--work`` without installing or building
anything).  Anything that cannot be downloaded is skipped with a message.

One line per input, the numbers in ms:
  edit p50/p95       didChange -> first publishDiagnostics of that version (``--edits`` edits; a fifth
                     of them, at least 10, on the big inputs): the edited function's own findings
                     (with the others' as shown before) when the rest of the file takes longer
  settled p50/p95    didChange -> the last publishDiagnostics of that version, once the server
                     logged its check done (each edit waits for that before the next is made)
  full re-check      median of a fresh in-process extraction + check of the whole file (3 runs; 1 on
                     the big inputs), and how many p50/p95 edits it is worth
  didOpen->first     cold didOpen -> the first publishDiagnostics (a long check publishes early findings)
  all                cold didOpen -> the last publish of version 1 (the server logged the check done)

and for each big input one more line:
  hover p50/p95/max  textDocument/hover at a few statement positions, one every ~50 ms from right after
                     didOpen until the first full check is done (request -> response; n = how many);
                     the answer is mostly empty (no finding there yet), so this is how long a request
                     waits while the check runs in the server's checker process
  RSS                VmRSS of the server process and its children, the checker process among them
                     (/proc/<pid>/status, MiB) after didOpen and its full
                     check, after N/2 and after N one-line edits (N = ``--memory-edits``; each point
                     read once the server logged that version checked), to see whether memory stays flat
  edits 1..N         p50/p95 of all N edits (the edit line above uses the first ones only)

and, with ``--typing N``, one more line per input:
  typing a block     after the edits, N times: a new line ``if (x) {`` after a statement of a
                     function, then ``x++;`` in it, then its ``}``, each a didChange of its own, as
                     typing makes them (two of the three leave a brace open); p50/p95 of didChange ->
                     first publishDiagnostics, and p95 of didChange -> the last one (settled)

sqlite3.c's first full check has taken the server 2-4 minutes (~110-250 s); the waits allow an
hour.  Not run in CI (timings are machine-dependent).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import math
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, LanguageClient, register_lsp_features

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.c_bench import fetch_lupa  # noqa: E402
from extractors.api import Project, parse_c  # noqa: E402
from tests.server.lsp_helpers import SERVER_COMMAND  # noqa: E402

REAL_CANDIDATES = [
    Path("/usr/share/doc/zlib1g-dev/examples/gzlog.c"),
    Path("/usr/share/doc/libpng-dev/examples/pngtest.c"),
    REPO / "tests/server/data/sample.c",
]
LUA_FILES = ("third-party/lua54/lparser.c", "third-party/luajit21/src/host/minilua.c")
SQLITE_PACKAGE = "better-sqlite3"
SQLITE_PACKAGE_VERSION = "13.2.0"  # ships SQLite 3.54.1 as package/deps/sqlite3/sqlite3.c (271,150 lines)
HOVER_INTERVAL = 0.05
HOVER_POSITIONS = 5
BIG_TIMEOUT = 3600.0  # sqlite3.c's first full check alone has taken ~250 s


def generated(functions: int = 200, lines_per_function: int = 25) -> str:
    """A C file of ``functions`` functions with allocations, branches, loops and calls.

    Like most real code the call graph is shallow: ten leaf helpers, each called by a tenth of the rest.
    Every fiftieth function leaks on one branch, so that there are findings to show (and to show early).
    """
    out = ["#include <stdlib.h>", "#include <stdio.h>", "#include <string.h>", ""]
    for k in range(functions):
        callee = f"fn_{k % 10}(acc, q);" if k >= 10 else "acc += 1;"
        body = [
            f"int fn_{k}(int n, char *q)",
            "{",
            "    int acc = 0;",
            f"    char *p = malloc(n + {k});",
            "    if (p == NULL)",
            "        return -1;",
            "    for (int i = 0; i < n; i++) {",
            f"        acc += {k};",
            "        if (acc > 100)",
            "            break;",
            "    }",
            "    if (q != NULL && n > 3)",
            "        memcpy(p, q, 3);",
            f"    {callee}",
            "    while (acc > 0) {",
            "        acc -= 7;",
            "    }",
            f"    if (n == {k % 7})",
            "        free(p);",
            "    else",
            "        free(p);" if k % 50 != 49 else "        acc--;",
        ]
        body += ["    acc++;"] * max(0, lines_per_function - len(body) - 2)
        body += ["    return acc;", "}", ""]
        out += body
    return "\n".join(out) + "\n"


def fetch_sqlite(work: Path, version: str = SQLITE_PACKAGE_VERSION) -> Path | None:
    """sqlite3.c from the better-sqlite3 npm tarball (downloaded once into ``work``; None if offline).

    A registry package, pinned, because the bench must get the same file on every machine and only
    package registries are reachable.  ``npm pack`` only downloads the tarball: no install scripts and
    no native build.  Versions ship the amalgamation either as a plain file under ``package/deps/`` or
    inside an archive there, so both are looked at.
    """
    target = work / f"{SQLITE_PACKAGE}-{version}" / "sqlite3.c"
    if target.is_file():
        return target
    npm = shutil.which("npm")
    if npm is None:
        print("skip sqlite3.c: npm is not installed (apt-get install npm)")
        return None
    work.mkdir(parents=True, exist_ok=True)
    tgz = work / f"{SQLITE_PACKAGE}-{version}.tgz"
    if not tgz.is_file():
        cmd = [npm, "pack", f"{SQLITE_PACKAGE}@{version}", "--pack-destination", str(work), "--loglevel=error"]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        except subprocess.TimeoutExpired:
            print(f"skip sqlite3.c: npm pack {SQLITE_PACKAGE}@{version} did not finish (offline?)")
            return None
        if proc.returncode != 0 or not tgz.is_file():
            why = " ".join(ln for ln in proc.stderr.splitlines() if "error" in ln and "complete log" not in ln)
            print(f"skip sqlite3.c: cannot download {SQLITE_PACKAGE}@{version}: {why[:300]}")
            return None
    source = sqlite_from_tarball(tgz)
    if source is None:
        print(f"skip sqlite3.c: not found under package/deps/ in {tgz}")
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    partial.write_bytes(source)
    partial.replace(target)  # never a half-written file that the next run would take as downloaded
    return target


def sqlite_from_tarball(tgz: Path) -> bytes | None:
    """The bytes of sqlite3.c in an npm tarball: a member of it, or of an archive under package/deps/."""
    with tarfile.open(tgz) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and m.name.startswith("package/deps/")]
        for member in members:
            if member.name.endswith("/sqlite3.c") and (f := tar.extractfile(member)) is not None:
                return f.read()
        for member in members:
            if member.name.endswith((".tar.gz", ".tgz", ".tar")) and (f := tar.extractfile(member)) is not None:
                with tarfile.open(fileobj=io.BytesIO(f.read())) as inner:
                    for m in inner.getmembers():
                        if m.isfile() and m.name.endswith("sqlite3.c") and (g := inner.extractfile(m)) is not None:
                            return g.read()
    return None


def function_lines(text: str) -> list[int]:
    """0-based lines that hold exactly one simple statement of a function body (where a one-line
    edit goes), found in the syntax tree: counting braces also picked members of struct types and
    lines of initialisers, whose replacement broke the parse of much of a file."""
    source = text.encode()
    lines = source.split(b"\n")
    result: set[int] = set()
    stack = [parse_c(source).root_node]
    while stack:
        node = stack.pop()
        if node.type == "function_definition" and (body := node.child_by_field_name("body")) is not None:
            inner = [body]
            while inner:
                n = inner.pop()
                row = n.start_point[0]
                if (
                    n.type in ("expression_statement", "declaration")
                    and row == n.end_point[0]
                    and lines[row].strip() == (n.text or b"").strip()
                    and b"return" not in lines[row]
                    and not n.has_error
                ):
                    result.add(row)
                inner.extend(n.children)
            continue
        stack.extend(node.children)
    return sorted(result)


@dataclass
class Recorder:
    published: dict[tuple[str, int | None], float] = field(default_factory=dict)  # first publish
    last: dict[tuple[str, int | None], float] = field(default_factory=dict)
    event: asyncio.Event = field(default_factory=asyncio.Event)


async def start_client(root: Path, recorder: Recorder) -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    features: dict[str, Any] = dict(DEFAULT_CLIENT_FEATURES)

    def on_publish(_client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        now = time.perf_counter()
        recorder.published.setdefault((params.uri, params.version), now)
        recorder.last[(params.uri, params.version)] = now
        recorder.event.set()

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    register_lsp_features(client, features)
    client.set_configuration({"debounceMs": 0}, section="ctlsp")
    await client.start_io(*SERVER_COMMAND, cwd=str(REPO))
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(configuration=True)),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="bench")],
        )
    )
    return client


def server_pid(client: LanguageClient) -> int | None:
    """The pid of the server process: pygls' client keeps the process ``start_io`` spawned in its
    private ``_server`` (pygls 2.x).  SERVER_COMMAND runs Python directly, so that process is the
    server itself (its checks run in a child process, see :func:`rss_mib`).  None if pygls moves it."""
    process = getattr(client, "_server", None)
    return process.pid if isinstance(process, asyncio.subprocess.Process) else None


def rss_mib(pid: int | None) -> float:
    """Resident memory of a process and its children in MiB (VmRSS; the server's checks, and so most
    of its memory, are in its child the checker process); NaN where there is no /proc (not Linux)."""
    if pid is None:
        return math.nan
    children = (_own_rss_mib(child) for child in _children(pid))
    return _own_rss_mib(pid) + sum(r for r in children if not math.isnan(r))  # a child may just have ended


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text()
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _own_rss_mib(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return math.nan
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return math.nan


async def wait_published(recorder: Recorder, uri: str, version: int, timeout: float = 600) -> float:
    deadline = time.perf_counter() + timeout
    while (uri, version) not in recorder.published:
        recorder.event.clear()
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError(f"no diagnostics for {uri} v{version}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(recorder.event.wait(), remaining)
    return recorder.published[(uri, version)]


def checked_needle(path: Path, version: int) -> str:
    """What the server logs when the check of ``version`` is done (``ctlsp: checked a.c v3: ...``);
    the colon keeps v1 from matching the line of v10."""
    return f"checked {path.name} v{version}:"


def logged(client: LanguageClient, needle: str) -> bool:
    return any(needle in m.message for m in client.log_messages)


async def wait_logged(client: LanguageClient, needle: str, timeout: float = 600) -> float:
    """When the server's log first says ``needle`` (it logs each finished check)."""
    deadline = time.perf_counter() + timeout
    while not logged(client, needle):
        if time.perf_counter() > deadline:
            raise TimeoutError(f"the server never logged {needle!r}")
        await asyncio.sleep(0.005)
    return time.perf_counter()


async def hover_until_logged(
    client: LanguageClient, uri: str, positions: list[types.Position], needle: str, timeout: float
) -> list[float]:
    """Latencies of hover requests sent one every ~HOVER_INTERVAL (or right after a slower answer)
    until the server logs ``needle``: how responsive the editor stays while a long check runs."""
    latencies: list[float] = []
    deadline = time.perf_counter() + timeout
    k = 0
    while not logged(client, needle):
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError(f"the server never logged {needle!r}")
        params = types.HoverParams(types.TextDocumentIdentifier(uri), positions[k % len(positions)])
        k += 1
        sent = time.perf_counter()
        await asyncio.wait_for(client.text_document_hover_async(params), remaining)
        took = time.perf_counter() - sent
        latencies.append(took)
        await asyncio.sleep(max(0.0, HOVER_INTERVAL - took))
    return latencies


def hover_positions(text: str, candidates: list[int], count: int = HOVER_POSITIONS) -> list[types.Position]:
    """``count`` statement lines spread over the file, on their first character (inside functions,
    where a user hovers over findings)."""
    if not candidates:
        return [types.Position(0, 0)]
    lines = text.split("\n")
    picked = [candidates[(len(candidates) - 1) * i // max(1, count - 1)] for i in range(count)]
    return [types.Position(row, len(lines[row]) - len(lines[row].lstrip())) for row in dict.fromkeys(picked)]


def full_recheck_seconds(text: str, repeats: int = 3) -> float:
    """Median time of a from-scratch extraction + check of the whole file (fresh Project and KB)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        project = Project()
        project.update_file("/bench/full.c", text)
        project.check(["/bench/full.c"], interprocedural=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(
    name: str,
    text: str,
    edits: int,
    seed: int = 1,
    *,
    big: bool = False,
    memory_edits: int = 0,
    typing: int = 0,
) -> dict[str, float]:
    """The numbers of one input (see the module docstring).  ``big`` adds the hover loop during the
    first check and RSS after open, and runs max(edits, memory_edits) edits with RSS at N/2 and N;
    the edit p50/p95 stay those of the first ``edits`` edits, comparable with the other inputs."""
    rng = random.Random(seed)
    candidates = function_lines(text)
    open_timeout = BIG_TIMEOUT if big else 600.0
    extra: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = root / f"{name}.c"
        path.write_text(text)
        recorder = Recorder()
        client = await start_client(root, recorder)
        uri = path.as_uri()
        pid = server_pid(client)
        hovers: asyncio.Task[list[float]] | None = None
        try:
            started = time.perf_counter()
            client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "c", 1, text)))
            hovers = (
                asyncio.create_task(
                    hover_until_logged(
                        client, uri, hover_positions(text, candidates), checked_needle(path, 1), open_timeout
                    )
                )
                if big
                else None
            )
            cold = await wait_published(recorder, uri, 1, open_timeout) - started
            # logged right after the last publish
            await wait_logged(client, checked_needle(path, 1), open_timeout)
            complete = recorder.last[(uri, 1)] - started
            if hovers is not None:
                hover_latencies = await hovers
                extra.update(
                    hover_n=len(hover_latencies),
                    hover_p50=percentile(hover_latencies, 0.5) if hover_latencies else math.nan,
                    hover_p95=percentile(hover_latencies, 0.95) if hover_latencies else math.nan,
                    hover_max=max(hover_latencies, default=math.nan),
                    rss_open=rss_mib(pid),
                )
            lines = text.split("\n")
            latencies: list[float] = []
            settled: list[float] = []
            total = max(edits, memory_edits) if big else edits
            checkpoints = {memory_edits // 2: "rss_half", memory_edits: "rss_end"} if big and memory_edits else {}
            for done, version in enumerate(range(2, total + 2), start=1):
                line = rng.choice(candidates)
                old = lines[line]
                indent = old[: len(old) - len(old.lstrip())]
                new = f"{indent}bench_{version} = {version};" if rng.random() < 0.5 else f"{indent}(void)0;"
                lines[line] = new
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(line, 0), types.Position(line, len(old))), text=new
                )
                sent = time.perf_counter()
                client.text_document_did_change(
                    types.DidChangeTextDocumentParams(
                        types.VersionedTextDocumentIdentifier(version=version, uri=uri), [change]
                    )
                )
                latencies.append(await wait_published(recorder, uri, version) - sent)
                await wait_logged(client, checked_needle(path, version))  # logged after its last publish
                settled.append(recorder.last[(uri, version)] - sent)
                if done in checkpoints:
                    extra[checkpoints[done]] = rss_mib(pid)
            typed: list[float] = []
            typed_settled: list[float] = []
            version = total + 1
            statements = [c for c in candidates if lines[c].rstrip().endswith(";")] or candidates
            inserted: list[int] = []  # the lines earlier episodes typed after (original numbering)
            for episode in range(typing):
                at = rng.choice(statements)
                row = at + 3 * sum(1 for i in inserted if i < at)  # that line in today's text
                inserted.append(at)
                indent = lines[row][: len(lines[row]) - len(lines[row].lstrip())]
                for step, typed_line in enumerate(
                    (f"{indent}if (bench_t{episode}) {{", f"{indent}  bench_t{episode}++;", f"{indent}}}")
                ):
                    version += 1
                    end = row + step  # the line the new one goes after
                    change = types.TextDocumentContentChangePartial(
                        range=types.Range(types.Position(end, len(lines[end])), types.Position(end, len(lines[end]))),
                        text="\n" + typed_line,
                    )
                    lines.insert(end + 1, typed_line)
                    sent = time.perf_counter()
                    client.text_document_did_change(
                        types.DidChangeTextDocumentParams(
                            types.VersionedTextDocumentIdentifier(version=version, uri=uri), [change]
                        )
                    )
                    typed.append(await wait_published(recorder, uri, version) - sent)
                    await wait_logged(client, checked_needle(path, version))
                    typed_settled.append(recorder.last[(uri, version)] - sent)
            if typed:
                extra.update(
                    typing_n=len(typed),
                    typing_p50=percentile(typed, 0.5),
                    typing_p95=percentile(typed, 0.95),
                    typing_settled_p95=percentile(typed_settled, 0.95),
                )
        finally:
            if hovers is not None and not hovers.done():  # the open timed out: stop hovering first
                hovers.cancel()
            await client.shutdown_session()
            await client.stop()
    full = full_recheck_seconds(text, repeats=1 if big else 3)
    first = latencies[:edits]
    p50, p95 = percentile(first, 0.5), percentile(first, 0.95)
    extra.update(settled_p50=percentile(settled[:edits], 0.5), settled_p95=percentile(settled[:edits], 0.95))
    if big and memory_edits:
        extra.update(
            memory_edits=memory_edits,
            all_p50=percentile(latencies, 0.5),
            all_p95=percentile(latencies, 0.95),
        )
    return {
        "lines": len(text.splitlines()),
        "p50": p50,
        "p95": p95,
        "full": full,
        "cold_open": cold,
        "cold_complete": complete,
        **extra,
    }


def report(name: str, r: dict[str, float]) -> None:
    p50, p95, full = r["p50"] * 1000, r["p95"] * 1000, r["full"] * 1000
    print(
        f"{name:>10}: {int(r['lines']):6d} lines  edit p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  "
        f"settled p50 {r['settled_p50'] * 1000:7.1f} ms  p95 {r['settled_p95'] * 1000:7.1f} ms  "
        f"full re-check {full:8.1f} ms (x{full / p50:.0f} p50, x{full / p95:.0f} p95)  "
        f"didOpen->first diagnostics {r['cold_open'] * 1000:8.1f} ms, all {r['cold_complete'] * 1000:8.1f} ms"
    )
    if "typing_n" in r:
        print(
            f"{name:>10}: typing a block (n={int(r['typing_n'])}) p50 {r['typing_p50'] * 1000:7.1f} ms  "
            f"p95 {r['typing_p95'] * 1000:7.1f} ms  settled p95 {r['typing_settled_p95'] * 1000:7.1f} ms"
        )
    if "hover_n" not in r:
        return
    line = (
        f"{name:>10}: hover during the first check p50 {r['hover_p50'] * 1000:7.1f} ms  "
        f"p95 {r['hover_p95'] * 1000:7.1f} ms  max {r['hover_max'] * 1000:7.1f} ms (n={int(r['hover_n'])})  "
        f"RSS after open {r['rss_open']:7.1f} MiB"
    )
    if "memory_edits" in r:
        n = int(r["memory_edits"])
        line += (
            f", after {n // 2} edits {r.get('rss_half', math.nan):7.1f} MiB, after {n} edits {r['rss_end']:7.1f} MiB  "
            f"edits 1..{n} p50 {r['all_p50'] * 1000:7.1f} ms  p95 {r['all_p95'] * 1000:7.1f} ms"
        )
    print(line)


async def main_async(args: argparse.Namespace) -> None:
    reals = [Path(r) for r in args.real] if args.real else default_reals(args.work, args.lua)
    sqlite = fetch_sqlite(args.work, args.sqlite_version) if args.sqlite else None
    typing = args.typing
    report("generated", await measure("generated", generated(), args.edits, typing=typing))
    for real in reals:
        print(f"real file: {real}")
        report(
            real.stem[:10],
            await measure("real", real.read_text(encoding="utf-8", errors="replace"), args.edits, typing=typing),
        )
    big_edits = max(10, args.edits // 5)
    if args.big_lines:
        functions = max(1, args.big_lines // 25)
        report(
            "big",
            await measure(
                "big", generated(functions), big_edits, big=True, memory_edits=args.memory_edits, typing=typing
            ),
        )
    if sqlite is not None:
        print(f"big real file: {sqlite}")
        text = sqlite.read_text(encoding="utf-8", errors="replace")
        report(
            "sqlite3",
            await measure("sqlite3", text, big_edits, big=True, memory_edits=args.memory_edits, typing=typing),
        )


def default_reals(work: Path, lua: bool) -> list[Path]:
    reals = [next(p for p in REAL_CANDIDATES if p.is_file())]
    root = fetch_lupa(work, "2.8") if lua else None
    if root is not None:
        reals += [root / f for f in LUA_FILES if (root / f).is_file()]
    return reals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--real", action="append", help="a real C file to edit (repeatable; default: see above)")
    parser.add_argument("--big-lines", type=int, default=50_000, help="also a file this long (0: skip)")
    parser.add_argument("--no-lua", dest="lua", action="store_false", help="without --real: no Lua files")
    parser.add_argument(
        "--sqlite", action=argparse.BooleanOptionalAction, default=True, help="also sqlite3.c (a big input)"
    )
    parser.add_argument("--sqlite-version", default=SQLITE_PACKAGE_VERSION, help="of the better-sqlite3 npm package")
    parser.add_argument(
        "--memory-edits",
        type=int,
        default=1000,
        help="edits on each big input, RSS read after half and after all of them (0: RSS after open only)",
    )
    parser.add_argument(
        "--typing",
        type=int,
        default=3,
        help="on each input, type this many blocks after the edits, a line at a time (0: none)",
    )
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "ctlsp-c-bench")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
