"""Tables and their logs in the database, translated to and from the core's types.

Nothing derived is stored: a table is its settings row and its append-only
log; its deals, versions and ledger are the core's fold of that log.

- :mod:`.tables`: the settings row, links, and the change of settings before the first deal;
- :mod:`.lines`: log rows as the core's lines, and back;
- :mod:`.chain`: the hash chain of a log and the signature of an export;
- :mod:`.ledgers`: each table's folded log, cached in memory, bounded by deals;
- :mod:`.seasons`: a circle's evenings folded in order, each carrying into the next (every read and write of a circle's evening);
- :mod:`.circle_log`: a circle's row and log read, its chain and its sense;
- :mod:`.commands`: the one write path (decide and append in one transaction);
- :mod:`.files`: export as JSON or CSV, and import with every limit checked;
- :mod:`.circles`: circles of players, their evenings in order, and their own hash-chained log;
- :mod:`.circle_files`: a whole circle as one quadrille-circle/1 file, exported and imported;
- :mod:`.backup`: every log checked (``scorer verify``), a checked copy of the database, and its restore.
"""

from ..core.ledger.log import Refused
from .chain import ChainBreak, genesis, link, verify
from .circles import (
    Circle, CircleRefused, UnreadableCircle, add_member, circle_by_spectator_token, circle_by_token, circle_last_written,
    circle_of, circle_season, season_fold, circle_tables, create_circle, start_evening, verify_circle,
)
from .backup import BackupError, Checked, NoSuchTable, backup, check_database, restore
from .circle_files import export_circle, import_circle, read_circle_file
from .commands import Outcome, SettledChange, run, sent_before
from .files import ImportRefused, export_evening, import_evening, raw_export, read_evening_file, transfers_csv
from .ledgers import LEDGERS, LedgerCache, ledger_cache
from .seasons import SEASONS, CircleDamage, SeasonFold, evening_closed, fold_circle, ledger, ledger_and_log_size, rechecked_ledger, season_after
from .lines import log_size, read_lines
from .tables import (
    CircleEvening, RulesFrozen, Table, UnreadableTable, change_settings, create_table, new_token, table_by_spectator_token,
    table_by_token, table_from_row,
)

__all__ = [
    "BackupError", "Checked", "NoSuchTable", "backup", "check_database", "restore",
    "Circle", "CircleRefused", "Refused", "UnreadableCircle", "add_member", "circle_by_spectator_token",
    "circle_by_token", "circle_last_written", "circle_of", "circle_season", "season_fold", "SEASONS", "CircleDamage", "SeasonFold", "fold_circle", "season_after", "evening_closed", "circle_tables", "create_circle", "start_evening", "verify_circle",
    "export_circle", "import_circle", "read_circle_file",
    "ChainBreak", "ImportRefused", "LEDGERS", "LedgerCache", "ledger_cache", "Outcome", "SettledChange", "RulesFrozen", "CircleEvening", "Table", "UnreadableTable",
    "change_settings", "create_table", "export_evening", "genesis", "import_evening", "ledger", "ledger_and_log_size",
    "link", "log_size", "new_token", "raw_export", "read_evening_file", "read_lines", "rechecked_ledger", "run",
    "sent_before", "table_by_spectator_token", "table_by_token", "table_from_row", "transfers_csv", "verify",
]
