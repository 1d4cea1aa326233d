"""Checks that a server bundle (scripts/bundle-server.sh) is complete for the platform it is marked
for, without running it: a bundle built for another platform cannot start here, so its compiled
modules are read instead.  Each one must be a binary of the target's format (ELF, Mach-O or PE)
and machine (x86-64 or arm64), and there must be one ``tree_sitter`` per CPython version the
bundle promises.  A wrong wheel picked by pip (a host binary in a Windows bundle, a missing
version) would otherwise only show on a user's machine, as a server that does not start.

    python check_bundle.py BUNDLED_DIR TARGET VERSION...   (e.g. bundled win32-x64 3.11 3.12)

Exits 1 with one line per problem; prints one summary line when the bundle is whole.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

# target -> (binary format, machine)
TARGETS = {
    "linux-x64": ("elf", "x64"),
    "linux-arm64": ("elf", "arm64"),
    "darwin-x64": ("macho", "x64"),
    "darwin-arm64": ("macho", "arm64"),
    "win32-x64": ("pe", "x64"),
}
_ELF_MACHINES = {62: "x64", 183: "arm64"}
_MACHO_CPUS = {0x01000007: "x64", 0x0100000C: "arm64"}
_PE_MACHINES = {0x8664: "x64", 0xAA64: "arm64"}


def binary_kind(path: Path) -> tuple[str, set[str]]:
    """The file's binary format and the machines it is built for ("" and an empty set if it is
    none of ELF, Mach-O (thin or universal) and PE)."""
    head = path.read_bytes()[:4096]
    if head[:4] == b"\x7fELF":
        return "elf", {_ELF_MACHINES.get(struct.unpack_from("<H", head, 18)[0], "other")}
    if head[:4] == b"\xcf\xfa\xed\xfe":  # 64-bit Mach-O, little-endian
        return "macho", {_MACHO_CPUS.get(struct.unpack_from("<I", head, 4)[0], "other")}
    if head[:4] == b"\xca\xfe\xba\xbe":  # universal Mach-O: big-endian list of (cpu, ...) slices
        count = struct.unpack_from(">I", head, 4)[0]
        cpus = {struct.unpack_from(">I", head, 8 + 20 * i)[0] for i in range(min(count, 8))}
        return "macho", {_MACHO_CPUS.get(c, "other") for c in cpus}
    if head[:2] == b"MZ":
        pe = struct.unpack_from("<I", head, 0x3C)[0]
        if head[pe : pe + 4] == b"PE\0\0":
            return "pe", {_PE_MACHINES.get(struct.unpack_from("<H", head, pe + 4)[0], "other")}
    return "", set()


def problems(bundled: Path, target: str, versions: list[str]) -> list[str]:
    fmt, machine = TARGETS[target]
    suffixes = (".pyd", ".dll") if fmt == "pe" else (".so", ".dylib")
    out: list[str] = []

    def compiled(folder: Path, what: str) -> list[Path]:
        found = [p for p in folder.rglob("*") if p.is_file() and p.name.endswith(suffixes)] if folder.is_dir() else []
        if not found:
            out.append(f"{what}: no compiled module in {folder}")
        for p in found:
            kind, machines = binary_kind(p)
            if kind != fmt or machine not in machines:
                got = f"{kind or 'not a binary'} {'/'.join(sorted(machines))}".strip()
                out.append(f"{what}: {p.relative_to(bundled)} is {got}, not {fmt} {machine} for {target}")
        return found

    libs = bundled / "libs"
    if not (libs / "ctlsp" / "server" / "cli.py").is_file():
        out.append(f"ctlsp: no {libs / 'ctlsp' / 'server' / 'cli.py'}")
    compiled(libs / "tree_sitter_c", "tree_sitter_c")
    compiled(libs / "z3", "z3")
    if (libs / "tree_sitter").exists():
        out.append("tree_sitter: in libs/, where one Python version's build would shadow the others")
    for version in versions:
        tag = "cp" + version.replace(".", "")
        found = compiled(bundled / f"libs-{tag}" / "tree_sitter", f"tree_sitter for Python {version}")
        # CPython's own name for the module: _binding.cpython-311-<triplet>.so / _binding.cp311-win_amd64.pyd
        if found and not any(f".{tag}-" in p.name or f".cpython-{tag[2:]}" in p.name for p in found):
            out.append(f"tree_sitter for Python {version}: {', '.join(p.name for p in found)} is for another version")
    for leftover in ("bin", "setuptools", "pbr"):
        if (libs / leftover).exists():
            out.append(f"libs/{leftover}: build-time files the server never uses")
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] not in TARGETS:
        print(f"usage: check_bundle.py BUNDLED_DIR {{{'|'.join(TARGETS)}}} VERSION...", file=sys.stderr)
        return 2
    bundled, target, versions = Path(argv[0]), argv[1], argv[2:]
    found = problems(bundled, target, versions)
    for p in found:
        print(f"check_bundle: {p}", file=sys.stderr)
    if not found:
        pythons = " ".join(versions)
        print(f"check_bundle: {target} bundle whole: ctlsp, tree_sitter_c, z3, tree_sitter for Python {pythons}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
