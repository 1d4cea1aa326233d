"""The front door: which files a folder means and which configuration applies, for the CLI and the server alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.lsp.settings import load_workspace_config
from server.workspace import PathError, collect, find_config, read_sources, scan_c_files


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


def test_the_server_and_the_cli_walk_the_same_files(tmp_path: Path) -> None:
    """One walker: build output, environments and hidden folders are skipped by both (the server
    used to analyse build/ and the CLI venv/)."""
    _touch(
        tmp_path,
        "a.c", "inc/a.h", "build/gen.c", "cmake-build-debug/z.c", "venv/lib/v.c", ".venv/w.c", ".tools/t.c",
        "node_modules/m.c", "site-packages/s.c", "sub/b.c",
    )  # fmt: skip
    cli = {Path(p).resolve() for p in collect([str(tmp_path)])}
    server = set(scan_c_files([tmp_path, tmp_path / "sub", tmp_path / "missing"]))
    assert cli == server == {tmp_path / "a.c", tmp_path / "inc/a.h", tmp_path / "sub/b.c"}
    assert len(list(scan_c_files([tmp_path], limit=2))) == 2


def test_the_server_finds_the_configuration_the_cli_finds(tmp_path: Path) -> None:
    """A workspace folder below the project's ctlsp.toml gets it, as ``ctlsp check sub/`` does;
    the search stops at a repository root."""
    (tmp_path / "ctlsp.toml").write_text('[extract]\nallocators = ["pool_get"]\n')
    sub = tmp_path / "src" / "lib"
    sub.mkdir(parents=True)
    assert find_config(sub).allocators == ("pool_get",)
    config, problems = load_workspace_config(sub)
    assert config.allocators == ("pool_get",) and problems == []
    (tmp_path / "src" / ".git").mkdir()
    assert find_config(sub).allocators == ()
    assert load_workspace_config(sub)[0].allocators == ()


def test_pyproject_counts_only_with_a_ctlsp_table(tmp_path: Path) -> None:
    (tmp_path / "ctlsp.toml").write_text('[extract]\nallocators = ["outer"]\n')
    sub = tmp_path / "py"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config(sub).allocators == ("outer",)
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.ctlsp.extract]\nallocators = ["inner"]\n')
    assert find_config(sub).allocators == ("inner",)
