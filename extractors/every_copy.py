"""A statement's finding must hold at every copy of it that pruning made.

Pruning (:mod:`extractors.prune`) and refinement (:mod:`extractors.refine_graph`) copy a CFG node
once per combination of the flag values known there, so ``E F (T & A X A P)`` may hold at one copy
of a statement and fail at another: in ``for (...) { if (fill && cur == NULL) cur = prev; ...;
prev = cur; }`` the copy of ``prev = cur`` where ``fill`` is known false is never read, the copy
where it is not known is. The rule's claim is about the statement (a dead store: its value is read
on no path), so a finding whose trigger step has a reachable copy where the formula's part after
``E F`` fails is dropped.

The same holds of the copies of a statement in the variants of a function read per preprocessor
variant (:func:`extractors.cfg.choice_of`, ``Cfg.twins``): each variant is a configuration of the
conditionals the defines leave open, and a store read in one of them is needed there (zlib's
``n = wsize;`` before ``#ifndef FASTEST``, read inside the block).  A dead store is reported only
when it is dead in every variant that has it; defines that pick an arm make the variants agree on
it, and the store dead in the picked configuration is reported.  Within one variant a conditional
the parse reads whole is a branch of the CFG, where ``A X A`` already asks for every arm.

Only for rules whose formula is ``E F φ`` with a universal part in φ (dead-store,
known-null-dereference): a purely existential φ holds at one copy exactly when the statement has a
run that shows the bug, which is the claim. Dropping a finding this way removes no statement that
is bad on every run the model keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from checker import check
from checker.ctl import EF, And, Atom, Formula, Not
from checker.model import RSM, Component
from checker.witness import Step
from extractors.functions import FunctionModel
from extractors.projection import RETURN_LABEL, Projector, function_id
from extractors.report import trigger_index

HERE = "$copy"  # marks the copies of the trigger's statement in the re-checked model


def live_copy(proj: Projector, formula: Formula, fm: FunctionModel, rsm: RSM, steps: Sequence[Step]) -> bool:
    """Whether ``formula`` (``E F φ``, φ with a universal part) fails at a reachable copy of the
    statement where the witness ``steps`` (of ``rsm``) find its trigger."""
    if not isinstance(formula, EF):
        return False
    labels = []
    for s in steps:
        comp = rsm.component(s.component)
        has = isinstance(s.node, str) and comp.has_node(s.node)
        labels.append(comp.node(s.node).labels - RETURN_LABEL if has else frozenset())  # type: ignore[arg-type]
    if not steps:
        return False
    step = steps[trigger_index(formula, labels)]
    frames = [f for f in step.stack if not f[0].endswith("!root")]
    metas = proj.meta.get(step.component, {})
    meta = metas.get(step.node) if isinstance(step.node, str) else None
    if frames or meta is None or meta.kind == "branch" or meta.function != function_id(fm):
        return False
    comp = rsm.component(step.component)
    twins = fm.cfg.twins
    statement = twins.get(meta.cfg_id, meta.cfg_id)
    copies = {
        n.name
        for n in comp.nodes
        if (m := metas.get(n.name)) is not None
        and m.function == meta.function
        and twins.get(m.cfg_id, m.cfg_id) == statement
        and m.kind != "branch"
    }
    if len(copies) < 2:
        return False
    marked = Component(
        comp.name,
        tuple(replace(n, labels=n.labels | {HERE}) if n.name in copies else n for n in comp.nodes),
        comp.boxes,
        comp.edges,
    )
    model = RSM(
        tuple(marked if c.name == comp.name else c for c in rsm.components), rsm.initial_component, rsm.initial_node
    )
    return check(model, EF(And(Atom(HERE), Not(formula.arg))), strategy="lazy").holds
