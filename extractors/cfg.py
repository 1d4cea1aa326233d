"""Control-flow graphs of C function bodies, one node per statement or atomic condition.

Conditions are split at ``&&``, ``||``, ``!`` and ``?:`` so that a branch that depends on a NULL
test is its own edge: that is what lets the checker see that ``if (p && p->x)`` is safe.  Every
node keeps its source range (0-based rows, character columns) so witness paths map back to code.
Code the builder cannot read (ERROR nodes, odd macros) is skipped, never raised on.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from tree_sitter import Node as TSNode
from tree_sitter import Tree

from extractors.calls import CallSpec
from extractors.conditional_takes import defer_conditional_takes
from extractors.count_macros import (
    EXPECT,
    NO_COUNT_MACROS,
    OBJECT_LIKE,
    CountMacro,
    CountMacros,
    Expanded,
    called_at,
    dropped,
    expand_call,
    expansion,
    hint,
    object_like,
    object_statement,
    reads_through,
    sequence_macro,
    statement_macro,
)
from extractors.cursors import drop_cursor_escapes
from extractors.error_codes import resolve_resets
from extractors.error_indicator import Indicator, condition_indicator, mark_error_indicator
from extractors.facts import (
    RETURNED,
    Call,
    Facts,
    FactWalker,
    args_of,
    call_name,
    chained_store,
    in_frame,
    is_null_pointer,
    macro_statement_facts,
    null_test,
    path_of,
    root_of,
)
from extractors.formats import dereferenced
from extractors.macro_calls import plain_name
from extractors.parse import parse_c, short, strip_parens, text_of
from extractors.preprocessor import NO_DEFINES, Assumed, Defines, condition
from extractors.user_atoms import UserAtoms, user_events

Pred = tuple[int, bool | None]
CondExpr = tuple[object, ...] | None
# an integer known only to be at least 1: ``sizeof`` of anything, an array's element count
POSITIVE: CondExpr = ("pos",)

_WRAPPER = b"void __ctlsp_expansion(void) {\n"  # what a statement macro's expansion is parsed in
EXPANSION_BUDGET = 1 << 16  # bytes of statement-macro expansions one function is read through at most


@dataclass(frozen=True)
class _Expansion:
    """A statement macro's call being read through its expansion (:meth:`CfgBuilder.expanded`):
    the tree the expansion was parsed into (``data``, the expansion at ``prefix``), the ranges
    of it copied from the enclosing text (``Expanded.pieces``, at offsets of the enclosing
    tree), and the call's own range there (``whole``), where everything else of it is placed."""

    tree: Tree
    data: bytes
    prefix: int
    pieces: tuple[tuple[int, int, int], ...]
    whole: tuple[int, int]
    macro: str = ""  # the macro's name: the nodes of its body are the same statements in every call
    seen: dict[tuple[str, str], int] = field(default_factory=dict)  # its body's nodes so far, by kind and text


@dataclass(frozen=True)
class _Found:
    """A statement macro's call expanded (:meth:`CfgBuilder.statement_expansion`): the expansion,
    the tree and text it was parsed in, the block it parses as there, and where the call ends
    (past its ``;``) in the text of the statement's own tree."""

    got: Expanded
    tree: Tree
    data: bytes
    block: TSNode
    end: int
    macro: str = ""


@dataclass
class CfgNode:
    id: int
    kind: str  # entry exit stmt decl cond return join label goto case switch sink
    row: int
    col: int
    end_row: int
    end_col: int
    text: str
    events: tuple[tuple[str, str], ...] = ()
    calls: tuple[Call, ...] = ()
    flag_sets: tuple[tuple[str, int | None], ...] = ()
    null_test: tuple[str, bool] | None = None
    cond: CondExpr = None
    copies: tuple[tuple[str, str], ...] = ()  # (target, source) of each ``target = source`` of a path
    shared: tuple[str, ...] = ()  # targets of ``target = place``, a place no path names (facts.Facts.shared)
    source: str = ""  # the node's whole text, which witness refutation re-reads (``text`` is shortened)
    # paths the not-NULL branch of this node's null test takes (extractors.conditional_takes)
    takes: tuple[str, ...] = ()
    # what the node leaves the library's error indicator as, per way out (branch or None: set),
    # and, on a node whose call's stored result the next node's test of the indicator speaks for,
    # the branch of that test on which it is set (extractors.error_indicator)
    indicator: Indicator = ()
    error_test: bool | None = None
    # a test inside an ``assert``: its ways out state what the author holds true there, they are
    # not the code handling a case (a NULL branch of ``assert(!x || p == 0)`` is no NULL check)
    asserted: bool = False


_WORD = re.compile(rb"[A-Za-z_]\w*")
_ELIF = frozenset({"preproc_elif", "preproc_elifdef"})  # a conditional's later branches


@dataclass
class Cfg:
    nodes: list[CfgNode] = field(default_factory=list)
    succ: list[list[tuple[int, bool | None]]] = field(default_factory=list)
    entry: int = 0
    exit: int = 1
    addr_taken: set[str] = field(default_factory=set)  # roots of every address taken (&x, &s.f, &p->f)
    frame_addressed: set[str] = field(default_factory=set)  # those whose own storage it is: may change unseen
    declared: dict[str, bool] = field(default_factory=dict)  # local name -> declared without initialiser
    static_locals: set[str] = field(default_factory=set)
    # locals declared volatile (``volatile __m128i z;``, ``int *volatile p;``): every store to one
    # is an access the program makes, never a dead store
    volatile_locals: set[str] = field(default_factory=set)
    # the body ``#include``s a file (libsodium's ``#include "u4.h"`` between statements): code this
    # CFG does not hold reads and writes the locals, so no claim about what they hold is made
    includes: bool = False
    returns: list[tuple[str | None, str | None]] = field(default_factory=list)  # (path, call name)
    # a node of a later preprocessor variant -> the node of the first variant that has the same
    # statement (see :func:`choice_of`), and a later copy of a statement macro's argument or of a
    # statement of its body -> its first copy (:meth:`CfgBuilder.expanded`); a node that is no
    # copy is in no pair
    twins: dict[int, int] = field(default_factory=dict)
    # the file's integer constants the function's text names (macros, enumerators, project
    # constants): what a witness's path condition reads those names as
    consts: dict[str, int] = field(default_factory=dict)

    def successors(self, n: int) -> list[int]:
        return [t for t, _ in self.succ[n]]


def choice_of(cfgs: list[Cfg]) -> Cfg:
    """One CFG that runs one of ``cfgs`` (the models of one function's preprocessor variants): their
    entries and exits are shared, their other nodes renumbered after the first's.

    ``twins`` maps each node of a later variant that is the same statement as a node of an earlier
    one (same kind, place and text; the variants keep every position) to the first such
    node: the statement is one in the source, compiled in every configuration that keeps it, and a
    claim about the statement (a dead store) must hold at each of its variants' copies
    (:mod:`extractors.every_copy`).  Only a statement met once in each of the two variants is
    paired: two nodes of one variant at one place are not taken for each other.  A variant's own
    twins (the copies of a statement macro's argument, :meth:`CfgBuilder.expanded`) are kept, each
    to the statement its first copy is."""
    out = Cfg(
        list(cfgs[0].nodes),
        [list(s) for s in cfgs[0].succ],
        cfgs[0].entry,
        cfgs[0].exit,
        set(cfgs[0].addr_taken),
        set(cfgs[0].frame_addressed),
        dict(cfgs[0].declared),
        set(cfgs[0].static_locals),
        set(cfgs[0].volatile_locals),
        any(c.includes for c in cfgs),
        list(cfgs[0].returns),
        dict(cfgs[0].twins),
        dict(cfgs[0].consts),
    )
    seen: dict[_Statement, int] = {}  # statement -> its first node in ``out``
    for i, key in _statements(cfgs[0]).items():
        seen.setdefault(key, i)
    for other in cfgs[1:]:
        offset = len(out.nodes) - 2

        def at(i: int, other: Cfg = other, offset: int = offset) -> int:
            return out.entry if i == other.entry else out.exit if i == other.exit else i + offset

        for node in other.nodes:
            if node.id not in (other.entry, other.exit):
                out.nodes.append(replace(node, id=at(node.id)))
                out.succ.append([(at(t), b) for t, b in other.succ[node.id]])
        out.succ[out.entry] += [(at(t), b) for t, b in other.succ[other.entry] if (at(t), b) not in out.succ[out.entry]]
        out.addr_taken |= other.addr_taken
        out.frame_addressed |= other.frame_addressed
        for name, bare in other.declared.items():
            out.declared[name] = out.declared.get(name, False) or bare
        out.static_locals |= other.static_locals
        out.volatile_locals |= other.volatile_locals
        out.returns += [r for r in other.returns if r not in out.returns]
        out.consts.update(other.consts)
        for i, key in _statements(other).items():
            first = seen.setdefault(key, at(i))
            if first != at(i):
                out.twins[at(i)] = first
        for i, j in other.twins.items():
            out.twins[at(i)] = out.twins.get(at(j), at(j))
    return out


_Statement = tuple[str, int, int, int, int, str]


