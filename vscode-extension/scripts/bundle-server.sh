#!/usr/bin/env bash
# Puts the ctlsp server into the extension, so that the .vsix needs nothing but a Python 3.11+:
#   bundled/ctlsp-<version>-py3-none-any.whl  the server as a wheel (for "pip install" into a venv)
#   bundled/libs/                             ctlsp and its pure-Python dependencies
#   bundled/libs-cp3XY/                       tree_sitter, compiled for CPython 3.XY (one per version)
# bundled/tool/ctlsp_serve.py (in git) starts the server with these first on sys.path.
# tree_sitter is the one dependency compiled per Python version (tree_sitter_c is abi3), so the
# package is for one platform: the one this runs on (printed last, for `vsce package --target`).
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
  Linux-x86_64) PLATFORM=manylinux2014_x86_64 TARGET=linux-x64 ;;
  Linux-aarch64) PLATFORM=manylinux2014_aarch64 TARGET=linux-arm64 ;;
  *) echo "bundle-server: no bundle recipe for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

rm -rf "$OUT/libs" "$OUT"/libs-cp3* "$OUT"/ctlsp-*.whl
"${PIP[@]}" wheel --no-deps --no-build-isolation --wheel-dir "$OUT" "$REPO"
wheel="$(ls "$OUT"/ctlsp-*-py3-none-any.whl)"
"${PIP[@]}" install --no-compile --target "$OUT/libs" "$wheel"
rm -rf "$OUT/libs/bin"  # console scripts with this machine's interpreter path in them
# sarif_om's build-time requirements, never imported when the server runs
rm -rf "$OUT"/libs/setuptools* "$OUT"/libs/pbr* "$OUT/libs/_distutils_hack" "$OUT/libs/distutils-precedence.pth"
ts_version="$(sed -n 's/^Version: //p' "$OUT"/libs/tree_sitter-*.dist-info/METADATA)"
rm -rf "$OUT"/libs/tree_sitter "$OUT"/libs/tree_sitter-*.dist-info
for version in $PYTHONS; do
  tag="cp${version/./}"
  "${PIP[@]}" install --no-compile --no-deps --only-binary=:all: --implementation cp \
    --python-version "$version" --platform "$PLATFORM" --target "$OUT/libs-$tag" "tree_sitter==$ts_version"
done
find "$OUT" -name __pycache__ -type d -prune -exec rm -rf {} +
"$PY" -I "$OUT/tool/ctlsp_serve.py" --probe >/dev/null  # the bundle starts, parser included
find "$OUT" -name __pycache__ -type d -prune -exec rm -rf {} +
echo "bundle-server: $(basename "$wheel"), tree_sitter $ts_version for CPython $PYTHONS; target $TARGET"
echo "$TARGET" > "$OUT/target"
