"""The platform family: tf.train's learning-rate schedules and global-step checks, tf.config's device lists and
settings, tf.debugging's, tf.autograph's and tf.io.gfile's framework-side names, as real TensorFlow answers them.

A call that answers in Python values (a device list, a setting) is compared by their repr ("python_values"). The
settings are process-wide, so the cases only read them or set them to TF's defaults: a case that changed one would
change what the cases after it read."""
from .cases import call, p, t

STEPS = p("int64", (None,), (10,), "idx30")  # 0, 3, 6, ..., 27: before, across and after the decay horizons
CPU = {"make": "config.PhysicalDevice", "args": ["/physical_device:CPU:0", "CPU"], "kwargs": {}}
EMPTY_GRAPH = {"make": "GraphDef", "args": [], "kwargs": {}}
GPU_7 = {"make": "config.PhysicalDevice", "args": ["/physical_device:GPU:7", "GPU"], "kwargs": {}}


def py(fn, *args, **kwargs):
    """A call compared on the Python values it returns."""
    return dict(call(fn, *args, **kwargs), python_values=True)


SCHEDULES = [
    ("train.cosine_decay_restarts", call("train.cosine_decay_restarts", 0.1, STEPS, 4)),
    ("train.cosine_decay_restarts/t_mul_1", call("train.cosine_decay_restarts", 0.1, STEPS, 5, t_mul=1.0, m_mul=0.5)),
    ("train.cosine_decay_restarts/alpha", call("train.cosine_decay_restarts", 0.1, STEPS, 3, t_mul=1.5, m_mul=0.8,
                                               alpha=0.1)),
    ("train.cosine_decay_restarts/float64", call("train.cosine_decay_restarts", t("float64", (), "pos"), STEPS, 4)),
    ("train.cosine_decay_restarts/named", call("train.cosine_decay_restarts", 0.1, t("int32", ()), 4, name="lr")),
    ("train.cosine_decay_restarts/no_step", call("train.cosine_decay_restarts", 0.1, None, 4)),
    ("train.linear_cosine_decay", call("train.linear_cosine_decay", 0.1, STEPS, 20)),
    ("train.linear_cosine_decay/periods", call("train.linear_cosine_decay", 0.1, STEPS, 12, num_periods=2.0,
                                               alpha=0.1, beta=0.01)),
    ("train.linear_cosine_decay/float64", call("train.linear_cosine_decay", t("float64", (), "pos"), STEPS, 20)),
    ("train.linear_cosine_decay/no_step", call("train.linear_cosine_decay", 0.1, None, 20)),
    ("train.noisy_linear_cosine_decay", call("train.noisy_linear_cosine_decay", 0.1, t("int64", ()), 20,
                                             values=False)),
    ("train.noisy_linear_cosine_decay/no_noise", call("train.noisy_linear_cosine_decay", 0.1, t("int64", (4,), "pos"),
                                                      10, initial_variance=0.0)),
    ("train.noisy_linear_cosine_decay/unknown_shape", call("train.noisy_linear_cosine_decay", 0.1, STEPS, 20)),
    ("train.noisy_linear_cosine_decay/float64", call("train.noisy_linear_cosine_decay", t("float64", (), "pos"),
                                                     t("int32", ()), 20, values=False)),
    ("train.piecewise_constant_decay", call("train.piecewise_constant_decay", p("int64", (), (), "idx30"), [5, 20],
                                            [0.1, 0.01, 0.001])),
    ("train.piecewise_constant_decay/bad_lengths", call("train.piecewise_constant_decay", t("int64", ()), [5], [0.1])),
]
GLOBAL_STEP = [
    ("train.create_global_step", call("train.create_global_step")),
    ("train.assert_global_step/variable", call("train.assert_global_step", {"var": t("int64", ())})),
    ("train.assert_global_step/unknown_shape", call("train.assert_global_step", p("int32", None, ()))),
    ("train.assert_global_step/float", call("train.assert_global_step", t("float32", ()))),
    ("train.assert_global_step/vector", call("train.assert_global_step", t("int64", (2,)))),
    ("train.assert_global_step/not_a_tensor", call("train.assert_global_step", 3)),
    ("train.checkpoints_iterator/none_in_time", dict(call("train.checkpoints_iterator", "/no/such/dir", timeout=0),
                                                     method=["__next__"])),
    ("train.ProximalAdagradOptimizer", call("train.ProximalAdagradOptimizer", 0.1, l1_regularization_strength=0.1)),
    ("train.ProximalAdagradOptimizer/zero_accumulator", call("train.ProximalAdagradOptimizer", 0.1,
                                                             initial_accumulator_value=0.0)),
    ("train.AdagradDAOptimizer", call("train.AdagradDAOptimizer", 0.1, {"var": t("int64", ())})),
    ("train.AdagradDAOptimizer/negative_accumulator", call(
        "train.AdagradDAOptimizer", 0.1, None, initial_gradient_squared_accumulator_value=-1.0)),
    ("train.VocabInfo", py("train.VocabInfo", "new.txt", 3, 1, "old.txt")),
    ("train.VocabInfo/axis_2", call("train.VocabInfo", "new.txt", 3, 1, "old.txt", axis=2)),
    ("train.warm_start/nothing_to_start", call("train.warm_start", "/no/such/checkpoint")),
    ("train.warm_start/unused_vocab_info", call("train.warm_start", "/no/such/checkpoint", None, {
        "nope": {"make": "train.VocabInfo", "args": ["new.txt", 3, 1, "old.txt"], "kwargs": {}}})),
    ("train.basic_train_loop/no_supervisor", call("train.basic_train_loop", None, {"fn": "no_op", "kwargs": {}})),
]
# setters first (in recording order), each to TF's default, so that every later read sees the defaults
CONFIG = [
    ("config.threading.set_intra_op_parallelism_threads", call("config.threading.set_intra_op_parallelism_threads", 0)),
    ("config.threading.set_inter_op_parallelism_threads", call("config.threading.set_inter_op_parallelism_threads", 0)),
    ("config.optimizer.set_jit", call("config.optimizer.set_jit", False)),
    ("config.optimizer.set_experimental_options", call("config.optimizer.set_experimental_options", {})),
    ("config.set_soft_device_placement", call("config.set_soft_device_placement", False)),
    ("config.run_functions_eagerly", call("config.run_functions_eagerly", False)),
    ("config.experimental.set_device_policy", call("config.experimental.set_device_policy", None)),
    ("config.experimental.set_device_policy/bad", call("config.experimental.set_device_policy", "bogus")),
    ("config.experimental.set_synchronous_execution", call("config.experimental.set_synchronous_execution", None)),
    ("debugging.set_log_device_placement", call("debugging.set_log_device_placement", False)),
    ("config.set_visible_devices/unknown", call("config.set_visible_devices", ["x"])),
    ("config.set_visible_devices/wrong_type", call("config.set_visible_devices", {"list": [CPU]}, "GPU")),
    ("config.set_visible_devices/unknown_gpu", call("config.set_visible_devices", {"list": [GPU_7]})),
    ("config.set_logical_device_configuration/cpu_memory_limit", call(
        "config.set_logical_device_configuration", CPU,
        {"list": [{"make": "config.LogicalDeviceConfiguration", "args": [], "kwargs": {"memory_limit": 10}}]})),
    ("config.experimental.set_memory_growth/cpu", call("config.experimental.set_memory_growth", CPU, True)),
    ("config.experimental.set_memory_growth/unknown", call("config.experimental.set_memory_growth", "x", True)),
    ("config.threading.get_intra_op_parallelism_threads", py("config.threading.get_intra_op_parallelism_threads")),
    ("config.threading.get_inter_op_parallelism_threads", py("config.threading.get_inter_op_parallelism_threads")),
    ("config.optimizer.get_jit", py("config.optimizer.get_jit")),
    ("config.optimizer.get_experimental_options", py("config.optimizer.get_experimental_options")),
    ("config.get_soft_device_placement", py("config.get_soft_device_placement")),
    ("config.functions_run_eagerly", py("config.functions_run_eagerly")),
    ("config.experimental.get_device_policy", py("config.experimental.get_device_policy")),
    ("config.experimental.get_synchronous_execution", py("config.experimental.get_synchronous_execution")),
    ("debugging.get_log_device_placement", py("debugging.get_log_device_placement")),
    ("config.get_visible_devices/cpu", py("config.get_visible_devices", "CPU")),
    ("config.get_visible_devices/lower_case", py("config.get_visible_devices", "cpu")),
    ("config.experimental.get_visible_devices/cpu", py("config.experimental.get_visible_devices", "CPU")),
    ("config.get_logical_device_configuration", py("config.get_logical_device_configuration", CPU)),
    ("config.get_logical_device_configuration/unknown", call("config.get_logical_device_configuration", "x")),
    ("config.experimental.get_virtual_device_configuration", py(
        "config.experimental.get_virtual_device_configuration", CPU)),
    ("config.LogicalDeviceConfiguration", py("config.LogicalDeviceConfiguration", memory_limit=100)),
    ("config.LogicalDeviceConfiguration/positional", py("config.LogicalDeviceConfiguration", 1, 2, 3)),
    ("config.experimental.VirtualDeviceConfiguration", py("config.experimental.VirtualDeviceConfiguration", 5)),
    ("config.experimental.get_device_details/cpu", py("config.experimental.get_device_details", CPU)),
    ("config.experimental.get_device_details/not_a_device", call("config.experimental.get_device_details", "x")),
    ("config.experimental.get_memory_growth/unknown", call("config.experimental.get_memory_growth", "x")),
]
CLUSTER = {"worker": ["a:1", "b:2"], "ps": {3: "c:3"}}
CLUSTER_DEF = {"make": "train.ClusterDef", "args": [], "kwargs": {"job": {"list": [
    {"make": "train.JobDef", "args": [], "kwargs": {"name": "ps", "tasks": {3: "c:3"}}},
    {"make": "train.JobDef", "args": [], "kwargs": {"name": "worker", "tasks": {0: "a:1", 1: "b:2"}}}]}}}
