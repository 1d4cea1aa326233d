"""The front end's queries: the inputs the edges set and what the database derives from them, from a
file's text to its functions' models placed at their rows.

Inputs (:mod:`extractors.inputs`; set by the CLI and the server through
:class:`extractors.api.Project`, nothing else): ``SOURCE``, ``HEADER``, ``FLAGS``, ``SETTINGS``,
``PROJECT_FILES``.

Derived, each a pure function of what it reads:

    file_pieces(path)            the file cut into pieces that parse alone (extractors.pieces)
    piece_items(piece)           what one piece holds, keyed by its text (extractors.items)
    file_segments(path)          the pieces in runs of about 16, the grain of whole-file scans
    segment_items(pieces)        what a run of about 16 pieces holds, read from theirs
    file_items(path)             top-level items with positions: the source map of the file
    file_scope(path)             constants, globals, noreturn functions, preprocessor directives
    file_defines(path)           the text of the file's function-like ``#define`` lines
    header_directives(header)    a header's conditionals, defines and includes
    file_preprocessor(path)      the headers the file reads and what they and it define
    project_header(name)         the project's one file a quoted include found nowhere else names
    header_macros(header)        assigning macros of one header
    header_renames(header)       macros of one header that rename a function
    file_macros(path)            the assigning and renaming macros the file's functions see
    header_counts(header)        macros of one header that may be a size or a count (ARRAY_SIZE)
    file_counts(path)            those the file's conditions read through (count_macros.py)
    header_array_types(header)   typedef names of array types in one header (array_types.py)
    file_array_types(path)       those the file and the headers it reads declare
    function_context(path)       what reading any function of the file depends on besides its text
    file_facts(path)             what the file adds to the project's facts (project_facts.py)
    project_facts(())            constant globals and helper results of the whole project
    file_view(path)              the project's constants the file's functions can name
    function_model(path, name, text)  a definition's CFG and facts from its text (padded to its
                                 first column), rows counted from its first line (0)
    file_ignores(path)           its suppression comments
    file_notes(path)             its functions that could not be modelled, placed
    file_model(path)             the file's placed models and suppressions

Invariant (rust-analyzer's): positions live only in ``file_items`` and ``file_model``, which places
models for the API.  Typing inside one function changes one piece: ``file_items`` is read again
from the segments (one of them read again from its pieces); every other function keeps its text,
so its model's key, and the context is recomputed equal (backdated): the model is verified without
being rebuilt and is the same object, wherever the function moved.

A function is parsed from its own text: the whole-file parse only finds where items are, so a model
cannot depend on anything outside the definition but its file's context and the configuration.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import TypeVar, cast

from tree_sitter import Node as TSNode

from checker.querydb import Content, Database, derived
from extractors.array_types import LIBRARY_ARRAY_TYPES, array_typedefs
from extractors.attributes import KINDS, DefineBodies, declared_with, define_bodies, markers, markers_of
from extractors.calls import CallSpec
from extractors.cfg import Cfg
from extractors.compile_flags import NO_FLAGS
from extractors.count_macros import (
    CountMacro,
    CountMacros,
    count_macros,
    count_macros_key,
    counting,
    dropped,
    function_like,
    hint,
    mixed_hints,
)
from extractors.findings import Location, Unmodelled
from extractors.functions import (
    FileModel,
    FunctionModel,
    build_function,
    build_variants,
    consts_digest,
    function_key,
    function_name,
    function_name_node,
    macro_specs,
    moved,
    top_level_items,
)
from extractors.includes import (
    UNREAD,
    BuildMacros,
    Elsewhere,
    Lookup,
    Preprocessed,
    Unread,
    build_macros,
    preprocess,
    search_path,
)
from extractors.inputs import FLAGS, HEADER, PROJECT_FILES, SETTINGS, SOURCE, FrontDb, Settings
from extractors.items import (
    Exits,
    FileItems,
    FileScope,
    FunctionItem,
    file_items,
    file_pieces,
    file_segments,
    piece_items,
    segment_items,
)
from extractors.items import project_stops as stops_of
from extractors.macro_calls import Rename, macro_call_names, renames, resolved
from extractors.parse import parse_c
from extractors.pieces import Piece
from extractors.preprocessor import (
    NO_DEFINES,
    Defines,
    Directive,
    directives,
    has_conditionals,
    with_readable_calls,
    without_statement_macros,
)
from extractors.project_facts import (
    FileFacts,
    ProjectFacts,
    combine,
    identifiers,
    mentioned,
)
from extractors.suppress import suppressions
from extractors.user_atoms import UserAtoms

__all__ = [
    "FLAGS",
    "HEADER",
    "PROJECT_FILES",
    "SETTINGS",
    "SOURCE",
    "FileItems",
    "FileScope",
    "FrontDb",
    "FunctionItem",
    "Settings",
    "file_items",
    "file_pieces",
    "piece_items",
]

# ----- the file ----------------------------------------------------------------------------------


def _flag_defines(db: Database, path: str) -> Defines:
    """The defines of the configuration and the file's compile flags, before any header's."""
    settings = db.get(SETTINGS, ())
    return db.get_or(FLAGS, path, NO_FLAGS).applied(settings.defines).overlaid(settings.command)


@derived("file_scope")
def file_scope(db: Database, path: str) -> FileScope:
    return db.get(file_items, path).scope


@derived("file_defines")
def file_defines(db: Database, path: str) -> tuple[bytes, ...]:
    return db.get(file_items, path).defines


@derived("header_macros")
def header_macros(db: Database, header: str) -> tuple[tuple[str, CallSpec], ...]:
    text = db.get(HEADER, header)
    return tuple(sorted(macro_specs(text).items())) if text else ()


@derived("header_renames")
def header_renames(db: Database, header: str) -> tuple[tuple[str, Rename], ...]:
    text = db.get(HEADER, header)
    return tuple(sorted(renames(text).items())) if text else ()


@derived("header_counts")
def header_counts(db: Database, header: str) -> tuple[tuple[str, CountMacro], ...]:
    text = db.get(HEADER, header)
    return tuple(sorted(count_macros(text).items())) if text else ()


@derived("file_counts")
def file_counts(db: Database, path: str) -> tuple[tuple[str, CountMacro], ...]:
    """The macros the file's conditions read through when they make a size or a count
    (:mod:`extractors.count_macros`): the file's own over those of the headers it reads.  From the
    defines' texts alone, so an edit inside a body does not run it; backdated when equal."""
    found: dict[str, CountMacro] = {}
    for header in db.get(file_preprocessor, path).headers:
        got: tuple[tuple[str, CountMacro], ...] = db.get(header_counts, header)
        found.update(got)
    defines = db.get(file_defines, path)
    own = b"\n\n".join(defines).decode("utf-8", "surrogateescape")
    if own:
        found.update(count_macros(own))
    build: BuildMacros = db.get(file_build_macros, path)
    for name, _ in build:
        found.pop(name, None)
    found.update(count_macros(_define_lines(build)))
    kept = counting(found)
    if own:  # a build's pick of a hint that other builds define otherwise is none
        for name in mixed_hints(own):
            if name in kept and hint(kept[name]):
                del kept[name]
    for name, define in build:
        # a call of a macro that compiles an argument out is read through its expansion
        macro = function_like(define) if name not in kept else None
        if macro is not None and dropped(macro):
            kept[name] = macro
    # a library function's name the file may redefine (sqlite's memcpy under #ifdef
    # SQLITE_INLINE_MEMCPY, a profiling build) stays the library's call where no build says so
    table = db.get(SETTINGS, ()).table
    defined = db.get(file_preprocessor, path).defines.defined
    built = {name for name, _ in build}
    for name in [n for n in kept if n in table and n not in defined and n not in built]:
        del kept[name]
    return tuple(sorted(kept.items()))


