"""The front end's queries: the inputs the edges set and what the database derives from them, from a
file's text to its functions' models placed at their rows.

Inputs (set by the CLI and the server through :class:`extractors.api.Project`, nothing else):

    SOURCE(path)     a C file's text, with the caller's parse tree of it when it has one
    HEADER(path)     a header's text as the edge read it, None when it cannot be read
    FLAGS(path)      a file's compile flags (``compile_commands.json``); unset: none
    SETTINGS(())     the configuration's digest, the call table it gives, its defines and folders
    PROJECT_FILES(()) the paths of the whole program (unset: each file's own static facts only)

Derived, each a pure function of what it reads:

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
    function_context(path)       what reading any function of the file depends on besides its text
    file_facts(path)             what the file adds to the project's facts (project_facts.py)
    project_facts(())            constant globals and helper results of the whole project
    file_view(path)              the project's constants the file's functions can name
    function_facts(path, name, text)  the pairs of its file's view the function's text mentions
    function_model(path, name, text)  a definition's CFG and facts from its text (padded to its
                                 first column), rows counted from its first line (0)
    file_ignores(path)           its suppression comments
    file_notes(path)             its functions that could not be modelled, placed
    file_model(path)             the file's placed models and suppressions

Invariant (rust-analyzer's): positions live only in ``file_items`` and ``file_model``, which places
models for the API.  Typing inside one function changes ``file_items``; every other function keeps
its text, so its model's key, and the context is recomputed equal (backdated): the model is
verified without being rebuilt and is the same object, wherever the function moved.

A function is parsed from its own text: the whole-file parse only finds where items are, so a model
cannot depend on anything outside the definition but its file's context and the configuration.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from tree_sitter import Node as TSNode
from tree_sitter import Tree

from checker.querydb import Database, Input, derived
from extractors.attributes import KINDS, declared_with, markers
from extractors.calls import NORETURN, CallSpec
from extractors.cfg import Cfg
from extractors.compile_flags import NO_FLAGS, FileFlags
from extractors.count_macros import (
    CountMacro,
    CountMacros,
    count_macros,
    count_macros_key,
    counting,
    returning_macros,
)
from extractors.findings import Location, Unmodelled
from extractors.functions import (
    FileModel,
    FunctionModel,
    build_function,
    build_variants,
    consts_digest,
    file_constants,
    function_key,
    function_name,
    function_name_node,
    macro_specs,
    moved,
    noreturn_names,
    top_level_items,
)
from extractors.includes import UNREAD, Preprocessed, Unread, preprocess, search_path
from extractors.lasting import volatile_globals
from extractors.macro_calls import Rename, macro_call_names, renames, resolved
from extractors.parse import parse_c, text_of
from extractors.preprocessor import (
    NO_DEFINES,
    Defines,
    Directive,
    continues_previous,
    directives,
    has_conditionals,
    statement_macro_spans,
    variants,
    with_macro_conditions,
    without_statement_macros,
)
from extractors.project_facts import (
    NO_FACTS,
    FileFacts,
    ProjectFacts,
    callees,
    combine,
    constant_return,
    declared_variables,
    is_static,
    macro_names,
    mentioned,
    written_in,
)
from extractors.suppress import suppressions
from extractors.user_atoms import UserAtoms

# ----- inputs ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Source:
    """A file's text; ``tree`` is its parse when the caller has one (the server parses
    incrementally), never a different text's."""

    text: str
    tree: Tree | None = None


@dataclass(frozen=True)
class Settings:
    """The configuration as the queries read it.  Defines in three layers, the later winning:
    ``defines`` (``[preprocessor]`` of ctlsp.toml), each file's compile flags (``FLAGS``), then
    ``command`` (``-D``/``-U`` on the command line, the user's last word).  Header folders: the
    command line's ``-I`` first, then the file's flags, then ``include`` of ctlsp.toml."""

    config_digest: str  # what of the configuration extraction reads (Config.extraction_digest: not the rules)
    table: dict[str, CallSpec] = field(compare=False)
    defines: Defines = field(default=NO_DEFINES, compare=False)
    command: Defines = field(default=NO_DEFINES, compare=False)
    command_include: tuple[str, ...] = field(default=(), compare=False)
    include: tuple[str, ...] = field(default=(), compare=False)
    atoms: UserAtoms = field(default=(), compare=False)  # [[atoms]] (named by config_digest)