def _statements(cfg: Cfg) -> dict[int, _Statement]:
    """The nodes of ``cfg`` (but its entry and exit) that are the only one of their kind at their
    place with their text, by id, with that identity.  Not the events: what a variant's other code
    does changes them (an address taken further on makes a read an ``escape`` too)."""
    keys = {
        n.id: (n.kind, n.row, n.col, n.end_row, n.end_col, n.source or n.text)
        for n in cfg.nodes
        if n.id not in (cfg.entry, cfg.exit) and n.id not in cfg.twins  # a copy is its first's
    }
    counts = Counter(keys.values())
    return {i: k for i, k in keys.items() if counts[k] == 1}


_LOOPS = ("while_statement", "do_statement", "for_statement")


def format_uses(call: Call, fmt: int | None) -> list[tuple[str, str]]:
    """``use`` of each argument a printf-like call's literal format dereferences (``%s``, ``%n``),
    but one passed by address or known not NULL where the call runs (as for a row's ``use``)."""
    literal = next((text for i, text in call.strings if i == fmt), None)
    if literal is None or fmt is None:
        return []
    out = []
    for k in dereferenced(literal, fmt + 1):
        if k < len(call.args) and (path := call.args[k][0]) and not call.args[k][1] and path not in call.guarded:
            out.append((path, "use"))
    return out


