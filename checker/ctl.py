"""CTL formulas: syntax tree, parser for the RSM-benchmark syntax, and existential normal form.

Formulas are frozen dataclasses, so equal subformulas are equal values and can key dictionaries
(the knowledge base keys its entries by them).  The checker works on the normal form over
``TRUE, atom, not, or, and, EX, EG, EU``; everything else is sugar removed by :func:`normalize`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Formula:
    @property
    def children(self) -> tuple[Formula, ...]:
        return ()

    @cached_property
    def size(self) -> int:
        return 1 + sum(c.size for c in self.children)


@dataclass(frozen=True)
class TrueF(Formula):
    def __str__(self) -> str:
        return "true"


@dataclass(frozen=True)
class FalseF(Formula):
    def __str__(self) -> str:
        return "false"


@dataclass(frozen=True)
class Atom(Formula):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Unary(Formula):
    arg: Formula

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def __str__(self) -> str:
        return f"{_SYMBOL[type(self)]} ({self.arg})"


@dataclass(frozen=True)
class Binary(Formula):
    left: Formula
    right: Formula

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)

    def __str__(self) -> str:
        sym = _SYMBOL[type(self)]
        if isinstance(self, EU | AU | EW | AW):
            return f"{sym[0]} ({self.left} {sym[1]} {self.right})"
        return f"({self.left} {sym} {self.right})"


class Not(Unary): ...
class EX(Unary): ...
class EG(Unary): ...
class EF(Unary): ...
class AX(Unary): ...
class AG(Unary): ...
class AF(Unary): ...
class Or(Binary): ...
class And(Binary): ...
class Implies(Binary): ...
class EU(Binary): ...
class AU(Binary): ...
class EW(Binary): ...
class AW(Binary): ...


_SYMBOL: dict[type, str] = {
    Not: "~", EX: "E X", EG: "E G", EF: "E F", AX: "A X", AG: "A G", AF: "A F",
    Or: "|", And: "&", Implies: "-->", EU: "EU", AU: "AU", EW: "EW", AW: "AW",
}

EXISTENTIAL = (EX, EG, EU)
TRUE = TrueF()


class CTLSyntaxError(ValueError):
    """A formula that does not parse; ``pos`` is the 0-based character offset."""

    def __init__(self, text: str, pos: int, expected: str, found: str) -> None:
        self.text, self.pos, self.expected, self.found = text, pos, expected, found
        super().__init__(f"column {pos + 1}: expected {expected}, found {found}")


_TOKEN = re.compile(r"\s*(-->|->|<->|[()~!&|]|[A-Za-z_][A-Za-z0-9_.$:\[\]']*|\S)")
_KEYWORDS = {"A", "E", "X", "F", "G", "U", "W", "not", "and", "or", "true", "false", "TRUE", "FALSE"}


class _Parser:
    """Recursive descent; precedence low to high: -->, |, &, unary (~, A/E paths)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, int]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                break
            if m.group(1):
                self.tokens.append((m.group(1), m.start(1)))
            pos = m.end()
        self.i = 0

    def peek(self) -> str | None:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def pos(self) -> int:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else len(self.text)

    def fail(self, expected: str) -> CTLSyntaxError:
        tok = self.peek()
        return CTLSyntaxError(self.text, self.pos(), expected, "end of formula" if tok is None else repr(tok))

    def take(self, tok: str) -> None:
        if self.peek() != tok:
            raise self.fail(repr(tok))
        self.i += 1

    def parse(self) -> Formula:
        if not self.tokens:
            raise self.fail("a formula")
        f = self.implication()
        if self.peek() is not None:
            raise self.fail("an operator or end of formula")
        return f

    def implication(self) -> Formula:
        left = self.disjunction()
        if self.peek() in ("-->", "->"):
            self.i += 1
            return Implies(left, self.implication())
        if self.peek() == "<->":
            self.i += 1
            right = self.implication()
            return And(Implies(left, right), Implies(right, left))
        return left

    def disjunction(self) -> Formula:
        f = self.conjunction()
        while self.peek() in ("|", "or"):
            self.i += 1
            f = Or(f, self.conjunction())
        return f

    def conjunction(self) -> Formula:
        f = self.unary()
        while self.peek() in ("&", "and"):
            self.i += 1
            f = And(f, self.unary())
        return f

    def unary(self) -> Formula:
        tok = self.peek()
        if tok in ("~", "!", "not"):
            self.i += 1
            return Not(self.unary())
        if tok in ("A", "E"):
            self.i += 1
            op = self.peek()
            if op in ("X", "F", "G"):
                self.i += 1
                arg = self.unary()
                return {("A", "X"): AX, ("A", "F"): AF, ("A", "G"): AG,
                        ("E", "X"): EX, ("E", "F"): EF, ("E", "G"): EG}[(tok, op)](arg)
            bracket = {"(": ")", "[": "]"}.get(op or "")
            if bracket is not None:
                self.i += 1
                left = self.implication()
                kind = self.peek()
                if kind not in ("U", "W"):
                    # ``E (p)`` is just a parenthesised formula after a path quantifier with no operator
                    raise self.fail("'U' or 'W'")
                self.i += 1
                right = self.implication()
                self.take(bracket)
                return _until(tok, kind, left, right)
            left = self.unary()
            kind = self.peek()
            if kind not in ("U", "W"):
                raise self.fail("'U' or 'W' (or X, F, G after a path quantifier)")
            self.i += 1
            right = self.unary()
            return _until(tok, kind, left, right)
        if tok == "(":
            self.i += 1
            f = self.implication()
            self.take(")")
            return f
        if tok in ("true", "TRUE"):
            self.i += 1
            return TRUE
        if tok in ("false", "FALSE"):
            self.i += 1
            return FalseF()
        if tok is not None and tok not in _KEYWORDS and re.match(r"[A-Za-z_]", tok):
            self.i += 1
            return Atom(tok)
        raise self.fail("a formula (atom, true, false, ~, A, E or '(')")


