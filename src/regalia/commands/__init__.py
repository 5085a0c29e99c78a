"""Sub-commands of the ``regalia`` command line; each module exposes ``register(app)``.

No module here names a game: games are found through the registry and add their own commands
through their plugin (``Plugin.commands``).

>>> from regalia.core.text import plural
>>> plural(2, "ply", "plies")
'2 plies'
"""
