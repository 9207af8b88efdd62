"""keras.utils.plot_model and model_to_dot: Keras draws models with pydot and graphviz, which ringflow does not use;
they raise ImportError as Keras does without pydot, saying what to use instead. multi_gpu_model: Keras replicates a
model over one machine's GPUs; ringflow's data parallelism runs one process per GPU."""

NO_PYDOT = ("Failed to import pydot: ringflow does not draw models (Keras needs pydot and graphviz for it). "
            "model.summary() prints the layers and their connections")


def model_to_dot(model, show_shapes=False, show_layer_names=True, rankdir="TB", expand_nested=False, dpi=96,
                 subgraph=False):
    """ImportError: see the module's docstring."""
    raise ImportError(NO_PYDOT)


def plot_model(model, to_file="model.png", show_shapes=False, show_layer_names=True, rankdir="TB",
               expand_nested=False, dpi=96):
    """ImportError: see the module's docstring."""
    raise ImportError(NO_PYDOT)


def multi_gpu_model(model, gpus, cpu_merge=True, cpu_relocation=False):
    """ValueError for fewer than 2 GPUs, as Keras; else RuntimeError: ringflow trains on several GPUs with one
    process per GPU."""
    count = len(gpus) if isinstance(gpus, (list, tuple)) else gpus
    if count <= 1:
        raise ValueError(f"For multi-gpu usage to be effective, call `multi_gpu_model` with `gpus >= 2`. Received: "
                         f"`gpus={gpus!r}`")
    raise RuntimeError("multi_gpu_model splits each batch over the GPUs of one process, which ringflow does not do: "
                       "run one process per GPU (`ringflow run -np N python program.py`) and wrap the optimizer in "
                       "trainer.horovod.keras.DistributedOptimizer (horovod.keras' API), which averages the "
                       "gradients over them")