PROTOS = [
    ("train.SaverDef", py("train.SaverDef", max_to_keep=3, keep_checkpoint_every_n_hours=0.5)),
    ("train.JobDef", py("train.JobDef", name="x", tasks={2: "b", 0: "a"})),
    ("train.ClusterDef", py("train.ClusterDef", job={"list": [
        {"make": "train.JobDef", "args": [], "kwargs": {"name": "w", "tasks": {0: "a"}}}]})),
    ("train.ServerDef", py("train.ServerDef", cluster=CLUSTER_DEF, job_name="worker", task_index=1, protocol="grpc")),
    ("train.ClusterSpec/as_cluster_def", dict(py("train.ClusterSpec", CLUSTER), method=["as_cluster_def"])),
    ("train.ClusterSpec/from_cluster_def", dict(py("train.ClusterSpec", CLUSTER_DEF), method=["as_dict"])),
    ("train.ClusterSpec/from_server_def", call("train.ClusterSpec", {"make": "train.ServerDef", "args": [],
                                                                     "kwargs": {"cluster": CLUSTER_DEF}})),
]
ZLIB = {"b64": "eJzLSM3JyVfIQJAAOi4GfQ=="}  # zlib.compress(b"hello hello hello")
GZIP = {"b64": "H4sIAAAAAAACAytJ08vMBwAA3tyPBQAAAA=="}  # gzip.compress(b"tf.io", mtime=0)


