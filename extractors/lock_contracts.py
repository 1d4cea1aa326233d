"""Which project functions are called with a lock held, and the values a function that releases a
lock only through such a callee, without holding it, is checked on (issue #13).

``finish_locked()`` drops ``jobs_mu``, which its callers are to hold: ``job_done_locked()`` locks
and calls it (right), ``job_done()`` calls it without the lock (the bug). ``unlock-without-lock``
needs both a lock and an unlock in a value's reach, so it is checked neither on ``finish_locked``
(whose callers hold the lock: reporting it would be wrong) nor on ``job_done`` (unlock only,
through its callee). The evidence that ``job_done`` is the deviant one is the rest of the project,
as in Engler et al.'s "bugs as deviant behaviour": another function calls ``finish_locked`` with
the lock held, which says that is its contract, and nothing calls ``job_done`` with it held.

The facts, over a scope's functions (one walk of the CFG of each function that can lock or unlock,
no model checking; the others are only looked up, by their text, in a table of which functions
call a library lock function themselves):

- ``held[g]``: the (parameter index, rest of path) pairs a project caller holds at some call of
  ``g`` (index -1: a global, the path whole). A caller holds ``v`` at a call when the call is
  reached from a lock of ``v`` in the caller without an unlock of ``v`` between (the library's
  lock calls, or a project *lock wrapper*, at any depth: a function that locks a field of its
  parameter or a global and does not unlock it), or from the caller's entry without a lock or unlock of ``v``
  when the caller is itself called with ``v`` held (to a fixpoint: the call stack, one frame at a
  time). ``v`` maps to the callee's names through a global (the same name) or an argument that is
  a plain path (``q`` in ``finish(q)`` for ``q->mu``).
- ``admitted[f]``: the values of ``f`` its check of a rule with ``contract_requires`` may use
  (:meth:`extractors.rules.Rule.applies`): ``v`` such that ``f`` calls some ``g`` with ``v``
  mapped into ``held[g]``, ``f`` itself neither locks nor unlocks ``v`` (a function that releases
  a lock by its own hand without taking it is an unlock wrapper, the API's half of a pair, never
  reported), ``v`` is a global or a field of a parameter (a lock reached through a local pointer
  may be held through another name), and ``v`` is not in ``held[f]`` (no project caller of ``f``
  holds it: an over-approximation of "held" only admits less). The rule's formula, checked on
  ``f``'s projection of ``v`` (whose boxes carry the callees' unlocks), decides whether an unlock
  is reached without a lock, and its witness goes through the call (the RSM's call stack).

Residual assumption: a function with no project caller that holds the lock is taken to be called
without it (an entry point, or called through a pointer by code that does not hold it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from checker.querydb import Content
from extractors.calls import CallSpec
from extractors.facts import root_of
from extractors.functions import FunctionModel
from extractors.projection import Projector, function_id

LOCK_ATOMS = ("lock", "unlock")

_NOTHING: dict[str, set[str]] = {}  # what a node without lock calls touches (shared: never written)
Held = tuple[int, str]  # (parameter index, or -1 for a global; the rest of the path, or the global path)


@dataclass(frozen=True)
class LockContracts:
    """The facts of the module's note; equal when the facts are (a query backdates on it)."""

    held: Mapping[str, frozenset[Held]]
    admitted: Mapping[str, frozenset[str]]

    def admitted_of(self, ident: str) -> frozenset[str]:
        return self.admitted.get(ident, frozenset())

    def key(self, ident: str) -> str:
        """What the findings of function ``ident`` depend on of these facts (the positional key
        covers only what it can reach; its callers decide this)."""
        got = self.admitted.get(ident)
        return ",".join(sorted(got)) if got else ""


NO_CONTRACTS = LockContracts({}, {})


def own_lock_paths(
    g: FunctionModel, direct: list[dict[str, set[str]]], globals_: frozenset[str]
) -> frozenset[tuple[int, str, str]]:
    """What ``g`` locks or unlocks by its own calls (``direct``: :meth:`_Walker.direct` of ``g``)
    that a caller can name, with the atom: (parameter index, rest of the path, atom) for a field
    of a parameter, (-1, path, atom) for a global (as :meth:`Projector._locked_paths`, which does
    not tell the two atoms apart)."""
    found: set[tuple[int, str, str]] = set()
    own = set(g.cfg.declared)
    for at in direct:
        for atom, paths in at.items():
            for path in paths:
                root = root_of(path)
                if root in own:
                    continue
                if root in g.params:
                    if path != root:
                        found.add((g.params.index(root), path[len(root) :], atom))
                elif root in globals_:
                    found.add((-1, path, atom))
    return frozenset(found)


