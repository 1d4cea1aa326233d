"""Projection of functions onto one tracked value: the RSMs the checker runs on.

For a function ``f`` and an access path ``v`` the component ``f@v`` is f's pruned CFG labelled with
the canonical propositions (``alloc``, ``free``, ``use``, ...) of ``v`` only.  A call that hands
``v`` (or a prefix of it) to a project function ``g`` as parameter ``q`` becomes a box to ``g@q``,
so what ``g`` does to its parameter counts in the caller, and ``g@q`` is the same value for every
caller: equal content, equal digest, knowledge reused.  Nodes that carry nothing for ``v`` are
contracted away (loop heads, labels and returns stay so that cycles and returns remain visible),
and callees that cannot touch ``v`` stay plain nodes, which keeps the models small.
"""

from __future__ import annotations

import hashlib
import heapq
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from itertools import compress
from typing import NamedTuple

from checker.graphs import closure, reach_union, strongly_connected
from checker.model import RSM, Box, Component, Node, Ref, build_rsm
from checker.querydb import Content, ContentMemos, Database
from checker.sharing import shared
from extractors.aliases import SHARED_ATOMS, copy_table
from extractors.by_value import handed_name, handed_view, moving_nodes, reassigning_nodes
from extractors.calls import CallSpec
from extractors.cfg import Cfg, CfgNode, CondExpr
from extractors.contents import contents_labels, contents_of, contents_values, filling_loops
from extractors.facts import RETURNED, Call, root_of
from extractors.functions import FunctionModel
from extractors.kept_graph import Base, base_of, contract
from extractors.lasting import (
    LASTING_LABELS,
    lasting_always,
    lasting_labels,
    lasting_nodes,
    lasting_of,
    lasting_values,
)
from extractors.null_returns import NEVER, RAISED, returns_null
from extractors.out_params import Summary, labels_after, out_summary
from extractors.parking import MARK as PARKED
from extractors.parking import Parking, hands, parked_of, parked_places, parking_nodes, parks
from extractors.prune import cond_vars
from extractors.releases import releases
from extractors.return_exits import (
    Returned,
    allows,
    constant_name,
    exit_name,
    exit_names,
    exit_values,
    named_values,
    returned_value,
    value_of,
)
from extractors.sinks import Folded, fold_sinks, unfold
from extractors.struct_fields import FIELDS, part_labels

ENTRY, EXIT = "n0", "n1"


@dataclass(frozen=True)
class _Returns:
    """What one function's returns give (:mod:`extractors.return_exits`): the constants with an
    exit of their own, the constant each ``return`` node gives (only those that give one), the
    values of the constants it returns by name, and ``subject``, what a caller's :data:`EXITS`
    answer reads of all this."""

    values: tuple[Returned, ...]
    at: dict[int, Returned]
    named: dict[str, int]
    subject: str
_KEEP_KINDS = frozenset({"join", "label", "return"})
_NONE: frozenset[str] = frozenset()
_EMPTY: tuple[frozenset[str], tuple[tuple[str, str], ...]] = (frozenset(), ())
# value "$ret:g#k": the k-th statement (from 1, in CFG order) that throws away the result of a call
# to must-check function g; one value per statement, so that every dropped result is reported
DISCARD = "$ret:"
# on return statements: no rule reads it, but witnesses end at the return, so contraction keeps them
RETURN_LABEL = frozenset({"$return"})
# every component's exit: a rule that must not follow a path out of the function where it started
# (a callee's defensive NULL test says nothing about its caller's value) stops at it
EXIT_LABEL = frozenset({"exit"})


ADDRESS = "&"  # value "&x": the address of local or global x, handed to a project function


def discarded_value(v: str) -> str | None:
    """The callee whose result value ``v`` throws away (None when ``v`` is no discard value)."""
    return v[len(DISCARD) :].partition("#")[0] if v.startswith(DISCARD) else None


def discard_values(cfg: Cfg) -> dict[str, int]:
    """Each discard value of a function and the CFG node that drops the result: the ``k``-th node
    with an unchecked call of ``g`` is ``$ret:g#k`` (calls of ``g`` in one node share it)."""
    out: dict[str, int] = {}
    counts: dict[str, int] = {}
    for n in cfg.nodes:
        for name in dict.fromkeys(c.name for c in n.calls if c.unchecked and c.name):
            counts[name] = counts.get(name, 0) + 1
            out[f"{DISCARD}{name}#{counts[name]}"] = n.id
    return out


@dataclass(frozen=True, slots=True)
class NodeMeta:
    function: str
    cfg_id: int
    kind: str
    labels: frozenset[str]
    value: str  # the access path the node's labels are about
    branch: bool | None = None
    callee: str | None = None


_NEW_VALUE = frozenset({"write", "reset", "null"})  # a path's own store (a NULL or a constant store too)


def _through_written(events: tuple[tuple[str, str], ...], v: str) -> bool:
    """Whether a node stores a new value into a path ``v`` is reached through (``a`` or
    ``a->next`` of ``a->next->ptr``), so that ``v`` names another object after it. A store into
    a part (``s.n = 1``) says ``def`` of the whole, which leaves its other parts as they were."""
    for p, a in events:
        if a in _NEW_VALUE and len(p) < len(v) and v.startswith(p):
            rest = v[len(p) :]
            if rest.startswith("->") or rest.startswith("."):
                return True
    return False


def _through_handed(calls: tuple[Call, ...], v: str) -> bool:
    """Whether a node hands a callee the address of a pointer path ``v`` is reached through
    (``new_point(&a)`` for ``a->x``): the callee may point it at another object."""
    for c in calls:
        for ap, byaddr in c.args:
            if byaddr and ap is not None and v.startswith(ap + "->"):
                return True
    return False


_THROUGH = _NEW_VALUE | {"def", FIELDS}  # events on a path that say something of the paths under it


class _Naming(NamedTuple):
    """Per access path, the CFG nodes of a function that name it, and those where it speaks for
    the paths under it (:func:`_paths_named_by`); an index, so that a value's nodes cost what it
    finds rather than a set per node of every function."""

    named: dict[str, list[int]]
    through: dict[str, list[int]]
    lasting: tuple[int, ...]  # where every lasting value is labelled (lasting_always)


def _naming(cfg: Cfg) -> _Naming:
    named: dict[str, list[int]] = {}
    through: dict[str, list[int]] = {}
    for cid, node in enumerate(cfg.nodes):
        paths, passing = _paths_named_by(node)
        for p in paths:
            named.setdefault(p, []).append(cid)
        for p in passing:
            through.setdefault(p, []).append(cid)
    return _Naming(named, through, lasting_always(cfg))


def _paths_named_by(node: CfgNode) -> tuple[frozenset[str], frozenset[str]]:
    """Every access path ``node`` names (its events', its calls' arguments and results, its NULL
    test's, its takes), and those of them that can speak for the paths under them: stores
    (:func:`_through_written`, :func:`~extractors.struct_fields.part_labels`) and call arguments
    (a callee handed ``p`` gets ``p->f`` as a box, an unknown one lets it escape)."""
    named = {p for p, _ in node.events}
    through = {p for p, a in node.events if a in _THROUGH}
    for c in node.calls:
        args = [ap for ap, _ in c.args if ap is not None]
        named.update(args)
        through.update(args)
        if c.result is not None:
            named.add(c.result)
        named |= c.guarded
    if node.null_test is not None:
        named.add(node.null_test[0])
    named.update(node.takes)
    return frozenset(named), frozenset(through)


def function_id(fm: FunctionModel) -> str:
    """Unique id of a function definition: ``file:name`` (static helpers may share names)."""
    return fm.ident


def c_name(component_or_id: str) -> str:
    """The C function name of a function id or component name (``file:name@value``)."""
    ident = component_or_id.rsplit("@", 1)[0] if "@" in component_or_id else component_or_id
    return ident.rsplit(":", 1)[-1]


@dataclass
class Scope:
    """What a projection may see: the functions boxes may go to and how calls are read.

    ``functions`` maps function ids to models; a call resolves to a definition in the caller's
    own file first (static helpers), then to the project-wide one of that name.
    """

    functions: dict[str, FunctionModel]
    table: dict[str, CallSpec]
    allocators: frozenset[str]  # function ids
    globals: frozenset[str]
    by_name: dict[str, str] = field(default_factory=dict)
    volatiles: frozenset[str] = frozenset()  # globals declared volatile: every store counts
    by_file: dict[str, dict[str, str]] = field(default_factory=dict)
    # the allocators that never return NULL (extractors.projection.never_null_allocators)
    nonnull_allocators: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.by_name:
            for ident in sorted(self.functions, key=lambda i: (self.functions[i].file, i)):
                fm = self.functions[ident]
                self.by_name.setdefault(fm.name, ident)
                self.by_file.setdefault(fm.file, {})[fm.name] = ident

    @cached_property
    def keys(self) -> dict[str, str]:
        """Per function id, its model's key: what the runs kept for the next scope (allocator
        inference, lock contracts, the Merkle walk) compare to find the functions an edit changed."""
        return {ident: fm.key for ident, fm in self.functions.items()}

    def resolve(self, caller: FunctionModel, name: str | None) -> FunctionModel | None:
        if name is None:
            return None
        ident = self.by_file.get(caller.file, {}).get(name) or self.by_name.get(name)
        return self.functions.get(ident) if ident else None


def make_scope(
    models: list[FunctionModel],
    table: dict[str, CallSpec],
    globals_: frozenset[str],
    store: ProjectionStore | None = None,
    volatiles: frozenset[str] = frozenset(),
) -> Scope:
    functions = {function_id(fm): fm for fm in models}
    ids = frozenset(functions)
    named = store.names.get(ids) if store is not None else None
    if named is None:
        scope = Scope(functions, table, frozenset(), globals_, volatiles=volatiles)
        if store is not None:
            store.names[ids] = (scope.by_name, scope.by_file)
    else:  # the same functions as a scope before: names resolve as there (ids say file and name)
        by_name, by_file = named
        scope = Scope(functions, table, frozenset(), globals_, by_name, volatiles, by_file)
    scope.allocators = infer_allocators(
        scope, store.returned_calls if store is not None else None, store.inferences if store is not None else None
    )
    scope.nonnull_allocators = never_null_allocators(scope)
    return scope


RETURNS_ARGUMENT = "<argument>"  # in returned_calls: a parameter may be returned as the caller passed it


def returned_calls(fm: FunctionModel) -> frozenset[str]:
    """Names of the calls whose result ``fm`` may return (what allocator inference starts from),
    and :data:`RETURNS_ARGUMENT` when it may return a parameter it did not assign on the way."""
    returned = {p for p, _ in fm.cfg.returns if p}
    names = {c for _, c in fm.cfg.returns if c}
    for n in fm.cfg.nodes:
        for call in n.calls:
            if call.name and call.result in returned:
                names.add(call.name)
    if _returns_argument(fm):
        names.add(RETURNS_ARGUMENT)
    return frozenset(names)


def _returns_argument(fm: FunctionModel) -> bool:
    """Whether some ``return p;`` of a parameter ``p`` is reached from the entry without a store
    into ``p``: ``ImagingNew2Dirty(mode, imOut, imIn)`` returns the caller's ``imOut`` when it is
    given one and a fresh image only otherwise, so its result is no block the caller owns."""
    cfg = fm.cfg
    params = set(fm.params) - set(cfg.declared)
    returning: dict[str, list[int]] = {}
    for r in cfg.nodes:
        if r.kind == "return":
            for p in {q for q, a in r.events if a == "ret" and q in params}:
                returning.setdefault(p, []).append(r.id)
    for p, returns in returning.items():

        def onward(i: int, p: str = p) -> list[int]:
            stored = i != cfg.entry and any(q == p and a in _NEW_VALUE for q, a in cfg.nodes[i].events)
            return [] if stored else [j for j, _ in cfg.succ[i]]

        reached = closure([cfg.entry], onward)
        if any(r in reached for r in returns):
            return True
    return False


def infer_allocators(
    scope: Scope,
    memo: ContentMemos[str, frozenset[str]] | None = None,
    last: ContentMemos[frozenset[str], _Inference] | None = None,
) -> frozenset[str]:
    """Project functions that return a fresh allocation (directly or from another such function).

    ``memo`` keeps each function's returned calls by its text key across scopes, and ``last`` the
    last inference over the same functions: a scope is made after every edit, and an edit of a
    function that returns no allocation, and calls none it could return, cannot change the answer
    (see :func:`_stays_out`), so only the edited functions are read again."""
    ids = frozenset(scope.functions)
    before = last.get(ids) if last is not None else None
    if before is not None and before.table != scope.table:
        before = None
    facts: dict[str, frozenset[str]] = {}
    edited: list[str] = []
    for ident, fm in scope.functions.items():
        if before is not None and before.keys.get(ident) == fm.key:
            facts[ident] = before.facts[ident]
            continue
        names = memo.get(fm.key) if memo is not None else None
        if names is None:
            names = returned_calls(fm)
            if memo is not None:
                memo[fm.key] = names
        facts[ident] = names
        edited.append(ident)
    if before is not None and all(_stays_out(scope, i, facts[i], before.found) for i in edited):
        found = before.found
    else:
        found = _allocators(scope, facts)
    if last is not None:
        last[ids] = _Inference(scope.table, scope.keys, facts, found)
    return found


def _stays_out(scope: Scope, ident: str, names: frozenset[str], found: frozenset[str]) -> bool:
    """Whether function ``ident``, edited since the inference that gave ``found``, leaves it as it
    is: it was no allocator there and cannot become one, as what it returns comes from no library
    allocator nor from a function of ``found``.  Then every step of the inference's fixpoint runs
    as it did (a function's step reads its own model, the call table and which functions are
    allocators so far, always a part of ``found``), and ends in ``found`` again."""
    if ident in found:
        return False
    fm = scope.functions[ident]
    if fm.name in scope.table or RETURNS_ARGUMENT in names:
        return True  # never one: its step skips it
    if any(scope.table.get(c, CallSpec()).returns == "alloc" for c in names):
        return False
    return not any((g := scope.resolve(fm, c)) is not None and function_id(g) in found for c in names)


def _allocators(scope: Scope, facts: dict[str, frozenset[str]]) -> frozenset[str]:
    """The fixpoint of :func:`infer_allocators` over every function's returned calls (``facts``)."""
    resolved = {
        ident: {function_id(g) for c in names if (g := scope.resolve(scope.functions[ident], c)) is not None}
        for ident, names in facts.items()
    }
    alloc: set[str] = set()

    def allocating(fm: FunctionModel, c: Call) -> bool:
        spec = scope.table.get(c.name) if c.name else None
        if spec is not None:
            return spec.returns == "alloc"
        g = scope.resolve(fm, c.name)
        return g is not None and function_id(g) in alloc

    changed = True
    while changed:
        changed = False
        for ident, names in facts.items():
            fm = scope.functions[ident]
            if ident in alloc or fm.name in scope.table or RETURNS_ARGUMENT in names:
                continue
            direct = any(scope.table.get(c, CallSpec()).returns == "alloc" for c in names)
            if (direct or resolved[ident] & alloc) and not kept_elsewhere(scope, fm, partial(allocating, fm)):
                alloc.add(ident)
                changed = True
    return frozenset(alloc)


