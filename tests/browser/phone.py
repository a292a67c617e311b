#!/usr/bin/python3
"""The screen-reader layer as phone readers use it (issue 41, docs/accessibility.md "On a
phone"), in headless Chromium as a 412x915 touch phone with its accessibility tree on.
No real TalkBack or VoiceOver runs here: the test replays the events each one is known to
send (docs/research: Chromium's OnNativeClickAction, WebKit's AccessibilityObject::press,
Lauke's event tables) and checks what a player would notice.

1. One activation, whatever the reader. On a button (a seat's colour, which steps through
   the colours), a toggle (Sound cues), an Ovo cell (an egg picked up, put down), an IOTA
   hand card (picked, unpicked), an Omiga hand card (selected, turned, turned back) and a
   text field (a player's name),
   each of these acts exactly once:
   - TalkBack: focus, mousedown, mouseup, click, all sent to the element;
   - VoiceOver: a touch at the element's centre (DevTools `Input.dispatchTouchEvent`,
     through the browser's hit test), then 200 ms later focus, mousedown, mouseup and
     click on the element;
   - a keyboard: Enter, and Space, on the focused element;
   - a sighted tap at the element's centre (the browser's own click follows it).
   A toggle's state after one sequence is the other state (twice would be the same again);
   the colour is the next one in the cycle TalkBack's presses showed; the name field takes
   the letter typed after the activation once.
2. (tests/browser/reader.py, `Reader.explore`, on every screen that test visits.)
3. The cover is the whole screen for a reader too: under Ovo's covers (the first, after
   each move, and after a peek: the game resumed from tests/fixtures/ovo-peek.json, put in
   the page's storage as a save is, then Continue), IOTA's after a turn with a hand
   (Omiga, played face to face, has none), the layer holds the cover's words and nothing
   else (after a peek: not its result, not the board);
   the live regions are in no `aria-modal` element and none is open, and the polite one
   says what the last seat did.
4. Announcements that are heard: both live regions are in the page, empty, when its HTML
   is read and when the app's first frame is drawn; an announcement the app makes at an
   activation is written at least `HOLD_MS` after it; the summary asked twice (closed in
   between) is written twice, differently (a no-break space), so VoiceOver says it again.
6. Omiga's setup at 412x915, flung to its end by a finger: its last buttons whole on
   screen above the margin, in the picture as in the layer (the picture is kept as
   omiga-setup-end.png in --shots DIR). tests/ui_layout.rs checks the same natively.

    tests/browser/phone.py SITE_DIR [--shots DIR]
"""
import argparse
import json
import os
import re
import shutil
import tempfile
import time

from PIL import Image

from common import TAG, ChromiumPhone, Site, chromium, log
from reader import Reader

HOLD_MS = 500  # web/a11y/live.rs
# Before the page's own scripts: where the live regions are when the HTML has been read
# and when the app's first frame is drawn; and when each region's words change.
WATCH = """
(() => {
  const regions = () => ['a11y-live', 'a11y-summary'].map((id) => {
    const e = document.getElementById(id);
    return e ? [id, e.getAttribute('aria-live'), e.textContent] : [id, null, null];
  });
  window.hotseatRegions = {};
  window.hotseatLiveLog = [];
  document.addEventListener('DOMContentLoaded', () => {
    window.hotseatRegions.html = regions();
    for (const id of ['a11y-live', 'a11y-summary']) {
      const e = document.getElementById(id);
      if (e) new MutationObserver(() => window.hotseatLiveLog.push([id, performance.now(), e.textContent]))
        .observe(e, { childList: true, subtree: true, characterData: true });
    }
  });
  new PerformanceObserver((marks) => {
    if (marks.getEntriesByName('hotseat-first-frame').length && !window.hotseatRegions.frame)
      window.hotseatRegions.frame = regions();
  }).observe({ type: 'mark', buffered: true });
})();
"""
COVER_WORDS = re.compile(r"^Pass the device to |, tap to reveal$|^Only .* should look at the screen now|^Take back")


