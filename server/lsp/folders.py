"""Workspace folders: each has its own configuration, settings and project.

A multi-root workspace often holds unrelated code (a library and the program that vendors it, two
services), each folder with its own ``ctlsp.toml``, rules and compile database; VS Code's settings
may differ per folder too. One project per folder checks each file with the configuration
``ctlsp check`` would use on that folder, and keeps one folder's edits from invalidating another's
results. Functions are resolved within a folder: a call into another folder is a library call, as
it is for the CLI run on one folder.

Invariant: a file belongs to exactly one folder, the innermost workspace root that contains it; a
file outside every root (opened from elsewhere) belongs to the first folder, and with no roots at
all there is one folder without a root.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from server.lsp.settings import ServerSettings

if TYPE_CHECKING:  # the checker process's ``analysis`` imports this module (``belongs``): no cycle at run time
    from server.lsp.worker_client import FolderAnalysis


@dataclass
class Folder:
    root: Path | None  # None: the workspace has no folder
    analysis: FolderAnalysis
    settings: ServerSettings

    def disk_roots(self) -> list[Path]:
        """Where its C files on disk are looked for: the folder and its include paths."""
        return [*([self.root] if self.root is not None else []), *(Path(p) for p in self.settings.include_paths)]


def _innermost(roots: Sequence[Path], path: str | Path) -> Path | None:
    """The innermost of ``roots`` that contains ``path``, if any."""
    p = Path(path)
    return max((r for r in roots if p.is_relative_to(r)), key=lambda r: len(r.parts), default=None)


def owner(roots: Sequence[Path], path: str | Path) -> Path | None:
    """The root of the folder ``path`` belongs to (see the module's invariant)."""
    return _innermost(roots, path) or (roots[0] if roots else None)


def belongs(roots: Sequence[Path], root: Path | None, paths: Iterable[str]) -> list[str]:
    """Those of ``paths`` (found under a folder's disk roots) that belong to the folder of ``root``:
    not to a folder nested in it; a path outside every root is one of the folder's include paths."""
    return [path for path in paths if _innermost(roots, path) in (root, None)]
