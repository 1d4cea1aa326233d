"""``ctlsp check dirA dirB``: each file read with the configuration of its own folder.

The language server reads the configuration per workspace folder; the command line, given several
folders with their own ``ctlsp.toml``, finds it per file the same way (the nearest configuration file
at or above the file, ``server.workspace.find_config_file``), and checks the files of each
configuration as one project, so that one run reports what one run per folder reports.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.helpers import run_inproc

# a double free and, unless FAST is defined, a leak (the block is dropped on the early return)
CODE = """\
#include <stdlib.h>
int work(int n)
{
    char *p = malloc(8);
    if (!p)
        return 0;
#ifndef FAST
    if (n > 4)
        return n;
#endif
    free(p);
    free(p);
    return n;
}
"""


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    """Two folders of one repository with the same code and configurations that disagree: one
    turns double-free off, the other defines FAST; the repository's own turns memory-leak off."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "ctlsp.toml").write_text("[rules.memory-leak]\nenabled = false\n")
    a, b = tmp_path / "liba", tmp_path / "libb"
    for d, config in ((a, "[rules.double-free]\nenabled = false\n"), (b, '[preprocessor]\ndefines = ["FAST"]\n')):
        (d / "src").mkdir(parents=True)
        (d / "ctlsp.toml").write_text(config)
        (d / "src" / "work.c").write_text(CODE)
    return a, b


def _found(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    r = run_inproc(capsys, *argv, "--no-cache", "--format", "json")
    findings: list[dict[str, Any]] = r.json()["findings"]
    return r.code, findings


def _summary(findings: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """(the folder under the repository, rule, 0-based line) of each finding, in report order."""
    return [
        (Path(f["location"]["path"]).parent.parent.name, f["rule_id"], f["location"]["start_line"]) for f in findings
    ]


def test_two_folders_in_one_run_give_what_each_gives_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _folders(tmp_path)
    code_a, alone_a = _found(capsys, str(a))
    code_b, alone_b = _found(capsys, str(b))
    # each folder's own configuration: liba no double free (and FAST unknown: both branches, so the
    # leak on the early return); libb the double free, no leak (FAST defined); memory-leak is on in
    # both, since the nearest configuration file wins whole (it does not merge with the repository's)
    assert _summary(alone_a) == [("liba", "memory-leak", 3)]
    assert _summary(alone_b) == [("libb", "double-free", 11)]
    code, together = _found(capsys, str(a), str(b))
    assert together == alone_a + alone_b
    assert (code, code_a, code_b) == (1, 1, 1)
    code, swapped = _found(capsys, str(b), str(a))
    assert swapped == alone_b + alone_a


def test_files_named_one_by_one_and_the_parent_folder_find_the_same_configurations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _folders(tmp_path)
    _, alone_a = _found(capsys, str(a))
    _, alone_b = _found(capsys, str(b))
    _, files = _found(capsys, str(a / "src" / "work.c"), str(b / "src" / "work.c"))
    _, parent = _found(capsys, str(tmp_path))
    assert files == parent == alone_a + alone_b


def test_an_explicit_config_still_applies_to_every_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _folders(tmp_path)
    _, found = _found(capsys, str(a), str(b), "--config", str(tmp_path / "ctlsp.toml"))
    assert _summary(found) == [("liba", "double-free", 11), ("libb", "double-free", 11)]


def test_a_broken_configuration_of_one_input_is_a_usage_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _folders(tmp_path)
    (b / "ctlsp.toml").write_text("[rules.double-free]\nenabled = 3\n")
    r = run_inproc(capsys, str(a), str(b), "--no-cache")
    assert r.code == 2 and str(b / "ctlsp.toml") in r.err
