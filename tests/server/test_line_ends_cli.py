"""Issue #15: ``ctlsp check`` counts lines as the editor does (``\\n``, ``\\r\\n`` and a lone ``\\r``
each end one), in its text, JSON and SARIF reports, and reads the macros of a ``\\r`` header."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run_inproc

HEADER = ["/* util */", "#define set_int(i, d) ((i) = (int)(d))", ""]
SOURCE = [
    "#include <stdlib.h>",
    '#include "util.h"',
    "",
    "int get(int d)",
    "{",
    "    int x;",
    "    set_int(x, d);",  # defines x: no uninitialised read, if the header's macro was read
    "    return x;",
    "}",
    "",
    "int work(int n)",
    "{",
    "    char *p = malloc(n);",
    "    if (p == NULL)",
    "        return -1;",
    "    p[0] = 1;",
    "    return 0;",
    "}",
    "",
]
MALLOC = SOURCE.index("    char *p = malloc(n);") + 1  # 1-based, as the reports count
RETURN = SOURCE.index("    return 0;") + 1
ENDS = pytest.mark.parametrize("end", ["\n", "\r", "\r\n"], ids=["lf", "cr", "crlf"])


def project(folder: Path, end: str) -> Path:
    (folder / "util.h").write_bytes(end.join(HEADER).encode())
    path = folder / "a.c"
    path.write_bytes(end.join(SOURCE).encode())
    return path


@ENDS
def test_text_report_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str], end: str) -> None:
    path = project(tmp_path, end)
    run = run_inproc(capsys, str(path), "--no-cache")
    assert run.code == 1
    lines = run.out.splitlines()
    assert lines[0] == f"{path}:{MALLOC}:5: warning: memory allocated to 'p' is leaked [memory-leak]"
    assert lines[-1].startswith(f"  {path}:{RETURN}:5: note: step ")
    assert "uninitialised-read" not in run.out


@ENDS
def test_json_report_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str], end: str) -> None:
    path = project(tmp_path, end)
    doc = json.loads(run_inproc(capsys, str(path), "--no-cache", "--format", "json").out)
    (finding,) = doc["findings"]
    assert finding["rule_id"] == "memory-leak"
    assert finding["location"]["start_line"] + 1 == MALLOC
    assert [s["location"]["start_line"] + 1 for s in finding["witness"]][-1] == RETURN


@ENDS
def test_sarif_report_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str], end: str) -> None:
    path = project(tmp_path, end)
    doc = json.loads(run_inproc(capsys, str(path), "--no-cache", "--format", "sarif").out)
    (result,) = doc["runs"][0]["results"]
    assert result["ruleId"] == "memory-leak"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == MALLOC
    flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert flow[-1]["location"]["physicalLocation"]["region"]["startLine"] == RETURN
