"""The ``quadrille-evening/1`` JSON format of an evening's inputs.

``parse_evening(format_evening(e)) == e`` for every evening. Parsing is
strict: a wrong type, an unknown value or an unknown field is an
:class:`EveningFormatError` naming the deal, so that a typo in a file is
never settled as something else.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from ..errors import EveningFormatError, ImpossibleDeal, ScorerError, Words, said_of
from ..i18n import N_
from .evening import DEFAULT_DEALS_AGREED, Evening
from ..model import Card, Contract, Deal, Suit, Vole
from ..names import normalise
from ..game.play import PACK, PREMIERS_TRICKS, PlayError, format_tricks, parse_tricks
from ..systems.profiles import HouseRules
from ..rules import DEFAULT_PROFILE

FORMAT = "quadrille-evening/1"

DEAL_FIELDS = frozenset(
    {"dealer", "hombre", "contract", "trumps", "called", "ally", "tricks", "matadors", "premiers", "vole", "spadille",
     "giver", "favourite", "play"}
)
EVENING_FIELDS = frozenset({"format", "players", "profile", "house_rules", "deals_agreed", "carried_in", "deals"})
TABLE_FIELDS = frozenset({"first_dealer", "chip_value_cents", "currency", "history", "signature"})
"""Written by the app's export (the table's settings and its log); settling ignores them."""


_E = TypeVar("_E", Contract, Suit, Vole)


def _member(enum: type[_E], value: object, said: str, **where: object) -> _E:
    """``value`` as a member of ``enum``, else a ``ValueError`` saying ``said`` with the choices."""
    try:
        return enum(value)
    except ValueError:
        raise ValueError(Words(said, choices=", ".join(repr(m.value) for m in enum), value=value, **where)) from None


def _get_int(data: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(Words(N_("{where} must be a whole number, not {value!r}"), where=where, value=value))
    return value


def _get_name(data: Mapping[str, Any], key: str, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ValueError(Words(N_("{key!r} must be a player's name, not {value!r}"), key=key, value=value))
    return normalise(value)  # so that a file written in another Unicode form still names its players


def _suit(data: Mapping[str, Any], key: str) -> Suit | None:
    """A suit, or None for null (grandissimo and nemo have no trumps)."""
    value = data.get(key)
    said = N_("{key!r} must be one of {choices} or null, not {value!r}")
    return None if value is None else _member(Suit, value, said, key=key)


def parse_deal(data: object) -> Deal:
    """A deal from its JSON object; raises ``ValueError`` with a plain message."""
    if not isinstance(data, dict):
        raise ValueError(Words(N_("a deal must be a JSON object, not {data!r}"), data=data))
    unknown = sorted(set(data) - DEAL_FIELDS)
    if unknown:
        raise ValueError(Words(N_("unknown field {field!r} (a deal has: {fields})"), field=unknown[0],
                               fields=", ".join(sorted(DEAL_FIELDS))))
    contract = _member(Contract, data.get("contract"), N_("'contract' must be one of {choices}, not {value!r}"))
    trumps = _suit(data, "trumps")
    favourite = _suit(data, "favourite")
    vole = _member(Vole, data.get("vole", "none"), N_("'vole' must be one of {choices}, not {value!r}"))
    called_text = data.get("called")
    if called_text is not None and not isinstance(called_text, str):
        raise ValueError(Words(N_("'called' must be a card such as \"KS\", or null, not {value!r}"), value=called_text))
    called = Card.parse(called_text) if called_text is not None else None
    tricks = data.get("tricks")
    if not isinstance(tricks, dict) or set(tricks) - {"hombre", "ally"}:
        raise ValueError(Words(N_("'tricks' must be an object {{\"hombre\": n, \"ally\": n}}")))
    ally_tricks = None if tricks.get("ally") is None else _get_int(tricks, "ally", "tricks.ally")
    premiers = data.get("premiers", False)
    if not isinstance(premiers, bool):
        raise ValueError(Words(N_("'premiers' must be true or false, not {value!r}"), value=premiers))
    dealer = _get_name(data, "dealer")
    hombre = _get_name(data, "hombre")
    assert dealer is not None and hombre is not None
    play, revealed_ally = _play(data.get("play"))
    return Deal(
        dealer=dealer,
        hombre=hombre,
        contract=contract,
        trumps=trumps,
        called=called,
        ally=_get_name(data, "ally", optional=True),
        hombre_tricks=_get_int(tricks, "hombre", "tricks.hombre"),
        ally_tricks=ally_tricks,
        matadors=_get_int(data, "matadors", "'matadors'", 0),
        premiers=premiers,
        vole=vole,
        spadille=_get_name(data, "spadille", optional=True),
        giver=_get_name(data, "giver", optional=True),
        favourite=favourite,
        play=play,
        revealed_ally=revealed_ally,
    )


def _play(data: object) -> tuple[tuple[tuple[Card, ...], ...] | None, str | None]:
    """A deal's play record, ``{"tricks": [["AS", "2S", "KS", "3S"], ...]}`` with, in a claim after six tricks
    whose called card was never played, ``"revealed_ally"``: who held it (P: she "will naturally reveal
    herself"); ``(None, None)`` if absent."""
    if data is None:
        return None, None
    if not isinstance(data, dict) or "tricks" not in data or set(data) - {"tricks", "revealed_ally"}:
        raise ValueError(Words(N_("'play' must be an object {{\"tricks\": [[four cards], ...]}}")))
    try:
        tricks = parse_tricks(data["tricks"])
    except PlayError as error:
        raise ValueError(Words(N_("play: {message}"), message=error.said)) from None
    revealed = _get_name(data, "revealed_ally", optional=True)
    if revealed is not None and len(tricks) != PREMIERS_TRICKS:
        raise ValueError(Words(N_("play: 'revealed_ally' names who revealed herself at a claim after six tricks; "
                                  "this record has all {count}"), count=len(tricks)))
    return tuple(tuple(_CARDS.get(card, card) for card in trick) for trick in tricks), revealed


_CARDS: dict[Card, Card] = {card: card for card in PACK}
"""One object for each card of the pack, shared by every play read (a file of plays names each card thousands
of times; 40 cards, each parsed card equal to one of them): a table, not a cache."""


def format_deal(deal: Deal) -> dict[str, Any]:
    data: dict[str, Any] = {
        "dealer": deal.dealer,
        "hombre": deal.hombre,
        "contract": deal.contract.value,
        "trumps": deal.trumps.value if deal.trumps else None,
        "called": deal.called.code if deal.called else None,
        "ally": deal.ally,
        "tricks": {"hombre": deal.hombre_tricks, "ally": deal.ally_tricks},
        "matadors": deal.matadors,
        "premiers": deal.premiers,
        "vole": deal.vole.value,
    }
    for key, value in (("spadille", deal.spadille), ("giver", deal.giver),
                       ("favourite", deal.favourite.value if deal.favourite else None)):
        if value is not None:
            data[key] = value
    if deal.play is not None:
        data["play"] = {"tricks": format_tricks(deal.play)}
        if deal.revealed_ally is not None:
            data["play"]["revealed_ally"] = deal.revealed_ally
    return data


def parse_evening(data: object) -> Evening:
    """An evening from the decoded JSON; raises :class:`EveningFormatError`."""
    if not isinstance(data, dict):
        raise EveningFormatError(Words(N_("an evening file must hold a JSON object")))
    if data.get("format") != FORMAT:
        raise EveningFormatError(Words(N_("not a {format} file: its \"format\" is {value!r}"), format=FORMAT,
                                       value=data.get("format")))
    unknown = sorted(set(data) - EVENING_FIELDS - TABLE_FIELDS)
    if unknown:
        raise EveningFormatError(Words(N_("unknown field {field!r} (an evening has: {fields})"), field=unknown[0],
                                       fields=", ".join(sorted(EVENING_FIELDS | TABLE_FIELDS))))
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise EveningFormatError(Words(N_("\"players\" must be a list of four names")))
    players = [normalise(p) for p in players]
    house_rules = data.get("house_rules", {})
    if not isinstance(house_rules, dict):
        raise EveningFormatError(Words(N_("\"house_rules\" must be an object of rule names and values")))
    profile_name = data.get("profile", DEFAULT_PROFILE)
    if not isinstance(profile_name, str):
        raise EveningFormatError(Words(N_("\"profile\" must be the name of a rule profile")))
    deals_data = data.get("deals", [])
    if not isinstance(deals_data, list):
        raise EveningFormatError(Words(N_("\"deals\" must be a list")))
    try:
        deals_agreed = _get_int(data, "deals_agreed", "\"deals_agreed\"", DEFAULT_DEALS_AGREED)
        carried_in = _get_int(data, "carried_in", "\"carried_in\"", 0)
        rules = HouseRules.of(profile_name, house_rules)
    except (ValueError, ScorerError) as error:
        raise EveningFormatError(said_of(error)) from None
    deals = []
    for number, deal_data in enumerate(deals_data, start=1):
        try:
            deals.append(parse_deal(deal_data))
        except ValueError as error:
            raise EveningFormatError(said_of(error), deal=number) from None
    try:
        return Evening(tuple(players), rules, tuple(deals), deals_agreed, carried_in)
    except ImpossibleDeal as error:
        raise EveningFormatError(error.said) from None


def format_evening(evening: Evening) -> dict[str, Any]:
    """The evening as a file; ``carried_in`` only when it began with chips carried in (a circle's evening)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "players": list(evening.players),
        "profile": evening.rules.profile_name,
        "house_rules": evening.rules.changes(),
        "deals_agreed": evening.deals_agreed,
    }
    if evening.carried_in:
        data["carried_in"] = evening.carried_in
    data["deals"] = [format_deal(d) for d in evening.deals]
    return data


def loads(text: str) -> Evening:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise EveningFormatError(Words(N_("not valid JSON: {error}"), error=str(error))) from None
    return parse_evening(data)


def dumps(evening: Evening) -> str:
    return json.dumps(format_evening(evening), indent=2, ensure_ascii=False) + "\n"
