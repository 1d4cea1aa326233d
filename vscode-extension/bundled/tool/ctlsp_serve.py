"""Starts the ctlsp server the VS Code extension carries (see scripts/bundle-server.sh).

The extension runs ``<python> -I ctlsp_serve.py serve [args]``. Isolated mode (``-I``) keeps the
current folder (the user's workspace, which may hold a ``server.py`` of its own), the user's
site-packages and every ``PYTHON*`` variable off ``sys.path``; this script then puts the bundled
libraries first: the compiled ones for this Python's version, then the pure-Python ones (ctlsp
among them, as the one import name ``ctlsp``). Nothing is
installed anywhere, and nothing the workspace or the environment holds can stand in for ctlsp.

``--probe`` prints the Python version ("3 11"), imports what the server needs (the compiled parser
included) and exits 0, so the extension can say what is wrong before it starts the server.
"""

import os
import sys

MINIMUM = (3, 11)
EXIT_UNSUPPORTED = 3


def bundled_paths() -> list[str]:
    bundled = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    compiled = os.path.join(bundled, f"libs-cp{sys.version_info[0]}{sys.version_info[1]}")
    return [compiled, os.path.join(bundled, "libs")]


def main(argv: list[str]) -> int:
    version = sys.version_info[:2]
    if argv == ["--probe"]:
        print(*version, flush=True)
    if version < MINIMUM:
        print(f"ctlsp needs Python 3.11 or newer; this is Python {version[0]}.{version[1]}", file=sys.stderr)
        return EXIT_UNSUPPORTED
    compiled, _ = paths = bundled_paths()
    if not os.path.isdir(compiled):
        print(
            f"ctlsp: this extension carries no tree_sitter for Python {version[0]}.{version[1]} "
            f"(No module named 'tree_sitter'); bundled: {', '.join(available())}",
            file=sys.stderr,
        )
        return EXIT_UNSUPPORTED
    sys.path[:0] = paths
    if argv == ["--probe"]:
        import ctlsp.server.cli  # noqa: F401
        from ctlsp.extractors.api import parse_c

        parse_c("int main(void) { return 0; }")
        return 0
    from ctlsp.server.cli import main as cli_main

    return cli_main(argv)


def available() -> list[str]:
    bundled = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tags = sorted(d[len("libs-cp") :] for d in os.listdir(bundled) if d.startswith("libs-cp"))
    return [f"Python {t[0]}.{t[1:]}" for t in tags]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
