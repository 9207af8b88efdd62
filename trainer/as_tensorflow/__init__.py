"""Run an unmodified TF1 program on ringflow: its `import tensorflow` gets ringflow's modules.

    python -m trainer.as_tensorflow prog.py ARGS...            (also `mpiexec -n 2 python -m trainer.as_tensorflow`)
    import trainer.as_tensorflow; trainer.as_tensorflow.install()      (before the program imports tensorflow)

install() puts a finder first on sys.meta_path that resolves `tensorflow` to trainer and `tensorflow.X.Y` to
trainer.X.Y (tensorflow.compat.v1, tensorflow.contrib.*, tensorflow.python.client.timeline,
tensorflow.examples.tutorials.mnist.input_data, tensorflow.keras.datasets, ...), `horovod.tensorflow` to
trainer.horovod and `horovod.keras` to trainer.horovod.keras: the program's modules are ringflow's very module
objects (sys.modules aliases). It prints one line to stderr saying so (rank 0 only under MPI), naming a real
TensorFlow if one is installed: it is then not used. Importing this module changes nothing: only the wrapper
and install() turn the aliases on.

The standalone `keras` package (which Horovod's keras_mnist.py imports) is aliased to tg.keras only when asked:
`python -m trainer.as_tensorflow --keras PROGRAM.py`, install(keras=True) or RINGFLOW_KERAS=1; a second stderr
line says so, naming an installed Keras that is then not used. Unasked, `import keras` finds whatever is installed.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import sys
import types

from allreduce import launcher

from .. import keras
from ..contrib.missing import MISSING as CONTRIB_MISSING
from ..unsupported import MISSING

PREFIXES = {"tensorflow": "trainer", "horovod.tensorflow": "trainer.horovod", "horovod.keras": "trainer.horovod.keras",
            "tensorflow.python.keras": "trainer.keras"}  # TF 1.15's tf.keras is tensorflow.python.keras itself
KERAS_PREFIXES = {"keras": "trainer.keras"}  # only when asked: a real Keras must not be shadowed silently
KERAS_VARIABLE = "RINGFLOW_KERAS"  # "1": alias `keras` too, as --keras does
NOTICE = "ringflow: running this program with ringflow as tensorflow"
KERAS_NOTICE = "ringflow: running this program with ringflow's tf.keras as keras"
_TF_DISTRIBUTIONS = ("tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel", "tf-nightly")


def target_of(fullname, keras=False):
    """The ringflow module that stands for `fullname` (tensorflow.contrib.rnn -> trainer.contrib.rnn), or None;
    keras=True: the standalone `keras` package's names too (keras.layers -> trainer.keras.layers)."""
    matches = [(prefix, target) for prefix, target in dict(PREFIXES, **(KERAS_PREFIXES if keras else {})).items()
               if fullname == prefix or fullname.startswith(prefix + ".")]
    if not matches:
        return None
    prefix, target = max(matches, key=lambda match: len(match[0]))  # the most specific prefix wins
    return target + fullname[len(prefix):]


class _AliasLoader(importlib.abc.Loader):
    """Hands out the already-imported ringflow module; the import system then files it under the alias."""

    def __init__(self, target):
        self.target, self._own_spec = target, None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self._own_spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self._own_spec  # the import system set the alias's spec on it: keep the module's own


class _Missing(importlib.abc.Loader):
    """A module ringflow names as missing: importing it raises ImportError with the reason."""

    def __init__(self, message):
        self.message = message

    def create_module(self, spec):
        raise ImportError(self.message, name=spec.name)

    def exec_module(self, module):  # never reached: create_module raised
        raise ImportError(self.message)


class _HorovodRoot(importlib.abc.Loader):
    """An empty `horovod` package when no real Horovod is installed, so `import horovod.tensorflow` works."""

    def create_module(self, spec):
        module = types.ModuleType(spec.name, "Stand-in for Horovod's root package: horovod.tensorflow is "
                                             "ringflow's trainer.horovod (trainer.as_tensorflow)")
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


class TensorflowFinder(importlib.abc.MetaPathFinder):
    """Resolves tensorflow.*, horovod.tensorflow.* and horovod.keras.* (with `keras`: keras.* too) to ringflow's
    modules (first on sys.meta_path)."""

    keras = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "horovod" and importlib.machinery.PathFinder.find_spec("horovod") is None:
            return importlib.util.spec_from_loader(fullname, _HorovodRoot(), is_package=True)
        missing = _missing(fullname, self.keras)
        if missing:
            return importlib.util.spec_from_loader(fullname, _Missing(missing))
        real = target_of(fullname, self.keras)
        if real is None:
            return None
        if importlib.util.find_spec(real) is None:
            raise ModuleNotFoundError(f"No module named {fullname!r}: ringflow, running this program as "
                                      f"tensorflow, has no counterpart ({real!r}) of it", name=fullname)
        return importlib.util.spec_from_loader(fullname, _AliasLoader(real))


