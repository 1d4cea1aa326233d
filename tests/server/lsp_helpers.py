"""Shared pieces of the end-to-end tests: starting sessions and waiting for server output.

Waiting polls the state pytest-lsp's client records (diagnostics, log and show messages) instead of
waiting for "the next" notification, so a notification that arrived early is never missed.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

REPO = Path(__file__).resolve().parents[2]
_SERVE = (
    "import argparse, sys; from server import cli_serve; p = argparse.ArgumentParser(); "
    "cli_serve.add_arguments(p); sys.exit(cli_serve.run(p.parse_args([])))"
)
# ``python -m server serve`` needs every sub-command module that server.cli imports; until the other
# helpers' cli_check/cli_rsm land, start the same serve entry point directly.
_FULL_CLI = all((REPO / "server" / f"cli_{name}.py").is_file() for name in ("check", "rsm", "serve"))
SERVER_COMMAND = [sys.executable, "-m", "server", "serve"] if _FULL_CLI else [sys.executable, "-c", _SERVE]
SERVER = ClientServerConfig(server_command=SERVER_COMMAND)
TIMEOUT = 120.0
T = TypeVar("T")


def capabilities(pull: bool = False, related_information: bool = True) -> types.ClientCapabilities:
    text = types.TextDocumentClientCapabilities(
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=related_information),
        diagnostic=types.DiagnosticClientCapabilities(related_document_support=True) if pull else None,
        synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
    )
    workspace = types.WorkspaceClientCapabilities(
        configuration=True,
        did_change_configuration=types.DidChangeConfigurationClientCapabilities(),
        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
        workspace_edit=types.WorkspaceEditClientCapabilities(
            document_changes=True, resource_operations=[types.ResourceOperationKind.Create]
        ),
        diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        workspace_folders=True,
    )
    return types.ClientCapabilities(
        text_document=text,
        workspace=workspace,
        window=types.WindowClientCapabilities(work_done_progress=True),
    )


async def start(
    client: LanguageClient, root: Path, pull: bool = False, settings: Any = None, related_information: bool = True
) -> None:
    client.set_configuration(settings if settings is not None else {"debounceMs": 20}, section="ctlsp")
    uri = root.as_uri()
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(pull, related_information),
            root_uri=uri,
            workspace_folders=[types.WorkspaceFolder(uri=uri, name=root.name)],
        )
    )


async def until(probe: Callable[[], T | None], what: str, timeout: float = TIMEOUT) -> T:
    """Poll ``probe`` until it returns something truthy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = probe()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def diagnostics(
    client: LanguageClient, uri: str, check: Callable[[Sequence[types.Diagnostic]], bool], what: str
) -> Sequence[types.Diagnostic]:
    def probe() -> list[Sequence[types.Diagnostic]] | None:
        found = client.diagnostics.get(uri)
        return [found] if found is not None and check(found) else None

    try:
        return (await until(probe, what))[0]
    except AssertionError:
        raise AssertionError(f"{what}; last diagnostics: {client.diagnostics.get(uri)}") from None


def checked(client: LanguageClient, what: str) -> str | None:
    """The log line of the check of ``what`` ("a.c v2", "workspace"), once the server wrote it: it
    writes it after publishing that check's diagnostics."""
    return next((m.message for m in client.log_messages if f"ctlsp: checked {what}" in m.message), None)


def checker_pids(client: LanguageClient) -> list[int]:
    """The checker processes the server said it started (it logs each once it is up, which is when
    the checks it was sent begin), first to last."""
    prefix, suffix = "ctlsp: checker process ", " started"
    return [
        int(m.message[len(prefix) : -len(suffix)])
        for m in client.log_messages
        if m.message.startswith(prefix) and m.message.endswith(suffix)
    ]


def record_publications(client: LanguageClient, uri: str) -> list[tuple[int | None, list[types.Diagnostic]]]:
    """Every publication of ``uri``'s diagnostics, in order (the client still records them)."""
    published: list[tuple[int | None, list[types.Diagnostic]]] = []
    features = client.protocol.fm.features  # see every publication, then let the client record it
    record = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri:
            published.append((params.version, list(params.diagnostics)))
        record(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    return published


def codes(found: Sequence[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in found)


def open_doc(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    if text is None:
        text = path.read_text()
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="c", version=version, text=text)
        )
    )
    return uri


def edit(client: LanguageClient, uri: str, version: int, rng: tuple[int, int, int, int], text: str) -> None:
    sl, sc, el, ec = rng
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(sl, sc), types.Position(el, ec)), text=text
                )
            ],
        )
    )


async def code_actions(client: LanguageClient, uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    """The code actions the server offers for one of its diagnostics."""
    got = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    return [a for a in got or [] if isinstance(a, types.CodeAction)]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines()) if needle in line)


# A leak on the early return: the finding most server tests look for.
LEAK = """#include <stdlib.h>

int work(int n)
{
    char *p = malloc(n);
    if (p == NULL)
        return -1;
    p[0] = 1;
    return 0;
}
"""


def many_functions(functions: int) -> str:
    """A C file of ``functions`` small functions, each allocating, testing and freeing a buffer;
    every fiftieth forgets the free (a memory leak at its ``malloc`` line): a long check."""
    out = ["#include <stdlib.h>", ""]
    for k in range(functions):
        out += [
            f"int fn_{k}(int n)",
            "{",
            f"    char *p = malloc(n + {k});",
            "    if (p == NULL)",
            "        return -1;",
            f"    if (n > {k % 7})",
            "        p[0] = 1;",
            "    free(p);" if k % 50 != 49 else "    n++;",
            "    return n;",
            "}",
            "",
        ]
    return "\n".join(out)
