"""A bot that plays a random legal move in every game: the smallest complete bot.

    python clients/python/examples/random_bot.py --port 9001
    python clients/python/examples/random_bot.py --port 9001 \
        --register http://127.0.0.1:8000 --games g1,g2

A smarter bot is the same file with a better `choose`; see clients/README.md.
"""

import pathlib
import random
import sys

try:
    from referee_client.botkit import run
except ImportError:  # run from a checkout without `pip install -e .`: use the copy beside us
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    from referee_client.botkit import run


def choose(request: dict) -> dict:
    """Any legal move: the service sends every legal move with each request."""
    return random.choice(request["legal_moves"])


if __name__ == "__main__":
    run(choose, name="random-bot", author="referee examples")
