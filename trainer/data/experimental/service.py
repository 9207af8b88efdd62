"""tf.data.experimental.service: TF2's tf.data service (dispatcher and worker servers that run input pipelines for
several trainers), which ringflow lacks; each name says so."""
from ...unsupported import missing_names

__getattr__ = missing_names(__name__, have="ringflow's input pipelines run in each training process (shard the "
                            "data per rank with Dataset.shard)",
                            reasons=dict.fromkeys(["CrossTrainerCache", "DispatcherConfig", "ShardingPolicy",
                                                   "WorkerConfig", "distribute", "from_dataset_id",
                                                   "register_dataset"],
                                                  "the tf.data service is TF2's, with servers of its own"))
