#!/usr/bin/python3
"""A screen reader's view of the browser build (issue #29): headless Chromium with its
accessibility tree switched on (`--force-renderer-accessibility`), as a 412x915 touch phone.

The test sees the page only as a screen reader does: Chromium's own accessibility tree,
read over DevTools (`Accessibility.getFullAXTree`). It finds each control there by role
and name, and activates it as TalkBack's or VoiceOver's double tap does, with a click
event sent to that control's DOM element (`DOM.resolveNode` of the tree node's
`backendDOMNodeId`): no coordinates, no picture, no mirror. It plays a 2-player Ovo game
to its end (the first player's name typed into the setup's field, a move each, then a
wrong «Ovo!»), and IOTA's first turns (a pass each), and checks: at every cover the live region says what the other
seat did and the cover's button who takes the device, and the page's focus has
followed the app's to the reveal button, and the tree holds no hand, no IOTA card, no
peek's result; after a reveal the board's cells are there by name;
the end is announced. That a control below the fold of a phone's screen is in the tree,
that a reader's focus on it scrolls it into view and that pressing it works. That the layer and the page's language (`<html lang>`) follow the
language chosen in the settings. Also that a finger's tap still reaches the app through the layer
(web/touch.js hands it to the canvas), and Tab stays in the canvas; and on every screen
the test comes to, that a finger exploring the screen finds each element of the layer at
its centre, never the canvas (issue 41, `Reader.explore`).

    tests/browser/reader.py SITE_DIR
"""
import argparse
import os
import re
import shutil
import tempfile
import time

from common import TAG, ChromiumPhone, Site, chromium, log

# What must never be in the tree under a cover: a hand (IOTA's "Your card 1: …"), a
# peek's result ("c1 is a diamond — remember it"), a pick of the last seat. (The table
# itself is public: the desktop tree keeps it under the cover too.)
SECRETS = re.compile(r"Your card|remember it|picked up|Picked:")


