"""Recursive state machines (RSMs): the model every check runs on.

A component is one C function (or one benchmark method): nodes with atomic labels, entry and exit
nodes, boxes that call other components, and local edges.  Components are immutable values whose
identity is the hash of their content, so that an unchanged function is recognised after an edit and
everything known about it can be reused.

References inside a component are either a node name (``str``) or a ``(box, node)`` pair naming the
call node (``node`` is an entry of the callee) or the return node (``node`` is an exit of the callee)
of a box, as in the JSON format of the RSM benchmarks.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from checker.graphs import strongly_connected
from checker.sharing import shared

T = TypeVar("T")

Ref = str | tuple[str, str]


class ModelError(ValueError):
    """A model that breaks the RSM rules (unknown names, edges into entries, ...)."""


@dataclass(frozen=True, slots=True)
class Node:
    name: str
    labels: frozenset[str] = frozenset()
    is_entry: bool = False
    is_exit: bool = False


@dataclass(frozen=True, slots=True)
class Box:
    """A call site: ``component`` is the callee's name.

    ``call_nodes``/``return_nodes`` list the callee entries/exits this box exposes; ``None`` in the
    constructor means all of them and is resolved when the RSM is built.
    """

    name: str
    component: str
    call_nodes: tuple[str, ...] = ()
    return_nodes: tuple[str, ...] = ()


def kept(memo: dict[object, object], key: object, make: Callable[[], T], kind: type[T]) -> T:
    """``make()`` kept in ``memo`` (a component's ``_derived`` or a model's ``memo``) under ``key``."""
    got = memo.get(key)
    if got is None:
        got = memo[key] = make()
    assert isinstance(got, kind)
    return got


@dataclass(frozen=True)
class Component:
    name: str
    nodes: tuple[Node, ...]
    boxes: tuple[Box, ...] = ()
    edges: tuple[tuple[Ref, Ref], ...] = ()
    _index: dict[str, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _seen_digests: dict[object, str] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _contracted: dict[frozenset[str], Component] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _views: dict[object, Component] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _derived: dict[object, object] = field(default_factory=dict, compare=False, hash=False, repr=False)
    _hash: int = field(default=0, compare=False, hash=False, repr=False)

    def __hash__(self) -> int:
        """By content, like equality, and computed once: components are memo keys (a checked
        model by its components, a compiled component by it and its callees)."""
        return self._hash

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}  # hashes differ per process

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        object.__setattr__(self, "_hash", hash((self.name, self.nodes, self.boxes, self.edges)))

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.name, self.nodes, self.boxes, self.edges)))
        for i, n in enumerate(self.nodes):
            if n.name in self._index:
                raise ModelError(f"component {self.name!r}: duplicate node {n.name!r}")
            self._index[n.name] = i

    def node(self, name: str) -> Node:
        return self.nodes[self._index[name]]

    def has_node(self, name: str) -> bool:
        return name in self._index

    @cached_property
    def entries(self) -> tuple[str, ...]:
        return tuple(n.name for n in self.nodes if n.is_entry)

    @cached_property
    def exits(self) -> tuple[str, ...]:
        return tuple(n.name for n in self.nodes if n.is_exit)

    @cached_property
    def box_map(self) -> dict[str, Box]:
        return {b.name: b for b in self.boxes}

    @cached_property
    def callees(self) -> frozenset[str]:
        return frozenset(b.component for b in self.boxes)

    @cached_property
    def without_boxes(self) -> Component:
        """This component with every call made a plain step: what leads into a box leads straight
        to where its returns lead. The model of a value no callee can read or write, for which
        what a callee does is no part of the verdict."""
        if not self.boxes:
            return self
        succ: dict[Ref, list[Ref]] = {}
        for s, t in self.edges:
            succ.setdefault(s, []).append(t)
        edges: dict[tuple[Ref, Ref], None] = {}
        for s, ts in succ.items():
            if not isinstance(s, str):
                continue
            todo, seen = list(reversed(ts)), set()
            while todo:
                t = todo.pop()
                if isinstance(t, str):
                    edges[(s, t)] = None
                elif t not in seen:
                    seen.add(t)
                    for x in self.box_map[t[0]].return_nodes:
                        todo.extend(reversed(succ.get((t[0], x), ())))
        return Component(self.name, self.nodes, (), tuple(edges))

    def without_labels(self, atoms: frozenset[str]) -> Component:
        """This component with ``atoms`` taken off every node (itself when no node has them);
        kept per atom set, so that equal requests share one object and its cached digests."""
        key = ("without_labels", atoms)
        got = self._views.get(key)
        if got is None:
            if not any(n.labels & atoms for n in self.nodes):
                got = self
            else:
                nodes = tuple(Node(n.name, shared(n.labels - atoms), n.is_entry, n.is_exit) for n in self.nodes)
                got = Component(self.name, nodes, self.boxes, self.edges)
            self._views[key] = got
        return got

    def to_json(self, atoms: frozenset[str] | None = None) -> dict[str, object]:
        """The JSON RSM form; with ``atoms``, nodes show only those labels."""

        def ref(r: Ref) -> dict[str, str]:
            if isinstance(r, str):
                return {"type": "node", "name": r}
            return {"type": "box_node", "box_name": r[0], "node_name": r[1]}

        succ: dict[Ref, list[Ref]] = {}
        for s, t in self.edges:
            succ.setdefault(s, []).append(t)
        return {
            "name": self.name,
            "nodes": [
                {
                    "name": n.name,
                    "is_entry": n.is_entry,
                    "is_exit": n.is_exit,
                    "labels": sorted(n.labels if atoms is None else n.labels & atoms),
                }
                for n in self.nodes
            ],
            "boxes": [
                {
                    "name": b.name,
                    "component": b.component,
                    "call_nodes": list(b.call_nodes),
                    "return_nodes": list(b.return_nodes),
                }
                for b in self.boxes
            ],
            "transitions": [{"source": ref(s), "targets": [ref(t) for t in ts]} for s, ts in succ.items()],
        }

    @cached_property
    def digest(self) -> str:
        """Content hash: equal for equal components, whatever object built them."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def digest_seeing(self, atoms: frozenset[str] | None) -> str:
        """Content hash as a formula over ``atoms`` sees the component (None: all labels).

        A check can only tell components apart by the labels its formula mentions, so keying
        results by this hash keeps them across edits that change other labels only.
        """
        if atoms is None:
            return self.digest
        got = self._seen_digests.get(atoms)
        if got is None:
            got = self._seen_digests[atoms] = self._with_labels(self._shape_digest, atoms)
        return got

    def unnamed_digest_seeing(self, atoms: frozenset[str]) -> str:
        """:meth:`digest_seeing` blind to names that are not the component's content: its own and
        those of the components its boxes call (:meth:`RSM.unnamed_digest_seeing` adds what those
        callees are, box by box)."""
        key = ("unnamed", atoms)
        got = self._seen_digests.get(key)
        if got is None:
            got = self._seen_digests[key] = self._with_labels(self._unnamed_shape_digest, atoms)
        return got

    def _with_labels(self, shape: str, atoms: frozenset[str]) -> str:
        """A digest of ``shape`` and each node's labels among ``atoms``, in node order."""
        h = hashlib.sha256(shape.encode())
        for n in self.nodes:
            h.update(("|" + ",".join(sorted(n.labels & atoms))).encode())
        return h.hexdigest()[:32]

    @cached_property
    def _unnamed_shape_digest(self) -> str:
        """:attr:`_shape_digest` without the component's name and its boxes' callees' names."""
        nodes = tuple((n.name, n.is_entry, n.is_exit) for n in self.nodes)
        boxes = tuple((b.name, tuple(b.call_nodes), tuple(b.return_nodes)) for b in self.boxes)
        return hashlib.sha256(repr((nodes, boxes, self.edges)).encode()).hexdigest()[:32]

    @cached_property
    def _shape_digest(self) -> str:
        """Hash of everything but the labels, shared by the digests of every view: of the
        fields equality compares, in their order (``repr`` of strings, booleans and tuples is the
        same in every process and run, as the on-disk cache needs)."""
        nodes = tuple((n.name, n.is_entry, n.is_exit) for n in self.nodes)
        boxes = tuple((b.name, b.component, tuple(b.call_nodes), tuple(b.return_nodes)) for b in self.boxes)
        text = repr((self.name, nodes, boxes, self.edges))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class RSM:
    components: tuple[Component, ...]
    initial_component: str
    initial_node: str

    @cached_property
    def by_name(self) -> dict[str, Component]:
        return {c.name: c for c in self.components}

    def component(self, name: str) -> Component:
        return self.by_name[name]

    def to_json(self) -> dict[str, object]:
        return {
            "initial_component": self.initial_component,
            "initial_node": self.initial_node,
            "components": [c.to_json() for c in self.components],
        }

    @cached_property
    def memo(self) -> dict[object, object]:
        """Derived data (compiled components) that every check of this very model can share."""
        return {}

    @cached_property
    def deep_digests(self) -> dict[str, str]:
        """Per component, a hash of its content and of everything it can call.

        Knowledge about a component under a context stays true exactly as long as this hash is
        unchanged, so it is the key under which the knowledge base keeps it.  Components of one
        recursive cycle share the hash of the cycle.
        """
        return _deep_digests({c.name: c for c in self.components})

    def deep_digests_seeing(self, atoms: frozenset[str] | None) -> dict[str, str]:
        """:attr:`deep_digests` as a formula over ``atoms`` sees the model (see ``digest_seeing``)."""
        if atoms is None:
            return self.deep_digests
        key = ("deep_digests", atoms)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = _deep_digests(self.by_name, atoms, self.call_sccs)
        return got  # type: ignore[return-value]

    def unnamed_digest_seeing(self, atoms: frozenset[str]) -> str:
        """A hash of the model as a formula over ``atoms`` sees it from its initial node, equal for
        models that differ only in the names of their components: a verdict depends on nothing
        else, so it is keyed by this, and a value of one function finds the verdict of another's
        that has the same shape (models are named by the function and value they project, and
        many values of different functions look alike to a rule).  A recursive cycle's members
        are hashed with their names, which tie its boxes to them; a box whose callee is not in
        the model names it."""
        key = ("unnamed_digest", atoms)
        got = self.memo.get(key)
        if got is None:
            comps = self.by_name
            digests: dict[str, str] = {}
            for scc in self.call_sccs:  # callees first
                members = set(scc)
                if len(scc) > 1 or scc[0] in comps[scc[0]].callees:
                    h = hashlib.sha256(b"cycle")
                    for name in scc:
                        h.update(f"|{name}|".encode() + comps[name].unnamed_digest_seeing(atoms).encode())
                        for b in comps[name].boxes:
                            c = b.component
                            h.update(("~" + c if c in members else digests.get(c, "?" + c)).encode())
                    d = h.hexdigest()[:32]
                    for name in scc:
                        digests[name] = f"{d}|{name}"
                    continue
                comp = comps[scc[0]]
                h = hashlib.sha256(comp.unnamed_digest_seeing(atoms).encode())
                for b in comp.boxes:
                    h.update(("|" + digests.get(b.component, "?" + b.component)).encode())
                digests[scc[0]] = h.hexdigest()[:32]
            text = f"{digests[self.initial_component]}|{self.initial_node}"
            got = self.memo[key] = hashlib.sha256(text.encode()).hexdigest()[:32]
        assert isinstance(got, str)
        return got

    @cached_property
    def call_sccs(self) -> list[list[str]]:
        """The call graph's strongly connected components, callees before callers."""
        return call_sccs(self.by_name)

    def labels_only_in(self, keep: frozenset[str], atoms: frozenset[str]) -> RSM:
        """This model with ``atoms`` taken off every component not named in ``keep``: a formula whose
        trigger must happen in the checked function's own frame (a callee's NULL test says nothing
        about its caller's pointer) then never starts in a callee, and the checker never explores
        what would follow such a start. Kept per request in :attr:`memo`."""
        key = ("labels_only_in", keep, atoms)
        got = self.memo.get(key)
        if got is None:
            comps = tuple(c if c.name in keep else c.without_labels(atoms) for c in self.components)
            got = self.memo[key] = RSM(comps, self.initial_component, self.initial_node)
        assert isinstance(got, RSM)
        return got


