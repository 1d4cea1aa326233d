"""Edit latency of the language server: didChange -> publishDiagnostics for a one-line edit in one function.

Runs the real server (``python -m server serve``) under pygls' client, with the debounce set to 0 so
that the number is the server's own work (parse, re-extract, re-check, publish).  Each edit changes
one line inside one randomly chosen function; the comparison point is a full re-check of the same
file measured in the same run: a fresh Project (empty knowledge base and result cache) extracting and
checking the whole file in-process, and the cold didOpen -> publishDiagnostics of the server.

    .venv/bin/python bench/edit_latency.py [--edits 100] [--real FILE ...] [--no-lua] [--big-lines 50000]

Without ``--real`` the real files are a zlib/libpng example and Lua's parser (lparser.c) and
LuaJIT's minilua.c (a 7.8k-line amalgamation with large recursive cycles), taken from the lupa sdist
that ``bench/c_bench.py`` also checks (downloaded once from PyPI into ``--work``).

Not run in CI (timings are machine-dependent); prints p50/p95 and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
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
            capabilities=types.ClientCapabilities(
                workspace=types.WorkspaceClientCapabilities(configuration=True)
            ),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="bench")],
        )
    )
    return client


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


async def wait_logged(client: LanguageClient, needle: str, timeout: float = 600) -> float:
    """When the server's log first says ``needle`` (it logs each finished check)."""
    deadline = time.perf_counter() + timeout
    while not any(needle in m.message for m in client.log_messages):
        if time.perf_counter() > deadline:
            raise TimeoutError(f"the server never logged {needle!r}")
        await asyncio.sleep(0.005)
    return time.perf_counter()


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


async def measure(name: str, text: str, edits: int, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = root / f"{name}.c"
        path.write_text(text)
        recorder = Recorder()
        client = await start_client(root, recorder)
        uri = path.as_uri()
        try:
            started = time.perf_counter()
            client.text_document_did_open(
                types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "c", 1, text))
            )
            cold = await wait_published(recorder, uri, 1) - started
            await wait_logged(client, f"checked {path.name} v1")  # logged right after the last publish
            complete = recorder.last[(uri, 1)] - started
            lines = text.splitlines()
            candidates = function_lines(text)
            latencies: list[float] = []
            for version in range(2, edits + 2):
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
        finally:
            await client.shutdown_session()
            await client.stop()
    full = full_recheck_seconds(text)
    p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
    return {
        "lines": len(text.splitlines()),
        "p50": p50,
        "p95": p95,
        "full": full,
        "cold_open": cold,
        "cold_complete": complete,
    }


def report(name: str, r: dict[str, float]) -> None:
    p50, p95, full = r["p50"] * 1000, r["p95"] * 1000, r["full"] * 1000
    print(
        f"{name:>10}: {int(r['lines']):6d} lines  edit p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  "
        f"full re-check {full:8.1f} ms (x{full / p50:.0f} p50, x{full / p95:.0f} p95)  "
        f"didOpen->first diagnostics {r['cold_open'] * 1000:8.1f} ms, all {r['cold_complete'] * 1000:8.1f} ms"
    )


async def main_async(args: argparse.Namespace) -> None:
    reals = [Path(r) for r in args.real] if args.real else default_reals(args.work, args.lua)
    report("generated", await measure("generated", generated(), args.edits))
    for real in reals:
        print(f"real file: {real}")
        report(real.stem[:10], await measure("real", real.read_text(encoding="utf-8", errors="replace"), args.edits))
    if args.big_lines:
        functions = max(1, args.big_lines // 25)
        report("big", await measure("big", generated(functions), max(10, args.edits // 5)))


def default_reals(work: Path, lua: bool) -> list[Path]:
    reals = [next(p for p in REAL_CANDIDATES if p.is_file())]
    root = fetch_lupa(work, "2.8") if lua else None
    if root is not None:
        reals += [root / f for f in LUA_FILES if (root / f).is_file()]
    return reals


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument(
        "--real", action="append", help="a real C file to edit (repeatable; default: see above)"
    )
    parser.add_argument("--big-lines", type=int, default=50_000, help="also a file this long (0: skip)")
    parser.add_argument("--no-lua", dest="lua", action="store_false", help="without --real: no Lua files")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "ctlsp-c-bench")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