class Reader:
    """Chromium's accessibility tree, as a screen reader gets it."""

    def __init__(self, driver, explore=False):
        self.d = driver
        self.d.execute_cdp_cmd("Accessibility.enable", {})
        self.d.execute_cdp_cmd("DOM.enable", {})
        # Each screen a press comes to is explored by finger (`explore`), once.
        self.exploring = explore
        self.explored = set()
        self.spots = 0

    def nodes(self):
        """Every node that is not ignored: (role, name, description, backendDOMNodeId)."""
        tree = self.d.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
        out = []
        for n in tree:
            if n.get("ignored"):
                continue
            role = n.get("role", {}).get("value", "")
            name = n.get("name", {}).get("value", "")
            desc = n.get("description", {}).get("value", "")
            out.append((role, name, desc, n.get("backendDOMNodeId")))
        return out

    def words(self):
        """All names and descriptions in the tree, and the live region's text."""
        return [w for (_, name, desc, _) in self.nodes() for w in (name, desc) if w]

    def focused(self):
        """The name of the page's focused element."""
        return self.d.execute_script("return document.activeElement.getAttribute('aria-label')")

    def live(self):
        return self.d.execute_script("return document.getElementById('a11y-live').textContent")

    def find(self, role, name, exact=True, wait=10.0):
        """The tree node of role `role` named `name` (exact=False: starting with it; "end":
        ending with it), waited for."""
        deadline = time.time() + wait
        fits = {True: str.__eq__, False: str.startswith, "end": str.endswith}[exact]
        while True:
            for (r, n, d, backend) in self.nodes():
                if r == role and fits(n, name) and backend:
                    return n, d, backend
            if time.time() > deadline:
                shown = [(r, n) for (r, n, _, _) in self.nodes() if n]
                raise AssertionError(f"no {role} '{name}' in the tree; it has {shown}")
            time.sleep(0.2)

    def press(self, role, name, exact=True):
        """Activates it as a screen reader does: its DOM element takes the focus and is sent
    a click event."""
        found, desc, backend = self.find(role, name, exact)
        obj = self.d.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": backend})["object"]
        self.d.execute_cdp_cmd("Runtime.callFunctionOn", {
            "objectId": obj["objectId"],
            "functionDeclaration": "function() { this.focus(); this.click(); }"})
        log(f"  pressed {role} '{found}'")
        # The layer looks for changes ten times a second (web/a11y/mod.rs): a person
        # hears the answer before acting again; so does the test.
        time.sleep(0.4)
        if self.exploring:
            self.explore()
        return found, desc

    def explore(self, tries=3):
        """A finger exploring the screen finds names (issue 41): at the centre of every
        element of the layer, the browser's own hit test (`DOM.getNodeForLocation`, which
        honours `pointer-events`, as TalkBack's and VoiceOver's touch exploration do) finds
        that element (or one inside it), never the canvas; an element placed where a
        scroll view hides it is found nowhere. Each screen once."""
        spots = self.d.execute_script(
            "return [...document.querySelectorAll('#a11y *')].map((e, i) => {"
            " const r = e.getBoundingClientRect();"
            " return [i, (e.getAttribute('aria-label') || e.textContent || '').slice(0, 50),"
            "  Math.round(r.left + r.width / 2 - 0.5), Math.round(r.top + r.height / 2 - 0.5),"
            "  getComputedStyle(e).pointerEvents === 'none' ? (e.dataset.away ? 'away' : 'none') : 'auto']; });")
        screen = tuple(sorted(name for (_, name, _, _, _) in spots))
        if screen in self.explored:
            return
        wrong = []
        for i, name, x, y, events in spots:
            hit = self.d.execute_cdp_cmd("DOM.getNodeForLocation", {
                "x": x, "y": y, "ignorePointerEventsNone": False})
            obj = self.d.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": hit["backendNodeId"]})["object"]
            inside, what = self.d.execute_cdp_cmd("Runtime.callFunctionOn", {
                "objectId": obj["objectId"], "arguments": [{"value": i}], "returnByValue": True,
                "functionDeclaration":
                    "function(i) { const e = document.querySelectorAll('#a11y *')[i];"
                    " const n = this.nodeType === 1 ? this : this.parentElement;"
                    " return [!!e && (e === n || e.contains(n)),"
                    "  n.id || n.getAttribute('aria-label') || n.textContent.slice(0, 50) || n.tagName]; }"})["result"]["value"]
            if events == "away" and inside:
                wrong.append(f"'{name}' is scrolled away but a finger finds it at {x},{y}")
            elif events != "away" and not inside:
                wrong.append(f"at the centre of '{name}' ({x},{y}) a finger finds '{what}'")
        if wrong and tries > 1:
            # The layer synced while it was being explored: again, on the settled screen.
            time.sleep(0.5)
            return self.explore(tries - 1)
        assert not wrong, f"exploring by touch: {wrong[:6]} ({len(wrong)} of {len(spots)})"
        self.explored.add(screen)
        self.spots += len(spots)
        away = sum(1 for s in spots if s[4] == "away")
        log(f"  explored by touch: all {len(spots)} elements found at their centres"
            + (f" ({away} scrolled away found nowhere)" if away else ""))

    def type_into(self, name, text):
        """Types into the text field named `name` as a reader's keyboard does: the field's
        text changes and the page hears an `input` event."""
        found, _, backend = self.find("textbox", name, exact=False)
        obj = self.d.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": backend})["object"]
        self.d.execute_cdp_cmd("Runtime.callFunctionOn", {
            "objectId": obj["objectId"], "arguments": [{"value": text}],
            "functionDeclaration": "function(t) { this.focus(); this.value = t;"
                                   " this.dispatchEvent(new InputEvent('input', {bubbles: true})); }"})
        log(f"  typed '{text}' into textbox '{found}'")
        time.sleep(0.4)

    def wait_live(self, start, wait=10.0):
        """Waits until the live region's text starts with `start`; returns it."""
        deadline = time.time() + wait
        while True:
            said = self.live()
            if said.startswith(start):
                return said
            if time.time() > deadline:
                raise AssertionError(f"the live region says '{said}', not '{start}…'")
            time.sleep(0.2)


