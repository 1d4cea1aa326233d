"""What a project function returns together with what it left in its out-parameters, per return.

``char *load_line(const char *path, int *err)`` returns NULL after ``*err = 1`` or ``*err = 2``, and
a block it tested not NULL after ``*err = 0``; its caller writes ``line = load_line(path, &err); if
(err) return -1; c = line[0];``.  The caller's model has the path where ``err`` is 0 and ``line``
NULL (a NULL dereference that cannot happen) and the one where ``err`` is not 0 and ``line`` holds
a block (a leak that cannot happen).  Refutation (:mod:`extractors.refute`) rules them out with
these *outcomes*: one alternative per return of the callee and combination of the values its paths
may have last stored, ``(returned, ((k, stored), ...))``, which :mod:`extractors.path_condition`
reads as "the call's result and the caller's ``x`` in ``&x`` satisfy one of the alternatives".

What an alternative claims is true of every run that ends at that return (soundness):

- ``returned``: an ``int`` only for a literal the return statement returns that the declared
  result type keeps (``NULL`` and ``0`` in a pointer function; ``-1`` in an ``int`` or ``long``
  one; in one whose type this module does not know, a ``char`` or a typedef, only 0 to 127, which
  every integer type keeps), so the caller's comparisons read it exactly; :data:`NONNULL` for a
  local that every path to the return has tested not NULL since its last write;
  :class:`FromArgument` for a pointer parameter the function never writes, or a local whose one
  write is its declaration from such a parameter, maybe cast and moved (``BYTE *const aligned =
  (BYTE *)workspace + add;``); else None (anything);
- ``stored``: an ``int`` when every path to the return last stored that literal in ``*p``; else
  None (anything, including "left as it was", which the caller's state before the call would have
  to name).

Only parameters :func:`extractors.out_params.out_summary` summarises are read (the callee touches
``*p`` only by stores ``*p = v`` and NULL tests of ``p``, so a path without a store leaves the
caller's value alone), and only functions whose declarator shows whether they return a pointer (a
plain name: a value of the declared type, ``FunctionModel.result``; ``*name``: a pointer).  Pure: a
function of the callee's model.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Node as TSNode

from extractors.functions import FunctionModel
from extractors.out_params import COMPOUND
from extractors.parse import parse_c, strip_parens, text_of

NONNULL = "nonnull"


@dataclass(frozen=True)
class FromArgument:
    """A pointer the callee got as argument ``k``, maybe moved (``(BYTE *)ws + add``): not NULL
    when that argument is not NULL (pointer arithmetic stays within an object, never reaching 0)."""

    k: int


Returned = int | str | FromArgument | None  # a literal, NONNULL, FromArgument, or None: anything
Outcome = tuple[Returned, tuple[tuple[int, int | None], ...]]

MAX_OUTCOMES = 32  # alternatives per callee; more and the callee is not summarised

WRITES = frozenset({"def", "write", "null", "alloc", "open", "stack", "nonheap"})  # events that set a name
_KEEP = -(2**70)  # "no store on the path": the caller's value before the call (never a C literal here)


@dataclass(frozen=True)
class CallOutcomes:
    """A callee's alternatives (see the module's doc); ``kind``: what it returns, as
    :mod:`extractors.path_condition` names kinds (``p`` a pointer, ``s32``, ``u64``, ...; ``?`` an
    integer of a type not known, of which only 0 to 127 are read); ``params``: the out-parameters
    the alternatives speak of, in order."""

    kind: str
    params: tuple[int, ...]
    alternatives: tuple[Outcome, ...]
    # the alternatives of a call that hands every one of ``params`` an address (``&x``, never
    # NULL): the callee's paths on which such a parameter tests NULL do not run
    addressed: tuple[Outcome, ...] = ()

    @property
    def pointer(self) -> bool:
        return self.kind == "p"


FIXED_TYPES = {  # integer typedefs whose width the platforms ctlsp models agree on
    "size_t": "u64",
    "uintptr_t": "u64",
    "uintmax_t": "u64",
    "ssize_t": "s64",
    "ptrdiff_t": "s64",
    "intptr_t": "s64",
    "intmax_t": "s64",
    "off_t": "s64",
}
_NOT_TYPE = frozenset({"static", "inline", "__inline", "__inline__", "extern", "const", "volatile", "register"})


def result_kind(g: FunctionModel) -> str | None:
    """The kind of what ``g`` returns (see :class:`CallOutcomes`), or None when its declarator does
    not plainly say whether it is a pointer."""
    pointer = returns_pointer(g)
    if pointer is None:
        return None
    if pointer:
        return "p"
    words = [w for w in g.result.split() if w not in _NOT_TYPE]
    text = " ".join(words)
    if text in FIXED_TYPES:
        return FIXED_TYPES[text]
    fixed = re.fullmatch(r"(u?)int(8|16|32|64)_t", text)
    if fixed:
        return f"{'u' if fixed.group(1) else 's'}{fixed.group(2)}"
    if not words or not set(words) <= {"int", "long", "short", "signed", "unsigned", "char"}:
        return "?"  # a typedef, an enum, bool, void: which values it keeps is not known here
    if "char" in words:
        return "u8" if "unsigned" in words else "?"  # plain char's signedness is the platform's
    width = 64 if "long" in words else 16 if "short" in words else 32
    return f"{'u' if 'unsigned' in words else 's'}{width}"


def keeps(kind: str, lit: int) -> bool:
    """Whether a value of ``kind`` can be literal ``lit`` (so a comparison with it reads exactly)."""
    if kind == "p":
        return lit == 0
    if kind == "?":
        return 0 <= lit < 128
    width = int(kind[1:])
    if kind[0] == "u":
        return 0 <= lit < 2**width
    return -(2 ** (width - 1)) <= lit < 2 ** (width - 1)


def returns_pointer(g: FunctionModel) -> bool | None:
    """Whether ``g``'s declarator says it returns a pointer (``*name(...)``), a value (``name(...)``),
    or None when it says neither plainly (a function returning a function pointer, a macro)."""
    entry = g.cfg.nodes[g.cfg.entry].source
    if re.match(rf"\s*{re.escape(g.name)}\s*\(", entry):
        return False
    if re.match(rf"\s*(?:\*\s*(?:const\s+|volatile\s+|restrict\s+)*)+{re.escape(g.name)}\s*\(", entry):
        return True
    return None


def call_outcomes(g: FunctionModel, params: Sequence[int]) -> CallOutcomes | None:
    """The outcomes of ``g`` over its out-parameters ``params`` (each one :mod:`out_params`
    summarises); None when the declarator does not show the return kind or there are too many."""
    kind = result_kind(g)
    if kind is None or not params:
        return None
    ks = tuple(sorted(set(params)))
    every = _alternatives(g, kind, ks, addressed=False)
    addressed = _alternatives(g, kind, ks, addressed=True)
    if every is None or addressed is None:
        return None
    return CallOutcomes(kind, ks, every, addressed)


def _alternatives(g: FunctionModel, kind: str, ks: tuple[int, ...], addressed: bool) -> tuple[Outcome, ...] | None:
    """The alternatives of ``g`` over out-parameters ``ks``; ``addressed``: of a call that hands
    each of them an address, so a branch on which one of them tests NULL is not taken.  A test
    that compares ``*p`` with a literal (``if (*len == 0)``) tells its value on the branch where
    they are equal."""
    cfg, graph = g.cfg, g.graph
    names = [g.params[k] for k in ks]
    stores = {n.id: _stored(n.source, names) for n in cfg.nodes if n.kind not in ("entry", "exit")}
    equal = {n.id: got for n in cfg.nodes if n.kind == "cond" and (got := _compared(n.source, names))}
    # per graph node, before it: the values each *p may hold last (may), the locals surely not NULL (must)
    State = tuple[tuple[frozenset[int | None], ...], frozenset[str]]
    start: State = (tuple(frozenset({_KEEP}) for _ in ks), frozenset())
    state: dict[int, State] = {graph.entry: start}
    todo = [graph.entry]
    while todo:
        i = todo.pop()
        c = graph.cfg_of[i]
        held, safe = state[i]
        node = cfg.nodes[c]
        after_held = tuple(
            frozenset({stores[c][m]}) if c in stores and stores[c][m] != _UNSTORED else held[m]
            for m in range(len(ks))
        )
        written = {p for p, atom in node.events if atom in WRITES} | {x.result for x in node.calls if x.result}
        after_safe = safe - written
        if node.calls or any(not p.isidentifier() and p.lstrip("*") not in names for p in written):
            # a call, or a store through a pointer, may change any field: only locals stay known
            # (an out-parameter's ``*p`` is the caller's local of ``&x``, no field of the callee's)
            after_safe = frozenset(p for p in after_safe if p.isidentifier())
        for j, br in graph.succ[i]:
            safe_j = after_safe
            nt = node.null_test
            if addressed and nt is not None and br is not None and br == nt[1] and nt[0] in names:
                continue  # the parameter's NULL branch: an address is never NULL
            if nt is not None and br is not None and br != nt[1]:
                safe_j = safe_j | {nt[0]}
            held_j = after_held
            if c in equal and br is not None:
                m, lit, when = equal[c]
                if br == when:
                    held_j = tuple(frozenset({lit}) if n == m else h for n, h in enumerate(after_held))
            old = state.get(j)
            if old is None:
                new: State = (held_j, safe_j)
            else:
                new = (
                    tuple(a | b for a, b in zip(old[0], held_j, strict=True)),
                    old[1] & safe_j,
                )
            if new != old:
                state[j] = new
                todo.append(j)
    out: set[Outcome] = set()
    derived = _from_arguments(g) if kind == "p" else {}
    for i, c in enumerate(graph.cfg_of):
        if i == graph.exit or i not in state or graph.exit not in (j for j, _ in graph.succ[i]):
            continue
        node = cfg.nodes[c]
        held, safe = state[i]
        values = [
            frozenset({stores[c][m]}) if c in stores and stores[c][m] != _UNSTORED else held[m]
            for m in range(len(ks))
        ]
        # a local whose address is taken may be written through a pointer: no fact of it
        returned = _returned(node.source, kind, safe - cfg.addr_taken, derived) if node.kind == "return" else None
        for combo in itertools.product(*[sorted(v, key=_order) for v in values]):
            out.add((returned, tuple((k, None if s == _KEEP else s) for k, s in zip(ks, combo, strict=True))))
            if len(out) > MAX_OUTCOMES:
                return None
    if not out:
        return None
    return tuple(sorted(out, key=repr))


def _compared(source: str, names: Sequence[str]) -> tuple[int, int, bool] | None:
    """For a test of ``*p`` against a literal (``*len == 0``, ``*n != 1``, ``!*len``), the index of
    ``p`` in ``names``, the literal, and the branch on which ``*p`` equals it; else None."""
    text = " ".join(source.split())
    for m, p in enumerate(names):
        deref = rf"\(?\s*\*\s*{re.escape(p)}\s*\)?"
        got = re.fullmatch(rf"\(?\s*{deref}\s*(==|!=)\s*(.+?)\s*\)?", text) or re.fullmatch(
            rf"\(?\s*(.+?)\s*(==|!=)\s*{deref}\s*\)?", text
        )
        if got is not None:
            first = text.lstrip("( ").startswith("*")
            op, other = (got.group(1), got.group(2)) if first else (got.group(2), got.group(1))
            lit = _literal(other)
            if lit is not None:
                return m, lit, op == "=="
        if re.fullmatch(rf"!\s*{deref}", text):
            return m, 0, True
    return None


def _order(v: int | None) -> tuple[bool, int]:
    return (v is None, v or 0)


_UNSTORED = -(2**71)  # "the node does not store to it", distinct from every stored value and _KEEP


def _stored(source: str, names: Sequence[str]) -> tuple[int | None, ...]:
    """Per out-parameter name, the literal node text ``*p = v;`` stores (None: a value not known),
    or :data:`_UNSTORED` when the node does not store to it."""
    got: list[int | None] = []
    for p in names:
        m = re.fullmatch(rf"\s*\*\s*{re.escape(p)}\s*=\s*(.+?)\s*;?\s*", source, re.S)
        if m is None:
            stored = re.search(rf"\*\s*{re.escape(p)}\s*(?:{COMPOUND}|=(?!=))", source) is not None
            got.append(None if stored else _UNSTORED)
            continue
        got.append(_literal(m.group(1)))
    return tuple(got)


def _literal(text: str) -> int | None:
    """The integer a C expression text is when it is a literal (``NULL``, ``0``, ``-1``, ``'a'``)."""
    tree = parse_c(f"int __ctlsp_v = {text};".encode())
    decl = tree.root_node.named_children[0] if tree.root_node.named_children else None
    if tree.root_node.has_error or decl is None:
        return None
    init = decl.child_by_field_name("declarator")
    value = strip_parens(init.child_by_field_name("value")) if init is not None else None
    return _value(value)


def _value(e: TSNode | None) -> int | None:
    if e is None:
        return None
    t = e.type
    if t == "null" or (t == "identifier" and text_of(e) == "NULL"):
        return 0
    if t == "number_literal":
        return number_value(text_of(e))
    if t == "unary_expression" and text_of(e.child_by_field_name("operator")) == "-":
        inner = _value(strip_parens(e.child_by_field_name("argument")))
        return -inner if inner is not None else None
    return None


def number_value(text: str) -> int | None:
    """The integer a C number literal's text is (decimal, octal, hex; suffixes dropped), None for
    a float or a malformed one."""
    t = text.strip().rstrip("uUlL")
    try:
        return int(t, 8) if len(t) > 1 and t[0] == "0" and t[1].isdigit() else int(t, 0)
    except ValueError:
        return None


_PATH = r"[A-Za-z_]\w*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*)*"  # a variable or a field path (``buf->data``)


_CASTS = r"(?:\(\s*[A-Za-z_][\w\s]*\*[\s*]*\)\s*)*"  # pointer casts (``(BYTE *)``, ``(void **)``)


def _from_arguments(g: FunctionModel) -> dict[str, FromArgument]:
    """The names that hold a pointer argument of ``g``, maybe moved (see :class:`FromArgument`):
    a parameter never written nor address-taken, and a local whose only write is its
    declaration from such a parameter (``T *x = (T *)p + e;``)."""
    cfg = g.cfg
    writes: dict[str, set[int]] = {}  # name -> the nodes that write it
    for n in cfg.nodes:
        for path, atom in n.events:
            if atom in WRITES:
                writes.setdefault(path, set()).add(n.id)
        for x in n.calls:
            if x.result:
                writes.setdefault(x.result, set()).add(n.id)
    got = {
        p: FromArgument(k)
        for k, p in enumerate(g.params)
        if p not in writes and p not in cfg.addr_taken and p not in cfg.declared
    }
    for name, at in writes.items():
        node = cfg.nodes[min(at)]
        if len(at) != 1 or node.kind != "decl" or name in cfg.addr_taken or name not in cfg.declared:
            continue
        m = re.fullmatch(
            rf"[^=]*[\s*]{re.escape(name)}\s*=\s*{_CASTS}\(?\s*([A-Za-z_]\w*)\s*\)?\s*(?:[+-][^+=-].*)?;\s*",
            node.source,
            re.S,
        )
        if m is not None and m.group(1) in got and m.group(1) in g.params:
            got[name] = got[m.group(1)]
    return got


def _returned(
    source: str, kind: str, safe: frozenset[str], derived: dict[str, FromArgument] | None = None
) -> Returned:
    m = re.fullmatch(r"\s*return\s*(.*?)\s*;?\s*", source, re.S)
    if m is None or not m.group(1):
        return None
    text = m.group(1)
    derived = derived or {}
    word = re.fullmatch(rf"{_CASTS}\(?\s*([A-Za-z_]\w*)\s*\)?", text)
    if word is not None and word.group(1) != "NULL" and kind == "p":
        name = word.group(1)
        return NONNULL if name in safe else derived.get(name)
    if word is not None and word.group(1) != "NULL":
        return None
    # a pointer tested not NULL, moved within its object (``buf->data + buf->offset``, ``&p[i]``)
    moved = re.fullmatch(rf"{_CASTS}\(?\s*({_PATH})\s*[+-].+", text, re.S) or re.fullmatch(
        rf"&\s*\(?\s*({_PATH})\s*\[.+\]\s*\)?", text, re.S
    )
    if moved is not None and kind == "p":
        path = re.sub(r"\s+", "", moved.group(1))
        return NONNULL if path in safe else derived.get(path)
    lit = _literal(text)
    return lit if lit is not None and keeps(kind, lit) else None
