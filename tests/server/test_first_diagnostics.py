"""Witness refutation runs after the first diagnostics are out (issue #14), in a real server.

A file not shown yet is checked in two steps (``Project.check(early=...)``): first the findings
whose refutation is known (cached, cheap, or within the partial-results interval of solving) are
published, then the others once the solver has decided them. The first diagnostics therefore
arrive before the solver has run, none of them is ever one that refutation removes, and the last
publication is what ``ctlsp check`` reports.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.cli.helpers import run_subprocess
from tests.extractors.test_first_pass import SOURCE
from tests.server.lsp_helpers import diagnostics, open_doc, start


async def test_the_first_diagnostics_come_before_refutation_and_the_last_are_the_clis(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "a.c"
    path.write_text(SOURCE)
    uri = path.as_uri()
    seen: list[list[tuple[str, int]]] = []
    features = client.protocol.fm.features  # record every publication, then let the client keep it
    record = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def published(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri:
            seen.append(sorted((str(d.code), d.range.start.line) for d in params.diagnostics))
        record(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = published

    cli = run_subprocess(str(path), "--no-cache", "--format", "json")
    expected = sorted((f["rule_id"], f["location"]["start_line"]) for f in cli.json()["findings"])
    # pack_bad's double free (the solver keeps it) and twice's (cheap: no local for the solver);
    # pack's double free (line 21) is on a path the solver rules out
    assert cli.code == 1 and expected == [("double-free", 11), ("double-free", 28)]

    # partial results at once: the first step may refute nothing that is not cheap or cached
    await start(client, tmp_path, settings={"debounceMs": 0, "partialResultsMs": 0})
    open_doc(client, path)
    await diagnostics(
        client, uri, lambda ds: sorted((str(d.code), d.range.start.line) for d in ds) == expected, "the CLI's findings"
    )
    # first twice's, which refutation has nothing to do for, though pack_bad comes first in the file
    # (a check that refutes as it goes shows pack_bad's first, once the solver has decided it)
    assert seen[0] == [("double-free", 28)], seen
    assert all(set(s) <= set(expected) for s in seen), seen  # never pack's refuted double free
    assert seen[-1] == expected
