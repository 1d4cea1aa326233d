"""Issue #16: each workspace folder is checked with its own configuration (its ctlsp.toml and the
client's settings for that folder), as ``ctlsp check`` run on the folder would, including files
nobody has open and folders added while the session runs.

A real server subprocess and pytest-lsp's client (which answers ``workspace/configuration`` per
scope URI, as VS Code does for folder-level settings).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp_helpers import capabilities, codes, diagnostics, open_doc

pytestmark = pytest.mark.slow  # an editor feature end to end: the whole suite, not the edit loop's tier

LEAKS = """#include <stdlib.h>
int keep(int n) {
    char *p = malloc(n);
    if (p == NULL)
        return -1;
    p[0] = 1;
    return 0;
}
"""
USE_AFTER_FREE = """#include <stdlib.h>
int drop(void) {
    int *p = malloc(sizeof *p);
    if (p == NULL)
        return -1;
    free(p);
    return *p;
}
"""


def _folder(root: Path, name: str, toml: str | None) -> Path:
    d = root / name
    d.mkdir()
    (d / ".git").mkdir()
    (d / "leak.c").write_text(LEAKS)
    (d / "closed.c").write_text(USE_AFTER_FREE)
    if toml is not None:
        (d / "ctlsp.toml").write_text(toml)
    return d


async def _start(client: LanguageClient, folders: list[Path]) -> None:
    client.set_configuration({"debounceMs": 20}, section="ctlsp")
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(),
            root_uri=folders[0].as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders],
        )
    )


async def test_each_folder_has_its_own_configuration(client: LanguageClient, tmp_path: Path) -> None:
    quiet = _folder(tmp_path, "quiet", "[rules.memory-leak]\nenabled = false\n")
    loud = _folder(tmp_path, "loud", None)
    await _start(client, [quiet, loud])
    quiet_uri, loud_uri = open_doc(client, quiet / "leak.c"), open_doc(client, loud / "leak.c")
    await diagnostics(client, loud_uri, lambda ds: codes(ds) == ["memory-leak"], "the leak where nothing hides it")
    await diagnostics(client, quiet_uri, lambda ds: codes(ds) == [], "no leak where ctlsp.toml turns it off")
    # files nobody opened are checked with their folder's configuration too
    for folder in (quiet, loud):
        await diagnostics(
            client,
            (folder / "closed.c").as_uri(),
            lambda ds: codes(ds) == ["use-after-free"],
            f"{folder.name}/closed.c",
        )
    assert not client.messages, [m.message for m in client.messages]


async def test_folder_settings_of_the_client_apply_to_that_folder_only(client: LanguageClient, tmp_path: Path) -> None:
    one = _folder(tmp_path, "one", None)
    two = _folder(tmp_path, "two", None)
    client.set_configuration(
        {"debounceMs": 20, "rules": {"memory-leak": False}}, section="ctlsp", scope_uri=two.as_uri()
    )
    await _start(client, [one, two])
    one_uri, two_uri = open_doc(client, one / "leak.c"), open_doc(client, two / "leak.c")
    await diagnostics(
        client, one_uri, lambda ds: codes(ds) == ["memory-leak"], "the leak in the folder without overrides"
    )
    await diagnostics(client, two_uri, lambda ds: codes(ds) == [], "no leak where the folder's settings turn it off")


async def test_a_folder_added_later_is_checked_with_its_configuration(client: LanguageClient, tmp_path: Path) -> None:
    first = _folder(tmp_path, "first", None)
    later = _folder(tmp_path, "later", "[rules.use-after-free]\nenabled = false\n")
    await _start(client, [first])
    await diagnostics(client, (first / "closed.c").as_uri(), lambda ds: codes(ds) == ["use-after-free"], "first folder")
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(uri=later.as_uri(), name=later.name)], removed=[]
            )
        )
    )
    later_leak = (later / "leak.c").as_uri()
    await diagnostics(client, later_leak, lambda ds: codes(ds) == ["memory-leak"], "the added folder's files checked")
    later_closed = (later / "closed.c").as_uri()
    await diagnostics(
        client, later_closed, lambda ds: codes(ds) == [], "its use after free off, as its ctlsp.toml says"
    )


async def test_a_nested_folder_owns_its_files(client: LanguageClient, tmp_path: Path) -> None:
    outer = _folder(tmp_path, "outer", None)
    inner = outer / "vendor"
    inner.mkdir()
    (inner / "leak.c").write_text(LEAKS)
    (inner / "ctlsp.toml").write_text("[rules.memory-leak]\nenabled = false\n")
    await _start(client, [outer, inner])
    await diagnostics(client, (outer / "leak.c").as_uri(), lambda ds: codes(ds) == ["memory-leak"], "outer leak")
    inner_uri = open_doc(client, inner / "leak.c")
    await diagnostics(client, inner_uri, lambda ds: codes(ds) == [], "the inner folder's configuration")
