"""The machine's side: serving the app on the home network and the command line that runs it.

``serving`` starts waitress on the host's LAN address (and prints the address and its QR code);
``cli`` is every command of ``scorekeeper COMMAND`` and ``flask --app scorekeeper``: serve, backup,
restore, export, import, init-db and the rest. They sit above everything else but the app factory:
they may use any layer, and no layer uses them.
"""
