#!/usr/bin/python3
"""The browser build heard through Orca 43 (issue #29 point 5; run by .ci/orca-web).

Chromium, not headless, on the private desktop .ci/desktop makes (Xvfb, the AT-SPI bus,
Orca with its debug log), opens the built site from a loopback server with its renderer's
accessibility on; Chromium gives the page's tree — the screen-reader layer web/a11y keeps
over the canvas — to Orca over AT-SPI. The test then plays as a blind player does, with
keys alone, through Orca: `b` (Orca's next button in browse mode) to reach a button,
Tab/Shift+Tab between the board's cells, Return to act. It never reads the tree to act:
it acts on what Orca has just said, and checks what Orca says (the "SPEECH OUTPUT:" lines
of its debug log) at each step of a 2-player Ovo game's first turn pair:

  - the setup and the board are spoken when they come (the page's focus follows the
    app's, so Orca has a place to read from);
  - at each cover, the hand-off: "<seat>, tap to reveal" and "Pass the device to <seat>";
  - at the second and third cover, the move the other seat just made
    ("Player 2 moved f6 to f5"), which the layer's live region carries.

Then (issue 41 point 5), each from home: Ovo to its end (the seat holding the device
declares «Ovo!» wrongly, which ends a two-player game: the end must be heard); IOTA, two
turns of two people, each seat's hand heard after its reveal and no "Your card" spoken
from a hand-off to the next reveal, "<seat> passed" heard at each cover; Omiga against
the app (easy): "Play!", White's hand, the app's cards as it lays them and the end
("The app (easy) wins!"); Ovo's lesson: step 1 done by keys, its result and step 2's
words heard.

On a failure it prints the last lines Orca spoke. Needs Debian's /usr/bin/python3 with
python3-pyatspi, chromium, xdotool, a running Orca and DISPLAY/D-Bus set (.ci/orca-web).

    tests/orca/browser.py --site DIR --orca-log FILE [--transcript FILE]
"""

import argparse
import functools
import http.server
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from atspi_driver import Ears, Failure, Listener  # noqa: E402
import pyatspi  # noqa: E402

REVEAL = ", tap to reveal push button"

# Each seat's first step: Player 1's eggs start on row 1, Player 2's on row 6 (Ovo's
# board). From the board, which has the focus after the reveal, Orca's `b` / Shift+B
# reaches the button beside the tray on that side; from there Tab or Shift+Tab walks the
# tray's 36 cells, tab stops in reading order (a1 … f6), to the egg and its landing.
MOVES = {
    # seat: (Orca's key to the button, the button, the key through the cells, egg, landing)
    "Player 1": ("shift+b", "Summary of the game", "Tab", "a1", "a2"),
    "Player 2": ("b", "Declare «Ovo!»", "shift+Tab", "f6", "f5"),
}


class Server:
    """The built site on 127.0.0.1, on a port of its own (a thread of this process)."""

    def __init__(self, root):
        class Handler(http.server.SimpleHTTPRequestHandler):
            # The browser streams the module with this type, or refuses it.
            extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                              ".wasm": "application/wasm",
                              ".webmanifest": "application/manifest+json"}

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=root))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


def chromium(url, profile, log):
    """Chromium on the display, with the page's accessibility tree given to AT-SPI."""
    flags = [
        # The renderer builds the page's accessibility tree from the start (otherwise
        # Chromium waits to be asked by an assistive technology it recognises).
        "--force-renderer-accessibility",
        # As root Chromium's sandbox does not start; --test-type drops the infobar that
        # warns of it (an alert Orca would read out over the page).
        "--no-sandbox", "--test-type",
        f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
        "--password-store=basic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        # WebGL2 for Slint's renderer without a GPU.
        "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
        # The words of the app, the layer and Orca in one language.
        "--lang=en-US",
        # A phone-sized window with nothing but the page.
        "--window-position=0,0", "--window-size=412,915", f"--app={url}",
    ]
    return subprocess.Popen(["/usr/bin/chromium", *flags], stdout=log, stderr=log)


def find_document(wait=90.0):
    """Chromium's web document holding the layer: there once the app has drawn its first
    frame and the layer's first walk is in the page (the home screen's Ovo button)."""
    end = time.time() + wait
    while time.time() < end:
        desk = pyatspi.Registry.getDesktop(0)
        for i in range(desk.childCount):
            app = desk.getChildAtIndex(i)
            if app is None or "hromium" not in (app.name or ""):
                continue
            doc = pyatspi.findDescendant(
                app, lambda o: o.getRole() == pyatspi.ROLE_DOCUMENT_WEB)
            if doc is not None and pyatspi.findDescendant(
                    doc, lambda o: o.getRole() == pyatspi.ROLE_PUSH_BUTTON and o.name == "Ovo"):
                return doc
        time.sleep(1)
    raise Failure("the page's layer never showed the home screen on the AT-SPI bus")


