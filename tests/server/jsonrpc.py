"""A bare JSON-RPC session with the server over stdio, for what a typed LSP client cannot send:
malformed params, requests out of the session's order, and the exit status of the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from tests.server.lsp_helpers import REPO, SERVER_COMMAND

Message = dict[str, Any]


class RawSession:
    """Frames messages with Content-Length headers; keeps every message the server sent."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.received: list[Message] = []
        self._arrived = asyncio.Event()
        self._next_id = 0
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while True:
            length = 0
            while (line := await self.proc.stdout.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not line:
                return
            self.received.append(json.loads(await self.proc.stdout.readexactly(length)))
            self._arrived.set()

    def send(self, message: Message) -> None:
        assert self.proc.stdin is not None
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def request(self, method: str, params: Any = None) -> int:
        self._next_id += 1
        self.send({"id": self._next_id, "method": method, "params": params})
        return self._next_id

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"method": method, "params": params})

    def response(self, msg_id: int) -> Message | None:
        return next((m for m in self.received if m.get("id") == msg_id and "method" not in m), None)

    async def answer(self, msg_id: int, timeout: float = 10) -> Message | None:
        """The server's response to request ``msg_id``, or None if none came within ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (found := self.response(msg_id)) is None and loop.time() < deadline:
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), max(0.0, deadline - loop.time()))
        return found

    def notifications(self, method: str) -> list[Message]:
        return [m for m in self.received if m.get("method") == method and "id" not in m]

    async def initialize(self, root_uri: str | None = None) -> Message:
        answer = await self.answer(self.request("initialize", {"capabilities": {}, "rootUri": root_uri}))
        assert answer is not None and "result" in answer, answer
        self.notify("initialized", {})
        return answer

    async def exit_status(self, timeout: float = 20) -> int:
        return await asyncio.wait_for(self.proc.wait(), timeout)


@contextlib.asynccontextmanager
async def raw_session() -> AsyncIterator[RawSession]:
    proc = await asyncio.create_subprocess_exec(
        *SERVER_COMMAND,
        cwd=REPO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    session = RawSession(proc)
    try:
        yield session
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        session._reader.cancel()
