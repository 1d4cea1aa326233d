"""The front door: which files a check of some folders means, how they are read, and which
configuration applies; one answer for ``ctlsp check``, the language server and the benches.

Folders are walked for C sources and headers.  Hidden folders (VCS data, the cache itself, editor
state), build output, virtual environments and dependency folders are skipped: they hold generated
or foreign code that would only add noise and time.  A file named explicitly on the command line is
always checked, whatever its extension.  Configuration is the nearest ``ctlsp.toml`` (or
``pyproject.toml`` with a ``[tool.ctlsp]`` table) at or above a folder, stopping at a repository
root, so that checking a subfolder from the command line and opening it in the editor agree.

This module does the file I/O; the front end (``extractors``) and the checker are handed texts.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import logging
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from extractors.compile_flags import compile_database
from extractors.config import Config, ConfigError, config_from_data, config_from_text, load_toml
from extractors.includes import MAX_DEPTH
from server.line_ends import checked_text

if TYPE_CHECKING:
    from extractors.api import Project

log = logging.getLogger(__name__)

C_SUFFIXES = (".c", ".h")
SKIP_DIRS = (
    "build", "_build", "builddir", "cmake-build-*", "CMakeFiles",  # build output
    "node_modules", "__pycache__", "venv", "site-packages",  # dependencies and environments
)  # fmt: skip
MAX_SCAN_FILES = 20_000
CONFIG_NAME = "ctlsp.toml"
PYPROJECT = "pyproject.toml"
PYPROJECT_PREFIX = "tool.ctlsp."  # where a pyproject.toml keeps the tables of a ctlsp.toml


class PathError(ValueError):
    """A PATH argument that does not exist or cannot be read."""


def skipped_dir(name: str) -> bool:
    """Folders never walked into: hidden ones (``.git``, ``.venv``, ``.ctlsp-cache``) and build,
    dependency and environment folders."""
    return name.startswith(".") or any(fnmatch.fnmatchcase(name, pat) for pat in SKIP_DIRS)


def is_c_file(name: str) -> bool:
    return name.endswith(C_SUFFIXES)


def walk_c_files(root: str) -> Iterator[str]:
    """C sources and headers under ``root`` in a stable order (sorted per folder, files first),
    as paths joined onto ``root``; hidden files are skipped like hidden folders."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not skipped_dir(d))
        for f in sorted(filenames):
            if is_c_file(f) and not f.startswith("."):
                yield os.path.join(dirpath, f)


def collect(paths: Iterable[str]) -> list[str]:
    """``ctlsp check PATH...``: display paths of the files to check, in a stable order, each file
    once (by real path)."""
    seen: set[str] = set()
    out: list[str] = []

    def add(p: str) -> None:
        real = os.path.realpath(p)
        if real not in seen:
            seen.add(real)
            out.append(os.path.normpath(p))

    for arg in paths:
        if os.path.isfile(arg):
            add(arg)
        elif os.path.isdir(arg):
            for f in sorted(walk_c_files(arg)):
                add(f)
        elif os.path.exists(arg):
            raise PathError(f"{arg}: not a regular file or folder")
        else:
            raise PathError(f"{arg}: no such file or folder")
    return out


def scan_c_files(roots: Iterable[Path], limit: int = MAX_SCAN_FILES) -> Iterator[Path]:
    """The language server's workspace: absolute paths of the C files under the roots (folders
    that are not there are skipped), each once, at most ``limit`` of them."""
    seen: set[Path] = set()
    for root in roots:
        if not root.is_dir():
            continue
        for name in walk_c_files(str(root)):
            path = Path(name).resolve()
            if path in seen:
                continue
            seen.add(path)
            if len(seen) > limit:
                log.warning("more than %d C files; the rest are not analysed", limit)
                return
            yield path


def read_text(path: str | Path) -> str:
    """A source file's text as the checks read it.  Undecodable bytes become U+FFFD rather than
    aborting: C files in Latin-1 are common and only their comments or strings tend to hold such
    bytes.  A lone ``\r`` (old Mac line end) becomes ``\n``, else tree-sitter would see one line,
    a directive would run to the end of the file and every finding would be on line 1 (see
    ``line_ends``)."""
    return checked_text(Path(path).read_bytes().decode("utf-8", errors="replace"))


def read_source(path: Path) -> str | None:
    try:
        return read_text(path)
    except OSError:
        return None


