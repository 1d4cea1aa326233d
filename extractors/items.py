"""A file's top-level items (functions, declarations, macros), read piece by piece.

The file is cut into pieces (:mod:`extractors.pieces`); each piece is parsed and read on its own by
:func:`piece_items`, a query keyed by the piece's text, so its answer is position-free (rows count
from the piece's first line) and shared by every revision, and file, where that text recurs.
:func:`file_items` puts the pieces' answers together in file order.  Typing inside one function
re-reads its piece alone: the other pieces keep their texts, so their memos are reused.

What a piece cannot know alone is read by :func:`file_items` from what the piece keeps for it: the
file's constants defined above it (a variable's initial value, a helper's returned constant are
kept as :data:`extractors.facts.ConstForm` and read with the constants known at their place, as the
file is read from the top), the function-like macros that hide a ``return`` (a function ending in a
call is kept with the names it calls), and which name is defined first.

A piece that does not parse whole is read in its least broken readable form (statement macros
blanked, one branch of each conditional kept; :func:`_least_broken`), as a file that does not parse
whole was before it was cut: the items' texts stay the file's own.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any, NamedTuple, cast

from tree_sitter import Node as TSNode
from tree_sitter import Tree

from checker.querydb import Database, derived
from extractors.array_types import array_typedefs
from extractors.calls import NORETURN
from extractors.count_macros import returning_macros
from extractors.facts import ConstForm, const_of
from extractors.functions import file_constants, function_name, noreturn_names, top_level_items
from extractors.inputs import SETTINGS, SOURCE, FrontDb
from extractors.lasting import volatile_globals
from extractors.macro_calls import renames
from extractors.parse import parse_c, strip_parens, text_of
from extractors.pieces import Piece, cut, readable, recut
from extractors.preprocessor import (
    Defines,
    Directive,
    continues_previous,
    directives,
    has_conditionals,
    statement_macro_spans,
    variants,
    with_readable_calls,
    without_statement_macros,
)
from extractors.project_facts import (
    NO_FACTS,
    FileFacts,
    callees,
    constant_return,
    declared_variables,
    is_static,
    macro_names,
    returned_constant,
    written_in,
)


class FunctionItem(NamedTuple):
    """A definition's text, after spaces standing for what precedes it on its first line, and the
    row it starts on (a tuple: a big file's items are made again at each edit)."""

    text: bytes
    row: int


@dataclass(frozen=True)
class FileScope:
    """What a file's functions are read in: position-free, so equal across edits inside bodies,
    except an edit that makes a function start or stop ending in a call that never returns
    (``noreturn`` holds the file's helpers that always exit, which its callers' paths end at)."""

    consts: tuple[tuple[str, int], ...]
    globals: frozenset[str]
    noreturn: frozenset[str]
    directives: tuple[Directive, ...]  # conditionals, defines and includes, in file order
    volatiles: frozenset[str] = frozenset()  # the globals declared volatile (extractors.lasting)
    array_types: frozenset[str] = frozenset()  # typedef names of array types (extractors.array_types)


@dataclass(frozen=True)
class Exits:
    """What a file tells the other files about calls that never return: its functions other files
    may call (not ``static``) that never return whatever they call (``stops``), and the ways the
    others may never return (``ways``: each a set of callees none of which returns, read with the
    file's own macros), which a helper of another file may complete (``fatal`` calling ``die``)."""

    stops: frozenset[str] = frozenset()
    ways: tuple[tuple[str, Ending], ...] = ()


@dataclass(frozen=True)
class FileItems:
    functions: dict[str, FunctionItem]  # the first definition of each name, in file order
    scope: FileScope
    defines: tuple[bytes, ...]
    facts: FileFacts = NO_FACTS  # what the file adds to the whole project's facts
    unread: tuple[Unread, ...] = ()  # definitions lost in syntax errors, placed
    exits: Exits = Exits()  # what it adds to the project's functions that never return


class Unread(NamedTuple):
    """A function body inside a syntax error no readable form of its piece gets past: the name it
    seems to define (the first ``name(`` before its ``{``), where, and the text's first line's
    columns.  Reported, never skipped in silence."""

    name: str
    row: int
    start_col: int
    end_col: int


_DEFINE_LINE = re.compile(rb"^[ \t]*#[ \t]*define\b", re.MULTILINE)
_CALLED_NAME = re.compile(rb"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")  # a name a text calls


Ending = tuple[frozenset[str], ...]  # ways a body never returns: each, a set of callees none of which returns
_MOST_WAYS = 64  # an ``if``/``else`` multiplies its branches' ways: past this many, fewer are kept
_DEEPEST = 100  # statements nested deeper than this give no way


def _ending_calls(fn: TSNode, data: bytes) -> tuple[Ending, frozenset[str]] | None:
    """The ways a definition's body never returns (:func:`_ways`), and the capitalised names it
    calls as statements (macros that may hide a ``return``: the file decides, :func:`file_items`).
    Such a function never returns if, for one way, none of its callees does (``void die(const
    char *m) { fprintf(...); exit(1); }``; lua's ``luaD_throw``, whose two branches end in
    ``longjmp`` and ``exit``; ``int lua_error(L) { luaG_errormsg(L); return 0; }``).  None when
    there is no way, when a statement tree-sitter reads as a macro of a type may hide a ``return``
    (cffi's ``_write_raw_data(unsigned char);``), or when a ``goto`` may leave the path."""
    body = fn.child_by_field_name("body")
    if body is None or b"goto" in data[body.start_byte : body.end_byte]:
        return None
    ways = _ways(body, data)
    if not ways:
        return None
    shouting: set[str] = set()
    stack = [body]
    while stack:
        st = stack.pop()
        if st.type == "macro_type_specifier":
            return None
        call = st.named_children[0] if st.type == "expression_statement" and st.named_children else None
        if call is not None and call.type == "call_expression":
            callee = call.child_by_field_name("function")
            if callee is not None and callee.type == "identifier" and text_of(callee).isupper():
                shouting.add(text_of(callee))
        stack.extend(
            c
            for c in st.named_children
            if c.type.endswith("statement") or c.type in ("else_clause", "macro_type_specifier")
        )
    return ways, frozenset(shouting)


def _ways(st: TSNode, data: bytes, depth: int = 0) -> Ending:
    """The ways statement ``st``, once reached, never completes: each a set of callees that, were
    none of them to return, leave no path out of ``st``.  A call statement or ``return f(...)``
    is one way (its callee); an ``if`` with ``else`` combines one way of each branch; a block has
    the ways of each of its statements up to the first that may ``return`` (a path reaches each
    of them unless one before never completes, which is a way too).  Loops and ``switch`` give
    none: a ``break`` inside may leave them, and so does nesting deeper than :data:`_DEEPEST`
    (generated code nests thousands of blocks: the walk recurses)."""
    t = st.type
    if depth > _DEEPEST:
        return ()
    if t in ("expression_statement", "return_statement"):
        e = strip_parens(st.named_children[0]) if st.named_children else None
        callee = e.child_by_field_name("function") if e is not None and e.type == "call_expression" else None
        return (frozenset({text_of(callee)}),) if callee is not None and callee.type == "identifier" else ()
    if t == "if_statement":  # an ``else if`` chain is walked as a loop: generated ones are long
        combined: Ending = (frozenset(),)
        while True:
            alt, then = st.child_by_field_name("alternative"), st.child_by_field_name("consequence")
            if alt is None or then is None:
                return ()
            combined = _each_with_each(combined, _ways(then, data, depth + 1))
            branch = [c for c in alt.named_children if c.type != "comment"] if alt.type == "else_clause" else [alt]
            if not combined or len(branch) != 1:
                return ()
            if branch[0].type != "if_statement":
                return _each_with_each(combined, _ways(branch[0], data, depth + 1))
            st = branch[0]
    if t == "compound_statement":
        ways: list[frozenset[str]] = []
        for c in st.named_children:
            if c.type == "comment":
                continue
            ways.extend(_ways(c, data, depth + 1))
            if b"return" in data[c.start_byte : c.end_byte]:
                break
        return tuple(dict.fromkeys(ways))[:_MOST_WAYS]
    return ()


def _each_with_each(first: Ending, second: Ending) -> Ending:
    """The ways of two branches taken together: one way of each (at most :data:`_MOST_WAYS`)."""
    return tuple(dict.fromkeys(a | b for a in first for b in second))[:_MOST_WAYS]


def _never_returning(ends_in: dict[str, Ending], declared: set[str]) -> set[str]:
    """The file's functions that never return: one of their ways (:func:`_ways`) calls only
    functions that never return, the library's, the ``declared`` ones (and macros of the file
    that rename a library one), and (to a fixpoint) each other.
    Each way waits on its callees not known yet, so the fixpoint reads each way once: a big file
    has tens of thousands of them, and this runs at every edit."""
    exits = set(declared) | NORETURN
    found: set[str] = set()
    owners: list[str] = []
    missing: list[int] = []  # per waiting way, how many of its callees are not known to exit yet
    waiting: dict[str, list[int]] = {}
    for name, ways in ends_in.items():
        for way in ways:
            rest = [c for c in way if c not in exits]
            if any(c not in ends_in for c in rest):
                continue  # a callee that returns, or that nothing here says never does
            if not rest:
                found.add(name)
                continue
            for c in rest:
                waiting.setdefault(c, []).append(len(owners))
            owners.append(name)
            missing.append(len(rest))
    queue = list(found)
    while queue:
        for k in waiting.pop(queue.pop(), ()):
            missing[k] -= 1
            if missing[k] == 0 and owners[k] not in found:
                found.add(owners[k])
                queue.append(owners[k])
    return found


@dataclass(frozen=True)
class _EndsIn:
    """A function's ways never to return (:func:`_ending_calls`), the names its body calls, and
    the capitalised ones it calls as statements: the ways hold unless one of those is a macro of
    the file whose body returns, or one of these is no macro of the file."""

    name: str
    ways: Ending
    called: frozenset[str]
    shouting: frozenset[str] = frozenset()
    static: bool = False


_Var = tuple[str, "int | None", bool]  # a file-scope variable: name, constant value (None: none), static
_VarForm = tuple[str, ConstForm, bool]  # the same, its value read from the file's constants
# a function: name, the constant it returns (None: none), static, its callees
_Fn = tuple[str, "int | None", bool, frozenset[str]]
_FnForm = tuple[str, "tuple[ConstForm, ...]", bool, frozenset[str]]  # returns read from the constants


@dataclass(frozen=True)
class Part:
    """What a run of whole lines of a file holds (a piece, a segment of pieces), rows counted from
    its first line; parts in file order :func:`merge` into the part of their lines.  Values that
    read the file's constants (``*_forms``) are read at the end, with all of them (a C name is
    defined before it is used, so the last value of each constant is the one a use sees but
    where a name is defined again: ``#undef``, a conditional's other branch; the functions' own
    models read the same last values)."""

    lines: int  # the newlines of its text
    functions: tuple[tuple[str, bytes, int], ...]  # every named definition: name, padded text, row
    consts: tuple[tuple[str, int], ...]  # in order: a later definition of a name wins
    variables: tuple[_Var, ...]
    variable_forms: tuple[_VarForm, ...]
    returning: tuple[_Fn, ...]
    returning_forms: tuple[_FnForm, ...]
    globals: frozenset[str]
    volatiles: frozenset[str]
    noreturn: frozenset[str]
    ends_in: tuple[_EndsIn, ...]
    defines: tuple[bytes, ...]
    macros: frozenset[str]  # the function-like macros the defines define
    hiding: frozenset[str]  # those of them whose body says ``return``
    exiting: frozenset[str]  # those that rename a library call that never returns (``longjmp``)
    written: frozenset[str]
    directives: tuple[Directive, ...]
    unread: tuple[Unread, ...] = ()
    array_types: frozenset[str] = frozenset()  # typedef names of array types (extractors.array_types)


def merge(parts: list[Part]) -> Part:
    """The part of the lines of ``parts``, in order (associative: a file's part is the same
    however its pieces are grouped)."""
    if len(parts) == 1:
        return parts[0]
    functions: list[tuple[str, bytes, int]] = []
    row = 0
    for part in parts:
        functions.extend((n, t, r + row) for n, t, r in part.functions) if row else functions.extend(part.functions)
        row += part.lines

    def joined(field: str) -> tuple[Any, ...]:
        return tuple(chain.from_iterable(getattr(part, field) for part in parts))

    unread: list[Unread] = []
    at = 0
    for part in parts:
        unread.extend(u._replace(row=u.row + at) for u in part.unread)
        at += part.lines

    def united(field: str) -> frozenset[str]:
        return frozenset().union(*(getattr(part, field) for part in parts))

    return Part(
        row,
        tuple(functions),
        joined("consts"),
        joined("variables"),
        joined("variable_forms"),
        joined("returning"),
        joined("returning_forms"),
        united("globals"),
        united("volatiles"),
        united("noreturn"),
        joined("ends_in"),
        joined("defines"),
        united("macros"),
        united("hiding"),
        united("exiting"),
        united("written"),
        joined("directives"),
        tuple(unread),
        united("array_types"),
    )


@derived("file_pieces")
def file_pieces(db: Database, path: str) -> tuple[Piece, ...]:
    """The file's pieces, cut again from its last pieces when the database keeps them."""
    data = db.get(SOURCE, path).encode("utf-8", "surrogatepass")
    if not isinstance(db, FrontDb):
        return cut(data)
    old_data, old = db.cuts.get(path, (b"", ()))
    pieces = recut(data, old_data, old)
    db.cuts[path] = (data, pieces)
    return pieces


SEGMENT = 16
"""A segment of pieces ends after a piece whose length this divides: about this many pieces, and
(a function of each piece's own text) the same segments wherever an edit moved them."""


@derived("file_segments")
def file_segments(db: Database, path: str) -> tuple[tuple[Piece, ...], ...]:
    """The file's pieces in segments (see :data:`SEGMENT`): the grain of whole-file scans, which
    then cost an edit the segment it touches and a pass over the segments."""
    pieces = db.get(file_pieces, path)
    out: list[tuple[Piece, ...]] = []
    begin = 0
    for end, piece in enumerate(pieces, 1):
        if len(piece.text) % SEGMENT == 0 or end == len(pieces):
            out.append(pieces[begin:end])
            begin = end
    return tuple(out)


@derived("segment_items")
def segment_items(db: Database, pieces: tuple[Piece, ...]) -> Part:
    """The part of a run of pieces, read from theirs: what :func:`file_items` reads, so that an
    edit costs the pieces and segment it touches and a pass over the segments, not the pieces."""
    return merge([db.get(piece_items, piece) for piece in pieces])


@derived("piece_items")
def piece_items(db: Database, piece: Piece) -> Part:
    """The items of a piece's text (with the directive lines of the conditionals open where it
    starts: :func:`extractors.pieces.readable`)."""
    front = db if isinstance(db, FrontDb) else None
    if front is not None and (handed := front.take_handed_part(piece)) is not None:
        if handed[1]:
            db.get(SETTINGS, ())  # read there: the same dependency here
        return cast(Part, handed[0])
    opened, text = piece
    data, shift = readable(text, opened)
    tree = parse_c(data)
    found, original = top_level_items(tree.root_node), True
    if tree.root_node.has_error:
        # the configuration's defines only: a file's items do not depend on its compile flags, so
        # handing in a compile database (after the files, as the CLI does) parses nothing again
        if front is not None and front.settings_read is not None:
            front.settings_read.add(piece)
        settings = db.get(SETTINGS, ())
        found, original = _least_broken(data, tree, settings.defines.overlaid(settings.command))
    functions: list[tuple[str, bytes, int]] = []
    consts: list[tuple[str, int]] = []
    variables: list[_Var] = []
    variable_forms: list[_VarForm] = []
    returning: list[_Fn] = []
    returning_forms: list[_FnForm] = []
    globals_: set[str] = set()
    volatiles: set[str] = set()
    array_types: set[str] = set()
    noreturn: set[str] = set()
    ends_in: list[_EndsIn] = []
    defines: list[tuple[int, bytes]] = []  # where each starts, and its text
    written: set[str] = set()
    taken = 0  # the defines' texts so far end here: each byte of the piece is in at most one of them
    fresh = front.fresh if front is not None else {}
    # where the rare texts are, found once in the piece rather than once per item
    define_at = _Hits(i for i in _find_all(data, b"define") if _starts_define(data, i))
    noreturn_at = _Hits(_find_all(data, b"oreturn"))  # every spelling :func:`noreturn_names` reads
    unread: list[Unread] = []
    for n in found:
        start, end = n.start_byte, n.end_byte
        shattered = n.type in _SHATTERED or (n.has_error and n.type == "declaration")
        if shattered and (lost := _lost_definition(data, n, shift)) is not None:
            unread.append(lost)
        if noreturn_at.within(start, end):
            noreturn |= noreturn_names(n)
        if n.type == "declaration":
            for var, form, static in declared_variables(n):
                if form is None or isinstance(form, int):
                    variables.append((var, form, static))
                else:
                    variable_forms.append((var, form, static))
            for d in n.children_by_field_name("declarator"):
                value = d.child_by_field_name("value") if d.type == "init_declarator" else None
                if value is not None:
                    written |= written_in(data[value.start_byte : value.end_byte])
        else:
            written |= written_in(data[start:end])
        if n.type == "function_definition" and not _prototype_before_block(n):
            name = function_name(n)
            if name is not None:
                forms = constant_return(n)
                static = is_static(n)
                if forms is None:
                    returning.append((name, None, static, frozenset()))
                elif all(isinstance(f, int) for f in forms):
                    returning.append((name, returned_constant(forms, {}), static, callees(n)))
                else:
                    returning_forms.append((name, forms, static, callees(n)))
                if (ending := _ending_calls(n, data)) is not None:
                    ends_in.append(_EndsIn(name, ending[0], _called_in(n, data), ending[1], static))
                padded = _padded(data, n)
                functions.append((name, padded, n.start_point[0] - shift))
                if original and _reusable(n, padded):
                    fresh[(name, padded)] = n
            if define_at.within(start, end) and taken < end:
                # a #define inside a body still defines for the file
                defines.append((max(start, taken), data[max(start, taken) : end]))
                taken = end
            continue
        if define_at.within(start, end) and taken < end:
            # an item inside the run-on span of the one before is that definition's text: taken once
            begin, taken = max(start, taken), _define_span(data, start, end)
            defines.append((begin, data[begin:taken]))
        if n.type in _SCOPE_ITEMS:
            item_consts, item_globals = file_constants([n])
            consts.extend(item_consts.items())
            globals_ |= item_globals
            volatiles |= volatile_globals(n)
        if n.type == "type_definition":
            array_types |= array_typedefs(data[start:end])
    if not original:
        outside = _defines_outside(data, define_at.offsets, found, taken)
        for _, define in outside:  # and the constants they define, as their items would give
            consts.extend(file_constants(top_level_items(parse_c(define).root_node))[0].items())
        defines.extend(outside)
        defines.sort()
    define_texts = [d for _, d in defines]
    return Part(
        text.count(b"\n"),
        tuple(functions),
        tuple(consts),
        tuple(variables),
        tuple(variable_forms),
        tuple(returning),
        tuple(returning_forms),
        frozenset(globals_),
        frozenset(volatiles),
        frozenset(noreturn),
        tuple(ends_in),
        tuple(define_texts),
        macro_names(define_texts),
        returning_macros(define_texts),
        _exiting_macros(define_texts),
        frozenset(written),
        directives(text),
        tuple(u for u in unread if u.name not in {name for name, _, _ in functions}),
        frozenset(array_types),
    )


def _prototype_before_block(fn: TSNode) -> bool:
    """Whether a "definition" is a prototype whose ``;`` tree-sitter read as an error before the
    next item's braces: ``uint32_t f(int b) __contract__(...);`` then ``typedef struct { ... }``
    (mldsa-native's CBMC contracts in a header) read as ``f`` with the struct's fields for a body.
    No C puts a ``;`` between a declarator and its body outside K&R parameter declarations, which
    parse as declarations, not errors."""
    for c in fn.children:
        if c.type == "compound_statement":
            return False
        if c.type == "ERROR" and c.text is not None and b";" in c.text:
            return True
    return False


# a definition's head on its own line: type words (or pointer stars), the name, the parameters, a "{"
_LOST_HEAD = re.compile(rb"(?m)^[ \t]*[A-Za-z_][\w \t*]*?[ \t*]\**([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{")
_DECLARATOR_NAME = re.compile(rb"([A-Za-z_]\w*)\s*\(")
# top-level items no readable C has: an error, or a function's declarator on its own (its body's
# statements then follow as items of their own); and a declaration with an error inside may have
# swallowed a definition's head and the start of its body
_SHATTERED = frozenset({"ERROR", "function_declarator"})


def _lost_definition(data: bytes, item: TSNode, shift: int) -> Unread | None:
    """The function an ERROR item (a declarator left alone, a broken declaration) of a piece's
    chosen parse hides: named by a definition's head (``static int f(int x) {``) in the error, or
    by the declarator; None for anything else (a stray token, a broken declaration or initialiser)."""
    if item.type == "function_declarator":
        found = _DECLARATOR_NAME.match(data, item.start_byte, item.end_byte)
    else:
        found = _LOST_HEAD.search(data, item.start_byte, item.end_byte)
    if found is None or found.group(1) in _KEYWORDS:
        return None
    line_start = data.rfind(b"\n", 0, found.start(1)) + 1
    row = data.count(b"\n", 0, found.start(1)) - shift
    start = len(data[line_start : found.start(1)].decode("utf-8", "replace"))
    return Unread(found.group(1).decode("ascii"), row, start, start + len(found.group(1)))


_KEYWORDS = frozenset({b"if", b"while", b"for", b"switch", b"return", b"sizeof", b"do", b"defined"})


@derived("file_items")
def file_items(db: Database, path: str) -> FileItems:
    """The file's items in file order, from its segments' (the first definition of a name counts)."""
    runs: tuple[tuple[Piece, ...], ...] = db.get(file_segments, path)
    front = db if isinstance(db, FrontDb) else None
    if front is not None:
        front.fresh = front.early_parsed.pop(path, {})
    segments: list[Part] = [db.get(segment_items, run) for run in runs]
    if front is not None:
        front.parsed[path] = front.fresh
        front.fresh = {}
    functions: dict[str, FunctionItem] = {}
    row = 0
    for segment in segments:  # merge's, without making every row again before the items
        for name, text, at in segment.functions:
            if name not in functions:
                functions[name] = FunctionItem(text, at + row)
        row += segment.lines
    whole = merge([replace(segment, functions=()) for segment in segments])
    consts = dict(whole.consts)
    variables = list(whole.variables)
    variables.extend((name, const_of(form, consts), static) for name, form, static in whole.variable_forms)
    returning = list(whole.returning)
    returning.extend((n, returned_constant(forms, consts), s, c) for n, forms, s, c in whole.returning_forms)
    ending = {
        e.name: e.ways for e in whole.ends_in if not (e.called & whole.hiding) and e.shouting <= whole.macros
    }
    noreturn = whole.noreturn | _never_returning(ending, set(whole.noreturn) | whole.exiting)
    exported = {e.name for e in whole.ends_in if not e.static}
    exits = Exits(
        frozenset(n for n in noreturn if n in exported),
        tuple(sorted((n, ways) for n, ways in ending.items() if n in exported and n not in noreturn)),
    )
    functions_facts = tuple(
        dict.fromkeys((f, None if v is None or c & whole.macros else v, s) for f, v, s, c in returning)
    )
    facts = FileFacts(tuple(dict.fromkeys(variables)), functions_facts, whole.written)
    scope = FileScope(
        tuple(sorted(consts.items())),
        whole.globals,
        frozenset(noreturn),
        whole.directives,
        whole.volatiles,
        whole.array_types,
    )
    unread = tuple(u for u in whole.unread if u.name not in functions)
    return FileItems(functions, scope, whole.defines, facts, unread, exits)


def project_stops(files: Iterable[Exits]) -> frozenset[str]:
    """The functions of a project's files that never return, each file's and (to a fixpoint) those
    whose ways end in helpers of other files that never return. A name two files give ways to is
    left out (which of them a call reaches is the build's choice)."""
    parts = list(files)
    stops = frozenset().union(*(f.stops for f in parts))
    ways: dict[str, Ending] = {}
    twice: set[str] = set()
    for f in parts:
        for name, w in f.ways:
            if name in ways:
                twice.add(name)
            ways[name] = w
    for name in twice:
        del ways[name]
    return stops | _never_returning(ways, set(stops))


def _exiting_macros(defines: list[bytes]) -> frozenset[str]:
    """The macros ``defines`` define that rename a library call that never returns
    (:func:`extractors.macro_calls.renames`): ``#define LUAI_THROW(L,c) longjmp((c)->b,1)``."""
    if not defines:
        return frozenset()
    # blank lines between: a definition ending in a backslash must not run on into the next
    found = renames(b"\n\n".join(defines).decode("utf-8", "replace"))
    return frozenset(name for name, r in found.items() if r.target in NORETURN)


def _called_in(fn: TSNode, data: bytes) -> frozenset[str]:
    body = fn.child_by_field_name("body")
    if body is None:
        return frozenset()
    return frozenset(m.decode("ascii") for m in _CALLED_NAME.findall(data, body.start_byte, body.end_byte))


def _least_broken(data: bytes, tree: Tree, defines: Defines) -> tuple[list[TSNode], bool]:
    """The items of a piece whose parse ``tree`` has errors: those of ``tree``, or of the parse of
    a readable form of the piece when macros used as statements or preprocessor conditionals
    break ``tree`` and that form reads more of it whole (:func:`_wholeness`), with the definitions
    of ``tree`` in what that form blanked (a branch the form does not keep).  Readable forms keep
    every position: statement-like macros blanked, then one branch of each conditional kept
    (:mod:`extractors.preprocessor`).  Without this, one such line can make the rest of a function
    one syntax error, or no function at all.  The items' texts stay the file's own: a function's
    model makes its text readable the same way itself.  True with the items when they are all
    ``tree``'s."""
    items = top_level_items(tree.root_node)
    broken = [n for n in items if n.has_error or n.type == "ERROR"]
    macros = statement_macro_spans(data)
    readable = without_statement_macros(data, macros) if _overlaps(macros, broken) else data
    readable = with_readable_calls(readable)
    conditionals = any(has_conditionals(data[n.start_byte : n.end_byte]) for n in broken)
    if readable is data and not conditionals:
        return items, True
    best, score = tree, _wholeness(tree)
    candidates = [readable] if readable is not data else []
    if conditionals:
        candidates += variants(readable, defines, implicit_else=False)
    for text in candidates:
        candidate = parse_c(text)
        if (s := _wholeness(candidate)) > score:
            best, score = candidate, s
    if best is tree:
        return items, True
    chosen = top_level_items(best.root_node)
    spans = [(n.start_byte, n.end_byte) for n in chosen if n.type != "comment"]
    blanked = [
        n
        for n in items
        if n.type == "function_definition" and not any(a < n.end_byte and n.start_byte < b for a, b in spans)
    ]
    return (sorted(chosen + blanked, key=lambda n: n.start_byte) if blanked else chosen), False


def _overlaps(spans: list[tuple[int, int]], nodes: list[TSNode]) -> bool:
    return any(n.start_byte <= a and b <= n.end_byte for a, b in spans for n in nodes)


def _wholeness(tree: Tree) -> tuple[int, int, int]:
    """More definitions read without error first, then fewer bytes in syntax errors, then fewer
    bytes in items that hold one.  Error bytes before broken items: a function read to its end
    with one statement-like macro argument in error (``SEH_EXCEPT( rc = f(); )``) beats the same
    function cut short at a block and its rest read as broken items of their own."""
    items = top_level_items(tree.root_node)
    whole = sum(1 for n in items if n.type == "function_definition" and not n.has_error)
    broken = [n for n in items if n.has_error or n.type == "ERROR"]
    return whole, -sum(_error_bytes(n) for n in broken), -sum(n.end_byte - n.start_byte for n in broken)


def _error_bytes(node: TSNode) -> int:
    """The bytes of the ERROR nodes in ``node`` (outermost ones; a MISSING node counts one)."""
    if node.type == "ERROR":
        return node.end_byte - node.start_byte
    total = 0
    stack = [node]
    while stack:
        n = stack.pop()
        for c in n.children:
            if c.type == "ERROR":
                total += c.end_byte - c.start_byte
            elif c.is_missing:
                total += 1
            elif c.has_error:
                stack.append(c)
    return total


def _find_all(data: bytes, word: bytes) -> Iterator[int]:
    at = data.find(word)
    while at >= 0:
        yield at
        at = data.find(word, at + len(word))


def _defines_outside(data: bytes, offsets: list[int], found: list[TSNode], taken: int) -> list[tuple[int, bytes]]:
    """The ``#define`` lines (at ``offsets``) of a piece read in its least broken form that no item
    found spans, each with where it starts: the form blanked them with the code around them (an
    unclosed block being typed), but the preprocessor defines them all the same, for the whole
    file; dropping one would change every function's context."""
    spans = sorted((n.start_byte, n.end_byte) for n in found)
    starts = [a for a, _ in spans]
    out: list[tuple[int, bytes]] = []
    for at in offsets:
        k = bisect_right(starts, at) - 1
        if (k >= 0 and at < spans[k][1]) or at < taken:
            continue
        line = data.rfind(b"\n", 0, at) + 1
        end = _logical_line_end(data, line)
        out.append((line, data[line : end + (data[end : end + 1] == b"\n")]))
    return out


def _starts_define(data: bytes, at: int) -> bool:
    """Whether the ``define`` at ``at`` is the directive of its line, and that line is no
    continuation of the one before (``#define A \\`` then ``#define B 1``: ``B`` is in ``A``'s
    body, as the whole-text scans of :func:`extractors.macro_calls.renames` read it)."""
    line = data.rfind(b"\n", 0, at) + 1
    found = _DEFINE_LINE.match(data, line)
    return found is not None and found.end() == at + len(b"define") and not continues_previous(data, line)


_SCOPE_ITEMS = frozenset({"preproc_def", "declaration", "type_definition", "enum_specifier"})


class _Hits:
    """Sorted byte offsets, asked about items in file order: is one of them inside this item?"""

    def __init__(self, offsets: Iterable[int]) -> None:
        self.offsets = list(offsets)
        self.at = 0

    def within(self, start: int, end: int) -> bool:
        while self.at < len(self.offsets) and self.offsets[self.at] < start:
            self.at += 1
        return self.at < len(self.offsets) and self.offsets[self.at] < end


def _reusable(n: TSNode, text: bytes) -> bool:
    """Whether the definition ``n`` is what parsing ``text`` (its padded text) alone gives, up to
    its first row: a definition without syntax errors parses the same wherever it stands (its grammar rule
    does not look outside it), and its byte columns are the padded text's when what precedes it on
    its line is one byte per character."""
    return not n.has_error and len(text) - len(n.text or b"") == n.start_point[1]


def _padded(data: bytes, n: TSNode) -> bytes:
    """The item's text after as many spaces as there are characters before it on its line, so
    that columns read from it alone are the file's."""
    row_start = data.rfind(b"\n", 0, n.start_byte) + 1
    before = data[row_start : n.start_byte].decode("utf-8", "replace")
    return b" " * len(before) + data[n.start_byte : n.end_byte]  # not n.text: n may be a variant's


def _define_span(data: bytes, start: int, end: int) -> int:
    """Where an item's text ends once run on to the end of each ``#define`` line in it: tree-sitter
    may end a definition early (at a comment inside it, at a continuation line that starts with
    ``#``) and leave the rest to the next item."""
    at = data.rfind(b"\n", 0, start) + 1  # "^" matches at a line start, not at any search start
    while (found := _DEFINE_LINE.search(data, at, end)) is not None:
        end = max(end, _logical_line_end(data, found.start()))
        at = found.end()
    return end


def _logical_line_end(data: bytes, start: int) -> int:
    """Where the preprocessor line starting at ``start`` ends, after its backslash-newlines and the
    block comments that run on from it."""
    i = start
    while True:
        end = data.find(b"\n", i)
        if end < 0:
            return len(data)
        line = data[i:end]
        opened = line.rfind(b"/*")
        if opened >= 0 and line.find(b"*/", opened) < 0:
            close = data.find(b"*/", i + opened + 2)
            if close < 0:
                return len(data)
            i = close + 2
            continue
        if line.rstrip(b"\r").endswith(b"\\"):
            i = end + 1
            continue
        return end


