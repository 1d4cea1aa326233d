"""What a ``ctlsp check`` run did, reported next to the findings in every format."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from extractors.findings import Finding, Unmodelled

NAMED = 10  # functions not checked named on the --stats line; the JSON summary names them all


@dataclass(frozen=True)
class Summary:
    files: int = 0
    files_checked: int = 0
    files_reused: int = 0
    baselined: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    not_checked: tuple[Unmodelled, ...] = ()  # functions that could not be modelled

    def to_dict(self, findings: Sequence[Finding]) -> dict[str, Any]:
        by_sev = Counter(f.severity for f in findings)
        return {
            "findings": len(findings),
            "errors": by_sev["error"],
            "warnings": by_sev["warning"],
            "infos": by_sev["info"],
            "files": self.files,
            "files_with_findings": len({f.location.path for f in findings}),
            "files_checked": self.files_checked,
            "files_reused": self.files_reused,
            "baselined": self.baselined,
            "counters": dict(sorted(self.counters.items())),
            "functions_not_checked_count": len(self.not_checked),
            "functions_not_checked": [
                {"function": u.function, "location": asdict(u.location), "reason": u.reason}
                for u in self.not_checked
            ],
        }

    def line(self, findings: Sequence[Finding], verbose: bool = False) -> str:
        """One human line for stderr; with ``verbose`` also what was checked versus reused."""
        d = self.to_dict(findings)
        parts = []
        for key, word in (("errors", "error"), ("warnings", "warning"), ("infos", "info")):
            if d[key]:
                parts.append(f"{d[key]} {word}{'s' if d[key] != 1 and word != 'info' else ''}")
        n = d["findings"]
        head = f"ctlsp: {n} finding{'s' if n != 1 else ''}"
        if parts:
            head += f" ({', '.join(parts)})"
        head += f" in {d['files_with_findings']} of {self.files} file{'s' if self.files != 1 else ''}"
        if self.baselined:
            head += f"; {self.baselined} hidden by the baseline"
        if self.not_checked:
            k = len(self.not_checked)
            head += f"; {k} function{'s' if k != 1 else ''} could not be checked (see the notes)"
        if verbose:
            c = self.counters
            head += f"; files checked {self.files_checked}, reused {self.files_reused}"
            head += f"; model checks run {c.get('checks_run', 0)}, reused {c.get('checks_reused', 0)}"
            head += f", ruled out by the bound {c.get('checks_bounded', 0)}"
            head += f"; functions extracted {c.get('functions_extracted', 0)}"
            head += f"; workers {c.get('workers', 1)}"
            head += f"; functions not checked {len(self.not_checked)}"
            if self.not_checked:
                names = [u.function for u in self.not_checked[:NAMED]]
                more = len(self.not_checked) - len(names)
                head += f" ({', '.join(names)}{f', and {more} more' if more else ''})"
        return head
