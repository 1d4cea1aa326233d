"""Ternary labelling of contextualised component instances (seeds 000/002, with seed 004's κ).

An *instance* is a component under a *context*: the known truth values of existential subformulas
at its exits, i.e. at the return points of the calls that reach it.  Every value an instance holds
is a fact about every run that enters the component under that context, so values only ever get
refined (unknown -> true/false) and can be kept in a knowledge base and reused by later checks.

The engine offers the operations the strategies combine:

- :meth:`Engine.refine` - local ternary deduction in every instance (pessimistic and optimistic
  passes for EU/EG), with values flowing from callee entries to call nodes through a worklist, to
  the global fixpoint;
- :meth:`Engine.contextualize` - give a box a callee instance under the more precise context its
  caller now knows (reusing an existing equal instance);
- :meth:`Engine.resolve` - global dependency-cycle resolution (unknown EG -> true, EU -> false),
  sound only at a joint fixpoint of the two above (seed 002, Lemma 6 / Theorem 2).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from checker.compiled import Compiled, CompiledMemo, compile_shared
from checker.formulas import AND, ATOM, EGOP, EUOP, EXOP, NOT, OR, TRUE_OP, FormulaTable
from checker.knowledge import KnowledgeBase
from checker.model import RSM
from checker.sharing import shared
from checker.ternary import FF, TT, UNKNOWN, t_and, t_or

_NOT = (TT, FF, UNKNOWN)
_VALUES = (FF, TT, UNKNOWN)
_OR = tuple(t_or(x, y) for x in _VALUES for y in _VALUES)
_AND = tuple(t_and(x, y) for x in _VALUES for y in _VALUES)

CtxKey = frozenset[tuple[tuple[str, int], int]]
KbKey = tuple[str, str, frozenset[tuple[str, int, int]], int]  # formulas by structure_id
Fact = tuple[KbKey, tuple[int, ...]]


class Instance:
    """A component under one context, with its value arrays and the instances its boxes call."""

    __slots__ = ("comp", "ctx", "key", "vals", "boxmap", "callers", "serial", "settled", "attached", "kb_keys")

    def __init__(self, comp: Compiled, ctx: dict[tuple[str, int], int], serial: int) -> None:
        self.comp = comp
        self.ctx = ctx
        self.key: tuple[str, CtxKey] = (comp.name, frozenset(ctx.items()))
        self.vals: list[list[int]] = []
        self.boxmap: list[Instance] = []
        self.callers: set[tuple[Instance, int]] = set()
        self.serial = serial
        # per existential subformula, the values it and its operands had after its last local
        # fixpoint: the same inputs again cannot teach anything, so the pass is skipped
        self.settled: dict[int, tuple[tuple[int, ...], ...]] = {}
        # False once no box calls it any more: it is then neither refined nor told about its
        # callees' changes, until a box is pointed at it again
        self.attached = True
        self.kb_keys: list[KbKey | None] | None = None

    def __repr__(self) -> str:
        return f"<Instance {self.comp.name}#{self.serial} ctx={len(self.ctx)}>"


class Engine:
    def __init__(
        self, rsm: RSM, table: FormulaTable, kb: KnowledgeBase | None = None, shared: CompiledMemo | None = None
    ) -> None:
        self.rsm = rsm
        self.table = table
        self.kb = kb
        self.shared = shared  # compiled components kept across models (compile_shared)
        # shared by every check of this model: compiling is the same whatever the formula
        self.compiled: dict[str, Compiled] = rsm.memo.setdefault("compiled", {})  # type: ignore[assignment]
        self.instances: dict[tuple[str, CtxKey], Instance] = {}
        self.stats = {"contexts": 0, "reused": 0, "deductions": 0, "resolutions": 0, "kb_hits": 0}
        self._loop_cache: dict[str, dict[tuple[str, int], int]] = {}
        # κ's keys see only the formula's atoms: an edit to other labels keeps what was learnt
        seen = frozenset(a for a in table.atom_names if a is not None)
        self._deep = rsm.deep_digests_seeing(seen) if kb is not None else {}
        self._serial = 0
        self._before_resolution: list[Fact] | None = None
        self._worklist: deque[Instance] = deque()
        self._queued: set[Instance] = set()
        self._dirty: set[Instance] = set()
        self._existential_by_top = [tuple(f for f in table.existential if f <= top) for top in range(len(table.ops))]
        init = self.comp(rsm.initial_component)
        self.root = self._new_instance(init, dict(self.loop_values(init)))
        self.stats["contexts"] = 1

    # ----------------------------------------------------------------- building
    def comp(self, name: str) -> Compiled:
        c = self.compiled.get(name)
        if c is None:
            c = self.compiled[name] = compile_shared(self.rsm.component(name), self.rsm, self.shared)
        return c

    def loop_values(self, comp: Compiled) -> dict[tuple[str, int], int]:
        """Existential values at exits where the run stays forever (the top-level exit, dead ends)."""
        cached = self._loop_cache.get(comp.name)
        if cached is not None:
            return cached
        t = self.table
        out: dict[tuple[str, int], int] = {}
        for ex, p in comp.exit_pos.items():
            v: list[int] = []
            for i, op in enumerate(t.ops):
                a = t.args[i]
                if op == TRUE_OP:
                    v.append(TT)
                elif op == ATOM:
                    v.append(TT if t.atom_names[i] in comp.labels[p] else FF)
                elif op == NOT:
                    v.append(1 - v[a[0]])
                elif op == OR:
                    v.append(TT if v[a[0]] == TT or v[a[1]] == TT else FF)
                elif op == AND:
                    v.append(TT if v[a[0]] == TT and v[a[1]] == TT else FF)
                elif op == EUOP:
                    v.append(v[a[1]])
                else:  # EX, EG: the only successor is the state itself
                    v.append(v[a[0]])
            for i in t.existential:
                out[(ex, i)] = v[i]
        self._loop_cache[comp.name] = out
        return out

    def _new_instance(self, comp: Compiled, ctx: dict[tuple[str, int], int],
                      template: Instance | None = None) -> Instance:
        self._serial += 1
        inst = Instance(comp, ctx, self._serial)
        if template is not None:
            inst.vals = list(map(list.copy, template.vals))
        else:
            self._init_values(inst)
        for (ex, f), v in ctx.items():
            inst.vals[f][comp.exit_pos[ex]] = v
        if self.kb is not None:
            self._seed_from_kb(inst)
        self.instances[inst.key] = inst
        self._dirty.add(inst)
        if template is not None:
            inst.boxmap = list(template.boxmap)
            for bi, callee_inst in enumerate(inst.boxmap):
                callee_inst.callers.add((inst, bi))
        else:
            self._link_base_boxes(inst)
        self._enqueue(inst)
        return inst

    def _link_base_boxes(self, first: Instance) -> None:
        """Give every box the callee's context-free instance, creating those level by level.

        Iterative rather than recursive: call chains in real programs are deeper than Python's
        recursion limit allows.
        """
        pending = [first]
        while pending:
            inst = pending.pop()
            for bi, name in enumerate(inst.comp.box_callee):
                key: tuple[str, CtxKey] = (name, frozenset())
                callee = self.instances.get(key)
                if callee is None:
                    callee = self._make_base(name)
                    pending.append(callee)
                inst.boxmap.append(callee)
                callee.callers.add((inst, bi))

    def _make_base(self, name: str) -> Instance:
        comp = self.comp(name)
        self._serial += 1
        inst = Instance(comp, {}, self._serial)
        self._init_values(inst)
        if self.kb is not None:
            self._seed_from_kb(inst)
        self.instances[inst.key] = inst
        self._dirty.add(inst)
        self._enqueue(inst)
        return inst

    def _init_values(self, inst: Instance) -> None:
        t = self.table
        comp = inst.comp
        for i, op in enumerate(t.ops):
            if op == TRUE_OP:
                inst.vals.append([TT] * comp.n)
            elif op == ATOM:
                name = t.atom_names[i]
                inst.vals.append([TT if name in lab else FF for lab in comp.labels])
            else:
                inst.vals.append([UNKNOWN] * comp.n)

    # ------------------------------------------------------------ knowledge base
    def _kb_keys(self, inst: Instance) -> list[KbKey | None]:
        """κ's key per subformula of an instance (None for atoms and true), formed once per instance:
        its context never changes, and forming keys per lookup dominated checks that reuse κ."""
        keys = inst.kb_keys
        if keys is None:
            t = self.table
            subs = t.structure  # κ outlives formula objects: keys compare by structure
            deep, name = self._deep[inst.comp.name], inst.comp.name
            ctxs: dict[tuple[int, ...], frozenset[tuple[str, int, int]]] = {}
            keys = []
            for f, op in enumerate(t.ops):
                if op in (TRUE_OP, ATOM):
                    keys.append(None)
                    continue
                below = t.existential_below[f]
                ctx = ctxs.get(below)
                if ctx is None:
                    wanted = set(below)
                    ctx = ctxs[below] = shared(
                        frozenset((ex, subs[g], v) for (ex, g), v in inst.ctx.items() if g in wanted)
                    )
                keys.append((deep, name, ctx, subs[f]))
            inst.kb_keys = keys
        return keys

    def _seed_from_kb(self, inst: Instance) -> None:
        assert self.kb is not None
        for f, key in enumerate(self._kb_keys(inst)):
            if key is None:
                continue
            known = self.kb.get(key)
            if known is None:
                continue
            vals = inst.vals[f]
            if vals.count(UNKNOWN) == len(vals):
                vals[:] = known
            else:
                vals[:] = [k if v == UNKNOWN else v for k, v in zip(known, vals, strict=True)]
            self.stats["kb_hits"] += 1

    def store_knowledge(self) -> None:
        """Record what this check learnt about every live instance, for later checks to reuse.

        What was known before the first cycle resolution is a fact about a component under a
        context. After it, only instances whose context fixes every exit value a subformula
        depends on keep facts about that subformula: a resolution decides the cycles of *this*
        model, and a cycle that leaves an instance through an exit its context leaves open runs
        through its callers (an unknown EU there becomes false). Storing those values under the
        component's key made a later check of an edited model reuse them where the new callers
        make them wrong (a double free was hidden); cycles inside a closed instance do not leave it.
        """
        if self.kb is None:
            return
        if self._before_resolution is None:
            facts = self._knowledge()
        else:
            facts = self._before_resolution + self._knowledge(closed_only=True)
        for key, vals in facts:
            self.kb.merge(key, vals)

    def _knowledge(self, closed_only: bool = False) -> list[Fact]:
        t = self.table
        out = []
        for inst in self.reachable():
            closed: set[int] | None = None
            if closed_only:
                exits = inst.comp.exit_pos
                closed = {g for g in t.existential if all((ex, g) in inst.ctx for ex in exits)}
            for f, key in enumerate(self._kb_keys(inst)):
                if key is None:
                    continue
                if closed is not None and not closed.issuperset(t.existential_below[f]):
                    continue
                vals = inst.vals[f]
                if UNKNOWN in vals and all(v == UNKNOWN for v in vals):
                    continue
                out.append((key, tuple(vals)))
        return out

    # ----------------------------------------------------------------- refining
    def _enqueue(self, inst: Instance) -> None:
        if inst not in self._queued:
            self._queued.add(inst)
            self._worklist.append(inst)

    def enqueue_all(self, insts: Iterable[Instance]) -> None:
        for i in insts:
            self._enqueue(i)

    def refine(self, upto: int | None = None) -> None:
        """Local deduction everywhere until no call node can learn more from a callee entry."""
        top = self.table.root if upto is None else upto
        wl = self._worklist
        while wl:
            inst = wl.popleft()
            self._queued.discard(inst)
            if inst.attached and self._deduce(inst, top):
                for caller, _ in inst.callers:
                    self._enqueue(caller)

    def _deduce(self, inst: Instance, top: int) -> bool:
        """One bottom-up pass over the formulas in one instance; True if an entry value changed."""
        self.stats["deductions"] += 1
        comp = inst.comp
        t = self.table
        entry_values, return_values = comp.entry_values, comp.return_values
        changed_entry = False
        for f in range(top + 1):
            op = t.ops[f]
            if op in (TRUE_OP, ATOM):
                continue
            vals = inst.vals[f]
            if UNKNOWN not in vals:
                continue
            before = entry_values(vals)
            a = t.args[f]
            if op == NOT:
                vals[:] = [_NOT[c] if v == UNKNOWN else v for v, c in zip(vals, inst.vals[a[0]], strict=True)]
            elif op in (OR, AND):
                tab = _OR if op == OR else _AND
                x, y = inst.vals[a[0]], inst.vals[a[1]]
                vals[:] = [tab[3 * xv + yv] if v == UNKNOWN else v for v, xv, yv in zip(vals, x, y, strict=True)]
            else:
                rets_before = return_values(vals)
                boxmap = inst.boxmap
                for p, bi, en in comp.calls:
                    if vals[p] == UNKNOWN:
                        callee = boxmap[bi]
                        vals[p] = callee.vals[f][callee.comp.entry_pos[en]]
                inputs = (tuple(vals), *(tuple(inst.vals[c]) for c in a))
                if inst.settled.get(f) == inputs:
                    continue
                if op == EXOP:
                    _deduce_ex(comp, vals, inst.vals[a[0]])
                elif op == EUOP:
                    _deduce_eu(comp, vals, inst.vals[a[0]], inst.vals[a[1]])
                else:
                    _deduce_eg(comp, vals, inst.vals[a[0]])
                inst.settled[f] = (tuple(vals), *inputs[1:])
                if return_values(vals) != rets_before:
                    self._dirty.add(inst)
            if not changed_entry and entry_values(vals) != before:
                changed_entry = True
        return changed_entry

    # ---------------------------------------------------------- contextualising
    def _existential_upto(self, top: int) -> tuple[int, ...]:
        return self._existential_by_top[top]

    def box_context(self, inst: Instance, bi: int, upto: int | None = None) -> dict[tuple[str, int], int]:
        """What ``inst`` knows about the return points of box ``bi``: the callee's context."""
        exist = self._existential_upto(self.table.root if upto is None else upto)
        callee = inst.boxmap[bi]
        ctx = dict(callee.ctx)
        vals = inst.vals
        for ex, r in inst.comp.exits_out[bi]:
            if r is None:
                loop = self.loop_values(callee.comp)
                for f in exist:
                    ctx[(ex, f)] = loop[(ex, f)]
                continue
            for f in exist:
                v = vals[f][r]
                if v != UNKNOWN:
                    ctx[(ex, f)] = v
        return ctx

    def _sharpens(self, inst: Instance, bi: int, exist: tuple[int, ...]) -> bool:
        """Whether :meth:`box_context` would add to the callee's context (without building it)."""
        have = inst.boxmap[bi].ctx
        vals = inst.vals
        for ex, r in inst.comp.exits_out[bi]:
            for f in exist:
                if (ex, f) not in have and (r is None or vals[f][r] != UNKNOWN):
                    return True
        return False

    def contextualize(self, inst: Instance, bi: int, upto: int | None = None) -> bool:
        """Point box ``bi`` of ``inst`` at the callee instance for what the caller knows; True if moved."""
        old = inst.boxmap[bi]
        ctx = self.box_context(inst, bi, upto)
        if len(ctx) == len(old.ctx):
            return False
        key = (old.comp.name, frozenset(ctx.items()))
        target = self.instances.get(key)
        if target is None:
            target = self._new_instance(old.comp, ctx, template=old)
            self.stats["contexts"] += 1
        else:
            self.stats["reused"] += 1
            self._dirty.add(target)  # it may have been out of reach, hence skipped, until now
            if not target.attached:
                self._attach(target)
        old.callers.discard((inst, bi))
        inst.boxmap[bi] = target
        target.callers.add((inst, bi))
        if not old.callers and old is not self.root:
            self._detach(old)
        self._enqueue(inst)
        return True

    def _detach(self, first: Instance) -> None:
        """Stop refining an instance no box calls any more, and what only it called.

        About a third of the deductions of a large check went to such leftovers of earlier contexts.
        """
        stack = [first]
        while stack:
            inst = stack.pop()
            inst.attached = False
            for bi, callee in enumerate(inst.boxmap):
                callee.callers.discard((inst, bi))
                if callee.attached and not callee.callers and callee is not self.root:
                    stack.append(callee)

    def _attach(self, first: Instance) -> None:
        """Bring a detached instance (and its detached callees) back, and let it catch up."""
        stack = [first]
        while stack:
            inst = stack.pop()
            inst.attached = True
            self._enqueue(inst)
            self._dirty.add(inst)
            for bi, callee in enumerate(inst.boxmap):
                callee.callers.add((inst, bi))
                if not callee.attached:
                    stack.append(callee)

    def take_dirty(self) -> set[Instance]:
        """Instances created or with new return-point values since the last call: only their boxes can
        have become contextualisable, so a driver that keeps asking need not rescan the whole model."""
        dirty, self._dirty = self._dirty, set()
        return dirty

    def contextualizable(self, upto: int | None = None,
                         among: set[Instance] | None = None) -> list[tuple[Instance, int]]:
        exist = self._existential_upto(self.table.root if upto is None else upto)
        out = []
        for inst in self.reachable():
            if among is not None and inst not in among:
                continue
            for bi in range(len(inst.boxmap)):
                if self._sharpens(inst, bi, exist):
                    out.append((inst, bi))
        return out

    def reachable(self) -> list[Instance]:
        seen = {self.root}
        order = [self.root]
        i = 0
        while i < len(order):
            for callee in order[i].boxmap:
                if callee not in seen:
                    seen.add(callee)
                    order.append(callee)
            i += 1
        return order

    # --------------------------------------------------------------- resolving
    def resolve(self, only: int | None = None) -> int | None:
        """Global cycle resolution on the lowest EG/EU subformula that is still unknown somewhere.

        Returns the resolved formula index (None if nothing was left to resolve).  Callers must
        only call this at a joint fixpoint of :meth:`refine` and :meth:`contextualize`.
        """
        live = self.reachable()
        t = self.table
        for f in t.existential:
            if only is not None and f != only:
                continue
            if not any(UNKNOWN in inst.vals[f] for inst in live):
                continue
            if any(UNKNOWN in inst.vals[c] for inst in live for c in t.args[f]):
                if only is not None:
                    return None
                continue
            op = t.ops[f]
            if op == EXOP:
                raise AssertionError("EX left unknown at a joint fixpoint")
            if self.kb is not None and self._before_resolution is None:
                self._before_resolution = self._knowledge()
            fill = TT if op == EGOP else FF
            for inst in live:
                vals = inst.vals[f]
                for p in range(inst.comp.n):
                    if vals[p] == UNKNOWN:
                        vals[p] = fill
            self.stats["resolutions"] += 1
            self._dirty.update(live)
            self.enqueue_all(live)
            return f
        return None

    def root_value(self) -> int:
        return self.root.vals[self.table.root][self.root.comp.entry_pos[self.rsm.initial_node]]