# JPEGs TF's encode_jpeg wrote: a 4 x 3 RGB image, and a progressive 2 x 5 gray one
JPEG_RGB = {"b64": (
    "/9j/4AAQSkZJRgABAQEBLAEsAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoK"
    "CgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoK"
    "CgoKCgoKCgr/wAARCAAEAAMDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF"
    "BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW"
    "V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi"
    "4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC"
    "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVm"
    "Z2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq"
    "8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD7Y+Fn/BDP/gnN/wAK90n/AIs3/wAug/5aR+p/6Z0UUV6h55//2Q==")}
JPEG_GRAY = {"b64": (
    "/9j/4AAQSkZJRgABAQEBLAEsAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoK"
    "CgoKBggLDAsKDAkKCgr/wgALCAACAAUBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAABf/aAAgBAQAAAAF3/8QAFRABAQAAAAAAAAAA"
    "AAAAAAAABhX/2gAIAQEAAQUCEnT8n//EABoQAAAHAAAAAAAAAAAAAAAAAAACBDVBRNH/2gAIAQEABj8CYkcVi4P/xAAVEAEBAAAA"
    "AAAAAAAAAAAAAAAAEf/aAAgBAQABPyGc2//aAAgBAQAAABB//8QAFhABAQEAAAAAAAAAAAAAAAAAAQDw/9oACAEBAAE/EN8Yz//Z")}


