"""Playing a match's remote seats from a terminal: show, number, ask, submit, explain."""

from __future__ import annotations

import json
import random

from referee_client.errors import MatchError, RefereeError
from referee_client.render import renderer_for

HELP = """answer with:
  a number        play that legal move
  a JSON object   play that move as typed, e.g. {"type": "keep"}
  v               show the view and the moves again
  a               autoplay: random legal moves play your seat(s) to the end, and you watch
  r               resign: your seat(s) rank last and the referee plays them to the end
  q               leave: your seat keeps waiting for you (nothing plays it), so the match
                  stops at its next decision until you rejoin with --match and --token,
                  or until the seat's clock runs out (seat.timeout)"""

LEFT = 2
"""Exit status when the person leaves (or input ends) before the match is over."""


class TerminalPlayer:
    """Plays the seats whose tokens it holds (several: hot seat) until the match ends."""

    def __init__(self, client, match_id: str, tokens: dict[int, str], stdin, stdout,
                 wait: float = 30.0):
        self.client, self.match_id, self.wait = client, match_id, wait
        self.tokens = dict(sorted(tokens.items()))
        self.stdin, self.stdout = stdin, stdout
        self.echo = not (hasattr(stdin, "isatty") and stdin.isatty())
        first = client.match(match_id, next(iter(self.tokens.values())))
        self.game = first["game"]
        self.renderer = renderer_for(self.game, client.game(self.game))
        self._catalogue: dict | None = None
        self.autoplay = False  # set by `a`: random legal moves play the seats to the end
        self.rng = random.Random()

    def say(self, text: str = "") -> None:
        """Write a line (or several) to the terminal."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def run(self) -> int:
        """Play to the end; 0 when the match is over, LEFT if the person left first."""
        waiting = False
        while True:
            prompts = {seat: self._prompt(token, 0) for seat, token in self.tokens.items()}
            if any(p["status"] != "active" for p in prompts.values()):
                return self.finish()
            ready = [(seat, p) for seat, p in prompts.items() if p["must_act"]]
            if ready:  # one turn, then look again: the match has moved
                if self.autoplay:
                    self.play_for(*ready[0])
                    continue
                if not self.take_turn(*ready[0]):
                    return self.leave()
                waiting = False
                continue
            if not waiting:
                self.say("waiting for the other seats...")
            waiting = True
            self._prompt(next(iter(self.tokens.values())), self.wait)  # wakes on any change

    def _prompt(self, token: str, wait: float) -> dict:
        return self.client.prompt(self.match_id, token, wait)

    def take_turn(self, seat: int, prompt: dict) -> bool:
        """Show the decision and ask until a move lands (True) or the person leaves (False)."""
        self.show(seat, prompt)
        moves = prompt["legal_moves"]
        while True:
            line = self.ask(f"seat {seat}, your move [1-{len(moves)}, JSON, ? for help]: ")
            if line is None or line in ("q", "quit", "exit"):
                return False
            if line in ("r", "resign"):
                for token in self.tokens.values():
                    self.client.resign(self.match_id, token)
                self.say("resigned: your seat(s) rank last; the referee plays them to the end")
                return True  # the service asks our seats nothing more: we watch to the end
            if line in ("a", "auto", "autoplay"):
                self.say("autoplay: random legal moves play your seat(s) from now to the end")
                self.autoplay = True
                return self.play_for(seat, prompt)
            if line in ("?", "h", "help"):
                self.say(HELP)
                continue
            if line in ("v", "view"):
                self.show(seat, prompt)
                continue
            move = self.parse(line, moves)
            if move is not None and self.submit(seat, move, prompt["version"]) is not False:
                return True

    def play_for(self, seat: int, prompt: dict) -> bool:
        """Autoplay: submit a random legal move for the seat (True: look at the match again)."""
        move = self.rng.choice(prompt["legal_moves"])
        self.say(f"seat {seat} (autoplay): {self.renderer.move(move)}")
        self.submit(seat, move, prompt["version"], quiet=True)
        return True

    def show(self, seat: int, prompt: dict) -> None:
        """The seat's view, its decision and the numbered legal moves."""
        self.say(f"\n=== {self.game} match {self.match_id}: seat {seat} to play "
                 f"(version {prompt['version']}) ===")
        self.say(self.renderer.view(prompt.get("view"), seat))
        self.say(self.renderer.decision(prompt.get("decision") or {}))
        self.say(self.renderer.moves(prompt["legal_moves"]))

    def ask(self, question: str) -> str | None:
        """One line of input, stripped; None when input has ended."""
        self.stdout.write(question)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        if self.echo:  # piped input is not echoed by a terminal: keep the transcript readable
            self.say(line.rstrip("\n"))
        return line.strip()

    def parse(self, line: str, moves: list[dict]):
        """The move a line names: a legal move's number, or a JSON value; None if neither."""
        if line.isdigit():
            number = int(line)
            if 1 <= number <= len(moves):
                return moves[number - 1]
            self.say(f"no move {number}: choose 1-{len(moves)}")
            return None
        try:
            return json.loads(line)
        except ValueError:
            self.say("not a move number or JSON (? for help)")
            return None

    def submit(self, seat: int, move, version: int, quiet: bool = False):
        """Send the move; explain a rejection. False: ask again; None: look at the match again.
        `quiet`: say nothing of an accepted move or of a stale version (autoplay)."""
        try:
            self.client.move(self.match_id, self.tokens[seat], move, expected_version=version)
        except MatchError as err:  # the match moved on (or ended): fetch a fresh prompt
            if err.code == "match.version_stale":  # e.g. another seat's sealed move landed
                if not quiet:
                    self.say("the match moved on while you chose; here it is again")
            else:
                self.say(self.explain(err))
            return None
        except RefereeError as err:
            self.say(self.explain(err))
            return False
        if not quiet:
            self.say(f"played: {self.renderer.move(move) if isinstance(move, dict) else move}")
        return True

    def explain(self, err: RefereeError) -> str:
        """A rejected move's code and message, with what the code means in general."""
        lines = [f"rejected: {err.code} (HTTP {err.status})", f"  {err.message}"]
        meaning = self._meaning(err.code)
        if meaning and meaning != err.message:
            lines.append(f"  ({meaning})")
        return "\n".join(lines)

    def _meaning(self, code: str) -> str | None:
        if self._catalogue is None:
            try:
                self._catalogue = self.client.problems()
            except RefereeError:
                self._catalogue = {}
        if code.startswith("move.illegal."):
            return self._catalogue.get("move.illegal.*")
        return self._catalogue.get(code)

    def finish(self) -> int:
        """Show the final position and the result."""
        match = self.client.match(self.match_id, next(iter(self.tokens.values())))
        self.say(f"\n=== match {self.match_id} is {match['status']} ===")
        if match.get("view") is not None:
            self.say(self.renderer.view(match["view"], match.get("you")))
        self.say(self.renderer.result(match.get("result"), match.get("seats"), set(self.tokens)))
        self.say(f"the record: {self.client.url}/matches/{self.match_id}/log")
        return 0

    def leave(self) -> int:
        """Say what becomes of the seats left before the end, and how to come back."""
        seats = ", ".join(str(s) for s in self.tokens)
        self.say(f"left match {self.match_id}. Seat {seats} is still yours and nothing plays "
                 f"it while you are away:")
        self.say("  the other seats play on until your seat must decide, then the match waits "
                 "for you")
        self.say("  until you come back or its clock runs out (then it forfeits with "
                 "seat.timeout; a day a")
        self.say("  decision unless the match set remote_move_s). Answering `r` instead of `q` "
                 "resigns now,")
        self.say("  `a` lets random legal moves finish the match for you. Come back with:")
        tokens = " ".join(f"--token={t}" for t in self.tokens.values())  # may begin with '-'
        self.say(f"  python -m referee_client.play --url {self.client.url} "
                 f"--match {self.match_id} {tokens}")
        self.say(f"or watch it without playing: python -m referee_client.watch {self.match_id} "
                 f"--url {self.client.url}")
        return LEFT
