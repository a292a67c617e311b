#!/usr/bin/env python3
"""Writes omiga_game_behind.txt and omiga_game_edge_or_draw.txt: whole seeded Omiga games
played through `hotseat referee`, every answer recorded as the expected one.

Both seats act in a random interleaving (as in real time), each choosing at random from
the referee's own `legal` list (placements preferred over discarding). Seeds are tried in
order until one game ends by "behind" (a placement directly behind an opponent card) and
another ends otherwise (an edge win or a draw).

Run from the repository root after `cargo build`:
    python3 tests/transcripts/make_omiga_games.py
Regenerate only when the referee's answers are meant to change, and read the diff.
"""
import random

from referee import Referee


def cells(ref):
    """{(x, y): 'w'|'b'} from the position line."""
    pos = ref.ask("position", record=False)[0]
    field = [f for f in pos.split() if f.startswith("cells=")][0][len("cells="):]
    out = {}
    for entry in filter(None, field.split(";")):
        x, y, side, _card = entry.replace(":", ",", 2).split(",", 3)
        out[(int(x), int(y))] = side
    return out


def play(seed):
    rng = random.Random(seed)
    ref = Referee()
    ref.out.append(f"# A whole game, seed {seed}: both seats act in a random interleaving.")
    ref.ask(f"new omiga seed={seed}")
    last = None
    for ply in range(400):
        seat = rng.choice([0, 1])
        legal = ref.ask(f"legal {seat}", record=ply % 10 == 0)[:-1]
        places = [m for m in legal if m.startswith("place")]
        move = rng.choice(places) if places else ("discard" if "discard" in legal else None)
        if move is None:
            continue
        ref.ask(f"play {seat} {move}")
        if move.startswith("place"):
            x, y = map(int, move.split("@")[1].split(","))
            last = (seat, x, y)
        outcome = ref.ask("outcome")[0]
        if outcome != "ongoing":
            board = cells(ref)
            behind = False
            if outcome.startswith("win") and last:
                s, x, y = last
                behind = (s == 0 and board.get((x, y - 1)) == "b") or \
                         (s == 1 and board.get((x, y + 1)) == "w")
            ref.ask("position")
            ref.ask(f"play {seat} discard")
            ref.close()
            return outcome, behind, ref.out
    ref.close()
    return None, False, ref.out


def main():
    wanted = {"behind": None, "other": None}
    for seed in range(1, 500):
        outcome, behind, lines = play(seed)
        if outcome is None:
            continue
        key = "behind" if behind else "other"
        if wanted[key] is None:
            how = " (behind)" if behind else " (a draw)" if outcome == "draw" else " (on the edge)"
            lines.insert(1, f"# It ends: {outcome}{how}")
            wanted[key] = lines
        if all(wanted.values()):
            break
    for key, name in (("behind", "omiga_game_behind.txt"), ("other", "omiga_game_edge_or_draw.txt")):
        with open(f"tests/transcripts/{name}", "w") as f:
            f.write("\n".join(wanted[key]) + "\n")


if __name__ == "__main__":
    main()
