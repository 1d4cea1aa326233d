"""A worker's project (``server.check_runner.build_project``): the client's extracted project adopted
from the payload, so that a worker parses nothing and builds no model and checks what the client
checks; and a project that adopted another's export takes later edits as that one would."""

from __future__ import annotations

import gc
import pickle
import sys
from pathlib import Path

import pytest

from extractors import queries
from extractors.api import Config, Finding, Project
from server.check_runner import ONE_SHOT_STRATEGY, Texts, build_project, hand_in_headers, payload_of
from server.workspace import collect, read_sources
from tests.cli.c_project import write_project

HEADER = "#define RELEASE(p) free(p)\n"
USER = """#include <stdlib.h>
#include "release.h"

void twice(void)
{
    char *p = malloc(4);
    RELEASE(p);
    RELEASE(p);
}
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_project(tmp_path_factory.mktemp("adopt") / "proj", n=30)
    (root / "release.h").write_text(HEADER)
    (root / "user.c").write_text(USER)
    return root


def _client(root: Path) -> tuple[Project, Texts]:
    sources, problems = read_sources(collect([str(root)]))
    assert not problems
    project = Project(Config(), strategy=ONE_SHOT_STRATEGY, sweeps=False)
    for path, text in sources.items():
        project.update_file(path, text)
    texts = hand_in_headers(project, sources)
    project.call_graph()  # every model built, as a run has before it makes a payload
    return project, texts


def _witnesses(found: dict[str, list[Finding]]) -> dict[str, list[tuple[object, ...]]]:
    return {p: [f.witness for f in fs] for p, fs in found.items()}


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("the worker parsed or built")


def test_a_worker_parses_nothing_builds_no_model_and_checks_what_the_client_does(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, texts = _client(tree)
    assert any(path.endswith("release.h") for path in texts.headers)
    payload = payload_of(client, texts)
    expected = client.check()
    with monkeypatch.context() as m:
        for name, module in list(sys.modules.items()):
            if name.startswith("extractors.") and hasattr(module, "parse_c"):
                m.setattr(module, "parse_c", _refuse)
        m.setattr(queries, "build_function", _refuse)
        m.setattr(queries, "build_variants", _refuse)
        worker = build_project(payload, None)
        graph = worker.call_graph()
    try:
        assert graph == client.call_graph()
        assert worker.counters["functions_extracted"] == 0
        got = worker.check()
        assert sum(map(len, expected.values())) > 20
        assert any(f.rule_id == "double-free" for p, fs in got.items() if p.endswith("user.c") for f in fs)
        assert got == expected and _witnesses(got) == _witnesses(expected)
    finally:
        gc.unfreeze()  # build_project froze the worker's project, as a worker process does


def test_a_project_that_adopted_an_export_takes_edits_as_a_fresh_one(tree: Path) -> None:
    """A header and a source edited after adopting give what a project that read the edited texts
    from the start gives: what the edits invalidate travelled with the export."""
    client, _ = _client(tree)
    adopted = Project(Config(), strategy=ONE_SHOT_STRATEGY, sweeps=False)
    adopted.adopt(pickle.loads(pickle.dumps(client.export())))
    assert sorted(adopted.files) == sorted(client.files)
    header = next(h for h in adopted.header_paths() if h.endswith("release.h"))
    user = next(p for p in adopted.files if p.endswith("user.c"))
    adopted.set_header(header, "#define RELEASE(p) do { } while (0)\n")
    fresh, _ = _client(tree)
    fresh.set_header(header, "#define RELEASE(p) do { } while (0)\n")
    got, want = adopted.check(), fresh.check()
    assert "memory-leak" in [f.rule_id for f in got[user]]
    assert got == want and _witnesses(got) == _witnesses(want)
    fixed = USER.replace("    RELEASE(p);\n    RELEASE(p);\n", "    free(p);\n")
    adopted.update_file(user, fixed)
    fresh.update_file(user, fixed)
    got, want = adopted.check(), fresh.check()
    assert got[user] == [] and got == want and _witnesses(got) == _witnesses(want)
