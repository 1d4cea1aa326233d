"""The rule catalogue: built-in rules from ``rules.toml`` plus the user's, with their settings.

Rules are data so that users read, switch off, re-rate or add them in ``ctlsp.toml`` without
touching code; each is one existential CTL formula over the canonical propositions of a value.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import astuple, dataclass, replace
from functools import cache, cached_property
from pathlib import Path

from checker.ctl import Formula, atoms, parse
from extractors.config import Config, ConfigError
from extractors.findings import Severity

PROPOSITIONS = (
    "alloc",
    "free",
    "use",
    "read",
    "write",
    "def",
    "decl",
    "escape",
    "isnull",
    "notnull",
    "open",
    "close",
    "lock",
    "unlock",
    "discard",
    "null",
    "ret",
    "stack",
    "nonheap",
    "cmp",
    "lostonfail",
    "maynull",
    "exit",
    "end",
    "unreached",
    "unused",
    "unusedparam",
    "asserted",
    "voided",
    "maydef",
)
SCOPES = ("any", "local", "local-scalar", "return", "function")
# what only a local's function does to it
_OWN_ATOMS = frozenset({"decl", "def", "write", "read", "voided", "maydef", "end"})


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    message: str
    cwe: int | None
    formula: str
    doc: str = ""
    bad_example: str = ""
    good_example: str = ""
    scope: str = "any"
    requires: tuple[tuple[str, ...], ...] = ()
    end_note: str = "returns"
    # or "last": the step that completes the bug path; or "end": the return the witness ends at
    # (the exit when it falls off the end), where a path that skips what the rule asks for leaves
    report_at: str = "trigger"
    # the trigger must be the checked function's own (one of these atoms in its own projection):
    # a trigger in a callee is that callee's finding, reported where the callee is checked
    own_trigger: frozenset[str] = frozenset()
    # atoms that count only in the checked function's own frame (taken off its callees): a callee's
    # assignment to its parameter is not one to the caller's variable
    own_atoms: frozenset[str] = frozenset()
    shadowed_by: str | None = None  # a rule whose finding on the same line says the same thing
    enabled: bool = True
    # a "local-scalar" rule that also tracks parts of locals as values of their own: the fields of
    # local structs declared without a value (extractors.struct_fields), read where named, and what
    # local arrays and fresh malloc blocks hold (extractors.contents)
    parts: bool = False
    # a rule that also checks the fields of the objects parameters point to (``s->pos``), file-scope
    # variables and static locals, whose values outlive the function (extractors.lasting)
    lasting: bool = False
    # checked also on a value whose reach holds one of each of these groups instead of
    # ``requires`` when the value is one the function releases through a callee that its other
    # callers call with it held, and no caller of the function holds it (extractors.lock_contracts)
    contract_requires: tuple[tuple[str, ...], ...] = ()

    @property
    def parsed(self) -> Formula:
        return _parse(self.formula)

    @property
    def atoms(self) -> frozenset[str]:
        """The propositions the formula can see (results are keyed by the model as seen through them)."""
        return _atoms(self.formula)

    @property
    def frame_atoms(self) -> frozenset[str]:
        """The atoms the rule sees only in the checked function's own frame."""
        return self.own_trigger | self.own_atoms

    @property
    def local(self) -> bool:
        """Whether the verdict is the checked function's own, whatever its callees do: the rule is
        about locals whose address is never taken and sees only what is done to the variable
        itself. A callee gets a copy of such a local (read at the call), so it can neither declare,
        assign nor read it; what it does to what the local points to (free, dereference) it can,
        so a rule that sees that is checked with the callees. (A local whose address goes only to
        callees summarised by extractors.out_params has their stores in its own projection.)"""
        return self.scope == "local-scalar" and self.atoms <= _OWN_ATOMS

    def applies(self, present: frozenset[str], contract: bool = False) -> bool:
        """Whether a value whose reach holds the atoms ``present`` is checked; ``contract``: the
        value is one of its function's admitted by :mod:`extractors.lock_contracts`."""
        if all(any(a in present for a in group) for group in self.requires):
            return True
        groups = self.contract_requires
        return contract and bool(groups) and all(any(a in present for a in group) for group in groups)

    @cached_property
    def key(self) -> str:
        """Everything about the rule its findings depend on (formula, scope, wording, severity ...):
        results are kept per rule under it, so that turning one rule on or off, or changing it,
        leaves the others' results where they are."""
        return hashlib.sha256(repr(astuple(self)).encode()).hexdigest()[:24]


