#!/usr/bin/env bash
# The browser figures of docs/performance.md (issue 17): the app's size and gzipped size,
# the time from navigation to its first frame in headless Chromium at phone size, and the
# time a move's frame takes to draw, each beside the same figure for the floor (one Text in
# a Slint window, web/floor/, built with the same profile); then, while the hard IOTA
# opponent thinks, its slices, the gaps between frames and how soon a tap is drawn.
# Prints Markdown tables. With --browsers chromium,webkit: the first frame and a move's
# frames in Chromium and in WebKit (the iPhone's engine: WebKitGTK's MiniBrowser, issue 33)
# side by side, on the same build.
#   web/bench.sh [RUNS] [--only first-frame | --browsers chromium,webkit]
#   (default 5 page loads each; needs what .ci/browser installs, and .ci/webkit for WebKit)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
profile=${HOTSEAT_WEB_PROFILE:-web}
target=wasm32-unknown-unknown
out=target/web-bench

HOTSEAT_WEB_PROFILE=$profile web/build.sh "$out/app"
cargo build --target "$target" --profile "$profile" -p hotseat-web-floor
rm -rf "$out/floor" && mkdir -p "$out/floor"
wasm-bindgen --target web --no-typescript --remove-name-section --out-dir "$out/floor" --out-name hotseat_web_floor \
  "${CARGO_TARGET_DIR:-target}/$target/$profile/hotseat_web_floor.wasm"
# The floor's page is the app's, pointed at the floor's module (same styles, same canvas).
sed -e 's|./hotseat_web.js|./hotseat_web_floor.js|' -e '/serviceWorker/,/^    }/d' web/index.html > "$out/floor/index.html"
cp web/touch.js "$out/floor/"
# The mirror (hotseat's native build) places the taps of the move and thinking benches.
[ "$*" = "--only first-frame" ] || cargo build --quiet
/usr/bin/python3 web/bench.py "$out/app" "$out/floor" "${CARGO_TARGET_DIR:-target}/debug/hotseat" --runs "$runs" --profile "$profile" "$@"
