"""Shared helpers for the ``ctlsp check`` tests: run the command, build findings, read markers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from extractors.findings import Finding, Location, WitnessStep
from server import cli_check

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
BUG = re.compile(r"BUG\(([a-z-]+)\)")


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads(self.out)
        return doc


def run_inproc(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    """``ctlsp check`` in this process (fast; stderr is not a terminal, so no progress bar)."""
    code = cli_check.main(list(argv))
    cap = capsys.readouterr()
    return Run(code, cap.out, cap.err)


def subprocess_env() -> dict[str, str]:
    """The environment for ``python -m server``: this checkout first on the import path."""
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def run_subprocess(*argv: str, cwd: Path | None = None) -> Run:
    """The real entry point, ``python -m server check ...``, as a user or CI runs it."""
    env = subprocess_env()
    proc = subprocess.run(
        [sys.executable, "-m", "server", "check", *argv],
        cwd=cwd or REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def markers(path: Path) -> set[tuple[int, str]]:
    """(1-based line, rule id) of every ``BUG(rule)`` comment in a C file."""
    out = set()
    for i, line in enumerate(path.read_text().splitlines(), 1):
        for m in BUG.finditer(line):
            out.add((i, m.group(1)))
    return out


def loc(path: str, line: int, col: int = 4, end: int = 12) -> Location:
    return Location(path, line, col, line, end)


def finding(
    rule: str = "memory-leak",
    path: str = "src/a.c",
    line: int = 9,
    severity: str = "warning",
    steps: tuple[WitnessStep, ...] | None = None,
    fingerprint: str = "fp-1",
    function: str = "main",
) -> Finding:
    if steps is None:
        steps = (
            WitnessStep(loc(path, 3), "memory allocated to 'p' here", "main"),
            WitnessStep(loc(path, 20, 8), "'p' freed here", "release", ("main",), "event"),
            WitnessStep(loc(path, line), "returns without freeing 'p'", "main", (), "end"),
        )
    return Finding(
        rule,
        severity,
        "memory allocated to 'p' is leaked",
        loc(path, line),
        function,
        steps,
        401,  # type: ignore[arg-type]
        fingerprint,
    )