def never_null_allocators(scope: Scope) -> frozenset[str]:
    """The inferred allocators that never return NULL: no ``return NULL``, and every value they
    return has passed a not-NULL test since it was last set (its NULL branch aborts: ``if (!p)
    abort();``), or comes from an allocator that never returns NULL.  Their result is a fresh
    block its caller owns and need not test, as a ``nonnull_allocators`` entry's (``xmalloc``)."""
    nonnull: set[str] = set()
    changed = True
    while changed:
        changed = False
        for ident in sorted(scope.allocators - nonnull):
            if _never_null(scope, scope.functions[ident], nonnull):
                nonnull.add(ident)
                changed = True
    return frozenset(nonnull)


def _never_null(scope: Scope, fm: FunctionModel, nonnull: set[str]) -> bool:
    cfg = fm.cfg
    if any(c for _, c in cfg.returns if c) or any((RETURNED, "null") in n.events for n in cfg.nodes):
        return False  # return malloc(n); or return NULL;
    returned = {p for p, _ in cfg.returns if p}

    def sure(n: int, p: str) -> bool:
        """Whether node ``n``'s new value of ``p`` is never NULL (a never-NULL allocator's)."""
        for c in cfg.nodes[n].calls:
            if c.result == p:
                spec = scope.table.get(c.name) if c.name else None
                g = scope.resolve(fm, c.name) if spec is None else None
                return spec is not None and spec.nonnull or g is not None and function_id(g) in nonnull
        return False

    # (node, value, whether the value is known not NULL there), from the entry: every value starts
    # unknown, a write makes it unknown again (unless it is a never-NULL allocator's), the not-NULL
    # branch of its test makes it known; returning it unknown fails
    todo = [(cfg.entry, p, False) for p in sorted(returned)]
    seen = set(todo)
    while todo:
        n, p, known = todo.pop()
        node = cfg.nodes[n]
        if node.kind == "return" and (p, "ret") in node.events and not known:
            return False
        for t, label in cfg.succ[n]:
            k = known
            if any(q == p and a in ("def", "write") for q, a in cfg.nodes[t].events):
                k = sure(t, p)
            if node.null_test is not None and node.null_test[0] == p and label is not None:
                k = k or label != node.null_test[1]
            if (t, p, k) not in seen:
                seen.add((t, p, k))
                todo.append((t, p, k))
    return True


def kept_elsewhere(scope: Scope, fm: FunctionModel, allocating: Callable[[Call], bool]) -> bool:
    """Whether a block ``fm`` returns from an allocating call is also handed to something that
    outlives ``fm``'s frame: stored in a global, a static local or a field reached through a
    parameter (``cache = p;``, ``parent->child = p;``), or passed where a call keeps it (a table
    row's ``escape``, or a call that is neither in the table nor a project function, unless a
    prototype's ``const T *`` says it only reads it).

    Such a function hands its caller a borrowed pointer (a per-thread record parked with
    ``pthread_setspecific`` and returned, a cached singleton), so it is no allocator: counting it
    one made every caller leak the block.  A store through an out-parameter (``*out = p``) or a
    copy into another local is no keeping (the caller, or the frame, still holds the only other
    reference); a project callee's use of the block is its own box's, and is not looked at here.
    Kept on any path counts: whether the caller owns the block must not depend on the path."""
    cfg = fm.cfg
    returned = {p for p, _ in cfg.returns if p}
    blocks = {c.result for n in cfg.nodes for c in n.calls if c.result in returned and allocating(c)}
    if not blocks:
        return False
    mine = locals_of(fm)
    for n in cfg.nodes:
        for dst, src in n.copies:
            if src not in blocks or root_of(dst) == src or dst.startswith("*"):
                continue
            root = root_of(dst)
            if root in cfg.static_locals or root not in mine or dst != root and root in fm.params:
                return True
        for c in n.calls:
            spec = scope.table.get(c.name) if c.name else None
            for k, (ap, byaddr) in enumerate(c.args):
                if ap not in blocks or byaddr:
                    continue
                if spec is not None:
                    if any(atom == "escape" for i, atom in spec.args if i in (k, -1)):
                        return True
                elif scope.resolve(fm, c.name) is None and k not in c.borrowed:
                    return True
    return False


def locals_of(fm: FunctionModel) -> set[str]:
    return set(fm.cfg.declared) | set(fm.params)


def is_local(fm: FunctionModel, name: str) -> bool:
    """``name in locals_of(fm)`` without making the set (asked for every answer a stored
    projection is validated with: a function of hundreds of locals made it each time)."""
    return name in fm.cfg.declared or name in fm.params


def outlives_frame(fm: FunctionModel, v: str, globals_: frozenset[str]) -> bool:
    """Whether what ``v`` holds is still reachable after ``fm`` returns: the returned value, a
    global of the project, or a field of an object the caller handed in (``req->method``).  A
    local or a field of a local struct dies with the frame; a pointer local may point anywhere,
    and a name that is neither local nor a known global (a K&R parameter, a macro) may be
    anything, so neither is counted."""
    root = root_of(v)
    if v == RETURNED or not is_local(fm, root) and root in globals_:
        return True
    return root in fm.params and root not in fm.cfg.declared and v[len(root) :].startswith("->")


PROJECTION = "projection"  # whether function@value carries anything
MENTION = "mention"  # whether a call to the function can touch a global
MAY_NULL = "may-null"  # whether the function may return NULL (extractors.null_returns)
RAISED_NULL = "raised-null"  # whether its every NULL comes with the error indicator set (the same)
OUT_PARAM = "out-param"  # what the function leaves in *param per return (extractors.out_params)
BY_REFERENCE = "by-reference"  # a cycle's member was kept by name while it was being built
REASSIGNED = "reassigned"  # whether the function gives its parameter a new value (extractors.by_value)
EXITS = "exits"  # the returned literals with exits of their own (extractors.return_exits)
RELEASES = "releases"  # whether the function releases its parameter (extractors.releases)
PARKS = "parks"  # what the function stores of its parameters where its caller sees it (extractors.parking)


class Dep(NamedTuple):
    """One question a projection asked about another function while it was built, and the answer:
    the projection is reused while every answer is still the same."""

    kind: str  # PROJECTION, MENTION, MAY_NULL, RAISED_NULL, OUT_PARAM, REASSIGNED, EXITS, PARKS, BY_REFERENCE
    function: str  # function id
    # the value (PROJECTION, REASSIGNED), global root (MENTION), "" (MAY_NULL, RAISED_NULL),
    # "k|summary" (OUT_PARAM), the literals (EXITS), the summary (PARKS)
    subject: str
    answer: bool


def _kept(deps: Iterable[Dep]) -> tuple[Dep, ...]:
    """``deps`` as stored: each answer and the whole shared (:mod:`checker.sharing`), as a big
    check stores hundreds of thousands of answers of a few ten thousand values."""
    return shared(tuple(shared(d) for d in deps))


_MENTION = "\0mention"  # tags, among the projections a value read, the functions asked about a global


class _Missing:
    """Nothing stored (distinct from a stored projection that is empty, ``None``)."""


_MISSING = _Missing()


@dataclass(frozen=True)
class _Stored:
    """A built projection with the answers about other functions its content depended on."""

    component: Component | None
    meta: dict[str, NodeMeta]
    deps: tuple[Dep, ...]


@dataclass(frozen=True)
class _Inference:
    """One run of :func:`infer_allocators`, for the next one over the same functions."""

    table: dict[str, CallSpec]
    keys: dict[str, str]  # function id -> its model's key
    facts: dict[str, frozenset[str]]  # function id -> its returned calls
    found: frozenset[str]


@dataclass(frozen=True)
class _Merkle:
    """One walk of :attr:`Projector._merkle`, for the next one over the same functions."""

    base: bytes
    callees: dict[str, tuple[str, ...]]
    snap: dict[str, str]  # function id -> its model's key
    sccs: list[list[str]]  # callees' parts first
    recursive: set[str]
    deep: dict[str, str]  # with the recursive functions
    positional: dict[str, str]
    callers: dict[str, list[str]]  # the reverse of ``callees``
    part_of: dict[str, int]  # function id -> the index of its part in ``sccs``
    exported: dict[str, str]  # ``deep`` without the recursive functions


def _part_digests(
    scc: list[str],
    fns: dict[str, FunctionModel],
    base: bytes,
    callees: dict[str, tuple[str, ...]],
    deep: dict[str, str],
    positional: dict[str, str],
) -> tuple[str, str]:
    """The deep and positional digests of one strongly connected part of the call graph, from its
    members' keys and the digests of the callees outside it (``deep`` and ``positional`` hold
    those already: parts are hashed callees first)."""
    members = set(scc)
    h, hp = hashlib.sha256(), hashlib.sha256(base)
    for i in sorted(scc):  # not the walk's order, which depends on where it entered the cycle
        h.update(f"|{i}:{fns[i].key}".encode())
        hp.update(f"|{i}:{fns[i].key}".encode())
        for c in callees[i]:
            h.update(b"~" if c in members else deep[c].encode())
            hp.update(b"~" if c in members else positional[c].encode())
    return h.hexdigest()[:32], hp.hexdigest()


def _after_callees(
    edited: str,
    ups: list[str],
    sccs: list[list[str]],
    part_of: dict[str, int],
    callees: dict[str, tuple[str, ...]],
    callers: dict[str, list[str]],
) -> tuple[list[list[str]], dict[str, int]] | None:
    """The parts in an order callees come first in again, now that ``edited`` (on no cycle) calls
    ``ups``, functions of parts at or after its own; None when one of them reaches ``edited`` (a
    new cycle: the parts change) or is ``edited``. ``callees`` and ``callers`` are the new graph.

    Between ``edited``'s part and the latest of ``ups``', the parts of ``edited`` and of the
    functions that reach it move after the others, each group in its order: every edge into the
    moved group comes from a function that reaches ``edited``, so from the group or from beyond
    the range; an edge out of it may go anywhere before it; and no new callee is in it, as none
    reaches ``edited``. Every other edge goes to an earlier part, so both searches stay within
    the range."""
    if edited in ups:
        return None
    low, high = part_of[edited], max(part_of[c] for c in ups)
    seen: set[str] = set()
    stack = list(ups)
    while stack:  # down from the new callees: does any reach the edited function?
        f = stack.pop()
        if f == edited:
            return None
        if f in seen or part_of[f] <= low:
            continue
        seen.add(f)
        stack.extend(callees[f])
    group: set[int] = set()
    reached: set[str] = set()
    stack = [edited]
    while stack:  # up from the edited function: what reaches it within the range
        f = stack.pop()
        if f in reached or part_of[f] > high:
            continue
        reached.add(f)
        group.add(part_of[f])
        stack.extend(callers.get(f, ()))
    span = range(low, high + 1)
    order = [p for p in span if p not in group] + [p for p in span if p in group]
    new_sccs = sccs[:low] + [sccs[p] for p in order] + sccs[high + 1 :]
    new_part_of = dict(part_of)
    for at, p in enumerate(order, start=low):
        for f in sccs[p]:
            new_part_of[f] = at
    return new_sccs, new_part_of