def _missing(fullname, keras_alias=False):
    """Why a tf.contrib library or a tf.keras module (by its tensorflow.*, trainer.* or, aliased, keras.* name) is
    missing, or None.

    `from tensorflow.contrib import crf` imports trainer.contrib.crf: answering for the trainer.* names
    too gives that statement the reason instead of a bare "cannot import name"."""
    for package in ("contrib", "keras"):
        for prefix in (f"tensorflow.{package}.", f"trainer.{package}."):
            if fullname.startswith(prefix):
                name = fullname[len(prefix):].split(".")[0]
                if package == "contrib" and name in CONTRIB_MISSING:
                    return f"tf.contrib.{name} is not available in ringflow ({CONTRIB_MISSING[name]})"
                if package == "keras":
                    return _keras_missing(fullname[len(prefix):].split("."))
    if keras_alias and fullname.startswith("keras."):
        return _keras_missing(fullname[len("keras."):].split("."))
    return None


def _keras_missing(parts):
    """Why tf.keras.<parts> is missing (what the tf.keras module lacking it says), or None where ringflow has it as
    an attribute or a submodule (found without this finder)."""
    owner = keras
    for i, part in enumerate(parts):
        try:
            owner = getattr(owner, part)
        except AttributeError as error:
            found = hasattr(owner, "__path__") and importlib.machinery.PathFinder.find_spec(
                f"{owner.__name__}.{part}", owner.__path__) is not None
            return None if found else str(error) if "ringflow" in str(error) else \
                f"tf.keras.{'.'.join(parts[:i + 1])} is not available in ringflow ({MISSING['keras']})"
    return None


_FINDER = TensorflowFinder()


def installed_keras():
    """The version of a standalone Keras installed beside ringflow ('' if unknown), or None."""
    if importlib.machinery.PathFinder.find_spec("keras") is None:
        return None
    try:
        return importlib.metadata.version("keras")
    except importlib.metadata.PackageNotFoundError:
        return ""


def installed_tensorflow():
    """The version of a real TensorFlow installed beside ringflow ('' if its version is unknown), or None."""
    if importlib.machinery.PathFinder.find_spec("tensorflow") is None:
        return None
    for name in _TF_DISTRIBUTIONS:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return ""


def is_installed():
    """Whether install() has put the aliases in place."""
    return _FINDER in sys.meta_path


def install(notice=True, keras=None):
    """From now on `import tensorflow` (and the other aliases) give ringflow's modules; prints the notice once.
    keras=True (None: RINGFLOW_KERAS=1) aliases the standalone `keras` package to tg.keras as well."""
    keras = os.environ.get(KERAS_VARIABLE, "0") not in ("", "0") if keras is None else bool(keras)
    if not is_installed():
        loaded = sys.modules.get("tensorflow")
        if loaded is not None and loaded.__name__ != "trainer":
            raise RuntimeError(f"A real TensorFlow was imported before trainer.as_tensorflow.install() "
                               f"({getattr(loaded, '__file__', loaded)!r}): call install() before the program's "
                               "first `import tensorflow`, or run it with `python -m trainer.as_tensorflow PROGRAM.py`")
        real = installed_tensorflow()
        sys.meta_path.insert(0, _FINDER)
        if notice and _rank() in (None, 0):
            shadowed = "" if real is None else f" (the installed TensorFlow{' ' + real if real else ''} is not used)"
            print(NOTICE + shadowed, file=sys.stderr, flush=True)
    if keras and not _FINDER.keras:
        _alias_keras(notice)


def _alias_keras(notice):
    loaded = sys.modules.get("keras")
    if loaded is not None and loaded.__name__ != "trainer.keras":
        raise RuntimeError(f"A real Keras was imported before trainer.as_tensorflow.install(keras=True) "
                           f"({getattr(loaded, '__file__', loaded)!r}): install before the program's first "
                           "`import keras`, or run it with `python -m trainer.as_tensorflow --keras PROGRAM.py`")
    _FINDER.keras = True
    real = installed_keras()
    if notice and _rank() in (None, 0):
        shadowed = "" if real is None else f" (the installed Keras{' ' + real if real else ''} is not used)"
        print(KERAS_NOTICE + shadowed, file=sys.stderr, flush=True)


def uninstall():
    """Remove the finder and forget the aliased modules (ringflow's own modules stay imported)."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    _FINDER.keras = False
    for name, module in list(sys.modules.items()):
        loader = getattr(getattr(module, "__spec__", None), "loader", None)
        if (target_of(name, keras=True) is not None and module.__name__ != name) or isinstance(loader, _HorovodRoot):
            del sys.modules[name]


def _rank():
    return launcher.rank()