@derived("header_array_types")
def header_array_types(db: Database, header: str) -> frozenset[str]:
    text = db.get(HEADER, header)
    return array_typedefs(text.encode("utf-8", "surrogatepass")) if text else frozenset()


@derived("file_array_types")
def file_array_types(db: Database, path: str) -> frozenset[str]:
    """The typedef names of array types the file's functions see: its own, those of the headers it
    reads and the library's (``array_types.LIBRARY_ARRAY_TYPES``).  From the file's scope and its
    headers only, so an edit inside a body does not change it; backdated when equal."""
    found = set(db.get(file_scope, path).array_types) | LIBRARY_ARRAY_TYPES
    for header in db.get(file_preprocessor, path).headers:
        got: frozenset[str] = db.get(header_array_types, header)
        found |= got
    return frozenset(found)


@derived("header_directives")
def header_directives(db: Database, header: str) -> tuple[Directive, ...]:
    text = db.get(HEADER, header)
    return directives(text.encode("utf-8", "surrogatepass")) if text else ()


def _header_lookups(db: Database) -> tuple[Lookup, Elsewhere]:
    """How a preprocessor run over a file reads its headers' directives and finds a quoted
    include's one project file: through the database, so the run depends on what it read."""

    def lookup(header: str) -> tuple[Directive, ...] | None | Unread:
        text = db.get_or(HEADER, header, UNREAD)
        if text is None or isinstance(text, Unread):
            return text
        found: tuple[Directive, ...] = db.get(header_directives, header)
        return found

    def elsewhere(name: str) -> str | None:
        found: str | None = db.get(project_header, name)
        return found

    return lookup, elsewhere