def _same_text(a: Source, b: Source) -> bool:
    return a.text == b.text


SOURCE = Input[str, Source]("source", eq=_same_text)
HEADER = Input[str, "str | None"]("header")
FLAGS = Input[str, FileFlags]("flags")
SETTINGS = Input[tuple[()], Settings]("settings")
PROJECT_FILES = Input[tuple[()], frozenset[str]]("project_files")


class FrontDb(Database):
    """The database with a log of what extraction did, for the counters users see (``--stats``):
    written only by executions of :func:`function_model`, so it counts real rebuilds."""

    def __init__(self, max_weight: int) -> None:
        super().__init__(max_weight)
        self.built = 0
        self.failed = 0
        self.reused = 0  # models a check found current (counted by ``scope_content``)
        self.errors: list[str] = []  # the last few messages behind ``failed``
        # The definitions of the last parse of each file, by name and padded text, for
        # :func:`function_model` to build from instead of parsing the text again. Not an input:
        # a definition is taken only when parsing its text alone gives the same tree (see
        # :func:`_reusable`), so what the query returns does not depend on whether it was there.
        self.parsed: dict[str, dict[tuple[str, bytes], TSNode]] = {}

    def take_parsed(self, path: str, name: str, text: bytes) -> TSNode | None:
        return self.parsed.get(path, {}).pop((name, text), None)


# ----- the file ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FunctionItem:
    text: bytes  # the definition, after spaces standing for what precedes it on its first line
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


@dataclass(frozen=True)
class FileItems:
    functions: dict[str, FunctionItem]  # the first definition of each name, in file order
    scope: FileScope
    defines: tuple[bytes, ...]
    facts: FileFacts = NO_FACTS  # what the file adds to the whole project's facts


_DEFINE_LINE = re.compile(rb"^[ \t]*#[ \t]*define\b", re.MULTILINE)
_CALLED_NAME = re.compile(rb"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")  # a name a text calls


def _ends_in_call(fn: TSNode, data: bytes, returning: frozenset[str] = frozenset()) -> str | None:
    """The function a definition's body ends by calling, when the body has no ``return`` and
    calls no macro that may hide one: none of ``returning`` (the file's macros whose body
    returns), no capitalised statement call and no statement tree-sitter reads as a macro of a
    type (cffi's ``_write_raw_data(unsigned char);``).  Such a function never returns if that
    callee never does (``void die(const char *m) { fprintf(...); exit(1); }``)."""
    body = fn.child_by_field_name("body")
    if body is None or b"return" in data[body.start_byte : body.end_byte]:
        return None
    stmts = [c for c in body.named_children if c.type != "comment"]
    if not stmts or stmts[-1].type != "expression_statement":
        return None
    called = _CALLED_NAME.findall(data, body.start_byte, body.end_byte) if returning else ()
    if any(m.decode("ascii") in returning for m in called):
        return None
    for st in stmts:
        if st.type == "macro_type_specifier":
            return None
        call = st.named_children[0] if st.type == "expression_statement" and st.named_children else None
        if call is not None and call.type == "call_expression":
            callee = call.child_by_field_name("function")
            if callee is not None and callee.type == "identifier" and text_of(callee).isupper():
                return None
    last = stmts[-1].named_children[0] if stmts[-1].named_children else None
    if last is None or last.type != "call_expression":
        return None
    callee = last.child_by_field_name("function")
    return text_of(callee) if callee is not None and callee.type == "identifier" else None


def _never_returning(ends_in: dict[str, str], declared: set[str]) -> set[str]:
    """The file's functions that end, on every path that ends, in a call that never returns:
    the library's, the declared ones, and (to a fixpoint) each other."""
    known = set(declared) | NORETURN
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, callee in ends_in.items():
            if name not in found and callee in known | found:
                found.add(name)
                changed = True
    return found


