"""A finding's witness path, as hover markdown and as the payload of the ``ctlsp.witness`` command.

The witness is the model checker's proof that the bug can happen; showing it step by step, with the
source line of each step, is what lets a user judge a finding instead of trusting it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from extractors.findings import Finding
from server.lsp.diagnostics import LineSource, path_to_uri, to_range
from server.lsp.positions import UTF16, Columns
from server.lsp.rule_docs import rule_href

COMMAND = "ctlsp.witness"


def witness_payload(finding: Finding, lines: LineSource, columns: Columns = UTF16) -> dict[str, Any]:
    steps = []
    for step in finding.witness:
        rng = to_range(step.location, lines, columns)
        steps.append(
            {
                "uri": path_to_uri(step.location.path),
                "range": {
                    "start": {"line": rng.start.line, "character": rng.start.character},
                    "end": {"line": rng.end.line, "character": rng.end.character},
                },
                "message": step.message,
                "function": step.function,
                "stack": list(step.stack),
                "kind": step.kind,
            }
        )
    return {
        "rule": finding.rule_id,
        "message": finding.message,
        "fingerprint": finding.fingerprint,
        "steps": steps,
    }


def hover_markdown(
    finding: Finding, lines: LineSource, rule_doc: str | None = None, *, steps_shown: bool = False
) -> str:
    """The finding, its witness path with each step's source line, and the rule's documentation.

    ``steps_shown``: the client renders the diagnostic's related information, which holds the same
    steps, in the same hover (VS Code does); the steps are then named once, by the client, and the
    hover says how to see them in the editor instead of listing them again."""
    cwe = f" (CWE-{finding.cwe})" if finding.cwe else ""
    href = rule_href(finding.rule_id)
    rule = f"[{finding.rule_id}]({href})" if href else finding.rule_id
    out = [f"**ctlsp {rule}**{cwe}: {finding.message}", ""]
    if finding.witness and steps_shown:
        count = len(finding.witness)
        out.append(
            f"Witness path: the {count} step{'s' if count != 1 else ''} listed with the problem above; "
            "*Show witness* numbers them in the editor."
        )
    elif finding.witness:
        out.append("Witness path:")
        out.append("")
    for index, step in enumerate(() if steps_shown else finding.witness, start=1):
        where = f"{Path(step.location.path).name}:{step.location.start_line + 1}"
        via = " ← ".join([step.function, *reversed(step.stack)]) if step.function else ""
        out.append(f"{index}. `{where}` {step.message}" + (f" — in `{via}`" if via else ""))
        code = lines(step.location.path, step.location.start_line).strip()
        if code:
            fence = "````" if "```" in code else "```"
            out.append(f"   {fence}c\n   {code}\n   {fence}")
    if rule_doc:
        out.extend(["", "---", "", rule_doc.strip()])
    return "\n".join(out)
