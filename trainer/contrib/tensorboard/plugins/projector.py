"""tf.contrib.tensorboard.plugins.projector: the embedding projector's configuration, written where TensorBoard's
projector plugin reads it: `projector_config.pbtxt` in the summary writer's logdir, in protobuf text format.

The messages have the fields and field order of TensorBoard's projector_config.proto (ProjectorConfig,
EmbeddingInfo, SpriteMetadata), so `str(config)` is the text TensorBoard parses.
"""
import os

from ....platform.gfile import GFile
from ....platform.protobuf import Field, Message

PROJECTOR_FILENAME = "projector_config.pbtxt"


class SpriteMetadata(Message):
    """The sprite image of an embedding: its path and [width, height] of one thumbnail."""
    FIELDS = {"image_path": Field(1, "string"), "single_image_dim": Field(2, "uint32", repeated=True)}


class EmbeddingInfo(Message):
    """One embedding: the checkpoint variable (or a TSV of values) and its metadata, bookmarks and sprite."""
    FIELDS = {"tensor_name": Field(1, "string"), "metadata_path": Field(2, "string"),
              "bookmarks_path": Field(3, "string"), "tensor_shape": Field(4, "uint32", repeated=True),
              "sprite": Field(5, "message", SpriteMetadata), "tensor_path": Field(6, "string")}


class ProjectorConfig(Message):
    """The projector's configuration: the checkpoint to read and the embeddings to show."""
    FIELDS = {"model_checkpoint_path": Field(1, "string"),
              "embeddings": Field(2, "message", EmbeddingInfo, repeated=True), "model_checkpoint_dir": Field(3, "string")}


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
