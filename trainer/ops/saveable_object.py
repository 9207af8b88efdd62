"""TF1's SaveableObject and SaveSpec: state other than a variable's that tf.train.Saver saves and restores.

A SaveableObject names the tensors to write (its specs, each under a checkpoint name) and builds the op that
restores them from the tensors read back; the Saver writes them beside the variables and runs the restore ops in
its restore_all. TF1 programs put theirs in the SAVEABLE_OBJECTS collection, which a Saver without var_list saves
along with the global variables (tf.data.experimental.make_saveable_from_iterator's iterator state, for one).
"""


class SaveSpec:
    """One tensor a SaveableObject saves, under the checkpoint name `name` (slice_spec "" for the whole tensor)."""

    def __init__(self, tensor, slice_spec, name, dtype=None, device=None):
        self.tensor, self.slice_spec, self.name = tensor, slice_spec, name
        self.dtype = dtype if dtype is not None else tensor.dtype
        self.device = device if device is not None else tensor.device


class SaveableObject:
    """State a Saver saves through `specs` and restores with restore(); `op` is what holds the state."""

    def __init__(self, op, specs, name):
        self.op, self.specs, self.name = op, specs, name

    @property
    def device(self):
        return self.specs[0].device

    def restore(self, restored_tensors, restored_shapes):
        """The op that loads the tensors read back (one per spec) into the state."""
        raise NotImplementedError(f"{type(self).__name__} does not implement restore()")
