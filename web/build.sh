#!/usr/bin/env bash
# Builds Hotseat for the browser into DIR (default target/web): index.html, the .wasm and
# its JavaScript glue, the web app manifest, icons and the service worker. Serve DIR from
# any static host (docs/web.md). Installs what it needs: the wasm32 target and
# wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock, and fonttools'
# pyftsubset to trim the embedded fonts (Debian: fonttools).
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

# The Inter faces the app embeds (build.rs), cut down for the page: every script Inter
# draws stays (Latin with Vietnamese and IPA, Greek, Cyrillic: players type their names in
# any of them) with the punctuation, arrows and symbols the screens use; dropped are
# Inter's private-use icons, circled and squared letters, a few rare symbols, and the
# glyph variants only optional OpenType features reach (stylistic sets, tabular figures,
# the app asks for none). docs/performance.md has the figures. pyftsubset is Debian's
# `fonttools`; without it the whole faces go in.
keep="U+0000-036F,U+0370-03FF,U+0400-052F,U+1AB0-1AFF,U+1D00-1DFF,U+1E00-1FFF,U+2000-20CF"
keep="$keep,U+2100-218F,U+2190-23FF,U+25A0-27BF,U+2C60-2C7F,U+2DE0-2DFF,U+A640-A69F,U+A720-A7FF,U+FE20-FE2F"
inter=${HOTSEAT_FONT_DIR:-/usr/share/fonts/opentype/inter}
if ! command -v pyftsubset >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonttools >/dev/null 2>&1 || true
fi
if command -v pyftsubset >/dev/null && [ -d "$inter" ]; then
  fonts="${CARGO_TARGET_DIR:-target}/web-fonts"
  mkdir -p "$fonts"
  fonts=$(cd "$fonts" && pwd)  # the generated fonts.slint imports the faces by this path
  for face in $(grep -o '"Inter-[A-Za-z]*\.otf"' build.rs | tr -d '"'); do
    [ -f "$inter/$face" ] || continue
    pyftsubset "$inter/$face" --unicodes="$keep" --output-file="$fonts/$face.new"
    # Unchanged faces keep their date, or build.rs (which watches the folder) would run
    # again and the app be rebuilt on every call.
    if cmp -s "$fonts/$face.new" "$fonts/$face"; then rm "$fonts/$face.new"; else mv "$fonts/$face.new" "$fonts/$face"; fi
  done
  export HOTSEAT_FONT_DIR="$fonts"
else
  echo "warning: pyftsubset (Debian: fonttools) is missing; the whole Inter faces are embedded" >&2
fi

echo "building the app for $target ($profile profile)"
cargo build --target "$target" --profile "$profile" -p hotseat-web
wasm="${CARGO_TARGET_DIR:-target}/$target/$profile/hotseat_web.wasm"

rm -rf "$out"
mkdir -p "$out/icons"
# The symbol names stay in the module until here (wasm-bindgen reads its feature section);
# a phone needs none of them.
wasm-bindgen --target web --no-typescript --remove-name-section --out-dir "$out" --out-name hotseat_web "$wasm"
cp web/index.html web/touch.js web/manifest.webmanifest "$out/"
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
