"""The ``function``-scope rules: CTL formulas over the marks of a function (:mod:`extractors.marks`).

A rule of this scope (``unreachable-code``: ``E F unreached``) is checked, mark by mark, on the
smallest model in which the mark is visible: a component whose entry steps to a node labelled
with the mark's atom and then returns. The facts themselves (no path reaches this statement, no
mention reads this local) are properties of the whole function that the marks' analyses decide
on the CFG and the text; the formula is what makes them a rule like any other, data that a user
can switch off, re-rate, or combine in a custom rule. The verdict is cached like any other (by
formula and the model's digest, which is the same for every mark with one atom).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from checker.model import RSM, Component, Node
from extractors.findings import Finding, Location, WitnessStep
from extractors.functions import FunctionModel
from extractors.marks import Mark, Span
from extractors.rules import Rule

SCOPE = "function"

_MESSAGES = {
    "unreached": "never reached ({t})",
    "unused": "'{v}' declared here and never read ({t})",
    "unusedparam": "parameter '{v}' is never read",
}


def mark_model(atom: str) -> RSM:
    """Entry, a node labelled ``atom``, exit (labelled ``end``): the mark made visible."""
    comp = Component(
        "mark",
        (
            Node("start", frozenset(), True, False),
            Node("m", frozenset({atom})),
            Node("end", frozenset({"end"}), False, True),
        ),
        (),
        (("start", "m"), ("m", "end")),
    )
    return RSM((comp,), "mark", "start")


def mark_findings(fm: FunctionModel, rules: list[Rule], holds: Callable[[Rule, RSM], bool]) -> list[Finding]:
    """The unplaced findings of the ``function``-scope ``rules`` on ``fm``'s marks; ``holds`` is
    the checker's (cached) verdict of a rule on a model."""
    out: list[Finding] = []
    for rule in rules:
        for mark in fm.marks:
            if rule.applies(frozenset({mark.atom})) and holds(rule, mark_model(mark.atom)):
                out.append(_finding(rule, fm, mark))
    return out


def _finding(rule: Rule, fm: FunctionModel, mark: Mark) -> Finding:
    steps = []
    if mark.cause is not None:
        span, text = mark.cause
        steps.append(WitnessStep(_at(fm, span), f"control never gets past here ({text})", fm.name))
    message = _MESSAGES.get(mark.atom, mark.atom + " ({t})").format(v=mark.var, t=mark.text)
    steps.append(WitnessStep(_at(fm, mark.at), message, fm.name))
    if mark.atom != "unreached":
        steps.append(
            WitnessStep(_at(fm, _exit(fm)), rule.end_note.format(var=mark.var, function=fm.name), fm.name, (), "end")
        )
    # by the mark's text, not its row: the finding keeps its fingerprint while code above it moves
    key = "".join(mark.text.split())
    fp = hashlib.sha256(f"{rule.id}|{fm.name}|{mark.var}|{key}".encode()).hexdigest()[:20]
    where = _at(fm, mark.at)
    return Finding(
        rule.id,
        rule.severity,
        rule.message.format(var=mark.var, function=fm.name),
        where,
        fm.name,
        tuple(steps),
        rule.cwe,
        fp,
    )


def _at(fm: FunctionModel, span: Span) -> Location:
    """Unplaced, as every finding before ``checking.place``: the function's id and its own rows."""
    return Location(fm.ident, *span)


def _exit(fm: FunctionModel) -> Span:
    n = fm.cfg.nodes[fm.cfg.exit]
    return n.row, n.col, n.end_row, n.end_col
