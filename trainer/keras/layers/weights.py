"""The weights most layers make alike: a weight whose initializer, regularizer and constraint are the layer's own
`<kind>_initializer`, `<kind>_regularizer` and `<kind>_constraint` (Keras' naming: `kernel`, `bias`,
`depthwise`, ...), the optional bias, and those attributes in the layer's config."""
from .. import constraints, initializers, regularizers
from ..utils.generic_utils import serialized

_MODULES = (("initializer", initializers), ("regularizer", regularizers), ("constraint", constraints))


def keep_weight_settings(layer, kind, initializer, regularizer=None, constraint=None):
    """Set layer.<kind>_initializer, _regularizer and _constraint from what the user gave (names, configs, objects)."""
    for (what, module), given in zip(_MODULES, (initializer, regularizer, constraint)):
        setattr(layer, f"{kind}_{what}", module.get(given))


def layer_weight(layer, name, shape, kind=None):
    """layer.add_weight(name, shape) with the layer's `<kind>_*` settings (kind defaults to name)."""
    kind = kind or name
    return layer.add_weight(name, shape, initializer=getattr(layer, f"{kind}_initializer"),
                            regularizer=getattr(layer, f"{kind}_regularizer"),
                            constraint=getattr(layer, f"{kind}_constraint"))


def bias_weight(layer, units):
    """The layer's (units,) bias when it uses one, else None."""
    return layer_weight(layer, "bias", (units,)) if layer.use_bias else None


def weights_config(layer, *kinds):
    """{`<kind>_initializer`: ..., `<kind>_regularizer`: ..., `<kind>_constraint`: ...} for each kind, serialized."""
    return {f"{kind}_{what}": serialized(module, getattr(layer, f"{kind}_{what}"))
            for kind in kinds for what, module in _MODULES}