@derived("file_items")
def file_items(db: Database, path: str) -> FileItems:
    source = db.get(SOURCE, path)
    data = source.text.encode("utf-8", "surrogatepass")
    tree = source.tree if source.tree is not None else parse_c(data)
    original = tree
    if tree.root_node.has_error:
        # the configuration's defines only: a file's items do not depend on its compile flags, so
        # handing in a compile database (after the files, as the CLI does) parses nothing again
        settings = db.get(SETTINGS, ())
        tree = _least_broken(data, tree, settings.defines.overlaid(settings.command))
    consts: dict[str, int] = {}
    globals_: set[str] = set()
    volatiles: set[str] = set()
    noreturn: set[str] = set()
    ends_in: dict[str, str] = {}  # functions with no return statement -> the call their body ends with
    ends_at: list[tuple[str, TSNode]] = []  # the functions that may be in ``ends_in``
    defines: list[bytes] = []
    taken = 0  # the defines' texts so far end here: each byte of the file is in at most one of them
    functions: dict[str, FunctionItem] = {}
    parsed: dict[tuple[str, bytes], TSNode] = {}
    # where the rare texts are, found once in the file rather than once per item
    define_at = _Hits(i for i in _find_all(data, b"define") if _starts_define(data, i))
    noreturn_at = _Hits(_find_all(data, b"oreturn"))  # every spelling :func:`noreturn_names` reads
    written: set[str] = set()
    variables: list[tuple[str, int | None, bool]] = []
    returning: list[tuple[str, int | None, bool, frozenset[str]]] = []
    for n in top_level_items(tree.root_node):
        start, end = n.start_byte, n.end_byte
        if noreturn_at.within(start, end):
            noreturn |= noreturn_names(n)
        if n.type == "declaration":
            variables += declared_variables(n, consts)
            for d in n.children_by_field_name("declarator"):
                value = d.child_by_field_name("value") if d.type == "init_declarator" else None
                if value is not None:
                    written |= written_in(data[value.start_byte : value.end_byte])
        else:
            written |= written_in(data[start:end])
        if n.type == "function_definition":
            name = function_name(n)
            if name is not None:
                result = constant_return(n, consts)
                called = callees(n) if result is not None else frozenset()
                returning.append((name, result, is_static(n), called))
            if name is not None and _ends_in_call(n, data) is not None:
                ends_at.append((name, n))  # read again once the file's macros are known
            if name is not None and name not in functions:
                item = functions[name] = FunctionItem(_padded(data, n), n.start_point[0])
                if tree is original and _reusable(n, item):
                    parsed[(name, item.text)] = n
            if define_at.within(start, end) and taken < end:
                # a #define inside a body still defines for the file
                defines.append(data[max(start, taken) : end])
                taken = end
            continue
        if define_at.within(start, end) and taken < end:
            # an item inside the run-on span of the one before is that definition's text: taken once
            begin, taken = max(start, taken), _define_span(data, start, end)
            defines.append(data[begin:taken])
        if n.type in _SCOPE_ITEMS:
            item_consts, item_globals = file_constants([n])
            consts.update(item_consts)
            globals_ |= item_globals
            volatiles |= volatile_globals(n)
    hiding = returning_macros(defines) if ends_at else frozenset()
    for name, n in ends_at:
        if (callee := _ends_in_call(n, data, hiding)) is not None:
            ends_in[name] = callee
    noreturn |= _never_returning(ends_in, noreturn)
    macros = macro_names(defines)
    functions_facts = tuple(
        dict.fromkeys((f, None if v is None or c & macros else v, s) for f, v, s, c in returning)
    )
    facts = FileFacts(tuple(dict.fromkeys(variables)), functions_facts, frozenset(written))
    scope = FileScope(
        tuple(sorted(consts.items())), frozenset(globals_), frozenset(noreturn), directives(data), frozenset(volatiles)
    )
    if isinstance(db, FrontDb):
        db.parsed[path] = parsed
    return FileItems(functions, scope, tuple(defines), facts)


def _flag_defines(db: Database, path: str) -> Defines:
    """The defines of the configuration and the file's compile flags, before any header's."""
    settings = db.get(SETTINGS, ())
    return db.get_or(FLAGS, path, NO_FLAGS).applied(settings.defines).overlaid(settings.command)


