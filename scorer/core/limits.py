"""Every limit on what a table holds and what a file may bring, in one place.

docs/LIMITS.md's table of limits is written from these names (a test keeps the two
in step). A limit is checked where the input arrives (a form, an imported
file) and again in the one write path, so that nothing stored can exceed it.
"""

from __future__ import annotations

NAME_MAX = 30
"""Characters in a player's name (after normalisation to NFC)."""

DEALS_AGREED_MIN = 4
DEALS_AGREED_MAX = 400
"""The length of an evening, in deals: a multiple of four between these (P: a multiple of four)."""

LOG_LINES_PER_DEAL = 20
"""Lines of a table's log that may name one deal number: its records, undos, corrections and restorations."""

LOG_LINES_MAX = 2000
"""Lines in one table's log, all deals together."""

CHIP_VALUE_CENTS_MAX = 1_000_000
"""The money value of one chip, in cents (10,000.00 in any currency)."""

CURRENCY_MAX = 5
"""Characters of the currency's name, such as EUR."""

REASON_MAX = 200
"""Characters of the reason given for a correction."""

IMPORT_BYTES_MAX = 6 * 1024 * 1024
"""Bytes of an uploaded evening file (6 MiB): above the export of the largest table the other limits allow
(400 deals, 2,000 lines, every name and reason at its longest in four-byte characters: about 4.3 MB)."""

IMPORT_MEMORY_PER_BYTE = 8
"""Bytes of memory the values read from an uploaded file may take for each byte of the file (plus 256 KiB),
measured as they are built (``scorer/store/reading.py``): a file that would take more is refused as it is
read. The densest file within the other limits takes about 5 (a history of records and undos written
without spaces, each line with its time; its texts and numbers are shared); a file of empty lists would
take more than 20, and is refused at 8."""

IMPORT_SECONDS_MAX = 5
"""Seconds of its thread's time (CPU) reading one uploaded file may take (``scorer/store/reading.py``): a file still being read then is
refused. The largest file within the limits is read in about 0.1 s and the costliest hostile one (numbers all
different, refused at the memory budget) in about 1 s: the bound is for a machine far slower or far busier."""

JSON_DEPTH_MAX = 8
"""Nesting of arrays and objects in an uploaded file (the format itself needs 7: a history line's deal's play's tricks)."""

RECENT_TABLES_MAX = 12
"""Tables and circles, in all, a phone's home page lists as opened recently (kept in a signed cookie of about 1 KB at most)."""

CIRCLE_MEMBERS_MAX = 12
"""Members of one circle, its founders and those added later."""

CIRCLE_NAME_MAX = 60
"""Characters of a circle's name."""

CIRCLE_EVENINGS_MAX = 100
"""Evenings of one circle: two years of a weekly club. At this many evenings of 40 deals (about 46 KB each in
the app's export, names at their longest) a circle file is about 4.6 MB and imports back under
:data:`IMPORT_BYTES_MAX`, which binds first for longer evenings (one of 400 deals is about 4.3 MB)."""

CIRCLE_DEALS_MAX = 4_000
"""Deals of one circle, all its evenings together, counted as agreed: a circle of evenings of ``d`` deals has
at most ``CIRCLE_DEALS_MAX // d`` evenings (and never more than :data:`CIRCLE_EVENINGS_MAX`), refused when an
evening is started and when a circle is imported: 100 evenings of 40 deals (two years of a weekly club), 50 of
80, or 10 of 400. It bounds the work of one fold of a season (every deal read and settled once: about a
quarter of a second of one core), keeps a whole season within the ledger cache, and keeps the app's export of
the largest circle (about 4.8 MB) under :data:`IMPORT_BYTES_MAX`, so that it imports back."""


def circle_evenings_max(deals_agreed: int) -> int:
    """The evenings a circle whose evenings are ``deals_agreed`` deals long may have (:data:`CIRCLE_DEALS_MAX`)."""
    return max(1, min(CIRCLE_EVENINGS_MAX, CIRCLE_DEALS_MAX // max(1, deals_agreed)))


CIRCLE_LOG_LINES_MAX = 3 * CIRCLE_EVENINGS_MAX + CIRCLE_MEMBERS_MAX
"""Lines of a circle's log (the store writes no more, an import takes no more): an ``evening`` line for
each evening, a ``member`` line for each member added, and twice as many lines again as evenings for settlements (at most one for each evening
that settles new evenings) and for renames and settlements of corrections alone. It bounds the work of
checking each new name against every name the circle ever had."""

PLAY_NOTATION_MAX = 400
"""Characters of a play pasted on the Check-the-play page (forty cards with separators need about 160)."""

TALLY_LABEL_MAX = 60
"""Characters of the place and of the table's name printed on the tally PDF's title block."""