def serialized(arg):
    return {"make": "io.serialize_tensor", "args": [arg], "kwargs": {}}


SPARSE = {"sparse": [[[0, 1], [1, 0], [1, 2]], t("float32", (3,)), [2, 3]]}
SPARSE_3D = {"sparse": [[[0, 0, 1], [0, 1, 0], [2, 1, 1]], t("int64", (3,)), [3, 2, 4]]}


def many(sparse):
    return {"make": "io.serialize_many_sparse", "args": [sparse], "kwargs": {}}


ENCODING = [
    ("io.serialize_sparse", call("io.serialize_sparse", SPARSE)),
    ("io.serialize_sparse/strings", call("io.serialize_sparse", {"sparse": [[[1]], {"s": ["x"]}, [4]]})),
    ("io.serialize_sparse/not_sparse", call("io.serialize_sparse", t())),
    ("io.serialize_many_sparse", call("io.serialize_many_sparse", SPARSE)),
    ("io.serialize_many_sparse/rank_3", call("io.serialize_many_sparse", SPARSE_3D)),
    ("io.deserialize_many_sparse", call("io.deserialize_many_sparse", many(SPARSE), {"dtype": "float32"})),
    ("io.deserialize_many_sparse/rank_3", call("io.deserialize_many_sparse", many(SPARSE_3D), {"dtype": "int64"},
                                               rank=3)),
    ("io.deserialize_many_sparse/wrong_dtype", call("io.deserialize_many_sparse", many(SPARSE),
                                                    {"dtype": "int32"})),
    ("io.encode_base64", call("io.encode_base64", {"s": [["hello?>", ""], ["ab", "abc"]]})),
    ("io.encode_base64/pad", call("io.encode_base64", {"s": ["hello?>", "a", "ab"]}, pad=True)),
    ("io.decode_base64", call("io.decode_base64", {"s": ["aGVsbG8_Pg", "aGVsbG8_Pg==", "", "YWI"]})),
    ("io.decode_base64/bad", call("io.decode_base64", {"s": ["a*b="]})),
    ("io.decode_compressed/zlib", call("io.decode_compressed", {"list": [ZLIB]}, "ZLIB")),
    ("io.decode_compressed/gzip", call("io.decode_compressed", GZIP, compression_type="GZIP")),
    ("io.decode_compressed/none", call("io.decode_compressed", {"s": [["ab"], ["c"]]})),
    ("io.decode_compressed/bad", call("io.decode_compressed", {"s": ["not zlib"]}, "ZLIB")),
    ("io.decode_json_example", call("io.decode_json_example", {"s": [
        '{"features": {"feature": {"x": {"floatList": {"value": [1.5, 2, "NaN"]}}}}}',
        '{"features": {"feature": {"ids": {"int64_list": {"value": ["3", 4, -5]}}}}}',
        '{"features": {"feature": {"raw": {"bytesList": {"value": ["YWJj", ""]}}}}}', '{}']})),
    ("io.decode_json_example/two_features", call("io.decode_json_example", {"s": (
        '{"features": {"feature": {"a": {"floatList": {"value": [1]}}, "b": {"int64List": {"value": [2]}}}}}')})),
    ("io.decode_json_example/not_json", call("io.decode_json_example", {"s": ["{features"]})),
    ("io.decode_json_example/unknown_field", call("io.decode_json_example", {"s": ['{"feature": {}}']})),
    ("io.extract_jpeg_shape", call("io.extract_jpeg_shape", JPEG_RGB)),
    ("io.extract_jpeg_shape/progressive_int64", call("io.extract_jpeg_shape", JPEG_GRAY, {"dtype": "int64"})),
    ("io.extract_jpeg_shape/not_a_jpeg", call("io.extract_jpeg_shape", {"s": "notajpeg"})),
    ("io.extract_jpeg_shape/float_output", call("io.extract_jpeg_shape", JPEG_RGB, {"dtype": "float32"})),
    ("io.serialize_tensor/float32", call("io.serialize_tensor", t())),
    ("io.serialize_tensor/int64_scalar", call("io.serialize_tensor", t("int64", ()))),
    ("io.serialize_tensor/bool", call("io.serialize_tensor", t("bool", (3,)))),
    ("io.serialize_tensor/float64_zero_size", call("io.serialize_tensor", t("float64", (0, 2)))),
    ("io.serialize_tensor/strings", call("io.serialize_tensor", {"s": [["a", "bc"], ["", "d\u00e9"]]})),
    ("io.serialize_tensor/unknown_shape", call("io.serialize_tensor", p("int32", None, (2, 2)))),
    ("io.parse_tensor", call("io.parse_tensor", serialized(t()), {"dtype": "float32"})),
    ("io.parse_tensor/int64", call("io.parse_tensor", serialized(t("int64", (2, 1, 2))), {"dtype": "int64"})),
    ("io.parse_tensor/strings", call("io.parse_tensor", serialized({"s": ["x", "yz"]}), {"dtype": "string"})),
    ("io.parse_tensor/wrong_dtype", call("io.parse_tensor", serialized(t()), {"dtype": "int32"})),
    ("io.parse_tensor/not_a_tensor_proto", call("io.parse_tensor", {"s": "\u00ff\u00ff"}, {"dtype": "float32"})),
]
NODE_DEF = {"make": "NodeDef", "args": [], "kwargs": {"name": "s", "op": "TensorSummaryV2"}}
SUMMARY = [
    ("summary.audio", call("summary.audio", "clip", t("float32", (2, 6), "unit"), 8000)),
    ("summary.audio/one", call("summary.audio", "clip", t("float32", (3, 4), "unit"), 22050.0, max_outputs=1)),
    ("summary.audio/stereo_clipped", call("summary.audio", "sound", t("float32", (1, 5, 2)), 16000,
                                          family="fam")),
    ("summary.audio/fed_rate", call("summary.audio", "clip", t("float32", (1, 3), "unit"),
                                    p("float32", (), (), "pos"))),
    ("summary.audio/int_audio", call("summary.audio", "clip", t("int32", (1, 3)), 8000)),
    ("summary.audio/rank_1", call("summary.audio", "clip", p("float32", None, (3,), "unit"), 8000)),
    ("summary.TaggedRunMetadata", py("summary.TaggedRunMetadata", tag="step1", run_metadata=b"\x01")),
    ("summary.all_v2_summary_ops", py("summary.all_v2_summary_ops")),
    ("summary.get_summary_description/not_tensor_summary", call("summary.get_summary_description", NODE_DEF)),
]
SGD = {"make": "train.GradientDescentOptimizer", "args": [0.1], "kwargs": {}}
LOSS_SCALE = [
    ("train.experimental.FixedLossScale", py("train.experimental.FixedLossScale", 128)),
    ("train.experimental.FixedLossScale/call", dict(call("train.experimental.FixedLossScale", 64.0),
                                                    method=["__call__"])),
    ("train.experimental.FixedLossScale/below_one", call("train.experimental.FixedLossScale", 0.5)),
    ("train.experimental.DynamicLossScale", dict(call("train.experimental.DynamicLossScale", initial_loss_scale=4,
                                                      increment_period=3, multiplier=1.5), method=["__call__"])),
    ("train.experimental.DynamicLossScale/get_config", dict(py("train.experimental.DynamicLossScale"),
                                                            method=["get_config"])),
    ("train.experimental.LossScale/abstract", call("train.experimental.LossScale")),
    ("train.experimental.MixedPrecisionLossScaleOptimizer", call("train.experimental.MixedPrecisionLossScaleOptimizer",
                                                                 SGD, "dynamic")),
    ("train.experimental.MixedPrecisionLossScaleOptimizer/not_an_optimizer", call(
        "train.experimental.MixedPrecisionLossScaleOptimizer", 3, 3)),
    ("train.experimental.MixedPrecisionLossScaleOptimizer/bad_loss_scale", call(
        "train.experimental.MixedPrecisionLossScaleOptimizer", SGD, "bogus")),
]
MUTABLE = ["lookup.experimental.MutableHashTable", {"dtype": "string"}, {"dtype": "int64"}, -1]
DENSE = ["lookup.experimental.DenseHashTable", {"dtype": "int64"}, {"dtype": "float32"}, 0.5]
TABLES = [
    ("lookup.experimental.MutableHashTable/lookup_empty", dict(call(*MUTABLE), method=["lookup", {"s": [["a"],
                                                                                                     ["b"]]}])),
    ("lookup.experimental.MutableHashTable/size", dict(call(*MUTABLE), method=["size"])),
    ("lookup.experimental.MutableHashTable/wrong_key_dtype", dict(call(*MUTABLE), method=["lookup", t("int64", (2,))])),
    ("lookup.experimental.DenseHashTable/lookup_empty", dict(call(*DENSE, empty_key=-1, deleted_key=-2),
                                                             method=["lookup", t("int64", (3,), "pos")])),
    ("lookup.experimental.DenseHashTable/size", dict(call(*DENSE, empty_key=-1, deleted_key=-2), method=["size"])),
    ("lookup.experimental.DenseHashTable/same_reserved_keys", dict(call(*DENSE, empty_key=-1, deleted_key=-1),
                                                                   method=["size"])),
]
def shapes(*pairs):
    return {"list": [{"list": [tensor, {"list": list(spec)}]} for tensor, spec in pairs]}


