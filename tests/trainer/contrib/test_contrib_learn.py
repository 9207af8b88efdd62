"""tf.contrib.learn's data sets, text preprocessing, ModeKeys and RunConfig, against TF 1.15's documented rules
(TF 2.15, the recorder, has no tf.contrib): the CSV header row, the target column, ids in order of arrival with 0
for the unknown word, min_frequency's renumbering by falling frequency, rows padded and cut to
max_document_length, pickles that come back, and the errors of what is missing naming what to use instead."""
import pickle
import urllib.request

import numpy as np
import pytest

import trainer as tg
from tests.trainer.contrib.tf_paths import tf1_module
from trainer.platform.data_checks import DatasetError, DatasetNotFound
from trainer.unsupported import NotInRingflow

learn = tg.contrib.learn
base = learn.datasets.base
VocabularyProcessor = learn.preprocessing.VocabularyProcessor


def write(path, *lines):
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


# ModeKeys

def test_mode_keys_are_contribs_strings_and_infer_is_what_tf_estimator_predicts_in():
    assert (learn.ModeKeys.TRAIN, learn.ModeKeys.EVAL, learn.ModeKeys.INFER) == ("train", "eval", "infer")
    assert learn.ModeKeys.INFER == tg.estimator.ModeKeys.PREDICT
    learn.ModeKeys.validate("infer")
    with pytest.raises(ValueError, match="Invalid mode 'predict'"):
        learn.ModeKeys.validate("predict")


def test_a_model_fn_written_with_contrib_keys_predicts_under_tf_estimator(tmp_path):
    seen = []

    def model_fn(features, labels, mode):
        seen.append(mode)
        scale = tg.get_variable("scale", [], initializer=tg.constant_initializer(3.0))
        doubled = features["x"] * scale
        if mode == learn.ModeKeys.INFER:
            return tg.estimator.EstimatorSpec(mode, predictions={"y": doubled})
        raise AssertionError(f"only predictions are asked here, got mode {mode!r}")

    estimator = tg.estimator.Estimator(model_fn, model_dir=str(tmp_path), config=learn.RunConfig())
    with tg.Graph().as_default():  # a checkpoint to predict from
        tg.get_variable("scale", [], initializer=tg.constant_initializer(3.0))
        tg.train.get_or_create_global_step()
        with tg.Session() as session:
            session.run(tg.global_variables_initializer())
            tg.train.Saver().save(session, str(tmp_path / "model.ckpt"), global_step=0)
    input_fn = tg.estimator.inputs.numpy_input_fn({"x": np.array([1.0, 2.0], np.float32)}, shuffle=False)
    assert [p["y"] for p in estimator.predict(input_fn)] == [3.0, 6.0]
    assert seen == ["infer"]


# datasets.base

def test_load_csv_with_header_reads_the_sizes_from_the_header_row(tmp_path):
    path = write(tmp_path / "a.csv", "3,2,no,yes", "1.5,2.5,0", "3.5,4.5,1", "5.5,6.5,1")
    data, target = base.load_csv_with_header(path, target_dtype=np.int32, features_dtype=np.float32)
    np.testing.assert_array_equal(data, [[1.5, 2.5], [3.5, 4.5], [5.5, 6.5]])
    np.testing.assert_array_equal(target, [0, 1, 1])
    assert data.dtype == np.float32 and target.dtype == np.int32
    first = base.load_csv_with_header(path, target_dtype=np.float64, features_dtype=np.float64, target_column=0)
    np.testing.assert_array_equal(first.target, [1.5, 3.5, 5.5])
    np.testing.assert_array_equal(first.data, [[2.5, 0], [4.5, 1], [6.5, 1]])
    short = write(tmp_path / "short.csv", "3,2", "1,2,7")  # rows the header promises but the file lacks stay zero
    np.testing.assert_array_equal(base.load_csv_with_header(short, np.int64, np.int64).target, [7, 0, 0])


def test_load_csv_with_header_says_what_is_wrong(tmp_path):
    with pytest.raises(DatasetError, match="does not start with n_samples,n_features.*load_csv_without_header"):
        base.load_csv_with_header(write(tmp_path / "b.csv", "x,y,label", "1,2,0"), np.int64, np.float64)
    with pytest.raises(DatasetError, match="more data rows than its header's n_samples=1"):
        base.load_csv_with_header(write(tmp_path / "c.csv", "1,2", "1,2,0", "3,4,1"), np.int64, np.float64)
    with pytest.raises(DatasetError, match="data row 0.*'abc'"):
        base.load_csv_with_header(write(tmp_path / "d.csv", "1,2", "1,abc,0"), np.int64, np.float64)
    with pytest.raises(DatasetNotFound, match="no_such.csv"):
        base.load_csv_with_header(str(tmp_path / "no_such.csv"), np.int64, np.float64)


