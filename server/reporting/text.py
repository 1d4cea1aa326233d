"""gcc-style text: one ``path:line:col: severity: message [rule]`` line per finding.

Editors, CI log viewers and ``grep`` already understand this shape.  The witness path follows as
indented ``note:`` lines so that a reader sees how the bug happens, step by step, in call order.
"""

from __future__ import annotations

from collections.abc import Sequence

from extractors.findings import Finding, Location
from extractors.rules import Rule
from server.reporting.summary import Summary


def position(loc: Location) -> str:
    return f"{loc.path}:{loc.start_line + 1}:{loc.start_col + 1}"


def finding_lines(f: Finding) -> list[str]:
    out = [f"{position(f.location)}: {f.severity}: {f.message} [{f.rule_id}]"]
    for i, step in enumerate(f.witness, 1):
        out.append(f"  {position(step.location)}: note: step {i}: {step.describe()}")
    return out


def render_text(findings: Sequence[Finding], rules: Sequence[Rule], summary: Summary) -> str:
    lines = [line for f in findings for line in finding_lines(f)]
    return "\n".join(lines) + ("\n" if lines else "")