ASSERT_SHAPES = [
    ("debugging.assert_shapes", call("debugging.assert_shapes", shapes((t(), ["N", "D"]), (t("float32", (3,)),
                                                                                          ["D"])))),
    ("debugging.assert_shapes/symbol_mismatch", call("debugging.assert_shapes", shapes(
        (t(), ["N", "D"]), (t("float32", (3,)), ["N"])))),
    ("debugging.assert_shapes/explicit", call("debugging.assert_shapes", shapes((t(), [2, "."]), (t(), [None, 3])))),
    ("debugging.assert_shapes/explicit_mismatch", call("debugging.assert_shapes", shapes((t(), [2, 4])))),
    ("debugging.assert_shapes/rank", call("debugging.assert_shapes", shapes((t(), ["N"])))),
    ("debugging.assert_shapes/scalar_as_one", call("debugging.assert_shapes", shapes((t("float32", ()), ["N"]),
                                                                                     (t("float32", (1,)), [])))),
    ("debugging.assert_shapes/leading_star", call("debugging.assert_shapes", shapes(
        (t("float32", (2, 3, 4)), ["*", "A", 4]), (t("float32", (3,)), ["A"])))),
    ("debugging.assert_shapes/string_dots_is_a_name", call("debugging.assert_shapes", shapes(
        (t("float32", (2, 3, 4)), ["...", 4])))),
    ("debugging.assert_shapes/star_not_first", call("debugging.assert_shapes", shapes((t(), ["N", "*"])))),
    ("debugging.assert_shapes/not_iterable", call("debugging.assert_shapes", {"list": [{"list": [t(), 3]}]},
                                                  message="m")),
    ("debugging.assert_shapes/empty_spec", call("debugging.assert_shapes", shapes((t("float32", (1,)), [])))),
    ("debugging.assert_shapes/unknown_dims", call("debugging.assert_shapes", shapes(
        (p("float32", (None, None), (2, 3)), ["N", "D"]), (t("float32", (3,)), ["D"])))),
    ("debugging.assert_shapes/unknown_rank", call("debugging.assert_shapes", shapes(
        (p("float32", None, (2, 3)), ["N", 3])))),
]
LABELS, PREDICTIONS = t("int64", (3, 2), "idx5"), t("float32", (3, 5))
TOP_K = t("int32", (3, 2), "idx5", salt=3)  # rows [3, 1], [4, 2], [0, 3]: one label each


