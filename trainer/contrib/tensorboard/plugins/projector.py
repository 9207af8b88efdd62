"""tf.contrib.tensorboard.plugins.projector: the embedding projector's configuration, written where TensorBoard's
projector plugin reads it: `projector_config.pbtxt` in the summary writer's logdir, in protobuf text format.

The messages have the fields and field order of TensorBoard's projector_config.proto (ProjectorConfig,
EmbeddingInfo, SpriteMetadata), so `str(config)` is the text TensorBoard parses.
"""
import os

from ....client.config import Message, Repeated
from ....platform.gfile import GFile

PROJECTOR_FILENAME = "projector_config.pbtxt"


class SpriteMetadata(Message):
    """The sprite image of an embedding: its path and [width, height] of one thumbnail."""
    FIELDS = {"image_path": "", "single_image_dim": Repeated(0)}


class EmbeddingInfo(Message):
    """One embedding: the checkpoint variable (or a TSV of values) and its metadata, bookmarks and sprite."""
    FIELDS = {"tensor_name": "", "metadata_path": "", "bookmarks_path": "", "tensor_shape": Repeated(0),
              "sprite": SpriteMetadata, "tensor_path": ""}


class ProjectorConfig(Message):
    """The projector's configuration: the checkpoint to read and the embeddings to show."""
    FIELDS = {"model_checkpoint_path": "", "embeddings": Repeated(EmbeddingInfo), "model_checkpoint_dir": ""}


def visualize_embeddings(summary_writer, config):
    """Write `config` to projector_config.pbtxt in `summary_writer`'s logdir (TensorBoard reads the checkpoint
    there unless config.model_checkpoint_path says otherwise)."""
    logdir = summary_writer.get_logdir()
    if logdir is None:
        raise ValueError("Summary writer must have a logdir")
    if not isinstance(config, ProjectorConfig):
        raise TypeError(f"visualize_embeddings takes a projector.ProjectorConfig, got {config!r}")
    with GFile(os.path.join(logdir, PROJECTOR_FILENAME), "w") as f:
        f.write(str(config))