def _least_broken(data: bytes, tree: Tree, defines: Defines) -> Tree:
    """The parse to find a file's items in: ``tree``, or the parse of a readable form of the file
    when macros used as statements or preprocessor conditionals break ``tree`` and that form reads
    more of the file whole.  Readable forms keep every position: statement-like macros blanked,
    then one branch of each conditional kept (:mod:`extractors.preprocessor`).  Without this, one
    such line can make the rest of a function, or of the file, one syntax error.  The items' texts
    stay the file's own: a function's model makes its text readable the same way itself."""
    broken = [n for n in top_level_items(tree.root_node) if n.has_error or n.type == "ERROR"]
    if not broken:
        return tree
    macros = statement_macro_spans(data)
    readable = without_statement_macros(data, macros) if _overlaps(macros, broken) else data
    readable = with_macro_conditions(readable)
    conditionals = any(has_conditionals(data[n.start_byte : n.end_byte]) for n in broken)
    if readable is data and not conditionals:
        return tree
    best, score = tree, _wholeness(tree)
    candidates = [readable] if readable is not data else []
    if conditionals:
        candidates += variants(readable, defines, implicit_else=False)
    for text in candidates:
        candidate = parse_c(text)
        if (s := _wholeness(candidate)) > score:
            best, score = candidate, s
    return best


def _overlaps(spans: list[tuple[int, int]], nodes: list[TSNode]) -> bool:
    return any(n.start_byte <= a and b <= n.end_byte for a, b in spans for n in nodes)


def _wholeness(tree: Tree) -> tuple[int, int]:
    """More definitions read without error first, then fewer bytes in syntax errors."""
    items = top_level_items(tree.root_node)
    whole = sum(1 for n in items if n.type == "function_definition" and not n.has_error)
    broken = sum(n.end_byte - n.start_byte for n in items if n.has_error or n.type == "ERROR")
    return whole, -broken


def _find_all(data: bytes, word: bytes) -> Iterator[int]:
    at = data.find(word)
    while at >= 0:
        yield at
        at = data.find(word, at + len(word))


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


def _reusable(n: TSNode, item: FunctionItem) -> bool:
    """Whether the definition ``n`` is what parsing ``item.text`` alone gives, up to its first
    row: a definition without syntax errors parses the same wherever it stands (its grammar rule
    does not look outside it), and its byte columns are the padded text's when what precedes it on
    its line is one byte per character."""
    return not n.has_error and len(item.text) - len(n.text or b"") == n.start_point[1]


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
    if defines:
        found.update(count_macros(b"\n\n".join(defines).decode("utf-8", "surrogateescape")))
    return tuple(sorted(counting(found).items()))


@derived("header_directives")
def header_directives(db: Database, header: str) -> tuple[Directive, ...]:
    text = db.get(HEADER, header)
    return directives(text.encode("utf-8", "surrogatepass")) if text else ()


@derived("file_preprocessor")
def file_preprocessor(db: Database, path: str) -> Preprocessed:
    """The headers ``path`` reads (next to it, in its ``-I`` folders, its ``-include`` files) and
    what its and their directives define (:func:`extractors.includes.preprocess`).  Reads only its
    directives, its flags, the settings and the headers it looks at, so typing inside a function
    does not run it, and a change to one file's flags or to one header runs it for the files that
    read them only; equal outcomes are backdated."""
    settings = db.get(SETTINGS, ())
    flags = db.get_or(FLAGS, path, NO_FLAGS)

    def lookup(header: str) -> tuple[Directive, ...] | None | Unread:
        text = db.get_or(HEADER, header, UNREAD)
        if text is None or isinstance(text, Unread):
            return text
        found: tuple[Directive, ...] = db.get(header_directives, header)
        return found

    def elsewhere(name: str) -> str | None:
        found: str | None = db.get(project_header, name)
        return found

    return preprocess(
        path,
        db.get(file_scope, path).directives,
        flags.forced,
        search_path(flags, settings.command_include, settings.include),
        _flag_defines(db, path),
        lookup,
        settings.command,
        elsewhere,
    )


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
    inside a body rebuilds nothing through it."""
    path, kind = key
    headers = db.get(file_preprocessor, path).headers
    text = db.get(SOURCE, path).text
    known: frozenset[str] = frozenset().union(*(db.get(header_markers, (h, kind)) for h in headers))
    marks = markers(text, known, KINDS[kind])
    names = set(declared_with(text, marks))
    for h in headers:
        found: frozenset[str] = db.get(header_declared, (h, marks))
        names |= found
    return frozenset(names)


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
    stops = db.get(file_declared, (path, "noreturn")) - scope.noreturn
    text = consts_digest(consts) + ",".join(sorted(scope.noreturn)) + repr(list(macros)) + defines.key()
    text += "|must:" + ",".join(sorted(must)) if must else ""
    text += "|stops:" + ",".join(sorted(stops)) if stops else ""
    counted: tuple[tuple[str, CountMacro], ...] = db.get(file_counts, path)
    counts = dict(counted)
    text += "|counts:" + count_macros_key(counts) if counts else ""
    digest = hashlib.sha256(f"{settings.config_digest}|{text}".encode()).hexdigest()[:32]
    table = {**settings.table, **dict(macros)} if macros else settings.table
    if scope.noreturn:
        table = {**table, **{n: CallSpec(noreturn=True) for n in scope.noreturn if n not in table}}
    if stops:  # declared noreturn through a macro or in a header the file reads
        table = {**table, **{n: CallSpec(noreturn=True) for n in stops if n not in table}}
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
    )


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


@derived("function_facts")
def function_facts(db: Database, key: tuple[str, str, bytes]) -> frozenset[tuple[str, int]]:
    """Only what the function's text names: a fact it does not mention never rebuilds it."""
    return mentioned(db.get(file_view, key[0]), key[2])