class Player(Listener):
    """Keys in, Orca's words out."""

    def key(self, key):
        self.note(f"  [key {key}]")
        subprocess.run(["xdotool", "key", "--clearmodifiers", key], check=True, timeout=10)

    def settle(self, quiet=0.8, within=8.0):
        """Waits until Orca has been silent for `quiet` seconds: what it says after the
        next key is then that key's answer, not the tail of an earlier one (Orca with its
        debug log lags on a loaded machine). Returns what it said meanwhile."""
        end = time.time() + within
        last = time.time()
        said = []
        while time.time() < end and time.time() - last < quiet:
            time.sleep(0.1)
            before = len(self.heard)
            self.listen()
            if len(self.heard) > before:
                said += self.heard[before:]
                last = time.time()
        return said

    def until(self, key, words, presses=40, late=True):
        """Presses `key` until Orca says `words`, as a player steps from element to
        element, each heard before the next press. Returns what Orca said at the last."""
        for _ in range(presses):
            # Orca lags on a loaded machine: what it says after the quiet that ended the
            # last press's wait is still that press's answer, and may be the one wanted.
            tail = " | ".join(self.settle())
            self.heard = []
            if late and words in tail:
                return tail
            self.key(key)
            said = " | ".join(self.settle())
            self.heard = []
            if words in said:
                return said
        raise Failure(f"{presses} presses of {key} never reached {words!r}")


def cover(p, last_move=None, since=0):
    """A cover: Orca says whom it asks for — the reveal button, which has the focus, and
    its description — and, after a move, what the other seat did: the layer's live region
    says it as an utterance of its own (the description repeats it; the test wants the
    live region's). `since`: where in Orca's speech the cover's words start. Returns the
    seat asked for."""
    said = p.hear(REVEAL, "Pass the device to ")
    who = re.search(r"([^|.]+?)" + re.escape(REVEAL), said).group(1).strip()
    if f"Pass the device to {who}" not in said:
        p.hear(f"Pass the device to {who}")
    if last_move:
        p.settle()
        lines = [line.strip(" .") for line in p.all[since:]]
        if last_move not in lines:
            raise Failure(f"the live region's '{last_move}' was not spoken on its own: {lines}")
    p.note(f"  -> hand-off heard: {who}" + (f"; the other seat's move heard: {last_move}" if last_move else ""))
    return who


def move(p, who):
    """The seat holding the device steps an egg one square forward, by keys, each square
    heard before it is chosen. Returns the move as the app announces it."""
    to_button, button, key, egg, landing = MOVES[who]
    p.until(to_button, f"{button} push button", presses=6)
    p.until(key, f"{egg}, {who} ", presses=2)
    p.key("Return")
    # The egg is chosen: its landing squares say so.
    p.until(key, f"{landing}, empty, legal landing", presses=8)
    since = len(p.all)
    p.key("Return")
    return f"{who} moved {egg} to {landing}", since


def to_start(p):
    """From a setup's title to its Start button: Start and "Learn to play" are the last
    buttons of a setup (Omiga's two-device ones come after them), so from the page's end
    Orca's previous button (Shift+B) reaches Start in a few presses."""
    p.key("ctrl+End")
    # Orca reads the last line, Start and "Learn to play" side by side, and stays on
    # "Learn to play": its words must not count as having reached Start.
    p.settle(quiet=1.5)
    p.heard = []
    p.until("shift+b", "Start push button", presses=6, late=False)


def play(p):
    p.note("\n## Home: the layer is read; to Ovo by Orca's button navigation")
    p.key("ctrl+Home")
    p.until("b", "Ovo push button")
    p.key("Return")
    p.note("\n## Setup: its title is spoken (the page's focus followed the app's)")
    p.hear("New game: Ovo")
    to_start(p)
    p.key("Return")
    p.note("\n## The first cover")
    who = cover(p)
    last = None
    for turn in range(2):
        p.key("Return")  # the reveal button has the focus: reveal
        p.note(f"\n## {who} holds the device: the board is spoken (it has the focus)")
        p.hear("Egg tray", f"{who}'s turn")
        last, since = move(p, who)
        p.note(f"\n## {who} moved: the cover asks for the other seat and says the move")
        nxt = cover(p, last, since)
        if nxt == who:
            raise Failure(f"{who} moved and the cover asks for {who} again")
        who = nxt
    return last


