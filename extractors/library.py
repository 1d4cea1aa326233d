"""What library functions do, as data: ``library.toml`` (shipped) and ``[library.NAME]`` (ctlsp.toml).

A call the front end does not know is opaque: every pointer handed to it escapes, so it can hide a
leak but never cause a finding.  A row here replaces that guess with the function's contract (as
cppcheck's library files do): what its result is, what happens to each argument, whether it returns
at all, whether its result must be looked at.  Rows are data so that widening the knowledge is an
edit of ``library.toml`` or of the user's configuration, not of code.

Keys of one row (every key optional; the shipped file and ``[library.NAME]`` tables read alike)::

    returns    = "alloc" | "open"     # the result is fresh memory / an open resource (or NULL)
    nonnull    = true                 # ... and never NULL (allocators that abort on failure)
    uninit     = true                 # ... whose contents start unset (malloc, not calloc)
    args       = ["use", "", "escape"]  # per argument position, what the call does to it:
                 #  ""       nothing (a size, a flag, a pointer only compared or stored nowhere)
                 #  "use"    dereferences it (NULL or freed is a bug)
                 #  "read"   reads its value       "def"   initialises it (va_start)
                 #  "free"   frees it              "close" closes it
                 #  "escape" takes ownership or stores it (fdopen's descriptor, setvbuf's buffer)
                 #  "lock" / "unlock" a mutex      "addr"  a macro taking the argument's address
    all_args   = "read"               # what it does to every argument (variadic printf)
    null_ok    = [0]                  # argument positions it checks for NULL itself (free(NULL),
                                      # fflush(NULL)): such a position is never "use"
    format     = 0                    # position of a printf format: the literal's %s / %n
                                      # arguments are dereferenced (extractors/formats.py)
    kept_on_failure = [0]             # argument positions still the caller's when the call fails
                                      # (realloc's old block): ``p = realloc(p, n)`` loses it then
                                      # an "escape" position listed here is taken only past a
                                      # not-NULL test of the result (fdopen's descriptor:
                                      # extractors/conditional_takes.py)
    returns_arg = 0                   # the result is that argument (memcpy's destination,
                                      # PyObject_Init's object: NULL exactly when it is), so a
                                      # NULL test of the result tests the argument
    error_indicator = "set"           # the library's error indicator (Python's exception state):
                                      # "set" raises it (PyErr_SetString), "clear" clears it
                                      # (PyErr_Clear), "test" reads it: the result is not NULL
                                      # exactly when it is set (PyErr_Occurred;
                                      # extractors/error_indicator.py)
    noreturn   = true                 # never returns (exit, abort, longjmp)
    must_check = true                 # discarding the result is a bug (unchecked-return)
    checked_by = ["ferror", "feof"]   # ... unless the function calls one of these on one of the
                                      # same arguments (fread(b, 1, n, f); if (ferror(f)) ...)

Invariants: a row's argument atoms are among :data:`ARG_ATOMS`; a ``null_ok`` position is never
``use``; an argument listed nowhere is neither dereferenced nor taken (a function in the table is
no longer opaque, so a row must name every argument it stores with ``escape``).  The shipped file is
parsed once per process (:func:`builtin_library` is cached); the call table is built from it once
per configuration, so nothing here runs per check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from extractors.config import ConfigError, line_of, load_toml


@dataclass(frozen=True)
class CallSpec:
    returns: str | None = None
    # (argument index or -1 for all, atom); ``addr``: a macro that takes the argument's address,
    # read as ``&arg`` written out (a definition, and the variable's address is taken)
    args: tuple[tuple[int, str], ...] = ()
    noreturn: bool = False
    must_check: bool = False
    nonnull: bool = False  # the returned value is never NULL (allocators that abort on failure)
    assigns: tuple[str, ...] = ()  # the caller's variables a macro assigns by name (lua's vmfetch() sets i)
    null_ok: tuple[int, ...] = ()  # argument positions the function checks for NULL itself
    # calls that check a dropped result instead (fread's ferror): named on one of its arguments in
    # the same function, they count as checking it
    checked_by: tuple[str, ...] = ()
    # argument positions that stay the caller's when the call fails and returns NULL (realloc's
    # old block): storing the result over that argument loses it then (memory-leak-realloc)
    kept_on_failure: tuple[int, ...] = ()
    # the position of a printf-style format argument: the arguments its literal's %s and %n
    # conversions name are dereferenced (extractors.formats)
    format: int | None = None
    # the fresh block's contents start unset (malloc, not calloc): what is read of it before a store
    # is an uninitialised read (extractors.contents)
    uninit: bool = False
    # the position of the argument the call returns (memcpy's destination): a NULL test of the
    # result tests that argument (extractors.facts.null_test)
    returns_arg: int | None = None
    # what the call does to the library's error indicator: "set", "clear", or "test" (the result
    # is not NULL exactly when it is set), or None (extractors.error_indicator)
    error_indicator: str | None = None


RESULTS = ("alloc", "open")
INDICATOR = ("set", "clear", "test")
ARG_ATOMS = ("use", "read", "def", "addr", "free", "close", "escape", "lock", "unlock")
KEYS = (
    "returns", "nonnull", "args", "all_args", "null_ok", "noreturn", "must_check", "checked_by", "kept_on_failure",
    "format", "uninit", "returns_arg", "error_indicator",
)
LIBRARY_FILE = Path(__file__).with_name("library.toml")

# err(function name, key or None, message) -> the error to raise, placed at the row's line
ErrorAt = Callable[[str, "str | None", str], ConfigError]


def spec_of(name: str, row: Any, err: ErrorAt, base: CallSpec | None = None, prefix: str = "") -> CallSpec:
    """One validated row; keys it gives replace those of ``base`` (the built-in row a user's
    ``[library.NAME]`` extends), keys it omits keep them.  Messages name it ``prefix + name``."""
    label = prefix + name
    if not isinstance(row, dict):
        raise err(name, None, f"{label!r} must be a table of keys ({', '.join(KEYS)})")
    for key in row:
        if key not in KEYS:
            raise err(name, key, f"unknown key {key!r} for {label} (known: {', '.join(KEYS)})")
    spec = base or CallSpec()
    returns = row.get("returns", spec.returns)
    if returns is not None and returns not in RESULTS:
        raise err(name, "returns", f"{label}.returns must be one of {', '.join(map(repr, RESULTS))}")
    indicator = row.get("error_indicator", spec.error_indicator)
    if indicator is not None and indicator not in INDICATOR:
        raise err(name, "error_indicator", f"{label}.error_indicator must be one of {', '.join(map(repr, INDICATOR))}")
    flags: dict[str, bool] = {}
    for key in ("nonnull", "noreturn", "must_check", "uninit"):
        value = row.get(key, getattr(spec, key))
        if not isinstance(value, bool):
            raise err(name, key, f"{label}.{key} must be true or false")
        flags[key] = value
    args = list(spec.args)
    if "args" in row or "all_args" in row:
        args = []
        listed = row.get("args", [])
        if not isinstance(listed, list) or not all(isinstance(a, str) for a in listed):
            raise err(name, "args", f'{label}.args must be a list of strings, one per argument ("" for none)')
        for i, atom in enumerate(listed):
            if atom and atom not in ARG_ATOMS:
                raise err(name, "args", f"{label}.args[{i}]: unknown {atom!r} (known: {', '.join(ARG_ATOMS)})")
            if atom:
                args.append((i, atom))
        every = row.get("all_args")
        if every is not None:
            if every not in ARG_ATOMS:
                raise err(name, "all_args", f"{label}.all_args must be one of {', '.join(ARG_ATOMS)}")
            args.append((-1, every))
    null_ok = _positions(row, "null_ok", spec.null_ok, label, lambda key, msg: err(name, key, msg))
    kept = _positions(row, "kept_on_failure", spec.kept_on_failure, label, lambda key, msg: err(name, key, msg))
    fmt = _position(row, "format", spec.format, label, lambda key, msg: err(name, key, msg))
    same = _position(row, "returns_arg", spec.returns_arg, label, lambda key, msg: err(name, key, msg))
    for i, atom in args:
        if atom == "use" and (i in null_ok or (i == -1 and null_ok)):
            raise err(name, "null_ok", f"{label}: argument {i} is both dereferenced (use) and allowed to be NULL")
    checked_by = row.get("checked_by", list(spec.checked_by))
    if not isinstance(checked_by, list) or not all(isinstance(c, str) and c.isidentifier() for c in checked_by):
        raise err(name, "checked_by", f"{label}.checked_by must be a list of function names")
    return replace(
        spec,
        returns=returns,
        checked_by=tuple(checked_by),
        args=tuple(args),
        null_ok=tuple(null_ok),
        kept_on_failure=tuple(kept),
        format=fmt,
        returns_arg=same,
        error_indicator=indicator,
        nonnull=flags["nonnull"],
        noreturn=flags["noreturn"],
        must_check=flags["must_check"],
        uninit=flags["uninit"],
    )


def _position(
    row: Mapping[str, Any], key: str, old: int | None, label: str, err: Callable[[str, str], ConfigError]
) -> int | None:
    """A row's one argument position under ``key`` (``old`` when it gives none), validated."""
    got = row.get(key, old)
    if got is not None and (not isinstance(got, int) or isinstance(got, bool) or got < 0):
        raise err(key, f"{label}.{key} must be an argument position (0 is the first)")
    return got


