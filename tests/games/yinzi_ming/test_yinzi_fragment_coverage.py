"""Every sentence of the fragment has at least one scenario test, and only real sentences."""

from __future__ import annotations

import re
from pathlib import Path

from tests.games.yinzi_ming.yinzi_helpers import FRAGMENT

HERE = Path(__file__).parent


def test_every_fragment_sentence_has_a_test():
    """Scan the fragment test modules for @sentence marks: all 32 sentences are covered."""
    marked = set()
    for path in HERE.glob("test_yinzi_fragment_*.py"):
        marked |= set(re.findall(r'@sentence\("(S\d\d)"\)', path.read_text()))
    assert marked == set(FRAGMENT), sorted(set(FRAGMENT) - marked)
