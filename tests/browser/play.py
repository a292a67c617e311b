#!/usr/bin/python3
"""Hotseat in a real browser: headless Chromium as a 412x915 touch phone, driven by taps.

The page is the browser build (web/build.sh) served on loopback. The canvas has no element
tree, so `hotseat mirror` (the same screens in the native software renderer) says where
each control is; the test taps that point in Chromium (DevTools `Input.dispatchTouchEvent`)
and presses the same control in the mirror, so both stay on the same screen. It checks:
the page loads with no console error; the home screen looks like the native one; with an
iPhone's safe-area insets emulated, the canvas stays inside them and draws what the native
renderer draws at that size; a tap starts a game and the cover comes up; a reload shows
Continue; a whole IOTA game against the app is played to its end by taps, and lands in the
history; a damaged save in the browser's storage is kept aside with a notice; two fingers
at once in face-to-face Omiga (one DevTools touch event with two points) each select a
card in their own player's hand; in the page opened with `?kiosk`, a short tap on the
staff corner does nothing and a long press opens the PIN pad; with the server gone, the
page starts from the service worker's copy.

    tests/browser/play.py SITE_DIR HOTSEAT_BINARY [--shots DIR]

The site, the mirror, the phone and the checks WebKit runs too are in common.py.
"""
import json
import os
import sys
import time

from PIL import Image

from common import (HEIGHT, WIDTH, ChromiumPhone, Mirror, alike, chromium, damaged_save, first_visit,
                    game_to_history, log, offline, reveal_point, run)

# Every pointer event the page receives, in order (the browser's side of a touch).
LOG_POINTERS = """
window.hotseatPointers = [];
for (const kind of ["pointerdown", "pointerup", "pointercancel"])
  window.addEventListener(kind, (e) => window.hotseatPointers.push([kind, e.pointerId]), true);
"""


def face_to_face(phone, mirror, driver, url, data):
    """Omiga face to face: White (bottom) and Black (top, turned towards its player) tap
    their own hands with two fingers at once. Taps are judged by what the browser draws: a
    selected card is lifted and outlined, so its place on the screen changes, and the other
    cards' places do not (the browser is compared with itself, before and after: the
    mirror's clock stands still, so its "Ready?" countdown never ends)."""
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

    def changed(before, after):
        same = {k: alike(before, after, box) for k, box in cards.items()}
        log("  share of each card's place unchanged:",
            ", ".join(f"{s[0]} {n} {v:.0%}" for (s, n), v in sorted(same.items())))
        return {k for k, v in same.items() if v < 0.95}

    def pointers():
        return driver.execute_script(
            "const p = window.hotseatPointers; window.hotseatPointers = []; return p;")

    def two_fingers(name, white, black, first_up):
        """White's finger lands, Black's lands too (one touch event), then `first_up`'s
        finger lifts, then the other's. Returns the cards whose place changed."""
        before = phone.picture(name + "-before")
        fingers = {1: at[("White", white)], 2: at[("Black", black)]}
        phone.touch("touchStart", fingers)
        time.sleep(0.08)
        lift = 1 if first_up == "White" else 2
        phone.touch("touchEnd", {lift: fingers[lift]})
        time.sleep(0.08)
        phone.touch("touchEnd", {})
        time.sleep(0.8)
        events = pointers()
        log(f"{name}: the page saw {events}")
        downs = [e[1] for e in events if e[0] == "pointerdown"]
        assert [e[0] for e in events] == ["pointerdown", "pointerdown", "pointerup", "pointerup"] \
            and len(set(downs)) == 2, f"the browser did not deliver two fingers at once: {events}"
        return changed(before, phone.picture(name))

    # Both fingers land in one touch event; the first to land lifts first: both taps land.
    moved = two_fingers("omiga-two-fingers", 1, 1, first_up="White")
    log("two fingers down together, the first down lifted first: changed", sorted(moved))
    assert moved == {("White", 1), ("Black", 1)}, \
        f"both players' taps should select their card; changed: {sorted(moved)}"

    # The same, but the second finger to land lifts first. The page gets both fingers
    # (two pointers, each its own id), but Slint 1.18.1 makes one pointer of them
    # (docs/omiga-touch.md) and this second tap is lost. Checked, so that docs/web.md
    # stays true: when Slint delivers it, this fails and the docs need updating.
    moved = two_fingers("omiga-second-lifted-first", 2, 2, first_up="Black")
    log("two fingers down together, the second down lifted first: changed", sorted(moved))
    assert moved == {("White", 1), ("White", 2)}, \
        f"expected White's selection to move to card 2 and Black's tap to be lost; changed: {sorted(moved)}"

    # Two fingers one after the other, quickly (50 ms apart): both land, whoever is first.
    for first, second, n in (("Black", "White", 3), ("White", "Black", 2)):
        before = phone.picture(f"omiga-{first}-then-{second}-before")
        phone.tap_at(*at[(first, n)])
        time.sleep(0.05)
        phone.tap_at(*at[(second, n)])
        time.sleep(0.8)
        moved = {k for k in changed(before, phone.picture(f"omiga-{first}-then-{second}")) if k[1] == n}
        log(f"{first} then {second}, 50 ms apart: changed", sorted(moved))
        assert moved == {(first, n), (second, n)}, \
            f"both quick taps should select card {n}; changed: {sorted(moved)}"


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


def checks(phone, site, data):
    driver, mirror = phone.d, phone.mirror
    first_visit(phone, site.url)
    safe_areas(phone, site.url)
    game_to_history(phone)
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
    face_to_face(phone, mirror, driver, site.url, data)
    phone.no_errors()

    # Offline: with the server gone, the page starts from the service worker's copy.
    offline(phone, site)


if __name__ == "__main__":
    sys.exit(run("browser", lambda work: (chromium(os.path.join(work, "profile")), ChromiumPhone), checks))