def _positions(
    row: Mapping[str, Any], key: str, old: tuple[int, ...], label: str, err: Callable[[str, str], ConfigError]
) -> list[int]:
    """A row's list of argument positions under ``key`` (``old`` when it gives none), validated."""
    got = row.get(key, list(old))
    if not isinstance(got, list) or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in got):
        raise err(key, f"{label}.{key} must be a list of argument positions (0 is the first)")
    return got


def fields_of(row: Mapping[str, Any]) -> tuple[str, ...]:
    """The :class:`CallSpec` fields a (validated) row sets: what it overrides in a row it extends."""
    return tuple(sorted({"args" if k == "all_args" else k for k in row}))


def overlay(base: CallSpec, spec: CallSpec, fields: tuple[str, ...]) -> CallSpec:
    """``base`` with ``fields`` taken from ``spec`` (a user's row over the table's)."""
    return replace(base, **{f: getattr(spec, f) for f in fields})


def specs_of(
    rows: Mapping[str, Any], err: ErrorAt, base: Mapping[str, CallSpec] | None = None, prefix: str = ""
) -> dict[str, CallSpec]:
    """Every row of a library table, validated; ``base`` gives the rows they extend."""
    out: dict[str, CallSpec] = {}
    for name, row in rows.items():
        if not name.isidentifier():
            raise err(name, None, f"{prefix + name!r} is not a C function name")
        out[name] = spec_of(name, row, err, (base or {}).get(name), prefix)
    return out


def library_from_text(text: str, path: str | Path = LIBRARY_FILE) -> dict[str, CallSpec]:
    """A library file (tables named by function) as call specs; :class:`ConfigError` on a slip."""

    def err(name: str, key: str | None, message: str) -> ConfigError:
        return ConfigError(path, line_of(text, name, key), message)

    return specs_of(load_toml(text, path), err)


@cache
def builtin_digest() -> str:
    """Names the shipped rows' content, so results cached under another library die with it."""
    return hashlib.sha256(LIBRARY_FILE.read_bytes()).hexdigest()[:16]


@cache
def builtin_library() -> Mapping[str, CallSpec]:
    """The shipped rows, read once per process (the call table is built from them per config)."""
    return library_from_text(LIBRARY_FILE.read_text(encoding="utf-8"))
