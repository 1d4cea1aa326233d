"""The CLI checks without the knowledge base; it must report exactly what the language server does."""

from __future__ import annotations

from pathlib import Path

from extractors.api import Project

ROOT = Path(__file__).resolve().parents[2]


def _findings(strategy: str) -> list[dict[str, object]]:
    p = Project(strategy=strategy)
    paths = sorted(str(f) for f in [*(ROOT / "examples").glob("*.c"), *(ROOT / "tests/extractors/data").glob("*.c")])
    for path in paths:
        p.update_file(path, Path(path).read_text())
    found = p.check()
    return [f.to_dict() for path in paths for f in found[path]]


def test_lazy_and_kb_strategies_report_identical_findings_and_witnesses() -> None:
    kb = _findings("kb")
    assert kb, "the examples are meant to have findings"
    assert _findings("lazy") == kb