class _Walker:
    """The scope's functions read for locks: what each node locks and unlocks, and where its
    project calls go, each function's answered once.  Only the functions in ``relevant`` (those
    that call a library lock function, and their callers up the call graph) can lock or unlock
    anything a caller can name; the others are answered empty without reading them."""

    def __init__(self, proj: Projector, relevant: set[str]) -> None:
        self.proj = proj
        self.scope = proj.scope
        self.relevant = relevant
        self._own: dict[str, frozenset[tuple[int, str, str]]] = {}
        self._direct: dict[str, list[dict[str, set[str]]]] = {}
        self._touches: dict[str, list[dict[str, set[str]]]] = {}

    def own(self, g: FunctionModel) -> frozenset[tuple[int, str, str]]:
        """What ``g`` locks or unlocks that its caller can name, by its own calls or through its
        project callees' (``ares_channel_lock(c)`` calls ``ares_thread_mutex_lock(c->lock)``,
        which locks ``c->lock->mutex``); a function on a call cycle sees its own calls only."""
        ident = function_id(g)
        got = self._own.get(ident)
        if got is not None:
            return got
        if ident not in self.relevant:
            return frozenset()
        # set while it is being read: a function on a call cycle sees its own calls only
        self._own[ident] = found = own_lock_paths(g, self.direct(g), self.scope.globals)
        more = set(found)
        locals_ = set(g.cfg.declared)
        for n in g.cfg.nodes:
            for h, args in self.callees(g, n.id):
                for k, rest, atom in self.own(h):
                    v = rest if k < 0 else _argument_path(args, k, rest)
                    if v is None or root_of(v) in locals_:
                        continue
                    if k < 0 and _names_global(g, v, self.scope.globals):
                        more.add((-1, v, atom))
                    elif (mine := _as_held(g, v, self.scope.globals)) is not None and mine[0] >= 0:
                        more.add((mine[0], mine[1], atom))
        got = self._own[ident] = frozenset(more)
        return got

    def callees(self, fm: FunctionModel, cid: int) -> list[tuple[FunctionModel, tuple[tuple[str | None, bool], ...]]]:
        out = []
        for c in fm.cfg.nodes[cid].calls:
            if c.name is None or c.name in self.scope.table:
                continue
            g = self.scope.resolve(fm, c.name)
            if g is not None:
                out.append((g, c.args))
        return out

    def direct(self, fm: FunctionModel) -> list[dict[str, set[str]]]:
        """Per CFG node, the paths ``fm`` locks or unlocks by its own library calls, by atom."""
        ident = function_id(fm)
        got = self._direct.get(ident)
        if got is not None:
            return got
        table = self.scope.table
        out: list[dict[str, set[str]]] = []
        for n in fm.cfg.nodes:
            if not n.calls:
                out.append(_NOTHING)
                continue
            at: dict[str, set[str]] = {}
            for c in n.calls:
                spec = table.get(c.name) if c.name else None
                if spec is None:
                    continue
                for i, atom in spec.args:
                    if atom in LOCK_ATOMS and 0 <= i < len(c.args) and (path := c.args[i][0]) is not None:
                        at.setdefault(atom, set()).add(path)
            out.append(at or _NOTHING)
        self._direct[ident] = out
        return out

    def touches(self, fm: FunctionModel) -> list[dict[str, set[str]]]:
        """Per CFG node, the paths of ``fm`` it locks or unlocks, by atom: the library's calls,
        and a project function's own locks of a global or of a field of an argument (a wrapper
        that both locks and unlocks a path counts for both)."""
        ident = function_id(fm)
        got = self._touches.get(ident)
        if got is not None:
            return got
        if ident not in self.relevant:
            got = self._touches[ident] = [_NOTHING] * len(fm.cfg.nodes)
            return got
        got = []
        for n, direct in zip(fm.cfg.nodes, self.direct(fm), strict=True):
            callees = self.callees(fm, n.id) if n.calls else []
            if not direct and not callees:
                got.append(_NOTHING)
                continue
            at = {atom: set(paths) for atom, paths in direct.items()}
            for g, args in callees:
                for k, rest, atom in self.own(g):
                    v = rest if k < 0 else _argument_path(args, k, rest)
                    if v is not None:
                        at.setdefault(atom, set()).add(v)
            got.append(at)
        self._touches[ident] = got
        return got

    def calls_held(self, fm: FunctionModel, starts: list[int], v: str) -> set[tuple[str, Held]]:
        """The calls reached from ``starts`` (successors of a lock, or the entry) before a node
        that locks or unlocks ``v``, as (callee id, ``v`` in the callee's names); the calls of
        an unlocking node count (they run with ``v`` still held: ``finish_locked()``)."""
        touches = self.touches(fm)
        out: set[tuple[str, Held]] = set()
        seen: set[int] = set()
        stack = list(starts)
        while stack:
            cid = stack.pop()
            if cid in seen:
                continue
            seen.add(cid)
            at = touches[cid]
            if v in at.get("lock", ()):
                continue  # locked again: a double lock, not this lock's calls
            for g, args in self.callees(fm, cid):
                mapped = _in_callee(fm, v, args, self.scope.globals)
                if mapped is not None:
                    out.add((function_id(g), mapped))
            if v in at.get("unlock", ()):
                continue
            stack.extend(fm.cfg.successors(cid))
        return out

    def local_held(self, fm: FunctionModel) -> set[tuple[str, Held]]:
        """The calls ``fm`` makes with a lock it took itself held."""
        out: set[tuple[str, Held]] = set()
        for cid, at in enumerate(self.touches(fm)):
            for v in at.get("lock", ()):
                if v in at.get("unlock", ()):
                    continue  # a wrapper that locks and unlocks: nothing held after it
                out |= self.calls_held(fm, fm.cfg.successors(cid), v)
        return out