def covered(reader, who, heard):
    """At a cover: the reveal button names who takes the device, the live region says what
    the other seat did, and nothing private is in the tree. Returns the reveal's name."""
    if who:
        name, desc = reader.find("button", f"{who}, tap to reveal")[:2]
    else:
        name, desc = reader.find("button", ", tap to reveal", exact="end")[:2]
    if heard:
        said = reader.wait_live(heard)
        log(f"  the live region says: '{said}'")
    # The app puts its focus on the reveal button when the cover rises; the page's focus,
    # in the layer since the last press, follows it there.
    deadline = time.time() + 5
    while reader.focused() != name:
        assert time.time() < deadline, f"the focus is on '{reader.focused()}', not on '{name}'"
        time.sleep(0.2)
    leaks = [w for w in reader.words() if SECRETS.search(w)]
    assert not leaks, f"under the cover the tree holds {leaks}"
    log(f"  cover: '{name}' ({desc}), focused; nothing private among {len(reader.words())} words")
    return name.removesuffix(", tap to reveal")


def focus_lands(reader, name):
    """The page's focus, in the layer since the last press, lands where the app's does
    on a new screen, even where that is no control (a screen's title, the board) and the
    app's focus stayed on the same element (one element names every screen): else a
    reader is left on the page's body, with nothing to read from."""
    deadline = time.time() + 5
    while reader.focused() != name:
        assert time.time() < deadline, f"the focus is on '{reader.focused()}', not on '{name}'"
        time.sleep(0.2)
    log(f"  the page's focus followed the app's to '{name}'")


def ovo(reader):
    """A whole 2-player Ovo game through the tree: Player 1 moves an egg, Player 2 moves
    one, then Player 1 declares «Ovo!» wrongly and Player 2 wins."""
    log("Ovo, 2 players, through the accessibility tree")
    reader.press("button", "Ovo")
    focus_lands(reader, "New game: Ovo")
    # The first player's name, typed into the setup's field.
    fields = [n for (r, n, _, _) in reader.nodes() if r == "textbox"]
    log(f"  the setup's text fields: {fields}")
    reader.type_into(fields[0], "Anna")
    # The layer is heard, never seen: its text fields are `<input>`s, which the browser
    # paints white with ink of their own unless told otherwise (a white bar showed over
    # every name field).
    painted = reader.d.execute_script(
        "return [...document.querySelectorAll('input[aria-label]')]"
        ".map(e => { const s = getComputedStyle(e); return [e.getAttribute('aria-label'), s.backgroundColor, s.color]; })"
        ".filter(([_, bg, ink]) => bg !== 'rgba(0, 0, 0, 0)' || ink !== 'rgba(0, 0, 0, 0)');")
    assert not painted, f"the layer's text fields are seen: {painted}"
    reader.press("button", "Start")
    first = covered(reader, None, None)
    reader.press("button", f"{first}, tap to reveal")
    focus_lands(reader, "Egg tray")
    moves = {"Anna": ("b1", "b2"), "Player 2": ("b6", "b5")}
    seat = first
    other = "Player 2" if first == "Anna" else "Anna"
    for turn in range(2):
        src, dst = moves[seat]
        reader.press("listitem", f"{src}, ", exact=False)
        # The egg is picked up; the reader stays on its cell (the page's focus neither
        # falls to the body nor goes back to the board: the next step starts from here).
        time.sleep(0.3)
        here = reader.focused() or ""
        assert here.startswith(f"{src}, "), f"after picking {src} the focus is on '{here}'"
        reader.find("list", "Egg tray", exact=False)
        reader.press("listitem", f"{dst}", exact=False)
        covered(reader, other, f"{seat} moved {src} to {dst}")
        reader.press("button", f"{other}, tap to reveal")
        seat, other = other, seat
    reader.press("button", "Declare «Ovo!»")
    # The question comes up (its answers first in the tree): declare, not now.
    reader.find("button", "Not now")
    reader.press("button", "Declare «Ovo!»")
    said = reader.wait_live(f"{seat} declared «Ovo!» — wrong")
    log(f"  the end is heard: '{said}'")
    reader.press("button", "Back to home")
    reader.find("button", "Ovo")


