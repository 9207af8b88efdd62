"""tf.estimator.Estimator: a model_fn trained, evaluated and used for prediction, each call in a fresh graph.

Every call builds a new tg.Graph, calls input_fn then model_fn in it, and runs a monitored session that restores
the latest checkpoint of model_dir (train() also writes checkpoints and summaries there). Training hooks are
assembled in training_hooks.py, one evaluation pass is evaluation.py, predictions are split in prediction.py.
"""
import copy
import os
import shutil
import tempfile

import numpy as np

from ..platform import tf_logging as logging
from ..framework.graph import Graph, get_default_graph
from ..framework.random_seed import set_random_seed
from ..client.session import Session
from ..saved_model import tag_constants
from ..saved_model.builder import SavedModelBuilder
from ..train.checkpoint_management import NewCheckpointReader, latest_checkpoint, list_variables, load_variable
from ..train.monitored_session import ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession
from ..train.saver import Saver
from ..train.scaffold import Scaffold
from ..train.session_run_hook import SessionRunHook
from ..train.summary_and_checkpoint_hooks import CheckpointSaverListener
from ..train.training_util import get_or_create_global_step
from . import evaluation, prediction
from .export import export_lib
from .input_fn import call_input_fn, fn_args, parse_input_fn_result
from .mode_keys import ModeKeys
from .model_fn import EstimatorSpec
from .run_config import RunConfig
from .training_hooks import train_hooks

_VALID_MODEL_FN_ARGS = {"features", "labels", "mode", "params", "self", "config"}


def _verify_model_fn_args(model_fn, params):
    args = set(fn_args(model_fn))
    if "features" not in args:
        raise ValueError(f"model_fn ({model_fn!r}) must include features argument.")
    if params is not None and "params" not in args:
        raise ValueError(f"model_fn ({model_fn!r}) does not include params argument, but params ({params!r}) is "
                         "passed to Estimator.")
    if params is None and "params" in args:
        logging.warning("Estimator's model_fn (%r) includes params argument, but params are not passed to Estimator.",
                        model_fn)
    unexpected = sorted(args - _VALID_MODEL_FN_ARGS)
    if unexpected:
        raise ValueError(f"model_fn ({model_fn!r}) has following not expected args: {unexpected}")


def _config_with_model_dir(config, model_dir):
    """TF1's rule: model_dir from the constructor or the config (they must agree), else a new temporary folder."""
    config = RunConfig() if config is None else config
    if not isinstance(config, RunConfig):
        raise ValueError(f"config must be an instance of `RunConfig`, but provided {config!r}.")
    if model_dir is not None and config.model_dir is not None and config.model_dir != str(model_dir):
        raise ValueError(f"`model_dir` are set both in constructor and `RunConfig`, but with different values. In "
                         f"constructor: {str(model_dir)!r}, in `RunConfig`: {config.model_dir!r}")
    if model_dir:
        config = config.replace(model_dir=str(model_dir))
    elif config.model_dir is None:
        model_dir = tempfile.mkdtemp()
        logging.warning("Using temporary folder as model directory: %s", model_dir)
        config = config.replace(model_dir=model_dir)
    return config


def _checked(items, kind, what):
    items = list(items or [])
    for item in items:
        if not isinstance(item, kind):
            raise TypeError(f"{what} must be a {kind.__name__}, given: {item!r}")
    return items


def _global_step_in(model_dir):
    """The global step of model_dir's latest checkpoint, 0 when there is none."""
    path = latest_checkpoint(model_dir)
    if not path:
        return 0
    try:
        return int(NewCheckpointReader(path).get_tensor("global_step"))
    except Exception:  # noqa: BLE001 - TF1 counts an unreadable step as 0 too
        return 0


def _scalars(values):
    return {k: v[()] if isinstance(v, np.ndarray) and v.ndim == 0 else v for k, v in values.items()}


