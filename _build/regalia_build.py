"""The build backend: setuptools' own, plus mypy (mypyc) as a build requirement when the compiled
build is asked for (``REGALIA_COMPILE=1`` in the environment; see setup.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (every hook setuptools defines)

#: The mypy whose mypyc compiles the engine (the version the engine's typing is checked with).
MYPY = "mypy>=2.4"


#: Set while setuptools runs setup.py only to collect the build requirements (mypy may be missing).
READING_REQUIREMENTS = "REGALIA_BUILD_READING_REQUIREMENTS"


def _compile_requires() -> list[str]:
    wanted = os.environ.get("REGALIA_COMPILE", "").strip().lower() in ("1", "true", "yes")
    return [MYPY] if wanted else []


def _requires(hook: Callable[[dict[str, Any] | None], list[str]], config: dict[str, Any] | None) -> list[str]:
    os.environ[READING_REQUIREMENTS] = "1"
    try:
        return [*hook(config), *_compile_requires()]
    finally:
        del os.environ[READING_REQUIREMENTS]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)
