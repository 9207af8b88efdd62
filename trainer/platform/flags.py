"""tg.flags (also tg.app.flags): absl-style command-line flags, as TF1 re-exports them.

TF1's FLAGS differs from absl's in one way kept here: reading a flag before the command line was parsed parses
sys.argv first instead of raising, which is why `FLAGS = tf.app.flags.FLAGS` at import time works.
"""
import csv
import functools
import sys

from .flag_values import (DuplicateFlagError, Error, Flag, FlagValues, IllegalFlagValueError, UnparsedFlagAccessError,
                          UnrecognizedFlagError, ValidationError)

FLAGS = FlagValues(implicit_parse=True)

_TRUE, _FALSE = ("true", "t", "1"), ("false", "f", "0")
_OLD_KEYWORDS = {"flag_name": "name", "default_value": "default", "docstring": "help"}  # TF <= 1.4 names


def _string(value):
    if not isinstance(value, str):
        raise TypeError(f"a string is expected, got {type(value).__name__}")
    return value


def _boolean(value):
    if isinstance(value, str) and value.lower() in _TRUE + _FALSE:
        return value.lower() in _TRUE
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ValueError("a boolean flag takes true/false, t/f or 1/0")


def _integer(value):
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(f"an integer is expected, got {type(value).__name__}")
    return int(value, 0) if isinstance(value, str) and value.lower().startswith(("0x", "0o")) else int(value)


def _float(value):
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"a number is expected, got {type(value).__name__}")
    return float(value)


def _range_text(noun, lower, upper):
    if lower is not None and upper is not None:
        return f"{noun} in the range [{lower}, {upper}]"
    if lower == 0 or upper == 0:
        return f"a non-{'negative' if lower == 0 else 'positive'} {noun.split()[-1]}"
    if lower is not None or upper is not None:
        return f"{noun} {'>=' if lower is not None else '<='} {lower if lower is not None else upper}"
    return noun


def _bounded(convert, noun, lower, upper):
    text = _range_text(noun, lower, upper)

    def check(value):
        value = convert(value)
        if (lower is not None and value < lower) or (upper is not None and value > upper):
            raise ValueError(f"{value} is not {text}")
        return value
    return check, text


def _enum(values, case_sensitive=True):
    if not values:
        raise ValueError("enum_values must name at least one value")

    def check(value):
        value = _string(value)
        for allowed in values:
            if value == allowed or (not case_sensitive and value.lower() == allowed.lower()):
                return allowed
        raise ValueError(f"value should be one of <{'|'.join(values)}>")
    return check


def _separated(split):
    def check(value):
        if isinstance(value, (list, tuple)):
            return [_string(item) for item in value]
        return split(_string(value)) if value.strip() else []
    return check


def _csv(text):
    return [item.strip() for item in next(csv.reader([text], strict=True))]


def _caller_module():
    """(module name, id of its globals) of the first frame outside the flags modules."""
    frame = sys._getframe(1)
    while frame.f_globals.get("__name__") in (__name__, Flag.__module__):
        frame = frame.f_back
    return frame.f_globals.get("__name__", "__main__"), id(frame.f_globals)


def _accepts_old_keywords(define):
    @functools.wraps(define)
    def wrapper(*args, **kwargs):
        for old, new in _OLD_KEYWORDS.items():
            if old in kwargs:
                kwargs[new] = kwargs.pop(old)
        return define(*args, **kwargs)
    return wrapper


def DEFINE_flag(flag, flag_values=FLAGS, module_name=None):
    """Register a ready Flag object; returns it."""
    module = _caller_module() if module_name is None else (module_name, None)
    return flag_values.register(flag, module)


def _define(name, default, help, convert, kind, flag_values, required=False, short_name=None, **flag_args):
    flag = DEFINE_flag(Flag(name, default, help, convert, kind, short_name=short_name, **flag_args), flag_values)
    if required:
        mark_flag_as_required(name, flag_values)
    return flag


@_accepts_old_keywords
def DEFINE_string(name, default, help, flag_values=FLAGS, **args):
    """A string flag."""
    return _define(name, default, help, _string, "", flag_values, **args)


@_accepts_old_keywords
def DEFINE_boolean(name, default, help, flag_values=FLAGS, **args):
    """A boolean flag: --name, --noname, --name=true/false/t/f/1/0."""
    return _define(name, default, help, _boolean, "", flag_values, boolean=True, **args)


DEFINE_bool = DEFINE_boolean


@_accepts_old_keywords
def DEFINE_integer(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS, **args):
    """An integer flag (decimal, 0x hex or 0o octal), optionally bounded."""
    convert, kind = _bounded(_integer, "an integer", lower_bound, upper_bound)
    return _define(name, default, help, convert, kind, flag_values, **args)


