"""From checker witnesses to findings: map RSM steps back to source, pick the bug's location, explain.

The checker speaks of components and nodes; users need lines and sentences.  Every component node
carries a :class:`~extractors.projection.NodeMeta`, so a witness step maps to the CFG node (and its
source range) it came from.  The finding's location is the step that makes the formula's trigger
true (the allocation of a leak, the second free of a double free), found by reading the formula's
``E F (T & E X E (B U G))`` shape rather than by rule-specific code.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Sequence

from checker.ctl import EF, EU, EX, And, Atom, Formula, Not, Or, TrueF, atoms
from checker.model import RSM
from checker.witness import Step
from extractors.facts import RETURNED
from extractors.findings import Finding, Location, WitnessStep
from extractors.functions import FunctionModel
from extractors.lasting import lasting_of
from extractors.macro_calls import plain_name
from extractors.parking import parked_of
from extractors.projection import EXIT_LABEL, RETURN_LABEL, NodeMeta, Projector, c_name, discarded_value, function_id
from extractors.rules import Rule

PRIORITY = (
    "alloc",
    "open",
    "maynull",
    "free",
    "close",
    "lock",
    "unlock",
    "use",
    "isnull",
    "notnull",
    "escape",
    "decl",
    "discard",
    "null",
    "ret",
    "stack",
    "nonheap",
    "write",
    "read",
    "def",
)
MESSAGES = {
    "alloc": "memory allocated to '{v}' here ({t})",
    "open": "resource acquired into '{v}' here ({t})",
    "maynull": "'{v}' may be NULL here: the callee can return NULL ({t})",
    "free": "'{v}' freed here ({t})",
    "close": "'{v}' released here ({t})",
    "lock": "'{v}' locked here ({t})",
    "unlock": "'{v}' unlocked here ({t})",
    "use": "'{v}' dereferenced here ({t})",
    "isnull": "branch taken: '{v}' is NULL ({t})",
    "notnull": "branch taken: '{v}' is not NULL ({t})",
    "escape": "'{v}' escapes here ({t})",
    "decl": "'{v}' declared without a value ({t})",
    "discard": "return value ignored here ({t})",
    "write": "'{v}' assigned here ({t})",
    "read": "'{v}' read here ({t})",
    "def": "'{v}' gets a value here ({t})",
    "null": "'{v}' set to NULL here ({t})",
    "ret": "'{v}' handed to the caller here ({t})",
    "stack": "{v} set to the address of a local here ({t})",
    "cmp": "'{v}' compared here ({t})",
    "nonheap": "'{v}' points to something other than the start of a heap block here ({t})",
    "lostonfail": "'{v}' overwritten by a call that returns NULL on failure, losing its block ({t})",
}


def _message(atom: str, meta: NodeMeta, text: str) -> str:
    """A step's sentence; a branch says which way its test went (``p == NULL`` is false), so a
    NULL test never reads as a contradiction of its own text."""
    if atom in ("isnull", "notnull") and meta.kind == "branch" and meta.branch is not None:
        state = "NULL" if atom == "isnull" else "not NULL"
        return f"branch taken: {text} is {'true' if meta.branch else 'false'} ('{meta.value}' is {state})"
    return MESSAGES.get(atom, "{v}: " + atom + " ({t})").format(v=_shown(meta.value), t=text)


_ALWAYS = frozenset({"alloc", "open", "maynull", "free", "close", "lock", "unlock", "isnull", "notnull"})
# what a witness shows besides the rule's own atoms: a contraction for a rule keeps these nodes too
WITNESS_LABELS = _ALWAYS | RETURN_LABEL


def prop_value(f: Formula, labels: frozenset[str]) -> bool | None:
    """Truth of a propositional formula on a node's labels (None if not propositional)."""
    if isinstance(f, Atom):
        return f.name in labels
    if isinstance(f, TrueF):
        return True
    if isinstance(f, Not):
        v = prop_value(f.arg, labels)
        return None if v is None else not v
    if isinstance(f, And | Or):
        a, b = prop_value(f.left, labels), prop_value(f.right, labels)
        if a is None or b is None:
            return None
        return (a and b) if isinstance(f, And) else (a or b)
    return None


