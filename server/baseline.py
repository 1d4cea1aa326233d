"""Baselines: accept today's findings so that CI fails only on new ones.

A baseline stores, per finding, the rule id, the file (relative to the baseline file, so the
baseline can be committed and used from any working directory) and the front end's fingerprint,
which has no line numbers: findings survive unrelated edits that move code.  Matching counts
occurrences, so a second identical bug in the same function is still reported.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from extractors.findings import Finding

FORMAT = "ctlsp-baseline"
VERSION = 1

BaselineKey = tuple[str, str, str]
_KEYS = ("rule_id", "path", "fingerprint")


class BaselineError(ValueError):
    """A baseline file that cannot be read; the message names the file."""


def fingerprint_of(finding: Finding) -> str:
    """The front end's fingerprint, or a line-free stand-in for findings that lack one."""
    if finding.fingerprint:
        return finding.fingerprint
    text = "|".join([finding.rule_id, finding.function, finding.message])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _relpath(path: str, base: Path) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(path), base.resolve())
    except ValueError:  # another drive on Windows
        rel = os.path.abspath(path)
    return Path(rel).as_posix()


def key_of(finding: Finding, base: Path) -> BaselineKey:
    return (finding.rule_id, _relpath(finding.location.path, base), fingerprint_of(finding))


def write_baseline(path: Path, findings: Iterable[Finding]) -> int:
    """Write the baseline of ``findings`` to ``path``; returns how many entries it holds."""
    base = path.parent
    entries = sorted(
        (
            {"rule_id": r, "path": p, "fingerprint": fp, "function": f.function, "message": f.message}
            for f in findings
            for r, p, fp in [key_of(f, base)]
        ),
        key=lambda e: (e["path"], e["rule_id"], e["fingerprint"], e["function"], e["message"]),
    )
    doc = {"format": FORMAT, "version": VERSION, "findings": entries}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return len(entries)


def read_baseline(path: Path) -> Counter[BaselineKey]:
    """The multiset of baselined findings; raises :class:`BaselineError` with a one-line reason."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise BaselineError(f"{path}: cannot read baseline: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        line = getattr(e, "lineno", 0)
        where = f"{path}:{line}" if line else str(path)
        raise BaselineError(f"{where}: not a ctlsp baseline (invalid JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"{path}: not a ctlsp baseline (write one with --write-baseline)")
    if doc.get("version") != VERSION:
        raise BaselineError(f"{path}: unsupported baseline version {doc.get('version')!r}")
    out: Counter[BaselineKey] = Counter()
    for i, entry in enumerate(doc["findings"]):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in _KEYS):
            raise BaselineError(f"{path}: entry {i} lacks rule_id, path or fingerprint")
        out[(entry["rule_id"], entry["path"], entry["fingerprint"])] += 1
    return out


def apply_baseline(
    findings: Iterable[Finding], baseline: Counter[BaselineKey], base: Path
) -> tuple[list[Finding], int]:
    """Findings not covered by ``baseline`` (in order) and the number hidden."""
    left = Counter(baseline)
    kept: list[Finding] = []
    hidden = 0
    for f in findings:
        k = key_of(f, base)
        if left[k] > 0:
            left[k] -= 1
            hidden += 1
        else:
            kept.append(f)
    return kept, hidden
