"""Which checkpoint `ringflow train` resumes from: newest intact, of this model, older ringflow layout too."""
import os

import numpy as np
import pytest

import trainer as tg
from trainer.train import checkpoint as npz
from trainer.program.outputs.resume import find_checkpoint

KERNEL = np.arange(6.0).reshape(2, 3)


def model(shape=(2, 3), extra=False, save_format="tf"):
    """A graph with dense/kernel (and maybe another variable), the global step and its Saver."""
    graph = tg.Graph()
    with graph.as_default():
        tg.get_variable("dense/kernel", shape, tg.float64, initializer=tg.zeros_initializer())
        if extra:
            tg.get_variable("other", [1], tg.float64)
        tg.train.get_or_create_global_step()
        saver = tg.train.Saver(save_format=save_format)
    return graph, saver


def save(directory, steps, meta=None, save_format="tf"):
    graph, saver = model(save_format=save_format)
    with graph.as_default(), tg.Session(graph=graph) as sess:
        sess.run(tg.global_variables_initializer())
        tg.global_variables()[0].load(KERNEL, sess)
        return [saver.save(sess, os.path.join(directory, "model.ckpt"), global_step=s, meta=dict(meta or {}, s=s))
                for s in steps]


def find(directory, **kwargs):
    graph, saver = model(**kwargs)
    with graph.as_default():
        return find_checkpoint(str(directory), saver, tg.global_variables()), saver, graph


def test_the_newest_checkpoint_and_what_the_program_saved_with_it(tmp_path):
    prefixes = save(str(tmp_path), [5, 6], {"data": {"position": 60}})
    found, saver, _ = find(tmp_path)
    assert found.path == prefixes[-1] and found.saver is saver
    assert found.meta == {"data": {"position": 60}, "s": 6}


@pytest.mark.parametrize("save_format,damaged", [("tf", ".data-00000-of-00001"), ("tf", ".index"),
                                                  ("npz", ".npz")])
def test_a_damaged_newest_checkpoint_is_skipped_with_a_warning(tmp_path, save_format, damaged):
    good, bad = save(str(tmp_path), [5, 6], save_format=save_format)
    with open(bad + damaged, "r+b") as f:
        f.truncate(os.path.getsize(bad + damaged) // 2)
    with pytest.warns(RuntimeWarning, match="model.ckpt-6"):
        found, _, _ = find(tmp_path)
    assert found.path == good


def test_a_checkpoint_of_another_model_is_refused_naming_the_variables(tmp_path):
    save(str(tmp_path), [1])
    with pytest.raises(ValueError, match=r"does not fit this model: missing \['other'\], unexpected \[\]"):
        find(tmp_path, extra=True)
    with pytest.raises(ValueError, match=r"'dense/kernel' has shape \(2, 3\), the model's is \(2, 4\)"):
        find(tmp_path, shape=(2, 4))


def older_layout(directory, step, kernel=KERNEL):
    """A checkpoint as ringflow wrote it before tg.train.Saver: graph names, the step inside the meta."""
    return npz.write_npz(os.path.join(directory, f"ckpt-{step:08d}.npz"),
                         {"dense/kernel:0": kernel, "global_step:0": np.array(step, np.int64)},
                         {"step": step, "data": {"position": 10 * step}})


def test_an_older_ringflows_checkpoint_resumes_when_there_is_no_other(tmp_path):
    older_layout(str(tmp_path), 7)
    (tmp_path / "ckpt-00000008.npz").write_bytes(b"not a zip")
    with pytest.warns(RuntimeWarning, match="ckpt-00000008"):
        found, saver, graph = find(tmp_path)
    assert found.path.endswith("ckpt-00000007.npz") and found.saver is not saver
    assert found.meta == {"step": 7, "data": {"position": 70}}
    with graph.as_default(), tg.Session(graph=graph) as sess:
        found.saver.restore(sess, found.path)
        kernel, step = sess.run(tg.global_variables())
    assert kernel.tobytes() == KERNEL.tobytes() and step == 7


def test_the_npz_checkpoints_of_an_earlier_ringflow_resume_with_or_without_a_state_file(tmp_path):
    older = save(str(tmp_path), [2, 4], {"data": {"position": 40}}, save_format="npz")
    found, saver, graph = find(tmp_path)
    assert found.path == older[-1] and found.meta["s"] == 4 and found.saver is saver
    with graph.as_default(), tg.Session(graph=graph) as sess:
        found.saver.restore(sess, found.path)
        assert sess.run(tg.global_variables()[0]).tobytes() == KERNEL.tobytes()
    (tmp_path / "checkpoint").unlink()
    with pytest.warns(RuntimeWarning, match=r"newest intact checkpoint file, '.*model\.ckpt-4'"):
        assert find(tmp_path)[0].path == older[-1]
    (newer,) = save(str(tmp_path), [6])  # a newer TF-format checkpoint beside them wins
    assert find(tmp_path)[0].path == newer


def test_a_saver_checkpoint_wins_over_the_older_layout(tmp_path):
    older_layout(str(tmp_path), 9)
    (prefix,) = save(str(tmp_path), [3])
    assert find(tmp_path)[0].path == prefix


def test_nothing_to_resume(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    assert find(tmp_path)[0] is None
    assert find(tmp_path / "missing")[0] is None


@pytest.mark.parametrize("state", [None, b"garbage\n", b"", 'all_model_checkpoint_paths: "model.ckpt-6"\n',
                                   'model_checkpoint_path: "model.ckpt-9"\n'])
def test_without_a_usable_state_file_the_newest_intact_checkpoint_file_is_found(tmp_path, state):
    prefixes = save(str(tmp_path), [2, 4, 6], {"data": {"position": 60}})
    (tmp_path / "model.ckpt-8.npz").write_bytes(b"not a zip")
    (tmp_path / "checkpoint").unlink()
    if state is not None:
        (tmp_path / "checkpoint").write_bytes(state if isinstance(state, bytes) else state.encode())
    with pytest.warns(RuntimeWarning, match=r"resuming from the newest intact checkpoint file, '.*model\.ckpt-6' "
                                            r"\(skipped: model\.ckpt-8\.npz: BadZipFile"):
        found, _, _ = find(tmp_path)
    assert found.path == prefixes[-1] and found.meta["s"] == 6


def test_tf1s_latest_checkpoint_still_needs_the_state_file(tmp_path):
    (prefix,) = save(str(tmp_path), [3])
    assert tg.train.latest_checkpoint(str(tmp_path)) == prefix
    (tmp_path / "checkpoint").unlink()
    assert tg.train.latest_checkpoint(str(tmp_path)) is None  # as TF1: no state file, no latest checkpoint
    (tmp_path / "checkpoint").write_text("garbage\n")
    with pytest.warns(RuntimeWarning, match="not a readable checkpoint state file"):
        assert tg.train.latest_checkpoint(str(tmp_path)) is None