def _deduce_ex(comp: Compiled, vals: list[int], arg: list[int]) -> None:
    succ = comp.succ
    for p in comp.inner:
        if vals[p] != UNKNOWN:
            continue
        res = FF
        for s in succ[p]:
            v = arg[s]
            if v == TT:
                res = TT
                break
            if v == UNKNOWN:
                res = UNKNOWN
        vals[p] = res


def _deduce_eu(comp: Compiled, vals: list[int], left: list[int], right: list[int]) -> None:
    is_exit = comp.is_exit
    for p in comp.leaves:
        if is_exit[p] and vals[p] == UNKNOWN:
            if right[p] == TT:
                vals[p] = TT
            elif right[p] == FF and left[p] == FF:
                vals[p] = FF
    pred = comp.pred
    leaf = comp.is_leaf
    # pessimistic: what surely reaches the goal through sure left-states
    for p in comp.inner:
        if vals[p] == UNKNOWN and right[p] == TT:
            vals[p] = TT
    stack = [p for p, v in enumerate(vals) if v == TT]
    while stack:
        p = stack.pop()
        for q in pred[p]:
            if vals[q] == UNKNOWN and left[q] == TT and not leaf[q]:
                vals[q] = TT
                stack.append(q)
    if UNKNOWN not in vals:
        return
    # optimistic: what might reach the goal through possible left-states; the rest is false
    maybe = [v == TT or (v == UNKNOWN and (lf or r != FF)) for v, lf, r in zip(vals, leaf, right, strict=True)]
    stack = [p for p, m in enumerate(maybe) if m]
    while stack:
        p = stack.pop()
        for q in pred[p]:
            if not maybe[q] and vals[q] != FF and left[q] != FF and not leaf[q]:
                maybe[q] = True
                stack.append(q)
    for p in comp.inner:
        if vals[p] == UNKNOWN and not maybe[p]:
            vals[p] = FF


