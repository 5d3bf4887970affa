"""referee/core/caches.py: a memo table trimmed to its bound, the oldest entries first."""

from __future__ import annotations

from referee.core.caches import trim_oldest


def test_the_oldest_go_first_down_to_the_limit():
    kept = {n: str(n) for n in range(10)}
    trim_oldest(kept, 4)
    assert list(kept) == [6, 7, 8, 9]
    trim_oldest(kept, 4)
    assert list(kept) == [6, 7, 8, 9]
    kept[3] = "3"   # newest now, though its key is smaller
    trim_oldest(kept, 2)
    assert list(kept) == [9, 3]


def test_a_table_emptied_meanwhile_is_left_alone():
    class Emptied(dict):
        """A dict another thread empties as soon as it is looked through."""

        def __iter__(self):
            self.clear()
            return super().__iter__()

        def __len__(self):
            return 5

    trim_oldest(Emptied(a=1), 1)   # StopIteration inside: no error, no endless loop