class CfgBuilder:
    def __init__(
        self,
        lines: list[bytes],
        table: dict[str, CallSpec],
        consts: dict[str, int],
        row_base: int = 0,
        defines: Defines = NO_DEFINES,
        atoms: UserAtoms = (),
        counts: CountMacros = NO_COUNT_MACROS,
        assumed: Assumed | None = None,
        array_types: frozenset[str] = frozenset(),
    ) -> None:
        self.lines = lines  # the function's own lines: row 0 is ``row_base`` of the parse tree
        self.defines = defines  # what decides preprocessor conditionals
        # one configuration's assumptions on top of ``defines`` (extractors.functions.configurations)
        self.assumed = assumed
        self.row_base = row_base
        self.table = table
        self.consts = consts
        self.cfg = Cfg()
        self.breaks: list[list[Pred]] = []
        self.continues: list[list[Pred]] = []
        # the switches being built, innermost last: each node and whether a default was seen
        self.switches: list[tuple[int, list[bool]]] = []
        self.labels: dict[str, int] = {}
        self.gotos: list[tuple[int, str]] = []
        self.jumps: list[tuple[int, str]] = []  # (node, label) an ``asm goto`` may jump to, besides going on
        self.frame: dict[str, bool] = {}  # automatic locals declared so far -> whether an array
        self.atoms = atoms  # the user's [[atoms]]: queries whose matches label nodes (user_atoms.py)
        self.spans: dict[int, tuple[int, int]] = {}  # byte range of each node that has facts
        self.counts = counts  # macros a condition reads through when they make a count (count_macros.py)
        self.array_types = array_types  # typedef names of array types (extractors.array_types)
        self.params: frozenset[str] = frozenset()  # the names in the parameter list (build)
        self.local_arrays: set[str] = set()  # locals declared as arrays so far, static ones too
        # the text of the function's tree, its offset there and its first point (build)
        self.root: tuple[bytes, int, tuple[int, int]] = (b"", 0, (0, 0))
        self.newlines: list[int] | None = None  # offsets of the line ends in ``root``'s text
        self.expansions: list[_Expansion] = []  # the statement macros being read, innermost last
        self.expanded_bytes = 0  # bytes of expansions read so far (at most EXPANSION_BUDGET)
        self.copied: dict[tuple[str, int, int, str], int] = {}  # an argument's statement -> its first copy
        self.body_copies: dict[tuple[str, str, str, int], int] = {}  # a macro body's statement -> its first copy

    def col(self, row: int, byte_col: int) -> int:
        if 0 <= row < len(self.lines):
            return len(self.lines[row][:byte_col].decode("utf-8", "replace"))
        return byte_col

    def new(self, kind: str, ts: TSNode | None, at: TSNode | None = None, facts: Facts | None = None) -> int:
        pos = at or ts
        n = len(self.cfg.nodes)
        span: tuple[int, int] | None = None
        if pos is not None:
            if self.expansions:  # a node of a macro's expansion: placed where its text comes from
                start, end, exact = self.placed(pos)
                (r0, c0), (r1, c1) = self.point(start), self.point(end)
                span = (start, end) if exact else None
                if exact:  # a copy of an argument's statement: the twin of its first copy
                    first = self.copied.setdefault((kind, start, end, text_of(pos)), n)
                else:  # a statement of the body: the twin of the same one in the macro's first call
                    inner = self.expansions[-1]
                    whole = text_of(pos)
                    k = inner.seen.get((kind, whole), 0)
                    inner.seen[(kind, whole)] = k + 1
                    first = self.body_copies.setdefault((inner.macro, kind, whole, k), n)
                if first != n:
                    self.cfg.twins[n] = first
            else:
                (r0, c0), (r1, c1) = pos.start_point, pos.end_point
                span = (pos.start_byte, pos.end_byte)
            r0 -= self.row_base
            r1 -= self.row_base
            whole = text_of(pos)
            node = CfgNode(n, kind, r0, self.col(r0, c0), r1, self.col(r1, c1), short(whole), source=whole)
        else:
            node = CfgNode(n, kind, 0, 0, 0, 0, "")
        if facts is not None:
            if span is not None:
                self.spans[n] = span
            self.cfg.addr_taken |= facts.addr_taken
            self.cfg.frame_addressed |= facts.frame_addressed
            named = self.named_macro_reads(whole) if self.counts else []
            node.events = tuple(dict.fromkeys(facts.events + self.call_events(facts.calls) + named))
            node.calls = tuple(self.marked(c) for c in facts.calls)
            node.flag_sets = tuple(facts.flag_sets)
            node.copies = tuple(facts.copies)
            node.shared = tuple(facts.shared)
        self.cfg.nodes.append(node)
        self.cfg.succ.append([])
        return n

    def placed(self, pos: TSNode) -> tuple[int, int, bool]:
        """The bytes of the function's tree where expansion node ``pos`` comes from, and whether
        exactly: a copy of an argument is at the argument (a statement ``X;`` of the body whose
        ``X`` is a whole argument too), anything else of a macro's body at the whole call (of the
        outermost call whose argument does not hold it)."""
        start, end, exact = pos.start_byte, pos.end_byte, True
        for x in reversed(self.expansions):
            start, end = start - x.prefix, end - x.prefix
            for s0, s1, at in x.pieces:
                if s0 <= start < s1 < end and not x.data[x.prefix + s1 : x.prefix + end].strip(b" \t\r\n;"):
                    end = s1  # ``X;`` of an argument ``s++``: the statement is the argument's
                if s0 <= start and end <= s1:
                    start, end = at + start - s0, at + end - s0
                    break
            else:
                (start, end), exact = x.whole, False
        return start, end, exact

    def point(self, offset: int) -> tuple[int, int]:
        """The (row, byte column) of byte ``offset`` of the function's tree."""
        data, base, (row, col) = self.root
        if self.newlines is None:
            self.newlines = [i for i, b in enumerate(data) if b == 0x0A]
        rel = min(max(offset - base, 0), len(data))
        k = bisect_left(self.newlines, rel)  # line ends before ``rel``
        if k == 0:
            return row, col + rel
        return row + k, rel - self.newlines[k - 1] - 1

    def text_at(self) -> tuple[bytes, int]:
        """The text of the tree being read (the function's, or the innermost expansion's) and the
        offset of its first byte in that tree."""
        if self.expansions:
            return self.expansions[-1].data, 0
        return self.root[0], self.root[1]

    def statement_expansion(self, s: TSNode, body: TSNode | None = None, in_block: bool = False) -> _Found | None:
        """When statement ``s`` starts with a call of a statement macro of the file
        (:func:`extractors.count_macros.statement_macro`) or of one that compiles an argument out
        (:func:`extractors.count_macros.dropped`) and ends with it, the call expanded, the block its
        expansion parses as, and where the call ends (past its ``;``) in ``s``'s tree; None when
        it is no such call, the expansion does not parse whole, or the function's budget of
        expansions is spent.  ``body``: the block after an iteration macro's call, which is the
        body of the loop its expansion ends with (``list_for_each_safe(p, n, head) {``);
        ``in_block``: ``s`` is a statement of a block, where a macro whose body is a sequence of
        statements (:func:`extractors.count_macros.sequence_macro`) runs them all."""
        if s.type in ("comment", "compound_statement") or len(self.expansions) >= MAX_EXPANSION:
            return None
        if not self.counts and not (
            s.type == "declaration" and (s.has_error or ((t := _declared_type(s)) is not None and _before_void_cast(t)))
        ):
            return None
        data, base = self.text_at()
        named = _lone_name(s)
        alone = self.counts.get(text_of(named)) if named is not None else None
        if (
            named is None
            and (typed := _declared_type(s)) is not None
            and (read := _type_read_as_statement(s, typed, self.counts)) is not None
        ):
            named, alone = typed, read
        sequence = False
        if named is not None and alone is not None and object_like(alone):
            # ``C16B;`` of ``#define C16B C16S`` and ``#define C16S (out[1] = tmp[0], ...);``
            macro_body = alone[1]
            got = object_statement(alone, data, named.end_byte - base)
            statement = True
            name = text_of(named)
        else:
            call = called_at(data, s.start_byte - base)
            macro = self.counts.get(call[0]) if call is not None else None
            sequence = macro is not None and in_block and sequence_macro(macro)
            if call is None or macro is None or not (statement_macro(macro) or dropped(macro) or sequence):
                return None
            macro_body = macro[1]
            got = expand_call(macro, data, call[1])
            statement = statement_macro(macro)
            sequence = sequence and not statement
            statement = statement or sequence
            name = call[0]
        if got is None or self.expanded_bytes + len(got.text) > EXPANSION_BUDGET:
            return None
        if sequence and data[got.end - 1 : got.end] != b";":
            return None  # ``XOR4(in) SALSA(in, out)``: where the statements end is not the call's to say
        stop = s.end_byte - base
        rest = data[got.end : stop] if got.end < stop else b""
        if (not statement and s.type == "expression_statement" and rest) or (
            statement and rest.strip(b" \t\r\n;") and macro_body.rstrip().endswith(("}", ";"))
        ):
            # ``TESTONLY(rc =) f(x);``: the build's statement is the expansion and the rest; and
            # ``CHECK_ROOM(2)`` with no ``;``, which tree-sitter reads into the next statement
            got = Expanded(got.text + rest, (*got.pieces, (len(got.text), len(got.text) + len(rest), got.end)), stop)
        elif not statement and data[got.end - 1 : got.end] != b";" and not macro_body.endswith((";", "}")):
            return None  # the statement goes on past the call in a way this cannot read
        if body is not None and got.text.rstrip().endswith(b")") and not rest.strip(b" \t\r\n;"):
            start, end = body.start_byte - base, body.end_byte - base
            at = len(got.text) + 1
            got = Expanded(got.text + b" " + data[start:end], (*got.pieces, (at, at + end - start, start)), end)
        self.expanded_bytes += len(got.text)
        text = _WRAPPER + b"{" + got.text + b";}\n}\n"
        tree, block = _first_statement(text)
        if block is None or block.type != "compound_statement":
            return None
        return _Found(got, tree, text, block, got.end + base, name)

    def expanded(self, s: TSNode, found: _Found, preds: list[Pred]) -> list[Pred]:
        """The statements of a statement macro's expansion (:meth:`statement_expansion` of ``s``)
        in order: ``BROTLI_REPEAT_5({ a; b; })`` is ``a; b;`` five times, each copy placed at
        the argument's own text, so that the reads of one copy follow its stores, and each copy
        after the first a twin of the first (``Cfg.twins``, :meth:`new`)."""
        base = self.text_at()[1]
        offset = len(_WRAPPER) + 1  # where the expansion starts in the parsed text
        pieces = tuple((s0, s1, at + base) for s0, s1, at in found.got.pieces)
        self.expansions.append(
            _Expansion(found.tree, found.data, offset, pieces, (s.start_byte, found.end), found.macro)
        )
        try:
            return self.stmt(found.block, preds)
        finally:
            self.expansions.pop()

    def statements(self, items: list[TSNode], preds: list[Pred]) -> list[Pred]:
        """The statements ``items`` of one block in order. A statement macro's call is read
        through its expansion, and the statements after it that its arguments hold are its own
        (``REP(a; b;);`` parses as the call ``REP(a;`` followed by ``b;``)."""
        done = -1
        for i, c in enumerate(items):
            if c.start_byte < done:
                continue
            block = items[i + 1] if i + 1 < len(items) else None
            looped = block is not None and block.type == "compound_statement" and _iteration_call(c)
            found = self.statement_expansion(c, block if looped else None, in_block=True)
            if found is not None:
                preds = self.expanded(c, found, preds)
                done = found.end
                continue
            if looped:
                assert block is not None
                preds = self.call_block(c, block, preds)
                done = block.end_byte
                continue
            preds = self.stmt(c, preds)
        return preds

    def call_block(self, call: TSNode, body: TSNode, preds: list[Pred]) -> list[Pred]:
        """An iteration macro's call with no semicolon before a block (``SLIST_FOREACH(k, &head,
        link) {`` after a declaration, which tree-sitter reads as a call missing its ``;`` and a
        block after it): as :meth:`macro_block`, the call, then the block as a loop's body that may
        run any number of times. (Another macro's block, ``WITH_LOCK(m) {``, runs once, in order.)"""
        return self.call_then_loop(call, call, self.facts(call), body, preds)

    def call_then_loop(
        self, call: TSNode | None, at: TSNode | None, facts: Facts, body: TSNode, preds: list[Pred]
    ) -> list[Pred]:
        """The node of a macro call (placed at ``at``) with ``facts``, then ``body`` as a loop's
        body that may run any number of times; an iteration macro sets its cursor, which it does
        not read (``SLIST_FOREACH(k, &head, link)``)."""
        for cursor in _iteration_cursors(call, self.cfg.declared):
            facts.events = [e for e in facts.events if e != (cursor, "read")] + [(cursor, "def")]
        n = self.new("stmt", at, facts=facts)
        self.link(preds, n)
        head = self.new("join", at)
        self.link([(n, None)], head)
        return self.loop_body(body, [(head, None)], head) + [(head, None)]

    def call_events(self, calls: list[Call]) -> list[tuple[str, str]]:
        """What calls do to the function's locals beyond their arguments' facts: a call through a
        local function pointer (lua's ``allocf(ud, ...)``) reads it, a macro that reads or assigns
        a local by name reads or defines it, and one that hands on an argument's address takes it."""
        declared = self.cfg.declared
        out: list[tuple[str, str]] = []
        for call in calls:
            if call.name in declared:
                out.append((call.name, "read"))
            if call.name and self.counts:  # EQ(s1) of ``#define EQ(s1) (strcmp(s1, inst) == 0)`` reads inst
                read = reads_through(plain_name(call.name), self.counts)
                out += [(n, "read") for n in sorted(read) if n in declared]
            spec = self.table.get(call.name) if call.name else None
            if spec is None:
                out += self.unknown_macro_stores(call)
                continue
            out += [(n, "def") for n in spec.assigns if n in declared]
            if call.result and any(0 <= i < len(call.args) and call.args[i] == (call.result, False)
                                   for i in spec.kept_on_failure):
                out.append((call.result, "lostonfail"))  # p = realloc(p, n): see kept_copies
            out += format_uses(call, spec.format)
            for i, atom in spec.args:
                if atom == "addr" and 0 <= i < len(call.args) and (path := call.args[i][0]):
                    self.cfg.addr_taken.add(root_of(path))
                    if in_frame(path):
                        self.cfg.frame_addressed.add(root_of(path))
        return out

    def named_macro_reads(self, source: str) -> list[tuple[str, str]]:
        """The caller's locals an object-like macro named in ``source`` reads through its body
        (SQLite's ``IN_RENAME_OBJECT`` of ``#define IN_RENAME_OBJECT (pParse->eParseMode>=2)``
        reads ``pParse``), as :meth:`call_events` reads those of a macro called."""
        reading = _object_readers(self.counts)
        if reading is None:
            return []
        declared = self.cfg.declared
        out: list[tuple[str, str]] = []
        for word in sorted(reading.keys() & set(_WORDS.findall(source))):
            out += [(n, "read") for n in sorted(reading[word]) if n in declared]
        return out

    def unknown_macro_stores(self, call: Call) -> list[tuple[str, str]]:
        """A statement that only calls a name in capitals neither the call table nor the file
        defines (a macro of a header not read: ICU's ``U8_NEXT(s, i, n, c)`` assigns ``c``) may
        assign each local handed to it bare: ``maydef`` (named, maybe assigned, not necessarily read),
        so no read of an unset value is claimed there nor after it (``maydef``, which the other
        rules do not read: a pointer handed to ``LOG(p)`` is still the one allocated).  A call
        whose value is used (``x = MIN(a, b)``) is an expression: it reads its arguments as any
        call does."""
        if not call.discarded or not call.name or _SHOUTED.fullmatch(call.name) is None or call.name in self.counts:
            return []
        declared = self.cfg.declared
        handed = (arg for arg, by_address in call.args if arg is not None and not by_address)
        return [(arg, "maydef") for arg in handed if arg in declared]

    def marked(self, call: Call) -> Call:
        """``call``, marked ``unchecked`` when its result is dropped and must not be."""
        spec = self.table.get(call.name) if call.discarded and call.name else None
        return replace(call, unchecked=True) if spec is not None and spec.must_check else call

    def link(self, preds: list[Pred], target: int) -> None:
        for src, br in preds:
            if (target, br) not in self.cfg.succ[src]:
                self.cfg.succ[src].append((target, br))

    def facts(
        self, ts: TSNode | None, discarded: bool = False, skip: frozenset[tuple[int, int]] = frozenset()
    ) -> Facts:
        w = FactWalker(self.consts, self.frame, self.returned_arg, self.array_types)
        w.skip = skip
        w.walk(ts, discarded=discarded)
        return w.f

    def lifted(self, e: TSNode | None, preds: list[Pred]) -> tuple[list[Pred], frozenset[tuple[int, int]]]:
        """Branches for the ternaries of a statement or condition ``e`` whose arms only read
        (``r = flag ? v : 0``): a test of the condition, then a node per arm with its reads, before
        ``e``'s own node, whose facts leave out what the returned spans cover. So ``v`` is read only
        where ``flag`` holds, as the C runs it. Only where ``e`` calls, stores and steps nothing but
        its own assignment, so that the test reads what ``e`` would (nothing runs in between)."""
        if e is None or not _plain(e):
            return preds, frozenset()
        found = [
            t
            for t in _ternaries(e)
            if _pure_arm(t.child_by_field_name("consequence")) and _pure_arm(t.child_by_field_name("alternative"))
        ]
        for t in found:
            tp, fp = self.cond(t.child_by_field_name("condition"), preds)
            joined: list[Pred] = []
            for arm, into in (("consequence", tp), ("alternative", fp)):
                body = t.child_by_field_name(arm)
                n = self.new("stmt", body, facts=self.facts(body))
                self.link(into, n)
                joined.append((n, None))
            preds = joined
        return preds, frozenset((t.start_byte, t.end_byte) for t in found)

    def cond_form(self, e: TSNode | None) -> CondExpr:
        """:func:`cond_expr` of ``e`` with the file's count macros and this function's arrays."""
        return cond_expr(e, self.counts, arrays=self.sized_array)

    def sized_array(self, name: str) -> bool:
        """Whether ``name`` may be taken for an array of known size, whose element count
        ``sizeof name / sizeof name[0]`` is at least 1 (:func:`cond_expr`): a local declared as an
        array, or a name the function neither declares nor takes as a parameter (file scope).
        Never a parameter (``int a[]`` in a parameter list is a pointer) nor a local pointer, for
        which the idiom may give 0. A file-scope pointer cannot be told from a file-scope array
        here (a model is built from the function's own text), so one is still taken for an array."""
        if name in self.cfg.declared:
            return name in self.local_arrays
        return name not in self.params

    def build(self, fn: TSNode) -> Cfg:
        decl = fn.child_by_field_name("declarator")
        self.root = (fn.text or b"", fn.start_byte, (fn.start_point[0], fn.start_point[1]))
        self.params = _parameter_names(decl)
        self.cfg.entry = self.new("entry", decl)
        body = fn.child_by_field_name("body")
        close = body.children[-1] if body is not None and body.children else body
        self.cfg.exit = self.new("exit", close)
        self.cfg.includes = body is not None and INCLUDE_LINE.search(body.text or b"") is not None
        start: list[Pred] = [(self.cfg.entry, None)]
        preds = self.stmt(body, start) if body is not None else start
        self.link(preds, self.cfg.exit)
        for src, label in self.gotos:
            target = self.labels.get(label)
            self.link([(src, None)], target if target is not None else src)
        for src, label in self.jumps:
            if (target := self.labels.get(label)) is not None:
                self.link([(src, None)], target)
        for n, event in user_events(fn, self.atoms, self.spans) if self.atoms else ():
            node = self.cfg.nodes[n]
            node.events = tuple(dict.fromkeys((*node.events, event)))
        resolve_resets(self.cfg)
        drop_cursor_escapes(self.cfg)
        self.count_checks()
        self.kept_copies()
        self.member_bases()
        defer_conditional_takes(self.cfg, self.table)
        mark_error_indicator(self.cfg, self.table)
        if self.consts:
            named = {m.decode("ascii") for m in _WORD.findall(self.root[0])}
            self.cfg.consts = {n: self.consts[n] for n in sorted(named) if n in self.consts}
        return self.cfg

    def member_bases(self) -> None:
        """A local declared with a type the function cannot see into (``rgb item;`` of a typedef)
        and named with a member (``item.color[0] = r``) is a struct or a union: its ``decl``, which
        tracks a scalar left unset, is dropped, or every store into a member would read it. Its
        members are not tracked either (a typedef may name a union; see extractors.struct_fields)."""
        nodes = self.cfg.nodes
        bases = {p.partition(".")[0] for n in nodes for p, _ in n.events if "." in p}
        for n in nodes:
            if n.kind == "decl" and any(a == "decl" and p in bases for p, a in n.events):
                n.events = tuple(e for e in n.events if not (e[1] == "decl" and e[0] in bases))

    def kept_copies(self) -> None:
        """``p = realloc(p, n)`` loses the old block on failure unless another pointer holds it:
        where a copy of ``p`` (``old = p``, ``s->old = p``, ``p = q``, and of a struct holding it:
        ``saved = block`` or ``block = arena->pool[i]`` for ``block.ptr``) may have been made before
        (a node that reaches the call), the function may free the block through it, so
        ``lostonfail`` is dropped there (cppcheck's memleakOnRealloc looks for an earlier copy
        too)."""
        lost = [i for i, n in enumerate(self.cfg.nodes) if any(a == "lostonfail" for _, a in n.events)]
        if not lost:
            return
        preds: list[list[int]] = [[] for _ in self.cfg.nodes]
        for src, outs in enumerate(self.cfg.succ):
            for dst, _ in outs:
                preds[dst].append(src)
        for i in lost:
            node = self.cfg.nodes[i]
            held = {p for p, a in node.events if a == "lostonfail"}
            seen, stack = {i}, list(preds[i])
            while stack and held:
                j = stack.pop()
                if j in seen:
                    continue
                seen.add(j)
                other = self.cfg.nodes[j]
                holders = {p for pair in other.copies for p in pair} | set(other.shared)
                held = {h for h in held if not any(h == k or h.startswith(k + ".") for k in holders)}
                stack.extend(preds[j])
            node.events = tuple(e for e in node.events if e[1] != "lostonfail" or e[0] in held)

    def count_checks(self) -> None:
        """Unmark a dropped result whose callee names calls that check it instead (``checked_by``:
        fread's ``ferror``) when the function makes one of them on one of the call's arguments."""
        marked = [n for n in self.cfg.nodes if any(c.unchecked for c in n.calls)]
        if not marked:
            return
        made = {(c.name, a) for n in self.cfg.nodes for c in n.calls for a, _ in c.args if a is not None}
        for n in marked:
            calls = []
            for c in n.calls:
                spec = self.table.get(c.name) if c.unchecked and c.name else None
                if spec is not None and any((k, a) in made for k in spec.checked_by for a, _ in c.args if a):
                    c = replace(c, unchecked=False)
                calls.append(c)
            n.calls = tuple(calls)

    def sink(self, n: int) -> list[Pred]:
        self.link([(n, None)], n)
        return []

    def noreturn(self, facts: Facts) -> bool:
        return any(c.name is not None and self.table.get(c.name, CallSpec()).noreturn for c in facts.calls)

    def stmt(self, s: TSNode | None, preds: list[Pred]) -> list[Pred]:
        if s is None:
            return preds
        t = s.type
        if t in ("compound_statement", "translation_unit"):
            return self.statements(s.named_children, preds)
        if t == "expression_statement":
            exprs = [c for c in s.named_children if c.type != "comment"]
            if not exprs:
                return preds
            found = self.statement_expansion(s)
            if found is not None and found.end <= s.end_byte:
                return self.expanded(s, found, preds)
            e = strip_parens(exprs[0])
            if e is not None and e.type == "call_expression" and call_name(e) == "assert" and args_of(e):
                first = len(self.cfg.nodes)
                tp, fp = self.cond(args_of(e)[0], preds)
                for node in self.cfg.nodes[first:]:
                    node.asserted = node.kind == "cond"
                if fp:
                    stop = self.new("sink", s)
                    self.link(fp, stop)
                    self.sink(stop)
                return tp
            if e is not None and (e.type == "comma_expression" or chained_store(e) is not None):
                return self.expr_node(e, preds)
            preds, skip = self.lifted(exprs[0], preds)
            f = self.facts(exprs[0], discarded=True, skip=skip)
            if returning_macro(e):
                n = self.new("return", s, facts=f)
                self.link(preds, n)
                self.link([(n, None)], self.cfg.exit)
                return []
            n = self.new("stmt", s, facts=f)
            self.link(preds, n)
            if self.noreturn(f):
                return self.sink(n)
            if e is not None and e.type == "gnu_asm_expression":
                self.asm_gotos(e, n)
            return [(n, None)]
        if t == "declaration":
            w = FactWalker(self.consts, self.frame, self.returned_arg, self.array_types)
            for d in s.children_by_field_name("declarator"):
                preds, skip = self.lifted(d.child_by_field_name("value"), preds)
                w.skip |= skip
            static = any(
                text_of(c) in ("static", "extern") for c in s.children if c.type == "storage_class_specifier"
            )
            self.cfg.volatile_locals |= _volatile_names(s)
            for name, uninit in w.declaration(s):
                self.cfg.declared[name] = uninit
                if name in w.f.arrays:
                    self.local_arrays.add(name)
                else:
                    self.local_arrays.discard(name)
                if static:
                    self.cfg.static_locals.add(name)
                    self.frame.pop(name, None)
                else:
                    self.frame[name] = name in w.f.arrays
            n = self.new("decl", s, facts=w.f)
            self.link(preds, n)
            if self.noreturn(w.f):
                return self.sink(n)
            return [(n, None)]
        if t == "if_statement":
            # an ``else if`` chain is walked as a loop: generated code has chains thousands long
            outs: list[Pred] = []
            while True:
                tp, fp = self.cond(s.child_by_field_name("condition"), preds)
                outs += self.stmt(s.child_by_field_name("consequence"), tp)
                alt = s.child_by_field_name("alternative")
                if alt is None:
                    return outs + fp
                inner = (
                    [c for c in alt.named_children if c.type != "comment"]
                    if alt.type == "else_clause"
                    else [alt]
                )
                if len(inner) == 1 and inner[0].type == "if_statement":
                    s, preds = inner[0], fp
                    continue
                for c in inner:
                    fp = self.stmt(c, fp)
                return outs + fp
        if t == "while_statement":
            head = self.new("join", s.child_by_field_name("condition"))
            self.link(preds, head)
            tp, fp = self.cond(s.child_by_field_name("condition"), [(head, None)])
            return self.loop_body(s.child_by_field_name("body"), tp, head) + fp
        if t == "do_statement":
            head = self.new("join", s.child_by_field_name("body"))
            self.link(preds, head)
            self.breaks.append([])
            self.continues.append([])
            bp = self.stmt(s.child_by_field_name("body"), [(head, None)])
            cont, brk = self.continues.pop(), self.breaks.pop()
            tp, fp = self.cond(s.child_by_field_name("condition"), bp + cont)
            self.link(tp, head)
            return fp + brk
        if t == "for_statement":
            init = s.child_by_field_name("initializer")
            if init is not None:
                preds = self.stmt(init, preds) if init.type == "declaration" else self.expr_node(init, preds)
            head = self.new("join", s.child_by_field_name("condition") or s)
            self.link(preds, head)
            cnd = s.child_by_field_name("condition")
            top: list[Pred] = [(head, None)]
            tp, fp = self.cond(cnd, top) if cnd is not None else (top, [])
            upd = s.child_by_field_name("update")
            self.breaks.append([])
            self.continues.append([])
            bp = self.stmt(s.child_by_field_name("body"), tp)
            cont, brk = self.continues.pop(), self.breaks.pop()
            if upd is not None:
                bp = self.expr_node(upd, bp + cont)
                cont = []
            self.link(bp + cont, head)
            return fp + brk
        if t == "switch_statement":
            return self.switch(s, preds)
        if t == "break_statement":
            if self.breaks:
                self.breaks[-1].extend(preds)
                return []
            return preds
        if t == "continue_statement":
            if self.continues:
                self.continues[-1].extend(preds)
                return []
            return preds
        if t == "return_statement":
            value = next((c for c in s.named_children if c.type != "comment"), None)
            w = FactWalker(self.consts, self.frame, self.returned_arg, self.array_types)
            preds, w.skip = self.lifted(value, preds)
            if value is not None:
                v = strip_parens(value)
                if w.frame_address(v) is not None:
                    w.ev(RETURNED, "stack")
                if v is not None and v.type == "call_expression":
                    w.call(v, RETURNED, frozenset(), False)
                    self.cfg.returns.append((None, call_name(v)))
                    handed = path_of(strip_parens(w.returned(v)))
                    if handed is not None:  # return memcpy(buf, ...): buf is returned
                        w.ev(handed, "escape")
                        w.ev(handed, "ret")
                else:
                    w.rhs(None, value, frozenset(), True)
                    w.ev(path_of(v), "ret")
                    if is_null_pointer(v):
                        w.ev(RETURNED, "null")  # the callers' may-NULL source (extractors.null_returns)
                    self.cfg.returns.append((path_of(v), None))
            n = self.new("return", s, facts=w.f)
            if value is not None and (known := evaluate(self.cond_form(value), self.consts)) is not None:
                self.cfg.nodes[n].cond = ("lit", known)  # the constant returned (extractors.out_params)
            self.link(preds, n)
            self.link([(n, None)], self.cfg.exit)
            return []
        if t == "goto_statement":
            n = self.new("goto", s)
            self.link(preds, n)
            self.gotos.append((n, text_of(s.child_by_field_name("label"))))
            return []
        if t == "labeled_statement":
            label = s.child_by_field_name("label")
            n = self.new("label", label)
            self.labels[text_of(label)] = n
            self.link(preds, n)
            return self.statements([c for c in s.named_children if c != label and c.type != "comment"], [(n, None)])
        if t in ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else", "preproc_elifdef"):
            return self.conditional(s, preds)
        if t == "macro_type_specifier":
            # ``BRET(b)`` written as a statement with no semicolon before ``}``: tree-sitter reads
            # the macro call as the type ``BRET`` of ``b``; it is the call, and it reads ``b``
            n = self.new("stmt", s, facts=macro_statement_facts(s))
            self.link(preds, n)
            return [(n, None)]
        if t == "function_definition" and _macro_type(s):
            return self.macro_block(s, preds)
        if t == "case_statement" and self.switches:
            # a label a statement macro's expansion holds (``X(ACCESS, access(p))`` of ``#define
            # X(t, a) case UV_FS_##t: r = a; break;``): a case of the switch around it
            return self.case(s, preds)
        if t in ("ERROR", "attributed_statement", "case_statement"):
            for c in s.named_children:
                if c.type.endswith("statement") or c.type == "declaration":
                    preds = self.stmt(c, preds)
            return preds
        return preds

    def macro_block(self, s: TSNode, preds: list[Pred]) -> list[Pred]:
        """A macro call before a block inside a body (``FOREACH(x, list) {``, lua's ``vmdispatch
        (GET_OPCODE(i)) {``), which tree-sitter reads as a nested function definition: the call
        reads its arguments, then the block may run any number of times (a loop's body, a
        switch's), so it is modelled as a loop whose test is unknown; a ``break`` in it leaves it."""
        body = s.child_by_field_name("body")
        if body is None:
            return preds
        data = s.text or b""
        call = _first_statement(_WRAPPER + data[: body.start_byte - s.start_byte] + b";\n}\n")[1]
        whole = call is not None and call.type == "expression_statement"
        at = s.child_by_field_name("declarator")
        return self.call_then_loop(call if whole else None, at, self.facts(call) if whole else Facts(), body, preds)

    def asm_gotos(self, e: TSNode, n: int) -> None:
        """``asm goto``: the statement may jump to each label it lists, besides going on."""
        labels = e.child_by_field_name("goto_labels")
        for label in labels.children_by_field_name("label") if labels is not None else ():
            self.jumps.append((n, text_of(label)))

    def conditional(self, s: TSNode, preds: list[Pred]) -> list[Pred]:
        """A preprocessor conditional: the branch the defines select, or the choice of the branches
        they leave possible when they do not decide.  Without ``#else``, a lone ``#if`` is the
        branch or nothing; a chain with an ``#elif`` enumerates the builds it supports
        (``#ifdef FREEBSD ... #elif OPENBSD ... #elif NETBSD ... #endif``), so one of its possible
        branches runs, and nothing only when the defines rule them all out."""
        chain, alt = ([s], None) if s.type == "preproc_else" else elif_chain(s)
        outs: list[Pred] = []
        for c in chain:
            selected = True if c.type == "preproc_else" else self.selected(c)
            if selected is False:
                continue
            outs += [p for p in self.branch(c, preds) if p not in outs]
            if selected is True:
                return outs  # the first branch selected: the later ones never run
        if alt is not None:
            outs += [p for p in self.branch(alt, preds) if p not in outs]
        elif len(chain) == 1 or not outs:
            outs += [p for p in preds if p not in outs]
        return outs

    def selected(self, s: TSNode) -> bool | None:
        """Whether the branch of ``#if``/``#elif`` node ``s`` is taken (None: not decided)."""
        if self.assumed is not None:
            d = directive(s)
            return self.assumed.decide(*d) if d is not None else None
        return directive_condition(s, self.defines)

    def branch(self, s: TSNode, preds: list[Pred]) -> list[Pred]:
        """The statements of one branch of a conditional (not its ``#elif``/``#else``)."""
        alt = s.child_by_field_name("alternative")
        cur = preds
        for c in s.named_children:
            if alt is not None and c == alt:
                continue
            if (
                c.type.endswith("statement")
                or c.type in ("declaration", "labeled_statement")
                or c.type.startswith("preproc_if")
            ):
                cur = self.stmt(c, cur)
        return cur

    def expr_node(self, e: TSNode | None, preds: list[Pred]) -> list[Pred]:
        """A node per operand of a comma expression, in order, and per store of a chained
        assignment, innermost first: the events of one node are a set, and ``x = f(), g(x)`` as
        one node read ``x`` as if it were not assigned yet."""
        s = strip_parens(e)
        if e is None or s is None:
            return preds
        if s.type == "comma_expression":
            left = self.expr_node(s.child_by_field_name("left"), preds)
            return self.expr_node(s.child_by_field_name("right"), left) if left else left
        if (inner := chained_store(s)) is not None:  # x = y = v: y = v, then x = y
            first = self.expr_node(inner, preds)
            if not first:
                return first
            w = FactWalker(self.consts, self.frame, self.returned_arg, self.array_types)
            w.outer_store(s, inner)
            n = self.new("stmt", e, facts=w.f)
            self.link(first, n)
            return [(n, None)]
        f = self.facts(e, discarded=True)
        n = self.new("stmt", e, facts=f)
        self.link(preds, n)
        if self.noreturn(f):
            return self.sink(n)
        return [(n, None)]

    def loop_body(self, body: TSNode | None, preds: list[Pred], head: int) -> list[Pred]:
        self.breaks.append([])
        self.continues.append([])
        bp = self.stmt(body, preds)
        cont, brk = self.continues.pop(), self.breaks.pop()
        self.link(bp + cont, head)
        return brk

    def switch(self, s: TSNode, preds: list[Pred]) -> list[Pred]:
        cond = s.child_by_field_name("condition")
        sw = self.new("switch", cond, facts=self.facts(cond))
        self.cfg.nodes[sw].cond = self.cond_form(cond)  # prune.py follows the one case a known value takes
        self.link(preds, sw)
        self.breaks.append([])
        body = s.child_by_field_name("body")
        fall: list[Pred] = []
        default = [False]
        self.switches.append((sw, default))
        try:
            for item in body.named_children if body is not None else []:
                fall = self.case(item, fall) if item.type == "case_statement" else self.stmt(item, fall)
        finally:
            self.switches.pop()
        brk = self.breaks.pop()
        return fall + brk + ([] if default[0] else [(sw, None)])

    def case(self, item: TSNode, fall: list[Pred]) -> list[Pred]:
        """A ``case`` or ``default`` label of the innermost switch, reached from its test and by
        falling through from ``fall``, and the statements after it."""
        sw, default = self.switches[-1]
        value = item.child_by_field_name("value")
        default[0] = default[0] or value is None
        case = self.new("case", value or item.children[0])
        self.cfg.nodes[case].cond = self.cond_form(value) if value is not None else ("default",)
        self.link([(sw, None)] + fall, case)
        body_items = [
            c
            for i, c in enumerate(item.children)
            if item.field_name_for_child(i) != "value" and c.is_named and c.type != "comment"
        ]
        return self.statements(body_items, [(case, None)])

    def returned_arg(self, call: TSNode) -> TSNode | None:
        """The argument ``call`` returns, by the call table's ``returns_arg`` (``memcpy``'s
        destination), or None."""
        name = call_name(call)
        spec = self.table.get(name) if name is not None else None
        if spec is None or spec.returns_arg is None:
            return None
        args = args_of(call)
        return args[spec.returns_arg] if spec.returns_arg < len(args) else None

    def hinted(self, call: TSNode) -> TSNode | None:
        """The condition a branch hint is given (``__builtin_expect(p == NULL, 0)``, or a call of
        a hint macro of the file: ``unlikely(p == NULL)``, :func:`extractors.count_macros.hint`),
        whose truth is the call's; None for any other call."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier":
            return None
        name = text_of(fn)
        args = args_of(call)
        if name in EXPECT and len(args) >= 2:
            return args[0]
        macro = self.counts.get(name)
        if macro is not None and not object_like(macro) and len(args) == 1 and hint(macro):
            return args[0]
        return None

    def cond(self, expr: TSNode | None, preds: list[Pred]) -> tuple[list[Pred], list[Pred]]:
        e = strip_parens(expr)
        if e is None:
            return preds, []
        if e.type == "binary_expression":
            op = text_of(e.child_by_field_name("operator"))
            if op == "&&":
                t1, f1 = self.cond(e.child_by_field_name("left"), preds)
                t2, f2 = self.cond(e.child_by_field_name("right"), t1)
                return t2, f1 + f2
            if op == "||":
                t1, f1 = self.cond(e.child_by_field_name("left"), preds)
                t2, f2 = self.cond(e.child_by_field_name("right"), f1)
                return t1 + t2, f2
        if e.type == "unary_expression" and text_of(e.child_by_field_name("operator")) == "!":
            t, f = self.cond(e.child_by_field_name("argument"), preds)
            return f, t
        if e.type == "comma_expression":
            return self.cond(e.child_by_field_name("right"), self.expr_node(e.child_by_field_name("left"), preds))
        if e.type == "call_expression" and (hinted := self.hinted(e)) is not None:
            return self.cond(hinted, preds)
        if e.type == "conditional_expression":
            tc, fc = self.cond(e.child_by_field_name("condition"), preds)
            ta, fa = self.cond(e.child_by_field_name("consequence"), tc)
            tb, fb = self.cond(e.child_by_field_name("alternative"), fc)
            return ta + tb, fa + fb
        preds, skip = self.lifted(e, preds)
        n = self.new("cond", e, facts=self.facts(e, skip=skip))
        node = self.cfg.nodes[n]
        node.null_test = null_test(e, self.returned_arg)
        node.cond = self.cond_form(e)
        node.indicator = condition_indicator(e, self.table)
        self.link(preds, n)
        return [(n, True)], [(n, False)]


_Readers = dict[str, frozenset[str]] | None
_WORDS = re.compile(r"[\w$]+")  # a text's words: a name is one of them, whole
_last_readers: list[tuple[CountMacros, _Readers]] = []  # one entry: the macros of the last file read


def _object_readers(counts: CountMacros) -> _Readers:
    """The object-like macros of ``counts`` whose bodies read names of their caller, with those
    names; None when there are none (most files).  Kept for the last ``counts`` seen (the entry
    holds it, so the object cannot be another one): a file's functions are built with one dict of
    its macros."""
    last = _last_readers[0] if _last_readers else None
    if last is not None and last[0] is counts:
        return last[1]
    reads = {
        name: got
        for name, macro in counts.items()
        if object_like(macro) and (got := reads_through(name, counts))
    }
    found = reads or None
    _last_readers[:] = [(counts, found)]
    return found


INCLUDE_LINE = re.compile(rb"^[ \t]*#[ \t]*include\b", re.M)  # an #include line in a text


def _volatile_names(s: TSNode) -> set[str]:
    """The names declaration ``s`` declares volatile themselves: under a ``volatile`` of the whole
    declaration when the declarator is the name (or an array of them), and ``*volatile p``."""
    whole = any(c.type == "type_qualifier" and text_of(c) == "volatile" for c in s.children)
    out: set[str] = set()
    for d in s.children_by_field_name("declarator"):
        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
        while inner is not None and inner.type == "array_declarator":
            inner = inner.child_by_field_name("declarator")
        if inner is None:
            continue
        if inner.type == "identifier" and whole:
            out.add(text_of(inner))
        elif inner.type == "pointer_declarator":
            named = inner.child_by_field_name("declarator")
            own = any(c.type == "type_qualifier" and text_of(c) == "volatile" for c in inner.children)
            if own and named is not None and named.type == "identifier":
                out.add(text_of(named))
    return out


_STEPS = frozenset(
    {"call_expression", "update_expression", "comma_expression", "gnu_asm_expression", "compound_statement"}
)


def _plain(e: TSNode) -> bool:
    """Whether ``e`` calls, steps and stores nothing but in its top-level assignment (or a
    declaration's initialisers): no call, ``++``, comma, ``asm``, statement expression, nor an
    assignment inside it."""
    top = strip_parens(e)
    stack = [e]
    while stack:
        n = stack.pop()
        if n.type in _STEPS or (n.type == "assignment_expression" and n != top):
            return False
        stack.extend(n.named_children)
    return True


def _ternaries(e: TSNode) -> list[TSNode]:
    """The outermost conditional expressions in ``e``, in the order of its text (not in ``sizeof``)."""
    out: list[TSNode] = []
    stack = [e]
    while stack:
        n = stack.pop()
        if n.type == "conditional_expression":
            out.append(n)
        elif n.type not in ("sizeof_expression", "alignof_expression"):
            stack.extend(reversed(n.named_children))
    return out


_PURE = frozenset(
    {
        "identifier", "number_literal", "char_literal", "string_literal", "concatenated_string", "true", "false",
        "null", "parenthesized_expression", "binary_expression", "cast_expression", "type_descriptor",
        "sizeof_expression", "alignof_expression", "comment", "primitive_type", "type_identifier",
        "sized_type_specifier", "abstract_pointer_declarator", "struct_specifier", "type_qualifier",
    }
)


def _pure_arm(e: TSNode | None) -> bool:
    """Whether a ternary's arm only reads values: names, literals, arithmetic, casts, ``s.f`` (no
    dereference, call, store or nested ternary), so its events are reads and nothing else."""
    if e is None:
        return False
    stack = [e]
    while stack:
        n = stack.pop()
        if n.type == "unary_expression" and text_of(n.child_by_field_name("operator")) in ("-", "+", "!", "~"):
            stack.extend(n.named_children)
            continue
        if n.type == "field_expression" and text_of(n.child_by_field_name("operator")) == ".":
            stack.extend(n.named_children[:1])  # the struct, not the field's name
            continue
        if n.type not in _PURE:
            return False
        if n.type not in ("sizeof_expression", "alignof_expression"):
            stack.extend(n.named_children)
    return True


_SHOUTED = re.compile(r"_*[A-Z][A-Z0-9]*_[A-Z0-9_]*|_*[A-Z]{2,}[0-9]*")  # a macro's name, by convention
# a macro named for returning: one word before RETURN at most (Py_), and none after it that makes
# it conditional (RETURN_IF_ERROR, RETURN_ON_FAIL)
_RETURNING = re.compile(r"(?:[A-Za-z0-9]+_)?RETURN(?:_[A-Z0-9]+)*")
_CONDITIONAL = frozenset({"IF", "UNLESS", "ON", "WHEN", "ERR", "ERROR", "FAIL", "FAILED", "CHECK", "VAL"})


def _lone_name(s: TSNode) -> TSNode | None:
    """The identifier a statement ``NAME;`` is made of, or None."""
    if s.type != "expression_statement":
        return None
    inner = [c for c in s.named_children if c.type != "comment"]
    return inner[0] if len(inner) == 1 and inner[0].type == "identifier" else None


_NOTHING: CountMacro = (OBJECT_LIKE, ";")  # an object-like macro read as an empty statement
# what no declarator starts with: a statement's keyword, or a name followed by a member access
_STATEMENT_AFTER = re.compile(
    r"\s*(?:(?:case|default|return|if|for|while|do|switch|break|continue|goto)\b|[A-Za-z_]\w*\s*(?:->|\.(?!\.)))"
)


def misread_statement_macro(s: TSNode, counts: CountMacros) -> bool:
    """Whether declaration ``s`` is a statement macro of ``counts`` written without its ``;``
    (``ARG_FETCH`` of ``#define ARG_FETCH Parse *pParse = p->pParse;``) that tree-sitter read as
    the type of the next statement: no declaration at all, but the macro's statements and that
    one, as :meth:`CfgBuilder.statement_expansion` builds them."""
    typed = _declared_type(s)
    return typed is not None and _type_read_as_statement(s, typed, counts) is not None


def _type_read_as_statement(s: TSNode, typed: TSNode, counts: CountMacros) -> CountMacro | None:
    """The macro that ``typed``, the type tree-sitter read declaration ``s`` with, really is when
    it is a statement's start and no type: a macro of ``counts`` whose body ends a statement, or
    :data:`_NOTHING` for a name no declaration reads so (``NAME p->n = 0;``, ``NAME case 6:``,
    a name alone on its line before ``(void)x;``), a macro that expands to nothing, or to
    statements this file does not define; None when ``typed`` is a type as written (also
    ``NAME(type) x;`` of a function-like ``NAME``)."""
    macro = counts.get(text_of(typed))
    if macro is not None:
        if typed.type == "identifier" and not object_like(macro):
            return None
        return macro if macro[1].rstrip().endswith((";", "}")) else None
    if _before_void_cast(typed) or (
        s.has_error and _STATEMENT_AFTER.match(text_of(s), typed.end_byte - s.start_byte)
    ):
        return _NOTHING
    return None


def _before_void_cast(name: TSNode) -> bool:
    """Whether ``name`` is a macro's name alone on its line before a ``(void)x;`` statement, which
    tree-sitter reads as a declaration of ``x`` of the macro type ``name(void)`` (SQLite's parser:
    ``sqlite3ParserARG_FETCH`` defined empty, then ``(void)yyLookahead;``): a type's macro is not
    written across a line break before ``(void)``."""
    spec = name.parent
    if spec is None or spec.type != "macro_type_specifier":
        return False
    ty = spec.child_by_field_name("type")
    if ty is None or text_of(ty).strip() != "void":
        return False
    between = spec.text[name.end_byte - spec.start_byte : ty.start_byte - spec.start_byte] if spec.text else b""
    return b"\n" in between


def _declared_type(s: TSNode) -> TSNode | None:
    """The type name a declaration ``s`` starts with (``sqlite3ParserCTX_STORE`` of
    ``sqlite3ParserCTX_STORE yypParser->yystack = 0;``, where an object-like statement macro without
    its ``;`` made tree-sitter read the next statement as a declaration of that type), or None."""
    if s.type != "declaration":
        return None
    first = s.named_children[0] if s.named_children else None
    if first is not None and first.type == "macro_type_specifier":
        # ``ARG_FETCH`` then ``(void)lookahead;``: the name and the parenthesised type after it
        # read as a macro's type (``NAME(type)``); only an object-like macro is read so here
        return first.child_by_field_name("name")
    return first if first is not None and first.type == "type_identifier" else None


def returning_macro(e: TSNode | None) -> bool:
    """Whether statement expression ``e`` is a macro that returns from the function, by its name
    (``Py_RETURN_NONE;``, ``Py_RETURN_RICHCOMPARE(a, b, op);``). C gives a bare name as a
    statement no meaning of its own, so such a statement is a macro, and going on past it would
    run code the author never reaches (the cleanup under the next label, with the locals it reads
    unset)."""
    if e is None:
        return False
    if e.type == "call_expression":
        e = e.child_by_field_name("function")
    if e is None or e.type != "identifier":
        return False
    name = text_of(e)
    return _RETURNING.fullmatch(name) is not None and not _CONDITIONAL.intersection(name.split("_"))


_BINOPS = {"==", "!=", "<", ">", "<=", ">=", "&&", "||", "+", "-", "*", "&", "|"}


_ITERATION = re.compile(r"(?i)(?:^|_)for_?each(?:_|$)")  # SLIST_FOREACH, list_for_each_entry, FOR_EACH


def _called(s: TSNode | None) -> TSNode | None:
    """The name statement ``s`` calls when it is one call of a named function alone, else None."""
    named = [c for c in s.named_children if c.type != "comment"] if s is not None else []
    e = named[0] if len(named) == 1 and named[0].type == "call_expression" else None
    fn = e.child_by_field_name("function") if e is not None else None
    return fn if fn is not None and fn.type == "identifier" else None


def _iteration_args(s: TSNode | None) -> list[TSNode] | None:
    """The arguments of the iteration macro (:data:`_ITERATION`) statement ``s`` calls, alone;
    None when ``s`` is no such call."""
    fn = _called(s)
    if fn is None or _ITERATION.search(text_of(fn)) is None:
        return None
    e = fn.parent
    assert e is not None
    args = e.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def _iteration_call(s: TSNode) -> bool:
    """Whether statement ``s`` is a lone call of an iteration macro whose ``;`` tree-sitter had to
    make up."""
    missing = s.type == "expression_statement" and bool(s.children) and s.children[-1].is_missing
    return missing and _iteration_args(s) is not None


def _iteration_cursors(call: TSNode | None, declared: Mapping[str, bool]) -> list[str]:
    """The names an iteration macro written before its block sets before its body runs:
    - its cursor (``SLIST_FOREACH(k, &head, link)``, ``list_for_each_entry(pos, &list, member)``),
      its first argument when that is a plain name and others follow, which the cursor starts
      from (a lone argument, ``FOR_EACH_NODE(p)``, may be where the walk starts: read, not set);
    - the next-element temporary of a ``_SAFE`` walk, when it is a local of the function: the
      BSD macros' last argument (``RB_FOREACH_SAFE(x, name, head, tmp)``, ``TAILQ_FOREACH_SAFE(x,
      head, field, tmp)``), Linux's second (``list_for_each_entry_safe(pos, n, head, member)``)."""
    given = _iteration_args(call) or []
    if len(given) < 2 or given[0].type != "identifier":
        return []
    out = [text_of(given[0])]
    name = text_of(_called(call))
    if len(given) >= 3 and re.search(r"(?i)_safe$", name):
        temp = given[-1] if name.isupper() else given[1]
        if temp.type == "identifier" and text_of(temp) in declared:
            out.append(text_of(temp))
    return out


