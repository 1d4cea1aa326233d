#!/usr/bin/env bash
# Builds the VS Code extension and runs its tests: npm ci, esbuild bundle, typecheck + unit tests,
# the server bundled into the .vsix, then the end-to-end test in code-server + headless Chromium.
# Installs everything it needs on a bare Debian machine (see e2e-tools.sh).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXT_DIR="$REPO/vscode-extension"
export EXT_DIR
# shellcheck source=.ci/e2e-tools.sh
source "$REPO/.ci/e2e-tools.sh"

# The Python that builds the bundled server (pip and hatchling: the repo's .venv has both); the
# end-to-end test itself runs the extension on a bare python3 with nothing installed.
export CTLSP_PYTHON="${CTLSP_PYTHON:-$REPO/.venv/bin/python}"
if [ ! -x "$CTLSP_PYTHON" ]; then
  echo "e2e: no Python at $CTLSP_PYTHON (create the repo .venv first, or set CTLSP_PYTHON)" >&2
  exit 1
fi
export CTLSP_BARE_PYTHON="${CTLSP_BARE_PYTHON:-/usr/bin/python3}"

cd "$EXT_DIR"
echo "== npm ci"
npm ci --no-audit --no-fund --loglevel=error
echo "== build"
npm run --silent build
echo "== typecheck + unit tests"
npm test --silent
echo "== bundle the server + package"
bash scripts/bundle-server.sh
npx --no-install vsce package --no-dependencies --no-rewrite-relative-links --target "$(cat bundled/target)" \
  --out dist/ctlsp.vsix
export CTLSP_VSIX="$EXT_DIR/dist/ctlsp.vsix"
echo "== end-to-end (code-server + headless chromium)"
node test/e2e/run.mjs
echo "== the other platforms' packages (their bundles checked by scripts/check_bundle.py; not started here)"
bash scripts/package-all.sh linux-arm64 darwin-x64 darwin-arm64 win32-x64 | grep -E "^(check_bundle|bundle-server|-rw)"
