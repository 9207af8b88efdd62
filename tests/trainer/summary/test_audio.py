"""tf.summary.audio: clips of float audio as WAV summaries, tagged as TF tags them; the WAV bytes read back with
Python's own wave module (the conformance family "plat" compares them with TF's byte for byte)."""
import io
import wave

import numpy as np
import pytest

import trainer as tg


def test_each_clip_is_a_16_bit_wav_that_reads_back():
    clips = np.stack([np.sin(np.arange(400, dtype=np.float32) / 10 + phase) for phase in (0, 1, 2)])[..., None]
    clips = np.concatenate([clips, -clips], axis=-1)  # stereo: [3 clips, 400 frames, 2 channels]
    with tg.Graph().as_default():
        summary = tg.summary.audio("voice", tg.constant(clips), 8000, max_outputs=2)
        assert summary.name == "voice:0" and tg.get_collection(tg.GraphKeys.SUMMARIES) == [summary]
        with tg.Session() as sess:
            values = tg.Summary.FromString(sess.run(summary)).value
    assert [v.tag for v in values] == ["voice/audio/0", "voice/audio/1"]
    for clip, value in zip(clips, values):
        assert (value.audio.sample_rate, value.audio.num_channels, value.audio.length_frames,
                value.audio.content_type) == (8000, 2, 400, "audio/wav")
        with wave.open(io.BytesIO(value.audio.encoded_audio_string)) as wav:
            assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth(), wav.getnframes()) == (8000, 2, 2, 400)
            pcm = np.frombuffer(wav.readframes(400), "<i2").reshape(400, 2)
        np.testing.assert_array_equal(pcm, np.clip(np.round(clip * 32768), -32768, 32767))


def test_one_output_is_tagged_without_an_index_and_bad_input_is_refused():
    with tg.Graph().as_default():
        one = tg.summary.audio("a", tg.zeros([2, 3]), 100.0, max_outputs=1)
        with pytest.raises(TypeError, match="takes float32 audio"):
            tg.summary.audio("b", tg.zeros([1, 3], tg.int32), 100)
        with pytest.raises(ValueError, match="max_outputs must be at least 1"):
            tg.summary.audio("c", tg.zeros([1, 3]), 100, max_outputs=0)
        flat = tg.summary.audio("d", tg.placeholder(tg.float32), 100)
        with tg.Session() as sess:
            assert [v.tag for v in tg.Summary.FromString(sess.run(one)).value] == ["a/audio"]
            with pytest.raises(tg.errors.InvalidArgumentError, match="Tensor must be 3-D or 2-D"):
                sess.run(flat, {flat.op.inputs[0]: np.zeros(3, np.float32)})


def test_the_other_summary_helpers():
    with tg.Graph().as_default():
        assert tg.summary.all_v2_summary_ops() == []
        with pytest.raises(ValueError, match="Can't get_summary_description on TensorSummaryV2"):
            tg.summary.get_summary_description(tg.summary.tensor_summary("t", tg.zeros([2])).op.node_def)
    node = tg.NodeDef(name="old", op="TensorSummary", attr={"description": tg.AttrValue(s=b'{"typeHint": "image"}')})
    assert tg.summary.get_summary_description(node).type_hint == "image"
    tagged = tg.summary.TaggedRunMetadata(tag="step1", run_metadata=b"\x01")
    assert tg.summary.TaggedRunMetadata.FromString(tagged.SerializeToString()) == tagged
