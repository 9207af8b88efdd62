"""tf.audio: 16-bit PCM WAV files written and read back, the standard library's wave module as the oracle."""
import io
import wave

import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


def test_encoded_audio_is_a_wav_file_python_reads_and_decoding_gives_it_back():
    audio = np.array([[0.5, -0.25], [0.999, -1.0], [3e-5, 0.25], [0.0, 0.125]], np.float32)
    encoded = tg.audio.encode_wav(audio, 22050)
    decoded, rate = tg.audio.decode_wav(encoded)
    with tg.Session() as sess:
        data, got, got_rate = sess.run([encoded, decoded, rate])
    with wave.open(io.BytesIO(data)) as f:
        assert (f.getnchannels(), f.getsampwidth(), f.getframerate(), f.getnframes()) == (2, 2, 22050, 4)
        samples = np.frombuffer(f.readframes(4), "<i2").reshape(4, 2)
    np.testing.assert_array_equal(samples, np.clip(np.round(audio * 32768), -32768, 32767))
    np.testing.assert_array_equal(got, samples / np.float32(32768))
    assert got_rate == 22050 and decoded.shape.as_list() == [None, None]


def test_desired_channels_repeat_the_last_and_desired_samples_pad_with_silence():
    mono = np.array([[0.5], [-0.5], [0.25]], np.float32)
    decoded, _ = tg.audio.decode_wav(tg.audio.encode_wav(mono, 8000), desired_channels=2, desired_samples=5)
    assert decoded.shape == (5, 2)
    with tg.Session() as sess:
        got = sess.run(decoded)
    np.testing.assert_array_equal(got, [[0.5, 0.5], [-0.5, -0.5], [0.25, 0.25], [0, 0], [0, 0]])


def test_what_is_not_a_16_bit_wav_file_fails_when_run():
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError, match="not a RIFF/WAVE file"):
        sess.run(tg.audio.decode_wav(b"not a wav file"))
    with pytest.raises(ValueError, match="\\[samples, channels\\]"):
        tg.audio.encode_wav(np.zeros(3, np.float32), 8000)