# ----- one function ------------------------------------------------------------------------------


def _with_facts(context: Context, known: frozenset[tuple[str, int]]) -> Context:
    """The context with the project's constants the function names (the file's own win); its
    digest names them, so the model's key does."""
    facts = dict(sorted(known))
    digest = hashlib.sha256(f"{context.digest}|{sorted(known)!r}".encode()).hexdigest()[:32]
    return replace(context, digest=digest, consts={**facts, **context.consts}, facts=frozenset(facts))


def _same_model(a: FunctionModel | Unmodelled | None, b: FunctionModel | Unmodelled | None) -> bool:
    """Models with one key are built from one text and context: equal without comparing CFGs."""
    if isinstance(a, FunctionModel) and isinstance(b, FunctionModel):
        return a.key == b.key and a.file == b.file
    return a == b


_BUILD_ERRORS = (RecursionError, ValueError, AttributeError, IndexError, KeyError, TypeError)


@derived("function_model", eq=_same_model)
def function_model(db: Database, key: tuple[str, str, bytes]) -> FunctionModel | Unmodelled | None:
    """The model of function ``name`` of ``path`` whose text (padded to its first column) is
    ``text``, with rows counted from its first line, or the note saying why there is none; None
    for a declaration without a body.  Keyed by the text itself: an edit elsewhere in the file
    leaves the key, and the memo is verified by its context alone."""
    path, name, text = key
    context = db.get(function_context, path)
    known = db.get(function_facts, key)
    if known:
        context = _with_facts(context, known)
    log = db if isinstance(db, FrontDb) else None
    fn = log.take_parsed(path, name, text) if log is not None else None
    # the text tree-sitter reads; positions are the same
    readable = with_macro_conditions(without_statement_macros(text))
    if fn is None or readable is not text:
        tree = parse_c(readable)
        fn = next((n for n in top_level_items(tree.root_node) if n.type == "function_definition"), None)
    row_base = fn.start_point[0] if fn is not None else 0
    lines = text.split(b"\n")
    model_key = function_key(hashlib.sha256(text).hexdigest(), context.digest)
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
    return suppressions(db.get(SOURCE, path).text)


@derived("file_notes")
def file_notes(db: Database, path: str) -> tuple[Unmodelled, ...]:
    """The functions of the file that could not be modelled, placed: what a check reports besides
    its findings, without placing every model of the file."""
    notes: list[Unmodelled] = []
    for name, item in db.get(file_items, path).functions.items():
        got = db.get(function_model, (path, name, item.text))
        if isinstance(got, Unmodelled):
            notes.append(_placed_note(got, item.row))
    return tuple(notes)


def _placed_note(note: Unmodelled, row: int) -> Unmodelled:
    at = note.location
    return replace(note, location=replace(at, start_line=at.start_line + row, end_line=at.end_line + row))


@derived("file_model")
def file_model(db: Database, path: str) -> FileState:
    """The file's models in file order, placed (its unmodelled functions: :func:`file_notes`)."""
    text = db.get(SOURCE, path).text
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
