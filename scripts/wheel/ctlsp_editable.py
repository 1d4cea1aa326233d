"""ctlsp, installed editable: ``ctlsp.server`` and the rest are the checkout's ``server``, ... modules.

An editable install puts the repository on ``sys.path``, where the parts are the top-level packages
``checker``, ``extractors`` and ``server`` (as the tests and ``python -m server`` use them). A regular
install has them only as ``ctlsp.checker`` and so on (see scripts/wheel/hatch_build.py). So that
``ctlsp.server.cli``, the ``ctlsp`` command and ``python -m ctlsp`` work in both, this finder answers
``ctlsp.<part>...`` with the very module object of ``<part>...``: one copy of each module, whichever
name imported it first.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

_PARTS = ("checker", "extractors", "server")


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        head, _, rest = fullname.partition(".")
        if head != __name__ or rest.split(".")[0] not in _PARTS:
            return None
        module = importlib.import_module(rest)
        is_package = hasattr(module, "__path__")
        return importlib.machinery.ModuleSpec(fullname, self, is_package=is_package)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return sys.modules[spec.name.partition(".")[2]]

    def exec_module(self, module: ModuleType) -> None:
        """The module ran when it was imported under its own name."""


if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
    sys.meta_path.insert(0, _Alias())
