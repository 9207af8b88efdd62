"""tf.contrib.learn.RunConfig: tf.estimator.RunConfig with contrib's older arguments.

num_cores, log_device_placement and gpu_memory_fraction make the ConfigProto of the `tf_config` property (TF1's
contrib Estimator runs its sessions with it when session_config is None); the rest are tf.estimator.RunConfig's.
Where the two differ: save_checkpoints_secs=0 means "the default" (600 s unless save_checkpoints_steps is given),
as in TF1's contrib, where 0 is that default's marker; `environment` is "local". Runs are local: a master or an
evaluation master (a gRPC address) is refused.
"""
from ......client.config import ConfigProto, GPUOptions
from ......estimator.run_config import RunConfig as CoreRunConfig

DEFAULT_SECS = 0  # TF1 contrib's marker for "600 s, unless save_checkpoints_steps is given"


class RunConfig(CoreRunConfig):
    """Where an Estimator writes, how often it checkpoints and logs; local runs only."""

    def __init__(self, master=None, num_cores=0, log_device_placement=False, gpu_memory_fraction=1,
                 tf_random_seed=None, save_summary_steps=100, save_checkpoints_secs=DEFAULT_SECS,
                 save_checkpoints_steps=None, keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000,
                 log_step_count_steps=100, protocol=None, evaluation_master="", model_dir=None, session_config=None,
                 session_creation_timeout_secs=7200):
        for name, value in (("master", master), ("evaluation_master", evaluation_master)):
            if value:
                raise NotImplementedError(f"tf.contrib.learn.RunConfig({name}={value!r}): ringflow's estimators run "
                                          "locally; leave it empty and train data-parallel with Horovod's pattern "
                                          "(hvd.DistributedOptimizer in model_fn) under mpiexec")
        cadence = {}
        if save_checkpoints_steps is not None:
            cadence["save_checkpoints_steps"] = save_checkpoints_steps
        if save_checkpoints_secs != DEFAULT_SECS:
            cadence["save_checkpoints_secs"] = save_checkpoints_secs
        super().__init__(model_dir=model_dir, tf_random_seed=tf_random_seed, save_summary_steps=save_summary_steps,
                         session_config=session_config, keep_checkpoint_max=keep_checkpoint_max,
                         keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                         log_step_count_steps=log_step_count_steps, protocol=protocol,
                         session_creation_timeout_secs=session_creation_timeout_secs, **cadence)
        self._tf_config = ConfigProto(
            log_device_placement=log_device_placement, inter_op_parallelism_threads=num_cores,
            intra_op_parallelism_threads=num_cores,
            gpu_options=GPUOptions(per_process_gpu_memory_fraction=gpu_memory_fraction))

    tf_config = property(lambda self: self._tf_config)
    environment = property(lambda self: "local")

    @staticmethod
    def get_task_id():
        """This task's index: 0, the only task of a local run."""
        return 0
