#!/usr/bin/env bash
# One .vsix per platform: dist/ctlsp-<target>.vsix for each target (default: every one
# scripts/bundle-server.sh has a recipe for), each carrying the server bundle built for that
# platform from its wheels and checked by scripts/check_bundle.py.  Ends by rebuilding the bundle for
# this machine, so that bundled/ is again what `npm run package` and the end-to-end test use.
# Needs the extension built (npm run build) and $CTLSP_PYTHON as scripts/bundle-server.sh.
set -euo pipefail
EXT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$EXT"
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64)
mkdir -p dist
for target in "${TARGETS[@]}"; do
  bash scripts/bundle-server.sh "$target"
  npx --no-install vsce package --no-dependencies --no-rewrite-relative-links --target "$target" \
    --out "dist/ctlsp-$target.vsix"
done
bash scripts/bundle-server.sh
ls -l dist/ctlsp-*.vsix
