"""TF1's summary ops: each one's kernel returns a serialized Summary protobuf (a Python bytes)."""
import json
import re

import numpy as np

from ..framework.dtypes import string
from ..platform.errors import InvalidArgumentError
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..framework.graph_keys import GraphKeys
from ..ops.core_ops import convert_to_tensor
from ..framework.registry import op_def, register, to_numpy
from ..framework.tensor_util import make_tensor_proto
from .histogram import histogram_proto
from .png import encode_png
from .wav import encode_wav
from .protos import Summary, SummaryDescription, SummaryMetadata, summary_values

_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w.]")
BAD_COLOR = np.array([255, 0, 0, 255], np.uint8)  # TF1's default for non-finite pixels: opaque red


def _string_scalar(data):
    """A tg.string scalar as kernels hand them over: a 0-d object array (Session.run fetches it as bytes)."""
    return np.array(data, dtype=object)


def _serialize(*values):
    return _string_scalar(Summary(value=list(values)).SerializeToString())


def _scalar(value, tag):
    value = to_numpy(value)
    if value.ndim:
        raise InvalidArgumentError(f"tags and values not the same shape: [] != {list(value.shape)} (tag {tag!r}); "
                         "tg.summary.scalar takes one value: reduce the tensor first (tg.reduce_mean)")
    return _serialize(Summary.Value(tag=tag, simple_value=float(value)))


def _histogram(values, tag):
    values = np.asarray(to_numpy(values), dtype=np.float64)
    if not np.isfinite(values).all():
        raise InvalidArgumentError(f"Nan in summary histogram for: {tag!r} (the values hold NaN or Inf); "
                         "check the tensor for divergence before summarizing it")
    return _serialize(Summary.Value(tag=tag, histo=histogram_proto(values)))


def _to_uint8(image):
    """TF1's float-to-pixel rule: all >= 0 scales the max to 255; otherwise 0 goes to 128 and max |x| to 127."""
    depth = image.shape[-1]
    values = image.reshape(-1, depth)
    finite = np.isfinite(values).all(axis=1)
    seen = values[finite].astype(np.float32)
    low, high = (seen.min(), seen.max()) if seen.size else (np.inf, -np.inf)
    if low < 0:
        extent = max(abs(low), abs(high))
        scale, offset = (0.0 if extent < 1e-6 else np.float32(127) / extent), 128.0
    else:
        scale, offset = (0.0 if high < 1e-6 else np.float32(255) / high), 0.0
    pixels = np.empty(values.shape, np.uint8)
    pixels[finite] = values[finite] * values.dtype.type(scale) + values.dtype.type(offset)  # truncates as C++
    pixels[~finite] = BAD_COLOR[:depth]
    return pixels.reshape(image.shape)


def _image(images, tag, max_images):
    images = to_numpy(images)
    if images.ndim != 4 or images.shape[-1] not in (1, 3, 4):
        raise InvalidArgumentError(f"Tensor must be 4-D with last dim 1, 3, or 4, not {list(images.shape)} "
                                   f"(tag {tag!r})")
    values = []
    for i, image in enumerate(images[:max_images]):
        pixels = image if image.dtype == np.uint8 else _to_uint8(image)
        height, width, depth = pixels.shape
        values.append(Summary.Value(
            tag=f"{tag}/image/{i}" if max_images > 1 else f"{tag}/image",
            image=Summary.Image(height=height, width=width, colorspace=depth,
                                encoded_image_string=encode_png(pixels))))
    return _serialize(*values)


def _audio(audio, sample_rate, tag, max_outputs):
    audio, rate = to_numpy(audio), float(to_numpy(sample_rate))
    if audio.ndim not in (2, 3):
        raise InvalidArgumentError(f"Tensor must be 3-D or 2-D, got: {list(audio.shape)} (tag {tag!r})")
    if rate <= 0:
        raise InvalidArgumentError(f"sample_rate must be > 0, got {rate} (tag {tag!r})")
    values = []
    for i, clip in enumerate(audio[:max_outputs]):
        clip = clip.reshape(clip.shape[0], -1)
        values.append(Summary.Value(
            tag=f"{tag}/audio/{i}" if max_outputs > 1 else f"{tag}/audio",
            audio=Summary.Audio(sample_rate=rate, num_channels=clip.shape[1], length_frames=clip.shape[0],
                                encoded_audio_string=encode_wav(clip, rate), content_type="audio/wav")))
    return _serialize(*values)


