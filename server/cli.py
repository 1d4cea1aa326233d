"""``ctlsp`` command line: dispatches to one module per sub-command.

Each sub-command module exposes ``add_arguments(parser)`` and ``run(args) -> int`` so that the
modules stay independent and this file only wires them together.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

_COMMANDS = {
    "check": ("server.cli_check", "check C files or folders for temporal bugs"),
    "rsm": ("server.cli_rsm", "model-check CTL formulas on a JSON recursive state machine"),
    "serve": ("server.cli_serve", "run the language server (stdio by default)"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ctlsp", description="Temporal bug finder for C by CTL model checking.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in _COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        importlib.import_module(module).add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    code: int = importlib.import_module(args._module).run(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
