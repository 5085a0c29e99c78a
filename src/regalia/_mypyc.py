"""``mypyc_attr``, the class options of the compiled build (:mod:`regalia._native`), importable
without mypy: mypyc reads the decorator where it compiles (from ``mypy_extensions``, which mypy
brings); at run time it does nothing, and the pure package does not need ``mypy_extensions``.
And what compiled classes need that interpreted ones get for free: :func:`own_abc_caches` for an
abstract base class, :func:`pickle_own_attributes` for an interpreted subclass of a compiled class
that pickles (a frozen dataclass's is :func:`regalia.core.data.frozen_reduce`).

>>> @mypyc_attr(allow_interpreted_subclasses=True)
... class Base:
...     pass
>>> Base.__name__
'Base'
>>> import abc
>>> class Shape(abc.ABC):
...     pass
>>> own_abc_caches(Shape)  # an interpreted ABC has its own already: unchanged
>>> Shape._abc_impl is not abc.ABC._abc_impl
True
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the pure package, without mypy installed

        def mypyc_attr(*attrs: Any, **kwattrs: Any) -> Any:
            return lambda cls: cls


def own_abc_caches(cls: type) -> None:
    """Give the class ``cls`` (an ``abc.ABCMeta`` class) its own ``isinstance``/``issubclass``
    caches, unless it has them.

    ``ABCMeta.__new__`` makes them (``_abc_impl``), but mypyc builds a compiled class without it:
    the class inherits those of the nearest interpreted ABC (``abc.ABC``'s), which every compiled
    ABC would share. An answer cached for one class would then be given for all: once
    ``issubclass(TwoHeirsState, State)`` is cached true, ``isinstance`` of any Two Heirs state
    against ``SoloState`` is true too (and a cached false answer spreads the same way). ``Game``
    and ``State`` call this for themselves and, from ``__init_subclass__``, for each subclass.
    """
    if "_abc_impl" not in vars(cls):
        abc_init: Callable[[type], None] = getattr(abc, "_abc_init")  # noqa: B009 (not in typeshed)
        abc_init(cls)


def pickle_own_attributes(cls: type) -> None:
    """Make mypyc's pickling of the interpreted class ``cls``, a subclass of a compiled class that
    pickles (``serializable``), keep the attributes ``cls`` adds: its own ``__slots__`` and those of
    its interpreted bases, and its ``__dict__`` if it has one. Nothing for a compiled class (mypyc
    lists its attributes) or in the pure package (pickle's default keeps everything).

    mypyc's ``__getstate__`` saves only the attributes its class attribute ``__mypyc_attrs__``
    names, which an interpreted subclass inherits: the compiled base's. A state of a game written in
    Python (``examples/pretenders``) lost its own fields in ``pickle`` and ``copy``. ``State`` calls
    this from ``__init_subclass__``.
    """
    inherited = getattr(cls, "__mypyc_attrs__", None)
    if inherited is None or "__mypyc_attrs__" in vars(cls):
        return
    names = list(inherited)
    for klass in cls.__mro__:
        if "__mypyc_attrs__" in vars(klass):
            break  # the compiled bases: in ``inherited`` already
        slots = vars(klass).get("__slots__", ())
        for slot in [slots] if isinstance(slots, str) else slots:
            if slot.startswith("__") and not slot.endswith("__"):
                slot = f"_{klass.__name__.lstrip('_')}{slot}"  # a private name, mangled
            if slot != "__weakref__" and slot not in names:
                names.append(slot)
        if "__dict__" in vars(klass) and "__dict__" not in names:
            names.append("__dict__")
    setattr(cls, "__mypyc_attrs__", tuple(names))  # noqa: B010 (mypyc's attribute, not in the type)


__all__ = ["mypyc_attr", "own_abc_caches", "pickle_own_attributes"]
