"""tg.train: optimizers and the global step."""
from .adam import AdamOptimizer
from .gradient_descent import GradientDescentOptimizer
from .momentum import MomentumOptimizer
from .optimizer import Optimizer
from .training_util import (GLOBAL_STEP, assert_global_step, create_global_step, get_global_step,
                            get_or_create_global_step, global_step)
from .adadelta import AdadeltaOptimizer
from .adagrad import AdagradOptimizer
from .ftrl import FtrlOptimizer
from .proximal_gradient_descent import ProximalGradientDescentOptimizer
from .proximal_adagrad import AdagradDAOptimizer, ProximalAdagradOptimizer
from . import experimental
from .rmsprop import RMSPropOptimizer
from .checkpoint_management import (CheckpointState, NewCheckpointReader, checkpoint_exists, checkpoint_meta,
                                    generate_checkpoint_state_proto, get_checkpoint_mtimes, get_checkpoint_state,
                                    latest_checkpoint, list_variables, load_checkpoint, load_variable,
                                    remove_checkpoint, update_checkpoint_state)
from .learning_rate_decay import (cosine_decay, cosine_decay_restarts, exponential_decay, inverse_time_decay,
                                  linear_cosine_decay, natural_exp_decay, noisy_linear_cosine_decay,
                                  piecewise_constant, piecewise_constant_decay, polynomial_decay)
from .saver import Saver, export_meta_graph, import_meta_graph
from .checkpoint_utils import checkpoints_iterator, init_from_checkpoint
from .warm_starting_util import VocabInfo, warm_start
from ..framework.graph_io import write_graph
from .moving_averages import ExponentialMovingAverage  # noqa: E402

__all__ = ["AdamOptimizer", "GradientDescentOptimizer", "MomentumOptimizer", "Optimizer", "GLOBAL_STEP",
           "get_global_step", "get_or_create_global_step", "assert_global_step", "create_global_step", "global_step",
           "AdadeltaOptimizer", "AdagradOptimizer", "FtrlOptimizer", "ProximalGradientDescentOptimizer",
           "AdagradDAOptimizer", "ProximalAdagradOptimizer", "experimental",
           "RMSPropOptimizer", "CheckpointState", "NewCheckpointReader", "checkpoint_exists", "checkpoint_meta",
           "generate_checkpoint_state_proto", "get_checkpoint_mtimes", "get_checkpoint_state", "latest_checkpoint",
           "list_variables", "load_checkpoint", "load_variable", "remove_checkpoint", "update_checkpoint_state",
           "cosine_decay", "exponential_decay", "inverse_time_decay", "natural_exp_decay", "piecewise_constant",
           "polynomial_decay", "VocabInfo", "warm_start", "checkpoints_iterator", "cosine_decay_restarts",
           "linear_cosine_decay", "noisy_linear_cosine_decay", "piecewise_constant_decay", "Saver", "export_meta_graph", "import_meta_graph", "init_from_checkpoint",
           "write_graph"]
__all__.append("ExponentialMovingAverage")

from ..summary.records import summary_iterator  # noqa: E402  (tf.train.summary_iterator)

__all__.append("summary_iterator")

# The program layer: monitored sessions, hooks, Supervisor, Coordinator.
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues  # noqa: E402
from .timer import SecondOrStepTimer  # noqa: E402
from .summary_and_checkpoint_hooks import (CheckpointSaverHook, CheckpointSaverListener, StepCounterHook,
                                           SummarySaverHook)
from .basic_session_run_hooks import (FeedFnHook, FinalOpsHook, GlobalStepWaiterHook, LoggingTensorHook,
                                      NanLossDuringTrainingError, NanTensorHook, StopAtStepHook)
