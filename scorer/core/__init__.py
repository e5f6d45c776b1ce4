"""The settlement core of scorer: pure Python, no Flask, no database, no forms.

Settle one deal with :func:`settle`; replay a whole evening with
:func:`replay`. House rules are data (:mod:`scorer.core.rules`); a table's
profile names its settlement system (:mod:`scorer.core.systems.profiles`).
"""

from .errors import DealError, EveningFormatError, ImpossibleDeal, ScorerError, UnknownHouseRule, Words
from .ledger.evening import DealDifference, Evening, Replay, close_evening, differences, left_on_the_table, replay, replay_from
from .ledger.evening_json import dumps, format_deal, format_evening, loads, parse_evening
from .model import (
    CONTRACT_KINDS, Card, Contract, ContractKind, Deal, Pot, Reason, Result, Settlement, Suit, TableState, Transfer,
    Vole, check_players,
)
from .rules import HOUSE_RULES, RULES_BY_NAME, HouseRule, RuleKey, RuleValues
from .systems.profiles import BASIC_CONTRACTS, PROFILES, HouseRules, Profile, register_profile
from .game.describe import describe, result_label
from .game.checks import implied, own_king_allowed
from .ledger.table_checks import check_deal, referee
from .game.play import (
    PACK, PLAY_TRICKS, PREMIERS_TRICKS, AllyShown, PlayError, PlayReport, Progress, Renounce, follow, parse_tricks,
    play_from_codes, proven_deal, report_json, report_text, why_not,
)
from .game.outcome import game_won
from .ledger.settle import settle
from .systems import System
from .systems.counters import counters_text
from .limits import (
    CHIP_VALUE_CENTS_MAX, CIRCLE_NAME_MAX, CURRENCY_MAX, DEALS_AGREED_MAX, DEALS_AGREED_MIN, IMPORT_BYTES_MAX, NAME_MAX,
    PLAY_NOTATION_MAX, REASON_MAX, RECENT_TABLES_MAX, TALLY_LABEL_MAX,
)
from .ledger.log import Amend, Damage, DealTaken, Ledger, Line, LineKind, Record, Refused, Restore, TableChanged, Undo
from .names import check_names, check_note, normalise
from .words.report import replay_json, replay_text
from .words.rules_doc import rules_markdown, rules_text
from .rules.sources import READINGS, SOURCES, SOURCES_INTRO
from .ledger.settleup import Payment, SettleUp, settle_up
from .words.summary import DealSummary, summarise
from .words.stats import Statistics, statistics
from .ledger.season import Season, SeasonError, SeasonEvening, replay_season

__all__ = [
    "System", "register_profile", "BASIC_CONTRACTS", "RuleValues", "RuleKey",
    "Card", "Contract", "Deal", "DealError", "Evening", "EveningFormatError", "HOUSE_RULES", "HouseRule", "HouseRules",
    "ImpossibleDeal", "PROFILES", "Pot", "Profile", "Reason", "Replay", "Result", "ScorerError", "Settlement", "Suit",
    "TableState", "Transfer", "UnknownHouseRule", "Vole", "Words", "check_deal", "implied", "own_king_allowed",
    "close_evening", "dumps", "format_evening", "loads", "parse_evening", "replay", "settle",
    # What the reports read of a deal and of the close: a game won, what stays on the table.
    "game_won", "left_on_the_table",
    # What the web layer and the command use (they import nothing else from the core):
    "Amend", "CHIP_VALUE_CENTS_MAX", "CONTRACT_KINDS", "CURRENCY_MAX", "ContractKind", "DEALS_AGREED_MAX",
    "DEALS_AGREED_MIN", "Damage", "DealDifference", "DealTaken", "IMPORT_BYTES_MAX", "Ledger", "Line", "LineKind",
    "NAME_MAX", "Payment", "REASON_MAX", "RULES_BY_NAME", "Record", "Refused", "Restore", "SettleUp", "TableChanged",
    "Undo", "check_note", "check_players", "counters_text", "differences", "format_deal", "normalise",
    "replay_from", "replay_json", "replay_text", "rules_markdown", "rules_text", "settle_up", "DealSummary",
    "summarise",
    "describe", "result_label", "CIRCLE_NAME_MAX", "PLAY_NOTATION_MAX", "RECENT_TABLES_MAX", "TALLY_LABEL_MAX",
    # The play of a deal, card by card.
    "PACK", "PLAY_TRICKS", "PREMIERS_TRICKS", "AllyShown", "PlayError", "PlayReport", "Progress", "Renounce", "follow",
    "parse_tricks", "play_from_codes", "proven_deal", "referee", "report_json", "report_text", "why_not",
    # Statistics of evenings.
    "Statistics", "statistics",
    # A circle's season of evenings.
    "Season", "SeasonError", "SeasonEvening", "replay_season", "check_names",
    # The sources the rules cite, for the rules page.
    "READINGS", "SOURCES", "SOURCES_INTRO",
]