def metric(fn, *args, pick=1, **kwargs):
    """The metric's update op's value after one batch (pick=1), or its value before any (pick=0)."""
    return dict(call(fn, *args, **kwargs), pick=pick)


TOP_K_METRICS = [
    ("metrics.recall_at_k", metric("metrics.recall_at_k", LABELS, PREDICTIONS, 2)),
    ("metrics.recall_at_k/before_any_batch", metric("metrics.recall_at_k", LABELS, PREDICTIONS, 2, pick=0)),
    ("metrics.recall_at_k/class_id", metric("metrics.recall_at_k", LABELS, PREDICTIONS, 3, class_id=3)),
    ("metrics.recall_at_k/one_label", metric("metrics.recall_at_k", t("int64", (3,), "idx5"), PREDICTIONS, 3)),
    ("metrics.precision_at_k", metric("metrics.precision_at_k", LABELS, PREDICTIONS, 2)),
    ("metrics.precision_at_k/weights", metric("metrics.precision_at_k", LABELS, PREDICTIONS, 3,
                                              weights=t("float32", (3,), "pos"))),
    ("metrics.precision_at_k/class_id", metric("metrics.precision_at_k", LABELS, PREDICTIONS, 2, class_id=3)),
    ("metrics.recall_at_top_k", metric("metrics.recall_at_top_k", LABELS, TOP_K)),
    ("metrics.precision_at_top_k", metric("metrics.precision_at_top_k", LABELS, TOP_K, k=2,
                                          weights=t("float64", (3,), "pos"))),
    ("metrics.average_precision_at_k", metric("metrics.average_precision_at_k", LABELS, PREDICTIONS, 3)),
    ("metrics.average_precision_at_k/before_any_batch", metric("metrics.average_precision_at_k", LABELS,
                                                               PREDICTIONS, 3, pick=0)),
    ("metrics.average_precision_at_k/weights", metric("metrics.average_precision_at_k", LABELS, PREDICTIONS, 2,
                                                      weights=t("float32", (3,), "pos"))),
    ("metrics.sparse_precision_at_k", metric("metrics.sparse_precision_at_k", LABELS, PREDICTIONS, 1)),
    ("metrics.sparse_average_precision_at_k", metric("metrics.sparse_average_precision_at_k", LABELS,
                                                     PREDICTIONS, 4)),
]
def column(fn, *args, **kwargs):
    return {"make": f"feature_column.{fn}", "args": list(args), "kwargs": kwargs}


