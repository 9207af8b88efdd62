"""TF1's checkpoint bookkeeping: the `checkpoint` state file, finding the latest checkpoint, reading one back.

A checkpoint is named by its prefix ("dir/model.ckpt-10"); its data is TF's "<prefix>.index" and
"<prefix>.data-00000-of-00001" (with N shards, "<prefix>.data-0000i-of-0000N"), or ringflow's earlier one file
"<prefix>.npz" (checkpoint.py reads both), with TF's "<prefix>.meta" graph beside it. The state file keeps TF1's
text format, so a TF1 user's tools and habits (`cat checkpoint`) carry over:

    model_checkpoint_path: "model.ckpt-10"
    all_model_checkpoint_paths: "model.ckpt-5"
    all_model_checkpoint_paths: "model.ckpt-10"
"""
import glob
import os
import re
import warnings

from . import checkpoint as npz
from ..platform.atomic_file import atomic_write
from ..platform.errors import NotFoundError
from ..framework.tensor_bundle import DATA, INDEX

SUFFIX = npz.NPZ  # ringflow's earlier one-file checkpoints, which `ringflow train` wrote before TF's format
STATE_FILENAME = "checkpoint"  # TF1's default `latest_filename`
PROGRAM_META = "meta"  # the key of Saver.save(meta=...) in the file's JSON record
_FIELD = re.compile(r'^\s*(\w+)\s*:\s*(.*?)\s*$')


class CheckpointState:
    """TF1's CheckpointState record: the newest checkpoint and every one still kept, oldest first."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(), all_model_checkpoint_timestamps=(),
                 last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __str__(self):
        lines = [f"model_checkpoint_path: {_quote(self.model_checkpoint_path)}"]
        lines += [f"all_model_checkpoint_paths: {_quote(p)}" for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in self.all_model_checkpoint_timestamps]
        if self.last_preserved_timestamp:
            lines.append(f"last_preserved_timestamp: {self.last_preserved_timestamp!r}")
        return "\n".join(lines) + "\n"

    def __eq__(self, other):
        return isinstance(other, CheckpointState) and str(self) == str(other)

    def __repr__(self):
        return f"CheckpointState({self.model_checkpoint_path!r}, {self.all_model_checkpoint_paths!r})"


def _quote(text):
    # Protobuf text format: a C-escaped string in double quotes.
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _unquote(token, where):
    if len(token) < 2 or token[0] != token[-1] or token[0] not in "\"'":
        raise ValueError(f"{where}: expected a quoted string, got {token!r}")
    # Protobuf escapes non-ASCII bytes as octal (\303\251): decode the escapes to bytes, then the bytes as UTF-8.
    raw = token[1:-1].encode("utf-8").decode("unicode_escape").encode("latin-1")
    return raw.decode("utf-8")


def parse_checkpoint_state(text, where="checkpoint state"):
    """A CheckpointState from TF1's text format (`where` names the source in errors)."""
    state = CheckpointState()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _FIELD.match(line)
        if not match:
            raise ValueError(f"{where}, line {number}: cannot parse {line!r}")
        key, value = match.groups()
        if key == "model_checkpoint_path":
            state.model_checkpoint_path = _unquote(value, where)
        elif key == "all_model_checkpoint_paths":
            state.all_model_checkpoint_paths.append(_unquote(value, where))
        elif key == "all_model_checkpoint_timestamps":
            state.all_model_checkpoint_timestamps.append(float(value))
        elif key == "last_preserved_timestamp":
            state.last_preserved_timestamp = float(value)
        else:
            raise ValueError(f"{where}, line {number}: unknown field {key!r}")
    return state


def _state_path(save_dir, latest_filename):
    latest_filename = latest_filename or STATE_FILENAME
    if os.path.dirname(latest_filename):
        raise ValueError(f"'latest_filename' must not contain path components, got {latest_filename!r}")
    return os.path.join(save_dir, latest_filename)