def _deep_digests(comps: Mapping[str, Component], atoms: frozenset[str] | None = None,
                  sccs: list[list[str]] | None = None) -> dict[str, str]:
    if sccs is None:
        sccs = call_sccs(comps)
    result: dict[str, str] = {}
    for scc in sccs:  # Tarjan emits callees before callers
        members = set(scc)
        h = hashlib.sha256()
        for name in scc:
            h.update(comps[name].digest_seeing(atoms).encode())
            for callee in sorted(comps[name].callees):
                if callee in members:
                    h.update(b"~" + callee.encode())
                elif callee in result:
                    h.update(result[callee].encode())
                else:
                    h.update(b"?" + callee.encode())
        d = h.hexdigest()[:32]
        for name in scc:
            result[name] = d
    return result


def call_sccs(comps: Mapping[str, Component]) -> list[list[str]]:
    """Strongly connected components of the call graph, callees before callers, each sorted."""
    return [
        sorted(scc)
        for scc in strongly_connected(sorted(comps), lambda v: [w for w in sorted(comps[v].callees) if w in comps])
    ]


def build_rsm(components: Iterable[Component], initial_component: str, initial_node: str) -> RSM:
    """Check the RSM rules and resolve boxes that expose all callee entries/exits."""
    comps = list(components)
    by_name = {c.name: c for c in comps}
    if len(by_name) != len(comps):
        raise ModelError("duplicate component names")
    fixed: list[Component] = []
    for c in comps:
        boxes = []
        for b in c.boxes:
            callee = by_name.get(b.component)
            if callee is None:
                raise ModelError(f"component {c.name!r}: box {b.name!r} calls unknown component {b.component!r}")
            calls = b.call_nodes or callee.entries
            rets = b.return_nodes or callee.exits
            for n in calls:
                if not callee.has_node(n) or not callee.node(n).is_entry:
                    raise ModelError(f"component {c.name!r}: box {b.name!r}: {n!r} is not an entry of {callee.name!r}")
            for n in rets:
                if not callee.has_node(n) or not callee.node(n).is_exit:
                    raise ModelError(f"component {c.name!r}: box {b.name!r}: {n!r} is not an exit of {callee.name!r}")
            boxes.append(Box(b.name, b.component, tuple(calls), tuple(rets)))
        bm = {b.name: b for b in boxes}
        for s, t in c.edges:
            for r, role in ((s, "source"), (t, "target")):
                if isinstance(r, str):
                    if not c.has_node(r):
                        raise ModelError(f"component {c.name!r}: edge {role} {r!r} is not a node")
                else:
                    box = bm.get(r[0])
                    if box is None:
                        raise ModelError(f"component {c.name!r}: edge {role} names unknown box {r[0]!r}")
                    allowed = box.return_nodes if role == "source" else box.call_nodes
                    if r[1] not in allowed:
                        kind = "a return node" if role == "source" else "a call node"
                        raise ModelError(f"component {c.name!r}: edge {role} {r!r} is not {kind} of the box")
            if isinstance(s, str) and c.node(s).is_exit:
                raise ModelError(f"component {c.name!r}: edge leaves exit {s!r}")
        fixed.append(Component(c.name, c.nodes, tuple(boxes), c.edges))
    init = by_name.get(initial_component)
    if init is None:
        raise ModelError(f"initial component {initial_component!r} does not exist")
    if not init.has_node(initial_node) or not init.node(initial_node).is_entry:
        raise ModelError(f"initial node {initial_node!r} is not an entry of {initial_component!r}")
    return RSM(tuple(fixed), initial_component, initial_node)
