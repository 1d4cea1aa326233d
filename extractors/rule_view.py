"""The model a rule is checked on for one value: the value's RSM as the rule sees it.

The checker (:mod:`extractors.checking`) and the refutation's second look (:mod:`extractors.refute`)
must check a rule on the same view of a value, or the refutation would conclude from labels the
checker never saw; so both build it here. A rule's ``frame_atoms`` (``own_trigger``,
``own_atoms``) are taken off every component but the checked function's own: a callee's NULL test
says nothing about its caller's pointer.
"""

from __future__ import annotations

from checker.model import RSM
from extractors.projection import Projector
from extractors.rules import Rule


def rule_rsm(proj: Projector, rule: Rule, cname: str) -> RSM:
    """The RSM of the projection ``cname`` as ``rule`` sees it (see the module's doc)."""
    rsm = proj.local_rsm(cname) if rule.local else proj.rsm(cname)
    if rule.frame_atoms:
        rsm = rsm.labels_only_in(frozenset((cname, rsm.initial_component)), rule.frame_atoms)
    return rsm