def test_load_csv_without_header_takes_every_row(tmp_path):
    path = write(tmp_path / "a.csv", "1,2,3", "4,5,6")
    data, target = base.load_csv_without_header(path, target_dtype=np.int64, features_dtype=np.float32)
    np.testing.assert_array_equal(data, [[1, 2], [4, 5]])
    np.testing.assert_array_equal(target, [3, 6])
    assert data.dtype == np.float32 and target.dtype == np.int64
    assert isinstance(base.Dataset(data, target), tuple) and base.Datasets._fields == ("train", "validation", "test")


def test_shrink_csv_keeps_every_ratioth_row_header_included(tmp_path):
    base.shrink_csv(write(tmp_path / "rows.csv", *map(str, range(7))), 3)
    assert (tmp_path / "rows_small.csv").read_text().split() == ["0", "3", "6"]


def test_iris_is_fishers_150_flowers():
    iris = base.load_iris()
    assert iris.data.shape == (150, 4) and iris.data.dtype == np.float64 and iris.target.dtype == np.int64
    np.testing.assert_array_equal(np.bincount(iris.target), [50, 50, 50])
    # the well-known column means (cm) and the first flower
    np.testing.assert_allclose(iris.data.mean(axis=0), [5.8433, 3.0573, 3.758, 1.1993], atol=1e-4)
    np.testing.assert_array_equal(iris.data[0], [5.1, 3.5, 1.4, 0.2])
    np.testing.assert_array_equal(learn.datasets.load_dataset("iris").data, iris.data)
    assert learn.datasets.load_iris is base.load_iris


def test_load_dataset_names_what_it_knows(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="Name of dataset is not found: cifar.*'iris'"):
        learn.datasets.load_dataset("cifar")
    with pytest.raises(NotImplementedError, match="dbpedia.*never downloads"):
        learn.datasets.load_dataset("dbpedia")
    with pytest.raises(DatasetNotFound, match="data_path="):
        learn.datasets.load_dataset("boston")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DatasetNotFound, match="MNIST-data"):
        learn.datasets.load_dataset("mnist")


def test_maybe_download_fetches_once_into_the_work_directory(tmp_path, monkeypatch, capsys):
    source = write(tmp_path / "source.txt", "payload")
    work = tmp_path / "work" / "deeper"
    path = base.maybe_download("copy.txt", str(work), (tmp_path / "source.txt").as_uri())
    assert path == str(work / "copy.txt") and open(path).read() == "payload\n"
    assert "Successfully downloaded copy.txt 8 bytes." in capsys.readouterr().out
    monkeypatch.setattr(urllib.request, "urlretrieve", lambda *a: pytest.fail(f"downloaded again: {a}"))
    write(tmp_path / "source.txt", "changed")
    assert open(base.maybe_download("copy.txt", str(work), source)).read() == "payload\n"


def test_maybe_download_without_the_file_says_where_to_put_it(tmp_path):
    url = (tmp_path / "absent.gz").as_uri()
    with pytest.raises(DatasetNotFound) as info:
        base.maybe_download("absent.gz", str(tmp_path / "work"), url)
    assert url in str(info.value) and str(tmp_path / "work" / "absent.gz") in str(info.value)
    assert not (tmp_path / "work" / "absent.gz").exists()


def test_retry_retries_what_is_retriable_then_gives_up():
    calls = []

    def flaky(limit):
        calls.append(1)
        if len(calls) <= limit:
            raise OSError(len(calls))
        return "done"

    patient = base.retry(0.001, 0.004, is_retriable=lambda e: isinstance(e, OSError))(flaky)
    assert patient(3) == "done" and len(calls) == 4  # delays 1, 2, 4 ms, then the last try
    calls.clear()
    with pytest.raises(OSError):
        patient(10)
    assert len(calls) == 4
    calls.clear()
    with pytest.raises(OSError):
        base.retry(0.001, 1.0, is_retriable=lambda e: False)(flaky)(5)
    assert len(calls) == 1
    with pytest.raises(ValueError, match="factor must be >= 1"):
        base.retry(1, 2, factor=0.5)


# preprocessing

def test_vocabulary_ids_in_order_of_arrival_rows_padded_and_cut():
    processor = VocabularyProcessor(4)
    rows = np.array(list(processor.fit_transform(["the cat sat", "the dog sat on the mat"])))
    np.testing.assert_array_equal(rows, [[1, 2, 3, 0], [1, 4, 3, 5]])
    assert rows.dtype == np.int64 and len(processor.vocabulary_) == 7  # <UNK>, the cat sat dog on mat
    np.testing.assert_array_equal(list(processor.transform(["a cat ate the mat"])), [[0, 2, 0, 1]])
    assert list(processor.reverse(rows)) == ["the cat sat <UNK>", "the dog sat on"]


def test_min_frequency_keeps_words_seen_more_often_ranked_by_count_then_name():
    processor = VocabularyProcessor(5, min_frequency=1)
    processor.fit(["b a c", "b a d", "b e"])
    vocabulary = processor.vocabulary_
    assert [vocabulary.reverse(i) for i in range(len(vocabulary))] == ["<UNK>", "b", "a"]
    np.testing.assert_array_equal(list(processor.transform(["a b c z"])), [[2, 1, 0, 0, 0]])


