"""The settlement core of scorer: pure Python, no Flask, no database, no forms.

Settle one deal with :func:`settle`; replay a whole evening with
:func:`replay`. House rules are data (:mod:`scorer.core.rules`).
"""

from .errors import DealError, EveningFormatError, ImpossibleDeal, ScorerError, UnknownHouseRule
from .evening import Evening, Replay, close_evening, replay
from .evening_json import dumps, format_evening, loads, parse_evening
from .model import Account, Card, Contract, Deal, Pot, Reason, Result, Settlement, Suit, TableState, Transfer, Vole
from .rules import HOUSE_RULES, PROFILES, HouseRule, HouseRules, Profile
from .checks import check_deal
from .outcome import in_favourite, result_of
from .settle import settle

__all__ = [
    "Account", "Card", "Contract", "Deal", "DealError", "Evening", "EveningFormatError", "HOUSE_RULES",
    "HouseRule", "HouseRules", "ImpossibleDeal", "PROFILES", "Pot", "Profile", "Reason", "Replay", "Result",
    "ScorerError", "Settlement", "Suit", "TableState", "Transfer", "UnknownHouseRule", "Vole", "check_deal",
    "close_evening", "dumps", "in_favourite", "format_evening", "loads", "parse_evening", "replay", "result_of", "settle",
]
