"""Which files a folder argument expands to."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.check_files import PathError, collect, read_sources


def _touch(root: Path, *names: str) -> None:
    for n in names:
        p = root / n
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("int x;\n")


def test_folders_give_c_sources_and_headers_skipping_hidden_and_build_dirs(tmp_path: Path) -> None:
    _touch(
        tmp_path,
        "a.c",
        "inc/a.h",
        "notes.txt",
        "sub/deep/b.c",
        ".git/x.c",
        ".ctlsp-cache/y.c",
        "build/gen.c",
        "cmake-build-debug/z.c",
        "node_modules/m.c",
        ".hidden.c",
    )
    got = collect([str(tmp_path)])
    rel = [Path(p).relative_to(tmp_path).as_posix() for p in got]
    assert rel == ["a.c", "inc/a.h", "sub/deep/b.c"]


def test_explicit_files_are_kept_whatever_their_name_and_each_file_once(tmp_path: Path) -> None:
    _touch(tmp_path, "a.c", "weird.inc")
    got = collect([str(tmp_path / "weird.inc"), str(tmp_path), str(tmp_path / "a.c")])
    assert [Path(p).name for p in got] == ["weird.inc", "a.c"]


def test_missing_path_is_a_path_error(tmp_path: Path) -> None:
    with pytest.raises(PathError, match="no such file or folder"):
        collect([str(tmp_path / "nope")])


def test_undecodable_bytes_do_not_stop_reading(tmp_path: Path) -> None:
    p = tmp_path / "latin1.c"
    p.write_bytes(b"/* caf\xe9 */ int x;\n")
    texts, problems = read_sources([str(p), str(tmp_path / "gone.c")])
    assert "int x;" in texts[str(p)]
    assert len(problems) == 1 and "gone.c" in problems[0]
