"""The times a page shows (``local_time``, ``local_day``), on every day of the week and across the month's, the
year's and the clocks' changes, at fixed instants (issue 22): the shown day, date and year never depend on the day
the suite runs, and "this year" is the year of a fixed ``now`` here.

The suite once failed on Tuesdays and Thursdays only (a test looked for no "T" in "Thu 26 Nov, 03:04"): every
weekday is a worked example here, in English and in French, and a property checks the English form against the
standard library's calendar for any instant in any of several zones.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.web.i18n import local_day, local_time

NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)
"""The moment "this year" is judged from, unless a case gives its own."""

WEEK = [
    # stamp (UTC), the English and the French shown in London, a week of evenings at 21:04
    ("2026-11-23T21:04:00+00:00", "Mon 23 Nov, 21:04", "lun. 23 nov., 21:04"),
    ("2026-11-24T21:04:00+00:00", "Tue 24 Nov, 21:04", "mar. 24 nov., 21:04"),
    ("2026-11-25T21:04:00+00:00", "Wed 25 Nov, 21:04", "mer. 25 nov., 21:04"),
    ("2026-11-26T21:04:00+00:00", "Thu 26 Nov, 21:04", "jeu. 26 nov., 21:04"),
    ("2026-11-27T21:04:00+00:00", "Fri 27 Nov, 21:04", "ven. 27 nov., 21:04"),
    ("2026-11-28T21:04:00+00:00", "Sat 28 Nov, 21:04", "sam. 28 nov., 21:04"),
    ("2026-11-29T21:04:00+00:00", "Sun 29 Nov, 21:04", "dim. 29 nov., 21:04"),
]

BOUNDARIES = [
    # stamp, zone, now, English, French
    ("2026-11-29T23:30:00+00:00", "Europe/Paris", NOW, "Mon 30 Nov, 00:30", "lun. 30 nov., 00:30"),  # Sunday in UTC
    ("2026-11-30T23:30:00+00:00", "Europe/Paris", NOW, "Tue 1 Dec, 00:30", "mar. 1 déc., 00:30"),  # next month
    ("2026-12-01T03:00:00+00:00", "America/New_York", NOW, "Mon 30 Nov, 22:00", "lun. 30 nov., 22:00"),  # month before
    # the year's change: a stamp of next year shows its year, until it is this year where the app is
    ("2026-12-31T23:30:00+00:00", "Europe/Paris", NOW, "Fri 1 Jan 2027, 00:30", "ven. 1 janv. 2027, 00:30"),
    ("2026-12-31T23:30:00+00:00", "Europe/Paris", datetime(2027, 1, 1, tzinfo=timezone.utc), "Fri 1 Jan, 00:30",
     "ven. 1 janv., 00:30"),
    ("2026-12-31T23:15:00+00:00", "Europe/Paris", datetime(2026, 12, 31, 23, 30, tzinfo=timezone.utc),
     "Fri 1 Jan, 00:15", "ven. 1 janv., 00:15"),  # already 2027 in Paris, though not in UTC
    ("2026-12-31T23:15:00+00:00", "Europe/London", datetime(2026, 12, 31, 23, 30, tzinfo=timezone.utc),
     "Thu 31 Dec, 23:15", "jeu. 31 déc., 23:15"),
    ("2026-12-31T23:15:00+00:00", "Europe/London", datetime(2027, 1, 1, 0, 10, tzinfo=timezone.utc),
     "Thu 31 Dec 2026, 23:15", "jeu. 31 déc. 2026, 23:15"),  # ten minutes later it is last year's
    # the calendar year, not the ISO week's: 29 Dec 2025 is in week 1 of 2026
    ("2025-12-29T09:00:00+00:00", "UTC", NOW, "Mon 29 Dec 2025, 09:00", "lun. 29 déc. 2025, 09:00"),
    ("2028-02-29T12:00:00+00:00", "Europe/London", NOW, "Tue 29 Feb 2028, 12:00", "mar. 29 févr. 2028, 12:00"),
    # the clocks' changes in London: forward at 01:00 UTC on 29 March, back at 01:00 UTC on 25 October
    ("2026-03-29T00:30:00+00:00", "Europe/London", NOW, "Sun 29 Mar, 00:30", "dim. 29 mars, 00:30"),
    ("2026-03-29T01:30:00+00:00", "Europe/London", NOW, "Sun 29 Mar, 02:30", "dim. 29 mars, 02:30"),
    ("2026-10-25T00:30:00+00:00", "Europe/London", NOW, "Sun 25 Oct, 01:30", "dim. 25 oct., 01:30"),
    ("2026-10-25T01:30:00+00:00", "Europe/London", NOW, "Sun 25 Oct, 01:30", "dim. 25 oct., 01:30"),
    ("2026-01-05T09:00:00+13:00", "Pacific/Auckland", NOW, "Mon 5 Jan, 09:00", "lun. 5 janv., 09:00"),  # its own zone
]


@pytest.mark.parametrize("stamp, english, french", WEEK)
def test_every_day_of_the_week_is_shown_in_english(stamp: str, english: str, french: str) -> None:
    assert local_time(stamp, "Europe/London", now=NOW) == english
    assert local_time(stamp, "Europe/London", with_time=False, now=NOW) == english.split(",")[0]


@pytest.mark.parametrize("stamp, english, french", WEEK)
def test_every_day_of_the_week_is_shown_in_french(app: Flask, stamp: str, english: str, french: str) -> None:
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert local_time(stamp, "Europe/London", now=NOW) == french
        assert local_day(stamp, now=NOW) == french.rsplit(",", 1)[0]  # in the app's zone, London


@pytest.mark.parametrize("stamp, zone, now, english, french", BOUNDARIES)
def test_the_month_s_the_year_s_and_the_clocks_changes(app: Flask, stamp: str, zone: str, now: datetime, english: str,
                                                       french: str) -> None:
    assert local_time(stamp, zone, now=now) == english
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert local_time(stamp, zone, now=now) == french


@pytest.mark.parametrize("zone, shown", [("Europe/London", "Thu 26 Nov 2020"), ("Europe/Paris", "Fri 27 Nov 2020"),
                                         ("America/New_York", "Thu 26 Nov 2020")])
def test_the_app_s_zone_decides_the_day(tmp_path: object, zone: str, shown: str) -> None:
    from scorer import create_app

    app = create_app({"TESTING": True, "DATABASE": f"{tmp_path}/t.sqlite", "SECRET_KEY": "t", "TIMEZONE": zone})
    with app.app_context():
        assert local_day("2020-11-26T23:30:00+00:00", now=NOW) == shown


DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
ZONES = ("UTC", "Europe/London", "Europe/Paris", "America/New_York", "Pacific/Auckland", "Asia/Kolkata",
         "Pacific/Kiritimati", "Pacific/Pago_Pago")


@settings(max_examples=300, deadline=None)
@given(st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2199, 12, 31)),
       st.timedeltas(min_value=timedelta(days=-800), max_value=timedelta(days=800)), st.sampled_from(ZONES))
def test_the_shown_day_is_the_calendar_s_in_the_zone(instant: datetime, since: timedelta, zone: str) -> None:
    """Any instant, in any of these zones, seen from any moment two years either side: the standard library's
    calendar (its zones, its weekdays) gives the same day, date, year (when not the year of ``now`` there) and time."""
    stamp = instant.replace(tzinfo=timezone.utc)
    now = stamp + since
    here, then = stamp.astimezone(ZoneInfo(zone)), now.astimezone(ZoneInfo(zone))
    year = f" {here.year}" if here.year != then.year else ""
    expected = f"{DAYS[here.weekday()]} {here.day} {MONTHS[here.month - 1]}{year}, {here.hour:02d}:{here.minute:02d}"
    assert local_time(stamp.isoformat(), zone, now=now) == expected


def test_without_now_this_year_is_the_clock_s() -> None:
    """Without ``now``, this year is the clock's (read before and after, in case the year turns between)."""
    before = datetime.now(timezone.utc)
    stamps = (before.isoformat(), before.replace(year=before.year - 5, month=6, day=15).isoformat())
    shown = [local_time(stamp, "UTC") for stamp in stamps]
    after = datetime.now(timezone.utc)
    assert shown in ([local_time(stamp, "UTC", now=before) for stamp in stamps],
                     [local_time(stamp, "UTC", now=after) for stamp in stamps])
    this_year, five_years_ago = (local_time(stamp, "UTC", now=before).split(",")[0] for stamp in stamps)
    assert not this_year[-4:].isdigit() and five_years_ago.endswith(f" {before.year - 5}")