def read_sources(paths: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """File texts by path, plus one message per file that could not be read (those are skipped)."""
    texts: dict[str, str] = {}
    problems: list[str] = []
    for p in paths:
        try:
            texts[p] = read_text(p)
        except OSError as e:
            problems.append(f"{p}: cannot read: {e.strerror or e}")
    return texts, problems


MAX_HEADER_BYTES = 2_000_000
MAX_COMPILE_COMMANDS_BYTES = 500_000_000  # a compile database of a very large build
COMPILE_COMMANDS = "compile_commands.json"


def read_header(path: str) -> str | None:
    """A header's text for its macros, or None when it is missing, unreadable or too large to be a
    header worth reading (generated tables).  The project's ``compile_commands.json`` comes the
    same way (the language server reads whatever ``Project.header_paths`` names), with a larger
    bound."""
    limit = MAX_COMPILE_COMMANDS_BYTES if path.endswith(".json") else MAX_HEADER_BYTES
    try:
        if os.path.getsize(path) > limit:
            return None
        return read_text(path)
    except OSError:
        return None


def header_stamp(path: str) -> tuple[int, int] | None:
    """Modification time and size: what tells the server that a header changed on disk."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def load_headers(project: Project, known: Mapping[str, str] | None = None) -> list[str]:
    """Hand the project every file it reads besides its sources and was not given yet: the headers
    its files include (next to them, in the ``-I`` folders, followed through the headers' own
    includes) and its ``compile_commands.json``; texts from ``known`` (unsaved editor buffers or
    sources already read) or from disk.  Returns the paths handed in."""
    handed: list[str] = []
    for _ in range(MAX_DEPTH + 2):  # one round per include level
        wanted = project.unread_headers()
        if not wanted:
            break
        for header in wanted:
            if header == project.config.compile_commands:
                # the CLI's file paths are relative to its working folder
                project.set_compile_commands(header, read_header(header), base=os.getcwd())
                continue
            text = known.get(header) if known is not None else None
            project.set_header(header, text if text is not None else read_header(header))
        handed.extend(wanted)
    return handed


def find_compile_commands(start: Path) -> Path | None:
    """The nearest ``compile_commands.json`` at or above ``start`` (or in a ``build`` folder
    there, where CMake writes it), stopping at a repository root."""
    here = start.resolve()
    for d in [here, *here.parents]:
        for candidate in (d / COMPILE_COMMANDS, d / "build" / COMPILE_COMMANDS):
            if candidate.is_file():
                return candidate
        if (d / ".git").exists():
            break
    return None


def with_found_compile_commands(config: Config, start: Path) -> Config:
    """``config``, with the compile database found from ``start`` when it names none."""
    if config.compile_commands is not None:
        return config
    found = find_compile_commands(start)
    return config if found is None else dataclasses.replace(config, compile_commands=str(found))


def check_compile_commands(path: str) -> None:
    """ValueError, naming the file, when ``path`` cannot be read as a compile database."""
    text = read_header(path)
    if text is None:
        raise ValueError(f"{path}: cannot read the compile database")
    compile_database(text, path)


# ----- configuration -------------------------------------------------------------------------------
def _read_config_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(path, 0, f"cannot read: {e}") from None


def config_from_file(path: Path) -> Config:
    """The configuration in one named file: ``[tool.ctlsp]`` of a ``pyproject.toml`` (defaults
    without that table), any other file read whole as a ``ctlsp.toml``."""
    if not path.is_file():
        raise ConfigError(path, 0, "configuration file not found")
    text = _read_config_text(path)
    if path.name != PYPROJECT:
        return config_from_text(text, path)
    tool = load_toml(text, path).get("tool", {})
    section = tool.get("ctlsp") if isinstance(tool, dict) else None
    return Config() if section is None else config_from_data(section, text, path, prefix=PYPROJECT_PREFIX)


def config_file_in(folder: Path) -> Path | None:
    """The configuration file of ``folder`` itself: its ``ctlsp.toml``, else a ``pyproject.toml``
    that has a ``[tool.ctlsp]`` table."""
    own = folder / CONFIG_NAME
    if own.is_file():
        return own
    py = folder / PYPROJECT
    try:
        if py.is_file() and "[tool.ctlsp" in py.read_text(encoding="utf-8", errors="replace"):
            return py
    except OSError:
        pass
    return None


def find_config_file(start: Path) -> Path | None:
    """The nearest configuration file at or above ``start``, stopping at a repository root."""
    here = start.resolve()
    for d in [here, *here.parents]:
        found = config_file_in(d)
        if found is not None:
            return found
        if (d / ".git").exists():
            break
    return None


def find_config(start: Path) -> Config:
    """The configuration that applies to ``start`` (a folder): see :func:`find_config_file`; its
    compile database is the one it names, else the nearest one (:func:`find_compile_commands`)."""
    return config_in(find_config_file(start), start)


def config_in(found: Path | None, start: Path) -> Config:
    """The configuration of the file ``found`` (None: the defaults), its compile database found from
    ``start`` when it names none: what :func:`find_config` gives for a folder whose nearest
    configuration file is ``found``."""
    return with_found_compile_commands(Config() if found is None else config_from_file(found), start)


def config_files_of(files: Iterable[str]) -> dict[Path | None, list[str]]:
    """``files`` grouped by the configuration file that applies to each: the nearest at or above
    its folder (:func:`find_config_file`, the search the language server makes per workspace
    folder), None for those with none; groups in the order of their first file, files in order.

    A check of several folders with their own ``ctlsp.toml`` thus reads each file as a check of its
    folder alone would.  Each folder is searched once however many files it holds."""
    by_folder: dict[Path, Path | None] = {}
    out: dict[Path | None, list[str]] = {}
    for f in files:
        folder = Path(f).parent
        if folder not in by_folder:
            by_folder[folder] = find_config_file(folder)
        out.setdefault(by_folder[folder], []).append(f)
    return out
