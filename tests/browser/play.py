#!/usr/bin/python3
"""Hotseat in a real browser: headless Chromium as a 412x915 touch phone, driven by taps.

The page is the browser build (web/build.sh) served on loopback. The canvas has no element
tree, so `hotseat mirror` (the same screens in the native software renderer) says where
each control is; the test taps that point in Chromium (DevTools `Input.dispatchTouchEvent`)
and presses the same control in the mirror, so both stay on the same screen. It checks:
the page loads with no console error; the home screen looks like the native one; with an
iPhone's safe-area insets emulated, the canvas stays inside them and draws what the native
renderer draws at that size; a tap starts a game and the cover comes up; a reload shows
Continue; a whole IOTA game against the app is played to its end by taps, lands in the
history, and the page scheduled its sound cues on one Web Audio context; a damaged save in
the browser's storage is kept aside with a notice; in face-to-face Omiga every finger's tap
lands once on what it touched (two and three fingers at once, either lifting first, taps
20 ms apart, a finger sliding off: web/touch.js) and the log says how soon each was taken;
in the page opened with `?kiosk`, a short tap on the staff corner does nothing and a long
press opens the PIN pad; with the server gone, the page starts from the service worker's
copy.

    tests/browser/play.py SITE_DIR HOTSEAT_BINARY [--shots DIR] [--touch-rounds N]

The site, the mirror, the phone and the checks WebKit runs too are in common.py.
"""
import json
import os
import sys
import time

from PIL import Image

from common import (HEIGHT, WIDTH, ChromiumPhone, Mirror, alike, chromium, damaged_save, first_visit,
                    game_to_history, log, offline, reveal_point, run)

# Every touch pointer event the page receives from the fingers, in order (the browser's side
# of a touch; the router's own replayed events, web/touch.js, are untrusted and left out).
# `hotseatTouchLog` makes the router note each finger's lift: how its tap was given and how
# long after the lift the app had taken its release.
LOG_POINTERS = """
window.hotseatPointers = [];
window.hotseatTouchLog = [];
for (const kind of ["pointerdown", "pointerup", "pointercancel"])
  window.addEventListener(kind, (e) => {
    if (e.isTrusted) window.hotseatPointers.push([kind, e.pointerId]);
  }, true);
"""


