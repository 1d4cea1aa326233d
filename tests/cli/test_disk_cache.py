"""The on-disk cache mapping: round trips, and damaged entries read as misses."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.disk_cache import DiskCache


def _entry_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")]


def test_round_trip_iteration_and_delete(tmp_path: Path) -> None:
    c = DiskCache(tmp_path / "c")
    assert len(c) == 0 and "k" not in c
    c["k"] = b"v1"
    c["k"] = b"v2"
    c["multi\nline|key"] = b"\x00\xff"
    assert c["k"] == b"v2"
    assert c["multi\nline|key"] == b"\x00\xff"
    assert sorted(c) == ["k", "multi\nline|key"]
    del c["k"]
    assert "k" not in c and len(c) == 1
    with pytest.raises(KeyError):
        del c["k"]
    assert not [p for p in (tmp_path / "c").rglob(".tmp-*")]


def test_entries_survive_a_new_instance(tmp_path: Path) -> None:
    DiskCache(tmp_path)["a"] = b"1"
    assert DiskCache(tmp_path)["a"] == b"1"


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],  # truncated write
        lambda b: b[:-1] + bytes([b[-1] ^ 1]),  # flipped bit in the value
        lambda b: b"garbage",  # not ours
        lambda b: b"",
    ],
)
def test_a_damaged_entry_is_a_miss_and_is_rewritten(tmp_path: Path, damage: object) -> None:
    c = DiskCache(tmp_path)
    c["key"] = b"some cached value"
    (f,) = _entry_files(tmp_path)
    f.write_bytes(damage(f.read_bytes()))  # type: ignore[operator]
    assert c.get("key") is None
    assert c.corrupt == 1
    assert list(c) == []
    c["key"] = b"fresh"
    assert c["key"] == b"fresh"


def test_an_entry_is_never_served_for_another_key(tmp_path: Path) -> None:
    c = DiskCache(tmp_path)
    c["a"] = b"A"
    c["b"] = b"B"
    by_value = {p.read_bytes()[-1:]: p for p in _entry_files(tmp_path)}
    by_value[b"B"].write_bytes(by_value[b"A"].read_bytes())  # b's file now holds a valid entry of "a"
    assert c.get("b") is None
    assert c.get("a") == b"A"


def test_a_file_where_the_folder_should_be_costs_speed_not_the_run(tmp_path: Path) -> None:
    (tmp_path / "c").write_text("not a folder")
    c = DiskCache(tmp_path / "c")
    c["k"] = b"v"
    assert c.get("k") is None
    assert list(c) == []


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.text(min_size=0, max_size=30), st.binary(max_size=64), max_size=6))
def test_behaves_like_a_dict(data: dict[str, bytes]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        c = DiskCache(d)
        for k, v in data.items():
            c[k] = v
        assert dict(c.items()) == data


def test_namespaced_view_keeps_its_keys_apart(tmp_path: Path) -> None:
    from server.disk_cache import Namespaced

    inner = DiskCache(tmp_path)
    a, b = Namespaced(inner, "v1|"), Namespaced(inner, "v2|")
    a["k"] = b"old"
    assert b.get("k") is None and list(a) == ["k"] and len(b) == 0
    b["k"] = b"new"
    assert (a["k"], b["k"]) == (b"old", b"new")
    del a["k"]
    assert "k" not in a and inner["v2|k"] == b"new"