def elif_chain(s: TSNode) -> tuple[list[TSNode], TSNode | None]:
    """The ``#if``/``#elif`` branches of the conditional whose ``#if`` is ``s``, in order, and its
    ``#else`` (None without one)."""
    chain, alt = [s], s.child_by_field_name("alternative")
    while alt is not None and alt.type in _ELIF:
        chain.append(alt)
        alt = alt.child_by_field_name("alternative")
    return chain, alt


def directive(s: TSNode) -> tuple[str, str] | None:
    """The kind and condition text of ``#if``/``#ifdef``/``#ifndef``/``#elif``/``#elifdef`` node
    ``s`` (None for another node)."""
    first = s.children[0] if s.children else None
    kind = text_of(first).lstrip("#").strip() if first is not None else ""
    arg = s.child_by_field_name("condition") or s.child_by_field_name("name")
    if arg is None or kind not in ("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"):
        return None
    return kind, text_of(arg)


def directive_condition(s: TSNode, defines: Defines) -> bool | None:
    """Whether the defines select the branch of ``#if``/``#ifdef``/``#ifndef``/``#elif``/
    ``#elifdef`` node ``s`` (None: they do not decide)."""
    d = directive(s)
    return condition(*d, defines) if d is not None else None


def _no_arrays(name: str) -> bool:
    """Without a function's declarations no name is known to be an array."""
    return False