def rules_key(rules: list[Rule]) -> str:
    """One key for a list of rules, in order."""
    return hashlib.sha256("|".join(r.key for r in rules).encode()).hexdigest()[:24]


_SEVERITY: dict[str, Severity] = {"error": "error", "warning": "warning", "info": "info"}


def as_severity(text: str) -> Severity:
    return _SEVERITY.get(text, "warning")


@cache
def _parse(text: str) -> Formula:
    return parse(text)


@cache
def _atoms(text: str) -> frozenset[str]:
    return atoms(_parse(text))


@cache
def builtin_rules() -> tuple[Rule, ...]:
    path = Path(__file__).with_name("rules.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for rid, r in data.items():
        out.append(
            Rule(
                id=rid,
                severity=as_severity(r["severity"]),
                message=r["message"],
                cwe=r.get("cwe"),
                formula=r["formula"],
                doc=r.get("doc", ""),
                bad_example=r.get("bad_example", "").strip("\n"),
                good_example=r.get("good_example", "").strip("\n"),
                scope=r.get("scope", "any"),
                requires=tuple(tuple(g) for g in r.get("requires", ())),
                end_note=r.get("end", "returns"),
                report_at=r.get("report_at", "trigger"),
                own_trigger=frozenset(r.get("own_trigger", ())),
                own_atoms=frozenset(r.get("own_atoms", ())),
                shadowed_by=r.get("shadowed_by"),
                enabled=r.get("enabled", True),
                parts=r.get("parts", False),
                lasting=r.get("lasting", False),
                contract_requires=tuple(tuple(g) for g in r.get("contract_requires", ())),
            )
        )
    for rule in out:  # the catalogue is data: a slip in it is caught when it is read, not by a wrong check
        unknown = rule.atoms - set(PROPOSITIONS)
        if rule.scope not in SCOPES or unknown:
            raise ValueError(f"rules.toml: rule {rule.id!r}: scope {rule.scope!r}, unknown atoms {sorted(unknown)}")
    return tuple(out)


def builtin_ids() -> frozenset[str]:
    return frozenset(r.id for r in builtin_rules())


def catalogue(config: Config | None = None, *, include_disabled: bool = False) -> list[Rule]:
    """Rules with the user's settings applied, enabled ones only unless ``include_disabled``."""
    config = config or Config()
    rules = list(builtin_rules())
    known = {r.id for r in rules}
    for c in config.custom_rules:
        if c.id in known:
            raise ConfigError(
                config.source or "ctlsp.toml", 0, f"custom rule id {c.id!r} clashes with a built-in rule"
            )
        used = sorted(atoms(parse(c.formula)) - {"end"})
        rules.append(
            Rule(
                c.id,
                as_severity(c.severity),
                c.message,
                c.cwe,
                c.formula,
                doc=f"Custom rule from {config.source or 'the configuration'}.",
                requires=(tuple(used),) if used else (),
            )
        )
    ids = {r.id for r in rules}
    for rid in config.rules:
        if rid not in ids:
            raise ConfigError(config.source or "ctlsp.toml", 0, f"unknown rule {rid!r} in [rules.{rid}]")
    out = []
    for r in rules:
        s = config.rules.get(r.id)
        if s is not None:
            enabled = r.enabled if s.enabled is None else s.enabled  # None: the rule's own default
            r = replace(r, enabled=enabled, severity=as_severity(s.severity) if s.severity else r.severity)
        if r.enabled or include_disabled:
            out.append(r)
    return out
