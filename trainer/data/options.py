"""tf.data.Options and its sub-options: settings a dataset carries (Dataset.with_options, Dataset.options()).

ringflow's pipelines run one element at a time in the session's thread, in TF's deterministic order, so the settings
change nothing they do; they are accepted, checked and kept as TF keeps them, so programs that set them run and read
them back. Each class has TF 2.15's attributes (None: "TF's default"); setting any other name raises as TF does.
"""
import enum

from .stage import Stage


class AutoShardPolicy(enum.IntEnum):
    OFF, AUTO, FILE, DATA, HINT = -1, 0, 1, 2, 3


class ExternalStatePolicy(enum.Enum):
    WARN, IGNORE, FAIL = 0, 1, 2


class AutotuneAlgorithm(enum.Enum):
    DEFAULT, HILL_CLIMB, GRADIENT_DESCENT, MAX_PARALLELISM, STAGE_BASED = 0, 1, 2, 3, 4


SHARD_HINT = -1  # tf.data.experimental.SHARD_HINT: shard(SHARD_HINT, SHARD_HINT) under AutoShardPolicy.HINT


class OptionsBase:
    """Named settings with defaults; a sub-options attribute is made on first read."""

    DEFAULTS = {}

    def __init__(self):
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name):
        values, defaults = self.__dict__["_values"], type(self).DEFAULTS
        if name not in defaults:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if name not in values:
            default = defaults[name]
            values[name] = default() if isinstance(default, type) else default
        return values[name]

    def __setattr__(self, name, value):
        defaults = type(self).DEFAULTS
        if name not in defaults:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        if isinstance(defaults[name], type) and not isinstance(value, defaults[name]):
            raise TypeError(f"{type(self).__name__}.{name} must be a {defaults[name].__name__}, got {value!r}")
        self._values[name] = value

    def __eq__(self, other):
        return type(self) is type(other) and all(getattr(self, n) == getattr(other, n) for n in self.DEFAULTS)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def merge(self, other):
        """These settings overridden by those `other` sets (TF's Options.merge)."""
        merged = type(self)()
        for source in (self, other):
            if source is None:
                continue
            for name, value in source._values.items():
                if isinstance(value, OptionsBase):
                    value = getattr(merged, name).merge(value)
                merged._values[name] = value
        return merged

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._values.items())})"


class ThreadingOptions(OptionsBase):
    DEFAULTS = {"max_intra_op_parallelism": None, "private_threadpool_size": None}


class OptimizationOptions(OptionsBase):
    DEFAULTS = dict.fromkeys(["apply_default_optimizations", "filter_fusion", "filter_parallelization",
                              "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
                              "map_parallelization", "noop_elimination", "parallel_batch",
                              "shuffle_and_repeat_fusion"])


class DistributeOptions(OptionsBase):
    DEFAULTS = {"auto_shard_policy": AutoShardPolicy.AUTO, "num_devices": None}


class AutotuneOptions(OptionsBase):
    DEFAULTS = {"autotune_algorithm": None, "cpu_budget": None, "enabled": None, "ram_budget": None}


class Options(OptionsBase):
    """tf.data.Options: every setting of a dataset (experimental_deterministic and experimental_threading are
    TF's older names of deterministic and threading)."""

    DEFAULTS = {"autotune": AutotuneOptions, "deterministic": None, "experimental_distribute": DistributeOptions,
                "experimental_external_state_policy": None, "experimental_optimization": OptimizationOptions,
                "experimental_slack": None, "experimental_symbolic_checkpoint": None, "experimental_warm_start": None,
                "threading": ThreadingOptions}
    ALIASES = {"experimental_deterministic": "deterministic", "experimental_threading": "threading"}

    def __getattr__(self, name):
        return super().__getattr__(self.ALIASES.get(name, name))

    def __setattr__(self, name, value):
        super().__setattr__(self.ALIASES.get(name, name), value)


class OptionsStage(Stage):
    """The input as it is, with the tf.data.Options given to with_options()."""

    def __init__(self, stage, options):
        if not isinstance(options, Options):
            raise TypeError(f"with_options() needs a tf.data.Options, got {options!r}")
        self.inputs, self.spec, self.options = (stage,), stage.spec, options

    def iterate(self, context):
        yield from self.inputs[0].iterate(context)

    def cardinality(self, context):
        return self.inputs[0].cardinality(context)


def merged_options(stage):
    """The Options of every with_options() in a dataset's tree of stages, merged: the outer ones win."""
    found, stack = [], [stage]
    while stack:
        s = stack.pop()
        if isinstance(s, OptionsStage):
            found.append(s.options)
        stack += list(s.inputs)
    merged = Options()
    for options in reversed(found):
        merged = merged.merge(options)
    return merged
