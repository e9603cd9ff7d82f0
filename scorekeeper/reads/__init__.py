"""Read models: a game, a night and a ruleset as the pages, the PDFs and the API read them.

Everything here reads (through the store) and works out (through the rules engine) what a request shows:
a game replayed from its events (``loading``, kept under the rows it is made from by ``kept``), the
rulesets on offer (``catalog``), a night's money in cents (``night_report``), a game's history and
scorepad in table words, players' drafts, the meld checker's one entry point, exports. Nothing here
writes: the commands do, and they may read through these modules; the web side and the blueprints
above them render what these return.
"""
