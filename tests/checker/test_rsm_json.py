"""Loading the JSON RSM format, CTL files and benchmark zips; bad files give a clear message."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from checker.ctl import parse
from checker.model import ModelError
from checker.rsm_json import load_ctl, load_rsm, rsm_from_json
from tests.checker import models
from tests.checker.conftest import bench_file


def _good() -> dict[str, Any]:
    return {
        "initial_component": "A",
        "initial_node": "a0",
        "components": [
            {
                "name": "A",
                "nodes": [
                    {"name": "a0", "is_entry": True, "is_exit": False, "labels": ["p"]},
                    {"name": "a1", "is_entry": False, "is_exit": True, "labels": []},
                ],
                "boxes": [{"name": "b", "component": "B", "call_nodes": ["b0"], "return_nodes": ["b1"]}],
                "transitions": [
                    {
                        "source": {"type": "node", "node": "a0"},
                        "targets": [{"type": "box_node", "box_name": "b", "node_name": "b0"}],
                    },
                    {
                        "source": {"type": "box_node", "box_name": "b", "node_name": "b1"},
                        "targets": [{"type": "node", "name": "a1"}],
                    },
                ],
            },
            {
                "name": "B",
                "nodes": [
                    {"name": "b0", "is_entry": True, "is_exit": False, "labels": ["q"]},
                    {"name": "b1", "is_entry": False, "is_exit": True, "labels": []},
                ],
                "boxes": [],
                "transitions": [
                    {"source": {"type": "node", "name": "b0"}, "targets": [{"type": "node", "name": "b1"}]}
                ],
            },
        ],
    }


def test_loads_both_node_reference_spellings(tmp_path: Path) -> None:
    path = tmp_path / "m.rsm"
    path.write_text(json.dumps(_good()))
    m = load_rsm(path)
    assert m.component("A").edges == (("a0", ("b", "b0")), (("b", "b1"), "a1"))
    assert m.component("B").node("b0").labels == frozenset({"q"})


def test_json_round_trip_keeps_digests() -> None:
    m = models.t2_journal()
    again = rsm_from_json(json.loads(json.dumps(m.to_json())))
    assert again.deep_digests == m.deep_digests


def _broken(path: list[Any], value: Any) -> dict[str, Any]:
    data = _good()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_broken(["initial_component"], KeyError), "missing field 'initial_component'"),
        (_broken(["components"], {}), "field 'components' must be a list"),
        (_broken(["components", 0, "nodes", 0, "name"], 3), "node #0: field 'name' must be a str"),
        (
            _broken(["components", 0, "transitions", 0, "source", "type"], "edge"),
            "reference type must be 'node' or 'box_node'",
        ),
        (
            _broken(["components", 0, "transitions", 0, "targets", 0], {"type": "box_node", "box_name": "b"}),
            "needs 'box_name' and 'node_name'",
        ),
        (_broken(["components", 0, "boxes", 0, "component"], "Z"), "unknown component 'Z'"),
        (_broken(["components", 0, "boxes", 0, "call_nodes"], ["b1"]), "'b1' is not an entry"),
        (_broken(["components", 0, "nodes", 0, "labels"], "p"), "expected a list of names"),
        (_broken(["initial_node"], "a1"), "not an entry"),
        ([1, 2], "top level must be an object"),
    ],
)
def test_bad_model_messages(tmp_path: Path, data: Any, message: str) -> None:
    path = tmp_path / "bad.rsm"
    path.write_text(json.dumps(data))
    with pytest.raises(ModelError, match=message) as info:
        load_rsm(path)
    assert str(path) in str(info.value)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot read"):
        load_rsm(tmp_path / "missing.rsm")
    (tmp_path / "x.rsm").write_text("{not json")
    with pytest.raises(ModelError, match="not valid JSON"):
        load_rsm(tmp_path / "x.rsm")
    (tmp_path / "y.zip").write_text("not a zip")
    with pytest.raises(ModelError, match="cannot read"):
        load_rsm(tmp_path / "y.zip")
    with zipfile.ZipFile(tmp_path / "z.zip", "w") as zf:
        zf.writestr("readme.txt", "nothing")
    with pytest.raises(ModelError, match=r"no \*\.rsm member"):
        load_rsm(tmp_path / "z.zip")


def test_zip_members_and_ctl(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "m.zip", "w") as zf:
        zf.writestr("m.rsm", json.dumps(_good()))
        zf.writestr("m_single_usedef.ctl", "# one\nA G p\n")
        zf.writestr("m_usedef.ctl", "A G p\nE F q\n")
    assert load_rsm(tmp_path / "m.zip").initial_node == "a0"
    assert load_ctl(tmp_path / "m.zip") == [(2, parse("A G p"))]
    assert [f for _, f in load_ctl(tmp_path / "m.zip", "usedef")] == [parse("A G p"), parse("E F q")]
    (tmp_path / "bad.ctl").write_text("A G p\nE (p U\n")
    with pytest.raises(ValueError, match=r"bad\.ctl: column .* on line 2"):
        load_ctl(tmp_path / "bad.ctl")


@pytest.mark.parametrize(
    ("name", "sizes"),
    [
        ("dataflow.zip", (3, 17, 2, 16)),
        ("avroraReg.zip", (173, 3375, 699, 5524)),
        ("avroraMedTest.zip", (238, 4710, 963, 7323)),
        ("avroraELF.zip", (248, 5927, 1166, 9145)),
        ("fop2pdf.zip", (607, 16281, 4982, 32234)),
        ("dom2pdf.zip", (615, 17064, 5278, 33890)),
    ],
)
def test_benchmarks_load_with_published_sizes(name: str, sizes: tuple[int, int, int, int]) -> None:
    m = load_rsm(bench_file(name))
    got = (
        len(m.components),
        sum(len(c.nodes) for c in m.components),
        sum(len(c.boxes) for c in m.components),
        sum(len(c.edges) for c in m.components),
    )
    assert got == sizes
    assert len(load_ctl(bench_file(name))) >= 1
