"""What a check reports: findings with their witness paths, independent of any output format.

These are plain frozen values so that the CLI (text, SARIF, JSON), the language server and the disk
cache can all consume them without knowing how they were found.  Lines and columns are 0-based;
columns count characters (code points) of the line, not bytes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, order=True)
class Location:
    path: str
    start_line: int
    start_col: int
    end_line: int
    end_col: int


NOT_CHECKED = "not-checked"  # the code under which a function ctlsp could not model is shown


@dataclass(frozen=True)
class Unmodelled:
    """A function ctlsp could not model, so none of its values was checked.

    Shown to the user (a note from the CLI, an information diagnostic in the editor) rather than
    skipped in silence: a clean report must mean the code was checked."""

    function: str
    location: Location
    reason: str

    @property
    def message(self) -> str:
        return f"'{self.function}' was not checked: {self.reason}"


@dataclass(frozen=True)
class WitnessStep:
    """One step of the path that proves a finding.

    ``function`` is the C function the step is in; ``stack`` the chain of calling functions from the
    checked function down to (not including) ``function``; ``kind`` is one of "event" (the step's
    message names an event such as allocation or free), "branch", "call", "return", "end", "loop"
    (the path goes around a loop: at the loop's test or a ``for``'s increment, "next iteration").
    """

    location: Location
    message: str
    function: str
    stack: tuple[str, ...] = ()
    kind: str = "event"

    def describe(self) -> str:
        """The step's message, with the calls that lead to it when it is inside a callee:
        ``'buf' freed here (in release, called from finish)``; every output format says it so."""
        if not self.stack:
            return self.message
        callers = ", called from ".join(reversed(self.stack))
        return f"{self.message} (in {self.function}, called from {callers})"


@dataclass(frozen=True)
class Finding:
    rule_id: str
    severity: Severity
    message: str
    location: Location
    function: str
    witness: tuple[WitnessStep, ...] = ()
    cwe: int | None = None
    fingerprint: str = field(default="", compare=False)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Finding:
        loc = Location(**d["location"])
        steps = tuple(
            WitnessStep(Location(**s["location"]), s["message"], s["function"], tuple(s["stack"]), s["kind"])
            for s in d["witness"]
        )
        return Finding(
            d["rule_id"], d["severity"], d["message"], loc, d["function"], steps, d["cwe"], d["fingerprint"]
        )
