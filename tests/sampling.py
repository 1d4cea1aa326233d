"""Sweeps over a whole collection (every twin of the detection corpus, say) in the fast tier.

A sweep that checks a property on every case runs in full in the whole suite (what CI runs); the
fast tier (``pytest -m "not slow"``) runs every ``EVERY``-th case of it, a fixed choice spread over
the collection, so a developer's quick run still meets each kind of case without paying for all.
``EVERY`` is odd, so that of collections of pairs (a bad and a fixed twin) both halves are run.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

EVERY = 5


def fast_sample(params: Iterable[Any], every: int = EVERY) -> list[Any]:
    """``params`` (values or ``pytest.param``s) with all but every ``every``-th marked slow."""
    out: list[Any] = []
    for i, p in enumerate(params):
        param = p if hasattr(p, "marks") else pytest.param(p)
        if i % every:
            param = pytest.param(*param.values, marks=(*param.marks, pytest.mark.slow), id=param.id)
        out.append(param)
    return out
