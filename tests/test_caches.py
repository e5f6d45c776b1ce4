"""The one kind of cache (scorer/core/caches.py): bounded, the least recently used out first, by entries or by a
weight of its own, safe to share between threads."""

from __future__ import annotations

import threading
from typing import Any

from scorer.core import caches


def test_a_cache_keeps_its_bound_the_least_recently_used_out_first() -> None:
    cache: caches.Cache[str, int] = caches.Cache(3)
    for key in "abc":
        cache.put(key, ord(key))
    assert cache.get("a") == 97  # now the most recently used
    cache.put("d", 100)
    assert [cache.get(k) for k in "abcd"] == [97, None, 99, 100] and cache.weight == 3
    cache.put("c", 0, unless=lambda kept: kept > 50)  # the one kept passes the test: it stays
    assert cache.get("c") == 99
    cache.drop_where(lambda key, value: value > 98)
    assert [cache.get(k) for k in "acd"] == [97, None, None] and len(cache) == 1
    cache.clear()
    assert len(cache) == 0 and cache.weight == 0


def test_a_cache_bounded_by_weight_keeps_no_entry_heavier_than_its_bound() -> None:
    cache: caches.Cache[str, bytes] = caches.Cache(100, len)
    cache.put("a", b"a" * 40)
    cache.put("b", b"b" * 40)
    cache.put("c", b"c" * 40)
    assert cache.get("a") is None and cache.weight == 80
    cache.put("huge", b"h" * 101)
    assert cache.get("huge") is None and cache.weight == 80
    cache.put("b", b"B")  # a new value replaces the old one's weight
    assert cache.weight == 41


def test_a_memo_keeps_what_its_function_returned_under_its_arguments() -> None:
    calls: list[tuple[Any, ...]] = []

    def double(x: int, plus: int = 0) -> int:
        calls.append((x, plus))
        return 2 * x + plus

    memo = caches.Memo(double, caches.Cache(2))
    assert [memo(1), memo(1), memo(2, plus=1), memo(2, plus=1)] == [2, 2, 5, 5]
    assert calls == [(1, 0), (2, 1)] and memo.__doc__ == double.__doc__


def test_a_cache_shared_by_threads_stays_within_its_bound() -> None:
    cache: caches.Cache[int, bytes] = caches.Cache(1000, len)

    def fill(start: int) -> None:
        for n in range(start, start + 2000):
            cache.put(n % 300, bytes(n % 50))
            cache.get((n * 7) % 300)
            if n % 11 == 0:
                cache.drop_where(lambda key, value: key == n % 300)

    threads = [threading.Thread(target=fill, args=(k * 1000,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.weight == sum(len(cache.get(k) or b"") for k in range(300)) <= 1000
