"""Per-file compiler flags: what ``compile_commands.json`` says each file is compiled with.

Only the flags that change what the preprocessor sees count: ``-D``/``-U`` (in command-line order,
a later one of a name wins), ``-I``, ``-iquote``, ``-isystem``, ``-idirafter`` (where headers are
looked for) and ``-include`` (a header read before the file).  Relative folders and files are taken
relative to the entry's ``directory``, as the compiler would, so that every path in a
:class:`FileFlags` is as absolute as the database's ``directory``.

Pure: the edges read the JSON file and hand its text in (``extractors.api.Project``); nothing here
touches the file system.  A file compiled by several entries with different defines (two builds of
one source) keeps what all of them agree on: a name they define differently is *unknown*, so
neither build's branch is dropped.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from extractors.preprocessor import Defines, parse_define

# (op, name, value): ("D", name, value) or ("U", name, None), in command-line order
MacroOp = tuple[str, str, "int | None"]

_DIR_FLAGS = {"-I": "include", "-isystem": "include", "-idirafter": "after", "-iquote": "quote"}
_VALUE_FLAGS = ("-D", "-U", "-include", *_DIR_FLAGS)


@dataclass(frozen=True)
class FileFlags:
    """What one file is compiled with, as far as the preprocessor goes."""

    macros: tuple[MacroOp, ...] = ()
    quote_dirs: tuple[str, ...] = ()  # -iquote: for #include "x.h" only, after the file's folder
    include_dirs: tuple[str, ...] = ()  # -I, -isystem, then -idirafter: for both include forms
    forced: tuple[str, ...] = ()  # -include files, read before the file's first line
    unknown: frozenset[str] = frozenset()  # names the file's entries disagree on

    def applied(self, base: Defines) -> Defines:
        """``base`` (the configuration's defines) with these flags' ``-D``/``-U`` on top, then the
        names the entries disagree on made unknown."""
        defined = dict(base.defined)
        undefined = set(base.undefined)
        for op, name, value in self.macros:
            if op == "D":
                defined[name] = value
                undefined.discard(name)
            else:
                defined.pop(name, None)
                undefined.add(name)
        for name in self.unknown:
            defined.pop(name, None)
            undefined.discard(name)
        return Defines(defined, frozenset(undefined))


NO_FLAGS = FileFlags()


class CompileCommandsError(ValueError):
    """A compile database that cannot be used; the message names the entry."""


def flags_from_arguments(args: Sequence[str], directory: str) -> FileFlags:
    """The flags of one compiler command line (``args[0]`` is the compiler); folders relative to
    ``directory``.  Flags this module does not know are skipped, as are ``-D`` values that are not
    macro definitions."""
    macros: list[MacroOp] = []
    dirs: dict[str, list[str]] = {"include": [], "after": [], "quote": []}
    forced: list[str] = []
    for flag, value in _flag_values(args[1:]):
        if flag == "-D":
            name = value.split("=", 1)[0].split("(", 1)[0]  # -D'F(x)=x' defines F
            try:
                defined = parse_define(value) if name == value.split("=", 1)[0] else (parse_define(name)[0], None)
            except ValueError:
                continue
            macros.append(("D", defined[0], defined[1]))
        elif flag == "-U":
            try:
                macros.append(("U", parse_define(value)[0], None))
            except ValueError:
                continue
        elif flag == "-include":
            forced.append(_absolute(directory, value))
        else:
            dirs[_DIR_FLAGS[flag]].append(_absolute(directory, value))
    return FileFlags(
        tuple(macros), tuple(dirs["quote"]), tuple(dirs["include"] + dirs["after"]), tuple(forced)
    )


def _flag_values(args: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(flag, value) for the flags of :data:`_VALUE_FLAGS`, joined (``-DX``, ``-Iinc``) or separate
    (``-D X``, ``-isystem inc``)."""
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        for flag in _VALUE_FLAGS:
            if arg == flag:
                if i < len(args):
                    yield flag, args[i]
                    i += 1
                break
            if arg.startswith(flag):
                value = arg[len(flag) :]
                yield flag, value[1:] if flag[1].islower() and value.startswith("=") else value
                break


def _absolute(directory: str, path: str) -> str:
    return os.path.normpath(os.path.join(directory, path))


def compile_database(text: str, path: str) -> dict[str, FileFlags]:
    """The flags per file of a ``compile_commands.json`` text read from ``path``, keyed by each
    file's normalised path (``file`` joined onto ``directory``, itself joined onto the JSON file's
    folder when relative).  :class:`CompileCommandsError` when it is not a compile database."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise CompileCommandsError(f"{path}: not JSON: {e}") from None
    if not isinstance(data, list):
        raise CompileCommandsError(f"{path}: expected a list of entries")
    out: dict[str, list[FileFlags]] = {}
    for i, entry in enumerate(data):
        if not isinstance(entry, dict):
            raise CompileCommandsError(f"{path}: entry {i}: expected an object")
        directory, file = entry.get("directory"), entry.get("file")
        if not isinstance(directory, str) or not isinstance(file, str):
            raise CompileCommandsError(f"{path}: entry {i}: needs 'directory' and 'file' strings")
        directory = _absolute(os.path.dirname(path), directory)
        args = entry.get("arguments")
        if args is None:
            command = entry.get("command")
            if not isinstance(command, str):
                raise CompileCommandsError(f"{path}: entry {i}: needs 'arguments' or 'command'")
            try:
                args = shlex.split(command)
            except ValueError as e:
                raise CompileCommandsError(f"{path}: entry {i}: command: {e}") from None
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise CompileCommandsError(f"{path}: entry {i}: 'arguments' must be a list of strings")
        out.setdefault(_absolute(directory, file), []).append(flags_from_arguments(args, directory))
    return {file: _agreed(flags) for file, flags in out.items()}


def _agreed(entries: list[FileFlags]) -> FileFlags:
    """One file's flags from all its entries: the first entry's, with every name whose final state
    differs between entries unknown, and the folders and forced headers of all of them."""
    first = entries[0]
    if len(entries) == 1:
        return first
    finals = [e.applied(Defines()) for e in entries]
    names = {n for d in finals for n in (*d.defined, *d.undefined)}
    unknown = {n for n in names if len({(n in d.defined, d.defined.get(n), n in d.undefined) for d in finals}) > 1}
    return FileFlags(
        first.macros,
        _union(e.quote_dirs for e in entries),
        _union(e.include_dirs for e in entries),
        _union(e.forced for e in entries),
        frozenset(unknown) | first.unknown,
    )


def _union(groups: Iterator[tuple[str, ...]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p for g in groups for p in g))
