"""A state played on in another process, as the root-parallel helpers and the lab's workers receive
one: pickled here, unpickled in a new interpreter, whose tables by square id start empty."""

from __future__ import annotations

import pickle
import subprocess
import sys


def in_new_interpreter(state: object, script: str) -> list[str]:
    """The lines ``script`` prints, run in a new interpreter with ``state`` (pickled here) bound
    to the name ``state``."""
    prelude = "import pickle, sys\nstate = pickle.loads(sys.stdin.buffer.read())\n"
    done = subprocess.run(
        [sys.executable, "-c", prelude + script], input=pickle.dumps(state), capture_output=True, check=True
    )
    return done.stdout.decode().splitlines()
