"""tf.keras.models.model_from_yaml: Keras' YAML architectures through PyYAML, or Keras' ImportError without it."""
import importlib.util
import json

import pytest

from trainer import keras


def test_model_from_yaml_reads_an_architecture_or_asks_for_pyyaml():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    if importlib.util.find_spec("yaml") is None:
        with pytest.raises(ImportError, match="pip install pyyaml"):
            keras.models.model_from_yaml("class_name: Sequential")
        return
    import yaml  # noqa: PLC0415  (only where installed)
    clone = keras.models.model_from_yaml(yaml.dump(json.loads(model.to_json())))
    assert [type(layer) for layer in clone.layers] == [keras.layers.Dense]
