"""Recognise the benchmark's use-def shape ``A G ((d | ud) --> E F (u | ud))`` as atom sets."""

from __future__ import annotations

from checker.ctl import AG, EF, Atom, Formula, Implies, Or


def _atoms(f: Formula) -> frozenset[str] | None:
    if isinstance(f, Atom):
        return frozenset({f.name})
    if isinstance(f, Or):
        left, right = _atoms(f.left), _atoms(f.right)
        return None if left is None or right is None else left | right
    return None


def usedef_shape(f: Formula) -> tuple[frozenset[str], frozenset[str]] | None:
    """(premise atoms, goal atoms) of ``A G (premise --> E F goal)``, or ``None`` for other shapes."""
    if isinstance(f, AG) and isinstance(f.arg, Implies) and isinstance(f.arg.right, EF):
        premise, goal = _atoms(f.arg.left), _atoms(f.arg.right.arg)
        if premise is not None and goal is not None:
            return premise, goal
    return None
