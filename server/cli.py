"""``ctlsp`` command line: dispatches to one module per sub-command.

Each sub-command module exposes ``add_arguments(parser)`` and ``run(args) -> int`` so that the
modules stay independent and this file only wires them together.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# Module names relative to this package, which is ``server`` in a checkout and ``ctlsp.server`` installed.
_COMMANDS = {
    "check": (".cli_check", "check C files or folders for temporal bugs"),
    "rsm": (".cli_rsm", "model-check CTL formulas on a JSON recursive state machine"),
    "serve": (".cli_serve", "run the language server (stdio by default)"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, with the options of ``command`` only (all of them when None):
    a command's module is imported to add its options, and the batch checker's would cost the
    language server's start a third of its time for options it never reads."""
    parser = argparse.ArgumentParser(prog="ctlsp", description="Temporal bug finder for C by CTL model checking.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in _COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if command in (None, name):
            importlib.import_module(module, __package__).add_arguments(p)
        p.set_defaults(_module=module)
    return parser


EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE (13): what a shell reports for a tool that SIGPIPE ended


def main(argv: Sequence[str] | None = None) -> int:
    """Exit status: 0 clean, 1 findings, 2 bad input or usage (one line on stderr naming it),
    130 interrupted, 141 when the reader of standard output went away (``ctlsp ... | head``),
    which ends quietly as ``cat`` would."""
    given = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(given[0] if given and given[0] in _COMMANDS else None)
    args = parser.parse_args(given)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = importlib.import_module(args._module, __package__).run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print("ctlsp: interrupted", file=sys.stderr)
        return 130
    return code


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush at exit does not
    meet the closed pipe again and print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file descriptor (tests capture it)
        pass


if __name__ == "__main__":
    raise SystemExit(main())
