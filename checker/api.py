"""``check``: one CTL formula on one RSM, with a chosen strategy; data in, verdict out."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache

from checker.compiled import CompiledMemo
from checker.ctl import EG, EU, EX, And, Atom, Formula, Not, Or, normalize, parse, subformulas
from checker.engine import Engine
from checker.formulas import FormulaTable, flatten
from checker.knowledge import KnowledgeBase
from checker.model import RSM
from checker.overapprox import may_hold
from checker.reduction import reduce_for_atoms
from checker.strategies import run_exhaustive, run_lazy
from checker.ternary import TT, UNKNOWN
from checker.witness import NoWitness, Step, Witness, find_witness

STRATEGIES = ("lazy", "exhaustive", "kb")


@dataclass(frozen=True)
class CheckResult:
    holds: bool
    formula: Formula
    witness: tuple[Step, ...] | None = None
    loop_start: int | None = None
    witness_kind: str | None = None  # "witness" of the formula, or "counterexample" (witness of its negation)
    stats: dict[str, float] = field(default_factory=dict)


def _has_existential_top(f: Formula) -> bool:
    """Whether a true ``f`` is proved by a path (as opposed to by the absence of one)."""
    if isinstance(f, EX | EU | EG):
        return True
    if isinstance(f, Or | And):
        return _has_existential_top(f.left) or _has_existential_top(f.right)
    return False


@lru_cache(maxsize=4096)
def _prepare(formula: Formula) -> tuple[Formula, FormulaTable, frozenset[str], bool]:
    """Normal form, flattened table, atoms and EX-freeness: the same few rule formulas are checked
    thousands of times by the C front end, so this is done once per formula."""
    phi = normalize(formula)
    subs = subformulas(phi)
    atoms = frozenset(g.name for g in subs if isinstance(g, Atom))
    return phi, flatten(phi), atoms, any(isinstance(g, EX) for g in subs)


def _run(
    rsm: RSM, table: FormulaTable, strategy: str, kb: KnowledgeBase | None, shared: CompiledMemo | None
) -> Engine:
    engine = Engine(rsm, table, kb if strategy == "kb" else None, shared)
    if strategy == "exhaustive":
        run_exhaustive(engine)
    else:
        run_lazy(engine)
    engine.store_knowledge()
    return engine


def check(rsm: RSM, formula: Formula | str, strategy: str = "lazy", kb: KnowledgeBase | None = None,
          witness: bool = False, reduce: bool = True, shared: CompiledMemo | None = None) -> CheckResult:
    """Decide ``formula`` at the initial node of ``rsm`` (empty call stack).

    With ``witness``, a true formula with an existential top gets the path proving it, and a false
    one whose negation has an existential top gets a counterexample (the path proving the negation).
    Without ``witness``, a formula the supergraph bound rules out (:mod:`checker.overapprox`) is
    false at once (``stats["bounded"]``). With ``reduce``, a formula without EX is checked on the
    model with its atom-free callees collapsed (see :mod:`checker.reduction`); witnesses always
    walk the full model.  ``shared``:
    compiled components kept across models by the caller (:func:`checker.compiled.compile_shared`).
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if strategy == "kb" and kb is None:
        kb = KnowledgeBase()
    original = parse(formula) if isinstance(formula, str) else formula
    phi, table, atoms, has_ex = _prepare(original)
    started = time.perf_counter()
    if not witness and not may_hold(rsm, phi):
        return CheckResult(False, original, stats={"bounded": 1, "seconds": time.perf_counter() - started})
    model = rsm
    if reduce and not witness and not has_ex:
        model = reduce_for_atoms(rsm, atoms)
    engine = _run(model, table, strategy, kb, shared)
    value = engine.root_value()
    assert value != UNKNOWN
    holds = value == TT
    stats: dict[str, float] = dict(engine.stats)
    stats["instances"] = len(engine.instances)
    stats["components"] = len(model.components)
    stats["seconds"] = time.perf_counter() - started
    steps: tuple[Step, ...] | None = None
    loop: int | None = None
    kind: str | None = None
    if witness:
        target = phi if holds else normalize(Not(phi))
        if _has_existential_top(target):
            w = _witness_for(rsm, target, engine if holds else None, shared)
            if w is not None:
                steps, loop = w.steps, w.loop_start
                kind = "witness" if holds else "counterexample"
    return CheckResult(holds, original, steps, loop, kind, stats)


def _witness_for(rsm: RSM, target: Formula, engine: Engine | None, shared: CompiledMemo | None) -> Witness | None:
    """Read the path off the lazy labelling if it is complete enough, else off a full one."""
    if engine is not None:
        try:
            return find_witness(engine, engine.table.root)
        except NoWitness:
            pass
    full = Engine(rsm, flatten(target), shared=shared)
    run_exhaustive(full)
    if full.root_value() != TT:
        return None
    try:
        return find_witness(full, full.table.root)
    except NoWitness:
        return None
