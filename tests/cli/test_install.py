"""Issue #15: an install adds one import name, ``ctlsp``, and nothing called ``server`` to site-packages.

A regular install of the generic top-level names ``server``, ``checker`` and ``extractors`` would
clash with any other package or user module of that name. These tests build the wheel as ``pip
install .`` does, install it into a folder of its own and run it there, with nothing else of this
checkout importable, through each way a user starts ctlsp: the ``ctlsp`` console script's entry
point, ``python -m ctlsp``, and ``import ctlsp.server``. The build hook's import rewriting is also
tested on its own (``scripts/wheel/hatch_build.py``).
"""

from __future__ import annotations

import configparser
import importlib.util
import json
import site
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.cli.helpers import REPO

GENERIC = ("server", "checker", "extractors")


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ctlsp_hatch_build", REPO / "scripts" / "wheel" / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_imports_of_the_three_parts_are_rewritten_and_nothing_else() -> None:
    source = (
        b"from __future__ import annotations\n"
        b"from extractors.api import Project  # from server import x\n"
        b"import os; from checker.ctl import parse\n"
        b"if True:\n"
        b"    from  server.lsp import steady as s\n"
        b"from serverless import y\n"
        b"from .cli import main\n"
        b'TEXT = "from server import z"\n'
    )
    out = _hook().rewrite_imports(source).decode().splitlines()
    assert out[1] == "from ctlsp.extractors.api import Project  # from server import x"
    assert out[2] == "import os; from ctlsp.checker.ctl import parse"
    assert out[4] == "    from  ctlsp.server.lsp import steady as s"
    assert out[5:] == ["from serverless import y", "from .cli import main", 'TEXT = "from server import z"']


def test_a_plain_import_of_a_part_fails_the_build() -> None:
    """``import server.cli`` binds ``server``; no rewrite keeps that name working, so it is refused."""
    with pytest.raises(ValueError, match="import server.cli"):
        _hook().rewrite_imports(b"import server.cli\n", "x.py")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(the wheel, the folder it is installed into with ``pip install --target``)."""
    tmp = tmp_path_factory.mktemp("install")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp / "wheel"), str(REPO)],
        check=True,
        timeout=300,
    )
    (wheel,) = (tmp / "wheel").glob("ctlsp-*.whl")
    subprocess.run([*pip, "install", "--no-deps", "--target", str(tmp / "site"), str(wheel)], check=True, timeout=300)
    yield wheel, tmp / "site"


@pytest.mark.slow
def test_the_wheel_has_one_top_level_package(built: tuple[Path, Path]) -> None:
    wheel, _ = built
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        scripts = configparser.ConfigParser()
        (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        scripts.read_string(archive.read(entry_points).decode())
    tops = {name.split("/")[0] for name in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"ctlsp"}
    assert {"ctlsp/server/cli.py", "ctlsp/extractors/rules.toml", "ctlsp/checker/api.py"} <= set(names)
    assert dict(scripts["console_scripts"]) == {"ctlsp": "ctlsp.server.cli:main"}


def _isolated(site_dir: Path, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``code`` run with -I -S: only the installed folder and the dependencies' site-packages (whose
    ``.pth`` files, among them this checkout's editable install, are not read) are importable."""
    paths = [str(site_dir), *site.getsitepackages()]
    prelude = f"import sys; sys.path[:0] = {paths!r}\n"
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", prelude + code], cwd=cwd, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_the_installed_entry_points_run_ctlsp_and_import_no_generic_name(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """The console script's target and ``python -m ctlsp`` check a file from a folder that holds a
    ``server.py`` of its own, and no module named ``server``, ``checker`` or ``extractors`` is loaded."""
    _, site_dir = built
    (tmp_path / "server.py").write_text('raise SystemExit("the folder\'s server.py ran")\n', encoding="utf-8")
    (tmp_path / "leak.c").write_text(
        "#include <stdlib.h>\nvoid f(void) { char *p = malloc(4); if (!p) return; p[0] = 1; }\n", encoding="utf-8"
    )
    report = (
        "import json\n"
        "generic = sorted(m for m in sys.modules if m.split('.')[0] in {generic!r})\n"
        "print(json.dumps([code, generic]))\n"
    ).replace("{generic!r}", repr(GENERIC))
    script = (
        "from ctlsp.server.cli import main\n"  # what the console script runs
        "code = main(['check', 'leak.c', '--no-cache', '--format', 'json'])\n" + report
    )
    as_module = (
        "import runpy\n"
        "sys.argv = ['ctlsp', 'check', 'leak.c', '--no-cache', '--format', 'json']\n"
        "try:\n    runpy.run_module('ctlsp', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as e:\n    code = e.code\n" + report
    )
    for code in (script, as_module):
        run = _isolated(site_dir, code, tmp_path)
        assert run.returncode == 0, run.stderr
        *findings, last = run.stdout.strip().splitlines()
        status, generic = json.loads(last)
        assert (status, generic) == (1, [])
        assert "memory-leak" in "\n".join(findings)


@pytest.mark.slow
def test_the_installed_library_imports_as_ctlsp(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, site_dir = built
    run = _isolated(
        site_dir,
        "import ctlsp.extractors.api as api, ctlsp.server.lsp.steady\n"
        "print(api.__file__); print(api.Project.__module__)\n",
        tmp_path,
    )
    assert run.returncode == 0, run.stderr
    file, module = run.stdout.split()
    assert Path(file).is_relative_to(site_dir) and module == "ctlsp.extractors.project"
