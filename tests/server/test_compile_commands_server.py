"""The language server's session reads the workspace's ``compile_commands.json`` and the headers its
``-I`` folders lead to through the same path as a file's local headers (``Project.header_paths``,
``workspace.read_header``), and reads it again when it changes on disk."""

from __future__ import annotations

import json
from pathlib import Path

from server.lsp.analysis import Analysis
from server.lsp.settings import load_workspace_config

COUNTER = """\
#include <pthread.h>
#include <config.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

long add(long n)
{
#if USE_LOCKS
    pthread_mutex_lock(&lock);
#endif
    total += n;
#ifdef USE_LOCKS
    pthread_mutex_unlock(&lock);
#endif
    return n;
}
"""


def _database(root: Path, command: str) -> None:
    entry = {"directory": str(root), "file": "src/counter.c", "command": command}
    (root / "compile_commands.json").write_text(json.dumps([entry]))


def test_the_session_reads_the_workspace_compile_database_and_rereads_it(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "include").mkdir()
    (tmp_path / "src" / "counter.c").write_text(COUNTER)
    (tmp_path / "include" / "config.h").write_text("#define USE_LOCKS 1\n")
    _database(tmp_path, "cc -Iinclude -c src/counter.c")
    config, problems = load_workspace_config(tmp_path)
    assert problems == [] and config.compile_commands == str(tmp_path / "compile_commands.json")
    analysis = Analysis(config)
    path = str((tmp_path / "src" / "counter.c").resolve())
    first = analysis.check_file_sync(path, COUNTER, lambda: True)
    assert first is not None and first.findings[path] == []
    _database(tmp_path, "cc -c src/counter.c -DNO_CONFIG_FOLDER")  # config.h is no longer found
    again = analysis.check_file_sync(path, COUNTER, lambda: True)
    assert again is not None
    assert sorted(f.rule_id for f in again.findings[path]) == ["unlock-without-lock"]
