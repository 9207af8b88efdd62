"""What every rank runs: `train ARGS` is ringflow train, `--as-tensorflow` puts trainer.as_tensorflow in front of a
Python program, and rank_start.py goes first to report the rank's pid and host before it becomes the program."""
import os
import re
import sys

from . import rank_start
from .options import UsageError

PYTHON_OPTIONS_WITH_VALUE = ("-W", "-X", "-Q")  # the interpreter options that take the next word as their value


def rank_command(words, as_tensorflow=False, python=sys.executable):
    """argv each rank runs for the PROGRAM words, rank_start.py first (it execs the rest: same pid)."""
    if words[0] == "train":
        program = [python, "-m", "trainer", *words]
    elif as_tensorflow:
        program = as_tensorflow_command(words, python)
    else:
        program = list(words)
    return [python, "-I", os.path.abspath(rank_start.__file__), *program]


def is_python(word):
    return re.fullmatch(r"python[0-9.]*", os.path.basename(word)) is not None


def as_tensorflow_command(words, python):
    """`python [opts] train.py ARGS` or `train.py ARGS` as `python [opts] -m trainer.as_tensorflow train.py ARGS`."""
    if words[0].endswith(".py"):
        return [python, "-m", "trainer.as_tensorflow", *words]
    if not is_python(words[0]):
        raise UsageError(f"--as-tensorflow runs a Python program (python train.py ... or train.py ...), not "
                         f"{words[0]!r}")
    i = 1
    while i < len(words) and words[i].startswith("-") and words[i] != "-m":
        if words[i] == "-c":
            raise UsageError("--as-tensorflow runs a script or `-m MODULE`, not `python -c`: put the code in a file")
        i += 2 if words[i] in PYTHON_OPTIONS_WITH_VALUE else 1
    return [*words[:i], "-m", "trainer.as_tensorflow", *words[i:]]


def checkpoint_dir(words):
    """The --checkpoint-dir of a `train` PROGRAM (None for other programs, or without one)."""
    if words[:1] != ["train"]:
        return None
    found = None
    for i, word in enumerate(words):
        if word == "--checkpoint-dir" and i + 1 < len(words):
            found = words[i + 1]
        elif word.startswith("--checkpoint-dir="):
            found = word.partition("=")[2]
    return found
