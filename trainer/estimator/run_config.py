"""tf.estimator.RunConfig: where an Estimator writes, how often it checkpoints, logs and writes summaries.

TF1's defaults: a checkpoint every 600 seconds (unless save_checkpoints_steps is given), the newest 5 kept,
summaries and "loss = ..., step = ..." logs every 100 steps. Local runs only: a TF_CONFIG naming a cluster
(TF1's ps/worker estimator training) is refused; ringflow's ranks train together through Horovod's pattern.
"""
import copy
import json
import os

from ..client.config import ConfigProto
from ..train.server_lib import ClusterSpec

_USE_DEFAULT = object()
_SAVE_CKPT_ERR = "`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set."
REPLACEABLE = ("model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps", "save_checkpoints_secs",
               "session_config", "keep_checkpoint_max", "keep_checkpoint_every_n_hours", "log_step_count_steps",
               "train_distribute", "device_fn", "protocol", "eval_distribute", "experimental_distribute",
               "experimental_max_worker_delay_secs", "session_creation_timeout_secs")


def _non_negative(name):
    return name, lambda v: v >= 0, f"{name} should be >= 0"


_CHECKS = (  # (property, condition on a non-None value, message): TF1's _validate_properties
    ("model_dir", bool, "model_dir should be non-empty"),
    _non_negative("save_summary_steps"), _non_negative("save_checkpoints_steps"),
    _non_negative("save_checkpoints_secs"), _non_negative("keep_checkpoint_max"),
    ("session_config", lambda v: isinstance(v, ConfigProto), "session_config must be instance of ConfigProto"),
    ("keep_checkpoint_every_n_hours", lambda v: v > 0, "keep_checkpoint_every_n_hours should be > 0"),
    ("log_step_count_steps", lambda v: v > 0, "log_step_count_steps should be > 0"),
    ("tf_random_seed", lambda v: isinstance(v, int) and not isinstance(v, bool), "tf_random_seed must be integer."),
    ("session_creation_timeout_secs", lambda v: v > 0, "session_creation_timeout_secs should be > 0"),
    ("device_fn", callable, 'device_fn must be callable with exactly one argument "op".'),
    ("protocol", lambda v: v in ("grpc", "grpc+verbs"), "protocol should be grpc or grpc+verbs"),
)
_DISTRIBUTE = ("train_distribute", "eval_distribute", "experimental_distribute")


def _model_dir_from_tf_config(model_dir):
    tf_config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    if tf_config.get("cluster"):
        raise NotImplementedError(
            f"TF_CONFIG names a cluster ({tf_config['cluster']!r}): TF1's multi-worker Estimator training is not "
            "implemented in ringflow; launch the ranks with mpiexec and use Horovod's Estimator pattern "
            "(hvd.DistributedOptimizer in model_fn, hvd.BroadcastGlobalVariablesHook(0) as a train hook)")
    from_env = tf_config.get("model_dir")
    if model_dir and from_env and model_dir != from_env:
        raise ValueError(f"model_dir is set both in the constructor ({model_dir!r}) and in TF_CONFIG ({from_env!r}) "
                         "with different values")
    return model_dir or from_env


class RunConfig:
    """The run's settings, read through properties; `replace(**changes)` returns a changed copy."""

    def __init__(self, model_dir=None, tf_random_seed=None, save_summary_steps=100,
                 save_checkpoints_steps=_USE_DEFAULT, save_checkpoints_secs=_USE_DEFAULT, session_config=None,
                 keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000, log_step_count_steps=100,
                 train_distribute=None, device_fn=None, protocol=None, eval_distribute=None,
                 experimental_distribute=None, experimental_max_worker_delay_secs=None,
                 session_creation_timeout_secs=7200):
        if save_checkpoints_steps is _USE_DEFAULT and save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_steps, save_checkpoints_secs = None, 600
        elif save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_secs = None
        elif save_checkpoints_steps is _USE_DEFAULT:
            save_checkpoints_steps = None
        elif save_checkpoints_steps is not None and save_checkpoints_secs is not None:
            raise ValueError(_SAVE_CKPT_ERR)
        model_dir = _model_dir_from_tf_config(os.fspath(model_dir) if model_dir is not None else None)
        self._set(dict(
            model_dir=model_dir, tf_random_seed=tf_random_seed, save_summary_steps=save_summary_steps,
            save_checkpoints_steps=save_checkpoints_steps, save_checkpoints_secs=save_checkpoints_secs,
            session_config=session_config, keep_checkpoint_max=keep_checkpoint_max,
            keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours, log_step_count_steps=log_step_count_steps,
            train_distribute=train_distribute, device_fn=device_fn, protocol=protocol,
            eval_distribute=eval_distribute, experimental_distribute=experimental_distribute,
            experimental_max_worker_delay_secs=experimental_max_worker_delay_secs,
            session_creation_timeout_secs=session_creation_timeout_secs))

    def _set(self, changes):
        for key, value in changes.items():
            if key not in REPLACEABLE:
                raise ValueError(f"Replacing {key} is not supported. Allowed properties are {list(REPLACEABLE)}.")
            if key in _DISTRIBUTE and value is not None:
                raise NotImplementedError(
                    f"RunConfig({key}=...): tf.distribute strategies are not implemented in ringflow; train "
                    "data-parallel with Horovod's pattern (hvd.DistributedOptimizer in model_fn)")
            setattr(self, "_" + key, value)
        steps, secs = self._save_checkpoints_steps, self._save_checkpoints_secs
        if "save_checkpoints_steps" in changes and "save_checkpoints_secs" in changes:
            if steps is not None and secs is not None:
                raise ValueError(_SAVE_CKPT_ERR)
        elif "save_checkpoints_steps" in changes and steps is not None:
            self._save_checkpoints_secs = None  # TF1: setting one cadence turns the other off
        elif "save_checkpoints_secs" in changes and secs is not None:
            self._save_checkpoints_steps = None
        for name, condition, message in _CHECKS:
            value = getattr(self, "_" + name)
            if value is not None and not condition(value):
                raise ValueError(f"{message} (got {value!r})")
        return self

    def replace(self, **kwargs):
        """A copy with the named properties changed (ValueError for one that cannot be replaced)."""
        return copy.deepcopy(self)._set(kwargs)

    def __repr__(self):
        fields = ", ".join(f"{k}={getattr(self, '_' + k)!r}" for k in REPLACEABLE)
        return f"RunConfig({fields})"

    # A local run: one chief worker, no cluster (TF1's values when TF_CONFIG is empty).
    cluster_spec = property(lambda self: ClusterSpec({}))
    evaluation_master = property(lambda self: "")
    master = property(lambda self: "")
    is_chief = property(lambda self: True)
    num_ps_replicas = property(lambda self: 0)
    num_worker_replicas = property(lambda self: 1)
    task_id = property(lambda self: 0)
    task_type = property(lambda self: "worker")
    global_id_in_cluster = property(lambda self: 0)
    service = property(lambda self: None)


for _name in REPLACEABLE:
    setattr(RunConfig, _name, property(lambda self, _key="_" + _name: getattr(self, _key)))