def _stored_weight(stored: _Stored) -> int:
    return 1 + (len(stored.component.nodes) // 8 if stored.component is not None else 0)


# The store's tables; weights are rough sizes relative to a small record (see ``ProjectionStore``).
_COMPONENTS = Content[tuple[str, str, str, str], _Stored]("projection", weight=_stored_weight)
_BY_DEEP = Content[tuple[str, str, str], _Stored]("projection_by_deep_key")
_INDEXES = Content[str, dict[str, list[int]]]("node_index", weight=lambda idx: 1 + len(idx) // 8)
_SKELETONS = Content[str, "_Skeleton"]("skeleton", weight=lambda sk: 1 + len(sk.succ) // 8)
_RSMS = Content[tuple[str, tuple[Component, ...]], RSM]("checked_model", weight=lambda rsm: 1 + len(rsm.components))
_RETURNED_CALLS = Content[str, frozenset[str]]("returned_calls")
_NULL_RETURNS = Content[str, str]("null_returns")
_OUT_PARAMS = Content[tuple[str, int, str], "Summary | None"]("out_params")
_RELEASES = Content[tuple[str, int, str], bool]("releases")
_SHAPES = Content[str, tuple[str, tuple[str, ...]]]("shape", weight=lambda got: 1 + len(got[1]) // 8)
_CALLEES = Content[tuple[str, str, str], tuple[str, ...]]("callee_ids")
_LOCK_CALLERS = Content[str, bool]("lock_callers")  # by model key: calls a library lock function
_STORE_KEYS = Content[tuple[str, str, str, str], tuple[str, str, str, str]]("store_key")
_MERKLE = Content[str, _Merkle]("merkle_walk", weight=lambda m: 1 + len(m.snap) // 4)
_INFERENCES = Content[frozenset[str], _Inference]("allocator_inference", weight=lambda i: 1 + len(i.keys) // 4)
_MENTIONS = Content[str, frozenset[str]]("mentions")
# by a scope's function ids: Scope.by_name and Scope.by_file, which depend on nothing else
_NAMES = Content[frozenset[str], tuple[dict[str, str], dict[str, dict[str, str]]]](
    "scope_names", weight=lambda n: 1 + len(n[0]) // 4
)
_VALUES = Content[tuple[str, str], tuple[str, ...]]("values")
_LOCKED = Content[tuple[str, str], tuple[tuple[int, str], ...]]("locked_paths")
_PARKING = Content[tuple[str, str], Parking]("parking")
_COPIES = Content[str, "dict[str, dict[int, frozenset[str]]]"](
    "copy_table", weight=lambda t: 1 + sum(map(len, t.values()))
)
_STAMPS = Content[tuple[str, str, str, str], str]("content_stamp")
_NAMED = Content[str, "_Naming"]("named_paths", weight=lambda got: 1 + (len(got.named) + len(got.through)) // 8)
_LAYOUTS = Content[str, tuple[tuple[str, ...], str]]("layout", weight=lambda got: 1 + len(got[0]) // 8)
_RETURNS = Content[tuple[str, str], _Returns]("returns", weight=lambda got: 1 + len(got.at) // 8)
_OwnStep = tuple[frozenset[str], frozenset[tuple[str, str]]]
_STEPS = Content[tuple[str, str, str, str], "_OwnStep | None"](
    "own_step", weight=lambda got: 1 + (len(got[1]) if got is not None else 0)
)


class _OwnBound(NamedTuple):
    """:meth:`Projector._own_bound`: the labels a value's own projection can hold, the value it
    reads (None for a global), and the (function id, value) its boxes may go to."""

    labels: frozenset[str]
    reads: frozenset[tuple[str, str]] | None
    targets: tuple[tuple[str, str], ...]


class _StoredBound(NamedTuple):
    """An own bound with the answers about other functions it was read with (as a stored
    projection keeps them): it holds while every answer is the same."""

    bound: _OwnBound
    deps: tuple[Dep, ...]


_OWN_BOUNDS = Content[tuple[str, str, str, str], _StoredBound](
    "own_bound", weight=lambda got: 1 + (len(got.bound.targets) + len(got.deps)) // 4
)

STORE_WEIGHT = 2_000_000  # the bound of a store that has no database of its own


class ProjectionStore:
    """Projections kept across projectors, so that an edit re-projects only what it changed.

    A new :class:`Projector` is made whenever any function changes; without this store it
    re-projected every caller of the edited function from scratch, which was most of the time of
    a one-line edit.  Entries are keyed by content (function id, what the projection reads of the
    function, value, scope digest) and are reused only after the questions the projection asked
    about callees (does ``g@q`` carry anything? does ``g`` mention this global?) get the same
    answers again.

    Every table is a content table of the project's query database (:class:`Content`): the
    database's one bound and least-recently-used order decide what is forgotten, for these and for
    the queries' memos alike.
    """

    def __init__(self, db: Database | None = None) -> None:
        self.db = db if db is not None else Database(STORE_WEIGHT)
        d = self.db
        self.components = d.content(_COMPONENTS)
        self.by_deep = d.content(_BY_DEEP)  # (deep key, value, scope)
        self.indexes = d.content(_INDEXES)
        self.skeletons = d.content(_SKELETONS)
        self.rsms = d.content(_RSMS)
        self.returned_calls = d.content(_RETURNED_CALLS)
        self.null_returns = d.content(_NULL_RETURNS)  # by text key: extractors.null_returns
        self.out_params = d.content(_OUT_PARAMS)  # by text key, parameter, scope: extractors.out_params
        self.releases = d.content(_RELEASES)  # by text key, parameter, call table: extractors.releases
        self.shapes = d.content(_SHAPES)  # shape, node contents
        self.callees = d.content(_CALLEES)
        self.lock_callers = d.content(_LOCK_CALLERS)  # extractors.lock_contracts
        self.store_keys = d.content(_STORE_KEYS)
        self.merkle = d.content(_MERKLE)  # by resolution digest
        self.inferences = d.content(_INFERENCES)  # by the scope's function ids: infer_allocators
        self.mentions = d.content(_MENTIONS)  # by Merkle digest
        self.names = d.content(_NAMES)  # by the scope's function ids: make_scope
        self.values = d.content(_VALUES)  # by text key and scope
        self.locked = d.content(_LOCKED)  # by text key and scope
        self.parking = d.content(_PARKING)  # by text key and scope: extractors.parking
        self.stamps = d.content(_STAMPS)
        self.layouts = d.content(_LAYOUTS)
        self.returns = d.content(_RETURNS)  # by text key and scope digest (the globals it reads)
        self.copies = d.content(_COPIES)  # by text key
        self.named_paths = d.content(_NAMED)  # by text key
        self.steps = d.content(_STEPS)  # by text key, function id, value and scope digest
        self.own_bounds = d.content(_OWN_BOUNDS)  # by function id, text key, value, scope digest
        # whether to keep what only a projector of edited texts reuses (each value's own part of
        # its atoms' bound): a batch worker's texts never change, and there these entries, one
        # per value reached, only pushed projections and verdicts out of the database's bound
        self.across_edits = True


class _Bound(NamedTuple):
    """:meth:`Projector.atoms_bound` and :meth:`Projector.bound_reads` of one value."""

    atoms: frozenset[str]
    reads: frozenset[tuple[str, str]] | None


_DEEPEST_BOUND = 300  # values deep in a chain of boxes: past this, no bound (the value is built)


class _BoundSearch:
    """Tarjan's strongly connected parts of the graph of values and the callee values their boxes
    go to: each value of a part reaches every other, so each gets the union of the part's own
    labels and reads and of every bound the part reaches (a recursive cycle has one bound)."""

    def __init__(self, proj: Projector) -> None:
        self.proj = proj
        self.index: dict[tuple[str, str], int] = {}
        self.low: dict[tuple[str, str], int] = {}
        self.stack: list[tuple[str, str]] = []
        self.open: dict[tuple[str, str], tuple[set[str], set[tuple[str, str]] | None, bool]] = {}

    def visit(self, fm: FunctionModel, v: str, depth: int = 0) -> None:
        proj, key = self.proj, (function_id(fm), v)
        self.index[key] = self.low[key] = len(self.index)
        self.stack.append(key)
        self.open[key] = (set(), set(), False)  # on the stack
        mine = proj._own_bound(fm, v)
        labels, reads = set(mine.labels), set(mine.reads) if mine.reads is not None else None
        failed = depth > _DEEPEST_BOUND
        for k in () if failed else mine.targets:
            g, w = proj.scope.functions[k[0]], k[1]
            got: _Bound | None | _Missing
            if k in self.open:
                self.low[key] = min(self.low[key], self.index[k])
                continue
            got = proj._bounds.get(k, _MISSING)
            if isinstance(got, _Missing):
                got = proj._known_bound(g, w)
                if isinstance(got, _Missing):
                    self.visit(g, w, depth + 1)
                    if k in self.open:  # in this part: its labels join at the part's root
                        self.low[key] = min(self.low[key], self.low[k])
                        continue
                    got = proj._bounds[k]
                else:
                    proj._bounds[k] = got
            if got is None:
                failed = True
                break
            labels |= got.atoms
            reads = reads | got.reads if reads is not None and got.reads is not None else None
        self.open[key] = (labels, reads, failed)
        if self.low[key] != self.index[key]:
            return
        part: list[tuple[str, str]] = []
        while not part or part[-1] != key:
            part.append(self.stack.pop())
        atoms: set[str] = set()
        read: set[tuple[str, str]] | None = set()
        for k in part:
            own, r, f = self.open.pop(k)
            failed |= f
            atoms |= own
            read = read | r if read is not None and r is not None else None
        kept = shared(frozenset(read)) if read is not None else None
        bound = None if failed else _Bound(shared(frozenset(atoms)), kept)
        for k in part:
            proj._bounds[k] = bound


@dataclass(frozen=True)
class ReachSummary:
    atoms: frozenset[str]
    reads: dict[str, frozenset[str]]  # function id -> values whose projections were read
    mentioned: frozenset[str]


@dataclass
class Projector:
    scope: Scope
    signature: str = ""
    comps: dict[str, Component | None] = field(default_factory=dict)
    meta: dict[str, dict[str, NodeMeta]] = field(default_factory=dict)
    _building: set[str] = field(default_factory=set)
    _referenced: set[str] = field(default_factory=set)
    _index: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    _closure: dict[str, tuple[Component, ...]] = field(default_factory=dict)
    _rsms: dict[str, RSM] = field(default_factory=dict)
    _mentions: dict[str, frozenset[str] | None] = field(default_factory=dict)
    _calling: dict[str, list[int]] = field(default_factory=dict)
    _reachable: dict[str, tuple[FunctionModel, ...]] = field(default_factory=dict)
    _skeletons: dict[str, _Skeleton] = field(default_factory=dict)
    _wrapped: dict[str, frozenset[str]] = field(default_factory=dict)
    _parked: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    _parking_at: dict[tuple[str, str], frozenset[int]] = field(default_factory=dict)  # by function, place
    _stored: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)  # per function, per value
    store: ProjectionStore = field(default_factory=ProjectionStore)
    _deps: list[list[Dep]] = field(default_factory=list)
    _used: dict[str, tuple[Dep, ...] | None] = field(default_factory=dict)  # per component: its answers
    _done: dict[tuple[str, str], str | None] = field(default_factory=dict)
    _names: dict[tuple[str, str], str] = field(default_factory=dict)
    _stamps: dict[tuple[str, str], str | None] = field(default_factory=dict)
    _owner: dict[str, tuple[str, str]] = field(default_factory=dict)  # component name -> (function id, value)
    _reach_names: dict[str, frozenset[str] | None] = field(default_factory=dict)
    _reach_atoms: dict[str, frozenset[str] | None] = field(default_factory=dict)
    _reach_reads: dict[str, frozenset[tuple[str, str]] | None] = field(default_factory=dict)
    _summaries: dict[tuple[str, str], ReachSummary | None] = field(default_factory=dict)
    _bounds: dict[tuple[str, str], _Bound | None] = field(default_factory=dict)
    _copies: dict[tuple[str, str], dict[int, frozenset[str]]] = field(default_factory=dict)
    _relevants: dict[tuple[str, str], tuple[tuple[int, ...], bool]] = field(default_factory=dict)
    _own_bounds: dict[tuple[str, str], _OwnBound] = field(default_factory=dict)  # when not in the store
    _returning: dict[str, bool] = field(default_factory=dict)  # per function id: has a return statement
    _summarised: dict[tuple[str, str], bool] = field(default_factory=dict)  # addresses_summarised
    # one object per distinct node, and per distinct edge or box end, among the projections built
    # here: kept nodes are named by rank, so a function's projections on different values repeat
    # most of them (a huge function's thousand values hold ten times fewer distinct ones)
    _shared_nodes: dict[Node, Node] = field(default_factory=dict)
    _shared_edges: dict[tuple[Ref, Ref], tuple[Ref, Ref]] = field(default_factory=dict)
    _shared_ends: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    _reassigning: dict[tuple[str, str], frozenset[int]] = field(default_factory=dict)
    _returns: dict[str, _Returns] = field(default_factory=dict)  # function id -> what it returns

    @cached_property
    def table_digest(self) -> str:
        """The call table calls are read with: the configuration's and every macro of the scope."""
        return hashlib.sha256(repr(sorted(self.scope.table.items())).encode()).hexdigest()[:32]

    @cached_property
    def scope_digest(self) -> str:
        """Everything about the scope a projection may depend on besides the answers in its deps."""
        sc = self.scope
        h = hashlib.sha256(self.table_digest.encode())
        h.update(
            repr((sorted(sc.allocators), sorted(sc.globals), sorted(sc.volatiles), sorted(sc.nonnull_allocators)))
            .encode()
        )
        fns = sc.functions
        h.update("".join([f"|{ident}:{','.join(fns[ident].params)}" for ident in sorted(fns)]).encode())
        return h.hexdigest()[:32]

    @property
    def deep_keys(self) -> dict[str, str]:
        """Per function id, a hash of its text key and of everything it can call (a recursive cycle
        shares one). A projection is made of exactly these functions and the scope, so one found
        under the same deep key, value and scope digest is taken as it is: an edit then re-projects
        only the edited function and its callers, where validating stored projections used to walk
        every callee again. Functions on a recursive cycle get none: what their projections answer
        there can depend on the order they were built in."""
        return self._merkle[0]

    @property
    def positional_keys(self) -> dict[str, str]:
        """Per function id, everything its (unplaced) findings depend on: the deep key's content,
        for recursive functions too, and the scope's allocators, globals (and which are volatile) and
        call table (which holds the macros of every file of the scope). No rows: findings name
        places relative to the functions they are in."""
        return self._merkle[1]

    @property
    def reach_keys(self) -> dict[str, str]:
        """Per function id, a hash of its text key and of everything it can call, recursive
        functions included (the members of a cycle share one): what :meth:`deep_keys` gives where
        the build order cannot matter."""
        return self._merkle[2]

    @cached_property
    def _merkle(self) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
        """Both keys in one walk over the call graph, bottom-up (callees first): on a file of
        thousands of functions each walk is milliseconds of every edit. So the last walk over the
        same functions is kept: when no call changed, its strongly connected parts are reused and
        only those whose members or callees changed are hashed again, found from the functions
        whose key changed through the callers (:meth:`_merkle_again`), without visiting the rest;
        otherwise every part is found and hashed again (:meth:`_merkle_walk`)."""
        sc = self.scope
        named = (sc.allocators, sc.globals, sc.volatiles, sc.nonnull_allocators)
        base = "|".join((*(",".join(sorted(names)) for names in named), self.table_digest)).encode()
        snap = sc.keys
        last = self.store.merkle.get(self.resolution_digest)
        walk = self._merkle_again(last, base, snap) if last is not None else None
        if walk is None:
            walk = self._merkle_walk(last, base, snap)
        self.store.merkle[self.resolution_digest] = walk
        return walk.exported, walk.positional, walk.deep

    def _merkle_again(self, last: _Merkle, base: bytes, snap: dict[str, str]) -> _Merkle | None:
        """The last walk with the parts of the functions whose key changed hashed again, and then
        those of their callers whose callees' digests changed (the parts come callees first, so in
        index order each part is hashed after all it calls); None when that walk cannot stand for
        this one: another base, other functions, or a changed function's calls change the parts.

        A function on no recursive cycle may drop calls, and call functions of parts before its
        own, and the parts stay what they were: dropping edges out of a function on no cycle
        splits no cycle, and an edge to an earlier part goes callees-first like every other, so it
        closes none and the parts stay in an order callees come first in (a part's digest reads
        its members by id, so where a walk entered a cycle does not matter). One such function
        may also call functions of later parts that do not reach it: the parts stay, in an order
        :func:`_after_callees` mends."""
        if last.base != base or len(last.snap) != len(snap):
            return None
        fns = self.scope.functions
        was = last.snap
        edited = [i for i, k in snap.items() if was.get(i) != k]
        callees, sccs, part_of, callers = last.callees, last.sccs, last.part_of, last.callers
        rewired: dict[str, tuple[str, ...]] = {}
        later: dict[str, list[str]] = {}  # edited function -> its new callees of later parts
        for i in edited:
            if i not in was:
                return None
            now = self.callee_ids(fns[i], i)
            if now == callees[i]:
                continue
            if i in last.recursive:
                return None
            if ups := [c for c in set(now) - set(callees[i]) if part_of[c] >= part_of[i]]:
                later[i] = ups
            rewired[i] = now
        if not edited:
            return replace(last, snap=snap)
        if len(later) > 1:
            return None
        if rewired:
            callees, callers = dict(callees), dict(callers)
            for i, now in rewired.items():
                before, after = set(callees[i]), set(now)
                for c in before - after:
                    callers[c] = [k for k in callers[c] if k != i]
                for c in after - before:
                    callers[c] = [*callers.get(c, ()), i]
                callees[i] = now
        for i, ups in later.items():
            moved = _after_callees(i, ups, sccs, part_of, callees, callers)
            if moved is None:
                return None
            sccs, part_of = moved
        deep, positional, exported = dict(last.deep), dict(last.positional), dict(last.exported)
        queued = {part_of[i] for i in edited}
        todo = sorted(queued)
        while todo:
            scc = sccs[heapq.heappop(todo)]
            digest, pdigest = _part_digests(scc, fns, base, callees, deep, positional)
            for i in scc:
                if deep[i] == digest and positional[i] == f"{pdigest}|{i}":
                    continue
                deep[i] = digest
                positional[i] = f"{pdigest}|{i}"
                if i not in last.recursive:
                    exported[i] = digest
                for caller in callers.get(i, ()):
                    part = part_of[caller]
                    if part not in queued:
                        queued.add(part)
                        heapq.heappush(todo, part)
        graph = replace(last, snap=snap, callees=callees, callers=callers, sccs=sccs, part_of=part_of)
        return replace(graph, deep=deep, positional=positional, exported=exported)

    def _merkle_walk(self, last: _Merkle | None, base: bytes, snap: dict[str, str]) -> _Merkle:
        """The walk over every part: the call graph or the base changed (otherwise
        :meth:`_merkle_again` stands for it), so its parts are found again and all hashed."""
        fns = self.scope.functions
        # a function's callee ids are a function of its id, key and the resolution (callee_ids'
        # key), so the last walk's stand for those whose key did not change
        before = last.callees if last is not None else {}
        was = last.snap if last is not None else {}
        callees = {
            i: before[i] if was.get(i) == fm.key and i in before else self.callee_ids(fm, i) for i, fm in fns.items()
        }
        sccs = strongly_connected(sorted(fns), callees.__getitem__)
        recursive = {i for scc in sccs if len(scc) > 1 or scc[0] in callees[scc[0]] for i in scc}
        deep: dict[str, str] = {}
        positional: dict[str, str] = {}
        for scc in sccs:
            digest, pdigest = _part_digests(scc, fns, base, callees, deep, positional)
            for i in scc:
                deep[i] = digest
                positional[i] = f"{pdigest}|{i}"  # the members of a cycle share a digest, not findings
        callers: dict[str, list[str]] = {}
        for i, cs in callees.items():
            for c in cs:
                callers.setdefault(c, []).append(i)
        part_of = {i: n for n, scc in enumerate(sccs) for i in scc}
        exported = {i: k for i, k in deep.items() if i not in recursive}
        return _Merkle(base, callees, snap, sccs, recursive, deep, positional, callers, part_of, exported)

    def index(self, fm: FunctionModel) -> dict[str, list[int]]:
        """CFG nodes by the root variable of every path they mention."""
        idx = self._index.get(function_id(fm))
        if idx is None:
            idx = self.store.indexes.get(fm.key)
        if idx is None:
            idx = {}
            for n in fm.cfg.nodes:
                roots = {root_of(p) for p, _ in n.events}
                for c in n.calls:
                    roots.update(root_of(a) for a, _ in c.args if a)
                    if c.result:
                        roots.add(root_of(c.result))
                if n.null_test:
                    roots.add(root_of(n.null_test[0]))
                roots.update(root_of(p) for p in n.takes)
                for r in roots:
                    idx.setdefault(r, []).append(n.id)
            for v, cid in discard_values(fm.cfg).items():
                idx[v] = [cid]
            self.store.indexes[fm.key] = idx
        self._index[function_id(fm)] = idx
        return idx

    def mentions(self, fname: str) -> frozenset[str]:
        """Root names a function or anything it calls mentions (so global boxes skip unrelated calls).

        Kept across projectors by the function's Merkle digest, which covers everything it can
        call: summing them for every function again was a few milliseconds of every edit of a
        large file."""
        fns, memo = self.scope.functions, self._mentions
        if fname not in fns:
            return frozenset()
        digests, stored = self.reach_keys, self.store.mentions

        def callees(n: str) -> tuple[str, ...]:
            out = self.callee_ids(fns[n], n)
            for c in out:
                if c not in memo and (known := stored.get(digests[c])) is not None:
                    memo[c] = known
            return out

        got = memo.get(fname)
        if got is None:
            got = stored.get(digests[fname])
        if got is None:
            got = reach_union(fname, callees, lambda n: frozenset(self.index(fns[n])), memo) or frozenset()
            stored[digests[fname]] = got
        memo[fname] = got
        return got

    def calling_nodes(self, fm: FunctionModel) -> list[int]:
        got = self._calling.get(function_id(fm))
        if got is None:
            sc = self.scope
            got = [n.id for n in fm.cfg.nodes if any(sc.resolve(fm, c.name) for c in n.calls)]
            self._calling[function_id(fm)] = got
        return got

    def callee_ids(self, fm: FunctionModel, ident: str | None = None) -> tuple[str, ...]:
        """Ids of the project functions ``fm`` calls directly (resolved as the projection resolves
        them), sorted, kept across projectors by the function's text and the call resolution: the
        Merkle keys walk every function's callees on every edit, and on a file of thousands of
        functions rescanning each CFG per visit dominated the whole check."""
        key = (ident or function_id(fm), fm.key, self.resolution_digest)
        ids = self.store.callees.get(key)
        if ids is None:
            out: set[str] = set()
            for n in fm.cfg.nodes:
                for c in n.calls:
                    if c.name is not None and c.name not in self.scope.table:
                        g = self.scope.resolve(fm, c.name)
                        if g is not None:
                            out.add(function_id(g))
            ids = self.store.callees[key] = tuple(sorted(out))
        return ids

    @cached_property
    def resolution_digest(self) -> str:
        """What call resolution depends on: which functions exist where, and which names the table
        claims (those are never project calls)."""
        h = hashlib.sha256("|".join(sorted(self.scope.functions)).encode())
        h.update("|".join(sorted(self.scope.table)).encode())
        return h.hexdigest()[:32]

    def reachable(self, fm: FunctionModel) -> tuple[FunctionModel, ...]:
        """``fm`` and every project function it can reach through calls (memoised per function)."""
        got = self._reachable.get(function_id(fm))
        if got is None:
            functions = self.scope.functions
            ids = closure([function_id(fm)], lambda i: self.callee_ids(functions[i], i))
            got = tuple(functions[i] for i in sorted(ids))
            self._reachable[function_id(fm)] = got
        return got

    def reachable_ids(self, fms: Iterable[FunctionModel]) -> frozenset[str]:
        """The ids of ``fms`` and of every project function they can reach, in one walk."""
        functions = self.scope.functions
        return frozenset(closure([function_id(fm) for fm in fms], lambda i: self.callee_ids(functions[i], i)))

    def skeleton(self, fm: FunctionModel) -> _Skeleton:
        """What every projection of ``fm`` shares, computed once per function instead of per value."""
        got = self._skeletons.get(function_id(fm)) or self.store.skeletons.get(fm.key)
        if got is None:
            g, nodes = fm.graph, fm.cfg.nodes
            nodes_of: dict[int, list[int]] = {}
            for i, c in enumerate(g.cfg_of):
                nodes_of.setdefault(c, []).append(i)
            fold = fold_sinks([[j for j, _ in g.succ[i]] for i in range(len(g.cfg_of))])
            succ = fold.succ
            always = tuple(
                nodes[c].kind in _KEEP_KINDS or i in (g.entry, g.exit) for i, c in enumerate(g.cfg_of)
            )
            kept = tuple(always[i] or (i in succ[i] and i not in fold.folded) for i in range(len(succ)))
            got = _Skeleton(nodes_of, succ, always, kept, fold, base_of(succ, kept))
            self.store.skeletons[fm.key] = got
        self._skeletons[function_id(fm)] = got
        return got

    def values(self, fm: FunctionModel) -> tuple[str, ...]:
        """Every access path the function does something to (the candidates for tracking).

        Also ``$ret:g`` for each must-check function ``g`` whose result the function throws away.
        Kept by the function's text and the scope, as every caller of an edited function asks.
        """
        memo = (fm.key, self.scope_digest)
        got = self.store.values.get(memo)
        if got is None:
            got = self.store.values[memo] = self._values(fm)
        held = self.wrapped_locks(fm) | {place + PARKED for place in self.parked(fm)}
        return got if held <= set(got) else tuple(sorted(set(got) | held))

    def parked(self, fm: FunctionModel) -> dict[str, frozenset[str]]:
        """Per place where a project function ``fm`` calls parks the address of one of ``fm``'s
        automatic locals (:mod:`extractors.parking`; tracked as the value ``place^``), the locals
        parked there. One level of callee; depends on the callees' texts, so kept by this
        projector as :meth:`wrapped_locks` is."""
        got = self._parked.get(function_id(fm))
        if got is None:
            out: dict[str, set[str]] = {}
            outlives = partial(outlives_frame, fm, globals_=self.scope.globals)
            for n in fm.cfg.nodes:
                for c in n.calls:
                    if c.framed and (g := self._project_callee(fm, c)) is not None:
                        for place, local in parked_places(c, self.parking(g), outlives):
                            out.setdefault(place, set()).add(local)
            got = self._parked[function_id(fm)] = {p: shared(frozenset(ls)) for p, ls in out.items()}
        return got

    def _project_callee(self, fm: FunctionModel, call: Call) -> FunctionModel | None:
        return self.scope.resolve(fm, call.name) if self._project_call(fm, call) else None

    def parking(self, g: FunctionModel) -> Parking:
        """:func:`extractors.parking.parks` of project function ``g`` (recorded as an answer, as
        :meth:`_may_null`'s is)."""
        memo = (g.key, self.scope_digest)
        got = self.store.parking.get(memo)
        if got is None:
            got = self.store.parking[memo] = parks(g, self.scope.globals)
        if self._deps:
            self._deps[-1].append(Dep(PARKS, function_id(g), repr(got), True))
        return got

    def _parked_labels(self, fm: FunctionModel, node: CfgNode, place: str) -> frozenset[str]:
        """``stack`` and ``def`` at a call that parks a local's address in ``place``, ``def``
        where ``place`` may get another value (:mod:`extractors.parking`)."""
        if node.id not in self._parked_nodes(fm, place):
            return frozenset()
        outlives = partial(outlives_frame, fm, globals_=self.scope.globals)
        for c in node.calls:
            g = self._project_callee(fm, c) if c.framed else None
            if g is not None and any(p == place for p, _ in parked_places(c, self.parking(g), outlives)):
                return frozenset({"stack", "def"})
        return frozenset({"def"})

    def _parked_nodes(self, fm: FunctionModel, place: str) -> frozenset[int]:
        """:func:`extractors.parking.parking_nodes` of ``place`` in ``fm``: where its value is
        labelled, and what its projection reads."""
        key = (function_id(fm), place)
        got = self._parking_at.get(key)
        if got is None:
            parked, project = self.parked(fm).get(place, _NONE), partial(self._project_call, fm)
            is_global = self._place_is_global(fm, place)
            got = self._parking_at[key] = shared(frozenset(parking_nodes(fm, place, is_global, parked, project)))
        return got

    def stored_locals(self, fm: FunctionModel, v: str) -> frozenset[str]:
        """The automatic locals whose address ``fm`` stores in ``v`` itself (``db->pParse =
        &sParse``, ``s->buf = buf``): a project function handed one later may reach ``v`` through
        it and put it back (sqlite's ``sqlite3ParseObjectReset(&sParse)`` restores
        ``db->pParse`` through ``sParse.db``), so that call counts as a store into ``v``."""
        by_value = self._stored.get(function_id(fm))
        if by_value is None:
            cfg, found = fm.cfg, dict[str, set[str]]()
            for n in cfg.nodes:
                for v_, a_ in n.events:
                    if a_ == "stack":
                        found.setdefault(v_, set()).update(
                            p for p, a in n.events if a == "escape" and p in cfg.declared and p not in cfg.static_locals
                        )
            by_value = self._stored[function_id(fm)] = {k: shared(frozenset(ls)) for k, ls in found.items() if ls}
        return by_value.get(v, _NONE)

    def _place_is_global(self, fm: FunctionModel, place: str) -> bool:
        return root_of(place) in self.scope.globals and not is_local(fm, root_of(place))

    def wrapped_locks(self, fm: FunctionModel) -> frozenset[str]:
        """The locks ``fm`` takes or releases through a project function that locks or unlocks
        a field of its parameter or a global (``counter_lock(c)`` locks ``c->mu``): tracked in
        ``fm`` too, though its own text never names them, so its early return while holding one
        is seen.  One level of wrapper; depends on the callees' texts, so it is kept by this
        projector (whose functions do not change), not with :meth:`values`."""
        got = self._wrapped.get(function_id(fm))
        if got is None:
            got = self._wrapped[function_id(fm)] = self._wrapped_locks(fm)
        return got

    def _wrapped_locks(self, fm: FunctionModel) -> frozenset[str]:
        out: set[str] = set()
        for n in fm.cfg.nodes:
            for c in n.calls:
                if c.name is None or c.name in self.scope.table:
                    continue
                g = self.scope.resolve(fm, c.name)
                if g is None:
                    continue
                for k, path in self._locked_paths(g):
                    if k < 0:
                        out.add(path)
                    elif k < len(c.args) and (ap := c.args[k][0]) is not None and not c.args[k][1]:
                        out.add(ap + path)
        return shared(frozenset(out))

    def _locked_paths(self, g: FunctionModel) -> tuple[tuple[int, str], ...]:
        """What ``g`` itself locks or unlocks that its caller can name: (parameter index, the
        rest of the path) for a field of a parameter, (-1, path) for a global."""
        memo = (g.key, self.scope_digest)
        got = self.store.locked.get(memo)
        if got is None:
            found: set[tuple[int, str]] = set()
            own = set(g.cfg.declared)
            for n in g.cfg.nodes:
                for c in n.calls:
                    spec = self.scope.table.get(c.name) if c.name else None
                    if spec is None:
                        continue
                    for i, atom in spec.args:
                        if atom not in ("lock", "unlock") or not 0 <= i < len(c.args):
                            continue
                        path = c.args[i][0]
                        root = root_of(path) if path else None
                        if path is None or root is None or root in own:
                            continue
                        if root in g.params:
                            if path != root:
                                found.add((g.params.index(root), path[len(root) :]))
                        elif root in self.scope.globals:
                            found.add((-1, path))
            got = self.store.locked[memo] = tuple(sorted(found))
        return got

    def _values(self, fm: FunctionModel) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        seen.update(dict.fromkeys(discard_values(fm.cfg)))
        for n in fm.cfg.nodes:
            for p, _ in n.events:
                seen[p] = None
            for c in n.calls:
                for a, byaddr in c.args:
                    if a:
                        seen[a] = None
                    if a and byaddr and root_of(a) == a and self._project_call(fm, c):
                        seen[ADDRESS + a] = None  # f(&x): the address is a value of its own
        seen.update(dict.fromkeys(contents_values(fm, self.scope.table)))  # what buffers hold
        # fields of the caller's objects, file-scope and static variables, for dead stores
        seen.update(dict.fromkeys(lasting_values(fm, self.scope.globals, self.scope.volatiles)))
        return tuple(sorted(seen))

    def _project_call(self, fm: FunctionModel, call: Call) -> bool:
        sc = self.scope
        return call.name is not None and call.name not in sc.table and sc.resolve(fm, call.name) is not None

    def node_labels(
        self, fm: FunctionModel, cid: int, v: str, is_global: bool, callees: bool = True
    ) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
        """What CFG node ``cid`` of ``fm`` does to ``v``: its labels, and the callees' components it
        hands ``v`` to; ``callees=False`` asks nothing about the callees (no release summary)."""
        node = fm.cfg.nodes[cid]
        if (buffer := contents_of(v)) is not None:
            return contents_labels(node, buffer, self.scope.table), ()  # calls fill it: no box
        if v[-1:] == PARKED and (place := parked_of(v)) is not None:
            return self._parked_labels(fm, node, place), ()  # the callee's store, summarised: no box
        if (field := lasting_of(v)) is not None:
            return lasting_labels(fm, node, *field), ()  # calls read it: no box
        labels = {a for p, a in node.events if p == v}
        labels.discard(FIELDS)  # said of the struct's fields, not of the struct
        if ("->" in v or "." in v) and (_through_written(node.events, v) or _through_handed(node.calls, v)):
            labels.add("def")  # a = a->next, f(&a): a->ptr may name another object from here on
        if node.calls and (held := self.stored_locals(fm, v)) and hands(node, held, partial(self._project_call, fm)):
            labels.add("def")  # the callee may put v back through the local stored in it
        if "." in v:
            labels |= part_labels(node, v)
        boxes: list[tuple[str, str]] = []
        sc = self.scope
        if v.startswith(ADDRESS):
            return self._address_labels(fm, node.calls, v[len(ADDRESS) :])
        for call in node.calls:
            name = call.name
            spec = sc.table.get(name) if name else None
            proj = sc.resolve(fm, name) if spec is None else None
            if v.startswith(DISCARD):
                if call.unchecked and name == discarded_value(v):
                    labels.add("discard")  # only at the value's own node: see _relevant
                continue
            if call.result == v:
                if spec is not None and spec.returns:
                    labels.add(spec.returns)
                    if spec.nonnull:
                        labels.add("notnull")
                elif proj is not None and function_id(proj) in sc.allocators:
                    labels.add("alloc")
                    if function_id(proj) in sc.nonnull_allocators:
                        labels.add("notnull")
                elif proj is not None and self._null_source(fm, proj, call):
                    labels.add("maynull")
            if v in call.guarded:
                labels.add("notnull")  # the call runs only where v is not NULL (v && f(v))
            if spec is not None:
                for i, atom in spec.args:
                    for k in range(len(call.args)) if i == -1 else (i,):
                        if k < len(call.args) and call.args[k][0] == v:
                            if call.args[k][1] and atom in ("use", "read", "escape"):
                                continue
                            if atom == "escape" and k in call.deferred:
                                continue  # taken on the result's not-NULL branches instead
                            if atom == "use" and v in call.guarded:
                                continue
                            labels.add("def" if atom == "addr" else atom)
                            if atom in ("def", "addr") and (i, "read") not in spec.args:
                                labels.discard("read")  # the macro initialises its argument
            elif proj is not None:
                for k, (ap, byaddr) in enumerate(call.args):
                    if ap is not None and byaddr and ap == v and k < len(proj.params):
                        boxes.append((function_id(proj), "*" + proj.params[k]))  # f(&x): x is *param
                        if call.result != v:
                            labels.discard("def")  # taking &x is no store: the box shows f's
                        continue
                    if ap is None or byaddr:
                        continue
                    if k >= len(proj.params):
                        # a parameter the definition does not name (K&R, varargs): what the
                        # callee does with it is unknown, as for a library call
                        if ap == v or v.startswith(ap + "->") or v.startswith(ap + "."):
                            labels.add("escape")
                        continue
                    if ap == v:
                        boxes.append((function_id(proj), proj.params[k]))
                        if callees and self.releases(proj, k):
                            labels.add("escape")  # handed over: the callee frees it or it is held elsewhere
                    elif v.startswith(ap + "->") or v.startswith(ap + "."):
                        boxes.append((function_id(proj), proj.params[k] + v[len(ap) :]))
                if is_global and self._mentioned(function_id(proj), root_of(v)):
                    boxes.append((function_id(proj), v))
            else:
                for k, (ap, _) in enumerate(call.args):
                    if k in call.borrowed and ap == v:
                        continue  # a prototype's const T *: read, not kept (extractors.prototypes)
                    if ap is not None and (ap == v or v.startswith(ap + "->") or v.startswith(ap + ".")):
                        labels.add("escape")
        if "write" in labels or "alloc" in labels or "open" in labels:
            labels.add("def")
        if "stack" in labels and not outlives_frame(fm, v, sc.globals):
            labels.discard("stack")
        return frozenset(labels), tuple(dict.fromkeys(boxes))

    def _null_source(self, fm: FunctionModel, g: FunctionModel, call: Call) -> bool:
        """Whether the result of ``call`` (to project function ``g``) may be NULL as the caller
        sees it: ``g`` may return NULL, and is of the caller's own file (a function exported from
        another file has a contract its callers know and a body they do not: Lua's
        ``lua_tolstring`` is NULL only for a value they have checked to be a string). Not when
        the result replaces an argument (``s = next(s)``): the callee reads the old value, which
        the model shows after the call node's labels."""
        if g.file != fm.file or any(ap == call.result for ap, _ in call.args):
            return False
        return self._may_null(g)

    def _raised_result(self, fm: FunctionModel, cid: int, v: str) -> bool:
        """Whether CFG node ``cid`` stores in ``v`` the result of a call whose every NULL comes with
        the library's error indicator set, and the node's one successor tests the indicator
        (``CfgNode.error_test``, :mod:`extractors.error_indicator`): that test's clear branch says
        ``v`` is not NULL."""
        node = fm.cfg.nodes[cid]
        if node.error_test is None or not _tests_indicator_next(fm, cid):
            return False
        sc = self.scope
        for call in node.calls:
            if call.result != v or call.name is None or call.name in sc.table:
                continue
            g = sc.resolve(fm, call.name)
            if g is not None and self._null_source(fm, g, call) and self._raises_null(g):
                return True
        return False

    def _address_labels(
        self, fm: FunctionModel, calls: Iterable[Call], x: str
    ) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
        """The labels of value ``&x`` (:data:`ADDRESS`) at a node: ``f(&x)`` hands the address of
        ``x``, which is no heap block (``nonheap``), to ``f``'s parameter, whose projection says
        what ``f`` does to it (frees it: a free of a non-heap pointer)."""
        labels: set[str] = set()
        boxes: list[tuple[str, str]] = []
        for call in calls:
            g = self.scope.resolve(fm, call.name) if self._project_call(fm, call) else None
            if g is None:
                continue
            for k, (ap, byaddr) in enumerate(call.args):
                if ap == x and byaddr and k < len(g.params):
                    labels.add("nonheap")
                    boxes.append((function_id(g), g.params[k]))
        return frozenset(labels), tuple(dict.fromkeys(boxes))

    def _may_null(self, g: FunctionModel) -> bool:
        """Whether project function ``g`` may return NULL to a caller (the answer is recorded: an
        edit of ``g`` that changes it re-projects the callers that read it)."""
        got = self._null_answer(g) != NEVER
        if self._deps:
            self._deps[-1].append(Dep(MAY_NULL, function_id(g), "", got))
        return got

    def _raises_null(self, g: FunctionModel) -> bool:
        """Whether every NULL project function ``g`` returns comes with the error indicator set
        (recorded as :meth:`_may_null`'s answer is)."""
        got = self._null_answer(g) == RAISED
        if self._deps:
            self._deps[-1].append(Dep(RAISED_NULL, function_id(g), "", got))
        return got

    def releases(self, g: FunctionModel, k: int) -> bool:
        """Whether project function ``g`` releases its parameter ``k`` (:mod:`extractors.releases`;
        the answer is recorded, as :meth:`_may_null`'s is)."""
        memo = (g.key, k, self.table_digest)
        got = self.store.releases.get(memo)
        if got is None:
            q = g.params[k] if k < len(g.params) else ""
            got = self.store.releases[memo] = releases(
                g, k, lambda c: self.node_labels(g, c, q, False, callees=False)[0]
            )
        if self._deps:
            self._deps[-1].append(Dep(RELEASES, function_id(g), str(k), got))
        return got

    def _null_answer(self, g: FunctionModel) -> str:
        got = self.store.null_returns.get(g.key)
        if got is None:
            got = self.store.null_returns[g.key] = returns_null(g)
        return got

    def out_summary(self, g: FunctionModel, k: int) -> Summary | None:
        """What project function ``g`` leaves in ``*params[k]`` per return (the answer is recorded:
        an edit of ``g`` that changes it re-projects the callers that read it)."""
        memo = (g.key, k, self.scope_digest)
        got = self.store.out_params.get(memo, _MISSING)
        if isinstance(got, _Missing):
            sc = self.scope

            def allocates(c: Call) -> bool:
                spec = sc.table.get(c.name) if c.name else None
                if spec is not None:
                    return spec.returns == "alloc"
                callee = sc.resolve(g, c.name)
                return callee is not None and function_id(callee) in sc.allocators

            got = self.store.out_params[memo] = out_summary(g, k, sc.table, allocates)
        if self._deps:
            self._deps[-1].append(Dep(OUT_PARAM, function_id(g), _out_subject(k, got), True))
        return got

    def after_call(
        self, fm: FunctionModel, cid: int, v: str
    ) -> tuple[int, Callable[[bool | None], frozenset[str]]] | None:
        """The labels of ``v`` on each branch out of CFG node ``cid`` when it hands ``&v`` to a
        project function whose summary is known (:mod:`extractors.out_params`): the store the
        callee made, told apart by the returned constant the branch allows; with the node whose
        branches they go on: ``cid``, or the test of the result right after it
        (:func:`result_test`).  None when the node hands no such address."""
        node = fm.cfg.nodes[cid]
        if not any(byaddr and ap == v for c in node.calls for ap, byaddr in c.args):
            return None  # (the common case, asked of every node a value's bound reads)
        handed = [
            (c, g, k)
            for c in node.calls
            if self._project_call(fm, c) and (g := self.scope.resolve(fm, c.name)) is not None
            for k, (ap, byaddr) in enumerate(c.args)
            if byaddr and ap == v
        ]
        if not handed:
            return None
        summaries = [self.out_summary(g, k) for _, g, k in handed]
        if len(handed) > 1 or summaries[0] is None:
            return None
        summary, call = summaries[0], handed[0][0]
        assert summary is not None and call.name is not None
        if node.kind == "cond":
            cond, result, at = node.cond, f"{call.name}()", cid
        elif (test := result_test(fm, cid, call, v)) is not None:
            cond, result, at = fm.cfg.nodes[test].cond, str(call.result), test
        else:
            cond, result, at = None, "", cid
        return at, lambda br: labels_after(summary, cond, result, (br,))[br]

    def addresses_summarised(self, fm: FunctionModel, v: str) -> bool:
        """Whether every ``&v`` in ``fm`` is an argument of a call to a project function whose
        summary of that parameter is known, at a node that does nothing else to ``v``: then what
        the calls do to ``v`` is all in ``v``'s own projection (:meth:`after_call`), and the rules
        about locals whose address is never taken apply to it too."""
        key = (function_id(fm), v)
        got = self._summarised.get(key)
        if got is None:
            got = self._summarised[key] = self._addresses_summarised(fm, v)
        return got

    def _addresses_summarised(self, fm: FunctionModel, v: str) -> bool:
        taken = re.compile(rf"(?<!&)&\s*\(?\s*{re.escape(v)}\b")
        table, summarised = self.scope.table, False
        for n in fm.cfg.nodes:
            if n.kind in ("entry", "exit"):
                continue
            for c in n.calls:
                spec = table.get(c.name) if c.name else None
                if spec is not None and any(
                    atom == "addr" and (ap := c.args[k][0]) is not None and root_of(ap) == v
                    for i, atom in spec.args
                    for k in (range(len(c.args)) if i == -1 else (i,) if 0 <= i < len(c.args) else ())
                ):
                    return False  # a macro that takes the address where the text does not show it
            found = len(taken.findall(n.source))
            handed = [
                (c, k) for c in n.calls for k, (ap, byaddr) in enumerate(c.args) if byaddr and ap == v
            ]
            if found != len(handed):
                return False
            if not handed:
                continue
            summarised = True
            if any(p == v and a != "def" or p != v and root_of(p) == v for p, a in n.events):
                return False  # the node reads v besides handing its address
            for c, k in handed:
                g = self.scope.resolve(fm, c.name) if self._project_call(fm, c) else None
                if g is None or self.out_summary(g, k) is None:
                    return False
        return summarised

    def _mentioned(self, ident: str, root: str) -> bool:
        """Whether a call to ``ident`` can touch global ``root``."""
        got = not is_local(self.scope.functions[ident], root) and root in self.mentions(ident)
        if self._deps:
            self._deps[-1].append(Dep(MENTION, ident, root, got))
        return got

    def component(self, function: str | FunctionModel, v: str) -> str | None:
        """Name of the component ``function@v`` (built on first use), or None if it carries nothing.

        ``function`` is a model, a function id, or a plain C name (resolved project-wide).
        """
        if isinstance(function, FunctionModel):
            fm: FunctionModel | None = function
        else:
            done = self._done.get((function, v), _MISSING)
            if not isinstance(done, _Missing):
                return done
            fm = self.scope.functions.get(function) or self.scope.functions.get(
                self.scope.by_name.get(function, "")
            )
        if fm is None:
            return None
        key = self._name(fm, v)
        if key in self.comps:
            return key if self.comps[key] is not None else None
        if key in self._building:
            self._referenced.add(key)
            return key
        deep = self.deep_keys.get(function_id(fm))
        dkey = (deep or "", v, self.scope_digest)
        known = self.store.by_deep.get(dkey) if deep else None
        if known is not None and not (known.component is None and key in self._referenced):
            if known.component is not None:
                self.meta[key] = known.meta
            self.comps[key] = known.component
            self._used[key] = known.deps
            for kind, ident, arg, _ in known.deps:  # its boxes' callees join this projector too
                if kind == PROJECTION:
                    self.component(ident, arg)
            return self._finish(function, v, key)
        self._building.add(key)
        try:
            skey = self._store_key(fm, v)
            comp = self._reuse(skey, key)
            if comp is _MISSING:
                comp = self._build_recorded(fm, v, key, skey)
            stored = self.store.components.get(skey)
            kept = stored if stored is not None and stored.component is comp else None
            self._used[key] = kept.deps if kept is not None else None
            if deep and kept is not None:
                self.store.by_deep[dkey] = kept
        finally:
            self._building.discard(key)
        assert not isinstance(comp, _Missing)
        self.comps[key] = comp
        return self._finish(function, v, key)

    def _finish(self, function: str | FunctionModel, v: str, key: str) -> str | None:
        """The answer of :meth:`component`, remembered for callers that name the function by id
        (replaying a stored projection's callees asks the same questions many times over)."""
        got = key if self.comps[key] is not None else None
        if got is not None and handed_name(key) not in self.comps:
            ident, value = self._owner[key]
            cut = self.reassigning(self.scope.functions[ident], value)
            comp = self.comps[key]
            if cut and comp is not None:
                moves = moving_nodes(self.scope.functions[ident], value)
                view, meta = handed_view(comp, self.meta.get(key, {}), cut, moves)
                self.comps[handed_name(key)] = view
                self.meta[handed_name(key)] = meta
        if isinstance(function, str):
            self._done[(function, v)] = got
        return got

    def _returns_of(self, fm: FunctionModel) -> _Returns:
        """What ``fm``'s returns give (:mod:`extractors.return_exits`), read once per function:
        every projection of it and every caller's box asks again."""
        ident = function_id(fm)
        got = self._returns.get(ident)
        if got is None:
            key = (fm.key, self.scope_digest)
            got = self.store.returns.get(key)
            if got is None:
                gl = self.scope.globals
                values = exit_values(fm, gl)
                named = named_values(fm, gl)
                returns = (n.id for n in fm.cfg.nodes if n.kind == "return")
                at = {c: r for c in returns if (r := returned_value(fm, c, gl)) is not None}
                got = self.store.returns[key] = _Returns(values, at, named, repr((values, sorted(named.items()))))
            self._returns[ident] = got
        return got

    def exit_values(self, fm: FunctionModel) -> tuple[Returned, ...]:
        """The returned constants with an exit of their own in ``fm``'s components
        (:func:`extractors.return_exits.exit_values`)."""
        return self._returns_of(fm).values

    def _exits_subject(self, g: FunctionModel) -> str:
        """The subject of an :data:`EXITS` answer: what a caller's box and test read of ``g``'s
        returns (its exits, and the values of the constants it returns by name)."""
        return self._returns_of(g).subject

    def _decided(self, fm: FunctionModel, cid: int) -> tuple[CondExpr, set[str], dict[str, int]] | None:
        """The test of CFG node ``cid`` and the constants it names, when it tests the result of
        its one call, to a project function with exits of its own per returned constant."""
        node = fm.cfg.nodes[cid]
        if node.kind != "cond" or node.cond is None:
            return None
        called = [c for c in node.calls if self._project_call(fm, c)]
        if len(called) != 1 or len(node.calls) != 1:
            return None
        g = self.scope.resolve(fm, called[0].name)
        if g is None or g.name != called[0].name or not self.exit_values(g):
            return None
        names = set(re.findall(r"[A-Za-z_]\w*", node.source or node.text))
        constant = {n for n in names if constant_name(fm, n, self.scope.globals)}
        return node.cond, constant, self._returns_of(g).named

    def reassigning(self, fm: FunctionModel, v: str) -> frozenset[int]:
        """The CFG nodes where ``fm`` gives its parameter ``v`` a new value (none when ``v`` is no
        parameter): a caller's box shows nothing ``fm`` does through ``v`` after one of them
        (:mod:`extractors.by_value`)."""
        key = (function_id(fm), v)
        got = self._reassigning.get(key)
        if got is None:
            got = self._reassigning[key] = reassigning_nodes(fm, v)
        return got

    def _handed(self, ident: str, v: str, name: str) -> str:
        """The component a caller's box to ``ident@v`` (built, named ``name``) goes to: its
        handed view when the callee reassigns the parameter, else itself. The answer is recorded,
        so a stored caller is rebuilt when an edit of the callee changes it."""
        cut = self.reassigning(self.scope.functions[ident], v)
        self._deps[-1].append(Dep(REASSIGNED, ident, v, bool(cut)))
        return handed_name(name) if cut else name

    def _name(self, fm: FunctionModel, v: str) -> str:
        got = self._names.get((function_id(fm), v))
        if got is None:
            got = self._names[(function_id(fm), v)] = component_name(fm, v)
            self._owner[got] = (function_id(fm), v)
        return got

    def dependencies(
        self, fm: FunctionModel, v: str
    ) -> tuple[frozenset[tuple[str, str]], frozenset[str]] | None:
        """What the projection of ``fm`` on ``v`` was made of: every projection it read, as (function
        id, value), ``fm@v`` and every one its boxes reach or asked about, and the functions asked
        whether they mention a global (whose whole reach counts). None when not known: a projection
        kept by a recursive cycle, or one not built in this projector."""
        got = reach_union(self._name(fm, v), self._read_names, self._own_reads, self._reach_reads)
        if got is None:
            return None
        reads = frozenset(r for r in got if r[0] != _MENTION)
        return reads, frozenset(r[1] for r in got if r[0] == _MENTION)

    def reach_summary(self, fm: FunctionModel, v: str) -> ReachSummary | None:
        """The atoms anywhere in the projection of ``fm`` on ``v``, the values it read per function
        id, and the functions it asked about a global; None when :meth:`dependencies` is."""
        key = (function_id(fm), v)
        got = self._summaries.get(key, _MISSING)
        if isinstance(got, _Missing):
            cname = self.component(fm, v)
            made_of = self.dependencies(fm, v)
            got = None
            if made_of is not None:
                by_function: dict[str, set[str]] = {}
                for ident, value in made_of[0]:
                    by_function.setdefault(ident, set()).add(value)
                got = ReachSummary(
                    self.atoms(cname) if cname is not None else _NONE,
                    {ident: frozenset(vs) for ident, vs in by_function.items()},
                    made_of[1],
                )
            self._summaries[key] = got
        return got

    def atoms_bound(self, fm: FunctionModel, v: str) -> frozenset[str] | None:
        """A superset of the atoms anywhere in the projection of ``fm`` on ``v`` and its reach
        (:meth:`atoms` of :meth:`component`), read off the functions without building a
        projection: the labels of each node that concerns ``v``, those its NULL tests, the tests
        that take ``v`` and the calls handed ``&v`` split off, the exit's, and the bounds of the
        callee values its boxes go to (one bound for each recursive cycle of them,
        :class:`_BoundSearch`).  None where there is no such bound (a parked place in the reach, a
        chain of boxes deeper than :data:`_DEEPEST_BOUND`): the projection is built.

        Every rule needs some atoms (:meth:`Rule.applies`, monotone in them): a value no rule
        applies to by this bound has no findings, and checking it needs no projection.  On
        sqlite3.c two of three values are such."""
        got = self._bound(fm, v)
        return got.atoms if got is not None else None

    def own_atoms(self, fm: FunctionModel, v: str) -> frozenset[str] | None:
        """Atoms :meth:`atoms_bound` is sure to hold, read off ``fm`` alone: what :meth:`_build` can
        put on the projection's own nodes (the bound unites them with its callees' bounds).  A rule
        they make apply applies by the bound too (:meth:`Rule.applies` is monotone), so the search
        through the callees is needed only where they make none apply.  None where the bound is
        known without reading ``fm`` (a built projection's atoms, a parked place's no bound)."""
        if parked_of(v) is not None or self._name(fm, v) in self.comps or (function_id(fm), v) in self._bounds:
            return None
        return self._own_bound(fm, v).labels

    def bound_reads(self, fm: FunctionModel, v: str) -> frozenset[tuple[str, str]] | None:
        """The values :meth:`atoms_bound` read, as (function id, value): ``fm@v`` and every one its
        boxes may go to, what :meth:`dependencies` gives for a built projection (a superset of
        it).  None when not known: a global's reach, which also depends on what callees mention."""
        got = self._bound(fm, v)
        return got.reads if got is not None else None

    def _bound(self, fm: FunctionModel, v: str) -> _Bound | None:
        key = (function_id(fm), v)
        got = self._bounds.get(key, _MISSING)
        if not isinstance(got, _Missing):
            return got
        got = self._known_bound(fm, v)
        if isinstance(got, _Missing):
            _BoundSearch(self).visit(fm, v)
            return self._bounds[key]
        self._bounds[key] = got
        return got

    def _known_bound(self, fm: FunctionModel, v: str) -> _Bound | None | _Missing:
        """The bound of a value without searching: a built projection's own atoms and reads, None
        for a parked place; else missing."""
        name = self._name(fm, v)
        if name in self.comps:
            made_of = self.dependencies(fm, v)
            return _Bound(
                self.atoms(name) if self.comps[name] is not None else _NONE,
                made_of[0] if made_of is not None and not made_of[1] else None,
            )
        return None if parked_of(v) is not None else _MISSING

    def _own_bound(self, fm: FunctionModel, v: str) -> _OwnBound:
        """What :meth:`_build` can put on a node of the projection of ``fm`` on ``v`` itself, the
        value it reads (None for a global: what its callees mention decides its boxes), and the
        callee values its boxes may go to.  Kept across projectors by the function's text, the
        value and the scope, with the answers about callees its labels read (``Dep``, as a
        stored projection keeps them; the same questions :meth:`_build` asks): it is taken again
        while they are the same, so an edit of a function computes again only the own bounds
        whose answers about it changed, not every caller's that can reach it."""
        ident = function_id(fm)
        if not self.store.across_edits:
            got = self._own_bounds.get((ident, v))
            if got is None:
                got = self._own_bounds[(ident, v)] = self._make_own_bound(fm, v)
            return got
        key = (ident, fm.key, v, self.scope_digest)
        stored = self.store.own_bounds.get(key)
        if stored is not None and self._answers_hold(stored.deps):
            return stored.bound
        self._deps.append([])
        try:
            got = self._make_own_bound(fm, v)
        finally:
            deps = self._deps.pop()
        self.store.own_bounds[key] = _StoredBound(got, _kept(dict.fromkeys(deps)))
        return got

    def _has_return(self, fm: FunctionModel) -> bool:
        """Whether ``fm`` has a ``return`` statement (asked by every value's bound)."""
        ident = function_id(fm)
        got = self._returning.get(ident)
        if got is None:
            got = self._returning[ident] = any(n.kind == "return" for n in fm.cfg.nodes)
        return got

    def _make_own_bound(self, fm: FunctionModel, v: str) -> _OwnBound:
        cids, is_global = self._relevant(fm, v)
        labels: set[str] = set(EXIT_LABEL)
        targets: list[tuple[str, str]] = []
        if self._has_return(fm):
            labels |= RETURN_LABEL
        if contents_of(v) is not None:
            labels |= _left_filled(False)  # loops that fill the buffer
        functions = self.scope.functions
        if lasting_of(v) is not None:
            labels |= self._lasting_own_labels(fm, v, cids)
            cids = ()  # nothing else is said of a lasting value
        for cid in self._speaking(fm, v, is_global, cids):
            lab, bx = self.labels_at(fm, cid, v, is_global)
            labels |= lab
            if self.tests_value(fm, cid, v):
                labels |= ASSERTED[0] | ASSERTED[1] | TESTED[0] | TESTED[1]
            if self.taken_at(fm, cid, v):
                labels |= TAKEN[0] | TAKEN[1]
            if self._raised_result(fm, cid, v):
                labels |= VOUCHED[0] | VOUCHED[1]
            after = self.after_call(fm, cid, v)
            if after is not None:
                labels |= after[1](True) | after[1](False) | after[1](None)
            targets.extend((cf, cp) for cf, cp in bx if cf in functions)  # else no box (see component)
        reads = None if is_global else shared(frozenset({(function_id(fm), v)}))
        return _OwnBound(shared(frozenset(labels)), reads, tuple(targets))

    def _lasting_own_labels(self, fm: FunctionModel, v: str, cids: tuple[int, ...]) -> frozenset[str]:
        """The labels of lasting value ``v`` at its nodes ``cids``: :func:`lasting_labels`' alone (no
        box, NULL test, take, address or call result names a lasting value), so the reading stops
        once it has every one they can give."""
        got: set[str] = set()
        for cid in cids:
            got |= self.labels_at(fm, cid, v, False)[0]
            if got >= LASTING_LABELS:
                break
        return frozenset(got)

    def _named_paths(self, fm: FunctionModel) -> _Naming:
        got = self.store.named_paths.get(fm.key)  # a function of the CFG alone
        if got is None:
            got = self.store.named_paths[fm.key] = _naming(fm.cfg)
        return got

    def _speaking(
        self, fm: FunctionModel, v: str, is_global: bool, cids: tuple[int, ...]
    ) -> tuple[int, ...]:
        """``cids`` (of :meth:`_relevant`), once each, less the nodes that do nothing to ``v``: the
        node names no ``v``, neither stores into a path ``v`` begins with nor hands one to a call
        (:func:`_paths_named_by`), and holds no copy of ``v``.  Everything a node's labels, boxes,
        tests, takes and calls handed ``&v`` say of a plain path reads one of those, so such a
        node has none; most nodes that mention
        ``v``'s root are such (a use of ``pOp`` or ``pOp->p2`` for ``pOp->p1``).  All of them where
        that does not hold: a global (its boxes follow every call), a value a local's address is
        stored in, and the values that are not plain paths."""
        once = tuple(dict.fromkeys(cids))
        if (
            is_global
            or v.startswith((DISCARD, ADDRESS))
            or v[-1:] == PARKED
            or contents_of(v) is not None
            or lasting_of(v) is not None
            or self.stored_locals(fm, v)
        ):
            return once
        naming = self._named_paths(fm)
        loud = set(self.copies(fm, v))
        loud.update(naming.named.get(v, ()))
        for i in range(1, len(v)):
            loud.update(naming.through.get(v[:i], ()))
        return tuple(c for c in once if c in loud)

    def own_labels_and_targets(
        self, fm: FunctionModel, v: str
    ) -> tuple[frozenset[str], frozenset[tuple[str, str]]] | None:
        """What the projection of ``fm`` on ``v`` can hold by itself, read off the function without
        building it: a superset of its labels, and every (function id, value) its boxes may go
        to; None for a global, whose boxes depend on what its callees mention.

        The projection reaches no other projections than these targets' reach, so a value whose
        changed reads step only into what it read before gains at most their labels. Found so,
        the changed function is not projected, which on a recursive cycle means validating the
        projections of the whole cycle again."""
        if parked_of(v) is not None:
            return frozenset({"stack", "def"}), frozenset()  # whatever the callees park: no box
        key = (fm.key, function_id(fm), v, self.scope_digest)  # what node_labels reads: see scope_digest
        kept = self.store.steps.get(key, False)
        if not isinstance(kept, bool):
            return kept
        cids, is_global = self._relevant(fm, v)
        got = None
        if not is_global:
            labels: set[str] = set()
            targets: set[tuple[str, str]] = set()
            nodes = fm.cfg.nodes
            if lasting_of(v) is not None:
                labels |= self._lasting_own_labels(fm, v, cids)
                cids = ()  # nothing else is said of a lasting value
            for cid in self._speaking(fm, v, False, cids):  # the others have nothing to say of v
                lab, bx = self.labels_at(fm, cid, v, False)
                labels |= lab
                if self._hands_address(fm, cid, v):
                    labels |= {"alloc", "def"}  # after the call: whatever the callee answers after an edit
                if "maynull" not in lab and self._project_result(fm, cid, v):
                    labels.add("maynull")  # whatever the callee answers after an edit
                targets.update(bx)
                if self.tests_value(fm, cid, v):
                    labels |= {"isnull", "notnull"}
                if nodes[cid].error_test is not None and self._project_result(fm, cid, v):
                    labels.add("notnull")  # past a test of the error indicator, whatever the callee answers
            if self._has_return(fm):
                labels |= RETURN_LABEL
            labels |= EXIT_LABEL
            got = frozenset(labels), frozenset(targets)
        self.store.steps[key] = got
        return got

    def _hands_address(self, fm: FunctionModel, cid: int, v: str) -> bool:
        """Whether CFG node ``cid`` hands ``&v`` to a project function."""
        return any(
            self._project_call(fm, c) and any(byaddr and ap == v for ap, byaddr in c.args)
            for c in fm.cfg.nodes[cid].calls
        )

    def _project_result(self, fm: FunctionModel, cid: int, v: str) -> bool:
        """Whether CFG node ``cid`` stores the result of a project function's call in ``v``."""
        sc = self.scope
        return any(
            c.result == v and c.name not in sc.table and sc.resolve(fm, c.name) is not None
            for c in fm.cfg.nodes[cid].calls
        )

    @cached_property
    def model_ids(self) -> frozenset[tuple[str, str]]:
        """(function id, key of its model) of every function: a record of what was read is still
        right at once when its own such pairs are among these (the key names the model's text and
        context, and a record's stamps are of its scope: see ``FunctionChecker``)."""
        return frozenset((ident, fm.key) for ident, fm in self.scope.functions.items())

    def _read_names(self, key: str) -> list[str]:
        names, functions = self._names, self.scope.functions
        out = []
        for kind, dep, arg, _ in self._used.get(key) or ():
            if kind == PROJECTION:
                name = names.get((dep, arg))
                if name is None and (g := functions.get(dep)) is not None:
                    name = self._name(g, arg)
                if name is not None:
                    out.append(name)
        return out

    def _own_reads(self, key: str) -> frozenset[tuple[str, str]] | None:
        """The projection ``key`` itself and the functions it asked about a global (tagged); None
        when its answers are not known or name a function that is gone."""
        deps, owner = self._used.get(key), self._owner.get(key)
        if deps is None or owner is None:
            return None
        out = {owner}
        for kind, dep, arg, _ in deps:
            if kind in (REASSIGNED, EXITS, RELEASES):
                # decided by the nodes of dep@arg (its returns are kept; RELEASES: of its parameter
                # number arg, by the nodes that free or test it), which its read stamps
                continue
            if kind != PROJECTION:
                out.add((_MENTION, dep))
            elif (dep, arg) not in self._names and dep not in self.scope.functions:
                return None
        return frozenset(out)

    def stamps(self, reads: Iterable[tuple[str, str]]) -> list[str | None]:
        """:meth:`content_stamp` of each (function id, value), None for a function that is gone;
        kept per projector, as every value of every re-checked function asks again."""
        memo, functions = self._stamps, self.scope.functions
        out: list[str | None] = []
        for read in reads:
            got = memo.get(read, _MISSING)
            if isinstance(got, _Missing):
                g = functions.get(read[0])
                got = memo[read] = self.content_stamp(g, read[1]) if g is not None else None
            out.append(got)
        return out

    def content_stamp(self, fm: FunctionModel, v: str) -> str:
        """Everything the findings of a projection of ``fm`` on ``v`` can show of ``fm``: what the
        projection reads (:meth:`_value_key`), and the place (relative to the function) and text of
        every node its witnesses can name (the nodes that mention ``v``, the nodes every projection
        keeps, the exit).

        An edit of a line that neither mentions ``v`` nor moves a node keeps it, so the findings of
        every value whose projections all keep theirs are still right, in the edited function and
        in its callers."""
        memo = (function_id(fm), fm.key, v, self.scope_digest)
        got = self.store.stamps.get(memo)
        if got is None:
            nodes, kept = self._layout(fm)
            cids, _ = self._relevant(fm, v)
            shown = "|".join(nodes[c] for c in sorted(set(cids)))
            text = f"{self._store_key(fm, v)[1]}|{kept}|{shown}"
            got = self.store.stamps[memo] = hashlib.sha256(text.encode()).hexdigest()[:32]
        return got

    def _layout(self, fm: FunctionModel) -> tuple[tuple[str, ...], str]:
        """Per CFG node its place and text, and those of the nodes every projection keeps joined
        with the function's facts a value's rules read (which locals have their address taken or
        are static), as one string; kept by the function's key (rows count from its first line)."""
        got = self.store.layouts.get(fm.key)
        if got is None:
            nodes = tuple(f"{n.row},{n.col},{n.end_row},{n.end_col},{n.text}" for n in fm.cfg.nodes)
            sk, cfg_of = self.skeleton(fm), fm.graph.cfg_of
            kept_ids = sorted({cfg_of[i] for i, k in enumerate(sk.kept) if k} | {fm.cfg.exit})
            cfg = fm.cfg
            facts = repr((sorted(cfg.declared.items()), sorted(cfg.addr_taken), sorted(cfg.static_locals)))
            kept = facts + "|".join(nodes[c] for c in kept_ids)
            got = self.store.layouts[fm.key] = (nodes, kept)
        return got

    def _store_key(self, fm: FunctionModel, v: str) -> tuple[str, str, str, str]:
        """Memoised by the function's text key: functions on a recursive cycle have no deep key, so
        every edit near them validates their stored projections, and hashing what each reads was
        most of that."""
        memo = (function_id(fm), fm.key, v, self.scope_digest)
        got = self.store.store_keys.get(memo)
        if got is None:
            got = self.store.store_keys[memo] = (function_id(fm), self._value_key(fm, v), v, self.scope_digest)
        return got

    def _relevant(self, fm: FunctionModel, v: str) -> tuple[tuple[int, ...], bool]:
        """The CFG nodes whose content a projection on ``v`` reads (those of its copies too), and
        whether ``v`` is a global; asked by the build and again by each key of it."""
        key = (function_id(fm), v)
        got = self._relevants.get(key)
        if got is None:
            cids, is_global = self._find_relevant(fm, v)
            got = self._relevants[key] = (tuple(cids), is_global)
        return got

    def _find_relevant(self, fm: FunctionModel, v: str) -> tuple[list[int], bool]:
        if v[-1:] == PARKED and (place := parked_of(v)) is not None:
            return sorted(self._parked_nodes(fm, place)), False
        is_global = root_of(v) in self.scope.globals and not is_local(fm, root_of(v))
        index = self.index(fm)
        if v.startswith(DISCARD):
            return list(index.get(v, ())), is_global
        if (field := lasting_of(v)) is not None:
            path = field[1]
            return lasting_nodes(fm, path, self._named_paths(fm).lasting, index.get(root_of(path), ())), False
        root = contents_of(v) or root_of(v[len(ADDRESS) :] if v.startswith(ADDRESS) else v)
        cids = list(index.get(root, ()))
        for name in sorted(frozenset().union(*self.copies(fm, v).values()) | self.stored_locals(fm, v)):
            cids += index.get(name, ())
        if is_global:
            cids += self.calling_nodes(fm)
        # a test of the error indicator right after a call storing v may speak for it (_raised_result)
        nodes = fm.cfg.nodes
        cids += [fm.cfg.succ[c][0][0] for c in cids if nodes[c].error_test is not None and _tests_indicator_next(fm, c)]
        # and a test of the result of a call handed &v, right after it (after_call)
        cids += [t for c in cids for call in nodes[c].calls if (t := result_test(fm, c, call, root)) is not None]
        return cids, is_global

    def copies(self, fm: FunctionModel, v: str) -> dict[int, frozenset[str]]:
        """Per CFG node, the locals that hold ``v``'s value there (see :mod:`extractors.aliases`)."""
        key = (function_id(fm), v)
        got = self._copies.get(key)
        if got is None:
            table = self.store.copies.get(fm.key)  # a function of the CFG alone: kept across projectors
            if table is None:
                table = self.store.copies[fm.key] = copy_table(fm.cfg)
            got = self._copies[key] = {} if v.startswith(DISCARD) else table.get(v, {})
        return got

    def labels_at(
        self, fm: FunctionModel, cid: int, v: str, is_global: bool
    ) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
        """:meth:`node_labels` of ``v`` with what its copies at the node do to the object it holds
        (their :data:`~extractors.aliases.SHARED_ATOMS` and the calls they are handed to)."""
        labels, boxes = self.node_labels(fm, cid, v, is_global)
        held = self.copies(fm, v).get(cid)
        if not held:
            return labels, boxes
        more, calls = set(labels), list(boxes)
        for name in sorted(held):
            lab, bx = self.node_labels(fm, cid, name, False)
            more |= lab & SHARED_ATOMS
            calls.extend(bx)
        return frozenset(more), tuple(dict.fromkeys(calls))

    def tests_value(self, fm: FunctionModel, cid: int, v: str) -> bool:
        """Whether CFG node ``cid`` tests ``v`` (or a copy of it there) against NULL."""
        nt = fm.cfg.nodes[cid].null_test
        return nt is not None and (nt[0] == v or nt[0] in self.copies(fm, v).get(cid, ()))

    def taken_at(self, fm: FunctionModel, cid: int, v: str) -> bool:
        """Whether the not-NULL branch of CFG node ``cid`` takes ``v`` (or a copy of it there):
        the test of a call's result that owns ``v`` once the call succeeded (``takes``)."""
        takes = fm.cfg.nodes[cid].takes
        return bool(takes) and (v in takes or not self.copies(fm, v).get(cid, frozenset()).isdisjoint(takes))

    def _value_key(self, fm: FunctionModel, v: str) -> str:
        """What a projection of ``fm`` on ``v`` reads of the function: its graph's shape and the
        nodes that mention ``v``. An edit elsewhere in the function keeps this key, so the stored
        projection is found again without rebuilding it (its content would be the same)."""
        got = self.store.shapes.get(fm.key)
        if got is None:
            g, cfg = fm.graph, fm.cfg
            text = repr((g.cfg_of, g.succ, g.entry, g.exit, [n.kind for n in cfg.nodes], fm.params))
            # which locals there are, and which of them copies are followed through
            text += repr((sorted(cfg.declared), sorted(cfg.addr_taken), sorted(cfg.static_locals)))
            # the exit each return leads to, and the tests of calls' results (extractors.return_exits)
            returns = self._returns_of(fm)
            if returns.values:
                text += repr([(n.id, returns.at.get(n.id)) for n in cfg.nodes if n.kind == "return"])
            text += repr([(n.id, n.cond) for n in cfg.nodes if n.kind == "cond" and n.calls])
            shape = hashlib.sha256(text.encode()).hexdigest()[:32]
            tokens = tuple(
                f"{n.id}:{(n.events, n.calls, n.null_test, n.copies, n.takes, n.error_test, n.asserted)!r}"
                for n in cfg.nodes
            )
            got = self.store.shapes[fm.key] = (shape, tokens)
        shape, tokens = got
        cids, _ = self._relevant(fm, v)
        read = "|".join(tokens[c] for c in sorted(set(cids)))
        return hashlib.sha256((shape + read).encode()).hexdigest()[:32]

    def _reuse(self, skey: tuple[str, str, str, str], key: str) -> Component | None | _Missing:
        """The stored projection under ``skey`` if every answer it depended on is unchanged."""
        stored = self.store.components.get(skey)
        if stored is None or not self._answers_hold(stored.deps):
            return _MISSING
        if stored.component is None and key in self._referenced:
            return _MISSING
        if stored.component is not None:
            self.meta[key] = stored.meta
        return stored.component

    def _answers_hold(self, deps: Iterable[Dep]) -> bool:
        """Whether every question of ``deps`` gets the answer recorded with it today."""
        self._deps.append([])  # answers asked while validating are not the enclosing build's
        try:
            for kind, ident, arg, answer in deps:
                if kind == MENTION:  # the most common question: first
                    got = self._mentioned(ident, arg)
                elif kind == PROJECTION:
                    got = self.component(ident, arg) is not None
                elif kind == MAY_NULL:
                    g = self.scope.functions.get(ident)
                    got = g is not None and self._may_null(g)
                elif kind == RAISED_NULL:
                    g = self.scope.functions.get(ident)
                    got = g is not None and self._raises_null(g)
                elif kind == OUT_PARAM:
                    g = self.scope.functions.get(ident)
                    k = int(arg.partition("|")[0])
                    got = g is not None and _out_subject(k, self.out_summary(g, k)) == arg
                elif kind == REASSIGNED:
                    g = self.scope.functions.get(ident)
                    got = g is not None and bool(self.reassigning(g, arg))
                elif kind == EXITS:
                    g = self.scope.functions.get(ident)
                    got = g is not None and self._exits_subject(g) == arg
                elif kind == RELEASES:
                    g = self.scope.functions.get(ident)
                    got = g is not None and self.releases(g, int(arg))
                elif kind == PARKS:
                    g = self.scope.functions.get(ident)
                    got = g is not None and repr(self.parking(g)) == arg
                else:
                    return False  # no other kind is kept with a stored answer: build again
                if got != answer:
                    return False
        finally:
            self._deps.pop()
        return True

    def _build_recorded(
        self, fm: FunctionModel, v: str, key: str, skey: tuple[str, str, str, str]
    ) -> Component | None:
        """Build a projection, noting the answers about callees it used, and keep it in the store.

        A projection that is non-empty only because a recursive cycle refers to it is not stored:
        whether it is referenced depends on the order of the build, not on content.
        """
        self._deps.append([])
        try:
            comp = self._build(fm, v, key)
        finally:
            deps = self._deps.pop()
        if any(dep.kind == BY_REFERENCE for dep in deps):
            return comp
        self.store.components[skey] = _Stored(comp, self.meta.get(key, {}), _kept(deps))
        return comp

    def _build(self, fm: FunctionModel, v: str, key: str) -> Component | None:
        g, cfg = fm.graph, fm.cfg
        per_cfg: dict[int, tuple[frozenset[str], tuple[tuple[str, str], ...]]] = {}
        cids, is_global = self._relevant(fm, v)
        cids = self._speaking(fm, v, is_global, cids)  # the others have nothing to say of v
        for cid in cids:
            if cid not in per_cfg:
                lab, bx = self.labels_at(fm, cid, v, is_global)
                if lab or bx:
                    per_cfg[cid] = (lab, bx)
        # resolve boxes first so that trivial callees become plain nodes
        resolved: dict[int, list[tuple[str, str]]] = {}
        for cid, (_, bx) in per_cfg.items():
            callees = []
            for cf, cp in bx:
                cname = self.component(cf, cp)
                self._deps[-1].append(Dep(PROJECTION, cf, cp, cname is not None))
                if cname is not None:
                    callees.append((self._handed(cf, cp, cname), cf))
            if callees:
                resolved[cid] = callees
        # what calls handed &v left in v on each way out (a value with nothing else stays empty)
        after = dict(got for c in dict.fromkeys(cids) if (got := self.after_call(fm, c, v)) is not None)
        if (buffer := contents_of(v)) is not None:  # loops that store on every round run at least once
            after.update(dict.fromkeys(filling_loops(fm, buffer, self.scope.table), _left_filled))
        for c in resolved:  # ``v = f(v)``: the callee's box reads (and may free) the old value first
            if c not in after and (moved := per_cfg[c][0] & _RESULT_LABELS) and _replaces_argument(fm, c, v):
                per_cfg[c] = (per_cfg[c][0] - moved, per_cfg[c][1])
                after[c] = _labelled(moved)
        has_labels = any(lab for lab, _ in per_cfg.values()) or any(resolved.values())
        # tests of the error indicator whose clear branch speaks for v (extractors.error_indicator)
        vouched = {cfg.succ[c][0][0]: bool(cfg.nodes[c].error_test) for c in cids if self._raised_result(fm, c, v)}
        has_null = bool(vouched) or any(self.tests_value(fm, c, v) or self.taken_at(fm, c, v) for c in cids)
        if not has_labels and not has_null:
            if key not in self._referenced:
                return None
            self._deps[-1].append(Dep(BY_REFERENCE, "", "", True))
        n_base = len(g.cfg_of)
        names = list(g.names)  # kept nodes are renamed by rank below, so that an edit elsewhere keeps them
        cfg_of = g.cfg_of
        sk = self.skeleton(fm)
        labels: list[frozenset[str]] = [_EMPTY[0]] * n_base
        kept = list(sk.kept)
        for c, (lab, _) in per_cfg.items():
            for i in sk.nodes_of.get(c, ()):
                labels[i] = lab
                kept[i] = kept[i] or bool(lab) or c in resolved
        succ: list[list[int]] = list(sk.succ)
        branch_of: dict[int, tuple[int, bool]] = {}
        tested = {c for c in cids if self.tests_value(fm, c, v)}
        taken = {c for c in cids if c not in tested and self.taken_at(fm, c, v)}
        for c in tested | taken:
            vouched.pop(c, None)
        special = tested | taken | vouched.keys() | after.keys() | resolved.keys()
        sinks = sk.fold.sinks
        own_sinks = [i for c in per_cfg.keys() | special for i in sk.nodes_of.get(c, ()) if i in sinks]
        if sk.fold.rep in own_sinks:  # the representative must stay unlabelled: unfold them all
            own_sinks = list(sk.fold.folded)
        unfold(sk.fold, succ, own_sinks)
        for i in own_sinks:
            kept[i] = True
        to = sk.fold.redirect(own_sinks)
        for i in sorted(i for c in tested | taken | vouched.keys() for i in sk.nodes_of.get(c, ())):
            c = cfg_of[i]
            if c in vouched:
                _split_test(fm, i, to, names, labels, succ, branch_of, VOUCHED, vouched[c])
            else:
                outcome = TAKEN if c in taken else ASSERTED if fm.cfg.nodes[c].asserted else TESTED
                _split_test(fm, i, to, names, labels, succ, branch_of, outcome)
            kept[i] = bool(labels[i] or c in resolved or i in succ[i]) or sk.kept_always[i]
        way_of: dict[int, tuple[int, bool | None]] = {}  # the ways out of calls split by after_call
        for i in sorted(i for c in after for i in sk.nodes_of.get(c, ())):
            _split_after(fm, i, to, after[cfg_of[i]], names, labels, succ, way_of, branch_of)
            kept[i] = True
        # tests of a callee's result, whose branches its exits decide (extractors.return_exits)
        decided = {c: d for c in resolved if c not in tested | taken | after.keys() if (d := self._decided(fm, c))}
        for i in sorted(i for c in decided for i in sk.nodes_of.get(c, ())):
            _split_after(fm, i, to, _no_labels, names, labels, succ, way_of, branch_of)
            kept[i] = True
        own_exits = self.exit_values(fm)
        returned_at = self._returns_of(fm).at
        total = len(names)
        kept += [True] * (total - n_base)
        nodes_ = cfg.nodes
        targets = contract(succ, kept, sk.base)
        nodes: list[Node] = []
        boxes: list[Box] = []
        edges: list[tuple[Ref, Ref]] = []
        meta: dict[str, NodeMeta] = {}
        for k, i in enumerate(compress(range(total), kept)):
            names[i] = ENTRY if i == g.entry else EXIT if i == g.exit else sys.intern(f"k{k}")
        way_name = {names[i]: way_of[i] for i in way_of if kept[i]}
        one_node, one_edge, one_end = (
            self._shared_nodes.setdefault,
            self._shared_edges.setdefault,
            self._shared_ends.setdefault,
        )
        for i in compress(range(total), kept):
            name = names[i]
            own = shared(labels[i])
            shown = own | RETURN_LABEL if i < n_base and nodes_[cfg_of[i]].kind == "return" else own
            if i == g.exit:
                shown = shown | EXIT_LABEL
            node = Node(name, shared(shown), i == g.entry, i == g.exit)
            nodes.append(one_node(node, node))
            if i < n_base:
                c = cfg_of[i]
                meta[name] = NodeMeta(function_id(fm), c, nodes_[c].kind, own, v)
            else:
                c, br = branch_of[i] if i in branch_of else way_of[i]
                meta[name] = NodeMeta(function_id(fm), c, "branch", own, v, br)
            if i == g.exit:
                for value in own_exits:  # one exit per returned literal (extractors.return_exits)
                    node = Node(exit_name(value), shared(shown), False, True)
                    nodes.append(one_node(node, node))
                    meta[exit_name(value)] = meta[name]
                continue
            outs = [names[t] for t in targets[i]] or [name]
            if own_exits and i < n_base and (ret := returned_at.get(cfg_of[i])) is not None:
                outs = [exit_name(ret) if t == EXIT else t for t in outs]
            calls = resolved.get(g.cfg_of[i], []) if i < n_base else []
            ends: list[Ref] = [name]
            exits: tuple[str, ...] = ()
            callee = ""
            for m, (cname, cf) in enumerate(calls):
                bname = sys.intern(f"{name}#{m}")
                values = self.exit_values(self.scope.functions[cf])
                self._deps[-1].append(Dep(EXITS, cf, self._exits_subject(self.scope.functions[cf]), True))
                exits = exit_names(values)
                callee = self.scope.functions[cf].name
                boxes.append(Box(bname, cname, (ENTRY,), exits))
                meta[bname] = NodeMeta(function_id(fm), g.cfg_of[i], "call", _NONE, v, callee=c_name(cf))
                into = one_end((bname, ENTRY), (bname, ENTRY))
                edges.extend(one_edge((src, into), (src, into)) for src in ends)
                ends = [one_end((bname, e), (bname, e)) for e in exits]
            tested_by = decided.get(cfg_of[i]) if i < n_base else None
            for src in ends:
                returned = value_of(src[1]) if tested_by is not None and not isinstance(src, str) else None
                for t in outs:
                    way = way_name.get(t)
                    if returned is not None and way is not None and tested_by is not None:
                        test, constant, named = tested_by
                        if way[0] == cfg_of[i] and not allows(test, callee, returned, way[1], constant, named):
                            continue  # the value the callee returned rules this branch out
                    edges.append(one_edge((src, t), (src, t)))
        self.meta[key] = meta
        return Component(key, tuple(nodes), tuple(boxes), tuple(edges))

    def closure(self, name: str) -> tuple[Component, ...]:
        got = self._closure.get(name)
        if got is None:
            comps = self.comps
            reached = reach_union(name, self._callees, lambda n: frozenset((n,)), self._reach_names) or ()
            got = tuple(c for k in sorted(reached) if (c := comps.get(k)) is not None)
            self._closure[name] = got
        return got

    def _callees(self, name: str) -> list[str]:
        c = self.comps.get(name)
        return [b.component for b in c.boxes] if c is not None else []

    def atoms(self, name: str) -> frozenset[str]:
        """The labels anywhere in ``name``'s closure."""
        return reach_union(name, self._callees, self._labels, self._reach_atoms) or frozenset()

    def _labels(self, name: str) -> frozenset[str]:
        c = self.comps.get(name)
        return frozenset().union(*(n.labels for n in c.nodes)) if c is not None else frozenset()

    def rsm(self, name: str, validate: bool = False) -> RSM:
        """The checked function wrapped in a root whose return is labelled ``end``.

        Components are built with resolved boxes, so the RSM is assembled directly (sharing the
        component objects, and so their cached digests, across RSMs); ``validate`` runs the
        model's full rule check instead, which the tests do.
        """
        got = self._rsms.get(name)
        if got is not None and not validate:
            return got
        checked = self.comps.get(name)
        root = _root(name, checked.exits if checked is not None else (EXIT,))
        closure = self.closure(name)
        if validate:
            got = build_rsm((root, *closure), root.name, "start")
        else:
            # equal components make the same model: its digests and compiled form are kept
            # (components hash by content, once each; the same objects compare by identity first)
            key = (name, closure)
            got = self.store.rsms.get(key)
            if got is None:  # (stored only when missed: comparing equal components again costs)
                got = self.store.rsms[key] = RSM((root, *closure), root.name, "start")
        self._rsms[name] = got
        return got

    def local_rsm(self, name: str) -> RSM:
        """The checked function alone, its calls plain steps: all a rule about a local that no
        callee can read or write sees (see ``Rule.local``), so that an edit in a callee leaves
        the model, and the verdict cached by its digest, as it was."""
        key = f"{name}|local"
        got = self._rsms.get(key)
        if got is None:
            comp = self.comps[name]
            assert comp is not None
            flat = comp.without_boxes
            skey = (key, (flat,))
            got = self.store.rsms.get(skey)
            if got is None:
                got = self.store.rsms[skey] = RSM((_root(name, comp.exits), flat), f"{name}!root", "start")
            self._rsms[key] = got
        return got


def _root(name: str, exits: tuple[str, ...] = (EXIT,)) -> Component:
    """The component that calls the checked one (whose exits are ``exits``) and labels its return
    ``end``."""
    return Component(
        f"{name}!root",
        (Node("start", frozenset(), True, False), Node("end", frozenset({"end"}), False, True)),
        (Box("call", name, (ENTRY,), exits),),
        (("start", ("call", ENTRY)), *((("call", e), "end") for e in exits)),
    )


_RESULT_LABELS = frozenset({"def", "alloc", "open", "maynull", "null"})
"""What a call's result stored in a value says of it: after the callee's box where the call is
handed the value's old contents (``v = f(v)``: ``f`` may free the old block and return a new one)."""


def _replaces_argument(fm: FunctionModel, cid: int, v: str) -> bool:
    """Whether CFG node ``cid`` stores in ``v`` the result of a call handed ``v`` itself."""
    return any(
        call.result == v and any(ap == v and not byaddr for ap, byaddr in call.args)
        for call in fm.cfg.nodes[cid].calls
    )


def _labelled(labels: frozenset[str]) -> Callable[[bool | None], frozenset[str]]:
    """The labels of every way out of a call: ``labels``."""

    def on(br: bool | None) -> frozenset[str]:
        return labels

    return on


def _no_labels(br: bool | None) -> frozenset[str]:
    """The labels of the ways out of a test of a callee's result: none (the ways are split only so
    that each exit of the callee leads to the branches its value allows)."""
    return frozenset()


@dataclass(frozen=True)
class _Skeleton:
    """A function's pruned graph as plain successor lists, with the nodes every projection keeps.

    ``kept_always``: loop heads, labels, returns, entry and exit; ``kept`` adds self-loops (which a
    NULL test on the node may split, so tested nodes are re-decided) but only one of the sinks
    (:mod:`extractors.sinks`: a projection unfolds those labelled for its value).
    """

    nodes_of: dict[int, list[int]]  # CFG node -> graph nodes standing for it
    succ: tuple[list[int], ...]
    kept_always: tuple[bool, ...]
    kept: tuple[bool, ...]
    fold: Folded  # sinks folded into one (``succ`` is ``fold.succ``)
    base: Base  # the contraction to ``kept``, which a projection changes only around its value


# labels of the (NULL, not-NULL) branches of a test: of the tested value, and of a value the test's
# not-NULL branch takes (the argument a call whose result is tested owns once it succeeded)
TESTED: tuple[frozenset[str], frozenset[str]] = (frozenset({"isnull"}), frozenset({"notnull"}))
# ... of a test inside an ``assert``, whose NULL branch says the author holds the value may be NULL
# there, not that the code handles it (cfg.CfgNode.asserted)
ASSERTED: tuple[frozenset[str], frozenset[str]] = (frozenset({"isnull", "asserted"}), frozenset({"notnull"}))
TAKEN: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset({"escape"}))
# ... and of the (set, clear) branches of a test of the error indicator right after a call whose every
# NULL comes with it set, for the result (extractors.error_indicator)
VOUCHED: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset({"notnull"}))


def _split_test(
    fm: FunctionModel,
    i: int,
    to: Callable[[int], int],
    names: list[str],
    labels: list[frozenset[str]],
    succ: list[list[int]],
    branch_of: dict[int, tuple[int, bool]],
    outcome: tuple[frozenset[str], frozenset[str]] = TESTED,
    first: bool | None = None,
) -> None:
    """Route each branch of graph node ``i`` (a NULL test of the value, or of a result that takes
    it, or a test of the error indicator) through a new node labelled by ``outcome``, so the
    outcome of the test is visible to the formulas: ``outcome[0]`` on the branch ``first`` (by
    default the node's NULL branch), ``outcome[1]`` on the other.  ``to``: where the projection
    sends an edge into a graph node (a sink it leaves folded goes to the representative)."""
    g = fm.graph
    c = g.cfg_of[i]
    if first is None:
        nt = fm.cfg.nodes[c].null_test
        assert nt is not None
        first = nt[1]
    out: list[int] = []
    for j, br in g.succ[i]:
        if br is not None:
            b = len(names)
            names.append(f"{names[i]}>{names[j]}{'T' if br else 'F'}")
            labels.append(outcome[0] if br == first else outcome[1])
            branch_of[b] = (c, br)
            succ.append([to(j)])
            out.append(b)
        else:
            out.append(to(j))
    succ[i] = list(dict.fromkeys(out))


def result_test(fm: FunctionModel, cid: int, call: Call, v: str) -> int | None:
    """The test of ``call``'s result right after CFG node ``cid`` when ``call`` hands ``&v`` and
    stores its result in a local (``rc = parse(s, &x); if (rc != 0) ...``): the node's one
    successor, a test whose one predecessor is ``cid``, that reads the local and does not name
    ``v``.  What the callee stored in ``v`` is then told apart on that test's branches, as it is
    when the call itself is the test; None otherwise."""
    node = fm.cfg.nodes[cid]
    r = call.result
    if node.kind == "cond" or r is None or not r.isidentifier() or r == v:
        return None
    if not any(byaddr and ap == v for ap, byaddr in call.args):
        return None
    outs = fm.cfg.succ[cid]
    if len(outs) != 1:
        return None
    t = outs[0][0]
    test = fm.cfg.nodes[t]
    read: set[str] = set()
    cond_vars(test.cond, read)
    if test.kind != "cond" or r not in read:
        return None
    if fm.cfg_in_degree[t] != 1 or t not in fm.modelled:
        return None  # another way into the test, or a test the model does not keep
    if re.search(rf"(?<![\w.>]){re.escape(v)}\b", test.source):
        return None
    return t


def _tests_indicator_next(fm: FunctionModel, cid: int) -> bool:
    """Whether CFG node ``cid`` leads only into a test of the error indicator (a node witness
    refutation inserted after it is none)."""
    out = fm.cfg.succ[cid]
    if len(out) != 1 or out[0][1] is not None:
        return False
    test = fm.cfg.nodes[out[0][0]]
    return test.kind == "cond" and any(way is not None for way, _ in test.indicator)


def component_name(fm: FunctionModel, v: str) -> str:
    """``g@i`` (parameter ``i``, plus any field path) or ``g@name`` for locals and globals.

    Naming parameters by position makes the projection of ``g`` on its parameter the same
    component whatever the callers call their argument.
    """
    root = root_of(v)
    if root in fm.params and root not in fm.cfg.declared:
        return f"{function_id(fm)}@{fm.params.index(root)}{v[len(root):]}"
    if root.startswith("*") and root[1:] in fm.params and root[1:] not in fm.cfg.declared:
        return f"{function_id(fm)}@*{fm.params.index(root[1:])}{v[len(root):]}"
    return f"{function_id(fm)}@{v}"


def _left_filled(br: bool | None) -> frozenset[str]:
    """The labels of the ways out of a loop test whose body stores into the buffer on every round
    (:func:`extractors.contents.filling_loops`): leaving it (the false branch) is a store."""
    return frozenset({"def"}) if br is False else frozenset()


def _out_subject(k: int, summary: Summary | None) -> str:
    """The subject of an :data:`OUT_PARAM` answer: the parameter and the summary read of it."""
    return f"{k}|{summary!r}"


def _split_after(
    fm: FunctionModel,
    i: int,
    to: Callable[[int], int],
    after: Callable[[bool | None], frozenset[str]],
    names: list[str],
    labels: list[frozenset[str]],
    succ: list[list[int]],
    way_of: dict[int, tuple[int, bool | None]],
    branch_of: dict[int, tuple[int, bool]],
) -> None:
    """Route each way out of graph node ``i`` (a call handed ``&v``) through a node labelled with
    what the call left in ``v`` on that way (``after``), after the call's box; a way a NULL test
    of ``v`` already split (``branch_of``) gets the labels on its branch node.  ``to``: as for
    :func:`_split_test`."""
    c = fm.graph.cfg_of[i]
    if any(j in branch_of for j in succ[i]):
        for j in succ[i]:
            if j in branch_of:
                labels[j] = labels[j] | after(branch_of[j][1])
        return
    out: list[int] = []
    for j, br in fm.graph.succ[i]:
        b = len(names)
        names.append(f"{names[i]}>{names[j]}{'A' if br is None else 'AT' if br else 'AF'}")
        labels.append(after(br))
        way_of[b] = (c, br)
        succ.append([to(j)])
        out.append(b)
    succ[i] = out
