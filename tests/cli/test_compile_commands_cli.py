"""``ctlsp check`` with ``compile_commands.json`` and ``-I``: the flags and headers of a real build
decide conditionals, per file, and the headers read for them are never checked themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run_inproc

READER = """\
#include <stdio.h>
#include <stdlib.h>
#include <config.h>

int read_level(const char *path)
{
    char line[32];
    int level;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    if (fgets(line, sizeof line, f) == NULL) {
        fclose(f);
        return 0;
    }
    fclose(f);
#if HAVE_STRTOL
    level = (int)strtol(line, NULL, 10);
#elif defined(HAVE_ATOI)
    level = atoi(line);
#else
    /* neither: level stays unset */
#endif
    return level;
}
"""

CONFIG_H = """\
#ifndef CONFIG_H
#define CONFIG_H
#define HAVE_STRTOL 1
static inline int leaky_helper(int n)  /* a header's own code is not checked */
{
    char *p = malloc(n);
    return p != 0;
}
#endif
"""


@pytest.fixture
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project as a build leaves it: sources in src/, headers in include/, the compile database
    at the root (the paths in it absolute, the command line relative to its folder)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "include").mkdir()
    (tmp_path / "src" / "reader.c").write_text(READER)
    (tmp_path / "src" / "writer.c").write_text(READER.replace("read_level", "read_other"))
    (tmp_path / "include" / "config.h").write_text(CONFIG_H)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _database(root: Path, entries: dict[str, str], name: str = "compile_commands.json") -> Path:
    path = root / name
    path.write_text(json.dumps([{"directory": str(root), "file": f, "command": c} for f, c in entries.items()]))
    return path


def _found(run_json: dict) -> list[tuple[str, str]]:  # type: ignore[type-arg]
    return sorted((f["location"]["path"], f["rule_id"]) for f in run_json["findings"])


def test_the_nearest_compile_database_gives_each_file_its_flags(
    build: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the build's flags, ``level`` may be read unset in both files (neither branch is
    known to be compiled in).  compile_commands.json at the root, found from ``src``, says
    reader.c is built with ``-Iinclude`` (its config.h defines HAVE_STRTOL) and writer.c with
    ``-DHAVE_ATOI``; a third build of writer.c would need neither, so writer.c keeps its finding
    once it is built without the define."""
    before = run_inproc(capsys, "src", "--no-cache", "--format", "json")
    assert before.code == 1
    assert _found(before.json()) == [
        ("src/reader.c", "uninitialised-read"), ("src/writer.c", "uninitialised-read")
    ]  # fmt: skip
    _database(build, {"src/reader.c": "cc -Iinclude -c src/reader.c", "src/writer.c": "cc -DHAVE_ATOI -c src/writer.c"})
    after = run_inproc(capsys, "src", "--no-cache", "--format", "json")
    assert after.code == 0, after.out
    _database(build, {"src/reader.c": "cc -Iinclude -c src/reader.c", "src/writer.c": "cc -c src/writer.c"})
    twin = run_inproc(capsys, "src", "--no-cache", "--format", "json")
    assert _found(twin.json()) == [("src/writer.c", "uninitialised-read")]


def test_include_folders_on_the_command_line_and_a_named_database(
    build: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_inproc(capsys, "src/reader.c", "--no-cache").code == 1
    assert run_inproc(capsys, "src/reader.c", "--no-cache", "-I", "include").code == 0
    assert run_inproc(capsys, "src/reader.c", "--no-cache", "-I", "include", "-U", "HAVE_STRTOL").code == 1
    (build / "out").mkdir()
    named = _database(build / "out", {str(build / "src/reader.c"): "cc -I../include -c ../src/reader.c"})
    assert run_inproc(capsys, "src/reader.c", "--no-cache", "--compile-commands", str(named)).code == 0
    toml = build / "ctlsp.toml"
    toml.write_text('[preprocessor]\ncompile_commands = "out/compile_commands.json"\n')
    assert run_inproc(capsys, "src/reader.c", "--no-cache").code == 0
    toml.write_text('[preprocessor]\ninclude = ["include"]\n')
    assert run_inproc(capsys, "src/reader.c", "--no-cache").code == 0


def test_headers_read_for_their_macros_are_not_checked(build: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """config.h's inline function leaks, but config.h is only read for what src/ includes."""
    r = run_inproc(capsys, "src", "--no-cache", "-I", "include", "--format", "json")
    assert r.code == 0 and r.json()["findings"] == []
    assert r.json()["summary"]["files"] == 2


def test_a_broken_compile_database_is_a_usage_error(build: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (build / "compile_commands.json").write_text('[{"directory": "/", "file": "a.c"}]')
    found = run_inproc(capsys, "src", "--no-cache")
    assert found.code == 2 and "compile_commands.json: entry 0: needs 'arguments' or 'command'" in found.err
    missing = run_inproc(capsys, "src", "--no-cache", "--compile-commands", "nowhere.json")
    assert missing.code == 2 and "nowhere.json: cannot read the compile database" in missing.err