@derived("file_preprocessor")
def file_preprocessor(db: Database, path: str) -> Preprocessed:
    """The headers ``path`` reads (next to it, in its ``-I`` folders, its ``-include`` files) and
    what its and their directives define (:func:`extractors.includes.preprocess`).  Reads only its
    directives, its flags, the settings and the headers it looks at, so typing inside a function
    does not run it, and a change to one file's flags or to one header runs it for the files that
    read them only; equal outcomes are backdated."""
    return _directive_run(db, path, preprocess)


_Ran = TypeVar("_Ran")


def _directive_run(db: Database, path: str, run: Callable[..., _Ran]) -> _Ran:
    """``run`` (:func:`extractors.includes.preprocess` or ``build_macros``) over the file's
    directives, with its flags, the settings, and its headers read through the database."""
    settings = db.get(SETTINGS, ())
    flags = db.get_or(FLAGS, path, NO_FLAGS)
    lookup, elsewhere = _header_lookups(db)
    return run(
        path,
        db.get(file_scope, path).directives,
        flags.forced,
        search_path(flags, settings.command_include, settings.include),
        _flag_defines(db, path),
        lookup,
        settings.command,
        elsewhere,
    )


def _define_lines(build: BuildMacros) -> str:
    """The build's definitions as the text of their ``#define`` lines, a blank line between."""
    return "\n\n".join("#define " + define for _, define in build)


@derived("file_build_macros")
def file_build_macros(db: Database, path: str) -> BuildMacros:
    """The macros the file and its headers define differently per build, as the build the
    configuration and the file's flags make (:func:`extractors.includes.build_macros`).  Reads
    what :func:`file_preprocessor` reads, so typing inside a function does not run it."""
    return _directive_run(db, path, build_macros)


@derived("project_header")
def project_header(db: Database, name: str) -> str | None:
    """The one file of the project whose path ends with the quoted include ``name``, for an include
    found neither next to its file nor on the search path (``#include "zlib.h"`` in ``test/``,
    built with ``-I..``); None when no file or more than one does, where ctlsp cannot tell which
    the build means.  Reads only the project's paths, and is backdated while its answer stays, so
    adding or removing an unrelated file runs no file's preprocessor again."""
    tail = os.path.normpath(name)
    if tail.startswith(("/", "..")):
        return None
    found = [
        p for p in db.get_or(PROJECT_FILES, (), frozenset())
        if (q := os.path.normpath(p)) == tail or q.endswith(os.sep + tail)
    ]
    return found[0] if len(found) == 1 else None


@derived("file_macros")
def file_macros(db: Database, path: str) -> tuple[tuple[str, CallSpec], ...]:
    """Function-like macros that assign (see :func:`extractors.functions.macro_specs`) and macros
    that rename a function of the call table (:mod:`extractors.macro_calls`): the file's own over
    those of the headers it reads, less the names the call table knows."""
    macros: dict[str, CallSpec] = {}
    renamed: dict[str, Rename] = {}
    for header in db.get(file_preprocessor, path).headers:
        found: tuple[tuple[str, CallSpec], ...] = db.get(header_macros, header)
        macros.update(found)
        moved: tuple[tuple[str, Rename], ...] = db.get(header_renames, header)
        renamed.update(moved)
    defines = db.get(file_defines, path)
    if defines:
        # blank lines between: a definition ending in a backslash must not run on into the next
        own = b"\n\n".join(defines).decode("utf-8", "surrogateescape")
        macros.update(macro_specs(own))
        renamed.update(renames(own))
    build: BuildMacros = db.get(file_build_macros, path)
    if build:  # the build's definitions, not the last ones written
        for name, _ in build:
            macros.pop(name, None)
            renamed.pop(name, None)
        text = _define_lines(build)
        macros.update(macro_specs(text))
        renamed.update(renames(text))
    table = db.get(SETTINGS, ()).table
    return tuple(sorted(resolved(renamed, table, macros).items()))