class Phone(Reader):
    """The reader's tree, and the replays of each reader's activation."""

    def element(self, role, name, exact=True):
        backend = self.find(role, name, exact)[2]
        return self.d.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": backend})["object"]["objectId"]

    def call(self, obj, body, *args):
        return self.d.execute_cdp_cmd("Runtime.callFunctionOn", {
            "objectId": obj, "functionDeclaration": body, "returnByValue": True,
            "arguments": [{"value": a} for a in args]})["result"].get("value")

    def centre(self, obj):
        return self.call(obj, "function() { const r = this.getBoundingClientRect();"
                              " return [r.left + r.width / 2, r.top + r.height / 2]; }")

    def touch_at(self, x, y):
        for kind, points in (("touchStart", [{"x": x, "y": y, "id": 1}]), ("touchEnd", [])):
            self.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
            time.sleep(0.05)

    def clicked(self, obj):
        """What a reader's click on the element is: focus, mousedown, mouseup, click."""
        self.call(obj, "function() { this.focus();"
                       " for (const t of ['mousedown', 'mouseup'])"
                       "   this.dispatchEvent(new MouseEvent(t, {bubbles: true, cancelable: true, view: window}));"
                       " window.hotseatClickAt = performance.now(); this.click(); }")

    def key(self, obj, key):
        self.call(obj, "function() { this.focus(); }")
        code, vk, text = {"Enter": ("Enter", 13, "\r"), " ": ("Space", 32, " ")}[key]
        self.d.execute_cdp_cmd("Input.dispatchKeyEvent", {
            "type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk, "text": text})
        self.d.execute_cdp_cmd("Input.dispatchKeyEvent", {
            "type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk})

    def activate(self, obj, how):
        if how == "TalkBack":
            self.clicked(obj)
        elif how == "VoiceOver":
            self.touch_at(*self.centre(obj))
            time.sleep(0.2)
            self.clicked(obj)
        elif how == "Enter":
            self.key(obj, "Enter")
        elif how == "Space":
            self.key(obj, " ")
        elif how == "tap":
            self.touch_at(*self.centre(obj))
        else:
            raise ValueError(how)
        # The app acts, the layer syncs (ten times a second), and a later sequence starts
        # well after this one's last release (web/touch.js drops a click within 500 ms).
        time.sleep(0.8)

    def state(self, obj):
        return self.call(obj, "function() { return [this.getAttribute('aria-label'),"
                              " this.getAttribute('aria-checked'), this.getAttribute('aria-pressed'),"
                              " this.getAttribute('aria-selected')].join('|'); }")

    def layer_words(self):
        """Every element of the layer with words: [role, words]."""
        return self.d.execute_script(
            "return [...document.querySelectorAll('#a11y *')]"
            ".map((e) => [e.getAttribute('role') || e.tagName.toLowerCase(), e.getAttribute('aria-label') || e.textContent])"
            ".filter(([r, w]) => w);")


SEQUENCES = ["TalkBack", "VoiceOver", "Enter", "Space", "tap"]


def toggles_once(phone, what, obj):
    """Each sequence flips a two-state control once: the state after it differs from the
    state before (a double activation would leave it as it was). `obj` may be a function
    that finds the element anew (Omiga's hand is made again when it changes)."""
    find = obj if callable(obj) else (lambda: obj)
    for how in SEQUENCES:
        before = phone.state(find())
        phone.activate(find(), how)
        after = phone.state(find())
        assert after != before, f"{what}: {how}'s activation changed nothing or acted twice ({before})"
        log(f"  {what}: {how} acted once: {before} -> {after}")


def steps_once(phone, what, obj):
    """A control that steps through states (a seat's colour): TalkBack's presses show the
    cycle; every other sequence moves one step along it."""
    cycle = [phone.state(obj)]
    for _ in range(6):
        phone.activate(obj, "TalkBack")
        now = phone.state(obj)
        if now == cycle[0]:
            break
        cycle.append(now)
    assert len(cycle) >= 3, f"{what}: the cycle {cycle} is too short to tell once from twice"
    log(f"  {what}: TalkBack's presses step through {len(cycle)} states")
    for how in SEQUENCES[1:]:
        before = phone.state(obj)
        phone.activate(obj, how)
        after = phone.state(obj)
        want = cycle[(cycle.index(before) + 1) % len(cycle)]
        assert after == want, f"{what}: {how} went from '{before}' to '{after}', not to '{want}'"
        log(f"  {what}: {how} acted once")


def field_once(phone, name):
    """A text field: after each sequence the letter typed goes in once (Space in a field
    is a space, as it should be: not an activation there)."""
    for how in [h for h in SEQUENCES if h != "Space"]:
        obj = phone.element("textbox", name, exact=False)
        before = phone.call(obj, "function() { return this.value; }")
        phone.activate(obj, how)
        # The keyboard types where the page's focus is: on the layer's field after a
        # reader's activation (its focus moves first), in the app's own after a tap.
        phone.d.execute_cdp_cmd("Input.insertText", {"text": "Q"})
        time.sleep(0.5)
        obj = phone.element("textbox", name, exact=False)
        after = phone.call(obj, "function() { return this.value; }")
        assert after == before + "Q", f"the name field after {how} and one letter: '{before}' -> '{after}'"
        log(f"  name field: {how}, then one letter: '{before}' -> '{after}'")
    phone.call(obj, "function(t) { this.focus(); this.value = t;"
                    " this.dispatchEvent(new InputEvent('input', {bubbles: true})); }", "Anna")
    time.sleep(0.4)


def under_cover(phone, game, heard=None):
    """Point 3: the layer holds the cover's words and nothing else; the live regions are
    heard (no modal around or beside them) and say what was done."""
    phone.find("button", ", tap to reveal", exact="end")
    deadline = time.time() + 5
    while True:
        words = phone.layer_words()
        others = [w for w in words if not COVER_WORDS.search(w[1])]
        if len(others) <= 1 and len(words) <= 4:
            break
        assert time.time() < deadline, f"{game}: under the cover the layer holds {len(words)} elements: {words[:12]}"
        time.sleep(0.2)
    # The one other is the cover's hint (a text): no control.
    assert all(r in ("div",) for r, _ in others), f"{game}: under the cover: {others}"
    modal = phone.d.execute_script(
        "const m = document.querySelector('[aria-modal=\"true\"]');"
        "return m ? [m.contains(document.getElementById('a11y-live')), m.outerHTML.slice(0, 80)] : null;")
    assert modal is None or modal[0], f"{game}: a modal is open without the live region: {modal}"
    hidden = phone.d.execute_script(
        "return ['a11y-live', 'a11y-summary'].filter((id) => { const e = document.getElementById(id);"
        " return e.closest('[aria-hidden=\"true\"],[hidden],[inert]') || getComputedStyle(e).display === 'none'"
        " || getComputedStyle(e).visibility === 'hidden'; });")
    assert not hidden, f"{game}: silenced live regions: {hidden}"
    if heard:
        said = phone.wait_live(heard)
        log(f"  {game}: the live region says '{said}'")
    log(f"  {game}: under the cover the layer holds only {words}")


def settings(phone):
    log("a toggle: Sound cues")
    phone.press("button", "Settings")
    toggles_once(phone, "Sound cues", phone.element("checkbox", "Sound cues", exact=False))
    phone.press("button", "Back")


def ovo(phone):
    log("Ovo: a button, a text field, a cell; the covers; announcements")
    phone.press("button", "Ovo")
    steps_once(phone, "Player 1's colour", phone.element("button", "Player 1 colour:", exact=False))
    field_once(phone, "Player 1 name")
    phone.press("button", "Start")
    under_cover(phone, "Ovo's first cover")
    first = phone.find("button", ", tap to reveal", exact="end")[0].removesuffix(", tap to reveal")
    phone.press("button", f"{first}, tap to reveal")
    own = "b1" if first == "Anna" else "b6"
    cell = phone.element("listitem", f"{own}, ", exact=False)
    toggles_once(phone, f"the cell {own}", cell)
    # Five sequences: the egg is up; put it down.
    if "picked up" in phone.state(cell):
        phone.activate(cell, "TalkBack")
    # The first seat's move; then the other seat's, whose announcement is timed.
    src, dst = ("b1", "b2") if first == "Anna" else ("b6", "b5")
    phone.press("listitem", f"{src}, ", exact=False)
    phone.press("listitem", f"{dst}", exact=False)
    other = "Player 2" if first == "Anna" else "Anna"
    under_cover(phone, "Ovo's cover after a move", f"{first} moved {src} to {dst}")
    # An announcement made at an activation waits until the reader has read what it pressed.
    phone.press("button", f"{other}, tap to reveal")
    src, dst = ("b6", "b5") if other == "Player 2" else ("b1", "b2")
    phone.press("listitem", f"{src}, ", exact=False)
    phone.d.execute_script("window.hotseatLiveLog.length = 0")
    phone.clicked(phone.element("listitem", f"{dst}", exact=False))
    said = phone.wait_live(f"{other} moved {src} to {dst}")
    clicked, log_ = phone.d.execute_script("return [window.hotseatClickAt, window.hotseatLiveLog]")
    written = [at for (id_, at, text) in log_ if id_ == "a11y-live" and text.startswith(f"{other} moved")]
    assert written, f"no change of the live region was seen: {log_}"
    waited = written[0] - clicked
    assert waited >= HOLD_MS - 5, f"'{said}' was written {waited:.0f} ms after the activation, under {HOLD_MS}"
    log(f"  '{said}' written {waited:.0f} ms after the activation that made it")
    under_cover(phone, "Ovo's cover after the second move", f"{other} moved")
    phone.press("button", f"{first}, tap to reveal")
    summary_twice(phone)
    leave(phone)


PEEK_SAVE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "ovo-peek.json")


def ovo_peek(phone, site):
    """Point 3 after a peek: the game resumed from the fixture (Player 2 to move, a hidden
    egg on d6 that they may peek at); Player 2 peeks, the result is on their screen, and
    under the cover that follows «Got it» the layer holds the cover's words only: not the
    result, not the board; nor does Player 1's screen after the reveal hold the result."""
    log("Ovo: a peek, and the cover after it (a saved game resumed)")
    with open(PEEK_SAVE) as f:
        save = json.load(f)
    phone.d.execute_script("localStorage.setItem('hotseat/current-game.json', arguments[0])", json.dumps(save))
    phone.d.get(site.url)
    phone.wait_started()
    phone.press("button", "Continue the saved game", exact=False)
    under_cover(phone, "Ovo's cover before the peek")
    phone.press("button", "Player 2, tap to reveal")
    phone.press("listitem", "d6, hidden egg", exact=False)
    phone.press("button", "Peek at this egg")
    result = "d6 is a diamond — remember it"
    words = [w for _, w in phone.layer_words()]
    assert result in words, f"the peek's result is not in the layer for the peeker: {words}"
    log(f"  Player 2 peeked: '{result}' in the layer")
    phone.press("button", "Got it")
    under_cover(phone, "Ovo's cover after a peek", "Player 2 peeked at d6")
    # The next seat's screen has no word of it either.
    phone.press("button", "Player 1, tap to reveal")
    phone.find("listitem", "d6, hidden egg", exact=False)
    leaked = [w for _, w in phone.layer_words() if "remember it" in w or "d6 is a" in w]
    assert not leaked, f"Player 1's screen holds Player 2's peek: {leaked}"
    leave(phone)


def summary_twice(phone):
    """The same summary asked twice (closed between) is written twice, not equal."""
    said = []
    for _ in range(2):
        phone.press("button", "Summary of the game")
        deadline = time.time() + 5
        while not phone.d.execute_script("return document.getElementById('a11y-summary').textContent"):
            assert time.time() < deadline, "the summary is not in its live region"
            time.sleep(0.1)
        said.append(phone.d.execute_script("return document.getElementById('a11y-summary').textContent"))
        phone.press("button", "Close the summary")
        deadline = time.time() + 5
        while phone.d.execute_script("return document.getElementById('a11y-summary').textContent"):
            assert time.time() < deadline, "the summary stays in its live region after Close"
            time.sleep(0.1)
    assert said[0].strip() == said[1].strip(), said
    assert said[0] != said[1], f"the summary was written twice the same ('{said[0]}'): VoiceOver says it once"
    log(f"  the summary twice: {said[0][:40]!r}… then the same with {len(said[1]) - len(said[0]):+d} character")


def iota(phone):
    log("IOTA: a hand card; the cover with a hand behind it")
    phone.press("button", "IOTA")
    phone.press("button", "Start")
    seat = phone.find("button", ", tap to reveal", exact="end")[0].removesuffix(", tap to reveal")
    under_cover(phone, "IOTA's first cover")
    phone.press("button", f"{seat}, tap to reveal")
    toggles_once(phone, "IOTA's hand card 1", phone.element("button", "Your card 1", exact=False))
    phone.press("button", "Pass")
    under_cover(phone, "IOTA's cover after a turn with a hand", f"{seat} passed")
    phone.press("button", ", tap to reveal", exact="end")
    leave(phone)


def omiga(phone):
    """An Omiga hand card (face to face, both seats people): each sequence selects White's
    first card, turns it, turns it back (the rule "cards may be turned" is on by default):
    its words change every time, and would come back the same after a double activation.
    Play starts after the countdown ("Ready?", 3 s): a tap before it is refused."""
    log("Omiga: a hand card")
    phone.press("button", "Omiga")
    phone.press("button", "Start")
    card = lambda: phone.element("button", "White card 1/", exact=False)  # noqa: E731
    deadline = time.time() + 15
    while True:
        phone.activate(card(), "TalkBack")
        if "selected" in phone.state(card()):
            break
        assert time.time() < deadline, f"Omiga's card is not taken after the countdown: {phone.state(card())}"
    log(f"  the countdown is over: {phone.state(card())}")
    toggles_once(phone, "Omiga's hand card 1 (White)", card)
    leave(phone)


def leave(phone):
    """Leaves the game for home (it stays saved)."""
    phone.press("button", "Leave the game")
    if not any(r == "button" and n == "Omiga" for r, n, _, _ in phone.nodes()):
        phone.press("button", "Leave")
    phone.find("button", "Omiga")


def omiga_setup_scrolls_to_its_end(phone, shots):
    """Point 6: at 412x915 Omiga's setup scrolls far enough that its last buttons and the
    "Two phones" card are whole on screen, with the screen's margin under them. A
    finger's flings (DevTools touches) scroll it; where each control is drawn is where
    the layer places it (cut to the window), and the picture must show the Join button
    there (not the page's plain background) and the margin's plain background under it."""
    log("Omiga's setup scrolled to its end at 412x915")
    phone.press("button", "Omiga")
    start = phone.element("button", "Start")
    box = lambda obj: phone.call(obj, "function() { const r = this.getBoundingClientRect();"  # noqa: E731
                                      " return [r.left, r.top, r.width, r.height]; }")
    tall = box(start)[3]
    for _ in range(4):
        for kind, y in (("touchStart", 760), ("touchMove", 600), ("touchMove", 400), ("touchMove", 200), ("touchEnd", None)):
            points = [] if y is None else [{"x": 206, "y": y, "id": 1}]
            phone.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
            time.sleep(0.03)
        time.sleep(0.6)
    time.sleep(1.0)
    height = phone.d.execute_script("return window.innerHeight")
    path = os.path.join(shots, "omiga-setup-end.png")
    phone.d.save_screenshot(path)
    picture = Image.open(path).convert("RGB")
    scale = picture.width / phone.d.execute_script("return window.innerWidth")
    for name in ("Host a game on two devices", "Join a game on two devices"):
        x, y, w, h = box(phone.element("button", name))
        log(f"  '{name}' at y {y:.0f}..{y + h:.0f} of {height}")
        assert h >= tall - 1 and y + h <= height - 8, \
            f"'{name}' is cut at the bottom: y {y:.0f}..{y + h:.0f} (as tall as Start: {tall:.0f}) of {height}"
        inside = picture.crop((round(x * scale), round(y * scale), round((x + w) * scale), round((y + h) * scale)))
        colours = len(set(inside.getdata()))
        assert colours > 4, f"nothing is drawn where '{name}' is ({colours} colours): {path}"
    # Under the last buttons, their card's end, then the screen's margin: its last 10 px
    # plain (the card's edge and lip would be a shadow and a face there).
    below = picture.crop((0, round((height - 10) * scale), picture.width, round(height * scale)))
    plain = len(set(below.getdata()))
    assert plain <= 3, f"the window's last 10 px are not the plain margin ({plain} colours): {path}"
    text = [w for _, w in phone.layer_words() if w.startswith("Each player on their own phone")]
    assert text, "the Two phones card's words are not in the layer"
    phone.press("button", "Back")
    phone.find("button", "Ovo")


def regions_from_the_start(phone):
    regions = phone.d.execute_script("return window.hotseatRegions")
    log(f"the live regions when the HTML is read: {regions.get('html')}, at the first frame: {regions.get('frame')}")
    for when in ("html", "frame"):
        got = regions.get(when)
        assert got, f"no look at the live regions at '{when}'"
        for id_, live, text in got:
            assert live in ("polite", "assertive") and text == "", \
                f"the live region {id_} at '{when}': aria-live {live}, words {text!r}"


def checks(phone, site, shots):
    phone.d.get(site.url)
    phone.wait_started()
    regions_from_the_start(phone)
    settings(phone)
    ovo(phone)
    ovo_peek(phone, site)
    iota(phone)
    omiga(phone)
    omiga_setup_scrolls_to_its_end(phone, shots)
    errors = [e for e in phone.errors() if e.get("source") != "intervention"]
    assert not errors, f"errors in the page: {errors}"


def main():
    TAG[0] = "phone"
    args = argparse.ArgumentParser()
    args.add_argument("site")
    # The picture of Omiga's setup scrolled to its end is kept here (else it goes with
    # the scratch folder).
    args.add_argument("--shots", default=None)
    a = args.parse_args()
    work = tempfile.mkdtemp(prefix="hotseat-phone-")
    site, driver = Site(a.site, inject=WATCH), None
    try:
        driver = chromium(os.path.join(work, "profile"), flags=["--force-renderer-accessibility"])
        page = ChromiumPhone(driver, None, work)
        reader = Phone(driver)
        reader.errors = page.errors
        reader.wait_started = page.wait_started
        shots = a.shots or work
        os.makedirs(shots, exist_ok=True)
        checks(reader, site, shots)
        log("passed")
    finally:
        if driver:
            driver.quit()
        site.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
