"""The checks on the database: a scope's models, its projector, and each file's findings.

``scope_content(paths)`` is compared by its signature (every function's key, every file's globals
and macros), so ``projector(paths)`` and ``file_findings(path, scope)``, which read only it, are
reused while no function of the scope changed; moving functions changes nothing here, since
findings are unplaced (``extractors.checking.place`` puts them on today's rows last).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from checker.querydb import Content, Database, Input, derived
from extractors.calls import CallSpec
from extractors.checking import FunctionChecker
from extractors.config import PARTIAL_EVERY
from extractors.findings import Finding
from extractors.functions import FunctionModel
from extractors.lock_contracts import LockContracts
from extractors.lock_contracts import lock_contracts as contracts_of
from extractors.projection import ProjectionStore, Projector, make_scope
from extractors.queries import FrontDb, file_items, file_models, function_context

# verdicts by the content of the checked model: a project's, unless the owner hands in its own
# cache (the CLI's on disk)
VERDICTS = Content[str, bytes]("verdicts")


class CheckDb(FrontDb):
    """The project's database: the front end's queries, and the checks, which run with the
    project's function checker and projection store (memos keyed by content: a query reading
    them is still a function of what it reads through the database)."""

    def __init__(
        self, table: dict[str, CallSpec], max_weight: int, checker_of: Callable[[Database], FunctionChecker]
    ) -> None:
        super().__init__(max_weight)
        self.table = table
        self.projections = ProjectionStore(self)  # its memos are content tables of this database
        self.checker = checker_of(self)  # and so are the checker's
        self.partial: Callable[[str, list[Finding]], None] | None = None  # progress, not an input
        self.partial_every = PARTIAL_EVERY


@dataclass(frozen=True, eq=False)
class _ScopeContent:
    """The models and context a projector is made of; ``signature`` names them (every function's
    key, every file's globals and macros: no rows, as nothing derived from a scope holds one).

    ``macros`` are every file's, each under the name its file's models give its calls
    (:func:`extractors.macro_calls.macro_call_name`: the macro's name and a digest of what it
    means), so a file's calls meet only the macros that file defines or reads in the headers it
    includes, however many files share the scope's one call table."""

    signature: str
    models: tuple[FunctionModel, ...]
    globals: frozenset[str]
    macros: tuple[tuple[str, CallSpec], ...]
    volatiles: frozenset[str] = frozenset()


def _same_signature(a: _ScopeContent, b: _ScopeContent) -> bool:
    return a.signature == b.signature


@derived("scope_content", eq=_same_signature)
def scope_content(db: Database, paths: tuple[str, ...]) -> _ScopeContent:
    parts: list[str] = []
    models: list[FunctionModel] = []
    globals_: set[str] = set()
    volatiles: set[str] = set()
    macros: dict[str, CallSpec] = {}
    log = db if isinstance(db, FrontDb) else None
    for p in paths:
        items = db.get(file_items, p)
        before = (log.built + log.failed) if log is not None else 0
        read = ahead = 0
        for name, text, fm in file_models(db, p):  # in file order: partial results follow the file
            read += 1
            if log is not None and log.ahead and log.take_ahead((p, name, text)):
                ahead += 1  # built ahead of this run: not reused by it
            if isinstance(fm, FunctionModel):
                parts.append(f"{p}|{name}|{fm.key}")
                models.append(fm)
        if log is not None:  # found current, not built now nor ahead of this run
            log.reused += max(0, read - (log.built + log.failed - before) - ahead)
        parts.append("globals:" + ",".join(sorted(items.scope.globals)))
        parts.append("volatiles:" + ",".join(sorted(items.scope.volatiles)))
        context = db.get(function_context, p)
        parts.append("macros:" + repr(sorted(context.macros.items())))
        globals_ |= items.scope.globals
        volatiles |= items.scope.volatiles
        for m, spec in context.macros.items():  # under the names the file's models call them by
            macros[context.call_names[m]] = spec
    signature = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return _ScopeContent(signature, tuple(models), frozenset(globals_), tuple(macros.items()), frozenset(volatiles))


_PROJECTOR_WEIGHT = 20_000  # a projector memoises a whole scope: a handful stay alive


@derived("projector", weight=lambda _p: _PROJECTOR_WEIGHT, portable=False)
def projector(db: Database, paths: tuple[str, ...]) -> Projector:
    """The projections of the functions of ``paths``; recomputed only when a function of them
    changed or moved, or their globals or macros changed (the scope's signature).  The call table
    is the configuration's and every file's macros under their call names, which never collide
    with each other or with the configuration's rows (a macro the table names is no macro)."""
    content = db.get(scope_content, paths)
    owner = cast(CheckDb, db)
    table = dict(owner.table)
    for m, spec in content.macros:
        table[m] = spec
    store = owner.projections
    scope = make_scope(list(content.models), table, content.globals, store, content.volatiles)
    return Projector(scope, signature=content.signature, store=store)


@derived("lock_contracts")
def lock_contracts(db: Database, paths: tuple[str, ...]) -> LockContracts:
    """Which functions of the scope are called with a lock held, and the values each function's
    check may use them for (:mod:`extractors.lock_contracts`): facts of the whole scope, which a
    function's findings read beyond what it can reach (its callers, and its callees' other
    callers); backdated when equal, so an edit that changes no lock or call changes none."""
    return contracts_of(db.get(projector, paths))


# the key of the rules the checks run (``extractors.rules.rules_key``): the function checker keeps
# results per rule, so a new rule set re-runs only the rules it adds or changes
RULES = Input[tuple[()], str]("rules", durable=True)


@derived("file_findings")
def file_findings(db: Database, key: tuple[str, tuple[str, ...]]) -> tuple[Finding, ...]:
    """The findings of one file checked with the functions of a scope (the whole project, or the
    file alone while typing), unplaced and before suppressions."""
    path, paths = key
    db.get(RULES, ())
    proj = db.get(projector, paths)
    owner = cast(CheckDb, db)
    functions = [fm for fm in proj.scope.functions.values() if fm.file == path]
    contracts = db.get(lock_contracts, paths)
    return owner.checker.check_file(
        path, functions, proj, owner.partial, owner.partial_every, owner.check_cancelled, contracts
    )
