"""tf.train.warm_start and VocabInfo on a checkpoint ringflow wrote: the values each call gives are those TF 2.15's
tf.compat.v1 gave on the same checkpoint and vocabulary files."""
import numpy as np
import pytest

import trainer as tg


@pytest.fixture
def checkpoint(tmp_path):
    """emb [4, 2] of rows 10 * i + (0, 1) for words a b c d, old_w [5, 6], b [7]; the new vocabulary is c x a."""
    (tmp_path / "old.txt").write_text("a\nb\nc\nd\n")
    (tmp_path / "new.txt").write_text("c\nx\na\n")
    with tg.Graph().as_default():
        tg.Variable(np.arange(8, dtype=np.float32).reshape(4, 2) * 10 + np.array([0, 1], np.float32), name="emb")
        tg.Variable(np.array([5.0, 6.0], np.float32), name="old_w")
        tg.Variable(np.array([7.0], np.float32), name="b")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            tg.train.Saver().save(sess, str(tmp_path / "model"))
    return tmp_path


def warm_started(start):
    with tg.Graph().as_default():
        emb = tg.get_variable("emb", [4, 2], initializer=tg.ones_initializer())
        w = tg.get_variable("w", [2], initializer=tg.zeros_initializer())
        b = tg.get_variable("b", [1], initializer=tg.zeros_initializer(), trainable=False)
        start()
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            return [x.tolist() for x in sess.run([emb, w, b])]


REMAPPED = [[40.0, 51.0], [0.0, 0.0], [0.0, 11.0], [0.0, 0.0]]  # c's row, x new, a's row, one OOV bucket


def test_an_embedding_is_remapped_to_the_new_vocabulary(checkpoint):
    info = tg.train.VocabInfo(str(checkpoint / "new.txt"), 3, 1, str(checkpoint / "old.txt"))
    prefix = str(checkpoint / "model")
    assert warm_started(lambda: tg.train.warm_start(prefix, "emb", {"emb": info})) == [REMAPPED, [0, 0], [0]]
    assert warm_started(lambda: tg.train.warm_start(prefix, None, {"emb": info})) == [REMAPPED, [0, 0], [0]]
    backup = info._replace(backup_initializer=tg.constant_initializer(-1.0))
    assert warm_started(lambda: tg.train.warm_start(prefix, "emb", {"emb": backup}))[0] == [
        [40.0, 51.0], [-1.0, -1.0], [0.0, 11.0], [-1.0, -1.0]]


def test_variables_are_chosen_by_regex_or_list_and_found_under_their_old_names(checkpoint):
    info = tg.train.VocabInfo(str(checkpoint / "new.txt"), 3, 1, str(checkpoint / "old.txt"))
    prefix = str(checkpoint / "model")
    # a list of regexes reaches the non-trainable variables too; ".*" only the trainable ones
    assert warm_started(lambda: tg.train.warm_start(prefix, ["w", "b"], var_name_to_prev_var_name={"w": "old_w"})
                        ) == [[[1.0, 1.0]] * 4, [5.0, 6.0], [7.0]]
    assert warm_started(lambda: tg.train.warm_start(str(checkpoint), ".*", {"emb": info}, {"w": "old_w"})) == [
        REMAPPED, [5.0, 6.0], [0.0]]
    with pytest.raises(ValueError, match="Tensor w is not found"):
        warm_started(lambda: tg.train.warm_start(prefix, "w"))
    with pytest.raises(ValueError, match=r"var_name_to_vocab_info that were not used: \['nope'\]"):
        warm_started(lambda: tg.train.warm_start(prefix, "emb", {"nope": info}))
    with pytest.raises(ValueError, match="Provided axis: 2"):
        tg.train.VocabInfo("new.txt", 3, 0, "old.txt", axis=2)


def test_columns_are_remapped_on_axis_1(checkpoint):
    with tg.Graph().as_default():
        tg.Variable(np.arange(8, dtype=np.float32).reshape(2, 4), name="kernel")
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            tg.train.Saver().save(sess, str(checkpoint / "columns"))
    with tg.Graph().as_default():
        kernel = tg.get_variable("kernel", [2, 4], initializer=tg.ones_initializer())
        info = tg.train.VocabInfo(str(checkpoint / "new.txt"), 3, 1, str(checkpoint / "old.txt"), axis=1)
        tg.train.warm_start(str(checkpoint / "columns"), "kernel", {"kernel": info})
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            assert sess.run(kernel).tolist() == [[2.0, 0.0, 0.0, 0.0], [6.0, 0.0, 4.0, 0.0]]  # TF's answer
