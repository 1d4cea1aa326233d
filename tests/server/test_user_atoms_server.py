"""Issue #13 in the editor: ``[[atoms]]`` of ctlsp.toml reach the language server's diagnostics,
and editing an atom's query (a change of the extraction digest) is taken without a restart.

A real server subprocess and pytest-lsp's client; the client's file watcher is played by sending
the ``workspace/didChangeWatchedFiles`` event VS Code sends when ctlsp.toml is saved."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.extractors.test_user_atoms import TX, TX_BAD
from tests.server.lsp_helpers import codes, diagnostics, line_of, open_doc, start

pytestmark = pytest.mark.slow  # an editor feature end to end: the whole suite, not the edit loop's tier


async def test_an_atom_query_edited_in_ctlsp_toml_changes_the_diagnostics(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / ".git").mkdir()
    config = tmp_path / "ctlsp.toml"
    config.write_text(TX)
    source = tmp_path / "tx.c"
    source.write_text(TX_BAD)
    await start(client, tmp_path)
    uri = open_doc(client, source)
    found = await diagnostics(client, uri, lambda ds: codes(ds) == ["tx-not-ended"], "the open transaction")
    assert found[0].range.start.line == line_of(TX_BAD, "/*BEGIN*/")

    # Only the query changes (begin_tx is no longer the atom): the models must be rebuilt.
    config.write_text(TX.replace('"begin_tx"', '"start_tx"'))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(config.as_uri(), types.FileChangeType.Changed)])
    )
    await diagnostics(client, uri, lambda ds: codes(ds) == [], "no finding once begin_tx is no atom")
    assert not client.messages