def trigger_index(formula: Formula, labels: Sequence[frozenset[str]]) -> int:
    """Index of the step where ``E F (T & ...)`` finds its ``T`` (the last one the path still satisfies)."""
    inner = formula
    if isinstance(inner, EF):
        inner = inner.arg
    elif isinstance(inner, EU) and isinstance(inner.left, TrueF):
        inner = inner.right
    trig, block = inner, None
    if isinstance(inner, And):
        conjuncts: list[Formula] = []
        stack: list[Formula] = [inner]
        while stack:  # T & P & Q reads as ((T & P) & Q): T is the leftmost conjunct
            f = stack.pop()
            if isinstance(f, And):
                stack += [f.right, f.left]
            else:
                conjuncts.append(f)
        trig = conjuncts[0]
        for rest in conjuncts[1:]:
            if isinstance(rest, EX) and isinstance(rest.arg, EU):  # the witness follows this path too
                block = rest.arg.left
                break
    cands = [i for i, lab in enumerate(labels) if prop_value(trig, lab)]
    if not cands:
        nonempty = [i for i, lab in enumerate(labels) if lab - {"end"}]
        return nonempty[-1] if nonempty else 0
    if block is not None:
        last = len(labels) - 1
        cands = [i for i in cands if i < last] or cands
        for i in reversed(cands):
            if all(prop_value(block, labels[j]) is not False for j in range(i + 1, last)):
                return i
    return cands[-1]