HASHED = column("categorical_column_with_hash_bucket", "w", 10)
FEATURE_COLUMNS = [
    ("feature_column.categorical_column_with_hash_bucket/zero_buckets", call(
        "feature_column.categorical_column_with_hash_bucket", "w", 0)),
    ("feature_column.categorical_column_with_hash_bucket/float", call(
        "feature_column.categorical_column_with_hash_bucket", "w", 3, dtype={"dtype": "float32"})),
    ("feature_column.make_parse_example_spec", py("feature_column.make_parse_example_spec", {"list": [
        column("numeric_column", "x", [2]), column("indicator_column", HASHED),
        column("embedding_column", column("categorical_column_with_hash_bucket", "n", 7, dtype={"dtype": "int64"}),
               3), column("bucketized_column", column("numeric_column", "b"), [0.0, 1.0]),
        column("categorical_column_with_identity", "i", 4),
        column("categorical_column_with_vocabulary_list", "v", ["a", "b"])]})),
    ("feature_column.make_parse_example_spec/conflict", call("feature_column.make_parse_example_spec", {"list": [
        column("numeric_column", "x"), column("categorical_column_with_hash_bucket", "x", 3)]})),
    ("feature_column.make_parse_example_spec/not_a_column", call("feature_column.make_parse_example_spec",
                                                                 {"list": [3]})),
]
OTHERS = [
    ("autograph.experimental.do_not_convert", call("autograph.experimental.do_not_convert", {"fn": "abs",
                                                                                             "kwargs": {}})),
    ("autograph.experimental.set_loop_options", call("autograph.experimental.set_loop_options",
                                                     maximum_iterations=3)),
    ("autograph.set_verbosity", call("autograph.set_verbosity", 0)),
    ("autograph.trace", call("autograph.trace")),
    ("io.gfile.join", py("io.gfile.join", "a", "b/", "c")),
    ("io.gfile.join/absolute", py("io.gfile.join", "a", "/b")),
    ("io.gfile.join/scheme", py("io.gfile.join", "gs://bucket", "dir", "f")),
    ("io.gfile.get_registered_schemes", call("io.gfile.get_registered_schemes")),
    ("resource_loader.readahead_file_path", py("resource_loader.readahead_file_path", "data/x.txt", "1M")),
    ("resource_loader.get_data_files_path", call("resource_loader.get_data_files_path")),
    ("resource_loader.get_path_to_datafile", call("resource_loader.get_path_to_datafile", "x.txt")),
    ("resource_loader.get_root_dir_with_all_resources", call("resource_loader.get_root_dir_with_all_resources")),
    ("resource_loader.load_resource/absent", call("resource_loader.load_resource", "no/such/file.txt")),
    ("graph_util.import_graph_def", call("graph_util.import_graph_def", EMPTY_GRAPH, name="")),
    ("graph_util.import_graph_def/not_a_graph_def", call("graph_util.import_graph_def", 3)),
    ("test.assert_equal_graph_def/not_graph_defs", call("test.assert_equal_graph_def", 1, 2)),
    ("test.assert_equal_graph_def/empty", call("test.assert_equal_graph_def", EMPTY_GRAPH, EMPTY_GRAPH)),
    ("test.StubOutForTesting", call("test.StubOutForTesting")),
    ("test.with_eager_op_as_function", call("test.with_eager_op_as_function", only_as_function=True)),
    ("test.is_built_with_rocm", py("test.is_built_with_rocm")),
    ("test.disable_with_predicate", call("test.disable_with_predicate", {"fn": "no_op", "kwargs": {}}, "skip")),
]


def cases():
    """{case id: case} of the family, every id under "plat/"."""
    families = (SCHEDULES, GLOBAL_STEP, CONFIG, PROTOS, ENCODING, SUMMARY, LOSS_SCALE, TABLES, ASSERT_SHAPES,
                TOP_K_METRICS, FEATURE_COLUMNS, OTHERS)
    return {f"plat/{name}": case for rows in families for name, case in rows}