def _tensor(tensor, tag, serialized_summary_metadata):
    return _serialize(Summary.Value(tag=tag, metadata=SummaryMetadata.FromString(serialized_summary_metadata),
                                    tensor=make_tensor_proto(to_numpy(tensor))))


def _merge(*inputs):
    # A Summary is one repeated field, so serialized Summaries concatenate into their merge: only the tags are read
    parts, tags = [], set()
    for serialized in inputs:
        for item in np.asarray(serialized, dtype=object).ravel():
            for tag, _ in summary_values(item):
                if tag in tags:
                    raise InvalidArgumentError(f"Duplicate tag {tag!r} found in summary inputs: "
                                               "give each summary a distinct name")
                tags.add(tag)
            parts.append(item)
    return _string_scalar(b"".join(parts))


def _real(what):
    def infer(x, *rest, **attrs):
        if x.dtype.kind not in "iuf":
            raise TypeError(f"{what} takes real numbers (int or float), got {x.name!r} of dtype {x.dtype.name}; "
                            "use tg.cast to convert")
        return [((), string)]
    return infer


def _image_infer(x, **attrs):
    if x.dtype.name not in ("uint8", "float16", "float32", "float64"):
        raise TypeError(f"tg.summary.image takes uint8 or float images, got {x.name!r} of dtype {x.dtype.name}")
    if x.ndim is not None and (x.ndim != 4 or x.shape[-1] not in (1, 3, 4, None)):
        raise ValueError(f"Tensor must be 4-D with last dim 1, 3, or 4, not {list(x.shape)}: {x.name!r} should "
                         "be a batch of NHWC images")
    return [((), string)]


def _audio_infer(x, rate, **attrs):
    if x.dtype.name != "float32":
        raise TypeError(f"tg.summary.audio takes float32 audio, got {x.name!r} of dtype {x.dtype.name}")
    return [((), string)]


def _strings_infer(*inputs, **attrs):
    for t in inputs:
        if t.dtype != string:
            raise TypeError(f"Summary inputs must be string tensors (serialized summaries), got {t.name!r} "
                            f"of dtype {t.dtype.name}")
    return [((), string)]


def _not_differentiable(op, *grads):
    return [None] * len(op.inputs)


register("ScalarSummary", _scalar, infer=_real("tg.summary.scalar"), grad=_not_differentiable)
register("HistogramSummary", _histogram, infer=_real("tg.summary.histogram"), grad=_not_differentiable)
register("ImageSummary", _image, infer=_image_infer, grad=_not_differentiable)
register("AudioSummaryV2", _audio, infer=_audio_infer, grad=_not_differentiable)
register("TensorSummaryV2", _tensor, infer=lambda x, **attrs: [((), string)], grad=_not_differentiable)
register("MergeSummary", _merge, infer=_strings_infer, grad=_not_differentiable)


def clean_tag(name):
    """TF1's tag rule: characters other than letters, digits, - / _ . become _, leading slashes go."""
    return None if name is None else _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")


def _collect(tensor, collections, default):
    if isinstance(collections, str):
        raise TypeError(f"collections takes a list of collection names, got the string {collections!r}; "
                        f"write collections=[{collections!r}]")
    for key in default if collections is None else collections:
        tensor.graph.add_to_collection(key, tensor)


def _summary_op(op_type, name, family, inputs, collections, default_collections=(GraphKeys.SUMMARIES,), **attrs):
    """Build a summary op named by its own name scope; that scope (family-prefixed) is its tag."""
    name, family = clean_tag(name), clean_tag(family)
    if not name:
        raise ValueError(f"A summary needs a non-empty name, got {name!r}")
    graph = next((t.graph for t in inputs if isinstance(t, Tensor)), get_default_graph())
    with graph.as_default(), graph.name_scope(name if family is None else f"{family}/{name}") as scope:
        inputs = [convert_to_tensor(x) for x in inputs]
        tag = scope[:-1] if family is None else f"{family}/{scope[:-1]}"
        specs = op_def(op_type).infer(*inputs, tag=tag, **attrs)
        op = graph.create_op(op_type, inputs, specs, name=scope[:-1], attrs={"tag": tag, **attrs}, unique=False)
    _collect(op.outputs[0], collections, default_collections)
    return op.outputs[0]