def cond_expr(
    e: TSNode | None,
    counts: CountMacros = NO_COUNT_MACROS,
    depth: int = 0,
    arrays: Callable[[str], bool] = _no_arrays,
) -> CondExpr:
    """A small evaluable form of a condition over names and integer literals (None if not one).
    A call of one of ``counts`` (``ARRAY_SIZE(tab)``) is read through its expansion when that is
    ``POSITIVE`` (a size, an element count): only then, so a macro that may be 0 stays unknown;
    macros in the expansion are followed :data:`MAX_EXPANSION` deep (a cycle of defines ends).
    ``arrays`` says which names are arrays of known size (:meth:`CfgBuilder.sized_array`): only
    their element count ``sizeof a / sizeof a[0]`` is ``POSITIVE``; ``sizeof x`` alone always is."""
    e = strip_parens(e)
    if e is None:
        return None
    t = e.type
    if t == "number_literal":
        try:
            return ("lit", int(text_of(e).rstrip("uUlL"), 0))
        except ValueError:
            return None
    if t in ("true", "false"):
        return ("lit", 1 if t == "true" else 0)
    if t == "identifier":
        macro = counts.get(text_of(e))
        if (
            macro is not None
            and object_like(macro)
            and depth < MAX_EXPANSION
            and _read_through(macro[1], counts, depth, arrays) == POSITIVE
        ):
            return POSITIVE  # ``#define BUFSIZE (16 * sizeof(void *))``
        return ("var", text_of(e))
    if t == "sizeof_expression" or (t == "binary_expression" and _element_count(e, arrays)):
        return POSITIVE  # never 0: a loop ``for (i = 0; i < sizeof buf; i++)`` runs at least once
    if t == "cast_expression":  # a size converted to an integer type is still one
        inner = cond_expr(e.child_by_field_name("value"), counts, depth, arrays)
        return POSITIVE if inner == POSITIVE else None
    if t == "call_expression":  # known only when the callee returns one constant: ``name()``
        callee = e.child_by_field_name("function")
        if callee is None or callee.type != "identifier":
            return None
        macro = counts.get(text_of(callee))
        if macro is not None and object_like(macro):
            macro = None  # ``#define f g``: what ``f(x)`` calls is no size
        if macro is not None and depth < MAX_EXPANSION and _expanded(e, macro, counts, depth, arrays) == POSITIVE:
            return POSITIVE
        return ("var", f"{text_of(callee)}()")
    if t == "unary_expression":
        op = text_of(e.child_by_field_name("operator"))
        inner = cond_expr(e.child_by_field_name("argument"), counts, depth, arrays)
        return ("un", op, inner) if inner is not None and op in ("!", "-") else None
    if t == "binary_expression":
        op = text_of(e.child_by_field_name("operator"))
        left = cond_expr(e.child_by_field_name("left"), counts, depth, arrays)
        right = cond_expr(e.child_by_field_name("right"), counts, depth, arrays)
        if op in ("*", "+") and _at_least_one(left) and _at_least_one(right) and POSITIVE in (left, right):
            return POSITIVE  # ``16 * sizeof(void *) * sizeof(double)``
        if op in _BINOPS and left is not None and right is not None:
            return ("bin", op, left, right)
    return None