def face_to_face(phone, mirror, driver, url, data, rounds=0):
    """Omiga face to face: White (bottom) and Black (top, turned towards its player) tap
    their own hands with two (or three) fingers at once. Every finger's tap lands on what it
    touched, whatever the order of landing and lifting (web/touch.js, docs/omiga-touch.md).
    Taps are judged by what the browser draws: a selected card is lifted and outlined, so
    its place on the screen changes, and the other cards' places do not (the browser is
    compared with itself, before and after: the mirror's clock stands still, so its "Ready?"
    countdown never ends). Returns how long after its lift each finger's tap was taken, by
    how it was given (web/touch.js's log)."""
    # Omiga's setup is taller than a phone and its Start is out of sight: the mirror
    # starts the match (a press reaches a control anywhere), and the browser continues
    # the very same deal from the mirror's save.
    assert mirror.ask("restart") == ["ok"]
    for label in ("Omiga", "Player 2: a person", "Start"):
        assert mirror.ask("press " + label) == ["ok"], label
    with open(os.path.join(data, "current-game.json")) as f:
        save = f.read()
    driver.execute_script("localStorage.setItem('hotseat/current-game.json', arguments[0])", save)
    driver.get(url)
    phone.wait_started()
    assert mirror.ask("restart") == ["ok"]
    phone.tap("Continue", prefix=True)

    # Black's hand is turned 180° about its area's centre (ui/omiga/omiga.slint,
    # `turned-to-black`); the mirror tells where its cards are before the turn.
    x, y, w, h = map(float, mirror.ask("find Player 2's hand")[0].split())
    cx, cy = x + w / 2, y + h / 2
    cards = {}
    for side in ("White", "Black"):
        for n in (1, 2, 3):
            answer = mirror.ask(f"find-part {side} card {n}/3")
            assert answer[0] != "none", f"no {side} card {n} on the mirror's screen"
            x, y, w, h = map(float, answer[0].split())
            if side == "Black":
                x, y = 2 * cx - x - w, 2 * cy - y - h
            cards[(side, n)] = (x, y, w, h)
    at = {k: (x + w / 2, y + h / 2) for k, (x, y, w, h) in cards.items()}
    time.sleep(4.5)  # "Ready?": the three-second countdown before both may play
    driver.execute_script(LOG_POINTERS)
    taken = {}

    def changed(before, after):
        same = {k: alike(before, after, box) for k, box in cards.items()}
        log("  share of each card's place unchanged:",
            ", ".join(f"{s[0]} {n} {v:.0%}" for (s, n), v in sorted(same.items())))
        return {k for k, v in same.items() if v < 0.95}

    def fingers_seen(name, count):
        """The page got `count` fingers, each pressed and lifted once, and the router gave
        the app one release for each (none cancelled)."""
        events, lifts = driver.execute_script(
            "const p = [window.hotseatPointers, window.hotseatTouchLog];"
            "window.hotseatPointers = []; window.hotseatTouchLog = []; return p;")
        log(f"{name}: the page saw {events}; the router gave {lifts}")
        downs = [e[1] for e in events if e[0] == "pointerdown"]
        ups = [e[1] for e in events if e[0] == "pointerup"]
        assert len(downs) == count and sorted(downs) == sorted(ups) and len(set(downs)) == count, \
            f"the browser did not deliver {count} fingers: {events}"
        assert sorted(l[0] for l in lifts) == sorted(downs) and all(l[1] != "none" for l in lifts), \
            f"not every finger's release reached the app once: {lifts}"
        for _, how, ms in lifts:
            taken.setdefault(how, []).append(ms)

    def fingers(name, down, lifts, moves=(), apart=0.0, hold=0.08, count=None):
        """`down` {id: (x, y)} land (in one touch event, or one by one `apart` seconds
        apart), `moves` {id: (x, y)} slide there, then the ids in `lifts` lift one by one.
        Returns the cards whose place changed."""
        before = phone.picture(name + "-before")
        if apart:
            for i, p in down.items():
                phone.touch("touchStart", {i: p})
                time.sleep(apart)
        else:
            phone.touch("touchStart", down)
        time.sleep(hold)
        for i, p in dict(moves).items():
            phone.touch("touchMove", {**down, i: p})
            time.sleep(0.03)
        where = {**down, **dict(moves)}
        for n, i in enumerate(lifts):
            phone.touch("touchEnd", {i: where[i]})
            if n + 1 < len(lifts):
                time.sleep(apart or hold)
        time.sleep(0.8)
        fingers_seen(name, count or len(down))
        moved = changed(before, phone.picture(name))
        log(f"{name}: changed", sorted(moved))
        return moved

    W, B = "White", "Black"
    # Two fingers land in one touch event; the first down lifts first: both taps land.
    moved = fingers("omiga-two-fingers", {1: at[(W, 1)], 2: at[(B, 1)]}, [1, 2])
    assert moved == {(W, 1), (B, 1)}, f"both players' taps should select their card; changed: {sorted(moved)}"

    # The same, but the second finger down lifts first (Slint alone loses this tap).
    moved = fingers("omiga-second-lifted-first", {1: at[(W, 2)], 2: at[(B, 2)]}, [2, 1])
    assert moved == {(W, 1), (W, 2), (B, 1), (B, 2)}, \
        f"both selections should move to card 2; changed: {sorted(moved)}"

    # Three fingers in one event: Black's card 3 and White's cards 3 and 1; White's card 1
    # lifts first, then White's 3, then Black's. Each tap lands, in the order the fingers
    # lifted: White's card 3 is selected last.
    moved = fingers("omiga-three-fingers", {1: at[(B, 3)], 2: at[(W, 3)], 3: at[(W, 1)]}, [3, 2, 1])
    assert moved == {(W, 2), (W, 3), (B, 2), (B, 3)}, \
        f"White's card 3 and Black's card 3 should be selected; changed: {sorted(moved)}"

    # Two taps landing 20 ms apart (two touch events), either player first; the second
    # down lifts first, then the first down first.
    moved = fingers("omiga-20ms-black-first", {1: at[(B, 1)], 2: at[(W, 1)]}, [2, 1], apart=0.02)
    assert moved == {(W, 1), (W, 3), (B, 1), (B, 3)}, \
        f"both taps 20 ms apart should select card 1; changed: {sorted(moved)}"
    moved = fingers("omiga-20ms-white-first", {1: at[(W, 2)], 2: at[(B, 2)]}, [1, 2], apart=0.02)
    assert moved == {(W, 1), (W, 2), (B, 1), (B, 2)}, \
        f"both taps 20 ms apart should select card 2; changed: {sorted(moved)}"

    # A second finger that slides off its card before it lifts is no tap (as alone), and
    # the first finger's tap still lands.
    bx, by = at[(B, 3)]
    off = (bx, by + cards[(B, 3)][3] * 1.5)  # below Black's hand, towards the table
    moved = fingers("omiga-slide-off", {1: at[(W, 3)], 2: at[(B, 3)]}, [2, 1], moves={2: off})
    assert moved == {(W, 2), (W, 3)}, \
        f"White's tap should land and Black's slid-off finger should select nothing; changed: {sorted(moved)}"

    # `--touch-rounds N` (not in CI): N more pairs of taps for the timings alone, each
    # pair a card in each hand with the second finger down lifting first.
    for r in range(rounds):
        n = 1 + r % 3
        down = {1: at[(W, n)], 2: at[(B, n)]}
        phone.touch("touchStart", down)
        time.sleep(0.06)
        phone.touch("touchEnd", {2: down[2]})
        time.sleep(0.03)
        phone.touch("touchEnd", {})
        time.sleep(0.3)
        fingers_seen(f"round {r + 1}", 2)
    return taken


