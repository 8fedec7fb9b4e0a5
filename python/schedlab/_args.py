"""Checks of the Python types of arguments, before anything reaches the
core: a wrong type raises ``TypeError`` naming the call and the argument,
and a value the core's type cannot hold (a seed of ``2**64``, a negative
job count) is a wrong type too, since no value of it could mean anything.
Values of the right type that the core refuses (a machine of 0
processors) are the core's to judge: a :class:`schedlab.OptionError`.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence, Tuple

U32 = (0, 2**32 - 1)
U64 = (0, 2**64 - 1)
I32 = (-(2**31), 2**31 - 1)
I64 = (-(2**63), 2**63 - 1)

_NAMES = {U32: "an unsigned 32-bit int", U64: "an unsigned 64-bit int", I32: "a 32-bit int", I64: "a 64-bit int"}


def type_error(where: str, name: str, value: Any, expected: str) -> TypeError:
    return TypeError(f"{where}: {name} must be {expected}, not {type(value).__name__}")


def integer(where: str, name: str, value: Any, bounds: Tuple[int, int] = U64) -> int:
    """An int of the core's type ``bounds`` (an index such as numpy's
    integers counts; a bool, a float or a string does not)."""
    if isinstance(value, bool) or isinstance(value, (float, str, bytes)):
        raise type_error(where, name, value, "an int")
    try:
        number = operator.index(value)
    except TypeError:
        raise type_error(where, name, value, "an int") from None
    low, high = bounds
    if not low <= number <= high:
        kind = _NAMES.get(bounds, "an int")
        raise TypeError(f"{where}: {name} must be {kind}, from {low} to {high}; {number} is out of its range")
    return number


def number(where: str, name: str, value: Any) -> float:
    """A real number (an int or a float, not a bool); the core says which
    values are allowed."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise type_error(where, name, value, "a number (int or float)")
    try:
        return float(value)
    except OverflowError:
        raise TypeError(f"{where}: {name} is too large for a float: {value}") from None


def text(where: str, name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise type_error(where, name, value, "a str")
    return value


def flag(where: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise type_error(where, name, value, "a bool")
    return value


def integers(where: str, name: str, value: Any, bounds: Tuple[int, int]) -> List[int]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise type_error(where, name, value, "a list of ints")
    return [integer(where, f"{name}[{i}]", v, bounds) for i, v in enumerate(value)]


def texts(where: str, name: str, value: Any) -> List[str]:
    if isinstance(value, str) or not isinstance(value, Sequence) or not value:
        raise type_error(where, name, value, "a non-empty list of str")
    return [text(where, f"{name}[{i}]", v) for i, v in enumerate(value)]


def optional(check: Any, where: str, name: str, value: Any, *bounds: Any) -> Optional[Any]:
    """``check(where, name, value, *bounds)`` unless ``value`` is None."""
    return None if value is None else check(where, name, value, *bounds)


def param_text(where: str, key: Any, value: Any) -> Tuple[str, str]:
    """A parameter as the core reads it: text, as typed on the command line."""
    if not isinstance(key, str):
        raise type_error(where, "a parameter name", key, "a str")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise type_error(where, f"params[{key!r}]", value, "a str, int or float (choices are text: 'on', 'shortest')")
    return key, value if isinstance(value, str) else repr(value)


def params(where: str, value: Optional[Mapping[str, Any]]) -> Dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise type_error(where, "params", value, "a mapping of parameter names to values")
    return dict(param_text(where, k, v) for k, v in value.items())
