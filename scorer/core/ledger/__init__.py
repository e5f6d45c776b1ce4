"""A table's books: a deal settled against the table's state (:mod:`.settle`, after the checks of
:mod:`.table_checks`), an evening replayed deal by deal (:mod:`.evening`) and written to or read from its JSON
(:mod:`.evening_json`), the log of commands that makes a table (:mod:`.log`: decide, then evolve), a circle's
season of evenings (:mod:`.season`) and who pays whom at the end (:mod:`.settleup`)."""
