"""ctlsp on one corpus twin, through its public front door: ``ctlsp check --format json`` (run in this
process, so the whole corpus takes seconds, not a Python start-up per twin)."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

from server import cli_check
from tests.corpus_test.scoring import Report, Unit


def check_json(targets: list[Path], *extra: str) -> dict[str, object]:
    """The JSON document of ``ctlsp check TARGET... --format json --no-cache`` (exit 0 or 1, else raises)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        argv = [*map(str, targets), "--format", "json", "--no-cache", "--no-progress", "--output", str(out), *extra]
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = cli_check.main(argv)
        if code not in (0, 1):
            raise RuntimeError(f"ctlsp check {' '.join(argv)} exited {code}: {err.getvalue().strip()}")
        doc: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
        return doc


def ctlsp_reports(unit: Unit, *extra: str) -> list[Report]:
    """ctlsp's findings on one twin, as corpus reports (lines from 1, files relative to the twin)."""
    doc = check_json([unit.target], *extra)
    findings = doc["findings"]
    assert isinstance(findings, list)
    return [
        Report(unit.relative(f["location"]["path"]), f["location"]["start_line"] + 1, f["rule_id"], f["message"])
        for f in findings
    ]