def scalar(name, tensor, collections=None, family=None):
    """A summary of one real number; returns a string Tensor holding a serialized Summary."""
    return _summary_op("ScalarSummary", name, family, [tensor], collections)


def histogram(name, values, collections=None, family=None):
    """A summary of the distribution of `values` in TF1's exponential buckets."""
    return _summary_op("HistogramSummary", name, family, [values], collections)


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """PNG summaries of up to `max_outputs` NHWC images (tags name/image/i, or name/image when max_outputs=1)."""
    if int(max_outputs) < 1:
        raise ValueError(f"max_outputs must be at least 1, got {max_outputs!r}")
    return _summary_op("ImageSummary", name, family, [tensor], collections, max_images=int(max_outputs))


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """WAV summaries of up to `max_outputs` clips of float32 audio in [-1, 1], [batch, frames] or [batch, frames,
    channels], at `sample_rate` frames a second (tags name/audio/i, or name/audio when max_outputs=1)."""
    if int(max_outputs) < 1:
        raise ValueError(f"max_outputs must be at least 1, got {max_outputs!r}")
    rate = sample_rate if isinstance(sample_rate, Tensor) else np.float32(sample_rate)
    return _summary_op("AudioSummaryV2", name, family, [tensor, rate], collections, max_outputs=int(max_outputs))


def tensor_summary(name, tensor, summary_description=None, collections=None, summary_metadata=None,
                   family=None, display_name=None):
    """A summary holding the whole tensor as a TensorProto (with optional plugin metadata)."""
    metadata = SummaryMetadata() if summary_metadata is None else SummaryMetadata.FromString(
        summary_metadata.SerializeToString())
    if summary_description is not None:
        metadata.summary_description = summary_description
    if display_name is not None:
        metadata.display_name = display_name
    return _summary_op("TensorSummaryV2", name, family, [tensor], collections,
                       serialized_summary_metadata=metadata.SerializeToString())


def text(name, tensor, collections=None):
    """A string tensor for TensorBoard's text tab (markdown)."""
    if not isinstance(tensor, Tensor):
        tensor = convert_to_tensor(np.asarray(tensor, dtype=object), dtype=string)
    if tensor.dtype != string:
        raise ValueError(f"Expected tensor {tensor.name!r} to have dtype string, got {tensor.dtype.name}")
    plugin = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="text"))
    return tensor_summary(name, tensor, collections=collections, summary_metadata=plugin)


def merge(inputs, collections=None, name=None):
    """One Summary holding the values of all `inputs` (string Tensors); duplicate tags fail at run time."""
    inputs = list(inputs)
    if not inputs:
        raise ValueError("tg.summary.merge needs at least one summary tensor, got an empty list")
    graph = next((t.graph for t in inputs if isinstance(t, Tensor)), get_default_graph())
    with graph.as_default(), graph.name_scope(clean_tag(name) or "Merge"):
        inputs = [convert_to_tensor(x) for x in inputs]
        specs = op_def("MergeSummary").infer(*inputs)
        out = graph.create_op("MergeSummary", inputs, specs, name=clean_tag(name) or "MergeSummary").outputs[0]
    _collect(out, collections, ())
    return out


def merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    """Merge every summary in collection `key` (names matching regex `scope`); None when there are none."""
    found = get_default_graph().get_collection(key, scope)
    return merge(found, name=name) if found else None


def all_v2_summary_ops():
    """The graph's TF2-style summary ops (its "_SUMMARY_V2" collection): ringflow builds only TF1's, so this holds
    what a program put there itself."""
    return get_default_graph().get_collection("_SUMMARY_V2")


def get_summary_description(node_def):
    """The SummaryDescription a TensorSummary node carries in its "description" attr (JSON); ValueError for any
    other op, as TF (tf.summary.tensor_summary builds TensorSummaryV2, which carries none)."""
    if node_def.op != "TensorSummary":
        raise ValueError(f"Can't get_summary_description on {node_def.op}")
    fields = json.loads(node_def.attr["description"].s.decode("utf-8") or "{}")
    return SummaryDescription(type_hint=fields.get("typeHint", fields.get("type_hint", "")))
