"""``ctlsp serve`` options: a bad --tcp address is a clear error; --tcp serves LSP over a socket."""

from __future__ import annotations

import argparse
import asyncio
import socket
import subprocess
import sys

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from server import cli_serve
from tests.server.lsp_helpers import REPO, SERVER_COMMAND


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli_serve.add_arguments(parser)
    return parser.parse_args(argv)


def test_flags_editors_append_are_accepted() -> None:
    args = parse(["--stdio", "--clientProcessId=123"])
    assert args.stdio and args.tcp is None


def test_bad_tcp_address_is_reported() -> None:
    assert cli_serve.run(parse(["--tcp", "localhost"])) == 2
    assert cli_serve.run(parse(["--tcp", "localhost:99999"])) == 2


def test_the_servers_own_process_never_loads_the_checker() -> None:
    """The server's process shows results; its checker process checks. Everything ``ctlsp serve``
    imports up to a running server (the command line, the LSP features, the checker process's
    client) leaves the engine behind ``extractors.api.Project`` and the model checker unloaded:
    they cost its start a third of its time, in the process that must answer the editor first."""
    probe = (
        "import sys\n"
        "from server import cli\n"
        "cli.build_parser('serve')\n"
        "from server.lsp.features import create_server\n"
        "create_server()\n"
        "heavy = ('extractors.project', 'extractors.check_queries', 'extractors.projection', 'extractors.refute')\n"
        "print(' '.join(m for m in heavy if m in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
async def test_tcp_mode_answers_initialize() -> None:
    port = free_port()
    command = [*SERVER_COMMAND]
    if command[1] == "-c":
        command[2] = command[2].replace("parse_args([])", f"parse_args(['--tcp', '127.0.0.1:{port}'])")
    else:
        command += ["--tcp", f"127.0.0.1:{port}"]
    proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    client = LanguageClient("test", "1")
    try:
        for _ in range(200):
            try:
                await client.start_tcp("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.05)
        result = await asyncio.wait_for(
            client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities())), 30
        )
        assert result.server_info is not None and result.server_info.name == "ctlsp"
        sync = result.capabilities.text_document_sync
        assert isinstance(sync, types.TextDocumentSyncOptions)
        assert sync.change == types.TextDocumentSyncKind.Incremental
        assert result.capabilities.hover_provider
        assert result.capabilities.execute_command_provider
        assert "ctlsp.witness" in result.capabilities.execute_command_provider.commands
        await client.shutdown_async(None)
        client.exit(None)
    finally:
        await client.stop()
        proc.terminate()
        proc.wait(10)
    assert proc.stdout is not None and proc.stdout.read() == b""  # nothing but the socket carries protocol
