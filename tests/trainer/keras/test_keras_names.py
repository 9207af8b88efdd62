"""Every tf.keras name TF 1.15 has (fixtures/tf115_keras_names.json) resolves in trainer.keras, but for the ones
README's tf.keras section lists as missing, which raise an AttributeError (NotInRingflow where the module says
what it has)."""
import importlib
import json
import pathlib

import trainer

NAMES = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf115_keras_names.json").read_text())["names"]
MISSING = set()  # README, "tf.keras": the names ringflow lacks


def resolve(name):
    """The object trainer.<name> stands for, importing submodules on the way as `import tensorflow.<...>` would."""
    parts, found = name.split("."), trainer
    for i, part in enumerate(parts):
        try:
            found = getattr(found, part)
        except AttributeError:
            if i == len(parts) - 1:
                raise
            try:
                found = importlib.import_module("trainer." + ".".join(parts[:i + 1]))
            except ImportError:  # a module ringflow lacks: its names are missing
                raise AttributeError(name) from None
    return found


def test_ringflow_has_every_tf_1_15_keras_name_but_the_ones_readme_lists():
    lacking = set()
    for name in NAMES:
        try:
            resolve(name)
        except AttributeError:
            lacking.add(name)
    assert lacking == MISSING
    assert (len(NAMES), len(NAMES) - len(MISSING)) == (615, 615)  # README's counts, and per module:
    counts = {}
    for module in ("layers", "backend", "metrics", "losses", "utils", "optimizers", "experimental", "preprocessing",
                   "applications", "mixed_precision"):
        names = [n for n in NAMES if n.startswith(f"keras.{module}.")
                 and (module != "optimizers" or not n.startswith("keras.optimizers.schedules."))]
        counts[module] = (len([n for n in names if n not in MISSING]), len(names))
    assert counts == {"layers": (115, 115), "backend": (145, 145), "metrics": (67, 67), "losses": (45, 45),
                      "utils": (19, 19), "optimizers": (12, 12), "experimental": (11, 11), "preprocessing": (26, 26),
                      "applications": (63, 63), "mixed_precision": (4, 4)}
