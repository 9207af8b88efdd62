"""tf.autograph: the directives and decorators a TF1 program may carry do what TF's do on unconverted code, and the
converters say what to write instead."""
import pytest

import trainer as tg
from trainer.unsupported import NotInRingflow


def test_do_not_convert_gives_the_function_back_with_or_without_arguments():
    def double(x):
        return 2 * x

    assert tg.autograph.experimental.do_not_convert(double) is double
    decorate = tg.autograph.experimental.do_not_convert()
    assert decorate(double)(3) == 6


def test_directives_leave_the_program_as_it_is(capsys):
    tg.autograph.experimental.set_loop_options(maximum_iterations=3, parallel_iterations=2)
    tg.autograph.set_verbosity(10, alsologtostdout=True)
    tg.autograph.set_verbosity(0)
    tg.autograph.trace("step", 1)
    assert capsys.readouterr().out == "step 1\n"
    assert [f.value for f in tg.autograph.experimental.Feature] == [
        "ALL", "AUTO_CONTROL_DEPS", "ASSERT_STATEMENTS", "BUILTIN_FUNCTIONS", "EQUALITY_OPERATORS", "LISTS",
        "NAME_SCOPES"]  # TF 2.15's members, in its order


def test_conversion_says_what_to_write_instead():
    with pytest.raises(NotInRingflow, match="to_graph is not available.*tf.while_loop.*tf.cond"):
        tg.autograph.to_graph(abs)
    assert not hasattr(tg.autograph, "to_code")
