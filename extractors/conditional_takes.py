"""Arguments a call takes only when it succeeds: the ownership moves on the result's NULL test.

``FILE *f = fdopen(fd, "w"); if (f == NULL) return NULL;`` leaks ``fd``: fdopen owns the
descriptor only when it returns a stream. A library row says so by listing a position both as
``escape`` in ``args`` and in ``kept_on_failure`` (the argument is still the caller's when the call
fails and returns NULL). The CFG builder then moves that argument's escape from the call to the
not-NULL branch of every test of the result, where the call is known to have succeeded: the call's
``deferred`` positions drop the escape, and each test node's ``takes`` names the argument's path.

Invariant (sound for the leak rules): the escape is moved only when every path from the call
reaches a NULL test of the stored result (a local, or a path such as ``*out`` with no call before
the test) before the function ends, the result is stored anew, or the argument's variable is
assigned; on such a path the argument is owned by the result exactly
past the not-NULL branch. Otherwise (a result returned or handed on untested, a loop back to the
call first) the call keeps the escape, as before: a failure nobody tests hides the leak, never
invents one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from extractors.calls import CallSpec
from extractors.facts import RETURNED, Call, root_of

if TYPE_CHECKING:  # the CFG builder calls this module
    from extractors.cfg import Cfg

# atoms that give a path a new value: past them the argument or the result is another object
_STORES = frozenset({"def", "write", "null", "alloc", "open"})


def conditional_positions(spec: CallSpec) -> tuple[int, ...]:
    """The argument positions a call of ``spec`` takes only when it succeeds."""
    return tuple(i for i, atom in spec.args if atom == "escape" and i in spec.kept_on_failure)


def defer_conditional_takes(cfg: Cfg, table: dict[str, CallSpec]) -> None:
    """Move each conditional take of ``cfg``'s calls to the not-NULL branches of the result's tests
    (see the module's docstring); calls whose result is not tested on every path keep it."""
    for node in cfg.nodes:
        if not any(c.name in table for c in node.calls if c.name):
            continue
        calls: list[Call] = []
        for call in node.calls:
            spec = table.get(call.name) if call.name else None
            positions = conditional_positions(spec) if spec is not None else ()
            result = call.result
            deferred: list[int] = []
            if positions and result is not None and result != RETURNED:
                private = root_of(result) == result and result in cfg.declared and result not in cfg.addr_taken
                for k in positions:
                    if k >= len(call.args):
                        continue
                    path, by_address = call.args[k]
                    if path is None or by_address or path == result:
                        continue
                    tests = _tests_on_every_path(cfg, node.id, result, path, private)
                    if tests is None:
                        continue
                    deferred.append(k)
                    for t in tests:
                        test = cfg.nodes[t]
                        test.takes = tuple(dict.fromkeys((*test.takes, path)))
            calls.append(replace(call, deferred=tuple(deferred)) if deferred else call)
        node.calls = tuple(calls)


def _tests_on_every_path(cfg: Cfg, start: int, result: str, arg: str, private: bool) -> frozenset[int] | None:
    """The NULL tests of ``result`` that every path from node ``start`` meets first, or None when
    some path ends, loops back to ``start``, or stores ``result`` or ``arg`` anew before one.
    A result that is not a ``private`` local (``*out``, ``s->fp``, a local whose address is taken)
    may be stored through another name by any call, so no call may come before the test."""
    if _tests(cfg, start, result):
        return frozenset({start})  # if ((f = fdopen(fd, "w")) == NULL)
    found: set[int] = set()
    seen: set[int] = set()
    stack = list(cfg.successors(start))
    while stack:
        j = stack.pop()
        if j in seen:
            continue
        seen.add(j)
        if j == start or j == cfg.exit:
            return None
        node = cfg.nodes[j]
        if _tests(cfg, j, result):
            found.add(j)
            continue
        if any(p in (result, arg) and a in _STORES for p, a in node.events):
            return None
        if any(c.result in (result, arg) for c in node.calls) or (node.calls and not private):
            return None
        if not cfg.succ[j] or node.kind == "sink":
            return None
        stack.extend(cfg.successors(j))
    return frozenset(found) if found else None


def _tests(cfg: Cfg, j: int, result: str) -> bool:
    nt = cfg.nodes[j].null_test
    return nt is not None and nt[0] == result
