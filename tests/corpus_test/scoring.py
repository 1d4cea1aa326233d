"""The detection corpus (``tests/corpus/``) and how a tool's findings on it are scored: pure, no tools run here.

A *case* is a folder ``tests/corpus/<rule>/<case>/`` holding a bad and a fixed twin, each checked as a
project of its own (a *unit*): either ``bad.c`` and ``fixed.c``, or folders ``bad/`` and ``fixed/`` with
several files (``.c`` and ``.h``).  Every line of a bad twin that a checker must report carries a marker
comment ``BUG(rule-id)`` (several on one line if several rules fire there); fixed twins carry none.

Scoring matches a tool's reports (already mapped to the corpus's rule ids) to the markers:

- ``exact``: same file, same line, same rule (how ctlsp itself is held to the corpus by the test);
- ``unit``: same file and rule anywhere in the unit, nearest line first (the bench compares tools
  whose conventions for *where* a bug is reported differ: clang reports a leak at the return, ctlsp at
  the allocation).

A marker no report matches is *missed*; a report that matches no marker, and every report on a fixed
twin, is *false*.  The reasons of cases ctlsp is known to miss live in ``expected_misses.toml``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from extractors.rules import builtin_ids

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
MISSES_FILE = CORPUS / "expected_misses.toml"
MARK = re.compile(r"BUG\(([a-z][a-z-]*)\)")
C_SUFFIXES = (".c", ".h")

# the rule ids a marker may name: ctlsp's catalogue today plus the checks issue 13 asks for (named here
# so that the corpus can hold their cases before they exist; a typo in a marker is then an error)
EXISTING_RULES = tuple(sorted(builtin_ids()))
PLANNED_RULES: tuple[str, ...] = ()  # every check issue 13 named exists now
RULES = EXISTING_RULES + PLANNED_RULES

Matching = Literal["exact", "unit"]


class CorpusError(ValueError):
    """The corpus itself is malformed (a marker in a fixed twin, an unknown rule, a missing twin)."""


@dataclass(frozen=True, order=True)
class Mark:
    """A line a checker must report: ``file`` is relative to the unit (``bad.c`` or ``main.c`` in ``bad/``)."""

    file: str
    line: int
    rule: str


@dataclass(frozen=True, order=True)
class Report:
    """One finding of a tool, with its rule already mapped to a corpus rule id (``line`` counts from 1)."""

    file: str
    line: int
    rule: str
    message: str = field(default="", compare=False)


@dataclass(frozen=True)
class Unit:
    """One twin: ``target`` is what a tool is run on (the file, or the folder of a multi-file twin)."""

    name: str
    target: Path
    files: tuple[Path, ...]

    @property
    def base(self) -> Path:
        return self.target if self.target.is_dir() else self.target.parent

    def relative(self, path: str | Path) -> str:
        """A tool's path for one of this unit's files, as the markers name it."""
        p = Path(path)
        if not p.is_absolute():
            p = Path.cwd() / p
        try:
            return p.resolve().relative_to(self.base.resolve()).as_posix()
        except ValueError:
            return p.as_posix()


@dataclass(frozen=True)
class Case:
    id: str  # "<rule>/<case>"
    rule: str
    root: Path
    bad: Unit
    fixed: Unit

    def marks(self) -> frozenset[Mark]:
        bad = self.bad
        return frozenset(m for f in bad.files for m in marks_in(f.read_text(encoding="utf-8"), bad.relative(f)))


@dataclass
class CaseScore:
    case: Case
    found: list[Mark] = field(default_factory=list)
    missed: list[Mark] = field(default_factory=list)
    false_bad: list[Report] = field(default_factory=list)  # unmarked reports on the bad twin
    false_fixed: list[Report] = field(default_factory=list)  # any report on the fixed twin

    @property
    def false(self) -> list[Report]:
        return self.false_bad + self.false_fixed

    @property
    def ok(self) -> bool:
        return not self.missed and not self.false

    def explain(self) -> str:
        lines = [f"{self.case.id}:"]
        lines += [f"  missed  {m.rule} at bad:{m.file}:{m.line}" for m in self.missed]
        lines += [f"  false   {r.rule} at bad:{r.file}:{r.line}: {r.message}" for r in self.false_bad]
        lines += [f"  false   {r.rule} at fixed:{r.file}:{r.line}: {r.message}" for r in self.false_fixed]
        return "\n".join(lines)


@dataclass
class Counts:
    found: int = 0
    missed: int = 0
    false: int = 0


def marks_in(text: str, file: str) -> list[Mark]:
    return [Mark(file, i, m) for i, line in enumerate(text.splitlines(), 1) for m in MARK.findall(line)]


def _unit(case_dir: Path, name: str) -> Unit | None:
    single = case_dir / f"{name}.c"
    folder = case_dir / name
    if single.is_file() and folder.is_dir():
        raise CorpusError(f"{case_dir}: both {name}.c and {name}/")
    if single.is_file():
        return Unit(name, single, (single,))
    if folder.is_dir():
        files = tuple(sorted(p for p in folder.rglob("*") if p.suffix in C_SUFFIXES and p.is_file()))
        if not files:
            raise CorpusError(f"{folder}: no C files")
        return Unit(name, folder, files)
    return None


def discover(root: Path = CORPUS) -> list[Case]:
    """Every case under ``root`` (``<rule>/<case>/``), validated; sorted by id."""
    cases: list[Case] = []
    for rule_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        if rule_dir.name not in RULES:
            raise CorpusError(f"{rule_dir}: not a rule id (known: {', '.join(RULES)})")
        for case_dir in sorted(p for p in rule_dir.iterdir() if p.is_dir()):
            bad, fixed = _unit(case_dir, "bad"), _unit(case_dir, "fixed")
            if bad is None or fixed is None:
                raise CorpusError(f"{case_dir}: needs a bad and a fixed twin (bad.c/fixed.c or bad/ and fixed/)")
            case = Case(f"{rule_dir.name}/{case_dir.name}", rule_dir.name, case_dir, bad, fixed)
            marks = case.marks()
            if not marks:
                raise CorpusError(f"{case.id}: the bad twin has no BUG(rule) marker")
            if case.rule not in {m.rule for m in marks}:
                raise CorpusError(f"{case.id}: no BUG({case.rule}) marker in a case filed under {case.rule}/")
            for m in marks:
                if m.rule not in RULES:
                    raise CorpusError(f"{case.id}: {m.file}:{m.line}: unknown rule {m.rule!r}")
            for f in fixed.files:
                stray = marks_in(f.read_text(encoding="utf-8"), fixed.relative(f))
                if stray:
                    raise CorpusError(f"{case.id}: marker in the fixed twin at {stray[0].file}:{stray[0].line}")
            cases.append(case)
    return cases


def read_expected_misses(path: Path = MISSES_FILE, cases: Iterable[Case] | None = None) -> dict[str, str]:
    """Case id -> reason, from ``[[miss]]`` tables with ``case`` and ``reason``; every id must be a case."""
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for entry in doc.get("miss", []):
        case_id, reason = entry.get("case"), entry.get("reason")
        if not isinstance(case_id, str) or not isinstance(reason, str) or not reason.strip():
            raise CorpusError(f"{path}: each [[miss]] needs a case and a non-empty reason: {entry!r}")
        if case_id in out:
            raise CorpusError(f"{path}: {case_id} listed twice")
        out[case_id] = reason
    if cases is not None:
        known = {c.id for c in cases}
        unknown = sorted(set(out) - known)
        if unknown:
            raise CorpusError(f"{path}: no such case: {', '.join(unknown)}")
    return out


def _match(marks: list[Mark], reports: list[Report], how: Matching) -> tuple[list[Mark], list[Mark], list[Report]]:
    """(found, missed, unmatched reports): each marker is matched by at most one report and vice versa;
    under ``unit`` the closest (report, marker) pairs of one file and rule are matched first."""
    pairs = sorted(
        (abs(m.line - r.line), ri, mi)
        for ri, r in enumerate(reports)
        for mi, m in enumerate(marks)
        if (m.file, m.rule) == (r.file, r.rule) and (how == "unit" or m.line == r.line)
    )
    used_r: set[int] = set()
    used_m: set[int] = set()
    for _, ri, mi in pairs:
        if ri not in used_r and mi not in used_m:
            used_r.add(ri)
            used_m.add(mi)
    found = sorted(marks[i] for i in used_m)
    missed = sorted(m for i, m in enumerate(marks) if i not in used_m)
    extra = sorted(r for i, r in enumerate(reports) if i not in used_r)
    return found, missed, extra


def _dedup(reports: Iterable[Report]) -> list[Report]:
    seen: dict[tuple[str, int, str], Report] = {}
    for r in reports:
        seen.setdefault((r.file, r.line, r.rule), r)
    return list(seen.values())


def score_case(
    case: Case, bad: Iterable[Report], fixed: Iterable[Report], how: Matching = "exact"
) -> CaseScore:
    """Reports on the bad and the fixed twin against the case's markers (one report per file, line, rule)."""
    found, missed, extra = _match(sorted(case.marks()), _dedup(bad), how)
    return CaseScore(case, found, missed, extra, sorted(_dedup(fixed)))


def tally(scores: Iterable[CaseScore]) -> dict[str, Counts]:
    """Per rule: markers found and missed, and false reports (counted under the rule they claim)."""
    out: dict[str, Counts] = {}
    for s in scores:
        for m in s.found:
            out.setdefault(m.rule, Counts()).found += 1
        for m in s.missed:
            out.setdefault(m.rule, Counts()).missed += 1
        for r in s.false:
            out.setdefault(r.rule, Counts()).false += 1
    return out


def case_counts(cases: Iterable[Case]) -> Mapping[str, tuple[int, int]]:
    """Per rule directory: (bad twins, fixed twins); every case has one of each."""
    out: dict[str, tuple[int, int]] = {}
    for c in cases:
        b, f = out.get(c.rule, (0, 0))
        out[c.rule] = (b + 1, f + 1)
    return out