@derived("header_markers")
def header_markers(db: Database, key: tuple[str, str]) -> frozenset[str]:
    header, kind = key
    text = db.get(HEADER, header)
    return markers(text, words=KINDS[kind]) if text else KINDS[kind]


@derived("header_declared")
def header_declared(db: Database, key: tuple[str, frozenset[str]]) -> frozenset[str]:
    header, marks = key
    text = db.get(HEADER, header)
    return declared_with(text, marks) if text else frozenset()


@derived("file_declared")
def file_declared(db: Database, key: tuple[str, str]) -> frozenset[str]:
    """Functions the file or the headers it reads declare with an attribute of ``kind``
    (``must_check``: ``warn_unused_result`` / ``[[nodiscard]]``; ``noreturn``), also through
    the markers of all of them (:mod:`extractors.attributes`); backdated when equal, so an edit
    inside a body rebuilds nothing through it.  The file is read by segments of its pieces, whose
    scans are kept: an edit rescans the segment it touches, not the whole text."""
    path, kind = key
    headers = db.get(file_preprocessor, path).headers
    segments: tuple[tuple[Piece, ...], ...] = db.get(file_segments, path)
    known: frozenset[str] = frozenset().union(*(db.get(header_markers, (h, kind)) for h in headers))
    defined: list[DefineBodies] = db.get_all(segment_defines, segments)
    marks = markers_of(tuple(chain.from_iterable(defined)), known, KINDS[kind])
    names: set[str] = set().union(*db.get_all(segment_declared, [(segment, marks) for segment in segments]))
    for h in headers:
        found: frozenset[str] = db.get(header_declared, (h, marks))
        names |= found
    return frozenset(names)


def _segment_text(segment: tuple[Piece, ...]) -> str:
    return b"".join(piece.text for piece in segment).decode("utf-8", "surrogatepass")


@derived("segment_defines")
def segment_defines(db: Database, segment: tuple[Piece, ...]) -> DefineBodies:
    """The ``#define`` lines of a run of a file's pieces, with their bodies' words."""
    return define_bodies(_segment_text(segment))


@derived("segment_declared")
def segment_declared(db: Database, key: tuple[tuple[Piece, ...], frozenset[str]]) -> frozenset[str]:
    """The functions a run of a file's pieces declares with one of the markers ``marks``."""
    segment, marks = key
    return declared_with(_segment_text(segment), marks)


@dataclass(frozen=True)
class Context:
    """The constants and call table a file's functions are read with; ``digest`` names them."""

    digest: str
    consts: dict[str, int] = field(compare=False)
    table: dict[str, CallSpec] = field(compare=False)
    macros: dict[str, CallSpec] = field(compare=False)
    defines: Defines = field(default=NO_DEFINES, compare=False)  # the configuration's and the file's
    facts: frozenset[str] = field(default=frozenset(), compare=False)  # project constants: a local hides them
    atoms: UserAtoms = field(default=(), compare=False)  # the configuration's [[atoms]]
    # each of ``macros`` to the name the models give its calls (``macro_calls.macro_call_name``)
    call_names: dict[str, str] = field(default_factory=dict, compare=False)
    counts: CountMacros = field(default_factory=dict, compare=False)  # what loop bounds read through
    known: frozenset[str] = field(default=frozenset(), compare=False)  # the table's names before must_check
    array_types: frozenset[str] = field(default=frozenset(), compare=False)  # typedefs of arrays


@derived("function_context")
def function_context(db: Database, path: str) -> Context:
    scope = db.get(file_scope, path)
    macros = db.get(file_macros, path)
    settings = db.get(SETTINGS, ())
    pre = db.get(file_preprocessor, path)
    own = dict(scope.consts)
    consts = {**dict(pre.consts), **own} if pre.consts else own
    defines = pre.defines.with_file(own)
    must = db.get(file_declared, (path, "must_check"))
    text = consts_digest(consts) + repr(list(macros)) + defines.key()
    text += "|must:" + ",".join(sorted(must)) if must else ""
    counted: tuple[tuple[str, CountMacro], ...] = db.get(file_counts, path)
    counts = dict(counted)
    text += "|counts:" + count_macros_key(counts) if counts else ""
    array_types: frozenset[str] = db.get(file_array_types, path)
    text += "|arrays:" + ",".join(sorted(array_types)) if array_types else ""
    digest = hashlib.sha256(f"{settings.config_digest}|{text}".encode()).hexdigest()[:32]
    table = {**settings.table, **dict(macros)} if macros else settings.table
    known = frozenset(table)
    if must:  # a project function stays a box in the projections: only its calls are marked unchecked
        table = {**table, **{n: replace(table.get(n, CallSpec()), must_check=True) for n in must}}
    own_macros = dict(macros)
    return Context(
        digest,
        consts,
        table,
        own_macros,
        defines,
        atoms=settings.atoms,
        call_names=macro_call_names(own_macros),
        counts=counts,
        known=known,
        array_types=array_types,
    )


