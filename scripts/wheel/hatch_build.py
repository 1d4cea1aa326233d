"""Hatch build hook: the wheel installs one import name, ``ctlsp``, not ``server``/``checker``/``extractors``.

The repository keeps ``checker/``, ``extractors/`` and ``server/`` as top-level folders that import
each other absolutely (``from extractors.api import Project``), which is what the tests, the benches
and ``python -m server`` in a checkout use. Installed under those generic names they would clash
with any other distribution or user module called ``server`` (issue #15), so the regular wheel
carries them as ``ctlsp/checker``, ``ctlsp/extractors`` and ``ctlsp/server`` with every absolute
import of the three rewritten to ``ctlsp.``: rewriting at build time keeps the sources (and the
many files that import them) unchanged, and leaves one copy of each module in a process.

An editable install (``pip install -e .``) is the checkout: its ``.pth`` puts the repository on
``sys.path`` as before, and its ``ctlsp`` package (``ctlsp_editable.py``) makes ``ctlsp.server``
the same module object as ``server``, so the ``ctlsp`` command and ``python -m ctlsp`` work there too.
"""

from __future__ import annotations

import ast
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGES = ("checker", "extractors", "server")
NAME = "ctlsp"
HERE = Path(__file__).resolve().parent
SKIPPED_PARTS = frozenset({"__pycache__"})
SKIPPED_SUFFIXES = frozenset({".pyc", ".pyo"})


def rewrite_imports(source: bytes, filename: str = "<source>") -> bytes:
    """``source`` with each absolute import of ``PACKAGES`` prefixed by ``ctlsp.``.

    The import statements are found on the syntax tree (so text in strings and comments is never
    touched) and the module name is edited in place, so line numbers in tracebacks stay right.
    ``import server.x`` binds the name ``server`` and has no one-word rewrite: it is refused, as is
    a source that does not parse, so the build fails instead of shipping a broken module.
    """
    tree = ast.parse(source, filename)
    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int]] = []  # (line index, byte offset of the module name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    raise ValueError(f"{filename}:{node.lineno}: 'import {alias.name}': use 'from ... import'")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] not in PACKAGES:
                continue
            line = lines[node.lineno - 1]
            keyword = line[node.col_offset : node.col_offset + 4]
            rest = line[node.col_offset + 4 :]
            offset = node.col_offset + 4 + len(rest) - len(rest.lstrip(b" \t"))
            if keyword != b"from" or not line[offset:].startswith(node.module.split(".")[0].encode()):
                raise ValueError(f"{filename}:{node.lineno}: cannot place the module name of this import")
            edits.append((node.lineno - 1, offset))
    for index, offset in sorted(edits, reverse=True):
        lines[index] = lines[index][:offset] + NAME.encode() + b"." + lines[index][offset:]
    return b"".join(lines)


def write_package(root: Path, target: Path) -> None:
    """The ``ctlsp`` package of the regular wheel, written into ``target`` (which it creates)."""
    target.mkdir(parents=True)
    shutil.copyfile(HERE / "ctlsp_init.py", target / "__init__.py")
    shutil.copyfile(HERE / "ctlsp_main.py", target / "__main__.py")
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*")):
            relative = path.relative_to(root)
            if not path.is_file() or SKIPPED_PARTS & set(relative.parts) or path.suffix in SKIPPED_SUFFIXES:
                continue
            out = target / relative
            out.parent.mkdir(parents=True, exist_ok=True)
            data = path.read_bytes()
            out.write_bytes(rewrite_imports(data, str(relative)) if path.suffix == ".py" else data)


class CtlspBuildHook(BuildHookInterface[Any]):
    """Adds the ``ctlsp`` package to the wheel (``standard``) or to the editable wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        self._scratch = Path(tempfile.mkdtemp(prefix="ctlsp-wheel-"))
        if version == "editable":
            package = self._scratch / NAME
            package.mkdir()
            shutil.copyfile(HERE / "ctlsp_editable.py", package / "__init__.py")
            shutil.copyfile(HERE / "ctlsp_main.py", package / "__main__.py")
            build_data["force_include_editable"][str(package)] = NAME
        else:
            write_package(Path(self.root), self._scratch / NAME)
            build_data["force_include"][str(self._scratch / NAME)] = NAME

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