from .profiler_hook import ProfilerHook
from . import input_pipeline_checkpoint  # noqa: F401  (tf.data.experimental.CheckpointInputPipelineHook)
from .coordinator import Coordinator, LooperThread  # noqa: E402
from .queue_runner import start_queue_runners  # noqa: E402
from .scaffold import Scaffold  # noqa: E402
from .session_manager import SessionManager  # noqa: E402
from .monitored_session import (ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession, SessionCreator,
                                SingularMonitoredSession, WorkerSessionCreator)
from .supervisor import Supervisor  # noqa: E402
from .basic_loops import basic_train_loop  # noqa: E402

__all__ += ["SessionRunArgs", "SessionRunContext", "SessionRunHook", "SessionRunValues", "SecondOrStepTimer",
            "CheckpointSaverHook", "CheckpointSaverListener", "FeedFnHook", "FinalOpsHook", "GlobalStepWaiterHook",
            "LoggingTensorHook", "NanLossDuringTrainingError", "NanTensorHook", "ProfilerHook", "StepCounterHook",
            "StopAtStepHook", "SummarySaverHook", "Coordinator", "LooperThread", "start_queue_runners", "Scaffold",
            "SessionManager", "ChiefSessionCreator", "MonitoredSession", "MonitoredTrainingSession", "SessionCreator",
            "SingularMonitoredSession", "WorkerSessionCreator", "Supervisor", "basic_train_loop"]

# Parameter-server clusters over MPI (trainer/parallel/ps/).
from .server_lib import ClusterSpec, Server  # noqa: E402
from .cluster_protos import ClusterDef, JobDef, ServerDef  # noqa: E402
from ..framework.meta_graph import SaverDef  # noqa: E402
from .device_setter import replica_device_setter  # noqa: E402
from .sync_replicas_optimizer import SyncReplicasOptimizer  # noqa: E402

__all__ += ["ClusterSpec", "Server", "replica_device_setter", "SyncReplicasOptimizer", "ClusterDef", "JobDef",
            "ServerDef", "SaverDef"]

# Queue-based input pipelines (TF1's training/input.py, queue_runner_impl.py).
from .queue_runner import QueueRunner, add_queue_runner  # noqa: E402
from .input import (batch, batch_join, input_producer, limit_epochs, maybe_batch, maybe_batch_join,  # noqa: E402
                    maybe_shuffle_batch, maybe_shuffle_batch_join, range_input_producer, shuffle_batch,
                    shuffle_batch_join, slice_input_producer, string_input_producer)

__all__ += ["QueueRunner", "add_queue_runner", "batch", "batch_join", "input_producer", "limit_epochs", "maybe_batch",
            "maybe_batch_join", "maybe_shuffle_batch", "maybe_shuffle_batch_join", "range_input_producer",
            "shuffle_batch", "shuffle_batch_join", "slice_input_producer", "string_input_producer"]

from ..ops.file_ops import match_filenames_once  # noqa: E402
from ..platform.example_protos import (BytesList, Example, Feature, FeatureList, FeatureLists, Features,  # noqa: E402
                                       FloatList, Int64List, SequenceExample)

__all__ += ["match_filenames_once", "BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features",
            "FloatList", "Int64List", "SequenceExample"]

from ..unsupported import missing_names  # noqa: E402

_OBJECT_CHECKPOINTS = "TF2's object-based checkpoints; save and restore variables with tf.train.Saver"
_SDCA = ("the SDCA solver ops of contrib's SDCAOptimizer for linear models; train them with tf.train.FtrlOptimizer "
         "(or ProximalAdagradOptimizer)")
__getattr__ = missing_names(__name__, reasons={
    "Checkpoint": _OBJECT_CHECKPOINTS, "CheckpointManager": _OBJECT_CHECKPOINTS,
    "CheckpointOptions": _OBJECT_CHECKPOINTS, "sdca_optimizer": _SDCA, "sdca_fprint": _SDCA,
    "sdca_shrink_l1": _SDCA, "do_quantize_training_on_graphdef": "TF's quantization rewrite of a GraphDef"})
