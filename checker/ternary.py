"""Kleene's three truth values as small ints: the checker's arrays hold ``FF``, ``TT`` or ``UNKNOWN``.

``UNKNOWN`` means "not decided by what is known so far" (the papers' ``??``/``m``), never "both".
Ints rather than an Enum keep the inner loops of local deduction cheap.
"""

from __future__ import annotations

FF, TT, UNKNOWN = 0, 1, 2
Value = int


def t_not(a: Value) -> Value:
    return a if a == UNKNOWN else 1 - a


def t_or(a: Value, b: Value) -> Value:
    if a == TT or b == TT:
        return TT
    if a == FF and b == FF:
        return FF
    return UNKNOWN


def t_and(a: Value, b: Value) -> Value:
    if a == FF or b == FF:
        return FF
    if a == TT and b == TT:
        return TT
    return UNKNOWN


def join(a: Value, b: Value) -> Value:
    """Information meet: what two facts agree on (seed 004's join)."""
    return a if a == b else UNKNOWN


def show(v: Value) -> str:
    return ("ff", "tt", "??")[v]
