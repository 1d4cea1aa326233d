"""The session's rules (issue #15): every request gets an answer, and the right error when it cannot
be served: invalid params -32602, before ``initialize`` -32002, after ``shutdown`` -32600; ``exit``
without ``shutdown`` ends the process with status 1.

Malformed params and the exit status need a bare JSON-RPC session (``tests/server/jsonrpc.py``): a
typed client cannot send a negative position, and pytest-lsp's session always shuts down first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from tests.server.jsonrpc import raw_session
from tests.server.lsp_helpers import start

# each test starts a server and its checker process for one protocol error; the fast tier has
# tests/server/test_handlers.py
pytestmark = pytest.mark.slow

INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
SERVER_NOT_INITIALIZED = -32002
URI = "file:///nowhere/x.c"
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("textDocument/hover", {**HOVER, "position": {"line": -1, "character": 0}}),
        ("textDocument/hover", {**HOVER, "position": {"line": 0, "character": -3}}),
        ("textDocument/hover", {"position": {"line": 0, "character": 0}}),  # no textDocument
        ("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": HOVER}),  # a range, no context
        ("textDocument/diagnostic", {}),
    ],
)
async def test_a_request_with_invalid_params_gets_invalid_params(
    tmp_path: Path, method: str, params: dict[str, Any]
) -> None:
    async with raw_session() as session:
        await session.initialize(tmp_path.as_uri())
        answer = await session.answer(session.request(method, params))
        assert answer is not None, "no answer"
        assert answer["error"]["code"] == INVALID_PARAMS
        assert method in answer["error"]["message"] and "@ $.params" in answer["error"]["message"]
        # No popup about it, and the session goes on.
        assert session.notifications("window/showMessage") == []
        follow_up = session.request("textDocument/hover", HOVER)
        assert await session.answer(follow_up) == {"jsonrpc": "2.0", "id": follow_up, "result": None}


async def test_the_witness_command_with_bad_arguments_gets_invalid_params(
    client: LanguageClient, tmp_path: Path
) -> None:
    await start(client, tmp_path)
    for arguments in ([], [URI], [URI, "one", 2], [3, 1, 2], [URI, 1, 2, 3]):
        with pytest.raises(JsonRpcException) as caught:
            await client.workspace_execute_command_async(types.ExecuteCommandParams("ctlsp.witness", arguments))
        assert caught.value.code == INVALID_PARAMS, arguments
    assert (
        await client.workspace_execute_command_async(types.ExecuteCommandParams("ctlsp.witness", [URI, 0, 0])) is None
    )


async def test_before_initialize_requests_get_server_not_initialized_and_notifications_are_dropped(
    tmp_path: Path,
) -> None:
    """Raw: pytest-lsp's client refuses to send anything before ``initialize``."""
    leak = tmp_path / "outside" / "leak.c"
    leak.parent.mkdir()
    leak.write_text("#include <stdlib.h>\nvoid f(void)\n{\n    char *p = malloc(1);\n    p[0] = 0;\n}\n")
    folder = tmp_path / "workspace"
    folder.mkdir()
    async with raw_session() as session:
        early = await session.answer(session.request("textDocument/hover", HOVER))
        assert early is not None and early["error"]["code"] == SERVER_NOT_INITIALIZED, early
        # A document opened before initialize is dropped, so pulling its diagnostics answers at once
        # with none instead of waiting for its check (it is outside the workspace, never scanned).
        item = {"uri": leak.as_uri(), "languageId": "c", "version": 1, "text": leak.read_text()}
        session.notify("textDocument/didOpen", {"textDocument": item})
        await session.initialize(folder.as_uri())
        pulled = await session.answer(
            session.request("textDocument/diagnostic", {"textDocument": {"uri": item["uri"]}})
        )
        assert pulled is not None and pulled["result"]["items"] == [], pulled
        served = await session.answer(session.request("textDocument/hover", HOVER))
        assert served is not None and served["result"] is None  # initialized now: served


async def test_after_shutdown_requests_get_invalid_request_and_exit_ends_with_status_0(tmp_path: Path) -> None:
    async with raw_session() as session:
        await session.initialize(tmp_path.as_uri())
        shutdown = session.request("shutdown")
        assert await session.answer(shutdown) == {"jsonrpc": "2.0", "id": shutdown, "result": None}
        for method, params in (("textDocument/hover", HOVER), ("shutdown", None)):
            answer = await session.answer(session.request(method, params))
            assert answer is not None, f"no answer to {method}"
            assert answer["error"]["code"] == INVALID_REQUEST
        session.notify("exit")
        assert await session.exit_status() == 0


@pytest.mark.parametrize("initialized", [True, False])
async def test_exit_without_shutdown_ends_with_status_1(tmp_path: Path, initialized: bool) -> None:
    async with raw_session() as session:
        if initialized:
            await session.initialize(tmp_path.as_uri())
        session.notify("exit")
        assert await session.exit_status() == 1