def _at_least_one(c: CondExpr) -> bool:
    return c == POSITIVE or (c is not None and c[0] == "lit" and int(c[1]) >= 1)  # type: ignore[call-overload]


MAX_EXPANSION = 8  # macros of macros a condition is read through at most


def _expanded(
    call: TSNode, macro: CountMacro, counts: CountMacros, depth: int, arrays: Callable[[str], bool]
) -> CondExpr:
    """The form of macro call ``call`` read as the expression it expands to (None when the
    arguments do not fit the macro or the expansion is no expression)."""
    args = call.child_by_field_name("arguments")
    texts = [text_of(a) for a in (args.named_children if args is not None else []) if a.type != "comment"]
    text = expansion(macro, texts)
    return _read_through(text, counts, depth, arrays) if text is not None else None


def _read_through(text: str, counts: CountMacros, depth: int, arrays: Callable[[str], bool]) -> CondExpr:
    """The form of a macro's expansion ``text`` read as an expression (None when it is none)."""
    tree = parse_c(f"int __ctlsp_count = ({text});".encode())
    decl = tree.root_node.named_children[0] if tree.root_node.named_children else None
    init = decl.child_by_field_name("declarator") if decl is not None else None
    if tree.root_node.has_error or init is None or init.type != "init_declarator":
        return None
    return cond_expr(init.child_by_field_name("value"), counts, depth + 1, arrays)


