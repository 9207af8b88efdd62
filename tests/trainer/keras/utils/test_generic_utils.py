"""Keras' Progbar lines."""
import re

from trainer.keras.utils import Progbar


def test_progbar_verbose_1_draws_the_bar_eta_and_the_averages(capsys):
    bar = Progbar(10, verbose=1, interval=0)
    bar.update(4, [("loss", 1.0)])
    bar.update(10, [("loss", 2.0)])
    drawn = capsys.readouterr().out.split("\r")[1:]
    assert re.fullmatch(r" 4/10 \[===========>\.{18}\] - ETA: \ds - loss: 1\.0000", drawn[0])
    # the average weights each value by the steps it covers: (4 * 1 + 6 * 2) / 10
    assert re.fullmatch(r"10/10 \[={30}\] - \ds \d+[mu]?s/step - loss: 1\.6000\n", drawn[1])


def test_progbar_verbose_2_prints_one_line_at_the_end(capsys):
    bar = Progbar(3, verbose=2, unit_name="sample")
    bar.update(1, [("acc", 0.5)])
    assert capsys.readouterr().out == ""
    bar.update(3, [("acc", 1e-5)])
    assert re.fullmatch(r"3/3 - \ds - acc: 0\.1667\n", capsys.readouterr().out)  # (0.5 + 2e-5) / 3
    bar = Progbar(3, verbose=2, stateful_metrics=["acc"])
    bar.update(3, [("acc", 1e-5)])
    assert re.fullmatch(r"3/3 - \ds - acc: 1\.0000e-05\n", capsys.readouterr().out)