def leave_while_the_app_thinks(phone, mirror, driver, url):
    """Back (‹, "Leave the game") while the hard opponent thinks. In the browser it thinks
    on the page's one thread, in turns between frames (docs/web.md): the tap is taken, the
    home screen comes with Continue, and the game comes back with the app's turn still to
    play, which it then plays. Leaving mid-thought loses nothing. (How soon the tap is
    answered is measured by web/bench.py, not asserted here.)"""
    driver.get(url)
    phone.wait_started()
    assert mirror.ask("restart") == ["ok"]
    phone.tap("IOTA")
    phone.tap("Player 2: the app, hard")
    phone.tap("Start")
    # The app may be drawn to play first (it starts thinking a frame after Start): the
    # person's cover comes once it has played.
    time.sleep(0.3)
    deadline = time.time() + 30
    while driver.execute_script("return performance.getEntriesByName('hotseat-thinking', 'mark').length"):
        assert time.time() < deadline, "the app's first turn did not end"
        time.sleep(0.05)
    time.sleep(0.8)
    # The cover's words differ from the mirror's here (this page has a finished game in
    # its history): its reveal button is found in the browser's own picture.
    (_, _), label = mirror.find(", tap to reveal", prefix=True)
    phone.tap_at(*reveal_point(driver))
    assert mirror.ask("press " + label) == ["ok"]
    time.sleep(0.8)
    (bx, by), _ = mirror.find("Leave the game")
    before = json.loads(phone.storage("current-game.json"))["actions"]
    driver.execute_script("performance.clearMarks('hotseat-thinking');"
                          "performance.clearMeasures('hotseat-thinking');")
    driver.execute_script(
        "window.hotseatDowns = [];"
        "window.addEventListener('pointerdown', (e) => window.hotseatDowns.push([e.timeStamp, performance.now()]), true);")
    (px, py), _ = mirror.find("Pass")
    phone.tap_at(px, py)
    # The mark stands while it thinks; the measure, once it has decided.
    deadline = time.time() + 10
    while not driver.execute_script("return performance.getEntriesByName('hotseat-thinking').length"):
        if time.time() > deadline:
            driver.save_screenshot(os.path.join(phone.shots, "no-thinking-browser.png"))
            raise AssertionError("the app did not start thinking")
        time.sleep(0.005)
    decided = driver.execute_script(
        "return performance.getEntriesByName('hotseat-thinking', 'measure').length")
    phone.tap_at(bx, by)
    log("Back tapped", "after the app decided" if decided else "while the app thinks")
    time.sleep(1.0)
    if not decided:
        # The page took the tap before the app had decided: it thinks between frames,
        # not in one block (which would hold the tap until the answer).
        touched, taken = driver.execute_script("return window.hotseatDowns[window.hotseatDowns.length - 1]")
        # The measure once it has decided; the mark while it still thinks.
        start, length = driver.execute_script(
            "const e = performance.getEntriesByName('hotseat-thinking');"
            "return [e[0].startTime, e[0].entryType === 'measure' ? e[0].duration : null];")
        end = start + length if length is not None else float("inf")
        log(f"the touch came {touched - start:.0f} ms into a decision of "
            f"{'more than ' + str(round(taken - start)) if length is None else round(length)} ms "
            f"and was taken {taken - touched:.0f} ms later")
        # Judged only when the touch came with time left: on this shared machine a page
        # with nothing to do can take a few frames to take a touch, and a decision can be
        # short (the old back-to-back slices held a touch for 66-450 ms).
        if touched < end - 100:
            assert taken < end, "the page took the tap only once the app had decided"
        else:
            log("the decision ended too soon after the touch to tell")
    # The mirror leaves its game the same way, and both show the home screen.
    assert mirror.ask("press Leave the game") == ["ok"]
    phone.looks_like_mirror("left-while-thinking", 0.85)
    saved = json.loads(phone.storage("current-game.json"))["actions"]
    assert saved[: len(before)] == before and len(saved) > len(before) and saved[len(before)][0] == 0, \
        f"the pass is not saved: {saved[len(before):]}"
    phone.tap("Continue", prefix=True)
    # The app's turn: it thinks again from the saved game and plays.
    deadline = time.time() + 60
    while len(json.loads(phone.storage("current-game.json"))["actions"]) < len(before) + 2:
        assert time.time() < deadline, "the app did not play its turn after Continue"
        time.sleep(0.2)
    after = json.loads(phone.storage("current-game.json"))["actions"]
    assert after[len(before)][0] == 0 and after[len(before) + 1][0] == 1, after[len(before):]
    log("after Continue the app played:", after[len(before) + 1])
    phone.no_errors()


