"""Forms translate to the core's Deal and back."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from scorer.core import TableState, loads
from scorer.web.forms import DealForm

EXAMPLE = loads((Path(__file__).resolve().parent.parent / "examples" / "evening.json").read_text())


@pytest.mark.parametrize("deal", EXAMPLE.deals, ids=lambda d: f"{d.dealer}-{d.contract.value}")
def test_a_deal_shown_in_the_form_reads_back_unchanged(app: Flask, deal: object) -> None:
    from scorer.core import Deal

    assert isinstance(deal, Deal)
    with app.test_request_context():
        form = DealForm(players=EXAMPLE.players, contract=deal.contract, dealer=deal.dealer,
                        state=TableState.start(EXAMPLE.players), rules=EXAMPLE.rules)
        form.fill_from(deal)
        assert form.to_deal() == deal