def _relative(path, save_dir):
    """`path` as written in the state file: its base name when it lies in save_dir, else as given."""
    if os.path.dirname(os.path.abspath(path)) == os.path.abspath(save_dir):
        return os.path.basename(path)
    return path


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    """The CheckpointState for save_dir; model_checkpoint_path is appended to the list when not last in it."""
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    return CheckpointState(_relative(model_checkpoint_path, save_dir), [_relative(p, save_dir) for p in paths],
                           all_model_checkpoint_timestamps or (), last_preserved_timestamp or 0.0)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None, latest_filename=None,
                            all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    """Write the state file of save_dir atomically (paths inside save_dir are stored relative to it)."""
    state_path = _state_path(save_dir, latest_filename)
    if os.path.abspath(state_path) == os.path.abspath(model_checkpoint_path):
        raise RuntimeError(f"Save path {model_checkpoint_path!r} conflicts with path used for checkpoint state. "
                           "Please use a different save path.")
    state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                                            all_model_checkpoint_timestamps, last_preserved_timestamp)
    with atomic_write(state_path, encoding="utf-8") as f:
        f.write(str(state))


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState of checkpoint_dir with absolute-or-joined paths, or None when it has no state file."""
    path = _state_path(checkpoint_dir, latest_filename)
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            state = parse_checkpoint_state(f.read(), where=path)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        warnings.warn(f"{path!r} is not a readable checkpoint state file ({exc}); ignoring it", RuntimeWarning,
                      stacklevel=2)
        return None
    if not state.model_checkpoint_path:
        raise ValueError(f"Invalid checkpoint state loaded from {checkpoint_dir!r}: it names no "
                         "model_checkpoint_path")
    state.model_checkpoint_path = os.path.join(checkpoint_dir, state.model_checkpoint_path)
    state.all_model_checkpoint_paths = [os.path.join(checkpoint_dir, p) for p in state.all_model_checkpoint_paths]
    return state


def data_path(checkpoint_prefix):
    """The file that marks checkpoint_prefix: "<prefix>.index" (TF's format; also when there is none yet), else
    "<prefix>.npz", or the prefix itself when it names an .npz file."""
    index = checkpoint_prefix + INDEX
    if os.path.isfile(index):
        return index
    if os.path.isfile(checkpoint_prefix + SUFFIX):
        return checkpoint_prefix + SUFFIX
    if checkpoint_prefix.endswith(SUFFIX) and os.path.isfile(checkpoint_prefix):
        return checkpoint_prefix
    return index


def meta_graph_filename(checkpoint_filename, meta_graph_suffix="meta"):
    """"<prefix>.meta": where Saver.save writes the checkpoint's MetaGraphDef."""
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return f"{basename}.{meta_graph_suffix}"


def checkpoint_exists(checkpoint_prefix):
    """True when the checkpoint's data file exists."""
    return os.path.isfile(data_path(checkpoint_prefix))


def get_checkpoint_mtimes(checkpoint_prefixes):
    """The modification times of the checkpoints that exist (missing ones are left out, as TF1 does)."""
    return [os.path.getmtime(data_path(p)) for p in checkpoint_prefixes if checkpoint_exists(p)]


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """Delete the checkpoint's files (its data, index and .meta; nothing else); none at all is warned about."""
    paths = [checkpoint_prefix + ext for ext in (INDEX, SUFFIX)]
    paths += sorted(glob.glob(glob.escape(checkpoint_prefix) + ".data-[0-9][0-9][0-9][0-9][0-9]-of-[0-9]*")) or \
        [checkpoint_prefix + DATA]
    paths.append(meta_graph_filename(checkpoint_prefix, meta_graph_suffix))
    removed = False
    for path in paths:
        try:
            os.remove(path)
            removed = True
        except FileNotFoundError:
            pass
    if not removed:
        warnings.warn(f"Cannot remove checkpoint {checkpoint_prefix!r}: none of {paths!r} exists", RuntimeWarning,
                      stacklevel=2)


def latest_checkpoint(checkpoint_dir, latest_filename=None, problem=None):
    """The prefix of the newest intact checkpoint the state file lists, or None.

    A listed checkpoint whose file is missing or damaged is skipped with a warning for the next newest.
    `problem(path)` (a ringflow extension) replaces the damage check: it says why a file is unusable, or None.
    """
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None:
        return None
    problem = problem or _file_problem
    candidates = [state.model_checkpoint_path]
    candidates += [p for p in reversed(state.all_model_checkpoint_paths) if p not in candidates]
    for prefix in candidates:
        why = problem(data_path(prefix))
        if why is None:
            return prefix
        warnings.warn(f"skipping checkpoint {prefix!r} listed in {checkpoint_dir!r}: {why}", RuntimeWarning,
                      stacklevel=2)
    return None


def _file_problem(path):
    return "its file does not exist" if not os.path.isfile(path) else npz.problem(path)


def _resolve(ckpt_dir_or_file):
    if os.path.isdir(ckpt_dir_or_file):
        prefix = latest_checkpoint(ckpt_dir_or_file)
        if prefix is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory "
                             f"{ckpt_dir_or_file!r}")
        return data_path(prefix)
    path = data_path(ckpt_dir_or_file)
    if not os.path.isfile(path):
        raise NotFoundError(f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files for "
                            f"{ckpt_dir_or_file!r} (looked for {path!r}){describe_directory(path)}")
    return path


def describe_directory(path):
    """", which holds: a.npz, checkpoint" -- what the directory of a missing file does hold, for error messages."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        return f"; the directory {directory!r} does not exist"
    names = sorted(os.listdir(directory))
    shown = ", ".join(names[:20]) + (f", ... ({len(names)} files)" if len(names) > 20 else "")
    return f"; {directory!r} holds: {shown or 'nothing'}"


class CheckpointReader:
    """Reads one checkpoint's tensors by name (TF1's tf.train.load_checkpoint / NewCheckpointReader)."""

    def __init__(self, ckpt_dir_or_file):
        self.path = _resolve(ckpt_dir_or_file)
        self._arrays, self.meta = npz.read(self.path)

    def has_tensor(self, name):
        return _strip(name) in self._arrays

    def get_tensor(self, name):
        key = _strip(name)
        if key not in self._arrays:
            raise NotFoundError(f"Key {key} not found in checkpoint {self.path!r}; it holds: "
                                f"{sorted(self._arrays)}")
        return self._arrays[key]

    def get_variable_to_shape_map(self):
        return {name: list(value.shape) for name, value in self._arrays.items()}

    def get_variable_to_dtype_map(self):
        return {name: value.dtype for name, value in self._arrays.items()}

    def debug_string(self):
        return "".join(f"{name} ({value.dtype.name}) {list(value.shape)}\n"
                       for name, value in sorted(self._arrays.items())).encode()


def _strip(name):
    return name[:-2] if name.endswith(":0") else name


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader for a checkpoint prefix, or for the latest checkpoint of a directory."""
    return CheckpointReader(ckpt_dir_or_file)


NewCheckpointReader = load_checkpoint


def list_variables(ckpt_dir_or_file):
    """[(name, shape)] of every tensor in the checkpoint, sorted by name."""
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    """The value (a numpy array) of tensor `name` in the checkpoint."""
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def checkpoint_meta(ckpt_dir_or_file):
    """The `meta` record a program stored with Saver.save(..., meta=...), or None (a ringflow extension)."""
    record = load_checkpoint(ckpt_dir_or_file).meta or {}
    return record.get(PROGRAM_META)