def kiosk(phone, mirror, driver, url):
    """The page opened with ?kiosk: the first start asks staff for a PIN; the staff corner
    (top right, nothing drawn) opens the PIN pad when held for 2 s, and not on a tap."""
    driver.get(url + "?kiosk")
    phone.wait_started()
    assert mirror.ask("restart-kiosk") == ["ok"]
    phone.looks_like_mirror("kiosk-choose-pin", 0.85)
    for _ in range(2):  # the PIN, then the same again
        for key in ["1", "2", "3", "4", "OK"]:
            phone.tap(key)
        time.sleep(1)
    assert phone.storage("kiosk.json"), "the staff PIN is not saved in the browser"
    welcome = phone.looks_like_mirror("kiosk-welcome", 0.90)
    (x, y), _ = mirror.find("Staff")
    # The PIN pad dims the whole screen: the two native pictures must tell apart.
    assert mirror.ask("press Staff") == ["ok"]
    pad = phone.native("kiosk-pad-expected")
    assert mirror.ask("press Cancel") == ["ok"]
    apart = alike(phone.native("kiosk-welcome-again"), pad)
    log(f"the welcome screen and the PIN pad share {apart:.1%} of their pixels natively")
    assert apart < 0.85, "the welcome screen and the PIN pad look alike: the check below means nothing"

    log(f"short tap on the staff corner at {x:.0f},{y:.0f}")
    phone.tap_at(x, y, hold=0.15)
    time.sleep(2.6)  # longer than the 2 s hold
    phone.looks_like_mirror("kiosk-short-tap", max(0.90, welcome - 0.05))

    log(f"long press on the staff corner at {x:.0f},{y:.0f}")
    phone.tap_at(x, y, hold=2.6)
    time.sleep(0.5)
    assert mirror.ask("press Staff") == ["ok"]
    phone.looks_like_mirror("kiosk-pin-pad", 0.90)
    phone.tap("Cancel")
    phone.looks_like_mirror("kiosk-cancelled", 0.90)


