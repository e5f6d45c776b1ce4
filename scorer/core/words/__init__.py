"""What the core writes for a reader, as messages rendered in the reader's language: a deal's summary
(:mod:`.summary`), the text and JSON reports of an evening (:mod:`.report`), the statistics of evenings
(:mod:`.stats`) and the rules page (:mod:`.rules_doc`)."""
