"""What a CFG node does to a function's scalar locals, as z3 terms: the semantics refutation uses.

Each node's whole text (``CfgNode.source``) is parsed again and read as C: assignments and
initialisers of tracked locals, ``++``/``--``, integer arithmetic, comparisons, ``!``/``&&``/``||``/
``?:`` and NULL tests.  A node's effect maps the values of the tracked locals before it to their
values after it, plus, for a condition, the truth of the condition (over the values before it and
what the condition itself computes).

Soundness invariant (refutation only removes paths that cannot run): every concrete execution of
a node is a model of its effect.  Hence anything not understood is *unconstrained*, never
guessed:

- Only locals and parameters are tracked whose every write is visible in the function's text: not
  address-taken, not static or extern, not volatile, not arrays or aggregates, declared once (a
  shadowing declaration in an inner block would make one name two variables).  Every other read
  (globals, fields, ``*p``, calls, casts to other types) is a fresh unknown value, but for:
- Fields the function's tests read through a tracked pointer (``c->n``, ``c->a.b``; at most
  :data:`MAX_FIELDS`, none in a function that says ``volatile`` or ``_Atomic``): one value from
  one read to the next, forgotten wherever memory may change unseen: a call (but of a few library
  functions that store nothing, :data:`_NO_STORES`), a store to anything but a tracked local (a
  field, ``*p``, ``a[i]``, a global: any may be or overlap it), ``asm``, a node not read, and a
  new value of the pointer.  Their type is not known here, so a field is a real (every integer,
  float and address is one; kind ``f``): its order with a literal that is not negative is exact
  (a negative one converts to a large value for an unsigned field), ``if (s->n)`` is ``s->n != 0``,
  and anything else of it is as unknown as a value of no kind.  The path condition is of one
  thread: a field another thread stores to between two reads is not the program's sequential run.
- Integer semantics are exact only where C's are plain integers: signed arithmetic (overflow is
  undefined behaviour, so a defined run never wraps); comparisons of operands of one signedness, or
  of any operand with a literal the conversion keeps (``u < 5``, not ``u == -1``).  Unsigned
  arithmetic, mixed signedness, shifts, division, bit operations and integer casts give values
  (and tests) that are uninterpreted functions of their operands: unconstrained, but the same for
  the same operands, so ``if (n % 4 == 0) ...; if (n % 4) ...`` are complementary.  A local of a
  typedef this module does not know (``lua_Integer``, or ``lua_Number``, a double) is a z3 *real*:
  the integers are among the reals, so every run is still a model.
- ``sizeof`` and ``_Alignof`` are unknown ``size_t`` values of at least 1.
- Pointers are integers with NULL as 0: ``p == NULL``, ``!p``, ``p = q``, ``p = NULL``, ``p == q``
  are exact; everything not below is unknown (parameters, globals, fields, results of calls).
- A name in capitals the file does not define (a macro of a header it does not read:
  ``MAP_FAILED``, ``INVALID_HANDLE_VALUE``) is one unknown value wherever it is named (kind
  ``m``): a pointer set to it and compared with it (``p = MAP_FAILED; ... if (p != MAP_FAILED)``)
  is exact; its other uses are as unknown as any value of no kind.
- Frame addresses: the address of an automatic local or parameter ``x`` of the function (``&x``, and
  an array ``a`` read as a value) is a *constant* of its own, a distinct negative integer (``-1``,
  ``-2``, ... by name), so it is not NULL, not another local's address, and equal to itself on
  every path (``char *buf = small; ... if (buf != small)``).  One frame suffices: the path
  condition speaks of one run of the checked function, a callee's steps are unconstrained.  Only
  names declared once (the tracked locals' rule: one name is one object) that are not ``static``
  or ``extern`` (their address outlives the frame and is shared across calls) have one; the
  address of a part (``&a[i]``, ``&s.f``, whose address may be the whole's) and of a string
  literal is only not 0.
- Heap addresses: a non-NULL result of a call the table says ``returns = "alloc"`` (``malloc``),
  or of one that opens a new stream (:data:`_NEW_STREAMS`: ``fopen``, not ``freopen``, which
  gives back the stream it is handed), is positive (never a frame address: a fresh block is no
  local's storage), a NULL one 0, as the node's ``post`` (``r >= 0``, ``r > 0`` for a
  ``nonnull`` allocator).  Unknown pointers stay unconstrained integers: a parameter may hold any
  address, a frame's included, so a comparison with one decides nothing.
- The standard streams ``stdin``, ``stdout`` and ``stderr`` are constants of their own, distinct
  negative integers past the frame's addresses: never NULL, never a fresh block or stream, each
  the same on every path; not in a function whose text stores to one or takes one's address
  (glibc lets a program assign ``stdout``), nor where a local or parameter takes the name.
- A write this module did not read itself (a macro that assigns a local by name, a library
  function given a local to define) makes the local unknown: the node's events (``def``, ``write``)
  and calls are a second, independent account of what it writes, and both are honoured.
- A call of a project function with known outcomes (:mod:`extractors.call_outcomes`) relates its
  result and the locals ``x`` it is handed as ``&x`` by one of the callee's alternatives (the
  effect's ``post``); such a local is tracked although its address is taken, when every ``&x`` in
  the text is an argument a callee's outcomes speak of (so every write of it is still seen).
- A pointer parameter the function never compares, negates, copies or tests (:meth:`FunctionSemantics.
  assumed`) is not NULL at the entry: the rules read such a parameter as a caller's valid
  object (its dereference is no finding), so a run that needs it NULL is the caller's bug, not
  one of this function.  A function that tests it says it may be NULL, and is left alone.  The
  fact is stated only of parameters handed to a callee that may return them (``FromArgument``):
  the one reading that asks about it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import z3
from tree_sitter import Node as TSNode

from extractors.call_outcomes import FIXED_TYPES, NONNULL, WRITES, CallOutcomes, FromArgument, number_value
from extractors.calls import CallSpec
from extractors.cfg import Cfg, CfgNode
from extractors.macro_calls import plain_name
from extractors.parse import parse_c, strip_parens, text_of

# kinds of values: "s<w>" signed, "u<w>" unsigned, "p" pointer, "b" 0/1 of a test, "lit" an integer
# literal, "t:<type>" a typedef this module does not know (a real), "m" a macro constant the file
# does not define (the same value wherever it is named), "f" a field of a type not known here (a
# real: every integer, float and address is one), "?" unknown (no exact operation)
FIELD = "f"
_SIGNED = {"int": 32, "long": 64, "short": 16, "signed": 32}
_ARITH = frozenset({"+", "-", "*"})
_CMP = frozenset({"==", "!=", "<", ">", "<=", ">="})
# a name in capitals that is no local: a macro from a header the file does not read (``MAP_FAILED``,
# ``INVALID_HANDLE_VALUE``, ``EOF``); a global variable in capitals would be read as one as well
_MACRO_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,}[0-9]*")
MAX_FIELDS = 24  # fields a function's path conditions follow at most (those its tests read first)
# library functions that store nothing a later read of a field can see (an allocator's own records
# are no object of the program's; a freed block's fields are not read again in a defined run)
_NO_STORES = frozenset({
    "free", "malloc", "calloc", "aligned_alloc", "strlen", "strnlen", "strcmp", "strncmp", "memcmp",
    "strchr", "strrchr", "strstr", "abs", "labs", "llabs", "isalpha", "isdigit", "isalnum", "isspace",
    "isupper", "islower", "isxdigit", "isprint", "toupper", "tolower",
})
_SHARED = re.compile(r"\b(?:volatile|_Atomic)\b")  # a value another thread or a device may change
# library functions whose non-NULL result is a stream or directory no other pointer names yet
_NEW_STREAMS = frozenset({"fopen", "tmpfile", "popen", "fmemopen", "open_memstream", "opendir", "fdopen", "fdopendir"})
_STREAMS = ("stdin", "stdout", "stderr")
_STREAM_STORE = re.compile(r"\b(?:stdin|stdout|stderr)\s*=(?!=)|&\s*\(?\s*(?:stdin|stdout|stderr)\b")


@dataclass(frozen=True)
class Value:
    """A C value: its term, kind, the integer when it is a literal, and its truth when it is a test."""

    term: z3.ExprRef
    kind: str
    lit: int | None = None
    test: z3.BoolRef | None = None


@dataclass
class Effect:
    """What one execution of a node does: values after it (``env``), the condition's truth for a
    test node (None when not understood or not a test), the tracked locals it may write, facts
    every execution satisfies (``side``: a string literal's address is not NULL), and facts of the
    values it computes that come from what its calls do (``post``: a callee's outcomes, an
    allocator's result being NULL or a heap address), which the refutation tracks with the node's
    assignments."""

    env: dict[str, z3.ExprRef]
    cond: z3.BoolRef | None
    written: frozenset[str]
    side: list[z3.BoolRef] = field(default_factory=list)
    post: list[z3.BoolRef] = field(default_factory=list)


class Fresh:
    """Unique names for unknown values; ``prefix`` keeps the names of two users apart."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._n = itertools.count()

    def name(self, hint: str) -> str:
        return f"{self.prefix}{hint}!{next(self._n)}"


def is_fresh(name: str) -> bool:
    return "!" in name


def symbol(var: str, sort: z3.SortRef) -> z3.ExprRef:
    """The current value of tracked local ``var`` (what facts about a program state speak of)."""
    return z3.Const(f"v:{var}", sort)


def uninterpreted(e: z3.ExprRef) -> Iterator[z3.ExprRef]:
    """The uninterpreted constants in ``e``, each once."""
    stack, seen = [e], set()
    while stack:
        x = stack.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            yield x
        stack.extend(x.children())


def constants(e: z3.ExprRef) -> frozenset[str]:
    """The names of the uninterpreted constants in ``e``."""
    return frozenset(x.decl().name() for x in uninterpreted(e))


def _literal(text: str) -> int | None:
    return number_value(text)


def _char_literal(text: str) -> int | None:
    m = re.fullmatch(r"'(.)'", text)
    if m:
        return ord(m.group(1))
    return {"'\\0'": 0, "'\\n'": 10, "'\\t'": 9, "'\\r'": 13, "'\\\\'": 92, "'\\''": 39}.get(text)


def _kind_of_type(type_node: TSNode | None) -> str | None:
    """The kind of a declared non-pointer scalar type; None for types not tracked (floats, aggregates)."""
    if type_node is None:
        return None
    t, text = type_node.type, " ".join(text_of(type_node).split())
    if t in ("primitive_type", "type_identifier"):
        if text in FIXED_TYPES:
            return FIXED_TYPES[text]
        m = re.fullmatch(r"(u?)int(8|16|32|64)_t", text)
        if m:
            return f"{'u' if m.group(1) else 's'}{m.group(2)}"
    if t == "primitive_type":
        if text in _SIGNED:
            return f"s{_SIGNED[text]}"
        if text in ("char", "bool", "_Bool"):
            return f"t:{text}"  # char's signedness is the platform's; bool keeps 0/1
        return None
    if t == "sized_type_specifier":
        words = text.split()
        if any(w in ("float", "double") for w in words):
            return None
        width = 8 if "char" in words else 16 if "short" in words else 64 if "long" in words else 32
        return f"u{width}" if "unsigned" in words else f"s{width}"
    if t == "type_identifier":
        return f"t:{text}"
    if t == "enum_specifier":
        return f"t:enum {text}"
    return None


def _declarators(decl: TSNode) -> Iterable[tuple[str, str | None]]:
    """(name, kind or None) of each variable a declaration (or parameter) declares."""
    ty = decl.child_by_field_name("type")
    quals = {text_of(c) for c in decl.children if c.type in ("type_qualifier", "storage_class_specifier")}
    base = None if quals & {"volatile", "static", "extern", "register_unused"} else _kind_of_type(ty)
    for d in decl.children_by_field_name("declarator"):
        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
        pointer, ok = False, True
        while inner is not None and inner.type != "identifier":
            if inner.type == "pointer_declarator":
                pointer = True
                if any(c.type == "type_qualifier" and text_of(c) == "volatile" for c in inner.children):
                    ok = False
            elif inner.type != "parenthesized_declarator":
                ok = False  # arrays, function declarators
            inner = _inside(inner)
        if inner is None:
            continue
        kind = ("p" if not (quals & {"volatile"}) else None) if pointer else base
        yield text_of(inner), kind if ok else None


def _inside(declarator: TSNode) -> TSNode | None:
    """The declarator one level nearer the name (through parentheses too)."""
    if declarator.type == "parenthesized_declarator":
        return declarator.named_children[0] if declarator.named_children else None
    return declarator.child_by_field_name("declarator")


def _objects(decl: TSNode) -> Iterable[tuple[str, bool | None]]:
    """(name, whether an array) of each object a declaration (or parameter) gives automatic storage
    in the frame; None instead of the flag for a name that is no frame object (``static`` or
    ``extern`` storage, a local prototype).  The declarator nearest the name decides its type
    (``char *a[4]`` is an array, ``char (*p)[4]`` a pointer); a parameter is never an array (C
    adjusts ``char b[]`` to a pointer)."""
    storage = {text_of(c) for c in decl.children if c.type == "storage_class_specifier"}
    parameter = decl.type == "parameter_declaration"
    for d in decl.children_by_field_name("declarator"):
        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
        nearest: str | None = None
        while inner is not None and inner.type != "identifier":
            if inner.type != "parenthesized_declarator":
                nearest = inner.type
            inner = _inside(inner)
        if inner is None:
            continue
        if storage & {"static", "extern"} or nearest == "function_declarator":
            yield text_of(inner), None
        else:
            yield text_of(inner), nearest == "array_declarator" and not parameter


def _sort(kind: str) -> z3.SortRef:
    return z3.RealSort() if kind.startswith("t:") or kind == FIELD else z3.IntSort()


def _parse_statement(source: str) -> TSNode | None:
    """The first statement of ``source`` read as a function body; None when it does not parse."""
    tree = parse_c(f"void __ctlsp_f(void) {{\n{source}\n;}}")
    root = tree.root_node
    if root.has_error:
        return None
    fn = root.named_children[0] if root.named_children else None
    body = fn.child_by_field_name("body") if fn is not None else None
    stmts = [c for c in body.named_children if c.type != "comment"] if body is not None else []
    return stmts[0] if stmts else None


class FunctionSemantics:
    """The effects of one function's CFG nodes (parsed once per node, read per call of :meth:`effect`).

    ``table``: the call table, to see which calls define a local handed to them (macros that assign
    their argument); ``outcomes``: the project functions called whose outcomes are known, by the
    name the calls use."""

    def __init__(
        self,
        cfg: Cfg,
        params: tuple[str, ...],
        table: Mapping[str, CallSpec],
        outcomes: Mapping[str, CallOutcomes] | None = None,
    ) -> None:
        self.cfg = cfg
        self.table = table
        self.outcomes: Mapping[str, CallOutcomes] = outcomes or {}
        self._trees: dict[int, TSNode | None] = {}
        # the frame's objects that have an address of their own: name -> (address, whether an array)
        self.frame: dict[str, tuple[int, bool]] = {}
        self.params = frozenset(params)
        self.kinds = self._tracked(params)
        # the fields the tests read through a tracked pointer: values of kind "?" like the locals'
        self.fields = self._fields()
        self._rooted: dict[str, tuple[str, ...]] = {}
        for path in sorted(self.fields):
            self.kinds[path] = FIELD
            root = field_root(path)
            self._rooted[root] = (*self._rooted.get(root, ()), path)
        self.streams = self._streams()
        self._symbols: dict[str, z3.ExprRef] | None = None

    def assumed(self, env: Mapping[str, z3.ExprRef]) -> list[z3.BoolRef]:
        """What holds at the entry, over the entry's values ``env``: each pointer parameter the
        text never tests is not NULL (see the module's doc), of those handed whole to a callee
        whose result may be that argument (:class:`FromArgument`), the only reading that asks.
        (A fact no test asks about still changes the unsat cores, hence what refinement tracks.)"""
        return [env[p] != 0 for p in self._trusted if p in self._passed_through]

    @cached_property
    def _passed_through(self) -> frozenset[str]:
        """The names handed whole, as an argument, to a callee whose outcomes may return it."""
        out: set[str] = set()
        for n in self.cfg.nodes:
            for c in n.calls:
                known = self.outcomes.get(c.name) if c.name else None
                if known is None:
                    continue
                for returned, _ in known.alternatives:
                    if isinstance(returned, FromArgument) and returned.k < len(c.args):
                        arg, byaddr = c.args[returned.k]
                        if arg is not None and not byaddr:
                            out.add(arg)
        return frozenset(out)

    @cached_property
    def _trusted(self) -> tuple[str, ...]:
        """The tracked pointer parameters no node tests: never a NULL test, never compared,
        negated, used as a truth value or copied, nor named whole in a test's text at all (``if
        (valid(p))``: whatever the callee makes of it)."""
        out = []
        for p in sorted(self.params):
            if self.kinds.get(p) != "p":
                continue
            name = re.escape(p)
            whole = rf"(?<![\w.>]){name}\b(?!\s*(?:->|\[|\.))"  # p itself, not p->f, p[i]
            # compared, negated, a truth value, or copied (``cur = p; if (!cur)`` tests p too)
            shapes = re.compile(
                rf"(?<![\w.>]){name}\s*(?:==|!=|&&|\|\||\?)|(?:==|!=|&&|\|\||!)\s*\(?\s*{whole}"
                rf"|(?:(?<![=!<>])=(?!=)|[?:])\s*(?:\([^()]*\)\s*)*\(?\s*{whole}"
            )
            if any(n.null_test is not None and n.null_test[0] == p for n in self.cfg.nodes):
                continue
            if any(
                n.source and (shapes.search(n.source) or n.kind in ("cond", "switch") and re.search(whole, n.source))
                for n in self.cfg.nodes
                if n.kind not in ("entry", "exit")
            ):
                continue
            out.append(p)
        return tuple(out)

    def _streams(self) -> dict[str, int]:
        """The standard streams' addresses (see the module docstring): past the frame's, by name."""
        if any(n.source and _STREAM_STORE.search(n.source) for n in self.cfg.nodes):
            return {}
        past = len(self.frame)
        named = self.params | self.cfg.declared.keys()
        return {name: -(past + 1 + k) for k, name in enumerate(_STREAMS) if name not in named}

    def _tracked(self, params: tuple[str, ...]) -> dict[str, str]:
        """The tracked locals and their kinds; fills :attr:`frame` by the same rule of one
        declaration per name."""
        seen: dict[str, int] = {}
        kinds: dict[str, str | None] = {}
        shapes: dict[str, bool | None] = {}
        entry = self.cfg.nodes[self.cfg.entry]
        proto = _parse_statement(f"int {entry.source};") if entry.source else None
        fdecl = proto.child_by_field_name("declarator") if proto is not None else None
        while fdecl is not None and fdecl.type != "function_declarator":
            fdecl = fdecl.child_by_field_name("declarator")
        plist = fdecl.child_by_field_name("parameters") if fdecl is not None else None
        for p in plist.named_children if plist is not None else []:
            if p.type == "parameter_declaration":
                for name, kind in _declarators(p):
                    seen[name] = seen.get(name, 0) + 1
                    kinds[name] = kind
                shapes.update(_objects(p))
        in_body: dict[str, int] = {}
        for region in self._variants():
            here: dict[str, int] = {}
            for i in region:
                n = self.cfg.nodes[i]
                if n.kind != "decl":
                    continue
                tree = self.tree(n)
                if tree is None or tree.type != "declaration":
                    for word in re.findall(r"[A-Za-z_]\w*", n.source):
                        here[word] = here.get(word, 0) + 2  # a declaration not read: nothing it may declare
                    continue
                for name, kind in _declarators(tree):
                    here[name] = here.get(name, 0) + 1
                    if kinds.get(name, kind) != kind:
                        here[name] += 2  # two types in two builds: not one variable's values
                    kinds[name] = kind
                shapes.update(_objects(tree))
            for name, count in here.items():
                in_body[name] = max(in_body.get(name, 0), count)
        for name, count in in_body.items():
            seen[name] = seen.get(name, 0) + count
        bad = (self.cfg.frame_addressed - self._handed_to_outcomes()) | self.cfg.static_locals
        out = {}
        for name, kind in kinds.items():
            known = name in params or name in self.cfg.declared
            if kind is not None and seen.get(name) == 1 and name not in bad and known:
                out[name] = kind
        objects = sorted(
            (name, array)
            for name, array in shapes.items()
            if array is not None
            and seen.get(name) == 1
            and name not in self.cfg.static_locals
            and (name in params or name in self.cfg.declared)
        )
        self.frame = {name: (-(k + 1), array) for k, (name, array) in enumerate(objects)}
        return out

    def _fields(self) -> frozenset[str]:
        """The fields a test of the function reads through a tracked pointer (``c->n``,
        ``c->a.b``), at most :data:`MAX_FIELDS` of them in the order the tests read them, and none
        in a function whose text says ``volatile`` or ``_Atomic`` (a field another thread or a
        device changes between two reads).  Read with the path's text as its name; see
        :meth:`_Reader.forget_fields` for when a value is forgotten."""
        nodes = self.cfg.nodes
        if any(n.kind in ("entry", "decl") and _SHARED.search(n.source) for n in nodes):
            return frozenset()
        found: dict[str, None] = {}
        for n in nodes:
            if n.kind not in ("cond", "switch") or not n.source:
                continue
            tree = self.tree(n)
            stack = [tree] if tree is not None else []
            while stack and len(found) < MAX_FIELDS:
                e = stack.pop()
                path = field_path(e, self.kinds) if e.type == "field_expression" else None
                if path is not None:
                    found[path] = None
                stack.extend(reversed(e.named_children))
        return frozenset(found)

    def _variants(self) -> list[list[int]]:
        """The function's nodes by build: the CFG of a function whose text has preprocessor
        variants starts each variant's body on its own edge out of the entry, and no run goes
        from one to another, so a local declared once in each is one variable per run.  When the
        bodies share nodes (or there is one), all nodes are one region."""
        cfg = self.cfg
        starts = [j for j, _ in cfg.succ[cfg.entry]]
        everything = list(range(len(cfg.nodes)))
        if len(set(starts)) < 2:
            return [everything]
        regions: list[list[int]] = []
        owner: dict[int, int] = {}
        for k, start in enumerate(dict.fromkeys(starts)):
            stack, region = [start], []
            while stack:
                i = stack.pop()
                if i == cfg.exit or i in owner and owner[i] == k:
                    continue
                if i in owner:
                    return [everything]
                owner[i] = k
                region.append(i)
                stack.extend(j for j, _ in cfg.succ[i])
            regions.append(region)
        return regions

    def _handed_to_outcomes(self) -> set[str]:
        """The locals whose every ``&x`` is an argument of a call whose outcomes speak of it."""
        handed: dict[str, bool] = {}
        for n in self.cfg.nodes:
            if n.kind in ("entry", "exit"):
                continue
            counts: dict[str, int] = {}
            for c in n.calls:
                known = self.outcomes.get(c.name) if c.name else None
                for k, (arg, byaddr) in enumerate(c.args):
                    if byaddr and arg is not None and re.fullmatch(r"\w+", arg):
                        ok = known is not None and k in known.params
                        counts[arg] = counts.get(arg, 0) + 1
                        handed[arg] = handed.get(arg, True) and ok
            for name, count in counts.items():
                taken = len(re.findall(rf"(?<!&)&\s*\(?\s*{re.escape(name)}\b", n.source))
                if taken != count:
                    handed[name] = False
            for name in self.cfg.frame_addressed:
                if name not in counts and re.search(rf"(?<!&)&\s*\(?\s*{re.escape(name)}\b", n.source):
                    handed[name] = False
        return {name for name, ok in handed.items() if ok}

    def _allocators(self, n: CfgNode) -> dict[str, bool]:
        """The names, as the node's text spells them, of the allocators it calls (the table's
        ``returns = "alloc"``, and the openers of :data:`_NEW_STREAMS`), each with whether it
        never returns NULL.  The table is read under the calls' own names (a file's macro is
        named with its digest); a name that two calls of the node read two ways is left out."""
        got: dict[str, set[tuple[bool, bool]]] = {}
        for c in n.calls:
            if c.name is not None:
                spec = self.table.get(c.name)
                alloc = spec is not None and (
                    spec.returns == "alloc" or (spec.returns == "open" and plain_name(c.name) in _NEW_STREAMS)
                )
                got.setdefault(plain_name(c.name), set()).add((alloc, spec is not None and spec.nonnull))
        return {name: ways.pop()[1] for name, ways in got.items() if len(ways) == 1 and next(iter(ways))[0]}

    def tree(self, n: CfgNode) -> TSNode | None:
        if n.id not in self._trees:
            self._trees[n.id] = _parse_statement(n.source) if n.source else None
        return self._trees[n.id]

    def sort(self, var: str) -> z3.SortRef:
        return _sort(self.kinds[var])

    def rooted(self, var: str) -> tuple[str, ...]:
        """The followed fields read through local ``var``."""
        return self._rooted.get(var, ())

    @property
    def symbols(self) -> Mapping[str, z3.ExprRef]:
        """:func:`symbol` of every tracked local: the current values facts speak of (made once;
        :meth:`effect` copies the environment it is given, so callers share this one)."""
        got = self._symbols
        if got is None:
            got = self._symbols = {v: symbol(v, self.sort(v)) for v in self.kinds}
        return got

    def initial(self, fresh: Fresh) -> dict[str, z3.ExprRef]:
        """Unknown values of every tracked local (a function's entry: parameters and garbage)."""
        return {v: z3.Const(fresh.name(v), self.sort(v)) for v in self.kinds}

    def effect(self, cid: int, env: Mapping[str, z3.ExprRef], fresh: Fresh) -> Effect:
        """One execution of node ``cid`` from the values ``env`` (see the module's invariant)."""
        n = self.cfg.nodes[cid]
        if n.kind in ("entry", "exit", "join", "label", "goto", "sink", "case") or not n.source:
            return Effect(dict(env), None, frozenset())
        tree = self.tree(n)
        reader = _Reader(self, dict(env), fresh, self._allocators(n))
        cond: z3.BoolRef | None = None
        if tree is None:
            reader.havoc_mentioned(n.source)
        elif tree.type == "expression_statement":
            exprs = [c for c in tree.named_children if c.type != "comment"]
            value = reader.value(exprs[0]) if exprs else None
            if n.kind == "cond" and value is not None:
                cond = reader.truth(value)
        elif tree.type == "declaration":
            reader.declaration(tree)
        elif tree.type == "return_statement":
            for c in tree.named_children:
                if c.type != "comment":
                    reader.value(c)
        else:
            reader.havoc_mentioned(n.source)
        reader.backstop(n)
        return Effect(reader.env, cond, frozenset(reader.written), reader.side, reader.post)


    def bound_arguments(self, cid: int) -> dict[str, dict[int, tuple[str, int]]]:
        """What node ``cid`` tells the functions it calls by name of their arguments, by callee and
        argument position: ``("==", k)`` for an integer literal ``k`` (``path_new(n, xy, 0)``
        gives ``{"path_new": {2: ("==", 0)}}``), ``("!=", 0)`` for an address (``&c``, never NULL);
        a callee called twice in the node is left out (its calls may bind different values)."""
        n = self.cfg.nodes[cid]
        tree = self.tree(n) if n.source else None
        if tree is None:
            return {}
        out: dict[str, dict[int, tuple[str, int]]] = {}
        seen: set[str] = set()
        fresh = Fresh("lit")
        reader = _Reader(self, self.initial(fresh), fresh, {})
        stack = [tree]
        while stack:
            e = stack.pop()
            stack.extend(e.named_children)
            fn = e.child_by_field_name("function") if e.type == "call_expression" else None
            if fn is None or fn.type != "identifier":
                continue
            name = text_of(fn)
            if name in seen:
                out.pop(name, None)
                continue
            seen.add(name)
            args = e.child_by_field_name("arguments")
            given = [a for a in args.named_children if a.type != "comment"] if args is not None else []
            bound: dict[int, tuple[str, int]] = {}
            for k, a in enumerate(given):
                if _address_of(a):
                    bound[k] = ("!=", 0)
                elif (v := reader.value(a)).lit is not None:
                    bound[k] = ("==", v.lit)
            if bound:
                out[name] = bound
        return out


def field_path(e: TSNode, kinds: Mapping[str, str]) -> str | None:
    """``c->n`` of a field expression whose chain of fields starts at a tracked pointer ``c``
    (``c->a.b`` too), as the name its value is followed by; None for any other lvalue."""
    parts: list[str] = []
    while e.type == "field_expression":
        op, name = e.child_by_field_name("operator"), e.child_by_field_name("field")
        if op is None or name is None:
            return None
        parts.append(f"{text_of(op)}{text_of(name)}")
        inner = strip_parens(e.child_by_field_name("argument"))
        if inner is None:
            return None
        e = inner
    if e.type != "identifier" or kinds.get(text_of(e)) != "p" or parts[-1][0] != "-":
        return None
    return text_of(e) + "".join(reversed(parts))


def field_root(path: str) -> str:
    """The pointer a followed field is read through: ``c`` of ``c->a.b``."""
    return path.partition("->")[0]


def _address_of(e: TSNode) -> bool:
    """Whether ``e`` takes an object's address (``&c``, ``&s->f``): a pointer that is not NULL."""
    e = strip_parens(e) or e
    return e.type == "pointer_expression" and text_of(e.child_by_field_name("operator")) == "&"


class _Reader:
    """Reads one node's syntax against an environment, in C's evaluation order."""

    def __init__(
        self, sem: FunctionSemantics, env: dict[str, z3.ExprRef], fresh: Fresh, allocators: Mapping[str, bool]
    ) -> None:
        self.sem = sem
        self.allocators = allocators
        self.kinds = sem.kinds
        self.env = env
        self.fresh = fresh
        self.written: set[str] = set()
        self.side: list[z3.BoolRef] = []
        self.post: list[z3.BoolRef] = []

    # -- values ------------------------------------------------------------------------------
    def unknown(self, kind: str = "?", hint: str = "u") -> Value:
        return Value(z3.Const(self.fresh.name(hint), _sort(kind) if kind != "?" else z3.IntSort()), kind)

    def nonnull(self) -> Value:
        v = self.unknown("p", "addr")
        self.side.append(v.term != 0)
        return v

    def truth(self, v: Value) -> z3.BoolRef:
        if v.test is not None:
            return v.test
        if v.kind == "?":
            return _nonzero(v.term)
        zero = z3.RealVal(0) if v.kind.startswith("t:") or v.kind == FIELD else z3.IntVal(0)
        return v.term != zero

    def test(self, b: z3.BoolRef) -> Value:
        return Value(z3.If(b, z3.IntVal(1), z3.IntVal(0)), "b", None, b)

    def assign(self, var: str, v: Value) -> Value:
        """``var = v`` converted to ``var``'s type: exact where the conversion keeps the value."""
        kind = self.kinds[var]
        keeps = False
        if v.kind == kind and kind != "?":
            keeps = True
        elif v.lit is not None:
            if kind == "p":
                keeps = v.lit == 0
            elif kind[0] == "s":
                keeps = -(2 ** (int(kind[1:]) - 1)) <= v.lit < 2 ** (int(kind[1:]) - 1)
            elif kind[0] == "u":
                keeps = 0 <= v.lit < 2 ** int(kind[1:])
            else:
                keeps = 0 <= v.lit <= 1 or (kind != "t:bool" and 0 <= v.lit < 128)
        elif v.kind == "b":
            keeps = kind != "p"
        elif v.kind == "m":
            keeps = kind == "p"  # ``p = MAP_FAILED``: an address, the same one wherever it is named
        elif v.kind[0] == "s" and kind[0] == "s" and v.kind != "?" or v.kind[0] == "u" and kind[0] == "u":
            keeps = int(v.kind[1:]) <= int(kind[1:])
        term: z3.ExprRef | None = v.term if keeps else None
        if term is not None and term.sort() != _sort(kind):
            term = z3.ToReal(term) if kind.startswith("t:") else None
        self.forget_fields(var)
        if term is not None:
            self.env[var] = term
            self.written.add(var)
            return Value(term, kind)
        self.env[var] = z3.Const(self.fresh.name(var), _sort(kind))
        self.written.add(var)
        return Value(self.env[var], kind)

    def havoc(self, var: str) -> None:
        self.env[var] = z3.Const(self.fresh.name(var), self.sem.sort(var))
        self.written.add(var)
        self.forget_fields(var)

    def forget_fields(self, root: str | None = None) -> None:
        """The followed fields (:attr:`FunctionSemantics.fields`) read through ``root``, or all of
        them, get unknown values: where the pointer changes, and (all) wherever memory may be
        written that this reading does not follow: a call, a store to anything but a tracked
        local (a field, ``*p``, ``a[i]``, a global: any of them may be or overlap the field), an
        ``asm``, a node not read.  Between two reads with none of these, a field holds its value."""
        paths = self.sem.fields if root is None else self.sem.rooted(root)
        for path in paths:
            self.env[path] = z3.Const(self.fresh.name(path), _sort(FIELD))
            self.written.add(path)

    def havoc_mentioned(self, source: str) -> None:
        for word in set(re.findall(r"[A-Za-z_]\w*", source)):
            if word in self.kinds:
                self.havoc(word)
        self.forget_fields()

    def backstop(self, n: CfgNode) -> None:
        """The writes the node's facts and calls know of that this reading did not see."""
        for path, atom in n.events:
            if atom in WRITES and path in self.kinds and path not in self.written:
                self.havoc(path)
            elif atom in WRITES and path not in self.kinds:
                self.forget_fields()
        if any(call.name not in _NO_STORES for call in n.calls):
            self.forget_fields()
        for call in n.calls:
            spec = self.sem.table.get(call.name) if call.name else None
            defines = {i for i, atom in spec.args if atom in ("def", "addr")} if spec is not None else set()
            # a macro whose body the table read (extractors.functions.macro_specs) assigns only
            # what its spec lists; one it did not read may assign any argument
            macro_like = spec is None and (call.name is None or not any(ch.islower() for ch in call.name))
            for k, (arg, _) in enumerate(call.args):
                if arg is not None and arg in self.kinds and (macro_like or k in defines or -1 in defines):
                    self.havoc(arg)
            for name in spec.assigns if spec is not None else ():
                if name in self.kinds:
                    self.havoc(name)

    # -- expressions ---------------------------------------------------------------------------
    def value(self, e: TSNode | None) -> Value:
        if e is None:
            return self.unknown()
        t = e.type
        if t == "parenthesized_expression":
            inner = [c for c in e.named_children if c.type != "comment"]
            if len(inner) != 1:
                return self.children(e)
            return self.value(inner[0])
        if t == "number_literal":
            lit = _literal(text_of(e))
            return Value(z3.IntVal(lit), "lit", lit) if lit is not None else self.unknown()
        if t == "char_literal":
            lit = _char_literal(text_of(e))
            return Value(z3.IntVal(lit), "lit", lit) if lit is not None else self.unknown()
        if t in ("true", "false"):
            lit = 1 if t == "true" else 0
            return Value(z3.IntVal(lit), "lit", lit)
        if t == "null":
            return Value(z3.IntVal(0), "lit", 0)
        if t == "identifier":
            name = text_of(e)
            if name in self.kinds:
                return Value(self.env[name], self.kinds[name])
            if name == "NULL":
                return Value(z3.IntVal(0), "lit", 0)
            if (lit := self.sem.cfg.consts.get(name)) is not None:
                return Value(z3.IntVal(lit), "lit", lit)  # a macro, an enumerator, a project constant
            frame = self.sem.frame.get(name)
            if frame is not None and frame[1]:
                return Value(z3.IntVal(frame[0]), "p")  # an array read as a value: its address
            if (stream := self.sem.streams.get(name)) is not None:
                return Value(z3.IntVal(stream), "p")
            if _MACRO_CONSTANT.fullmatch(name) and name not in self.sem.cfg.declared and name not in self.sem.params:
                return Value(z3.Const(f"m:{name}", z3.IntSort()), "m")
            return self.unknown()
        if t in ("string_literal", "concatenated_string"):
            return self.nonnull()
        if t == "assignment_expression":
            return self.assignment(e)
        if t == "update_expression":
            return self.update(e)
        if t == "unary_expression":
            return self.unary(e)
        if t == "binary_expression":
            return self.binary(e)
        if t == "conditional_expression":
            return self.conditional(e)
        if t == "comma_expression":
            self.value(e.child_by_field_name("left"))
            return self.value(e.child_by_field_name("right"))
        if t == "pointer_expression":
            op = text_of(e.child_by_field_name("operator"))
            arg = e.child_by_field_name("argument")
            if op == "&":
                if arg is not None and arg.type == "identifier" and text_of(arg) in self.kinds:
                    self.havoc(text_of(arg))  # not tracked when its address is taken; never reached
                self.lvalue_parts(arg)
                whole = strip_parens(arg) if arg is not None else None
                frame = self.sem.frame.get(text_of(whole)) if whole is not None and whole.type == "identifier" else None
                return Value(z3.IntVal(frame[0]), "p") if frame is not None else self.nonnull()
            self.value(arg)
            return self.unknown()
        if t == "cast_expression":
            operand = self.value(e.child_by_field_name("value"))
            ty = e.child_by_field_name("type")
            pointer = ty is not None and any(c.type == "abstract_pointer_declarator" for c in ty.named_children)
            if pointer and (operand.kind == "p" or operand.lit == 0):
                return Value(operand.term, "p") if operand.kind == "p" else Value(z3.IntVal(0), "lit", 0)
            kind = None if pointer or ty is None else _kind_of_type(ty.child_by_field_name("type"))
            if kind is not None and kind[0] in "su" and _exact(operand):
                # the converted value is a function of the operand's: the same operand, the same value
                to = z3.Function(f"cast:{kind}:{operand.kind}", operand.term.sort(), z3.IntSort())
                return Value(to(operand.term), kind)
            return self.unknown()
        if t == "call_expression":
            fn = e.child_by_field_name("function")
            known = self.sem.outcomes.get(text_of(fn)) if fn is not None and fn.type == "identifier" else None
            if known is not None:
                return self.outcome_call(e, known)
            if fn is not None and fn.type != "identifier":
                self.value(fn)
            args = e.child_by_field_name("arguments")
            for a in args.named_children if args is not None else []:
                if a.type != "comment":
                    self.value(a)
            if fn is None or fn.type != "identifier" or text_of(fn) not in _NO_STORES:
                self.forget_fields()
            nonnull = self.allocators.get(text_of(fn)) if fn is not None and fn.type == "identifier" else None
            if nonnull is None:
                return self.unknown()
            block = self.unknown("p", "heap")  # NULL, or a fresh block: no frame's address
            self.post.append(block.term > 0 if nonnull else block.term >= 0)
            return block
        if t in ("sizeof_expression", "alignof_expression"):
            size = self.unknown("u64", "size")  # a size_t, at least 1 (no object is of size 0)
            self.side.append(size.term >= 1)
            return size
        if t == "offsetof_expression":
            return self.unknown()
        if t in ("field_expression", "subscript_expression"):
            self.lvalue_parts(e)
            path = field_path(e, self.kinds) if t == "field_expression" and self.sem.fields else None
            if path is not None and path in self.sem.fields:
                return Value(self.env[path], FIELD)
            return self.unknown()
        if t == "gnu_asm_expression":
            self.children(e)
            self.forget_fields()
            return self.unknown()
        return self.children(e)

    def outcome_call(self, e: TSNode, known: CallOutcomes) -> Value:
        """A call of a function with known outcomes: its result and the tracked locals handed as
        ``&x`` at the parameters the outcomes speak of take fresh values that satisfy one of the
        callee's alternatives (``post``).  A store the local's type would convert, or a value
        the caller had before the call (no store on that path), is left unconstrained."""
        args = e.child_by_field_name("arguments")
        handed: dict[int, str] = {}
        addresses: set[int] = set()  # the out-parameters given ``&...``, never NULL
        given: dict[int, Value] = {}  # the other arguments' values
        for k, a in enumerate(c for c in (args.named_children if args is not None else []) if c.type != "comment"):
            inner = strip_parens(a)
            if k in known.params and _address_of(a):
                addresses.add(k)
            if (
                k in known.params
                and inner is not None
                and inner.type == "pointer_expression"
                and text_of(inner.child_by_field_name("operator")) == "&"
                and (target := self._tracked_target(inner.child_by_field_name("argument"))) is not None
            ):
                handed[k] = target
            else:
                given[k] = self.value(a)
        self.forget_fields()
        targets = list(handed.values())
        for k in [k for k, target in handed.items() if targets.count(target) > 1]:
            del handed[k]  # ``f(&x, &x)``: what each parameter's paths stored last says nothing of x
        for target in set(targets) - set(handed.values()):
            self.havoc(target)
        # a kind not known reads as an int: its alternatives name only 0..127, which every type keeps
        result = self.unknown("s32" if known.kind == "?" else known.kind, "ret")
        after = {}
        for target in handed.values():
            self.havoc(target)
            after[target] = self.env[target]
        alternatives: list[z3.BoolRef] = []
        # every out-parameter handed an address: the callee's paths where one is NULL do not run
        every = addresses == set(known.params)
        for returned, stores in known.addressed if every and known.addressed else known.alternatives:
            parts: list[z3.BoolRef] = []
            if returned == NONNULL:
                parts.append(result.term != 0)
            elif isinstance(returned, int):
                parts.append(result.term == returned)
            elif isinstance(returned, FromArgument) and returned.k in handed:
                parts.append(result.term != 0)  # ``&x``: never NULL
            elif isinstance(returned, FromArgument) and (arg := given.get(returned.k)) is not None and arg.kind == "p":
                parts.append(z3.Implies(arg.term != 0, result.term != 0))
            for k, stored in stores:
                target = handed.get(k)
                if target is not None and stored is not None and (lit := self.exact(target, stored)) is not None:
                    parts.append(after[target] == lit)
            alternatives.append(z3.And(*parts) if parts else z3.BoolVal(True))
        self.post.append(z3.Or(*alternatives))
        return result

    def exact(self, var: str, lit: int) -> z3.ExprRef | None:
        """Literal ``lit`` as a value of local ``var`` when its type keeps it, else None."""
        kind = self.kinds[var]
        if kind == "p":
            return z3.IntVal(0) if lit == 0 else None
        if kind[0] == "s":
            ok = -(2 ** (int(kind[1:]) - 1)) <= lit < 2 ** (int(kind[1:]) - 1)
        elif kind[0] == "u":
            ok = 0 <= lit < 2 ** int(kind[1:])
        else:
            ok = 0 <= lit <= 1 or (kind != "t:bool" and 0 <= lit < 128)
        if not ok:
            return None
        return z3.RealVal(lit) if kind.startswith("t:") else z3.IntVal(lit)

    def children(self, e: TSNode) -> Value:
        for c in e.named_children:
            if c.type not in ("comment", "type_descriptor"):
                self.value(c)
        return self.unknown()

    def lvalue_parts(self, e: TSNode | None) -> None:
        """The reads and writes inside an lvalue that is not a tracked local (``a[i++]``, ``p->f``)."""
        if e is None:
            return
        if e.type == "field_expression":
            self.value(e.child_by_field_name("argument"))
        elif e.type == "subscript_expression":
            self.value(e.child_by_field_name("argument"))
            self.value(e.child_by_field_name("index"))
        elif e.type == "parenthesized_expression":
            for c in e.named_children:
                self.lvalue_parts(c)
        elif e.type != "identifier":
            self.value(e)

    def _tracked_target(self, e: TSNode | None) -> str | None:
        while e is not None and e.type == "parenthesized_expression" and len(e.named_children) == 1:
            e = e.named_children[0]
        if e is not None and e.type == "identifier" and text_of(e) in self.kinds:
            return text_of(e)
        return None

    def assignment(self, e: TSNode) -> Value:
        left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
        op = text_of(e.child_by_field_name("operator"))
        var = self._tracked_target(left)
        if var is None:
            self.lvalue_parts(left)
            self.value(right)
            self.forget_fields()
            return self.unknown()
        rhs = self.value(right)
        if op != "=":
            rhs = self.arith(op[:-1], Value(self.env[var], self.kinds[var]), rhs)
        return self.assign(var, rhs)

    def update(self, e: TSNode) -> Value:
        arg = e.child_by_field_name("argument")
        var = self._tracked_target(arg)
        if var is None:
            self.lvalue_parts(arg)
            self.forget_fields()
            return self.unknown()
        old = Value(self.env[var], self.kinds[var])
        op = "+" if "++" in text_of(e.child_by_field_name("operator")) else "-"
        new = self.assign(var, self.arith(op, old, Value(z3.IntVal(1), "lit", 1)))
        prefix = e.children[0].type in ("++", "--")
        return new if prefix else old

    def unary(self, e: TSNode) -> Value:
        op = text_of(e.child_by_field_name("operator"))
        v = self.value(e.child_by_field_name("argument"))
        if op == "!":
            return self.test(z3.Not(self.truth(v)))
        if op == "-" and v.lit is not None:
            return Value(z3.IntVal(-v.lit), "lit", -v.lit)
        if op == "-" and (v.kind[0] == "s" or v.kind == "b"):
            return Value(-v.term, f"s{_width(v)}")
        if op == "+":
            return v
        return self.unknown()

    def binary(self, e: TSNode) -> Value:
        op = text_of(e.child_by_field_name("operator"))
        if op in ("&&", "||"):
            left = self.truth(self.value(e.child_by_field_name("left")))
            before = dict(self.env)
            right = self.truth(self.value(e.child_by_field_name("right")))
            runs = left if op == "&&" else z3.Not(left)
            self.merge(runs, dict(self.env), before)
            return self.test(z3.And(left, right) if op == "&&" else z3.Or(left, right))
        a = self.value(e.child_by_field_name("left"))
        b = self.value(e.child_by_field_name("right"))
        if op in _CMP:
            return self.compare(op, a, b)
        return self.arith(op, a, b)

    def merge(self, cond: z3.BoolRef, taken: dict[str, z3.ExprRef], other: dict[str, z3.ExprRef]) -> None:
        """The values after a part that runs only when ``cond`` holds."""
        for var in self.kinds:
            x, y = taken[var], other[var]
            self.env[var] = x if x.eq(y) else z3.If(cond, x, y)

    def conditional(self, e: TSNode) -> Value:
        c = self.truth(self.value(e.child_by_field_name("condition")))
        start = dict(self.env)
        a = self.value(e.child_by_field_name("consequence"))
        after_a = dict(self.env)
        self.env = dict(start)
        b = self.value(e.child_by_field_name("alternative"))
        after_b = dict(self.env)
        self.merge(c, after_a, after_b)
        if a.kind == b.kind and a.kind not in ("?", "lit", FIELD) and a.term.sort().eq(b.term.sort()):
            return Value(z3.If(c, a.term, b.term), a.kind)
        if a.lit is not None and b.lit is not None:
            return Value(z3.If(c, z3.IntVal(a.lit), z3.IntVal(b.lit)), f"s{max(_width(a), _width(b))}")
        return self.unknown()

    def compare(self, op: str, a: Value, b: Value) -> Value:
        for v in (a, b):
            if v.lit is None and v.kind[0] == "u":
                # the value of an unsigned type is in its range (``n == 0 || m < n``: n > 0)
                self.side.append(z3.And(v.term >= 0, v.term < 2 ** int(v.kind[1:])))
        pair = _comparable(a, b, op)
        if pair is None and op in ("==", "!=") and {a.kind, b.kind} == {"?", "lit"} and 0 in (a.lit, b.lit):
            nonzero = _nonzero(a.term if a.kind == "?" else b.term)  # as the test if (x) reads it
            return self.test(nonzero if op == "!=" else z3.Not(nonzero))
        if pair is None:
            same = _same_operands(op, a, b)
            return self.test(same if same is not None else z3.Bool(self.fresh.name("cmp")))
        x, y = pair
        got = {"==": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]
        return self.test(got)

    def arith(self, op: str, a: Value, b: Value) -> Value:
        if op not in _ARITH:
            return _opaque(op, a, b) or self.unknown()
        if a.lit is not None and b.lit is not None:
            lit = a.lit + b.lit if op == "+" else a.lit - b.lit if op == "-" else a.lit * b.lit
            return Value(z3.IntVal(lit), "lit", lit)
        if _signed(a) and _signed(b):
            x, y = a.term, b.term
            got = x + y if op == "+" else x - y if op == "-" else x * y
            return Value(got, f"s{max(_width(a), _width(b))}")  # a defined run never overflows
        return _opaque(op, a, b) or self.unknown()

    def declaration(self, decl: TSNode) -> None:
        for d in decl.children_by_field_name("declarator"):
            inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            value = d.child_by_field_name("value") if d.type == "init_declarator" else None
            v = self.value(value) if value is not None and value.type != "initializer_list" else None
            if value is not None and value.type == "initializer_list":
                self.value(value)
            while inner is not None and inner.type not in ("identifier",):
                inner = (
                    inner.child_by_field_name("declarator")
                    if inner.type != "parenthesized_declarator"
                    else (inner.named_children[0] if inner.named_children else None)
                )
            name = text_of(inner) if inner is not None else ""
            if name in self.kinds:
                if v is None:
                    self.havoc(name)  # no initialiser: an indeterminate value
                else:
                    self.assign(name, v)


def _exact(v: Value) -> bool:
    """Whether ``v``'s term stands for one C value (not an unknown's stand-in)."""
    return v.kind != "?" and v.kind != "p"


def _as(v: Value, sort: z3.SortRef) -> z3.ExprRef:
    """``v``'s term in ``sort``: a literal read as a real next to a typedef's real."""
    return z3.RealVal(v.lit) if v.lit is not None and sort.eq(z3.RealSort()) else v.term


def _opaque(op: str, a: Value, b: Value) -> Value | None:
    """``a op b`` for an operation not computed exactly (``%``, ``/``, shifts, bit operations,
    unsigned arithmetic): an uninterpreted function of the two operands, one per operator and
    kinds, so that the same operands give the same value on a path (``n % 4`` tested twice) while
    the value itself stays unconstrained.  Every run is a model: the function may be C's.  The
    result's kind is the operands' when they are of one signedness or one typedef (a literal goes
    with either), else ``?``: a value compared with nothing exactly."""
    if not (_exact(a) and _exact(b)):
        return None
    named = {v.kind for v in (a, b) if v.lit is None and v.kind.startswith("t:")}
    if len(named) == 1 and not any(v.lit is None and v.kind not in named for v in (a, b)):
        kind = named.pop()
    elif named:
        kind = "?"
    elif _signed(a) and _signed(b):
        kind = f"s{max(_width(a), _width(b))}"
    elif all(v.kind[0] == "u" or v.lit is not None and v.lit >= 0 for v in (a, b)):
        kind = f"u{max(int(v.kind[1:]) for v in (a, b) if v.kind[0] == 'u')}"
    else:
        kind = "?"
    if kind == "?":
        # mixed signedness or types: which type C computes in is not known here, so the value is
        # of no kind (compared with nothing exactly), but still the same for the same operands
        f = z3.Function(f"op{op}:{a.kind}:{b.kind}", a.term.sort(), b.term.sort(), z3.IntSort())
        return Value(f(a.term, b.term), "?")
    sort = _sort(kind)
    x, y = _as(a, sort), _as(b, sort)
    f = z3.Function(f"op{op}:{a.kind}:{b.kind}", x.sort(), y.sort(), sort)
    return Value(f(x, y), kind)


def _same_operands(op: str, a: Value, b: Value) -> z3.BoolRef | None:
    """A comparison not decided exactly (mixed signedness: C converts the signed operand first) as
    one uninterpreted order per pair of kinds: ``a > b`` is ``lt(b, a)`` and ``a <= b`` its
    negation, ``a != b`` the negation of ``a == b``, so complementary tests of the same operands
    are correlated though neither is computed.  Of values of no kind (``?``) too: a fresh unknown
    is a distinct term, so only an operation's value repeated (``_opaque``) is ever the same."""
    if a.kind == "p" or b.kind == "p":
        return None

    def order(name: str, x: Value, y: Value) -> z3.BoolRef:
        f = z3.Function(f"{name}:{x.kind}:{y.kind}", x.term.sort(), y.term.sort(), z3.BoolSort())
        return f(x.term, y.term)

    if op in ("==", "!="):
        eq = order("eq", a, b) if a.kind <= b.kind else order("eq", b, a)
        return eq if op == "==" else z3.Not(eq)
    lt = {"<": (a, b), ">": (b, a), "<=": (b, a), ">=": (a, b)}[op]
    got = order("lt", *lt)
    return got if op in ("<", ">") else z3.Not(got)


def _nonzero(term: z3.ExprRef) -> z3.BoolRef:
    """Whether a value of no kind is not 0 (``if (x)``, ``x != 0``): uninterpreted, the same for
    the same term."""
    f = z3.Function(f"nonzero:{term.sort()}", term.sort(), z3.BoolSort())
    return f(term)


def _width(v: Value) -> int:
    """The width of a signed operand after the integer promotions."""
    if v.lit is not None:
        return 32 if -(2**31) <= v.lit < 2**31 else 64
    return max(32, int(v.kind[1:])) if v.kind[0] == "s" else 32


def _signed(v: Value) -> bool:
    return v.lit is not None or v.kind == "b" or (v.kind[0] == "s" and v.kind != "?")


def _comparable(a: Value, b: Value, op: str) -> tuple[z3.ExprRef, z3.ExprRef] | None:
    """The two operands as z3 terms whose integer (or real) order is C's, or None."""
    if a.lit is not None and b.lit is not None:
        return a.term, b.term
    if b.lit is not None or a.lit is not None:
        v, lit = (a, b.lit) if b.lit is not None else (b, a.lit)
        assert lit is not None
        k = v.kind
        if k == "p":
            ok = lit == 0 and op in ("==", "!=")
        elif _signed(v):
            ok = True
        else:
            # a literal that is not negative keeps its value in every type a field may have
            ok = k != "?" and lit >= 0
        if not ok:
            return None
        lv: z3.ExprRef = z3.RealVal(lit) if k.startswith("t:") or k == FIELD else z3.IntVal(lit)
        return (v.term, lv) if b.lit is not None else (lv, v.term)
    if _signed(a) and _signed(b):
        return a.term, b.term
    ka, kb = a.kind, b.kind
    if {ka, kb} == {"p", "m"}:
        return (a.term, b.term) if op in ("==", "!=") else None  # ``p != MAP_FAILED``
    if ka == "?" or kb == "?":
        return None
    if ka == "p" and kb == "p":
        return (a.term, b.term) if op in ("==", "!=") else None
    if ka[0] == "u" and kb[0] == "u":
        return a.term, b.term
    if ka.startswith("t:") and ka == kb:
        return a.term, b.term
    return None