def listen_for_cues(driver):
    """Counts the sound cues the page schedules on its Web Audio context (issue #34):
    every AudioBufferSourceNode started, and the contexts made, on every page loaded."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__cues = 0; window.__contexts = [];
        const start = AudioBufferSourceNode.prototype.start;
        AudioBufferSourceNode.prototype.start = function (...args) {
            window.__cues += 1; return start.apply(this, args); };
        const Made = window.AudioContext;
        window.AudioContext = function (...args) {
            const c = new Made(...args); window.__contexts.push(c); return c; };
        window.AudioContext.prototype = Made.prototype;"""})


def cues_heard(driver, taps):
    """After `taps` taps on Pass in a game against the app: the page scheduled cues (a pass,
    the app thinking, its cards, the hand-backs) on one audio context."""
    cues, states = driver.execute_script(
        "return [window.__cues, window.__contexts.map((c) => c.state)]")
    log(f"{cues} sound cues scheduled for {taps} taps; audio contexts: {states}")
    assert len(states) == 1, f"one audio context, made on the first cue: {states}"
    # A tap while the app thinks changes nothing; the app's own turns sound instead.
    assert cues >= taps // 2, f"{cues} cues for {taps} taps"


def safe_areas(phone, url):
    """An iPhone's notch and home indicator, as CSS safe-area insets (emulated through
    DevTools): Slint is told of none in a browser, so the page keeps the canvas inside them
    (web/index.html), and the app draws there what it draws on a screen of that size (the
    mirror at 412x834, on the same data)."""
    top, bottom = 47, 34
    inset = lambda t, b: phone.d.execute_cdp_cmd(  # noqa: E731
        "Emulation.setSafeAreaInsetsOverride", {"insets": {"top": t, "bottom": b, "left": 0, "right": 0}})
    inset(top, bottom)
    try:
        phone.open(url)
        rect = phone.d.execute_script(
            "const r = document.getElementById('canvas').getBoundingClientRect(); return [r.x, r.y, r.width, r.height];")
        log(f"with insets {top} px above and {bottom} px below, the canvas is at {rect}")
        assert rect == [0, top, WIDTH, HEIGHT - top - bottom], rect
        inner = Mirror(phone.mirror.binary, phone.mirror.data, (WIDTH, HEIGHT - top - bottom))
        try:
            path = os.path.join(phone.shots, "safe-area-native.png")
            assert inner.ask("shot " + path) == ["ok"]
        finally:
            inner.close()
        drawn = phone.picture("safe-area").crop((0, top, WIDTH, HEIGHT - bottom))
        same = alike(drawn, Image.open(path).convert("RGB"))
        log(f"safe-area: {same:.1%} of the canvas's pixels as the native renderer draws them at that size")
        assert same >= 0.90, f"the app inside the safe area differs from the native picture ({same:.1%})"
    finally:
        inset(0, 0)
    phone.open(url)
    phone.no_errors()


def checks(phone, site, data, args):
    driver, mirror = phone.d, phone.mirror
    first_visit(phone, site.url)
    safe_areas(phone, site.url)
    cues_heard(driver, game_to_history(phone))
    damaged_save(phone, data)

    # Leaving while the hard opponent thinks, and coming back.
    leave_while_the_app_thinks(phone, mirror, driver, site.url)

    # Kiosk: the staff corner's long press.
    kiosk(phone, mirror, driver, site.url)
    phone.no_errors()

    # Omiga face to face, two fingers at once. Last of the parts that tap: once
    # DevTools has had two touch points down at once, Chromium delivers the touches
    # of the next page it loads as a bare `click` (no pointer or touch events;
    # Chromium 156 here), while the same page keeps taking them.
    taken = face_to_face(phone, mirror, driver, site.url, data, args.touch_rounds)
    for how, ms in sorted(taken.items()):
        ms = sorted(ms)
        log(f"fingers whose tap was given {how}: {len(ms)}; from the lift to the app having "
            f"taken the release: median {ms[len(ms) // 2]:.1f} ms, worst {ms[-1]:.1f} ms")
    phone.no_errors()

    # Offline: with the server gone, the page starts from the service worker's copy.
    offline(phone, site)


if __name__ == "__main__":
    def start(work):
        driver = chromium(os.path.join(work, "profile"))
        listen_for_cues(driver)
        return driver, ChromiumPhone

    def options(args):
        args.add_argument("--touch-rounds", type=int, default=0,
                          help="more two-finger taps in Omiga, for the timings only")

    sys.exit(run("browser", start, checks, options=options))
