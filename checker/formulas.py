"""A normal-form formula flattened into an array of operators, children before parents.

The engine indexes every per-position value array by these indices; ``existential_below`` says
which existential subformulas a subformula's truth can depend on at an exit, which is what a
context has to fix for it (and what the knowledge base keys its entries by).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count

from checker.bounded import drop_oldest
from checker.ctl import EG, EU, EX, And, Atom, Formula, Not, Or, TrueF, subformulas

TRUE_OP, ATOM, NOT, OR, AND, EXOP, EUOP, EGOP = range(8)
EXISTENTIAL_OPS = (EXOP, EUOP, EGOP)

# One number per formula structure, for keys that outlive a check (the knowledge base's): equal
# formulas get equal numbers, so keys hash and compare as integers instead of walking formulas.
# Bounded; a number is never given to another structure, so an evicted formula only misses what
# was kept under its old number.
_STRUCTURE_IDS: dict[Formula, int] = {}
_MAX_STRUCTURES = 50_000
_next_id = count()


def structure_id(f: Formula) -> int:
    got = _STRUCTURE_IDS.get(f)
    if got is None:
        got = _STRUCTURE_IDS[f] = next(_next_id)
        drop_oldest(_STRUCTURE_IDS, _MAX_STRUCTURES)
    return got


@dataclass(frozen=True)
class FormulaTable:
    formulas: tuple[Formula, ...]
    ops: tuple[int, ...]
    args: tuple[tuple[int, ...], ...]
    atom_names: tuple[str | None, ...]
    existential: tuple[int, ...]
    existential_below: tuple[tuple[int, ...], ...]
    index: dict[Formula, int]
    structure: tuple[int, ...]  # per subformula, its :func:`structure_id`

    @property
    def root(self) -> int:
        return len(self.formulas) - 1


def flatten(phi: Formula) -> FormulaTable:
    subs = subformulas(phi)
    index = {f: i for i, f in enumerate(subs)}
    ops: list[int] = []
    args: list[tuple[int, ...]] = []
    names: list[str | None] = []
    for f in subs:
        names.append(f.name if isinstance(f, Atom) else None)
        match f:
            case TrueF():
                ops.append(TRUE_OP)
            case Atom():
                ops.append(ATOM)
            case Not():
                ops.append(NOT)
            case Or():
                ops.append(OR)
            case And():
                ops.append(AND)
            case EX():
                ops.append(EXOP)
            case EU():
                ops.append(EUOP)
            case EG():
                ops.append(EGOP)
            case _:
                raise TypeError(f"formula not in normal form: {f}")
        args.append(tuple(index[c] for c in f.children))
    below: list[tuple[int, ...]] = []
    for i in range(len(subs)):
        acc: set[int] = set()
        for c in args[i]:
            acc.update(below[c])
        if ops[i] in EXISTENTIAL_OPS:
            acc.add(i)
        below.append(tuple(sorted(acc)))
    return FormulaTable(
        formulas=tuple(subs),
        ops=tuple(ops),
        args=tuple(args),
        atom_names=tuple(names),
        existential=tuple(i for i, o in enumerate(ops) if o in EXISTENTIAL_OPS),
        existential_below=tuple(below),
        index=index,
        structure=tuple(structure_id(f) for f in subs),
    )
