"""Suppression comments: ``// ctlsp-ignore[RULE-ID, ...]`` or ``/* ctlsp-ignore */`` (all rules).

A comment silences findings reported on its own line or on the line below it, which is how people
write them above the offending statement.
"""

from __future__ import annotations

import re

_IGNORE = re.compile(r"(?://|/\*).*?ctlsp-ignore(?:\[([^\]]*)\])?")
ALL = "*"


def suppressions(text: str) -> dict[int, frozenset[str]]:
    """0-based line -> rule ids silenced there (``ALL`` for every rule)."""
    out: dict[int, set[str]] = {}
    if "ctlsp-ignore" not in text:
        return {}
    for i, line in enumerate(text.splitlines()):
        for m in _IGNORE.finditer(line):
            ids = {s.strip() for s in m.group(1).split(",") if s.strip()} if m.group(1) is not None else {ALL}
            for target in (i, i + 1):
                out.setdefault(target, set()).update(ids)
    return {k: frozenset(v) for k, v in out.items()}


def suppressed(table: dict[int, frozenset[str]], line: int, rule_id: str) -> bool:
    ids = table.get(line)
    return ids is not None and (ALL in ids or rule_id in ids)
