"""Issue #15: the language server follows ``compile_commands.json`` on disk, through the client's file
watcher: a database that appears applies its flags without a restart, and a malformed one is a
warning naming the file (it counts as none) instead of silently dropped flags.

A real server subprocess and pytest-lsp's client; the client's watcher is played by sending the
``workspace/didChangeWatchedFiles`` events VS Code sends for the glob the server registered.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp_helpers import codes, diagnostics, open_doc, start, until
from tests.server.test_compile_commands_server import COUNTER

pytestmark = pytest.mark.slow  # an editor feature end to end: the whole suite, not the edit loop's tier

UNLOCKED = ["unlock-without-lock"]  # USE_LOCKS unknown: it may be defined as 0, and #ifdef unlocks


def _watched(client: LanguageClient) -> list[str]:
    registrations = client.registrations  # type: ignore[attr-defined]
    return [  # register_options arrive as plain JSON
        w["globPattern"]
        for r in registrations
        if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        for w in r.register_options["watchers"]
    ]


def _event(client: LanguageClient, path: Path, kind: types.FileChangeType) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(path.as_uri(), kind)])
    )


async def test_a_compile_database_that_appears_or_breaks_is_followed(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "config.h").write_text("#define USE_LOCKS 1\n")
    source = tmp_path / "src" / "counter.c"
    source.write_text(COUNTER)
    await start(client, tmp_path)
    uri = open_doc(client, source)
    await diagnostics(client, uri, lambda ds: codes(ds) == UNLOCKED, "findings while config.h is not found")
    await until(lambda: "**/compile_commands.json" in _watched(client), "a watcher for compile_commands.json")

    database = tmp_path / "compile_commands.json"
    entry = {"directory": str(tmp_path), "file": "src/counter.c", "command": "cc -Iinclude -c src/counter.c"}
    database.write_text(json.dumps([entry]))
    _event(client, database, types.FileChangeType.Created)
    await diagnostics(client, uri, lambda ds: codes(ds) == [], "no findings once -Iinclude finds config.h")
    assert not client.messages

    database.write_text('[{"directory": "' + str(tmp_path) + '", ')  # cut off while being written
    _event(client, database, types.FileChangeType.Changed)
    warning = await until(lambda: client.messages, "a warning about the malformed database")
    assert [m.type for m in warning] == [types.MessageType.Warning]
    assert f"{database}: not JSON" in warning[0].message
    await diagnostics(client, uri, lambda ds: codes(ds) == UNLOCKED, "the database's flags no longer apply")
