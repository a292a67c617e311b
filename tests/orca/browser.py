#!/usr/bin/python3
"""The browser build heard through Orca 43 (issue #29 point 5; run by .ci/orca-web).

Chromium, not headless, on the private desktop .ci/desktop makes (Xvfb, the AT-SPI bus,
Orca with its debug log), opens the built site from a loopback server with its renderer's
accessibility on; Chromium gives the page's tree — the screen-reader layer web/a11y keeps
over the canvas — to Orca over AT-SPI. The test then plays as a blind player does, with
keys alone, through Orca: `b` (Orca's next button in browse mode) to reach a button,
Tab/Shift+Tab between the board's cells, Return to act. It never reads the tree to act:
it acts on what Orca has just said, and checks what Orca says (the "SPEECH OUTPUT:" lines
of its debug log) at each step of a whole 2-player Ovo game from home to its end:

  - home, Ovo (its setup's title heard), Start; the first seat is drawn at random, so the
    game's nine turns are planned from whichever seat the first cover asks for
    (`whole_game_plan`): the first seat's egg steps, jumps the second's and steps into
    its camp, where it flips; the second seat peeks at it (issue 41 point 5) and hears
    the result; from «Got it» to the cover's end nothing of it is spoken (nor the
    symbol's word), and the cover says "<seat> peeked at <cell>";
  - at each turn the board is spoken when it comes (the page's focus follows the app's,
    so Orca has a place to read from); each move is made by keys, the egg and its landing
    heard before they are chosen; at each cover the hand-off, "<seat>, tap to reveal" and
    "Pass the device to <seat>", and the move the other seat just made ("Player 2 moved
    c6 to c5", "… jumped from …", "…; the egg was flipped"), which the layer's live
    region carries;
  - the end: the first seat declares «Ovo!» wrongly, which ends a two-player game: the
    end must be heard; and the peek's result was never spoken from the hand-off to the
    end.

Then (issue 41 point 5), each from home: IOTA (its setup's title heard), two turns of two
people, each seat's hand heard after its reveal and no "Your card" spoken from a hand-off
to the next reveal, "<seat> passed" heard at each cover; Omiga against the app (easy):
"Play!", White's hand, one of its cards laid by keys (only the cells a chosen card fits
are Tab stops; a card that fits nowhere says so and is passed), the app's cards as it
lays them and the end ("The app (easy) wins!", or White's win), heard wherever the focus
was; when the app wins before White's card is laid, Rematch by keys and again, up to
three games; Ovo's lesson: step 1 done by keys, its result and step 2's words heard.

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

# Ovo's tray by keys: its 36 cells are tab stops in the rules' order, a1 b1 … f1 a2 … f6.
# From the board, which has the focus after a reveal, Orca's previous button (Shift+B)
# reaches "Summary of the game" just before the tray, and Tab walks the cells from a1;
# its next button (`b`) reaches "Declare «Ovo!»" just after it, and Shift+Tab walks back
# from f6. A player goes the shorter way.
FILES = "abcdef"
# A cell's words are few ("c2, empty, legal landing"): the silence that ends them can be
# shorter than a button's with its description. Twice it (`until` waits again before the
# next press) still covers Orca's lag on a loaded machine.
CELL_QUIET = 0.6


def index(cell):
    return (int(cell[1]) - 1) * 6 + FILES.index(cell[0])


def other(who):
    return "Player 2" if who == "Player 1" else "Player 1"


def whole_game_plan(first):
    """A two-player Ovo game to a peek in nine turns, whichever seat the app draws to go
    first: the first seat (F) brings its egg on the c file into the other's camp (two
    steps, a jump over the second seat's egg, a step into the camp, where it flips), the
    second (S) steps its own c egg out to be jumped and then another egg aside, and then
    peeks at the flipped egg. Cells in each seat's own ranks (1 = its camp), made absolute
    here: Player 1's camp is rank 1, Player 2's rank 6. Returns the moves (seat, from, to,
    kind), the hidden egg's cell and its symbol."""
    second = other(first)

    def at(who, cell):
        rank = int(cell[1])
        return cell[0] + str(rank if who == "Player 1" else 7 - rank)

    # The second seat's step aside, on the side of the tray its keys reach first.
    aside = ("a1", "a2") if second == "Player 1" else ("f6", "f5")
    moves = [
        (first, at(first, "c1"), at(first, "c2"), "step"),
        (second, at(second, "c1"), at(second, "c2"), "step"),
        (first, at(first, "c2"), at(first, "c3"), "step"),
        (second, at(second, "c2"), at(second, "c3"), "step"),
        (first, at(first, "c3"), at(first, "c5"), "jump"),
        (second, *aside, "step"),
        (first, at(first, "c5"), at(first, "c6"), "flip"),
    ]
    symbol = "diamond" if first == "Player 1" else "star"
    return moves, at(first, "c6"), symbol


