"""Language features over the findings: hover, quick fixes, the witness command and pulled
diagnostics (of a document and of the workspace).

All of them read the findings of the last check (``ls.findings``, ``ls.diagnostics``); none starts a
check itself, except that the witness command and a document pull wait for the check of the
current text so that they never answer about text the user no longer sees, and a pull of a document
just closed waits (briefly) for the re-check of its file on disk. A workspace pull never waits long:
it answers with what the checks have found, after at most a short wait for a workspace check that is
running; when one ends, the server asks the client to pull again (``workspace/diagnostic/refresh``).
"""

from __future__ import annotations

import asyncio
import traceback
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from extractors.api import NOT_CHECKED
from server.lsp.actions import disable_rule_action, rule_of, suppress_action
from server.lsp.diagnostics import path_to_uri
from server.lsp.handlers.base import Command, Feature, guarded
from server.lsp.pulled import DocumentReport, document_report, workspace_report
from server.lsp.server import CtlspServer
from server.lsp.witness import COMMAND as WITNESS_COMMAND
from server.lsp.witness import hover_markdown, witness_payload
from server.workspace import CONFIG_NAME, find_config_file, read_source


@guarded("hover")
def hover(ls: CtlspServer, params: types.HoverParams) -> types.Hover | None:
    hits = ls.findings_at(params.text_document.uri, params.position)
    if not hits:
        return None
    shown = ls.client_shows_related_information()
    parts = [hover_markdown(f, ls.line, ls.rule_doc(f.rule_id), steps_shown=shown) for f, _ in hits]
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
        range=hits[0][1].range,
    )


@guarded("codeAction", [])
def code_action(ls: CtlspServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    path = ls.path_of(uri)
    actions: list[types.CodeAction] = []
    seen: set[str] = set()
    for diagnostic in params.context.diagnostics:
        rule = rule_of(diagnostic)
        if rule is None or rule == NOT_CHECKED:  # a note about ctlsp itself: nothing to suppress
            continue
        line = diagnostic.range.start.line
        doc = ls.docs.get(uri)
        newline = doc.line_end(line) if doc is not None else "\n"
        actions.append(suppress_action(uri, diagnostic, ls.line(path, line), rule, newline))
        if rule in seen:
            continue
        seen.add(rule)
        root = ls.root_for(path)
        config_path = find_config_file(root) or root / CONFIG_NAME  # the file in effect, never shadowed
        config_doc = ls.workspace.text_documents.get(path_to_uri(str(config_path)))
        existing = config_doc.source if config_doc else read_source(config_path)
        actions.append(disable_rule_action(config_path, rule, existing, diagnostic))
    return actions


def witness_target(args: tuple[Any, ...]) -> tuple[str, types.Position | str]:
    """The command's arguments: ``[uri, line, character]`` or ``[uri, fingerprint]``."""
    usage = f"{WITNESS_COMMAND} takes [uri, line, character] or [uri, fingerprint]"
    if len(args) not in (2, 3) or not isinstance(args[0], str):
        raise JsonRpcInvalidParams(usage)
    if len(args) == 2:
        return args[0], str(args[1])
    try:
        return args[0], types.Position(int(args[1]), int(args[2]))
    except (TypeError, ValueError) as e:
        raise JsonRpcInvalidParams(f"{usage}: {e}") from e


@guarded("witness")
async def witness(ls: CtlspServer, *args: Any) -> dict[str, Any] | None:
    uri, target = witness_target(args)
    await ls.wait_checked(uri)
    if isinstance(target, types.Position):
        hits = ls.findings_at(uri, target)
        finding = hits[0][0] if hits else None
    else:
        finding = next((f for f in ls.findings.get(ls.path_of(uri), []) if f.fingerprint == target), None)
    return witness_payload(finding, ls.line, ls.columns) if finding else None


CLOSED_PULL_WAIT = 10.0  # seconds a pull of a just closed document waits for its file's re-check
WORKSPACE_PULL_WAIT = 2.0  # seconds a workspace pull waits for a workspace check that is running


@guarded("pull diagnostics", types.RelatedFullDocumentDiagnosticReport(items=[]))
async def pull_diagnostics(ls: CtlspServer, params: types.DocumentDiagnosticParams) -> DocumentReport:
    uri = params.text_document.uri
    key = path_to_uri(ls.path_of(uri))  # the uri the diagnostics are kept under
    try:
        await ls.wait_checked(uri, first=True)
        disk_check = ls.disk_checks.get(key)
        if uri not in ls.docs and disk_check is not None and not disk_check.done():
            await asyncio.wait({disk_check}, timeout=CLOSED_PULL_WAIT)
    except Exception:  # answer with the diagnostics there are rather than none
        ls.log(f"ctlsp: pull diagnostics failed:\n{traceback.format_exc()}", types.MessageType.Error)
    return document_report(ls.diagnostics.get(key, []), ls.result_ids.get(key), params.previous_result_id)


@guarded("workspace diagnostics", types.WorkspaceDiagnosticReport(items=[]))
async def pull_workspace_diagnostics(
    ls: CtlspServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    ls.workspace_pull_seen()
    try:
        await ls.settle_workspace_check(WORKSPACE_PULL_WAIT)
    except Exception:  # answer with the diagnostics there are rather than none
        ls.log(f"ctlsp: workspace diagnostics failed:\n{traceback.format_exc()}", types.MessageType.Error)
    return workspace_report(ls.diagnostics, ls.result_ids, params.previous_result_ids)


FEATURES = (
    Feature(types.TEXT_DOCUMENT_HOVER, hover),
    Feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        code_action,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    ),
    Feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        pull_diagnostics,
        types.DiagnosticOptions(identifier="ctlsp", inter_file_dependencies=True, workspace_diagnostics=True),
    ),
    Feature(types.WORKSPACE_DIAGNOSTIC, pull_workspace_diagnostics),
)
COMMANDS = (Command(WITNESS_COMMAND, witness),)