class Reporter:
    def __init__(self, projector: Projector, functions: dict[str, FunctionModel]) -> None:
        self.projector = projector
        self.functions = functions

    def location(self, meta: NodeMeta) -> Location:
        """Unplaced: the function's id stands for the file and rows count from its first line (see
        ``extractors.checking.place``), so findings stay true while the function moves."""
        n = self.functions[meta.function].cfg.nodes[meta.cfg_id]
        return Location(meta.function, n.row, n.col, n.end_row, n.end_col)

    def text(self, meta: NodeMeta) -> str:
        return self.functions[meta.function].cfg.nodes[meta.cfg_id].text

    def finding(self, rule: Rule, fm: FunctionModel, var: str, rsm: RSM, steps: Sequence[Step]) -> Finding:
        labels: list[frozenset[str]] = []
        metas: list[NodeMeta | None] = []
        for s in steps:
            meta = self.projector.meta.get(s.component, {}).get(s.node) if isinstance(s.node, str) else None
            metas.append(meta)
            comp = rsm.component(s.component)
            labels.append(
                comp.node(s.node).labels - RETURN_LABEL
                if isinstance(s.node, str) and comp.has_node(s.node)
                else frozenset()
            )
        t = trigger_index(rule.parsed, labels)
        shown = (atoms(rule.parsed) | _ALWAYS) - {"end"} - EXIT_LABEL  # a callee's return is its call step
        witness: list[WitnessStep] = []
        trigger_loc: Location | None = None
        outer_call: Location | None = None
        last_return: Location | None = None
        end_loc: Location | None = None
        prev_depth = 0
        before: tuple[str, tuple[tuple[str, str], ...], int] | None = None  # the last step's node, by frame
        for i, s in enumerate(steps):
            frames = [f for f in s.stack if not f[0].endswith("!root")]
            fstack = tuple(c_name(c) for c, _ in frames)
            if len(frames) > prev_depth and frames:
                caller, box = frames[-1]
                bm = self.projector.meta.get(caller, {}).get(box)
                if bm is not None:
                    loc = self.location(bm)
                    witness.append(
                        WitnessStep(
                            loc,
                            f"call to {bm.callee}()",
                            bm.function,
                            tuple(c_name(c) for c, _ in frames[:-1]),
                            "call",
                        )
                    )
                    if len(frames) == 1:
                        outer_call = loc
            prev_depth = len(frames)
            meta = metas[i]
            if s.component.endswith("!root"):
                if s.node == "end":
                    exit_loc = end_loc = last_return or self._exit_location(fm)
                    witness.append(
                        WitnessStep(
                            exit_loc,
                            rule.end_note.format(var=_shown(var), function=fm.name),
                            fm.name,
                            (),
                            "end",
                        )
                    )
                continue
            if meta is None:
                continue
            frame = tuple(frames)
            if before is not None and before[0] == meta.function and before[1] == frame:
                head = self._loop_head(meta.function, before[2], meta.cfg_id)
                if head is not None:
                    witness.append(
                        WitnessStep(head, "next iteration of the loop", c_name(meta.function), fstack, "loop")
                    )
            before = (meta.function, frame, meta.cfg_id)
            loc = self.location(meta)
            if meta.kind == "return" and not frames:
                last_return = loc
            if i == t:
                trigger_loc = loc if not frames else (outer_call or loc)
            lab = labels[i] & (shown if i != t else labels[i] - {"end"} - EXIT_LABEL)
            if not lab:
                continue
            atom = _primary(lab, rule, i == t)
            msg = _message(atom, meta, self.text(meta))
            kind = "branch" if meta.kind == "branch" else "event"
            witness.append(WitnessStep(loc, msg, c_name(meta.function), fstack, kind))
        if rule.report_at == "last":
            bad = max((k for k, lab in enumerate(labels) if lab - {"end"}), default=None)
            bad_meta = metas[bad] if bad is not None else None
            if bad is not None and bad_meta is not None:
                frames = [f for f in steps[bad].stack if not f[0].endswith("!root")]
                if frames:
                    trigger_loc = self._outermost(frames) or trigger_loc
                else:
                    trigger_loc = self.location(bad_meta)
        start_loc = trigger_loc  # where the bug path starts (the lock)
        if rule.report_at == "end" and end_loc is not None:
            trigger_loc = end_loc
        if trigger_loc is None:
            trigger_loc = witness[0].location if witness else self._exit_location(fm)
        witness = _dedupe(witness)
        # a finding reported where its path ends keeps the key of the step it starts at (baselines)
        keyed_at = start_loc if rule.report_at == "end" and start_loc is not None else trigger_loc
        key_text = "".join(next((w.message for w in witness if w.location == keyed_at), "").split())
        # the value as written (a discarded macro call's result without its definition's digest)
        fp = hashlib.sha256(f"{rule.id}|{fm.name}|{plain_name(var)}|{key_text}".encode()).hexdigest()[:20]
        return Finding(
            rule.id,
            rule.severity,
            rule.message.format(var=_shown(var), function=fm.name),
            trigger_loc,
            fm.name,
            tuple(witness),
            rule.cwe,
            fp,
        )

    def _loop_head(self, function: str, a: int, b: int) -> Location | None:
        """Where the path from CFG node ``a`` to node ``b`` (consecutive witness steps of one frame)
        goes around a loop: on a shortest CFG path from ``a`` to ``b``, the target of its first
        backward edge (to an earlier place in the text), which is the loop's test or a ``for``'s
        increment. None when ``b`` comes after ``a`` in the text (a path may run through a loop
        body without taking its back edge; only a step back to an earlier place needs explaining).
        Nodes without a place of their own (joins) are passed through."""
        cfg = self.functions[function].cfg
        nodes = cfg.nodes

        def at(n: int) -> tuple[int, int] | None:
            node = nodes[n]
            return (node.row, node.col) if node.text and node.kind != "exit" else None

        start, end = at(a), at(b)
        if start is None or end is None or end > start:
            return None
        parent: dict[int, int] = {}
        frontier = deque([a])
        while frontier and b not in parent:
            u = frontier.popleft()
            for v, _ in cfg.succ[u]:
                if v not in parent:
                    parent[v] = u
                    frontier.append(v)
        if b not in parent:
            return None
        path = [b]
        while path[-1] != a or len(path) == 1:
            path.append(parent[path[-1]])
        last = start
        for v in reversed(path[:-1]):
            here = at(v)
            if here is None:
                continue
            if here <= last:
                n = nodes[v]
                return Location(function, n.row, n.col, n.end_row, n.end_col)
            last = here
        return None

    def _outermost(self, frames: list[tuple[str, str]]) -> Location | None:
        bm = self.projector.meta.get(frames[0][0], {}).get(frames[0][1])
        return self.location(bm) if bm is not None else None

    def _exit_location(self, fm: FunctionModel) -> Location:
        n = fm.cfg.nodes[fm.cfg.exit]
        return Location(function_id(fm), n.row, n.col, n.end_row, n.end_col)


def _shown(var: str) -> str:
    if var == RETURNED:
        return "the returned pointer"
    field = lasting_of(var)
    if field is None and (place := parked_of(var)) is not None:
        return plain_name(place)
    return plain_name(field[1] if field is not None else discarded_value(var) or var)


def _primary(labels: frozenset[str], rule: Rule, is_trigger: bool) -> str:
    if is_trigger:
        wanted = [a for g in rule.requires for a in g]
        for a in wanted:
            if a in labels:
                return a
    for a in PRIORITY:
        if a in labels:
            return a
    return sorted(labels)[0]


def _dedupe(steps: list[WitnessStep]) -> list[WitnessStep]:
    out: list[WitnessStep] = []
    for s in steps:
        if out and out[-1] == s:
            continue
        out.append(s)
    return out
