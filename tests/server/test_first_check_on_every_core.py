"""A file shown for the first time with many functions has its models built by forked copies of
the checker process as well (``Analysis._build_on_every_core``): the findings and witnesses are
those of building every model in one process, and the copies' models are the ones the check took."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from extractors.api import Config
from server import parallel_extraction
from server.lsp import analysis as analysis_module
from server.lsp.analysis import Analysis
from server.parallel_extraction import fork_workers


def _source(n: int) -> str:
    """``n`` functions, every third one leaking on the path through its call of the one before."""
    parts = ["#include <stdlib.h>\n"]
    for i in range(n):
        if i % 3 == 0:
            callee = f"f{i - 1}(x - 1)" if i else "x"
            parts.append(
                f"int f{i}(int x) {{\n  char *p = malloc(8);\n  if (!p) return 0;\n"
                f"  if (x > 2) return {callee};\n  free(p);\n  return 0;\n}}\n\n"
            )
        else:
            parts.append(f"int f{i}(int x) {{\n  return x + {i};\n}}\n\n")
    return "".join(parts)


@pytest.mark.skipif(not fork_workers(), reason="building on several cores forks")
def test_a_file_shown_first_is_modelled_on_every_core_with_the_same_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, text = str(tmp_path / "many.c"), _source(150)
    alone = Analysis(Config())
    expected = alone.check_file_sync(path, text, lambda: True, early=True)  # 150 < MIN_FUNCTIONS: one process
    monkeypatch.setattr(parallel_extraction, "MIN_FUNCTIONS", 50)
    monkeypatch.setattr(analysis_module, "default_jobs", lambda: 2)
    handed: list[int] = []
    real = analysis_module.extract_in_parallel

    def counted(project: Any, workers: int, keys: Any = None) -> list[str]:
        problems = real(project, workers, keys)
        handed.append(len(project.db.handed))
        return problems

    monkeypatch.setattr(analysis_module, "extract_in_parallel", counted)
    together = Analysis(Config())
    got = together.check_file_sync(path, text, lambda: True, early=True)
    assert handed and handed[0] > 0  # the copy's share came back ...
    assert not together.project.db.handed  # ... and the check took every model of it
    assert expected is not None and got is not None
    found = expected.findings[path]
    assert sum(f.rule_id == "memory-leak" for f in found) >= 40
    assert got.findings == expected.findings
    assert [f.witness for f in got.findings[path]] == [f.witness for f in found]
    # an edit afterwards is an edit as ever: no copies for a few changed functions
    edited = text.replace("return x + 4;", "return x + 5;")
    handed.clear()
    again = together.check_file_sync(path, edited, lambda: True)
    assert handed == [] and again is not None and again.changed_functions == ("f4",)


@pytest.mark.skipif(not fork_workers(), reason="reading on several cores forks")
def test_a_file_shown_first_has_its_pieces_read_on_every_core_with_the_same_items(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copies' pieces are handed in and taken by the reading of the file's items, which is the
    one a single process reads (the items, and so the findings and witnesses), with the trees of
    this process's share kept for its models; an edit afterwards reads its pieces here."""
    from extractors.queries import file_items

    path = str(tmp_path / "many.c")
    text = _source(150).replace("#include <stdlib.h>\n", "#include <stdlib.h>\nBROKEN(x)\n")  # a piece with errors
    alone = Analysis(Config())
    expected = alone.check_file_sync(path, text, lambda: True, early=True)
    monkeypatch.setattr(parallel_extraction, "MIN_PIECES", 20)
    monkeypatch.setattr(analysis_module, "default_jobs", lambda: 2)
    handed: list[int] = []
    trees: list[int] = []
    real = analysis_module.read_in_parallel

    def counted(project: Any, path: str, workers: int) -> list[str]:
        problems = real(project, path, workers)
        handed.append(len(project.db.handed_parts))
        trees.append(len(project.db.early_parsed.get(path, {})))
        return problems

    monkeypatch.setattr(analysis_module, "read_in_parallel", counted)
    together = Analysis(Config())
    got = together.check_file_sync(path, text, lambda: True, early=True)
    assert handed and handed[0] > 20  # the copy's share came back ...
    assert not together.project.db.handed_parts  # ... and the file's reading took all of it
    assert 0 < trees[0] < 150  # the trees of this process's share, kept for its models
    with together.project.db.snapshot(), alone.project.db.snapshot():
        assert together.project.db.get(file_items, path) == alone.project.db.get(file_items, path)
    assert expected is not None and got is not None
    assert got.findings == expected.findings
    assert [f.witness for f in got.findings[path]] == [f.witness for f in expected.findings[path]]
    edited = text.replace("return x + 4;", "return x + 5;")
    handed.clear()
    again = together.check_file_sync(path, edited, lambda: True)
    assert handed == [] and again is not None and again.changed_functions == ("f4",)
