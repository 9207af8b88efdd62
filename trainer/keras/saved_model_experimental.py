"""tf.keras.experimental.export_saved_model and load_from_saved_model, as TF 1.15 writes and reads them: a TF
SavedModel (tf.saved_model's builder) whose "serve" graph predicts, under the signature "serving_default" (the
model's inputs and outputs by name), its variables an object-based checkpoint (save_weights' keys), and the model's
JSON in assets/saved_model.json, from which load_from_saved_model builds the model again and loads the weights."""
import os

from ..saved_model import constants, signature_constants, tag_constants
from ..saved_model.builder import SavedModelBuilder
from ..saved_model.signature_def_utils import predict_signature_def
from ..train.saver import Saver
from . import backend as K
from .models import model_from_json

MODEL_JSON = "saved_model.json"  # TF 1.15's constants.SAVED_MODEL_FILENAME_JSON, under assets/


def export_saved_model(model, saved_model_path, custom_objects=None, as_text=False, input_signature=None,
                       serving_only=False):
    """Write `model` as a SavedModel in saved_model_path (new or empty): its predicting graph tagged "serve", its
    weights, its JSON config. TF 1.15 also adds graphs tagged "train" and "eval" for a compiled model: ringflow
    writes the serving one only, which is the one TF Serving and load_from_saved_model read."""
    if input_signature is not None:
        raise ValueError("export_saved_model(input_signature=...) is for subclassed models, which ringflow cannot "
                         "export (they have no config): build the model from Inputs, or use save_weights")
    if not model.outputs:
        raise ValueError(f"Model {model.name!r} is not built yet: call it on data (or fit it) before exporting")
    signature = predict_signature_def(inputs=dict(zip(model.input_names, model.inputs)),
                                      outputs=dict(zip(model.output_names, model.outputs)))
    builder = SavedModelBuilder(saved_model_path)
    builder.add_meta_graph_and_variables(
        K.get_session(), [tag_constants.SERVING], saver=Saver(var_list=model.checkpoint_keys()),
        signature_def_map={signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: signature})
    builder.save(as_text)
    assets = os.path.join(saved_model_path, constants.ASSETS_DIRECTORY)
    os.makedirs(assets, exist_ok=True)
    with open(os.path.join(assets, MODEL_JSON), "w") as f:
        f.write(model.to_json())


def load_from_saved_model(saved_model_path, custom_objects=None):
    """The Keras model export_saved_model wrote (TF 1.15's too): built from assets/saved_model.json, its weights
    read from variables/variables. Not compiled, as in TF."""
    path = os.path.join(saved_model_path, constants.ASSETS_DIRECTORY, MODEL_JSON)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} does not exist: {saved_model_path!r} is not a SavedModel that "
                                "keras.experimental.export_saved_model wrote (it keeps the model's JSON there); "
                                "read other SavedModels with tf.saved_model.loader.load")
    with open(path) as f:
        model = model_from_json(f.read(), custom_objects=custom_objects)
    model.load_weights(os.path.join(saved_model_path, constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME))
    return model
