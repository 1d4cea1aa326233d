"""Which files ``ctlsp check PATH...`` looks at.

Folders are walked for C sources and headers; hidden folders (``.git``, the cache itself) and build
output folders are skipped because they hold generated or foreign code that would only add noise
and time.  A file named explicitly is always checked, whatever its extension.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable
from pathlib import Path

C_SUFFIXES = (".c", ".h")
SKIP_DIRS = ("build", "_build", "builddir", "cmake-build-*", "CMakeFiles", "node_modules", "__pycache__")


class PathError(ValueError):
    """A PATH argument that does not exist or cannot be read."""


def skipped_dir(name: str) -> bool:
    return name.startswith(".") or any(fnmatch.fnmatchcase(name, pat) for pat in SKIP_DIRS)


def _display(path: str) -> str:
    return os.path.normpath(path)


def collect(paths: Iterable[str]) -> list[str]:
    """Display paths of the files to check, in a stable order, each file once."""
    seen: set[str] = set()
    out: list[str] = []

    def add(p: str) -> None:
        real = os.path.realpath(p)
        if real not in seen:
            seen.add(real)
            out.append(_display(p))

    for arg in paths:
        if os.path.isfile(arg):
            add(arg)
        elif os.path.isdir(arg):
            found: list[str] = []
            for dirpath, dirnames, filenames in os.walk(arg):
                dirnames[:] = sorted(d for d in dirnames if not skipped_dir(d))
                found.extend(
                    os.path.join(dirpath, f)
                    for f in filenames
                    if f.endswith(C_SUFFIXES) and not f.startswith(".")
                )
            for f in sorted(found):
                add(f)
        elif os.path.exists(arg):
            raise PathError(f"{arg}: not a regular file or folder")
        else:
            raise PathError(f"{arg}: no such file or folder")
    return out


def read_sources(paths: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """File texts by path, plus one message per file that could not be read (those are skipped).

    Undecodable bytes become U+FFFD rather than aborting the run: C files in Latin-1 are common and
    only their comments or strings tend to hold such bytes.
    """
    texts: dict[str, str] = {}
    problems: list[str] = []
    for p in paths:
        try:
            texts[p] = Path(p).read_bytes().decode("utf-8", errors="replace")
        except OSError as e:
            problems.append(f"{p}: cannot read: {e.strerror or e}")
    return texts, problems
