"""``ctlsp serve``: run the language server over stdio (default) or TCP.

In stdio mode stdout is the protocol channel, so logging goes to stderr only and nothing else may
print; the VS Code client starts the server as ``<python> -m server serve``.
"""

from __future__ import annotations

import argparse
import logging
import sys

from server import collector


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--clientProcessId", help=argparse.SUPPRESS)  # some LSP clients append it
    parser.add_argument(
        "--tcp", metavar="HOST:PORT", help="listen for one client on HOST:PORT instead of stdio"
    )
    parser.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="stderr log level",
    )


def _host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--tcp expects HOST:PORT (e.g. 127.0.0.1:2087), got {value!r}")
    return host or "127.0.0.1", int(port)


def run(args: argparse.Namespace) -> int:
    collector.tune()
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, args.log_level),
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        address = _host_port(args.tcp) if args.tcp else None
    except ValueError as e:
        print(f"ctlsp serve: {e}", file=sys.stderr)
        return 2
    from server.lsp.features import create_server

    server = create_server()
    if address is None:
        protocol_out = sys.stdout.buffer
        sys.stdout = sys.stderr  # a stray print() anywhere must not corrupt the protocol stream
        server.start_io(sys.stdin.buffer, protocol_out)
    else:
        server.start_tcp(*address)
    return 0