@derived("file_stops")
def file_stops(db: Database, path: str) -> frozenset[str]:
    """The functions a call to which ends the path in ``path``: its own that never return
    (:mod:`extractors.items`), those declared ``noreturn`` in it or the headers it reads, and the
    other files' that never return (:func:`project_stops`) which it defines no function of."""
    declared: frozenset[str] = db.get(file_declared, (path, "noreturn"))
    own = db.get(file_scope, path).noreturn | declared
    elsewhere: frozenset[str] = db.get(project_stops, ())
    if not elsewhere:
        return own
    defined = db.get(file_items, path).functions.keys()
    return own | frozenset(n for n in elsewhere if n not in defined)


@derived("file_exits")
def file_exits(db: Database, path: str) -> Exits:
    """Backdated across edits that change no function's way of never returning."""
    return db.get(file_items, path).exits


@derived("project_stops")
def project_stops(db: Database, key: tuple[()]) -> frozenset[str]:
    """The functions of ``PROJECT_FILES`` that other files' calls of end the path (``fatal`` in
    util.c, which calls ``exit``); unset, none."""
    paths = db.get_or(PROJECT_FILES, (), frozenset())
    return stops_of(db.get(file_exits, p) for p in sorted(paths))


def function_stops(db: Database, key: tuple[str, str, bytes]) -> frozenset[str]:
    """Those of :func:`file_stops` the function's text names, itself or through the bodies of the
    file's macros it calls (``CHECK(x)`` expanding to ``fatal(...)``): whether a helper it never
    calls returns never rebuilds it (``luaM_toobig`` starting to return rebuilds its callers only).
    Read inside :func:`function_model`, so its dependencies are the model's."""
    stops = db.get(file_stops, key[0])
    if not stops:
        return frozenset()
    names = identifiers(key[2])
    through: dict[str, frozenset[str]] = db.get(file_macro_words, key[0])
    if through:
        names = names.union(*(through[n] for n in names & through.keys()))
    return stops & names


@derived("file_macro_words")
def file_macro_words(db: Database, path: str) -> dict[str, frozenset[str]]:
    """Per macro a call of which the CFG builder may read through (:func:`file_counts`), the names
    its body names, through the bodies of the macros it names in turn."""
    counted: tuple[tuple[str, CountMacro], ...] = db.get(file_counts, path)
    words = {n: identifiers(body.encode("utf-8", "surrogateescape")) for n, (_, body) in counted}
    out: dict[str, frozenset[str]] = {}
    for name in words:
        seen, todo = {name}, [name]
        while todo:
            for w in words[todo.pop()] & words.keys():
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        out[name] = frozenset().union(*(words[n] for n in seen))
    return out


# ----- whole-project facts (extractors.project_facts) --------------------------------------------


@derived("file_facts")
def file_facts(db: Database, path: str) -> FileFacts:
    """Backdated across edits that change no definition's value and no written name."""
    return db.get(file_items, path).facts


@derived("project_facts")
def project_facts(db: Database, key: tuple[()]) -> ProjectFacts:
    """Over ``PROJECT_FILES``; unset, none (each file's view then has its own statics only)."""
    paths = db.get_or(PROJECT_FILES, (), frozenset())
    return combine({p: db.get(file_facts, p) for p in sorted(paths)})


@derived("file_view")
def file_view(db: Database, path: str) -> frozenset[tuple[str, int]]:
    if path in db.get_or(PROJECT_FILES, (), frozenset()):
        view: frozenset[tuple[str, int]] = db.get(project_facts, ()).view(path)
        return view
    alone = combine({path: db.get(file_facts, path)})  # not in a project: static names only
    return frozenset(alone.own.get(path, frozenset()))


def function_facts(db: Database, key: tuple[str, str, bytes]) -> frozenset[tuple[str, int]]:
    """Only what the function's text names: a fact it does not mention never rebuilds it. Read
    inside :func:`function_model`, so its dependencies are the model's."""
    return mentioned(db.get(file_view, key[0]), key[2])


