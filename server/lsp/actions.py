"""Quick fixes for ctlsp diagnostics, always as WorkspaceEdits the user accepts.

The server never writes files itself: suppressing a finding or disabling a rule is a change the user
sees and can undo, so both are expressed as edits for the client to apply.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from server.lsp.diagnostics import SOURCE, path_to_uri
from server.workspace import PYPROJECT, PYPROJECT_PREFIX

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def rule_of(diagnostic: types.Diagnostic) -> str | None:
    if diagnostic.source != SOURCE:
        return None
    data = diagnostic.data
    if isinstance(data, dict) and isinstance(data.get("rule"), str):
        return str(data["rule"])
    return str(diagnostic.code) if diagnostic.code is not None else None


def suppress_action(
    uri: str, diagnostic: types.Diagnostic, line_text: str, rule: str, newline: str = "\n"
) -> types.CodeAction:
    """Insert ``// ctlsp-ignore[RULE]`` on its own line above the finding, indented like it and ended
    by ``newline``, the file's own line end."""
    line = diagnostic.range.start.line
    indent = line_text[: len(line_text) - len(line_text.lstrip())]
    edit = types.TextEdit(
        range=types.Range(types.Position(line, 0), types.Position(line, 0)),
        new_text=f"{indent}// ctlsp-ignore[{rule}]{newline}",
    )
    return types.CodeAction(
        title=f"Suppress {rule} on this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=True,  # the narrowest fix: this finding only
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def _table_key(rule: str) -> str:
    return rule if _BARE_KEY.match(rule) else '"' + rule.replace("\\", "\\\\").replace('"', '\\"') + '"'


def disable_edit(existing: str | None, rule: str, prefix: str = "") -> tuple[types.Range, str]:
    """The text edit turning ``rule`` off in a ctlsp.toml whose current text is ``existing``
    (in a pyproject.toml with ``prefix`` :data:`~server.workspace.PYPROJECT_PREFIX`)."""
    header = f"[{prefix}rules.{_table_key(rule)}]"
    if existing is None or not existing.strip():
        return types.Range(types.Position(0, 0), types.Position(0, 0)), f"{header}\nenabled = false\n"
    lines = existing.split("\n")
    dotted = r"\s*\.\s*".join(re.escape(part) for part in [*prefix.split(".")[:-1], "rules", _table_key(rule)])
    header_re = re.compile(r"^\s*\[\s*" + dotted + r"\s*\]\s*(#.*)?$")
    for index, text in enumerate(lines):
        if not header_re.match(text):
            continue
        for j in range(index + 1, len(lines)):
            if lines[j].lstrip().startswith("["):
                break
            if re.match(r"^\s*enabled\s*=", lines[j]):
                rng = types.Range(types.Position(j, 0), types.Position(j, len(lines[j])))
                return rng, "enabled = false"
        end = types.Position(index, len(text))
        return types.Range(end, end), "\nenabled = false"
    last = len(lines) - 1
    end = types.Position(last, len(lines[last]))
    prefix = "" if lines[last] == "" else "\n"
    if last > 0 and lines[last] == "" and lines[last - 1].strip():
        prefix = "\n"
    return types.Range(end, end), f"{prefix}{header}\nenabled = false\n"


def disable_rule_action(
    config: Path, rule: str, existing: str | None, diagnostic: types.Diagnostic
) -> types.CodeAction:
    """Edit the configuration file ``config`` (a ctlsp.toml, created when ``existing`` is None, or
    a pyproject.toml's ``[tool.ctlsp]``) so that ``rule`` is disabled."""
    uri = path_to_uri(str(config))
    rng, text = disable_edit(existing, rule, PYPROJECT_PREFIX if config.name == PYPROJECT else "")
    changes: list[types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile] = []
    if existing is None:
        changes.append(
            types.CreateFile(uri=uri, options=types.CreateFileOptions(overwrite=False, ignore_if_exists=True))
        )
    changes.append(
        types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None),
            edits=[types.TextEdit(range=rng, new_text=text)],
        )
    )
    return types.CodeAction(
        title=f"Disable rule {rule} in {config.name}",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(document_changes=changes),
    )