def _parameter_names(decl: TSNode | None) -> frozenset[str]:
    """Every identifier in the parameter list of function declarator ``decl`` (K&R names too;
    a type name among them is harmless: it is no array anyone counts)."""
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    params = decl.child_by_field_name("parameters") if decl is not None else None
    out: set[str] = set()
    todo = [params] if params is not None else []
    while todo:
        n = todo.pop()
        if n.type == "identifier":
            out.add(text_of(n))
        todo.extend(n.named_children)
    return frozenset(out)


def _element_count(e: TSNode, arrays: Callable[[str], bool]) -> bool:
    """Whether binary expression ``e`` is ``sizeof a / sizeof a[0]`` (or ``/ sizeof *a``), the
    element count of array ``a`` (``arrays(a)``), which C makes at least 1 (no zero-length arrays;
    applied to a pointer, a parameter declared ``int a[]`` included, the idiom is itself the bug
    it is known for, and may give 0)."""
    if text_of(e.child_by_field_name("operator")) != "/":
        return False
    left, right = strip_parens(e.child_by_field_name("left")), strip_parens(e.child_by_field_name("right"))
    if left is None or right is None or left.type != "sizeof_expression" or right.type != "sizeof_expression":
        return False
    whole = _sizeof_operand(left)
    part = _sizeof_operand(right)
    if whole is None or part is None or whole.type != "identifier" or not arrays(text_of(whole)):
        return False
    if part.type == "subscript_expression":
        index = strip_parens(part.child_by_field_name("index"))
        base = strip_parens(part.child_by_field_name("argument"))
        zero = index is not None and index.type == "number_literal" and text_of(index) == "0"
        return zero and base is not None and text_of(base) == text_of(whole)
    if part.type == "pointer_expression" and text_of(part.child_by_field_name("operator")) == "*":
        base = strip_parens(part.child_by_field_name("argument"))
        return base is not None and text_of(base) == text_of(whole)
    return False