def _argument_path(args: tuple[tuple[str | None, bool], ...], k: int, rest: str) -> str | None:
    """The caller's path for the callee's ``param k`` + ``rest``: the argument must be a plain
    path (not ``&x``, whose fields the callee names through ``->`` of another object)."""
    if k >= len(args):
        return None
    ap, byaddr = args[k]
    return ap + rest if ap is not None and not byaddr else None


def _names_global(fm: FunctionModel, v: str, globals_: frozenset[str]) -> bool:
    root = root_of(v)
    return root in globals_ and root not in fm.cfg.declared and root not in fm.params


def _in_callee(
    fm: FunctionModel, v: str, args: tuple[tuple[str | None, bool], ...], globals_: frozenset[str]
) -> Held | None:
    """``v`` of ``fm`` in the names of a callee it hands ``args``: a global by its name, a path
    through a plain argument ``a`` (``a->mu``) as (position, ``->mu``)."""
    if _names_global(fm, v, globals_):
        return (-1, v)
    for j, (ap, byaddr) in enumerate(args):
        if ap is not None and not byaddr and v.startswith(ap + "->"):
            return (j, v[len(ap) :])
    return None


def _in_function(fm: FunctionModel, held: Held) -> str | None:
    """The path of ``fm`` a held pair names."""
    k, rest = held
    if k < 0:
        return rest
    return fm.params[k] + rest if k < len(fm.params) else None


def _as_held(fm: FunctionModel, v: str, globals_: frozenset[str]) -> Held | None:
    """``v`` of ``fm`` as its callers name it: a global, or a path through a parameter."""
    if _names_global(fm, v, globals_):
        return (-1, v)
    root = root_of(v)
    if root in fm.params and v != root and root not in fm.cfg.declared:
        return (fm.params.index(root), v[len(root) :])
    return None


@dataclass(frozen=True)
class _Run:
    """One run of :func:`lock_contracts`, for the next one over the same functions: what it read
    of each function (its key, and its callees where any function locks), which functions it
    read beyond that (``read``), and what it found."""

    table: dict[str, CallSpec]
    globals: frozenset[str]
    keys: dict[str, str]  # function id -> its model's key
    callees: dict[str, tuple[str, ...]] | None  # None: no function locks, so none was read
    read: frozenset[str]
    contracts: LockContracts