# ----- one function ------------------------------------------------------------------------------


def _facts_digest(digest: str, known: frozenset[tuple[str, int]]) -> str:
    return hashlib.sha256(f"{digest}|{sorted(known)!r}".encode()).hexdigest()[:32]


def _stops_digest(digest: str, stops: frozenset[str]) -> str:
    return hashlib.sha256(f"{digest}|stops:{','.join(sorted(stops))}".encode()).hexdigest()[:32]


def _with_facts(context: Context, known: frozenset[tuple[str, int]]) -> Context:
    """The context with the project's constants the function names (the file's own win); its
    digest names them, so the model's key does."""
    facts = dict(sorted(known))
    digest = _facts_digest(context.digest, known)
    return replace(context, digest=digest, consts={**facts, **context.consts}, facts=frozenset(facts))


def _with_stops(context: Context, stops: frozenset[str]) -> Context:
    """The context whose call table ends the path at each call of ``stops`` (a name the table
    knows keeps its row); its digest names them, so the model's key does."""
    table = dict(context.table)
    for n in sorted(stops):
        if n not in context.known:
            table[n] = replace(table.get(n, CallSpec()), noreturn=True)
    return replace(context, digest=_stops_digest(context.digest, stops), table=table)


def _same_model(a: FunctionModel | Unmodelled | None, b: FunctionModel | Unmodelled | None) -> bool:
    """Models with one key are built from one text and context: equal without comparing CFGs."""
    if isinstance(a, FunctionModel) and isinstance(b, FunctionModel):
        return a.key == b.key and a.file == b.file
    return a == b


_BUILD_ERRORS = (RecursionError, ValueError, AttributeError, IndexError, KeyError, TypeError)


def _model_context(db: Database, key: tuple[str, str, bytes]) -> tuple[Callable[[], Context], str]:
    """The context function ``key`` is built in (made when called: it copies the file's
    constants or call table, which a model found under its key never needs), and the key of its
    model: a digest of its text and of that context, which is all a model is made of."""
    path, _, text = key
    context = db.get(function_context, path)
    known = function_facts(db, key)
    stops = function_stops(db, key)
    digest = context.digest
    if known:
        digest = _facts_digest(digest, known)
    if stops:
        digest = _stops_digest(digest, stops)

    def made() -> Context:
        with_facts = _with_facts(context, known) if known else context
        return _with_stops(with_facts, stops) if stops else with_facts

    return made, function_key(hashlib.sha256(text).hexdigest(), digest)


def model_with_key(
    db: Database, key: tuple[str, str, bytes]
) -> tuple[str, FunctionModel | Unmodelled | None]:
    """``function_model(key)`` with its model key, under which another database of the same
    inputs takes it instead of building it (:meth:`extractors.inputs.FrontDb.hand`)."""
    return _model_context(db, key)[1], db.get(function_model, key)


# a function's model under its path, name and model key (a digest of its text and context, which
# is all a model is made of): what a run of ``function_model`` whose key came out the same returns
_BUILT = Content[tuple[str, str, str], "FunctionModel | Unmodelled | None"]("built_model")
_UNBUILT = object()


@derived("function_model", eq=_same_model)
def function_model(db: Database, key: tuple[str, str, bytes]) -> FunctionModel | Unmodelled | None:
    """The model of function ``name`` of ``path`` whose text (padded to its first column) is
    ``text``, with rows counted from its first line, or the note saying why there is none; None
    for a declaration without a body.  Keyed by the text itself: an edit elsewhere in the file
    leaves the key, and the memo is verified by its file's context, view and stops alone (each
    one memo of the file, so verifying all of a file's models after an edit is one look per dep).
    Those change for every function of the file at once; a function whose model key they leave
    as it was gets the model it had from ``_BUILT`` instead of building it again."""
    path, name, text = key
    context, model_key = _model_context(db, key)
    log = db if isinstance(db, FrontDb) else None
    built = db.content(_BUILT)
    kept = built.get((path, name, model_key), _UNBUILT)
    if kept is not _UNBUILT:
        if log is not None:
            log.take_parsed(path, name, text)
        return cast("FunctionModel | Unmodelled | None", kept)
    model = _build_model(db, key, context(), model_key)
    built[(path, name, model_key)] = model
    return model


SegmentModels = tuple[tuple[str, bytes, "FunctionModel | Unmodelled | None"], ...]