def to_cell(p, cell, words):
    """From the board to `cell` by keys, the shorter way round the tray, until Orca says
    `words` of it."""
    i = index(cell)
    if i + 1 <= 36 - i:
        p.until("shift+b", "Summary of the game push button", presses=6)
        p.until("Tab", words, presses=i + 3, quiet=CELL_QUIET)
    else:
        p.until("b", "Declare «Ovo!» push button", presses=6)
        p.until("shift+Tab", words, presses=36 - i + 2, quiet=CELL_QUIET)


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
        time.sleep(0.25)
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

    def until(self, key, words, presses=40, late=True, quiet=0.8):
        """Presses `key` until Orca says `words`, as a player steps from element to
        element, each heard before the next press. Returns what Orca said at the last.
        `quiet`: the silence that ends a press's answer (shorter for a cell's few words)."""
        for _ in range(presses):
            # Orca lags on a loaded machine: what it says after the quiet that ended the
            # last press's wait is still that press's answer, and may be the one wanted.
            tail = " | ".join(self.settle(quiet))
            self.heard = []
            if late and words in tail:
                return tail
            self.key(key)
            said = " | ".join(self.settle(quiet))
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


def move(p, who, frm, to, kind):
    """The seat holding the device moves its egg on `frm` to `to` by keys, each square
    heard before it is chosen: the egg, then (the egg chosen) its landing, which says it
    is one. `kind`: "step", "jump" or "flip" (a step into the other's camp). Returns the
    move as the app announces it, and where in Orca's speech its announcement starts."""
    to_cell(p, frm, f"{frm}, {who} ")
    p.key("Return")
    landing = "legal jump landing" if kind == "jump" else "legal landing"
    key = "Tab" if index(to) > index(frm) else "shift+Tab"
    p.until(key, f"{to}, empty, {landing}", presses=abs(index(to) - index(frm)) + 2,
            quiet=CELL_QUIET)
    since = len(p.all)
    p.key("Return")
    said = {"step": f"{who} moved {frm} to {to}",
            "jump": f"{who} jumped from {frm} to {to}",
            "flip": f"{who} moved {frm} to {to}; the egg was flipped"}[kind]
    return said, since


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


def new_game(p, game):
    """From home: the game's button, its setup's title heard, Start; returns the seat the
    first cover asks for."""
    p.note(f"\n## {game}: home, {game}, Start")
    p.until("b", f"{game} push button", presses=12)
    p.key("Return")
    p.hear(f"New game: {game}")
    to_start(p)
    p.key("Return")
    return cover(p)


