"""Run a Keras layer on numpy inputs: its output and the gradients of sum(output * seed) for its inputs and
weights, for comparison with closed forms or PyTorch."""
import numpy as np

import trainer as tg
from trainer.keras import backend as K


def run_layer(layer, *inputs, seed=0, training=None, r=None, weights=None, **call_kwargs):
    """(output, [d/d input...], [d/d weight...]) of sum(layer(inputs, **call_kwargs) * r), r a fixed random array
    (or the one given), the layer's weights set to `weights` when given."""
    placeholders = [K.placeholder(shape=x.shape, dtype=x.dtype) for x in inputs]
    kwargs = dict(call_kwargs) if training is None else dict(call_kwargs, training=training)
    out = layer(placeholders[0] if len(placeholders) == 1 else placeholders, **kwargs)
    if weights is not None:
        layer.set_weights(weights)
    if r is None:
        r = np.random.RandomState(seed).uniform(-1, 1, K.int_shape(out)).astype(np.float32)
    loss = K.sum(out * r)
    wrt = [p for p, x in zip(placeholders, inputs) if x.dtype.kind == "f"] + layer.trainable_weights
    grads = tg.gradients(loss, wrt)
    values = K.get_session().run([out] + grads, dict(zip(placeholders, inputs)))
    n = len(wrt) - len(layer.trainable_weights)
    return values[0], values[1:1 + n], values[1 + n:], r


def recorded_case(fixture, name):
    """{'x': [...], 'w': [...], 'mask': [...], 'grad': [...], 'r', 'out'} of case `name` in a recorded npz, whose
    keys read '<name>/x0', '<name>/w1', ..."""
    case = {"x": [], "w": [], "mask": [], "grad": []}
    for key in sorted((k for k in fixture.files if k.startswith(name + "/")), key=lambda k: (len(k), k)):
        field = key[len(name) + 1:]
        kind = field.rstrip("0123456789")
        if kind in case and isinstance(case[kind], list):
            case[kind].append(fixture[key])
        else:
            case[field] = fixture[key]
    return case
