"""Session set-up shared by every test directory.

Many tests start Python processes of their own: the language server and its checker process, the
CLI. Where Python is told not to write bytecode as it imports (``PYTHONDONTWRITEBYTECODE``, as on
some CI machines), each of those processes compiled the whole project from source again, which was
a third of a small end-to-end test's time. The session compiles the project's packages once, into
the ``__pycache__`` directories Python reads anyway (git ignores them); a source edited since is
compiled again, as its size and modification time no longer match. For the same reason pytest's
rewritten test modules are cached while tests are collected (pytest reads that cache whatever the
setting, and writes it only if bytecode may be written).
"""

from __future__ import annotations

import compileall
import sys
from collections.abc import Generator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("checker", "extractors", "server")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not sys.dont_write_bytecode:
        return  # an xdist worker (its controller did it), or imports write bytecode themselves
    for package in PACKAGES:
        compileall.compile_dir(REPO / package, quiet=1)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = saved