def _sizeof_operand(e: TSNode) -> TSNode | None:
    """The expression ``sizeof`` is applied to (None for ``sizeof(type)``)."""
    value = e.child_by_field_name("value")
    return strip_parens(value) if value is not None else None


def _bounds(c: CondExpr, env: dict[str, int]) -> tuple[int | None, int | None]:
    """What is known of ``c``'s value: its least and greatest values (None: no bound)."""
    if c is not None and c[0] == "pos":
        return 1, None
    v = evaluate(c, env)
    return v, v


def _ordered(op: object, left: CondExpr, right: CondExpr, env: dict[str, int]) -> int | None:
    """Comparison ``left op right`` decided by the operands' bounds alone (``0 < sizeof x``)."""
    if op in (">", ">="):
        op, left, right = ("<" if op == ">" else "<="), right, left
    (llo, lhi), (rlo, rhi) = _bounds(left, env), _bounds(right, env)
    if (llo is not None and llo < 0) or (rlo is not None and rlo < 0):
        return None  # ``sizeof`` is unsigned: a negative operand would be converted, not compared
    below = lhi is not None and rlo is not None and lhi < rlo  # left < right on every run
    above = llo is not None and rhi is not None and llo > rhi  # left > right on every run
    if op == "<":
        return 1 if below else 0 if (llo is not None and rhi is not None and llo >= rhi) else None
    if op == "<=":
        return 1 if (lhi is not None and rlo is not None and lhi <= rlo) else 0 if above else None
    if op == "==":
        return 0 if below or above else None
    if op == "!=":
        return 1 if below or above else None
    return None


def evaluate(c: CondExpr, env: dict[str, int]) -> int | None:
    """The value of ``c`` under ``env`` when it is decided (``POSITIVE`` is some value >= 1)."""
    if c is None:
        return None
    kind = c[0]
    if kind == "lit":
        return c[1]  # type: ignore[return-value]
    if kind == "var":
        return env.get(str(c[1]))
    if kind == "pos":
        return None
    if kind == "un":
        if c[1] == "!" and c[2] == POSITIVE:
            return 0
        v = evaluate(c[2], env)  # type: ignore[arg-type]
        if v is None:
            return None
        return int(not v) if c[1] == "!" else -v
    lv = evaluate(c[2], env)  # type: ignore[arg-type]
    rv = evaluate(c[3], env)  # type: ignore[arg-type]
    op = c[1]
    if op == "&&" and (lv == 0 or rv == 0):
        return 0
    if op == "||" and ((lv is not None and lv != 0) or (rv is not None and rv != 0)):
        return 1
    if lv is None or rv is None:
        return _ordered(op, c[2], c[3], env) if c[2] == POSITIVE or c[3] == POSITIVE else None  # type: ignore[arg-type]
    ops = {
        "==": lv == rv,
        "!=": lv != rv,
        "<": lv < rv,
        ">": lv > rv,
        "<=": lv <= rv,
        ">=": lv >= rv,
        "&&": bool(lv and rv),
        "||": bool(lv or rv),
    }
    if op in ops:
        return int(ops[op])
    return {"+": lv + rv, "-": lv - rv, "*": lv * rv, "&": lv & rv, "|": lv | rv}.get(str(op))


def _macro_type(s: TSNode) -> bool:
    """Whether function definition ``s`` (inside a body) is a name's call before a block."""
    ty = s.child_by_field_name("type")
    return ty is not None and ty.type == "type_identifier"


def _first_statement(text: bytes) -> tuple[Tree, TSNode | None]:
    """``text`` (a function of :data:`_WRAPPER`) parsed, and the first statement of its body;
    None when there is none or the parse has an error anywhere."""
    tree = parse_c(text)
    fn = tree.root_node.named_children[0] if tree.root_node.named_children else None
    body = fn.child_by_field_name("body") if fn is not None else None
    first = body.named_children[0] if body is not None and body.named_children else None
    return tree, None if tree.root_node.has_error else first