@_accepts_old_keywords
def DEFINE_float(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS, **args):
    """A float flag, optionally bounded."""
    convert, kind = _bounded(_float, "a number", lower_bound, upper_bound)
    return _define(name, default, help, convert, kind, flag_values, **args)


@_accepts_old_keywords
def DEFINE_enum(name, default, enum_values, help, flag_values=FLAGS, case_sensitive=True, **args):
    """A string flag restricted to enum_values."""
    kind = f"<{'|'.join(enum_values or ())}>"
    return _define(name, default, help, _enum(enum_values, case_sensitive), kind, flag_values, **args)


@_accepts_old_keywords
def DEFINE_list(name, default, help, flag_values=FLAGS, **args):
    """A comma-separated list of strings (CSV quoting allowed)."""
    return _define(name, default, help, _separated(_csv), "a comma separated list", flag_values, **args)


@_accepts_old_keywords
def DEFINE_spaceseplist(name, default, help, comma_compat=False, flag_values=FLAGS, **args):
    """A whitespace-separated list of strings (commas too with comma_compat=True)."""
    split = (lambda text: text.replace(",", " ").split()) if comma_compat else str.split
    return _define(name, default, help, _separated(split), "a whitespace separated list", flag_values, **args)


def _define_multi(name, default, help, convert, kind, flag_values, **args):
    kind = f"{kind}; repeat this option to specify a list of values".lstrip("; ")
    return _define(name, default, help, convert, kind, flag_values, multi=True, **args)


@_accepts_old_keywords
def DEFINE_multi_string(name, default, help, flag_values=FLAGS, **args):
    """A string flag that may be repeated; its value is the list of all occurrences."""
    return _define_multi(name, default, help, _string, "", flag_values, **args)


@_accepts_old_keywords
def DEFINE_multi_integer(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS, **args):
    """A repeatable integer flag."""
    convert, kind = _bounded(_integer, "an integer", lower_bound, upper_bound)
    return _define_multi(name, default, help, convert, kind, flag_values, **args)


@_accepts_old_keywords
def DEFINE_multi_float(name, default, help, lower_bound=None, upper_bound=None, flag_values=FLAGS, **args):
    """A repeatable float flag."""
    convert, kind = _bounded(_float, "a number", lower_bound, upper_bound)
    return _define_multi(name, default, help, convert, kind, flag_values, **args)


@_accepts_old_keywords
def DEFINE_multi_enum(name, default, enum_values, help, flag_values=FLAGS, case_sensitive=True, **args):
    """A repeatable enum flag."""
    kind = f"<{'|'.join(enum_values or ())}>"
    return _define_multi(name, default, help, _enum(enum_values, case_sensitive), kind, flag_values, **args)


def register_validator(flag_name, checker, message="Flag validation failed", flag_values=FLAGS):
    """After parsing (and on assignment), checker(value) must be true, else IllegalFlagValueError(message)."""
    flag_values.add_validator([flag_name], checker, message)


def validator(flag_name, message="Flag validation failed", flag_values=FLAGS):
    """Decorator form of register_validator."""
    def decorate(checker):
        register_validator(flag_name, checker, message, flag_values)
        return checker
    return decorate


def register_multi_flags_validator(flag_names, multi_flags_checker, message="Flags validation failed",
                                   flag_values=FLAGS):
    """multi_flags_checker({name: value}) must be true after parsing."""
    flag_values.add_validator(list(flag_names), multi_flags_checker, message)


def multi_flags_validator(flag_names, message="Flags validation failed", flag_values=FLAGS):
    """Decorator form of register_multi_flags_validator."""
    def decorate(checker):
        register_multi_flags_validator(flag_names, checker, message, flag_values)
        return checker
    return decorate


def mark_flag_as_required(flag_name, flag_values=FLAGS):
    """Parsing fails unless the flag ends up with a value other than None."""
    register_validator(flag_name, lambda value: value is not None,
                       f"Flag --{flag_name} must have a value other than None.", flag_values)


def mark_flags_as_required(flag_names, flag_values=FLAGS):
    for name in flag_names:
        mark_flag_as_required(name, flag_values)


def mark_flags_as_mutual_exclusive(flag_names, required=False, flag_values=FLAGS):
    """At most one (exactly one if required) of flag_names may have a value other than None."""
    def check(values):
        count = sum(value is not None for value in values.values())
        return count == 1 if required else count <= 1
    rule = "exactly one" if required else "at most one"
    register_multi_flags_validator(flag_names, check, f"{rule} of these flags must be set, not None", flag_values)