def _until(quant: str, kind: str, left: Formula, right: Formula) -> Formula:
    return {("E", "U"): EU, ("A", "U"): AU, ("E", "W"): EW, ("A", "W"): AW}[(quant, kind)](left, right)


def parse(text: str) -> Formula:
    """Parse one formula; raises :class:`CTLSyntaxError` with position and expected token."""
    return _Parser(text).parse()


def parse_file(text: str) -> list[tuple[int, Formula]]:
    """Formulas of a ``.ctl`` file with their 1-based line numbers; ``#`` starts a comment."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            try:
                out.append((lineno, parse(line)))
            except CTLSyntaxError as e:
                raise CTLSyntaxError(e.text, e.pos, e.expected, f"{e.found} on line {lineno}") from None
    return out


def neg(f: Formula) -> Formula:
    if isinstance(f, Not):
        return f.arg
    return Not(f)


def normalize(f: Formula) -> Formula:
    """Rewrite into the normal form over TRUE, atoms, ~, |, &, EX, EG, EU.

    Double negations are removed so that equal meanings share subformulas more often.
    """
    n = normalize
    match f:
        case TrueF() | Atom():
            return f
        case FalseF():
            return Not(TRUE)
        case Not(arg=a):
            return neg(n(a))
        case Or(left=a, right=b):
            return Or(n(a), n(b))
        case And(left=a, right=b):
            return And(n(a), n(b))
        case Implies(left=a, right=b):
            return Or(neg(n(a)), n(b))
        case EX(arg=a):
            return EX(n(a))
        case EG(arg=a):
            return EG(n(a))
        case EF(arg=a):
            return EU(TRUE, n(a))
        case EU(left=a, right=b):
            return EU(n(a), n(b))
        case EW(left=a, right=b):
            na, nb = n(a), n(b)
            return Or(EU(na, nb), EG(na))
        case AX(arg=a):
            return neg(EX(neg(n(a))))
        case AG(arg=a):
            return neg(EU(TRUE, neg(n(a))))
        case AF(arg=a):
            return neg(EG(neg(n(a))))
        case AU(left=a, right=b):
            na, nb = n(a), n(b)
            return And(neg(EU(neg(nb), And(neg(na), neg(nb)))), neg(EG(neg(nb))))
        case AW(left=a, right=b):
            na, nb = n(a), n(b)
            return neg(EU(neg(nb), And(neg(na), neg(nb))))
    raise TypeError(f"not a formula: {f!r}")


def subformulas(f: Formula) -> list[Formula]:
    """Distinct subformulas, children before parents (the order bottom-up labelling needs)."""
    seen: dict[Formula, None] = {}

    def walk(g: Formula) -> None:
        if g in seen:
            return
        for c in g.children:
            walk(c)
        seen[g] = None

    walk(f)
    return list(seen)


def atoms(f: Formula) -> frozenset[str]:
    return frozenset(g.name for g in subformulas(f) if isinstance(g, Atom))
