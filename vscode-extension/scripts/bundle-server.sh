#!/usr/bin/env bash
# Puts the ctlsp server into the extension, so that the .vsix needs nothing but a Python 3.11+:
#   bundled/ctlsp-<version>-py3-none-any.whl  the server as a wheel (for "pip install" into a venv)
#   bundled/libs/                             ctlsp and its dependencies (compiled ones are abi3 or
#                                             py3-none: tree_sitter_c, z3)
#   bundled/libs-cp3XY/                       tree_sitter, compiled for CPython 3.XY (one per version)
# bundled/tool/ctlsp_serve.py (in git) starts the server with these first on sys.path.
# The compiled dependencies make a bundle one platform's: by default the one this runs on; any
# other is built here too from that platform's wheels (pip --platform, binary wheels only):
#   scripts/bundle-server.sh [linux-x64|linux-arm64|darwin-x64|darwin-arm64|win32-x64]
# The target is printed last and written to bundled/target (for `vsce package --target`); the
# bundle is checked by scripts/check_bundle.py for that target, and a bundle for this machine is
# also started once (`--probe`).
# Uses $CTLSP_PYTHON (default python3), which needs pip and hatchling (the repo's .venv has both);
# dependencies come from the package index pip is configured with.
set -euo pipefail
EXT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO="$(cd "$EXT/.." && pwd)"
PY="${CTLSP_PYTHON:-python3}"
OUT="$EXT/bundled"
PYTHONS="${CTLSP_BUNDLE_PYTHONS:-3.11 3.12 3.13 3.14}"
PIP=("$PY" -m pip --disable-pip-version-check --quiet)

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) HOST=linux-x64 ;;
  Linux-aarch64) HOST=linux-arm64 ;;
  Darwin-x86_64) HOST=darwin-x64 ;;
  Darwin-arm64) HOST=darwin-arm64 ;;
  *) HOST=other ;;
esac
TARGET="${1:-$HOST}"
# pip's platform tags per target: wheels for any of them are taken (pip widens a macOS tag to the
# older macOS versions; manylinux tags are listed one by one).  macOS 13 is the oldest z3 has; on
# arm64 Linux glibc 2.34 (z3 4.13.0, the last manylinux2014 aarch64 wheel, carries a macOS library).
case "$TARGET" in
  linux-x64) PLATFORMS=(manylinux2014_x86_64 manylinux_2_28_x86_64) ;;
  linux-arm64) PLATFORMS=(manylinux2014_aarch64 manylinux_2_28_aarch64 manylinux_2_34_aarch64) ;;
  darwin-x64) PLATFORMS=(macosx_13_0_x86_64) ;;
  darwin-arm64) PLATFORMS=(macosx_13_0_arm64) ;;
  win32-x64) PLATFORMS=(win_amd64) ;;
  *) echo "bundle-server: no bundle recipe for target $TARGET (this machine: $(uname -s)-$(uname -m))" >&2; exit 1 ;;
esac
BINARY=(--only-binary=:all: --implementation cp)
for platform in "${PLATFORMS[@]}"; do BINARY+=(--platform "$platform"); done

rm -rf "$OUT/libs" "$OUT"/libs-cp3* "$OUT"/ctlsp-*.whl
"${PIP[@]}" wheel --no-deps --no-build-isolation --wheel-dir "$OUT" "$REPO"
wheel="$(ls "$OUT"/ctlsp-*-py3-none-any.whl)"
"${PIP[@]}" install --no-compile --target "$OUT/libs" "${BINARY[@]}" --python-version 3.11 "$wheel"
rm -rf "$OUT/libs/bin"  # console scripts with this machine's interpreter path in them
# sarif_om's build-time requirements, never imported when the server runs
rm -rf "$OUT"/libs/setuptools* "$OUT"/libs/pbr* "$OUT/libs/_distutils_hack" "$OUT/libs/distutils-precedence.pth"
ts_version="$(sed -n 's/^Version: //p' "$OUT"/libs/tree_sitter-*.dist-info/METADATA)"
rm -rf "$OUT"/libs/tree_sitter "$OUT"/libs/tree_sitter-*.dist-info
for version in $PYTHONS; do
  tag="cp${version/./}"
  "${PIP[@]}" install --no-compile --no-deps "${BINARY[@]}" \
    --python-version "$version" --target "$OUT/libs-$tag" "tree_sitter==$ts_version"
done
find "$OUT" -name __pycache__ -type d -prune -exec rm -rf {} +
"$PY" "$EXT/scripts/check_bundle.py" "$OUT" "$TARGET" $PYTHONS
if [ "$TARGET" = "$HOST" ]; then
  "$PY" -I "$OUT/tool/ctlsp_serve.py" --probe >/dev/null  # the bundle starts, parser included
  find "$OUT" -name __pycache__ -type d -prune -exec rm -rf {} +
fi
echo "bundle-server: $(basename "$wheel"), tree_sitter $ts_version for CPython $PYTHONS; target $TARGET"
echo "$TARGET" > "$OUT/target"
