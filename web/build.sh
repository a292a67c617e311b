#!/usr/bin/env bash
# Builds Hotseat for the browser into DIR (default target/web): index.html, the .wasm and
# its JavaScript glue, the web app manifest, icons and the service worker. Serve DIR from
# any static host (docs/web.md). Installs what it needs: the wasm32 target and
# wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock.
#   web/build.sh [DIR]
#   HOTSEAT_WEB_PROFILE=web-dev web/build.sh   # a faster build with fewer optimisations
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/web}
profile=${HOTSEAT_WEB_PROFILE:-web}
target=wasm32-unknown-unknown

rustup target add "$target" >/dev/null

# wasm-bindgen's command-line tool must be the very version the crate was locked at.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "installing wasm-bindgen-cli $want"
  # --locked can fail when a locked dependency is newer than the registry copy; then let
  # cargo resolve that tool's own dependencies afresh.
  cargo install wasm-bindgen-cli --version "=$want" --locked ||
    cargo install wasm-bindgen-cli --version "=$want"
fi

echo "building the app for $target ($profile profile)"
cargo build --target "$target" --profile "$profile" -p hotseat-web
wasm="${CARGO_TARGET_DIR:-target}/$target/$profile/hotseat_web.wasm"

rm -rf "$out"
mkdir -p "$out/icons"
# The symbol names stay in the module until here (wasm-bindgen reads its feature section);
# a phone needs none of them.
wasm-bindgen --target web --no-typescript --remove-name-section --out-dir "$out" --out-name hotseat_web "$wasm"
cp web/index.html web/manifest.webmanifest "$out/"
cp android/res/ic_launcher.svg "$out/icons/icon.svg"

# The launcher icon as PNG, for the manifest and iOS's home screen: drawn from the same SVG.
if ! command -v rsvg-convert >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librsvg2-bin >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librsvg2-bin >/dev/null; } || true
fi
for size in 192 512; do
  if command -v rsvg-convert >/dev/null; then
    rsvg-convert -w "$size" -h "$size" android/res/ic_launcher.svg -o "$out/icons/icon-$size.png"
  else
    echo "warning: rsvg-convert (Debian: librsvg2-bin) is missing; the manifest's PNG icons are not made" >&2
  fi
done

# The service worker caches exactly this build's files, under a name made from their content.
files=$(cd "$out" && find . -type f ! -name sw.js | sed 's|^\./||' | sort)
build=$(cd "$out" && cat $files | sha256sum | cut -c1-16)
list=$(printf '"./"'; for f in $files; do printf ', "%s"' "$f"; done)
sed -e "s|@BUILD@|$build|" -e "s|@FILES@|$list|" web/sw.js > "$out/sw.js"

echo "built $out (build $build): $(du -sh "$out" | cut -f1), wasm $(stat -c %s "$out/hotseat_web_bg.wasm") bytes"
echo "serve it with: python3 -m http.server -d $out 8000   (then open http://localhost:8000)"
