"""tg.app.run as TF1's tf.app.run: parse known flags, call main(rest of argv), exit with main's result."""
import argparse
import os
import subprocess
import sys
import textwrap
import types

import pytest

import trainer as tg

FLAGS = tg.app.flags.FLAGS


@pytest.fixture
def define():
    """Define flags on the global FLAGS for one test and remove them afterwards."""
    names = []

    def add(kind, name, *args, **kwargs):
        names.append(name)
        return getattr(tg.flags, "DEFINE_" + kind)(name, *args, **kwargs)
    yield add
    for name in names:
        if name in FLAGS:
            delattr(FLAGS, name)


def run(main, argv):
    with pytest.raises(SystemExit) as exit_info:
        tg.app.run(main=main, argv=argv)
    return exit_info.value.code


def test_main_gets_remaining_argv_and_its_result_is_the_exit_code(define):
    define("integer", "app_steps", 10, "steps")
    define("boolean", "app_fast", False, "fast")
    seen = {}

    def main(argv):
        seen.update(argv=argv, steps=FLAGS.app_steps, fast=FLAGS.app_fast)
        return 3
    assert run(main, ["prog", "--app_steps=4", "data.txt", "--app_fast"]) == 3
    assert seen == {"argv": ["prog", "data.txt"], "steps": 4, "fast": True}
    assert run(lambda argv: None, ["prog"]) is None


def test_undefined_flags_pass_through_to_main_as_tf1_does(define):
    define("integer", "app_steps", 10, "steps")
    seen = []
    assert run(lambda argv: seen.append(argv), ["prog", "--not_mine=1", "--app_steps", "2", "-x"]) is None
    assert seen == [["prog", "--not_mine=1", "-x"]] and FLAGS.app_steps == 2


def test_mnist_tutorial_argparse_pattern(define):
    define("float", "app_lr", 0.01, "learning rate")
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", default="/tmp/data")
    known, unparsed = parser.parse_known_args(["--data_dir", "/d", "--app_lr=0.5", "rest"])
    seen = []
    assert run(lambda argv: seen.append(argv), [sys.argv[0]] + unparsed) is None
    assert known.data_dir == "/d" and FLAGS.app_lr == 0.5 and seen == [[sys.argv[0], "rest"]]


def test_bad_value_is_a_fatal_one_line_error_with_exit_1(define, capsys):
    define("integer", "app_steps", 10, "steps")
    assert run(lambda argv: 0, ["prog", "--app_steps=ten"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("FATAL Flags parsing error: flag --app_steps='ten'") and "--helpfull" in err


def test_help_lists_flags_and_exits_0_even_when_a_required_flag_is_missing(define, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))  # a script with no docstring
    define("string", "app_data", None, "where the data is", required=True)
    for spelling in ("--help", "-h", "--helpshort", "-?"):
        assert run(lambda argv: 7, ["prog", spelling]) == 0
        out = capsys.readouterr().out
        assert out.startswith("\nUSAGE: prog [flags]\n") and "Try --helpfull" in out
        assert "--app_data: where the data is" in out
    assert run(lambda argv: 7, ["prog", "--helpfull"]) == 0
    assert "--[no]helpfull" in capsys.readouterr().out
    assert run(lambda argv: 7, ["prog"]) == 1
    assert "--app_data must have a value other than None" in capsys.readouterr().err


def test_main_defaults_to_main_of_the_main_module(monkeypatch):
    module = types.ModuleType("__main__")
    module.main = lambda argv: len(argv)
    monkeypatch.setitem(sys.modules, "__main__", module)
    assert run(None, ["prog", "a", "b"]) == 3
    del module.main
    with pytest.raises(AttributeError, match="define main"):
        tg.app.run(argv=["prog"])


def test_a_tf1_script_runs_unchanged(tmp_path):
    """The whole entry path in a fresh process: flags from sys.argv, logging's TF1 format and default level."""
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent('''
        import trainer as tf
        tf.app.flags.DEFINE_integer("steps", 2, "training steps")
        tf.app.flags.DEFINE_string("out", "", "output file")
        FLAGS = tf.app.flags.FLAGS

        def main(_):
            tf.logging.info("not shown: the default level is WARN")
            tf.logging.set_verbosity(tf.logging.INFO)
            x = tf.placeholder(tf.float32, shape=[None])
            with tf.Session() as sess:
                total = sess.run(tf.reduce_sum(x * FLAGS.steps), {x: [1.0, 2.0]})
            tf.logging.info("total %s", total)
            with tf.gfile.GFile(FLAGS.out, "w") as f:
                f.write(str(total))

        if __name__ == "__main__":
            tf.app.run()
    '''))
    out = tmp_path / "out.txt"
    env = dict(os.environ, PYTHONPATH=os.getcwd(), OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, str(script), "--steps=5", f"--out={out}"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert float(out.read_text()) == 15.0
    assert done.stderr.splitlines() == ["INFO:ringflow:total 15.0"]