def _same_models(a: SegmentModels, b: SegmentModels) -> bool:
    return len(a) == len(b) and all(
        x[0] == y[0] and x[1] == y[1] and _same_model(x[2], y[2]) for x, y in zip(a, b, strict=True)
    )


@derived("segment_models", eq=_same_models)
def segment_models(db: Database, key: tuple[str, tuple[Piece, ...], frozenset[str]]) -> SegmentModels:
    """The models of the definitions in a segment of ``path`` (a run of its pieces:
    :func:`extractors.items.file_segments`) but those of the names in ``earlier`` (defined in an
    earlier segment) and the repeats of a name, each with its name and text, in file order: what
    :func:`function_model` gives for each, read inlined (:meth:`Database.get_inlined`). A scope
    reads a file's models by segment (:func:`file_models`), so that after an edit it verifies one
    memo per segment, whose deps are its pieces and what every model of the file reads (the file's
    context, view and stops), instead of one memo per function (sqlite3.c: 4,804 functions in 360
    segments); the models of the segment the edit touched are verified or built then, each in its
    own memo."""
    path, run, earlier = key
    seen = set(earlier)
    out: list[tuple[str, bytes, FunctionModel | Unmodelled | None]] = []
    for name, text, _ in db.get(segment_items, run).functions:
        if name not in seen:
            seen.add(name)
            out.append((name, text, db.get_inlined(function_model, (path, name, text))))
    return tuple(out)


def file_models(db: Database, path: str) -> Iterator[tuple[str, bytes, FunctionModel | Unmodelled | None]]:
    """The model of each function of ``path`` (of :attr:`FileItems.functions`: the first
    definition of a name), with its name and text, in file order, read by segment."""
    read: set[str] = set()
    for run in db.get(file_segments, path):
        earlier = frozenset(n for n, _, _ in db.get(segment_items, run).functions if n in read)
        found = db.get(segment_models, (path, run, earlier))
        read.update(name for name, _, _ in found)
        yield from found


def _build_model(
    db: Database, key: tuple[str, str, bytes], context: Context, model_key: str
) -> FunctionModel | Unmodelled | None:
    path, name, text = key
    log = db if isinstance(db, FrontDb) else None
    if log is not None and (handed := log.take_handed(path, name, model_key)) is not None:
        log.take_parsed(path, name, text)
        if isinstance(handed[0], FunctionModel):
            log.built += 1
        elif handed[0] is not None:
            log.failed += 1
        return handed[0]
    fn = log.take_parsed(path, name, text) if log is not None else None
    # the text tree-sitter reads; positions are the same
    readable = with_readable_calls(without_statement_macros(text))
    if fn is None or readable is not text:
        tree = parse_c(readable)
        fn = next((n for n in top_level_items(tree.root_node) if n.type == "function_definition"), None)
    row_base = fn.start_point[0] if fn is not None else 0
    lines = text.split(b"\n")
    if (fn is None or fn.has_error or function_name(fn) != name) and has_conditionals(readable):
        # conditionals splitting a brace pair or an expression: model the choice of the variants
        try:
            chosen = build_variants(
                readable,
                name,
                path,
                context.table,
                context.consts,
                model_key,
                context.defines,
                context.facts,
                context.atoms,
                context.counts,
                context.array_types,
                fn,
            )
        except _BUILD_ERRORS:
            chosen = None
        if chosen is not None:
            if log is not None:
                log.built += 1
            _name_macro_calls(chosen.cfg, context.call_names)
            return chosen
    if fn is None or function_name(fn) != name:
        if log is not None:
            log.failed += 1
        return _unmodelled(path, name, None, lines, None, 0)
    try:
        model = build_function(
            fn,
            path,
            lines,
            context.table,
            context.consts,
            model_key,
            row_base,
            context.defines,
            context.facts,
            context.atoms,
            context.counts,
            context.array_types,
        )
    except _BUILD_ERRORS as e:
        # too deep to read, or a syntax shape the builder does not expect: say so, check the rest
        if log is not None:
            log.failed += 1
            log.errors.append(f"{path}:{name}: {type(e).__name__}: {e}")
            del log.errors[:-20]
        return _unmodelled(path, name, fn, lines, e, row_base)
    if log is not None and model is not None:
        log.built += 1
    if model is not None:
        _name_macro_calls(model.cfg, context.call_names)
    return model