_RUNS = Content[frozenset[str], _Run]("lock_contract_runs", weight=lambda r: 1 + len(r.keys) // 4)


def lock_contracts(proj: Projector) -> LockContracts:
    """The facts of the module's note over the functions of ``proj``'s scope.

    The last run over the same functions is kept: an edit of a function the run did not read
    (it locks nothing, calls what it called, is neither called with a lock held nor calls a
    function that is, nor reaches a lock) changes none of the facts, since every fact comes from
    a walk of a function it did read, so only the edited functions are looked at again."""
    runs = proj.store.db.content(_RUNS)
    scope = proj.scope
    ids = frozenset(scope.functions)
    keys = scope.keys
    before = runs.get(ids)
    locking = _locking(proj)
    if (
        before is not None
        and before.table == scope.table
        and before.globals == scope.globals
        and all(_unread(proj, i, before, locking) for i, key in keys.items() if before.keys.get(i) != key)
    ):
        runs[ids] = _Run(before.table, before.globals, keys, before.callees, before.read, before.contracts)
        return before.contracts
    callees, read, contracts = _contracts(proj, locking)
    runs[ids] = _Run(scope.table, scope.globals, keys, callees, read, contracts)
    return contracts


def _locking(proj: Projector) -> frozenset[str]:
    """The names the call table says lock or unlock."""
    table = proj.scope.table
    return frozenset(name for name, spec in table.items() if any(atom in LOCK_ATOMS for _, atom in spec.args))


def _calls_lock(proj: Projector, fm: FunctionModel, locking: frozenset[str]) -> bool:
    """Whether ``fm`` calls a library lock function itself (kept by its text key)."""
    known = proj.store.lock_callers
    calls = known.get(fm.key)
    if calls is None:
        calls = known[fm.key] = any(c.name in locking for n in fm.cfg.nodes for c in n.calls)
    return calls


def _unread(proj: Projector, ident: str, run: _Run, locking: frozenset[str]) -> bool:
    """Whether edited function ``ident`` is one ``run`` did not read and still need not read."""
    fm = proj.scope.functions[ident]
    if ident in run.read or _calls_lock(proj, fm, locking):
        return False
    return run.callees is None or proj.callee_ids(fm, ident) == run.callees.get(ident)


def _contracts(
    proj: Projector, locking: frozenset[str]
) -> tuple[dict[str, tuple[str, ...]] | None, frozenset[str], LockContracts]:
    """The facts, with the callees of every function and the functions read (see :class:`_Run`)."""
    functions = proj.scope.functions
    lockers = [ident for ident, fm in functions.items() if _calls_lock(proj, fm, locking)]
    if not lockers:
        return None, frozenset(), NO_CONTRACTS  # every fact starts at a library lock call: none
    callees = {ident: proj.callee_ids(fm, ident) for ident, fm in functions.items()}
    callers: dict[str, set[str]] = {}
    for ident, called in callees.items():
        for g in called:
            callers.setdefault(g, set()).add(ident)
    relevant = set(lockers)  # and every function that calls one of them, at any depth
    todo = list(lockers)
    while todo:
        for caller in callers.get(todo.pop(), ()):
            if caller not in relevant:
                relevant.add(caller)
                todo.append(caller)
    walker = _Walker(proj, relevant)
    held: dict[str, set[Held]] = {}
    work: list[tuple[str, Held]] = []

    def add(pairs: set[tuple[str, Held]]) -> None:
        for g, h in pairs:
            got = held.setdefault(g, set())
            if h not in got:
                got.add(h)
                work.append((g, h))

    for ident in sorted(relevant):
        fm = functions[ident]
        if any(walker.touches(fm)):
            add(walker.local_held(fm))
    while work:  # a function called with v held calls with it held what it reaches before touching v
        ident, h = work.pop()
        fm = functions[ident]
        v = _in_function(fm, h)
        if v is not None:
            add(walker.calls_held(fm, [fm.cfg.entry], v))
    admitted: dict[str, frozenset[str]] = {}
    calling_held: set[str] = set().union(*(callers.get(h, set()) for h in held))  # only they call a held one
    for ident in sorted(calling_held):
        fm = functions[ident]
        own = {v for at in walker.direct(fm) for paths in at.values() for v in paths}
        found: set[str] = set()
        for cid in proj.calling_nodes(fm):
            for callee, args in walker.callees(fm, cid):
                for k, rest in held.get(function_id(callee), ()):
                    v = rest if k < 0 else _argument_path(args, k, rest)
                    if v is None or v in own:
                        continue
                    mine = _as_held(fm, v, proj.scope.globals)
                    if mine is not None and mine not in held.get(ident, ()):
                        found.add(v)
        if found:
            admitted[ident] = frozenset(found)
    read = frozenset(relevant | held.keys() | calling_held)
    return callees, read, LockContracts({g: frozenset(hs) for g, hs in held.items()}, admitted)