def test_tokenizer_splits_words_like_tf1():
    assert list(learn.preprocessing.tokenizer(["HTTPServer isn't well-known, OK?"])) == [
        ["HTTP", "Server", "isn't", "well-known", "OK"]]
    vocab = learn.preprocessing.CategoricalVocabulary(support_reverse=False)
    assert vocab.get("x") == 1 and vocab.get("y") == 2 and vocab.get("x") == 1
    vocab.freeze()
    assert vocab.get("z") == 0 and len(vocab) == 3
    with pytest.raises(ValueError, match="support_reverse=True"):
        vocab.reverse(1)


def test_save_and_restore_give_back_the_same_vocabulary(tmp_path):
    plain = VocabularyProcessor(3).fit(["red green", "green blue"])
    plain.save(str(tmp_path / "vocab"))
    restored = VocabularyProcessor.restore(str(tmp_path / "vocab"))
    assert type(restored) is VocabularyProcessor and restored.max_document_length == 3
    np.testing.assert_array_equal(list(restored.transform(["blue red pink"])), [[3, 1, 0]])


def test_restore_reads_a_pickle_that_names_tensorflows_modules(tmp_path):
    processor = VocabularyProcessor(2, min_frequency=0).fit(["up down", "down"])
    # TF1's pickle names its classes and tokenizer by tensorflow.contrib.learn.python.learn.preprocessing.*
    written = pickle.dumps(processor, protocol=0).replace(b"ctrainer.contrib.", b"ctensorflow.contrib.")
    assert b"tensorflow.contrib.learn.python.learn.preprocessing.text" in written
    (tmp_path / "vocab").write_bytes(written)
    restored = VocabularyProcessor.restore(str(tmp_path / "vocab"))
    np.testing.assert_array_equal(list(restored.transform(["down up left"])), [[2, 1]])


def test_byte_processor_rows_of_utf8_bytes():
    processor = learn.preprocessing.ByteProcessor(4)
    rows = list(processor.fit_transform(["ab", "héllo"]))
    np.testing.assert_array_equal(rows, [[97, 98, 0, 0], [104, 0xC3, 0xA9, 108]])
    assert list(processor.reverse(rows)) == ["ab", "hél"]


# RunConfig

def test_run_config_maps_contribs_arguments_onto_tf_estimators():
    default = learn.RunConfig()
    assert isinstance(default, tg.estimator.RunConfig)
    assert (default.save_checkpoints_secs, default.save_checkpoints_steps) == (600, None)
    assert (default.keep_checkpoint_max, default.save_summary_steps, default.environment) == (5, 100, "local")
    assert learn.RunConfig(save_checkpoints_steps=50).save_checkpoints_secs is None
    assert learn.RunConfig(save_checkpoints_secs=0).save_checkpoints_secs == 600  # contrib's 0 is the default
    assert learn.RunConfig(save_checkpoints_secs=1).save_checkpoints_secs == 1
    config = learn.RunConfig(num_cores=3, log_device_placement=True, gpu_memory_fraction=0.5, tf_random_seed=7,
                             model_dir="m")
    assert (config.tf_random_seed, config.model_dir, config.session_config) == (7, "m", None)
    assert config.tf_config.intra_op_parallelism_threads == config.tf_config.inter_op_parallelism_threads == 3
    assert config.tf_config.log_device_placement and config.tf_config.gpu_options.per_process_gpu_memory_fraction == 0.5
    assert config.replace(model_dir="n").model_dir == "n" and config.replace(model_dir="n").tf_config.log_device_placement
    with pytest.raises(NotImplementedError, match="master='grpc://host:2222'.*locally"):
        learn.RunConfig(master="grpc://host:2222")
    with pytest.raises(ValueError, match="cannot be both set"):
        learn.RunConfig(save_checkpoints_secs=5, save_checkpoints_steps=5)


# what is not here

@pytest.mark.parametrize("name, instead", [
    ("DNNLinearCombinedClassifier", "tf.estimator.DNNLinearCombinedClassifier"),
    ("Experiment", "train_and_evaluate"), ("learn_runner", "train_and_evaluate")])
def test_the_canned_estimators_and_the_loop_name_their_replacement(name, instead):
    with pytest.raises(NotInRingflow, match=rf"tf\.contrib\.learn\.{name} is not available in ringflow .*{instead}"):
        getattr(learn, name)


def test_tf1s_module_paths_resolve_as_tensorflow():
    text = tf1_module("tensorflow.contrib.learn.python.learn.preprocessing.text")
    assert text.VocabularyProcessor is VocabularyProcessor
    assert tf1_module("tensorflow.contrib.learn.python.learn.datasets").base is base
    model_fn = tf1_module("tensorflow.contrib.learn.python.learn.estimators.model_fn")
    assert model_fn.ModeKeys is learn.ModeKeys
