"""The checker process (``server/lsp/worker.py``), in a real server: requests are answered while a long
check runs there, the server outlives it (a new one checks again), and it never outlives the server.

The long check is that of a generated file of many functions, opened from memory (it is not on disk,
so the workspace check never reads it); what happens before what is told by the server's own
messages, never by a clock: the log line it writes once a check's diagnostics are out
(``lsp_helpers.checked``) and the partial findings it publishes while one runs.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.jsonrpc import raw_session
from tests.server.lsp_helpers import (
    LEAK,
    checked,
    checker_pids,
    codes,
    diagnostics,
    many_functions,
    open_doc,
    start,
    until,
)

FUNCTIONS = 1200
LEAKS = FUNCTIONS // 50  # every fiftieth function leaks


def children(pid: int) -> dict[int, bytes]:
    """The live children of process ``pid`` with their command lines (read from /proc; a zombie is
    not live)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            state, parent = stat
            try:
                command = Path(f"/proc/{entry.name}/cmdline").read_bytes()
            except OSError:
                continue
            if parent == pid and state != "Z":
                found[int(entry.name)] = command
    return found


def checkers(pid: int) -> list[int]:
    """The checker processes of the server ``pid``: its children that ``multiprocessing`` spawned
    (its other child, multiprocessing's resource tracker, runs ``resource_tracker``)."""
    return [child for child, command in children(pid).items() if b"spawn_main" in command]


def alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def _stat(pid: int) -> tuple[str, int] | None:
    """State and parent of a process, or None if there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (name) "
    return fields[0], int(fields[1])


def server_pid(client: LanguageClient) -> int:
    process = getattr(client, "_server", None)  # pygls' client keeps the process it started here
    assert isinstance(process, asyncio.subprocess.Process)
    return process.pid


async def open_after_workspace_check(client: LanguageClient, root: Path) -> tuple[Path, str]:
    """A session on ``root`` (one small file) whose workspace check is done, and the generated file
    opened from memory in it."""
    (root / "a.c").write_text(LEAK)
    await start(client, root, settings={"debounceMs": 0, "partialResultsMs": 100})
    await until(lambda: checked(client, "workspace"), "the workspace check")
    big = root / "big.c"
    open_doc(client, big, many_functions(FUNCTIONS))
    return big, big.as_uri()


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc"),
]


async def test_a_hover_is_answered_while_a_long_check_runs(client: LanguageClient, tmp_path: Path) -> None:
    big, uri = await open_after_workspace_check(client, tmp_path)
    position = types.Position(2, 12)  # fn_0's malloc
    answered_during_check = 0
    while checked(client, "big.c v1:") is None:
        await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri), position=position)
        )
        if checked(client, "big.c v1:") is None:
            answered_during_check += 1
        await asyncio.sleep(0.05)
    assert answered_during_check > 0  # the first hover, sent right after the open, came back before the check's end
    found = await diagnostics(client, uri, lambda ds: len(ds) == LEAKS, "the generated file's leaks")
    assert codes(found) == ["memory-leak"] * LEAKS


async def test_the_server_outlives_its_checker_process(client: LanguageClient, tmp_path: Path) -> None:
    """The checker process killed in the middle of a check: the server says so once, starts another,
    and the file's diagnostics are published from it."""
    big, uri = await open_after_workspace_check(client, tmp_path)
    server = server_pid(client)
    [first] = checkers(server)
    assert checker_pids(client) == [first]
    # the check has begun: its first findings are out, the last are not
    await until(lambda: client.diagnostics.get(uri), "the first findings of the long check")
    assert checked(client, "big.c v1:") is None
    os.kill(first, signal.SIGKILL)

    def restarted() -> str | None:
        return next((m.message for m in client.messages if "checker process ended" in m.message), None)

    message = await until(restarted, "the message that the checker process ended")
    assert "SIGKILL" in message
    await until(lambda: not alive(first), "the dead process reaped")
    [second] = await until(lambda: checkers(server) or None, "a new checker process")
    assert second != first
    await until(lambda: checker_pids(client) == [first, second], "the new process up")
    await until(lambda: checked(client, "big.c v1:"), "the long check, done again")
    found = await diagnostics(client, uri, lambda ds: len(ds) == LEAKS, "the generated file's leaks")
    assert codes(found) == ["memory-leak"] * LEAKS
    assert len([m for m in client.messages if "checker process ended" in m.message]) == 1
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri), position=found[0].range.start)
    )
    assert hover is not None and "memory-leak" in str(hover.contents)


async def test_the_checker_process_ends_with_the_server(tmp_path: Path) -> None:
    """The server killed while its checker process checks: the process sees its pipe close and ends,
    and so does every other process the server started."""
    (tmp_path / "big.c").write_text(many_functions(FUNCTIONS))
    async with raw_session() as session:
        await session.initialize(tmp_path.as_uri())
        server = session.proc.pid
        [checker] = await until(lambda: checkers(server) or None, "the checker process")
        # the workspace check of big.c has begun: its first findings are published while it runs
        await until(lambda: session.notifications(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), "the first findings")
        logged = [m["params"]["message"] for m in session.notifications(types.WINDOW_LOG_MESSAGE)]
        assert not any("ctlsp: checked workspace" in m for m in logged)  # not its last ones
        started = children(server)
        session.proc.kill()
        await session.proc.wait()
        await until(lambda: not alive(checker), "the checker process's end")
        await until(lambda: not any(alive(child) for child in started), "the end of every process the server started")
