"""CTL formulas: syntax tree, parser for the RSM-benchmark syntax, and existential normal form.

Formulas are frozen dataclasses, so equal subformulas are equal values and can key dictionaries
(the knowledge base keys its entries by them).  The checker works on the normal form over
``TRUE, atom, not, or, and, EX, EG, EU``; everything else is sugar removed by :func:`normalize`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Formula:
    """Base of the syntax tree.

    Normal forms share subformulas (``A (p U q)`` mentions ``q`` three times), so a formula is a
    DAG whose tree can be exponentially larger; every structural pass therefore works on the DAG
    (:func:`subformulas`), and the hash is computed once per object (the generated one would walk
    the tree on every dictionary lookup).  The cached hash is not pickled: hashes of strings and
    types differ between processes.
    """

    @property
    def children(self) -> tuple[Formula, ...]:
        return ()

    def _key(self) -> tuple[object, ...]:
        return (type(self),)

    def __hash__(self) -> int:
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = hash(self._key())
            object.__setattr__(self, "_hash", h)
        return h

    def __eq__(self, other: object) -> bool:
        """Structural equality, iterative and once per pair of nodes (DAG-sized, not tree-sized)."""
        if self is other:
            return True
        if not isinstance(other, Formula):
            return NotImplemented
        stack: list[tuple[Formula, Formula]] = [(self, other)]
        compared: set[tuple[int, int]] = set()  # ids of nodes alive for the whole call
        while stack:
            a, b = stack.pop()
            if a is b or (id(a), id(b)) in compared:
                continue
            if type(a) is not type(b) or hash(a) != hash(b):
                return False
            if isinstance(a, Atom) and isinstance(b, Atom) and a.name != b.name:
                return False
            compared.add((id(a), id(b)))
            stack.extend(zip(a.children, b.children, strict=True))
        return True

    def _text(self, parts: list[str]) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        """The formula in the syntax :func:`parse` reads (as long as the formula's tree: print
        parsed formulas, not normal forms)."""
        return fold(self, lambda g, text: g._text([text(c) for c in g.children]))

    def __repr__(self) -> str:
        """Bounded per node, so that a failing assertion on a normal form can still be shown."""

        def step(g: Formula, rep: Callable[[Formula], str]) -> str:
            inner = repr(g.name) if isinstance(g, Atom) else ", ".join(rep(c) for c in g.children)
            out = f"{type(g).__name__}({inner})"
            return out if len(out) <= 300 else out[:297] + "..."

        return fold(self, step)

    def __post_init__(self) -> None:
        hash(self)  # children are built first, so hashing a new node never recurses deeply

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)  # unpickling restores children first: hashing stays shallow
        hash(self)


@dataclass(frozen=True, eq=False, repr=False)
class TrueF(Formula):
    def _text(self, parts: list[str]) -> str:
        return "true"


@dataclass(frozen=True, eq=False, repr=False)
class FalseF(Formula):
    def _text(self, parts: list[str]) -> str:
        return "false"


@dataclass(frozen=True, eq=False, repr=False)
class Atom(Formula):
    name: str

    def _key(self) -> tuple[object, ...]:
        return (Atom, self.name)

    def _text(self, parts: list[str]) -> str:
        return self.name


@dataclass(frozen=True, eq=False, repr=False)
class Unary(Formula):
    arg: Formula

    def _key(self) -> tuple[object, ...]:
        return (type(self), self.arg)

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _text(self, parts: list[str]) -> str:
        return f"{_SYMBOL[type(self)]} ({parts[0]})"


@dataclass(frozen=True, eq=False, repr=False)
class Binary(Formula):
    left: Formula
    right: Formula

    def _key(self) -> tuple[object, ...]:
        return (type(self), self.left, self.right)

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)

    def _text(self, parts: list[str]) -> str:
        sym = _SYMBOL[type(self)]
        if isinstance(self, EU | AU | EW | AW):
            return f"{sym[0]} ({parts[0]} {sym[1]} {parts[1]})"
        return f"({parts[0]} {sym} {parts[1]})"


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
class Iff(Binary): ...
class EU(Binary): ...
class AU(Binary): ...
class EW(Binary): ...
class AW(Binary): ...


_SYMBOL: dict[type, str] = {
    Not: "~", EX: "E X", EG: "E G", EF: "E F", AX: "A X", AG: "A G", AF: "A F",
    Or: "|", And: "&", Implies: "-->", Iff: "<->", EU: "EU", AU: "AU", EW: "EW", AW: "AW",
}

TRUE = TrueF()


class CTLSyntaxError(ValueError):
    """A formula that does not parse; ``pos`` is the 0-based character offset."""

    def __init__(self, text: str, pos: int, expected: str, found: str) -> None:
        self.text, self.pos, self.expected, self.found = text, pos, expected, found
        super().__init__(f"column {pos + 1}: expected {expected}, found {found}")


_TOKEN = re.compile(r"\s*(-->|->|<->|[()~!&|]|[A-Za-z_][A-Za-z0-9_.$:\[\]']*|\S)")
_KEYWORDS = {"A", "E", "X", "F", "G", "U", "W", "not", "and", "or", "true", "false", "TRUE", "FALSE"}


MAX_NESTING = 100
"""Deepest formula the parser accepts: operators, parentheses and chained binary operators each
count one level.  Real rules are under ten levels deep (the benchmark files' deepest is 5, the rule
catalogue's 6); the bound keeps every recursive pass over formulas (normal form, hashing, labelling)
far from Python's recursion limit, so a hostile formula is a syntax error rather than a crash."""


class _Parser:
    """Recursive descent; precedence low to high: -->, |, &, unary (~, A/E paths).

    Each rule returns the formula with its depth, so that both ways a formula grows deep, nesting
    (``~~~p``, ``((p))``, ``E X E X p``) and long chains (``p & p & ... & p``), meet one bound.
    """

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
        self.nesting = 0

    def peek(self) -> str | None:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def pos(self) -> int:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else len(self.text)

    def fail(self, expected: str) -> CTLSyntaxError:
        tok = self.peek()
        return CTLSyntaxError(self.text, self.pos(), expected, "end of formula" if tok is None else repr(tok))

    def too_deep(self) -> CTLSyntaxError:
        return CTLSyntaxError(
            self.text, self.pos(), f"a formula at most {MAX_NESTING} levels deep", "a deeper one"
        )

    def deeper(self, depth: int) -> int:
        if depth > MAX_NESTING:
            raise self.too_deep()
        return depth

    def take(self, tok: str) -> None:
        if self.peek() != tok:
            raise self.fail(repr(tok))
        self.i += 1

    def parse(self) -> Formula:
        if not self.tokens:
            raise self.fail("a formula")
        f, _ = self.implication()
        if self.peek() is not None:
            raise self.fail("an operator or end of formula")
        return f

    def nested(self, rule: Callable[[], tuple[Formula, int]]) -> tuple[Formula, int]:
        """``rule()`` one level further in; bounds the recursion before it happens."""
        self.nesting += 1
        if self.nesting >= MAX_NESTING:
            raise self.too_deep()
        try:
            return rule()
        finally:
            self.nesting -= 1

    def implication(self) -> tuple[Formula, int]:
        left, dl = self.disjunction()
        if self.peek() in ("-->", "->"):
            self.i += 1
            right, dr = self.nested(self.implication)
            return Implies(left, right), self.deeper(1 + max(dl, dr))
        if self.peek() == "<->":
            self.i += 1
            right, dr = self.nested(self.implication)
            return Iff(left, right), self.deeper(1 + max(dl, dr))
        return left, dl

    def disjunction(self) -> tuple[Formula, int]:
        f, d = self.conjunction()
        while self.peek() in ("|", "or"):
            self.i += 1
            g, dg = self.conjunction()
            f, d = Or(f, g), self.deeper(1 + max(d, dg))
        return f, d

    def conjunction(self) -> tuple[Formula, int]:
        f, d = self.unary()
        while self.peek() in ("&", "and"):
            self.i += 1
            g, dg = self.unary()
            f, d = And(f, g), self.deeper(1 + max(d, dg))
        return f, d

    def unary(self) -> tuple[Formula, int]:
        tok = self.peek()
        if tok in ("~", "!", "not"):
            self.i += 1
            arg, d = self.nested(self.unary)
            return Not(arg), self.deeper(1 + d)
        if tok in ("A", "E"):
            self.i += 1
            op = self.peek()
            if op in ("X", "F", "G"):
                self.i += 1
                arg, d = self.nested(self.unary)
                cls = {("A", "X"): AX, ("A", "F"): AF, ("A", "G"): AG,
                       ("E", "X"): EX, ("E", "F"): EF, ("E", "G"): EG}[(tok, op)]
                return cls(arg), self.deeper(1 + d)
            bracket = {"(": ")", "[": "]"}.get(op or "")
            if bracket is not None:
                self.i += 1
                left, dl = self.nested(self.implication)
                kind = self.peek()
                if kind not in ("U", "W"):
                    # ``E (p)`` is just a parenthesised formula after a path quantifier with no operator
                    raise self.fail("'U' or 'W'")
                self.i += 1
                right, dr = self.nested(self.implication)
                self.take(bracket)
                return _until(tok, kind, left, right), self.deeper(1 + max(dl, dr))
            left, dl = self.nested(self.unary)
            kind = self.peek()
            if kind not in ("U", "W"):
                raise self.fail("'U' or 'W' (or X, F, G after a path quantifier)")
            self.i += 1
            right, dr = self.nested(self.unary)
            return _until(tok, kind, left, right), self.deeper(1 + max(dl, dr))
        if tok == "(":
            self.i += 1
            f = self.nested(self.implication)
            self.take(")")
            return f
        if tok in ("true", "TRUE"):
            self.i += 1
            return TRUE, 1
        if tok in ("false", "FALSE"):
            self.i += 1
            return FalseF(), 1
        if tok is not None and tok not in _KEYWORDS and re.match(r"[A-Za-z_]", tok):
            self.i += 1
            return Atom(tok), 1
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


def _normal_step(f: Formula, n: Callable[[Formula], Formula]) -> Formula:
    """One rewrite of :func:`normalize`, with ``n`` giving the normal form of a child."""
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
        case Iff(left=a, right=b):
            na, nb = n(a), n(b)
            return And(Or(neg(na), nb), Or(neg(nb), na))
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


def normalize(f: Formula) -> Formula:
    """Rewrite into the normal form over TRUE, atoms, ~, |, &, EX, EG, EU.

    Double negations are removed so that equal meanings share subformulas more often.  The rewrite
    runs over the DAG children first, so a shared subformula is rewritten once and stays shared.
    """
    return fold(f, _normal_step)


def subformulas(f: Formula) -> list[Formula]:
    """Distinct subformulas, children before parents (the order bottom-up labelling needs).

    Iterative, so that no depth of formula meets Python's recursion limit."""
    seen: dict[Formula, None] = {}
    stack: list[tuple[Formula, bool]] = [(f, False)]
    while stack:
        g, expanded = stack.pop()
        if g in seen:
            continue
        if expanded:
            seen[g] = None
            continue
        stack.append((g, True))
        stack.extend((c, False) for c in reversed(g.children) if c not in seen)
    return list(seen)


def fold(f: Formula, step: Callable[[Formula, Callable[[Formula], T]], T]) -> T:
    """``step`` applied bottom-up over the DAG of ``f``: once per distinct subformula, each getting
    its children's results through the callable it is passed (tree recursion on a normal form is
    exponential, since normal forms share subformulas)."""
    done: dict[Formula, T] = {}
    for g in subformulas(f):
        done[g] = step(g, done.__getitem__)
    return done[f]


def atoms(f: Formula) -> frozenset[str]:
    return frozenset(g.name for g in subformulas(f) if isinstance(g, Atom))