def leave_game(p):
    """From a cover: reveal, then leave the game for home by Orca's button navigation (the
    game stays saved, no question asked); home's Ovo button is heard."""
    who = cover_name_of(p)
    p.key("Return")
    p.hear(f"{who}'s turn")
    p.until("shift+b", "Leave the game push button", presses=12)
    p.key("Return")
    p.until("b", "Ovo push button", presses=12)


def ovo_end(p):
    """The game to its end, the short way: the seat holding the device declares «Ovo!»
    with none of its eggs hidden, which is wrong and in a two-player game ends it (the
    other seat wins). By keys: `b` to the turn's Declare button, Return; the question is
    heard and the focus is on its confirming button; Return. The end is heard (the live
    region), then "Back to home"."""
    who = cover_name_of(p)
    p.key("Return")
    p.hear(f"{who}'s turn")
    p.until("b", "Declare «Ovo!» push button", presses=6)
    p.key("Return")
    p.hear("Declare «Ovo!» as your whole turn?")
    p.settle()
    p.key("Return")
    said = p.hear(f"{who} declared «Ovo!» — wrong.")
    p.note(f"  -> the end heard: {said}")
    p.until("b", "Back to home push button", presses=8)
    p.key("Return")
    p.until("b", "Ovo push button", presses=12)
    return f"{who} declared «Ovo!» — wrong."


def cover_name_of(p):
    """The seat the cover now asks for, from what Orca last said of it."""
    said = [line for line in p.all if line.strip().endswith(REVEAL.strip() + ".")
            or REVEAL in line]
    if not said:
        raise Failure("no cover was heard")
    return re.search(r"([^|.]+?)" + re.escape(REVEAL), said[-1]).group(1).strip()


def private_under_cover(p, since, until, words, whose):
    """Nothing of a seat's private words (`words`, e.g. "Your card") is spoken between a
    hand-off and the next reveal: Orca's speech in `p.all[since:until]`."""
    leaked = [line for line in p.all[since:until] if words in line]
    if leaked:
        raise Failure(f"under the cover for {whose}, Orca said private words: {leaked}")


def iota(p, turns=2):
    """IOTA, two people: each seat reveals, hears its hand (the cards are buttons, heard
    on the way to Pass), passes; the cover says who passed; under the cover no card of
    anyone's hand is spoken."""
    p.note("\n## IOTA: home, IOTA, Start")
    p.until("b", "IOTA push button", presses=12)
    p.key("Return")
    p.hear("New game: IOTA")
    to_start(p)
    p.key("Return")
    who = cover(p)
    heard_cover = len(p.all)
    for turn in range(turns):
        private_under_cover(p, heard_cover, len(p.all), "Your card", who)
        p.key("Return")
        p.note(f"\n## IOTA: {who} holds the device: the hand is heard, then Pass")
        revealed = len(p.all)
        p.hear(f"{who}'s turn")
        said = p.until("b", "Pass push button", presses=12)
        hand = [line for line in p.all[revealed:] if "Your card" in line]
        if not hand:
            raise Failure(f"{who}'s hand was never spoken on the way to Pass: {said}")
        p.note(f"  -> {who}'s hand heard: " + "; ".join(h.split(" toggle button")[0] for h in hand))
        since = len(p.all)
        p.key("Return")
        nxt = cover(p, f"{who} passed", since)
        heard_cover = len(p.all)
        if nxt == who:
            raise Failure(f"{who} passed and the cover asks for {who} again")
        who = nxt
    private_under_cover(p, heard_cover, len(p.all), "Your card", who)
    return who


def lesson(p):
    """Ovo's lesson from home: its first step's words, then the step done by keys (c3 to a
    diagonal landing), its result and the next step's words heard."""
    p.note("\n## Ovo's lesson: home, Learn to play Ovo")
    p.until("b", "Learn to play Ovo push button", presses=12)
    p.key("Return")
    p.hear("Step 1 of ", "Step your egg on c3 diagonally")
    # From the board (the focus is on it), Tab walks the cells to c3 and a diagonal.
    p.until("Tab", "c3, ", presses=40)
    p.key("Return")
    p.until("Tab", "d4, empty, legal landing", presses=12)
    p.key("Return")
    p.hear("c3 to d4", "Well done! On to the next step")
    p.until("shift+b", "Next step push button", presses=8)
    p.key("Return")
    p.hear("Step 2 of ", "Jump your egg on c2 over the star on d3")


