"""Renderers of ``ctlsp check`` results: gcc-style text, SARIF 2.1.0 and JSON.

Each renderer is a pure function of the findings, the rule catalogue and the run summary, so the
formats can be tested without running a check and new formats do not touch the runner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from extractors.findings import Finding
from extractors.rules import Rule
from server.reporting.json_report import render_json
from server.reporting.sarif import render_sarif
from server.reporting.summary import Summary
from server.reporting.text import render_text

Renderer = Callable[[Sequence[Finding], Sequence[Rule], Summary], str]

RENDERERS: dict[str, Renderer] = {"text": render_text, "sarif": render_sarif, "json": render_json}

__all__ = ["RENDERERS", "Renderer", "Summary", "render_json", "render_sarif", "render_text"]
