"""Finding -> Diagnostic / hover / witness payload, with columns converted for the client's encoding."""

from __future__ import annotations

from lsprotocol import types

from extractors.findings import Finding, Location, WitnessStep
from server.lsp.diagnostics import to_diagnostic
from server.lsp.positions import Columns
from server.lsp.witness import hover_markdown, witness_payload

LINES = {
    0: "/* 𝄞 */ char *p = malloc(4);",
    1: "if (é) return;",
}


def line(path: str, number: int) -> str:
    assert path == "/w/a.c"
    return LINES.get(number, "")


def finding() -> Finding:
    alloc = Location("/w/a.c", 0, 8, 0, 28)
    end = Location("/w/a.c", 1, 7, 1, 14)
    steps = (
        WitnessStep(alloc, "memory allocated to 'p' here", "f"),
        WitnessStep(end, "returns without freeing 'p'", "g", ("f",), "end"),
    )
    return Finding("memory-leak", "warning", "leak of 'p'", alloc, "f", steps, 401, "fp1")


def test_columns_follow_the_negotiated_encoding() -> None:
    d16 = to_diagnostic(finding(), line)
    # 𝄞 is one code point but two UTF-16 units and four UTF-8 bytes.
    assert d16.range == types.Range(types.Position(0, 9), types.Position(0, 29))
    d8 = to_diagnostic(finding(), line, Columns("utf-8"))
    assert d8.range.start.character == 11
    assert d8.related_information and d8.related_information[1].location.range.start.character == 8
    d32 = to_diagnostic(finding(), line, Columns("utf-32"))
    assert d32.range.start.character == 8


def test_diagnostic_fields() -> None:
    d = to_diagnostic(finding(), line)
    assert (d.code, d.source, d.severity) == ("memory-leak", "ctlsp", types.DiagnosticSeverity.Warning)
    assert d.data == {"fingerprint": "fp1", "rule": "memory-leak"}
    assert d.code_description and d.code_description.href.endswith("/server/lsp/docs/memory-leak.md")
    assert d.related_information and [r.message for r in d.related_information] == [
        "1. memory allocated to 'p' here",
        "2. returns without freeing 'p' (in g, called from f)",  # the call stack, as the CLI says it
    ]
    assert d.tags is None


def test_dead_stores_are_greyed_out() -> None:
    f = finding()
    dead = Finding("dead-store", "info", "value assigned to 'p' is never read", f.location, "f", f.witness[:1])
    assert to_diagnostic(dead, line).tags == [types.DiagnosticTag.Unnecessary]


def test_hover_and_witness_payload() -> None:
    text = hover_markdown(finding(), line, "Rule documentation.")
    assert "(CWE-401)" in text and "1. `a.c:1` memory allocated" in text
    assert "2. `a.c:2` returns without freeing 'p' — in `g ← f`" in text
    assert "   if (é) return;" in text and text.endswith("Rule documentation.")
    shown = hover_markdown(finding(), line, "Rule documentation.", steps_shown=True)
    assert "the 2 steps listed" in shown and "memory allocated" not in shown and "if (é)" not in shown
    assert shown.startswith("**ctlsp [memory-leak]") and shown.endswith("Rule documentation.")
    payload = witness_payload(finding(), line)
    assert payload["rule"] == "memory-leak" and payload["fingerprint"] == "fp1"
    assert payload["steps"][1] == {
        "uri": "file:///w/a.c",
        "range": {"start": {"line": 1, "character": 7}, "end": {"line": 1, "character": 14}},
        "message": "returns without freeing 'p'",
        "function": "g",
        "stack": ["f"],
        "kind": "end",
    }


def test_a_publication_the_client_has_is_not_sent_again() -> None:
    """Pushing the same diagnostics for the same version twice (a partial result equal to the final
    one, a workspace chunk that changed nothing) sends them once; a change, or a closed and reopened
    document, sends again."""
    from server.lsp.server import CtlspServer

    server = CtlspServer()
    sent: list[types.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = sent.append  # type: ignore[method-assign]
    server.line = line  # type: ignore[method-assign]
    server.publish("/w/a.c", [finding()])
    server.publish("/w/a.c", [finding()])
    assert len(sent) == 1
    server.publish("/w/a.c", [])
    assert len(sent) == 2 and sent[-1].diagnostics == []
    server.publish("/w/a.c", [finding()])
    server.forget(sent[-1].uri)
    server.publish("/w/a.c", [finding()])
    assert len(sent) == 4
