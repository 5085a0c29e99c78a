"""Build script (setuptools; the metadata is in pyproject.toml).

By default the pure package. With ``REGALIA_COMPILE=1`` in the environment (``pip install``, ``pip
install -e``, ``python -m build``), the engine modules listed in ``src/regalia/_native.py`` are also
compiled to C extensions with mypyc (the build backend, ``_build/regalia_build.py``, then asks for
mypy); without a C compiler it says so and builds the pure package.
"""

from __future__ import annotations

import glob
import os
import runpy
import shlex
import shutil
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES

from setuptools import setup


def _compile_requested() -> bool:
    return os.environ.get("REGALIA_COMPILE", "").strip().lower() in ("1", "true", "yes")


def _have_compiler() -> bool:
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    return bool(cc) and shutil.which(cc[0]) is not None


def _remove_compiled(keep: tuple[str, ...] = ()) -> None:
    """Delete the C extensions an earlier compiled editable install built in src/, but those of the
    modules ``keep`` (a pure build keeps none): they would shadow the .py modules of this build
    (regalia has no other extension)."""
    suffixes = tuple(EXTENSION_SUFFIXES)
    found = [] if keep else glob.glob(os.path.join("src", "regalia__mypyc*"))
    found += glob.glob(os.path.join("src", "regalia", "**", "*"), recursive=True)
    for path in sorted(p for p in found if p.endswith(suffixes)):
        module = os.path.relpath(path, "src").split(".")[0].replace(os.sep, ".")
        if module not in keep:
            print(f"regalia: removing {path} (compiled, and not by this build)", file=sys.stderr)
            os.remove(path)


def _extensions() -> list[object]:
    if not _compile_requested():
        _remove_compiled()
        return []
    if not _have_compiler():
        print("regalia: REGALIA_COMPILE=1, but no C compiler found: the pure package", file=sys.stderr)
        return []
    if os.environ.get("REGALIA_BUILD_READING_REQUIREMENTS"):
        return []  # the backend only reads the build requirements (mypy among them) for now
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("regalia: REGALIA_COMPILE=1 needs mypy (mypyc) to build: pip install mypy")
    native = runpy.run_path(os.path.join("src", "regalia", "_native.py"))
    _remove_compiled(keep=native["ENGINE_MODULES"])
    return list(mypycify(native["source_paths"]("src"), opt_level="3", group_name="regalia"))


setup(ext_modules=_extensions())
