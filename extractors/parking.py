"""Addresses of locals that a project function parks where the caller's caller can reach them.

``set_label(w, text)`` with a local ``char text[32]``, where ``set_label`` (maybe in another file)
does ``w->label = label``, leaves in the caller's ``*w`` a pointer into a frame that is gone once
the caller returns: the same bug as the caller storing ``w->label = text`` itself
(``return-local-address``), one call away.

The callee's side is a summary of its own text (:func:`parks`): which parameter it stores, as it
came in, into a field of the object another parameter points to, or into a file-scope variable,
and leaves there on every way out. The caller's side is one value per place so filled,
``w->label^`` (:data:`MARK`), labelled only in the caller (no box: the callees are not asked about
it, so a field of a parameter every function is handed costs one small component, not a
projection through the call graph):

- ``stack`` and ``def`` at a call that parks the address of one of the caller's automatic locals
  (``Call.framed``) there;
- ``def`` wherever the place may get another value: a store to it or to a path above it, and any
  call handed its root (``w``, ``w->sub``) or the local parked: the callee may put the field back
  (``close_func(ls)`` after ``open_func(ls, &fs)``), so it counts as a store. For a file-scope
  variable, any call.

So the rule's ``E F (stack & E X E (~def U end))`` reports a call that parks a local's address
that nothing may take back before the return; every doubt counts as taken back.

Pure: functions of the models.
"""

from __future__ import annotations

from collections.abc import Callable

from checker.graphs import closure
from extractors.cfg import CfgNode
from extractors.facts import Call, root_of
from extractors.functions import FunctionModel

MARK = "^"  # suffix of a parked place's value: "w->label^"

Parking = tuple[tuple[int, str, int], ...]  # (receiving parameter or -1, path after it, parked parameter)


def parked_of(v: str) -> str | None:
    """The place (``w->label``, ``current``) of a parked value ``w->label^``, else None."""
    return v[: -len(MARK)] if v.endswith(MARK) and len(v) > len(MARK) else None


def parks(g: FunctionModel, globals_: frozenset[str]) -> Parking:
    """What ``g`` stores of one parameter, as it came in, into a field of the object another
    parameter points to (``(j, "->label", k)`` for ``params[j]->label = params[k]``) or into a
    file-scope variable (``(-1, "current", k)``): what the caller finds there whichever way
    ``g`` returns. So the store is the place's only one in ``g``, every path from the entry to
    the return passes it, neither parameter is ever given another value, and no call of ``g`` is
    handed the receiving object (for a file-scope variable: no call at all), which may put the
    place back as :func:`takes_back` says a caller's call may."""
    params = g.params
    cfg = g.cfg
    own = set(cfg.declared)
    assigned = {p for n in cfg.nodes for p, a in n.events if a in ("def", "write") and p in params}
    stores: dict[str, int] = {}
    for n in cfg.nodes:
        for p in {p for p, a in n.events if a in ("def", "write")}:
            stores[p] = stores.get(p, 0) + 1
    handed = {root_of(a) for n in cfg.nodes for c in n.calls for a, _ in c.args if a is not None}
    calls = any(n.calls for n in cfg.nodes)
    found: set[tuple[int, str, int]] = set()
    for n in cfg.nodes:
        for target, source in n.copies:
            if source not in params or source in assigned or stores.get(target, 0) != 1:
                continue
            root = root_of(target)
            field = root in params and root not in assigned and target[len(root) :].startswith("->")
            if field and root not in handed:
                into = params.index(root)
            elif not field and root == target and root in globals_ and root not in own | set(params) and not calls:
                into = -1
            else:
                continue
            if _on_every_path(g, n.id):
                found.add((into, target[len(root) :] if into >= 0 else target, params.index(source)))
    return tuple(sorted(found))


def _on_every_path(g: FunctionModel, node: int) -> bool:
    """Whether every path from ``g``'s entry to its return passes CFG node ``node``."""
    cfg = g.cfg
    return cfg.exit not in closure([cfg.entry], lambda n: () if n == node else cfg.successors(n))


def parked_places(call: Call, parking: Parking, outlives: Callable[[str], bool]) -> list[tuple[str, str]]:
    """The places of the caller that ``call`` (to a function whose summary is ``parking``) parks
    the address of one of the caller's automatic locals in, where ``outlives`` says they
    outlive the caller's frame: (place, the local)."""
    out: list[tuple[str, str]] = []
    for j, rest, k in parking:
        if k not in call.framed:
            continue
        if j < 0:
            place = rest
        elif j < len(call.args) and (into := call.args[j][0]) is not None and not call.args[j][1]:
            place = into + rest
        else:
            continue
        local = call.args[k][0] if k < len(call.args) else None
        if local is not None and outlives(place):
            out.append((place, root_of(local)))
    return out


def holders(fm: FunctionModel, place: str) -> frozenset[str]:
    """The place's root and the names ``fm`` ever copies it (or a path under it) into
    (``cur = w``): a call handed one of them reaches the place."""
    root = root_of(place)
    copied = {t for n in fm.cfg.nodes for t, s in n.copies if root_of(s) == root and t.isidentifier()}
    return frozenset({root, *copied})


def takes_back(
    node: CfgNode,
    place: str,
    is_global: bool,
    parked: frozenset[str],
    project: Callable[[Call], bool],
    held: frozenset[str] = frozenset(),
) -> bool:
    """Whether ``node`` may give ``place`` another value: a store to it, to a path above it
    (``w = ...``, ``w->sub = ...`` for ``w->sub->label``) or to its field through any pointer
    (``x->label``, where ``x`` may hold ``w``), a call handed something rooted where
    it is or at a name that may hold it (``held``, :func:`holders`; for a file-scope variable,
    any call), or a call to a project function (as
    ``project`` says) handed one of the locals ``parked`` there (``parse_reset(&p)`` after
    ``parse_init(&p, db)`` parked ``&p`` in ``db->cur``: the callee may put the old one back
    through ``p.db``; a library function knows nothing of the project's objects)."""
    if any(a in ("def", "write") and (_above(p, place) or _same_field(p, place)) for p, a in node.events):
        return True
    if is_global:
        return bool(node.calls)
    near = held | {root_of(place)}
    if any(a is not None and root_of(a) in near for c in node.calls for a, _ in c.args):
        return True
    return hands(node, parked, project)


def hands(node: CfgNode, names: frozenset[str], project: Callable[[Call], bool]) -> bool:
    """Whether ``node`` hands a project function (as ``project`` says) one of ``names`` or a path
    under it (``&p``, ``p.db``)."""
    return any(project(c) and any(a is not None and root_of(a) in names for a, _ in c.args) for c in node.calls)


def _above(p: str, place: str) -> bool:
    return p == place or place.startswith((p + "->", p + "."))


def _same_field(p: str, place: str) -> bool:
    """Whether store target ``p`` is the place's field through another pointer (``x->label`` for
    ``w->label``: ``x`` may be a copy of ``w``)."""
    cut = place.rfind("->")
    return cut > 0 and p.endswith(place[cut:]) and p != place


def parking_nodes(
    fm: FunctionModel, place: str, is_global: bool, parked: frozenset[str], project: Callable[[Call], bool]
) -> list[int]:
    """The CFG nodes a parked value of ``place`` is labelled at: those :func:`takes_back` says yes
    of, which hold the parking calls (project calls handed the locals parked)."""
    held = holders(fm, place)
    return [n.id for n in fm.cfg.nodes if takes_back(n, place, is_global, parked, project, held)]
