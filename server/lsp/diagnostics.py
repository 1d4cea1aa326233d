"""Findings as LSP diagnostics: range, severity, rule code and link, witness as related information.

Findings count columns in code points; the client counts UTF-16 units, so every location goes through
a ``LineSource`` that can give the text of any line of any file (open buffer first, disk otherwise).
"""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types
from pygls import uris

from extractors.findings import Finding, Location
from server.lsp.positions import UTF16, Columns
from server.lsp.rule_docs import rule_href

LineSource = Callable[[str, int], str]
SOURCE = "ctlsp"

# findings about code that does nothing: shown greyed out
UNNECESSARY = frozenset({"dead-store", "unreachable-code", "unused-variable", "unused-parameter"})

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


def path_to_uri(path: str) -> str:
    return uris.from_fs_path(path) or path


def to_range(location: Location, lines: LineSource, columns: Columns = UTF16) -> types.Range:
    start_line = max(location.start_line, 0)
    end_line = max(location.end_line, start_line)
    start = columns.from_codepoints(lines(location.path, start_line), location.start_col)
    end = columns.from_codepoints(lines(location.path, end_line), location.end_col)
    if end_line == start_line and end < start:
        end = start
    return types.Range(types.Position(start_line, start), types.Position(end_line, end))


def to_diagnostic(finding: Finding, lines: LineSource, columns: Columns = UTF16) -> types.Diagnostic:
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=path_to_uri(step.location.path), range=to_range(step.location, lines, columns)
            ),
            message=f"{index}. {step.describe()}",
        )
        for index, step in enumerate(finding.witness, start=1)
    ]
    href = rule_href(finding.rule_id)
    return types.Diagnostic(
        range=to_range(finding.location, lines, columns),
        severity=_SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.rule_id,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        message=finding.message,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if finding.rule_id in UNNECESSARY else None,
        data={"fingerprint": finding.fingerprint, "rule": finding.rule_id},
    )


def contains(rng: types.Range, position: types.Position) -> bool:
    start = (rng.start.line, rng.start.character)
    end = (rng.end.line, rng.end.character)
    return start <= (position.line, position.character) <= end