class Estimator:
    """Trains, evaluates and predicts with `model_fn(features, labels, mode, params, config)` -> EstimatorSpec.

    model_fn is called with the arguments among labels, mode, params and config that it declares.
    """

    def __init__(self, model_fn, model_dir=None, config=None, params=None, warm_start_from=None):
        if warm_start_from is not None:
            raise NotImplementedError(
                f"Estimator(warm_start_from={warm_start_from!r}) is not implemented in ringflow: restore the "
                "variables in model_fn's Scaffold(init_fn=...) with a tg.train.Saver, or copy the checkpoint into "
                "model_dir to resume from it")
        if model_fn is None:
            raise ValueError("model_fn must be provided to Estimator.")
        _verify_model_fn_args(model_fn, params)
        self._config = _config_with_model_dir(config, model_dir)
        self._model_dir = self._config.model_dir
        self._model_fn = model_fn
        self._params = copy.deepcopy(params or {})

    model_dir = property(lambda self: self._model_dir)
    config = property(lambda self: copy.deepcopy(self._config))
    params = property(lambda self: copy.deepcopy(self._params))
    model_fn = property(lambda self: self._call_model_fn)

    def eval_dir(self, name=None):
        """Where evaluate(name=name) writes its summaries: model_dir/eval or model_dir/eval_<name>."""
        return os.path.join(self._model_dir, "eval" if not name else "eval_" + name)

    def latest_checkpoint(self):
        """The path of model_dir's latest checkpoint, or None."""
        return latest_checkpoint(self._model_dir)

    def _checkpoint_available(self):
        if not latest_checkpoint(self._model_dir):
            raise ValueError(f"Could not find trained model in model_dir: {self._model_dir}.")

    def get_variable_names(self):
        """The names of the variables in the latest checkpoint."""
        self._checkpoint_available()
        return [name for name, _ in list_variables(self._model_dir)]

    def get_variable_value(self, name):
        """The value of variable `name` in the latest checkpoint."""
        self._checkpoint_available()
        return load_variable(self._model_dir, name)

    # --- building ---------------------------------------------------------------------------------------------
    def _new_graph(self):
        graph = Graph()
        return graph, graph.device(self._config.device_fn)

    def _start_graph(self):
        set_random_seed(self._config.tf_random_seed)
        step = get_or_create_global_step()
        if step.dtype.kind != "i":
            raise TypeError(f"Existing global_step must be an integer Variable, got {step!r} of dtype {step.dtype}")
        return step

    def _call_model_fn(self, features, labels, mode, config):
        args = fn_args(self._model_fn)
        kwargs = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        for name, value in (("mode", mode), ("params", self.params), ("config", config)):
            if name in args:
                kwargs[name] = value
        logging.info("Calling model_fn.")
        spec = self._model_fn(features=features, **kwargs)
        logging.info("Done calling model_fn.")
        if not isinstance(spec, EstimatorSpec):
            raise ValueError(f"model_fn should return an EstimatorSpec, got {spec!r}")
        return spec

    def _input(self, input_fn, mode):
        return parse_input_fn_result(call_input_fn(input_fn, mode, self.params, self.config))

    # --- train ------------------------------------------------------------------------------------------------
    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        """Train until the input ends, `steps` more steps, or global step `max_steps`; returns self."""
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        if max_steps is not None and max_steps <= _global_step_in(self._model_dir):
            logging.info("Skipping training since max_steps has already saved.")
            return self
        hooks = _checked(hooks, SessionRunHook, "Hooks")
        listeners = _checked(saving_listeners, CheckpointSaverListener, "saving_listeners")
        graph, device = self._new_graph()
        with graph.as_default(), device:
            global_step = self._start_graph()
            features, labels, input_hooks = self._input(input_fn, ModeKeys.TRAIN)
            spec = self._call_model_fn(features, labels, ModeKeys.TRAIN, self.config)
            worker_hooks, chief_hooks = train_hooks(spec, self._config, input_hooks, hooks, listeners, steps,
                                                    max_steps, global_step)
            loss = None
            with MonitoredTrainingSession(
                    is_chief=True, checkpoint_dir=self._model_dir, scaffold=spec.scaffold, hooks=worker_hooks,
                    chief_only_hooks=chief_hooks, save_checkpoint_secs=0,  # the chief hook saves
                    save_summaries_steps=self._config.save_summary_steps, config=self._config.session_config,
                    max_wait_secs=self._config.session_creation_timeout_secs,
                    log_step_count_steps=self._config.log_step_count_steps) as session:
                while not session.should_stop():
                    _, loss = session.run([spec.train_op, spec.loss])
        if loss is None:
            logging.warning("Training with estimator made no steps. Perhaps input is empty or misspecified.")
        logging.info("Loss for final step: %s.", loss)
        return self

    # --- evaluate ---------------------------------------------------------------------------------------------
    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        """Metrics of the latest (or given) checkpoint over the input: a dict with 'loss' and 'global_step'."""
        hooks = _checked(hooks, SessionRunHook, "Hooks")
        if steps is not None:
            if steps <= 0:
                raise ValueError(f"Must specify steps > 0, given: {steps}")
            hooks.append(evaluation.StopAfterNEvalsHook(num_evals=steps))
        if not checkpoint_path:
            checkpoint_path = latest_checkpoint(self._model_dir)
            if not checkpoint_path:
                logging.info("Could not find trained model in model_dir: %s, running initialization to evaluate.",
                             self._model_dir)
        graph, device = self._new_graph()
        with graph.as_default(), device:
            global_step = self._start_graph()
            features, labels, input_hooks = self._input(input_fn, ModeKeys.EVAL)
            spec = self._call_model_fn(features, labels, ModeKeys.EVAL, self.config)
            update_op, final_ops = evaluation.metric_ops(spec, global_step)
            all_hooks = list(input_hooks) + hooks + list(spec.evaluation_hooks)
            results = _scalars(evaluation.evaluate_once(checkpoint_path, evaluation.eval_scaffold(spec.scaffold),
                                                        update_op, final_ops, all_hooks,
                                                        config=self._config.session_config))
        step = int(results["global_step"])
        evaluation.write_dict_to_summary(self.eval_dir(name), results, step)
        if checkpoint_path:
            evaluation.write_checkpoint_path_to_summary(self.eval_dir(name), checkpoint_path, step)
        return results

    # --- predict ----------------------------------------------------------------------------------------------
    def predict(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None, yield_single_examples=True):
        """Yield the predictions of the latest (or given) checkpoint: one dict (or value) per example."""
        hooks = _checked(hooks, SessionRunHook, "Hooks")
        if not checkpoint_path:
            checkpoint_path = latest_checkpoint(self._model_dir)
        if not checkpoint_path:
            logging.info("Could not find trained model in model_dir: %s, running initialization to predict.",
                         self._model_dir)
        graph, device = self._new_graph()
        with graph.as_default(), device:
            self._start_graph()
            result = call_input_fn(input_fn, ModeKeys.PREDICT, self.params, self.config)
            features, _, input_hooks = parse_input_fn_result(result)
            if not prediction.reads_an_input(result, get_default_graph()):
                logging.warning("Input graph does not use tf.data.Dataset or contain a QueueRunner. That means "
                                "predict yields forever. This is probably a mistake.")
            spec = self._call_model_fn(features, None, ModeKeys.PREDICT, self.config)
            predictions = prediction.extract_keys(spec.predictions, predict_keys)
            creator = ChiefSessionCreator(checkpoint_filename_with_path=checkpoint_path, scaffold=spec.scaffold,
                                          config=self._config.session_config)
            all_hooks = list(input_hooks) + hooks + list(spec.prediction_hooks)
            with MonitoredSession(session_creator=creator, hooks=all_hooks) as session:
                while not session.should_stop():
                    yield from prediction.split(session.run(predictions), yield_single_examples)

    # --- SavedModel -------------------------------------------------------------------------------------------
    def export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra=None, as_text=False,
                           checkpoint_path=None, experimental_mode=ModeKeys.PREDICT):
        """Export the PREDICT graph with the latest (or given) checkpoint's variables as a SavedModel in
        export_dir_base/<timestamp>; returns that directory (bytes, as TF1 does). The serving graph reads the
        features serving_input_receiver_fn() receives; its signatures are model_fn's export_outputs."""
        if experimental_mode != ModeKeys.PREDICT:
            raise NotImplementedError(f"export_saved_model(experimental_mode={experimental_mode!r}): ringflow "
                                      "exports the PREDICT graph only, the one a server runs")
        return self.experimental_export_all_saved_models(export_dir_base, {ModeKeys.PREDICT: serving_input_receiver_fn},
                                                         assets_extra, as_text, checkpoint_path)

    def export_savedmodel(self, export_dir_base, serving_input_receiver_fn, assets_extra=None, as_text=False,
                          checkpoint_path=None, strip_default_attrs=False):
        """TF1's older name of export_saved_model."""
        return self.export_saved_model(export_dir_base, serving_input_receiver_fn, assets_extra, as_text,
                                       checkpoint_path)

    def experimental_export_all_saved_models(self, export_dir_base, input_receiver_fn_map, assets_extra=None,
                                             as_text=False, checkpoint_path=None):
        """export_saved_model for {mode: receiver fn}; ringflow exports the PREDICT mode only."""
        if not any(input_receiver_fn_map.values()):
            raise ValueError("An input_receiver_fn must be defined.")
        if set(input_receiver_fn_map) != {ModeKeys.PREDICT}:
            raise NotImplementedError(f"export for the modes {sorted(input_receiver_fn_map)}: ringflow exports the "
                                      "PREDICT graph only: give {ModeKeys.PREDICT: serving_input_receiver_fn}")
        checkpoint_path = checkpoint_path or latest_checkpoint(self._model_dir)
        if not checkpoint_path:
            raise ValueError(f"Couldn't find trained model at {self._model_dir}.")
        export_dir = export_lib.get_timestamped_export_dir(export_dir_base)
        temp_dir = os.path.join(export_dir_base, "temp-" + os.path.basename(export_dir))
        builder = SavedModelBuilder(temp_dir)
        graph, device = self._new_graph()
        with graph.as_default(), device:
            self._start_graph()
            receiver = input_receiver_fn_map[ModeKeys.PREDICT]()
            spec = self._call_model_fn(receiver.features, None, ModeKeys.PREDICT, self.config)
            outputs = export_lib.export_outputs_for_mode(spec.export_outputs, spec.predictions)
            signatures = export_lib.build_all_signature_defs(receiver.receiver_tensors, outputs,
                                                             receiver.receiver_tensors_alternatives)
            local_init_op = spec.scaffold.local_init_op or Scaffold.default_local_init_op()
            saver = spec.scaffold.saver or Saver(allow_empty=True)
            with Session(config=self._config.session_config) as session:
                saver.restore(session, checkpoint_path)
                builder.add_meta_graph_and_variables(session, [tag_constants.SERVING], signature_def_map=signatures,
                                                     main_op=local_init_op, saver=saver)
        builder.save(as_text)
        for relative, source in (assets_extra or {}).items():
            destination = os.path.join(temp_dir, "assets.extra", relative)
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            shutil.copyfile(source, destination)
        os.rename(temp_dir, export_dir)
        logging.info(f"SavedModel written to: {export_dir}")
        return export_dir.encode("utf-8")
