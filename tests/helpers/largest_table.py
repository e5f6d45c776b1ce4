"""The largest table the limits allow, as an evening file: 400 deals, 2,000 lines of log, four names of 30
characters and every reason of 200, all in characters of four UTF-8 bytes, three names in every deal."""

from __future__ import annotations

from scorer.core import Card, Contract, Deal, Suit
from scorer.core.ledger.evening_json import format_deal
from scorer.core.limits import DEALS_AGREED_MAX, LOG_LINES_MAX, NAME_MAX, REASON_MAX


def wide(start: int, length: int) -> str:
    """Text of characters four bytes long in UTF-8 (CJK Unified Ideographs, Extension B)."""
    return "".join(chr(0x20000 + start + k) for k in range(length))


PLAYERS = [wide(i * 100, NAME_MAX) for i in range(4)]
REASON = wide(1000, REASON_MAX)
AT = "2026-11-22T01:00:00+00:00"


def alliance(n: int, variant: int) -> Deal:
    """Deal ``n``: the eldest's alliance with the player after her; two versions differ by a trick."""
    return Deal(PLAYERS[(n - 1) % 4], PLAYERS[n % 4], Contract.ALLIANCE, Suit.SPADES, called=Card("K", Suit.HEARTS),
                ally=PLAYERS[(n + 1) % 4], hombre_tricks=3 + variant, ally_tricks=3)


def largest_file() -> dict[str, object]:
    history: list[dict[str, object]] = []
    standing = dict.fromkeys(range(1, DEALS_AGREED_MAX + 1), 0)
    for n in standing:
        history.append({"seq": n, "kind": "record", "number": n, "deal": format_deal(alliance(n, 0)), "by": PLAYERS[0],
                        "reason": None, "restores": None, "at": AT, "hash": None})
    n = 1
    while len(history) < LOG_LINES_MAX:
        standing[n] = 1 - standing[n]
        history.append({"seq": len(history) + 1, "kind": "amend", "number": n, "deal": format_deal(alliance(n, standing[n])),
                        "by": PLAYERS[1], "reason": REASON, "restores": None, "at": AT, "hash": None})
        n = n % DEALS_AGREED_MAX + 1
    return {"format": "quadrille-evening/1", "players": PLAYERS, "profile": "quadrille", "house_rules": {},
            "deals_agreed": DEALS_AGREED_MAX, "deals": [format_deal(alliance(k, v)) for k, v in standing.items()],
            "first_dealer": PLAYERS[0], "chip_value_cents": 1_000_000, "currency": "€€€€€", "history": history}
