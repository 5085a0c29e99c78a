"""Sub-commands of the ``regalia`` command line; each module exposes ``register(app)``."""
