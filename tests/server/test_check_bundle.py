"""vscode-extension/scripts/check_bundle.py, which guards the bundles built for other platforms
(they cannot be started here), on a bundle laid out from this machine's own compiled modules."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import tree_sitter
import tree_sitter_c
import z3

SCRIPT = Path(__file__).resolve().parents[2] / "vscode-extension" / "scripts" / "check_bundle.py"
HERE = f"cp{sys.version_info[0]}{sys.version_info[1]}"
VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_bundle", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _bundle(root: Path) -> Path:
    """A bundle for this machine: ctlsp's entry module, and the installed compiled packages."""
    bundled = root / "bundled"
    (bundled / "libs" / "ctlsp" / "server").mkdir(parents=True)
    (bundled / "libs" / "ctlsp" / "server" / "cli.py").write_text("")
    for package, into in ((tree_sitter_c, "libs"), (z3, "libs"), (tree_sitter, f"libs-{HERE}")):
        source = Path(package.__file__ or "").parent
        shutil.copytree(
            source, bundled / into / source.name, ignore=shutil.ignore_patterns("*.py", "*.pyi", "__pycache__")
        )
    return bundled


def test_a_bundle_of_this_machines_modules_is_whole_for_this_platform(tmp_path: Path) -> None:
    check = _script()
    bundled = _bundle(tmp_path)
    kind, machines = check.binary_kind(next((bundled / "libs" / "z3").rglob("libz3*.so*")))
    target = {("elf", "x64"): "linux-x64", ("elf", "arm64"): "linux-arm64"}.get((kind, min(machines)))
    if target is None:
        return  # the layout below is Linux's; the other platforms' bundles are checked where built
    assert check.problems(bundled, target, [VERSION]) == []
    assert check.main([str(bundled), target, VERSION]) == 0


def test_host_binaries_in_another_platforms_bundle_are_named(tmp_path: Path) -> None:
    check = _script()
    bundled = _bundle(tmp_path)
    for target in ("win32-x64", "darwin-arm64"):
        found = check.problems(bundled, target, [VERSION])
        if target == "win32-x64":  # a Linux bundle has no .pyd/.dll at all
            assert any("tree_sitter_c: no compiled module" in p for p in found), found
        else:
            assert any("not macho arm64 for darwin-arm64" in p and "z3" in p for p in found), found
        assert check.main([str(bundled), target, VERSION]) == 1


def test_a_missing_python_version_and_leftovers_are_named(tmp_path: Path) -> None:
    check = _script()
    bundled = _bundle(tmp_path)
    (bundled / "libs" / "bin").mkdir()
    shutil.copytree(bundled / f"libs-{HERE}" / "tree_sitter", bundled / "libs" / "tree_sitter")
    found = check.problems(bundled, "linux-x64", [VERSION, "3.99"])
    assert any("Python 3.99: no compiled module" in p for p in found), found
    assert any("libs/bin" in p for p in found), found
    assert any("would shadow" in p for p in found), found
    (bundled / "libs-cp399").mkdir()
    shutil.copytree(bundled / f"libs-{HERE}" / "tree_sitter", bundled / "libs-cp399" / "tree_sitter")
    assert any("Python 3.99" in p and "another version" in p for p in check.problems(bundled, "linux-x64", ["3.99"]))


def test_binary_kind_reads_pe_and_universal_mach_o_headers(tmp_path: Path) -> None:
    check = _script()
    pe = bytearray(0x200)
    pe[:2] = b"MZ"
    pe[0x3C:0x40] = (0x80).to_bytes(4, "little")
    pe[0x80:0x84] = b"PE\0\0"
    pe[0x84:0x86] = (0x8664).to_bytes(2, "little")
    (tmp_path / "a.pyd").write_bytes(bytes(pe))
    assert check.binary_kind(tmp_path / "a.pyd") == ("pe", {"x64"})
    fat = b"\xca\xfe\xba\xbe" + (2).to_bytes(4, "big")
    for cpu in (0x01000007, 0x0100000C):
        fat += cpu.to_bytes(4, "big") + bytes(16)
    (tmp_path / "b.so").write_bytes(fat)
    assert check.binary_kind(tmp_path / "b.so") == ("macho", {"x64", "arm64"})
    (tmp_path / "c.so").write_bytes(b"#!/bin/sh\n")
    assert check.binary_kind(tmp_path / "c.so") == ("", set())
