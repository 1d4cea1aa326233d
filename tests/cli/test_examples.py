"""``ctlsp check examples/``, the README's first command: it finds the documented bugs, no more.

Each example file marks the reported lines with ``BUG(rule)`` comments and lists them in its header;
the test holds the files, their headers and the tool's findings to each other.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from extractors.findings import Finding
from tests.cli.helpers import EXAMPLES, REPO, markers, run_subprocess, subprocess_env

HEADER = re.compile(r"^ \*\s+line (\d+)\s+([a-z-]+)\s")


def _header(path: Path) -> set[tuple[int, str]]:
    return {(int(m[1]), m[2]) for line in path.read_text().splitlines() if (m := HEADER.match(line))}


def _found_by_file(stdout: str) -> dict[str, set[tuple[int, str]]]:
    doc = json.loads(stdout)
    out: dict[str, set[tuple[int, str]]] = {}
    for d in doc["findings"]:
        f = Finding.from_dict(d)
        out.setdefault(Path(f.location.path).name, set()).add((f.location.start_line + 1, f.rule_id))
    return out


def test_examples_cover_the_promised_rules() -> None:
    rules = {rule for p in EXAMPLES.glob("*.c") for _, rule in markers(p)}
    assert rules >= {
        "memory-leak",
        "double-free",
        "use-after-free",
        "null-dereference",
        "uninitialised-read",
        "lock-not-released",
        "resource-leak",
    }
    assert (EXAMPLES / "clean.c").is_file() and not markers(EXAMPLES / "clean.c")


def test_example_headers_agree_with_their_markers() -> None:
    for p in EXAMPLES.glob("*.c"):
        assert _header(p) == markers(p), p.name


def test_check_examples_finds_exactly_the_marked_bugs() -> None:
    r = run_subprocess("examples/", "--format", "json", "--no-cache", cwd=REPO)
    assert r.code == 1, r.err
    found = _found_by_file(r.out)
    for p in sorted(EXAMPLES.glob("*.c")):
        assert found.get(p.name, set()) == markers(p), p.name
    assert "clean.c" not in found


def test_real_entry_point_text_output_and_usage_error(tmp_path: Path) -> None:
    r = run_subprocess("examples/leaks.c", "--no-cache", "--output", str(tmp_path / "out.txt"))
    assert r.code == 1 and r.out == ""
    report = (tmp_path / "out.txt").read_text().splitlines()
    assert report[0].startswith("examples/leaks.c:17:5: warning: ") and report[0].endswith("[memory-leak]")
    assert report[1].startswith("  examples/leaks.c:17:5: note: step 1: ")
    assert "ctlsp: 2 findings" in r.err
    bad = run_subprocess("examples/missing.c")
    assert bad.code == 2 and bad.err.strip() == "ctlsp: error: examples/missing.c: no such file or folder"
    clean = run_subprocess("examples/clean.c", "--no-cache")
    assert (clean.code, clean.out) == (0, "")


def test_progress_bar_on_a_terminal_does_not_disturb_the_report(tmp_path: Path) -> None:
    """With stderr on a pseudo-terminal the rich bar is drawn there; stdout stays the plain report."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "server", "check", "examples/", "--no-cache", "--format", "json"],
            cwd=REPO,
            env={**subprocess_env(), "COLUMNS": "100"},
            stdout=subprocess.PIPE,
            stderr=slave,
            timeout=300,
        )
        os.close(slave)
        slave = -1
        err = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
    finally:
        if slave != -1:
            os.close(slave)
        os.close(master)
    assert proc.returncode == 1
    assert _found_by_file(proc.stdout.decode())["leaks.c"] == markers(EXAMPLES / "leaks.c")
    assert b"checking" in err and b"ctlsp: 7 findings" in err
