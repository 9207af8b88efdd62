"""The queue idioms TF 1.0-1.4 era programs read their data with (the GAN tutorials that read image files by
path: slice_input_producer over the paths and labels, read_file, decode, resize, tf.train.batch with several
threads, a Coordinator around start_queue_runners), written here as small programs of our own."""
import numpy as np
import pytest

import trainer as tg

SIDE = 4  # each fake image is SIDE x SIDE x 3 raw bytes: decode_raw stands in for decode_jpeg (no Pillow in CI)


def _image_files(tmp_path, count):
    paths = []
    for i in range(count):
        path = tmp_path / f"img{i}.raw"
        path.write_bytes(np.full((SIDE, SIDE, 3), i, dtype=np.uint8).tobytes())
        paths.append(str(path))
    return paths


def _get_batch(paths, labels, batch_size):
    paths = tg.convert_to_tensor(np.asarray(paths), dtype=tg.string)
    labels = tg.convert_to_tensor(np.asarray(labels), dtype=tg.int32)
    image, label = tg.train.slice_input_producer([paths, labels], shuffle=True)
    image = tg.reshape(tg.decode_raw(tg.read_file(image), tg.uint8), [SIDE, SIDE, 3])
    image = tg.image.resize_images(image, [2 * SIDE, 2 * SIDE])
    image = image * 1.0 / 127.5 - 1.0
    return tg.train.batch([image, label], batch_size=batch_size, capacity=batch_size * 8, num_threads=4)


def test_image_files_by_path_batched_by_four_threads(tmp_path):
    paths = _image_files(tmp_path, 5)
    with tg.Graph().as_default():
        x_batch, y_batch = _get_batch(paths, list(range(5)), batch_size=3)
        assert x_batch.shape.as_list() == [3, 2 * SIDE, 2 * SIDE, 3] and y_batch.shape.as_list() == [3]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            sess.run(tg.local_variables_initializer())
            coord = tg.train.Coordinator()
            threads = tg.train.start_queue_runners(sess=sess, coord=coord)
            try:
                for _ in range(4):
                    xs, ys = sess.run([x_batch, y_batch])
                    # each image is its label's constant, scaled to [-1, 1] and resized
                    np.testing.assert_allclose(xs, np.broadcast_to((ys / 127.5 - 1.0)[:, None, None, None],
                                                                   xs.shape), rtol=1e-6)
            finally:
                coord.request_stop()
                coord.join(threads)
            assert not any(t.is_alive() for t in threads)


def test_no_image_files_wait_like_tensorflow_until_stopped(tmp_path):
    """With no files, TF's dequeue waits forever (the runner enqueues empty epochs): so does ringflow, until a
    deadline or the coordinator's stop ends it, and the runner threads end at request_stop."""
    with tg.Graph().as_default():
        x_batch, y_batch = _get_batch([], [], batch_size=3)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            coord = tg.train.Coordinator()
            threads = tg.train.start_queue_runners(sess=sess, coord=coord)
            with pytest.raises(tg.errors.DeadlineExceededError):
                sess.run([x_batch, y_batch], options=tg.RunOptions(timeout_in_ms=300))
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
            assert not any(t.is_alive() for t in threads)


def test_an_epoch_limited_file_list_ends_with_out_of_range(tmp_path):
    paths = _image_files(tmp_path, 4)
    with tg.Graph().as_default():
        path, label = tg.train.slice_input_producer([paths, np.arange(4, dtype=np.int32)], num_epochs=2,
                                                    shuffle=False)
        images = tg.train.batch([tg.read_file(path), label], batch_size=3, allow_smaller_final_batch=True)
        with tg.Session() as sess:
            sess.run([tg.global_variables_initializer(), tg.local_variables_initializer()])
            coord = tg.train.Coordinator()
            threads = tg.train.start_queue_runners(sess=sess, coord=coord)
            labels = []
            try:
                while not coord.should_stop():
                    labels.append(sess.run(images)[1].tolist())
            except tg.errors.OutOfRangeError:
                pass
            finally:
                coord.request_stop()
            coord.join(threads)
        assert labels == [[0, 1, 2], [3, 0, 1], [2, 3]]
