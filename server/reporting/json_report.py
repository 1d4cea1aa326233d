"""JSON output: the findings exactly as :meth:`Finding.to_dict` gives them, plus the summary.

Scripts get the same values the language server uses, and :meth:`Finding.from_dict` reads them
back unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from extractors.findings import Finding
from extractors.rules import Rule
from server.reporting.summary import Summary

VERSION = 1


def render_json(findings: Sequence[Finding], rules: Sequence[Rule], summary: Summary) -> str:
    doc = {
        "version": VERSION,
        "findings": [f.to_dict() for f in findings],
        "summary": summary.to_dict(findings),
    }
    return json.dumps(doc, indent=2) + "\n"