def _name_macro_calls(cfg: Cfg, names: dict[str, str]) -> None:
    """Give the calls through the file's macros the names that say which definition they mean
    (:func:`extractors.macro_calls.macro_call_name`), once the builder, which reads them by their
    written names in the file's own table, is done.  The projections read a whole scope's calls in
    one table, where a macro of one file must not reach the calls of a file that does not see it;
    the names come from the context (its digest names the macros), so the model is still a function
    of its text and context.  Idempotent (a node the variants of a choice share is renamed once)."""
    if not names:
        return
    for node in cfg.nodes:
        if any(c.name in names for c in node.calls if c.name):
            node.calls = tuple(replace(c, name=names[c.name]) if c.name in names else c for c in node.calls)
    cfg.returns = [(path, names.get(call, call) if call else call) for path, call in cfg.returns]


def _unmodelled(
    path: str, name: str, fn: TSNode | None, lines: list[bytes], error: Exception | None, row_base: int
) -> Unmodelled:
    """The note on a function that could not be modelled, placed on its name (rows from
    ``row_base``, the function's first row in the tree ``fn`` is from)."""
    at = (function_name_node(fn) or fn) if fn is not None else None
    row, byte_col = at.start_point if at is not None else (0, 0)
    row -= row_base if at is not None else 0
    line = lines[row] if row < len(lines) else b""
    start = len(line[:byte_col].decode("utf-8", "replace"))
    if at is None:
        start = len(line) - len(line.lstrip())
    end = start + len(name) if at is not None and at is not fn else len(line.decode("utf-8", "replace").rstrip())
    if isinstance(error, RecursionError):
        reason = "its code nests deeper than ctlsp can follow"
    elif error is None:
        reason = "ctlsp cannot read its code apart from the rest of the file"
    else:
        reason = f"ctlsp cannot read its code ({type(error).__name__})"
    return Unmodelled(name, Location(path, row, start, row, end), reason)


# ----- the file again, placed --------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FileState:
    text: str
    model: FileModel
    ignores: dict[int, frozenset[str]]

    @property
    def ignores_digest(self) -> str:
        return repr(sorted(self.ignores.items()))


@derived("file_ignores")
def file_ignores(db: Database, path: str) -> dict[int, frozenset[str]]:
    """Suppression comments: 0-based line to the rule ids silenced there."""
    return suppressions(db.get(SOURCE, path))


@derived("file_notes")
def file_notes(db: Database, path: str) -> tuple[Unmodelled, ...]:
    """The functions of the file that could not be modelled, placed: what a check reports besides
    its findings, without placing every model of the file."""
    return notes_of(db, path, None)


def notes_of(db: Database, path: str, names: Collection[str] | None) -> tuple[Unmodelled, ...]:
    """:func:`file_notes` of the functions ``names`` only (all when None): those an edit changed
    are read without visiting the file's other models."""
    notes: list[Unmodelled] = []
    items = db.get(file_items, path)
    if names is None:
        for name, _, got in file_models(db, path):  # by segment, as a scope reads them
            if isinstance(got, Unmodelled):
                notes.append(_placed_note(got, items.functions[name].row))
    else:
        for name in sorted(names):
            item = items.functions.get(name)
            got = db.get(function_model, (path, name, item.text)) if item is not None else None
            if item is not None and isinstance(got, Unmodelled):
                notes.append(_placed_note(got, item.row))
    for lost in items.unread:  # a definition a syntax error hides: not even an item
        if names is None or lost.name in names:
            at = Location(path, lost.row, lost.start_col, lost.row, lost.end_col)
            notes.append(Unmodelled(lost.name, at, "ctlsp cannot read it past a syntax error around it"))
    notes.sort(key=lambda u: (u.location.start_line, u.location.start_col))
    return tuple(notes)


def _placed_note(note: Unmodelled, row: int) -> Unmodelled:
    at = note.location
    return replace(note, location=replace(at, start_line=at.start_line + row, end_line=at.end_line + row))


@derived("file_model")
def file_model(db: Database, path: str) -> FileState:
    """The file's models in file order, placed (its unmodelled functions: :func:`file_notes`)."""
    text = db.get(SOURCE, path)
    items = db.get(file_items, path)
    context = db.get(function_context, path)
    models: dict[str, FunctionModel] = {}
    for name, item in items.functions.items():
        got = db.get(function_model, (path, name, item.text))
        if isinstance(got, FunctionModel):
            models[name] = moved(got, path, item.row)
    consts = dict(items.scope.consts)
    model = FileModel(path, models, items.scope.globals, consts, context.macros)
    return FileState(text, model, db.get(file_ignores, path))