def ovo_game(p):
    """A whole two-player Ovo game by keys from home (issue 41 point 5): its setup's title
    heard, Start, then each turn of `whole_game_plan` by the seat the cover asks for: the
    reveal, the board heard ("<seat>'s turn"), the move by keys, and at the next cover the
    hand-off and the move just made; then the second seat peeks at the flipped egg (`peek`)
    and the first ends the game (`ovo_end`). Returns the peek's result, the last move and
    the end as heard."""
    first = new_game(p, "Ovo")
    moves, hidden, symbol = whole_game_plan(first)
    p.note(f"  -> {first} goes first: {', '.join(f'{f}-{t}' for _, f, t, _ in moves)}")
    who = first
    last = None
    for seat, frm, to, kind in moves:
        if who != seat:
            raise Failure(f"the cover asks for {who}, but it is {seat}'s turn")
        p.key("Return")  # the reveal button has the focus: reveal
        p.note(f"\n## {who} holds the device: the board is spoken (it has the focus)")
        p.hear("Egg tray", f"{who}'s turn")
        last, since = move(p, who, frm, to, kind)
        p.note(f"\n## {who} moved: the cover asks for the other seat and says the move")
        nxt = cover(p, last, since)
        if nxt != other(who):
            raise Failure(f"{who} moved and the cover asks for {nxt}")
        who = nxt
    peeked, handed = peek(p, who, hidden, symbol)
    p.note(f"\n## Ovo's moves and peek passed; the end: {other(who)}'s wrong «Ovo!»")
    over = ovo_end(p)
    # The peek's result was never spoken again, whoever held the device.
    for words in ("remember it", f"{hidden} is a"):
        private_under_cover(p, handed, len(p.all), words, "the rest of the game")
    return peeked, last, over


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
    with its eggs not all hidden in its camp, which is wrong and in a two-player game ends it (the
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
    p.settle()
    # Announcements that come together are said as one, sentence after sentence.
    doubled = [line for line in p.all if re.search(r"(?<!\.)\.\.(?!\.)", line)]
    if doubled:
        raise Failure(f"two full stops where announcements were joined: {doubled}")
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
    who = new_game(p, "IOTA")
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


def peek(p, who, cell, symbol):
    """A peek by ear (issue 41 point 5), from the cover asking for `who`: the reveal, the
    way to the hidden egg on `cell` by keys, Return; `b` to the Peek button, Return: the
    result is heard ("c6 is a diamond — remember it", the words of «Got it», where the
    page's focus goes); Return on «Got it»; from there to the cover's end nothing of the
    result is spoken (nor the symbol's word), and the cover asks for the other seat and
    says "<who> peeked at <cell>". Returns the result heard and where the hand-off began
    in Orca's speech (the caller checks the rest of the game too)."""
    p.key("Return")
    p.hear("Egg tray", f"{who}'s turn")
    to_cell(p, cell, f"{cell}, hidden egg")
    p.key("Return")
    p.until("b", "Peek at this egg push button", presses=4)
    p.key("Return")
    result = f"{cell} is a {symbol} — remember it"
    # The page's focus goes to «Got it», whose words are the result.
    p.hear("Got it push button", result, within=10)
    p.note(f"  -> the peek's result heard by {who}: {result}")
    p.settle()
    p.heard = []
    since = len(p.all)
    p.key("Return")
    # The hand-off: nothing of the result in what Orca says from «Got it» to the cover's
    # end (the symbol's word included: the other seat's cells, which say it, are not read
    # there), then the cover's words with the public line: the live region said
    # "<who> peeked at <cell>" at the peek already, the reveal button's description says
    # it again to the other seat.
    end = time.time() + 15
    while time.time() < end and not any(REVEAL in line for line in p.all[since:]):
        p.settle(quiet=0.5, within=3.0)
    p.settle()
    for words in ("remember it", f"{cell} is a", f" {symbol} "):
        private_under_cover(p, since, len(p.all), words, other(who))
    if cover(p) != other(who):
        raise Failure(f"after {who}'s peek the cover does not ask for {other(who)}")
    if not any(f"{who} peeked at {cell}" in line for line in p.all[since:]):
        raise Failure(f"the cover did not say the peek: {p.all[since:]}")
    return result, since


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


def game_over(p, since):
    """Whether the Omiga game has ended since `since` in Orca's speech: its end heard (the
    words `omiga` waits for), or its result panel's buttons reached (which fails: the end
    must be heard, wherever the reader was)."""
    def ended():
        return any(" wins!" in line or "A draw" in line for line in p.all[since:])
    if ended():
        return True
    if any(line.startswith("Rematch push button") for line in p.all[since:]):
        # The focus goes to Rematch at the end: its name may come before the live
        # region's words.
        p.settle(quiet=1.0, within=4.0)
        if ended():
            return True
        raise Failure("the game ended (its Rematch button was reached) but its end was never"
                      f" heard: {p.all[since:][-20:]}")
    return False


def lay_card(p, since, said):
    """White lays a card by keys at the app's pace (issue 41 point 5). The focus is on
    White's first card, which Orca has just said (`said`). A card that fits no cell now,
    either way up, says "fits nowhere": it is passed with `b` for the next. Return chooses
    a card; with it chosen, only the cells it fits are Tab stops (the others are closed to
    a reader), so Shift+Tab from the hand, which comes after the table, reaches one in a
    few presses; when the card fits only turned, Shift+Tab lands on the table's last
    cell instead (every cell open), and Tab goes back to the card, whose second Return
    turns it. Return lays it on the cell, and the live region says so. The app plays
    meanwhile: a card it lays may close the cell reached before Return comes (the try is
    refused), and then the next cell is looked for. Returns what was heard of the
    placement, or None when the game ended first (the easy app sometimes wins before a
    keyboard player's first card); `since`: where this game's speech began."""
    # The hand's size when a try was not heard to land: if the hand is smaller later, the
    # card was laid and its announcement lost (the app's cards came right after it).
    unheard = None
    for n in (1, 2, 3) * 2:
        if game_over(p, since):
            return None
        if n > 1 or f"White card {n}/" not in said:
            try:
                said = p.until("b", f"White card {n}/", presses=12)
            except Failure:
                if game_over(p, since):
                    return None
                raise
        size = re.search(r"White card \d+/(\d+)", said)
        if unheard and size and int(size.group(1)) < unheard:
            raise Failure(f"White's card was laid (the hand went from {unheard} to"
                          f" {size.group(1)} cards) but its placement was never heard")
        if "fits nowhere" in said:
            p.note(f"  -> White card {n} fits nowhere now")
            continue
        p.key("Return")
        for attempt in range(3):
            if game_over(p, since):
                return None
            try:
                cell = p.until("shift+Tab", "White may place here", presses=2)
            except Failure:
                if attempt > 0:
                    break
                # Not as held: turned, then. Back to the card (after the table come
                # "Discard hand" and the hand) and turn it.
                p.note(f"  -> White card {n} fits turned only: turning it")
                try:
                    p.until("Tab", f"White card {n}/", presses=n + 2)
                except Failure:
                    break
                p.key("Return")
                continue
            at = re.search(r"x \d+, y \d+", cell).group(0)
            p.note(f"  -> a cell it fits: {at}")
            mark = len(p.all)
            p.key("Return")
            end = time.time() + 4
            while time.time() < end:
                p.settle(quiet=0.5, within=2.0)
                mine = [line for line in p.all[mark:]
                        if " placed " in line and (f"({at})" in line or f"at {at}:" in line)
                        and not line.startswith("The app")]
                if mine:
                    return mine[0]
            p.note(f"  -> not laid at {at} (the app's card closed it?): looking again")
            held = re.search(r"White card \d+/(\d+)", said)
            unheard = int(held.group(1)) if held else None
        said = ""
    if game_over(p, since):
        return None
    raise Failure("none of White's cards could be laid by keys")


def omiga(p, end_within=60.0, games=3):
    """Omiga against the app (Black, easy), face to face, by keys: after the countdown
    White's hand is heard (its cards are buttons), a card is chosen and laid by keys
    (`lay_card`: only the cells it fits are Tab stops, so this takes seconds, not the
    forty presses that let the easy app win first); the app lays its cards meanwhile,
    each heard from the live region, and the end of the game is heard wherever the
    reader's focus was. When the app wins before White's card is laid (its first cards
    fit nowhere, and the easy app's fourth card can win in 15 s), the end is heard and
    Rematch, reached by keys, deals a new game: up to `games` games. Returns the end's
    words."""
    p.note("\n## Omiga against the app: home, Omiga, Black to the app")
    p.until("b", "Omiga push button", presses=12)
    p.key("Return")
    p.hear("New game: Omiga")
    p.until("b", "Player 2: the app, easy toggle button", presses=14)
    p.key("Return")
    p.until("b", "Start push button", presses=12)
    p.key("Return")
    for game in range(1, games + 1):
        p.note(f"\n## Omiga, game {game}: after the countdown, White's hand; the app's cards; the end")
        since = len(p.all)
        p.hear("Play!", within=20)
        said = p.until("b", "White card 1/", presses=12)
        p.note("  -> White's hand heard: " + said.split(" push button")[0].split(" toggle button")[0])
        mine = lay_card(p, since, said)
        if mine:
            p.note(f"  -> White's card laid by keys and heard: {mine}")
        end = time.time() + end_within
        while time.time() < end:
            p.settle(quiet=0.5, within=3.0)
            if game_over(p, since):
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
        if mine:
            p.until("b", "Home push button", presses=12)
            p.key("Return")
            p.until("b", "Ovo push button", presses=12)
            return ends[0]
        p.note("  -> the app won before White's card was laid: Rematch")
        p.until("b", "Rematch push button", presses=12)
        p.key("Return")
    raise Failure(f"in {games} games the app won each before White's card was laid by keys")


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--site", required=True)
    a.add_argument("--orca-log", required=True)
    a.add_argument("--transcript", default=os.devnull)
    a.add_argument("--work", default=None, help="scratch folder (Chromium's profile and log)")
    a.add_argument("--parts", default="ovo,iota,omiga,lesson",
                   help="which parts to play, in this order (to look at one while mending it;"
                        " CI plays all)")
    args = a.parse_args()
    parts = set(args.parts.split(","))
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
            peeked = last = ovo_over = iota_last = omiga_end = "-"
            if "ovo" in parts:
                peeked, last, ovo_over = ovo_game(p)
            if "iota" in parts:
                iota_last = iota(p)
                leave_game(p)
            if "omiga" in parts:
                omiga_end = omiga(p)
            if "lesson" in parts:
                lesson(p)
            p.note(f"\npassed in {time.time() - started:.0f} s: Orca spoke a peek's result to the peeker only"
                   f" ('{peeked}'), Ovo's hand-offs, '{last}' and '{ovo_over}',"
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
