"""The app's pages, a blueprint per feature: a table and its deals (:mod:`.tables`, with the page two
phones that disagree see, :mod:`.race`), corrections and the audit (:mod:`.audit`), the play of a deal
(:mod:`.play`), the tally and its PDF (:mod:`.tally`), circles and their seasons (:mod:`.circles`), import and
export (:mod:`.exchange`), the home page and the phone's recent tables (:mod:`.home`, :mod:`.recent`) and the
health check (:mod:`.health`). They share :mod:`scorer.web.common`, the forms and the views; none imports
another."""