def iota(reader):
    """IOTA's first turns: each seat passes; the hand is in the tree only for the seat
    holding the device, after the reveal."""
    log("IOTA, 2 players, the first turns through the accessibility tree")
    reader.press("button", "IOTA")
    reader.press("button", "Start")
    seat = covered(reader, None, None)
    for turn in range(2):
        reader.press("button", f"{seat}, tap to reveal")
        card = reader.find("button", "Your card 1", exact=False)[0]
        log(f"  {seat} holds '{card}'")
        reader.press("button", "Pass")
        # The setup keeps the names of the last game ("Anna" typed in Ovo's).
        nxt = covered(reader, None, f"{seat} passed")
        assert nxt != seat, f"{seat} passed and holds the device again"
        seat = nxt


def taps_reach_the_canvas(phone, reader):
    """With the layer over the canvas, a finger's tap still reaches the app: it lands on a
    layer element (which a finger exploring must find, `Reader.explore`), and the page
    hands it to the canvas (web/touch.js): tapping Settings opens the settings, once."""
    x, y = phone.d.execute_script(
        "const e = [...document.querySelectorAll('#a11y [role=button]')]"
        ".find((e) => e.getAttribute('aria-label') === 'Settings');"
        "const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];")
    top = phone.d.execute_script(
        "const e = document.elementFromPoint(arguments[0], arguments[1]); return e && e.getAttribute('aria-label');", x, y)
    assert top == "Settings", f"a finger at Settings' centre finds '{top}'"
    phone.tap_at(x, y)
    reader.find("checkbox", "Sound cues", exact=False)
    log("a tap on Settings, over its layer element, reached the app: the settings are open")
    # The click after a tap is dropped for 500 ms (web/touch.js); a person's next double
    # tap comes later than that.
    time.sleep(0.6)
    reader.press("button", "Back")
    reader.find("button", "Ovo")
    # Nor does the layer take the keyboard from the app: Tab stays in the canvas (the
    # app's own focus chain), though the layer's controls are tab stops for a reader.
    phone.d.execute_script("document.getElementById('canvas').focus()")
    for kind in ("keyDown", "keyUp"):
        phone.d.execute_cdp_cmd("Input.dispatchKeyEvent", {
            "type": kind, "key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9})
    time.sleep(0.3)
    focused = phone.d.execute_script("return document.activeElement.id")
    assert focused == "canvas", f"Tab moved the page's focus to '{focused}'"
    log("Tab in the canvas stays in the canvas")


def below_the_fold(reader):
    """A control a phone's screen does not show until scrolled (Omiga's setup at 412x915:
    its two-phone buttons are under Start) is in the tree all the same; a reader's focus on
    it scrolls the screen until it is in view (what is read is what is seen), and pressing
    it opens the next screen."""
    log("below the fold: Omiga's setup, Join under Two phones")
    reader.press("button", "Omiga")
    focus_lands(reader, "New game: Omiga")
    name = "Join a game on two devices"
    box = lambda backend: reader.d.execute_cdp_cmd(  # noqa: E731
        "DOM.getBoxModel", {"backendNodeId": backend})["model"]["border"][1::2]
    start = reader.find("button", "Start")[2]
    join = reader.find("button", name)[2]
    start_before, join_before = box(start), box(join)
    height = reader.d.execute_script("return window.innerHeight")
    obj = reader.d.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": join})["object"]
    reader.d.execute_cdp_cmd("Runtime.callFunctionOn", {
        "objectId": obj["objectId"], "functionDeclaration": "function() { this.focus(); }"})
    deadline = time.time() + 5
    while box(start)[0] >= start_before[0]:
        assert time.time() < deadline, f"focus on '{name}' scrolled nothing: Start stays at {box(start)}"
        time.sleep(0.2)
    time.sleep(0.2)
    # The layer's boxes are cut to the window: most of the button's height (as tall as
    # Start) is in it, under Start, where the screen now draws it.
    top, bottom = min(box(join)), max(box(join))
    tall = start_before[2] - start_before[0]
    assert max(box(start)) <= top and bottom <= height and bottom - top >= 0.8 * tall, \
        f"'{name}' is at y {top}..{bottom} (Start at {box(start)}), not in the window"
    scrolled = reader.d.execute_script("return document.getElementById('a11y').scrollTop")
    assert scrolled == 0, f"the layer itself scrolled by {scrolled}px"
    log(f"  focus on '{name}' (placed at y {min(join_before)}..{max(join_before)}) scrolled the screen:"
        f" Start from y {start_before[0]} to {box(start)[0]}, '{name}' now at y {top}..{bottom}")
    reader.press("button", name)
    focus_lands(reader, name)
    role = reader.d.execute_script("return document.activeElement.getAttribute('role')")
    assert role == "group", f"the focus is on a {role} '{name}', not on the next screen's name"
    reader.find("textbox", "1. The hosting phone's pairing text", exact=False)
    reader.press("button", "Back")
    focus_lands(reader, "New game: Omiga")
    reader.press("button", "Back")
    reader.find("button", "Ovo")


def language(reader):
    """The layer speaks the player's language, and the page says which (`<html lang>`),
    so that a reader picks the voice: Russian chosen in the settings through the tree,
    then English again."""
    lang = lambda: reader.d.execute_script("return document.documentElement.lang")  # noqa: E731
    reader.press("button", "Settings")
    reader.press("button", "Русский")
    deadline = time.time() + 5
    while lang() != "ru" or not any(re.search("[а-яА-Я]", n) for (r, n, _, _) in reader.nodes() if r == "button"):
        assert time.time() < deadline, f"after Русский the page's language is '{lang()}'"
        time.sleep(0.2)
    russian = [n for (r, n, _, _) in reader.nodes() if r == "button" and re.search("[а-яА-Я]", n)]
    log(f"  in Russian: lang '{lang()}', buttons {russian[:4]}")
    reader.press("button", "English")
    reader.find("button", "Back")
    assert lang() == "en", lang()
    reader.press("button", "Back")
    log("  in English again: lang 'en'")


def checks(phone, site):
    phone.d.get(site.url)
    phone.wait_started()
    reader = Reader(phone.d, explore=True)
    reader.explore()
    shown = [(r, n) for (r, n, _, _) in reader.nodes() if n and r not in ("StaticText", "InlineTextBox")]
    log(f"home: {len(shown)} named nodes, e.g. {shown[:8]}")
    reader.find("button", "Ovo")
    taps_reach_the_canvas(phone, reader)
    language(reader)
    below_the_fold(reader)
    ovo(reader)
    iota(reader)
    log(f"{len(reader.explored)} screens explored by touch, {reader.spots} elements in all")
    # Read once: the driver's log empties as it is read. Left out: Chromium declining
    # `navigator.vibrate` (an "intervention") because a script's click is no user
    # activation; a screen reader's activation is one (Chromium notes it as such).
    errors = [e for e in phone.errors() if e.get("source") != "intervention"]
    assert not errors, f"errors in the page: {errors}"


def main():
    """No mirror here: the tree says where everything is."""
    TAG[0] = "reader"
    args = argparse.ArgumentParser()
    args.add_argument("site")
    a = args.parse_args()
    work = tempfile.mkdtemp(prefix="hotseat-reader-")
    shots = os.path.join(work, "shots")  # the Phone's; this test takes no picture
    os.makedirs(shots, exist_ok=True)
    site, driver = Site(a.site), None
    try:
        driver = chromium(os.path.join(work, "profile"), flags=["--force-renderer-accessibility"])
        checks(ChromiumPhone(driver, None, shots), site)
        log("passed")
    finally:
        if driver:
            driver.quit()
        site.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