def omiga(p, end_within=60.0):
    """Omiga against the app (Black, easy), face to face, by keys: after the countdown
    White's hand is heard (its cards are buttons) and the first is chosen; the app lays
    its cards meanwhile (Omiga is played in real time, and the easy app won within about
    20 s of "Play!" in every run here, before a player walking the table by keys could
    lay one), each heard from the live region, and the end of the game is heard.
    Returns the end's words."""
    p.note("\n## Omiga against the app: home, Omiga, Black to the app")
    p.until("b", "Omiga push button", presses=12)
    p.key("Return")
    p.hear("New game: Omiga")
    p.until("b", "Player 2: the app, easy toggle button", presses=14)
    p.key("Return")
    p.until("b", "Start push button", presses=12)
    p.key("Return")
    p.note("\n## Omiga: after the countdown, White's hand; the app's cards; the end")
    since = len(p.all)
    p.hear("Play!", within=20)
    said = p.until("b", "White card 1/", presses=12)
    p.note("  -> White's hand heard: " + said.split(" push button")[0].split(" toggle button")[0])
    p.key("Return")
    end = time.time() + end_within
    while time.time() < end:
        p.settle(quiet=0.5, within=3.0)
        if any(" wins!" in line or "A draw" in line for line in p.all[since:]):
            break
    said = p.all[since:]
    theirs = [line for line in said if " placed " in line and line.startswith("The app")]
    if not theirs:
        raise Failure(f"the app's cards were not heard: {said[-20:]}")
    p.note(f"  -> the app's cards heard ({len(theirs)}), the first: {theirs[0]}")
    ends = [line for line in said if " wins!" in line or "A draw" in line]
    if not ends:
        raise Failure(f"the end of the Omiga game was not heard within {end_within:.0f} s")
    p.note(f"  -> the end heard: {ends[0]}")
    p.until("b", "Home push button", presses=12)
    p.key("Return")
    p.until("b", "Ovo push button", presses=12)
    return ends[0]


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--site", required=True)
    a.add_argument("--orca-log", required=True)
    a.add_argument("--transcript", default=os.devnull)
    a.add_argument("--work", default=None, help="scratch folder (Chromium's profile and log)")
    args = a.parse_args()
    # `timeout` (.ci/orca-web) ends the test with SIGTERM: leave through `finally`, which
    # ends the browser too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(124))
    work = args.work or tempfile.mkdtemp(prefix="hotseat-orca-web-")
    server = Server(args.site)
    ears = Ears(args.orca_log)
    ears.new()  # what Orca said before the browser is not the page's
    with open(args.transcript, "w") as out, open(os.path.join(work, "chromium.log"), "w") as clog:
        p = Player(ears, out)
        browser = chromium(server.url, os.path.join(work, "profile"), clog)
        try:
            find_document()
            # Xvfb has no window manager: the browser's window gets the keyboard only when
            # given it, and Orca follows the active window.
            win = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--class", "chromium"],
                                 capture_output=True, text=True, timeout=30).stdout.split()
            if not win:
                raise Failure("no Chromium window on the display")
            subprocess.run(["xdotool", "windowfocus", "--sync", win[0]], check=True, timeout=20)
            p.settle(quiet=1.5, within=20)  # Orca reads the new window and the page's load
            started = time.time()
            last = play(p)
            p.note(f"\n## Ovo's turn pair passed at {time.time() - started:.0f} s; the end: a wrong «Ovo!»")
            ovo_over = ovo_end(p)
            iota_last = iota(p)
            leave_game(p)
            omiga_end = omiga(p)
            lesson(p)
            p.note(f"\npassed in {time.time() - started:.0f} s: Orca spoke Ovo's hand-offs, '{last}' and '{ovo_over}',"
                   f" IOTA's hands to their seats only, up to {iota_last}'s cover, Omiga's"
                   f" '{omiga_end}', and a lesson step")
        except Failure as e:
            p.listen()
            p.note(f"\nFAILED: {e}\nthe last of what Orca said:")
            for line in p.all[-25:]:
                p.note(f"    {line}")
            sys.exit(1)
        finally:
            browser.terminate()
            try:
                browser.wait(timeout=10)
            except subprocess.TimeoutExpired:
                browser.kill()
            server.close()


if __name__ == "__main__":
    main()
