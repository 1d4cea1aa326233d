#!/usr/bin/env bash
# Builds the VS Code extension and runs its tests: npm ci, esbuild bundle, typecheck + unit tests,
# .vsix package, then the end-to-end test in code-server + headless Chromium. Installs everything
# it needs on a bare Debian machine (see e2e-tools.sh). The Python with ctlsp comes from
# $CTLSP_PYTHON (default: the repo's .venv).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXT_DIR="$REPO/vscode-extension"
export EXT_DIR
# shellcheck source=.ci/e2e-tools.sh
source "$REPO/.ci/e2e-tools.sh"

export CTLSP_PYTHON="${CTLSP_PYTHON:-$REPO/.venv/bin/python}"
export CTLSP_REPO="$REPO"
if [ ! -x "$CTLSP_PYTHON" ]; then
  echo "e2e: no Python at $CTLSP_PYTHON (create the repo .venv first, or set CTLSP_PYTHON)" >&2
  exit 1
fi

cd "$EXT_DIR"
echo "== npm ci"
npm ci --no-audit --no-fund --loglevel=error
echo "== build"
npm run --silent build
echo "== typecheck + unit tests"
npm test --silent
echo "== package"
npx --no-install vsce package --no-dependencies --out dist/ctlsp.vsix
export CTLSP_VSIX="$EXT_DIR/dist/ctlsp.vsix"
echo "== end-to-end (code-server + headless chromium)"
node test/e2e/run.mjs