def _deduce_eg(comp: Compiled, vals: list[int], arg: list[int]) -> None:
    is_exit = comp.is_exit
    for p in comp.leaves:
        if is_exit[p] and vals[p] == UNKNOWN and arg[p] == FF:
            vals[p] = FF
    inner = comp.inner
    leaf = comp.is_leaf
    # pessimistic: greatest set of sure arg-states that can stay in the set (or hand over to a sure leaf)
    sure = [False] * comp.n
    for p in range(comp.n):
        if vals[p] == TT or (not leaf[p] and vals[p] == UNKNOWN and arg[p] == TT):
            sure[p] = True
    _prune(comp, sure, lambda p: not leaf[p] and vals[p] == UNKNOWN)
    for p in inner:
        if vals[p] == UNKNOWN and sure[p]:
            vals[p] = TT
    if UNKNOWN not in vals:
        return
    # optimistic: greatest set of possible arg-states; whatever falls out is false
    maybe = [False] * comp.n
    for p in range(comp.n):
        v = vals[p]
        if v == TT or (v == UNKNOWN and (leaf[p] or arg[p] != FF)):
            maybe[p] = True
    _prune(comp, maybe, lambda p: not leaf[p] and vals[p] == UNKNOWN)
    for p in inner:
        if vals[p] == UNKNOWN and not maybe[p]:
            vals[p] = FF


def _prune(comp: Compiled, member: list[bool], removable: object) -> None:
    """Remove removable members without a successor among the members, to the greatest fixpoint."""
    rem = removable  # a predicate; typed loosely to keep the hot loop free of casts
    succ, pred = comp.succ, comp.pred
    count = [0] * comp.n
    stack = []
    for p in range(comp.n):
        if member[p]:
            c = 0
            for s in succ[p]:
                if member[s]:
                    c += 1
            count[p] = c
            if c == 0 and rem(p):  # type: ignore[operator]
                stack.append(p)
    while stack:
        p = stack.pop()
        if not member[p]:
            continue
        member[p] = False
        for q in pred[p]:
            if member[q]:
                count[q] -= 1
                if count[q] == 0 and rem(q):  # type: ignore[operator]
                    stack.append(q)
