"""Checks of training settings, each a pure function raising ConfigError (a ValueError) in one line that
names the flag or variable, its value, and what to do.

The CLI calls them while parsing and before anything is built, so `--epochs inf`, `--hidden` for a model
without hidden layers or `--batch-size 100000000000` fail in a millisecond instead of as an OverflowError,
a TypeError or a MemoryError after a long wait. Memory is judged by arithmetic on lower bounds (footprint.py).
"""
import math
import numbers
import os

import numpy as np

import allreduce
import models
from allreduce.env import env_number
from ..platform.footprint import count, exceeds_memory, human

INT64_MAX = 2**63 - 1  # the global step is an int64 variable: no run can count further


class ConfigError(ValueError):
    """A setting that cannot work; the message names it and says what to do."""


def _number(flag, value, kind, want):
    if isinstance(value, bool) or not isinstance(value, (str, numbers.Real)):
        raise ConfigError(f"{flag} {value!r}: must be {want}")
    try:
        number = float(value) if kind is float else _integer(value)
    except (ValueError, OverflowError):
        raise ConfigError(f"{flag} {value!r}: must be {want}") from None
    if not math.isfinite(number):
        raise ConfigError(f"{flag} {value!r}: must be {want}, not infinite or NaN")
    return number


def _integer(value):
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, str):
        try:
            return int(value)  # exact, even beyond a float's 53 bits
        except ValueError:
            pass
    number = float(value)
    if not number.is_integer():  # 2.5 is refused, not truncated
        raise ValueError(value)
    return int(number)  # "1e6" and 1e6 are whole numbers too


def positive_number(flag, value):
    """A finite float > 0 (learning rate, epochs); strings are parsed, so argparse can use it as a type."""
    number = _number(flag, value, float, "a finite number > 0")
    if not number > 0:
        raise ConfigError(f"{flag} {value!r}: must be a finite number > 0")
    return number


def non_negative_number(flag, value):
    """A finite float >= 0 (seconds between checkpoints, 0 for none)."""
    number = _number(flag, value, float, "a finite number >= 0")
    if not number >= 0:
        raise ConfigError(f"{flag} {value!r}: must be a finite number >= 0")
    return number


def positive_int(flag, value):
    """A whole number >= 1 (batch size, steps between checkpoints)."""
    number = _number(flag, value, int, "a whole number >= 1")
    if number < 1:
        raise ConfigError(f"{flag} {value!r}: must be a whole number >= 1")
    return number


def non_negative_int(flag, value):
    """A whole number >= 0 (steps, seed)."""
    number = _number(flag, value, int, "a whole number >= 0")
    if number < 0:
        raise ConfigError(f"{flag} {value!r}: must be a whole number >= 0")
    if number > INT64_MAX:
        raise ConfigError(f"{flag} {value!r}: must be at most {INT64_MAX} (an int64)")
    return number


def check_batch_size(batch_size, num_examples, ranks=1, dataset="the dataset"):
    """A global batch needs a sample for every rank and must not hold a sample twice."""
    batch_size = positive_int("--batch-size", batch_size)
    if batch_size < ranks:
        raise ConfigError(f"--batch-size {batch_size} is smaller than the {ranks} ranks: every rank needs at "
                          f"least one sample of each global batch; use --batch-size {ranks} or more")
    if batch_size > num_examples:
        raise ConfigError(f"--batch-size {batch_size} is larger than the {num_examples} examples of {dataset}: "
                          f"a global batch would hold samples twice; use --batch-size {num_examples} or less")
    return batch_size


def check_accumulation(batch_size, passes, num_examples, dataset="the dataset"):
    """--accumulate K: a step of K passes of --batch-size must not hold a sample twice."""
    passes = positive_int("--accumulate", passes)
    if batch_size * passes > num_examples:
        raise ConfigError(f"--batch-size {batch_size} x --accumulate {passes} = {batch_size * passes} samples a "
                          f"step, more than the {num_examples} examples of {dataset}: a step would hold samples "
                          f"twice; use --accumulate {max(1, num_examples // batch_size)} or less")
    return passes


def steps_for_epochs(epochs, num_examples, batch_size):
    """Optimizer steps for `epochs` passes, refused when more than the int64 global step can count."""
    epochs = positive_number("--epochs", epochs)
    steps = math.ceil(epochs * num_examples / batch_size)
    if steps > INT64_MAX:
        raise ConfigError(f"--epochs {epochs:g} means {epochs:g} x {num_examples} examples / batch {batch_size} "
                          f"= {steps:.3g} steps, more than the int64 global step counts ({INT64_MAX}); "
                          "use fewer --epochs")
    return steps


def check_hparams(model, **given):
    """Hyper-parameter flags (e.g. hidden=(512, 512)) checked against what `model` takes; None = not given."""
    try:
        return models.check_hparams(model, given)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def step_bytes(batch_size, feature_shape, num_outputs, hidden=(), dtype="float32", ranks=1):
    """(bytes, how) a lower bound of one training step's memory on one rank, and its arithmetic in words.

    Counts what every dense stack holds: each layer's outputs for the rank's shard of the batch and their
    gradients (2 values per unit per sample), and each weight with its gradient (2 per parameter). Convolutions,
    optimizer slots and temporaries only add to it."""
    itemsize = np.dtype(dtype).itemsize
    shard = -(-batch_size // ranks)
    widths = [count(feature_shape), *hidden, num_outputs]
    units = sum(widths)
    params = sum((a + 1) * b for a, b in zip(widths, widths[1:]))
    nbytes = 2 * itemsize * (shard * units + params)
    how = (f"2 x {itemsize} B x ({shard} samples x {units} units + {params} parameters)")
    return nbytes, how


def check_memory(batch_size, feature_shape, num_outputs, hidden=(), dtype="float32", ranks=1, limit=None):
    """Refuse a step whose memory (a lower bound, see step_bytes) exceeds `limit` bytes (None: this machine's
    RAM), before anything is allocated. Returns the estimate in bytes."""
    nbytes, how = step_bytes(batch_size, feature_shape, num_outputs, hidden, dtype, ranks)
    limit = exceeds_memory(nbytes, limit)
    if limit:
        raise ConfigError(f"--batch-size {batch_size}" + (f" --hidden {','.join(map(str, hidden))}" if hidden else "")
                          + f" needs at least {human(nbytes)} per rank for one step ({how}), more than the "
                          f"{human(limit)} of memory here; use a smaller --batch-size"
                          + (" or --hidden" if hidden else ""))
    return nbytes


def check_environment():
    """The RINGFLOW_ variables a run reads, checked by name before any MPI work starts."""
    try:
        env_number("RINGFLOW_TIMEOUT", None, float, minimum=0, strict=True, unit="seconds")
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    name = os.environ.get("RINGFLOW_ALLREDUCE", "").strip()
    if name and name not in allreduce.BACKENDS:
        raise ConfigError(f"RINGFLOW_ALLREDUCE={name!r}: unknown communicator; known: "
                          f"{', '.join(sorted(allreduce.BACKENDS))}")


def argument_type(check, flag):
    """`check(flag, text)` as an argparse `type=`: its ConfigError becomes argparse's usage error (exit 2)."""
    import argparse

    def parse(text):
        try:
            return check(flag, text)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    parse.__name__ = flag
    return parse
