"""``python -m regalia``: the ``regalia`` command (:func:`regalia.cli.main`), for a machine whose
``PATH`` lacks the console script (a virtual environment not activated, ``pip install --user``).

>>> import regalia.cli
>>> main is regalia.cli.main
True
"""

from __future__ import annotations

from regalia.cli import main

if __name__ == "__main__":  # pragma: no branch
    main()
