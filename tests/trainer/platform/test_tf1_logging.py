"""tg.logging as TF1's tf.logging: levels, thresholds, and the every-n / first-n call-site counters."""
import logging

import pytest

import trainer as tg


@pytest.fixture
def records(caplog):
    """The ringflow records logged during the test, with the verbosity restored afterwards."""
    level = tg.logging.get_verbosity()
    caplog.set_level(logging.DEBUG)  # the capture handler takes everything; our logger's level decides
    tg.logging.set_verbosity(tg.logging.DEBUG)
    yield lambda: [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "ringflow"]
    tg.logging.set_verbosity(level)


def test_levels_are_tf1s():
    log = tg.logging
    assert (log.DEBUG, log.INFO, log.WARN, log.WARNING, log.ERROR, log.FATAL) == (10, 20, 30, 30, 40, 50)
    assert tg.get_logger() is logging.getLogger("ringflow")


def test_threshold(records):
    tg.logging.set_verbosity(tg.logging.WARN)
    assert tg.logging.get_verbosity() == 30
    tg.logging.info("hidden")
    tg.logging.debug("hidden")
    tg.logging.warn("w %d", 1)
    tg.logging.warning("w %d", 2)
    tg.logging.error("e")
    tg.logging.fatal("f")  # TF1's fatal logs and returns
    tg.logging.log(tg.logging.INFO, "hidden")
    tg.logging.vlog(tg.logging.ERROR, "v")
    tg.logging.TaskLevelStatusMessage("status")
    tg.logging.flush()
    assert records() == [(30, "w 1"), (30, "w 2"), (40, "e"), (50, "f"), (40, "v"), (40, "status")]


def test_every_n_and_first_n_count_per_call_site(records):
    for i in range(7):
        tg.logging.log_every_n(tg.logging.INFO, "every %d", 3, i)
        tg.logging.log_first_n(tg.logging.INFO, "first %d", 2, i)
    for i in range(2):
        tg.logging.log_first_n(tg.logging.INFO, "other site %d", 1, i)
    expected = [(20, "every 0"), (20, "first 0"), (20, "first 1"), (20, "every 3"), (20, "every 6"),
                (20, "other site 0")]
    assert records() == expected


def test_log_if_and_bad_n(records):
    tg.logging.log_if(tg.logging.INFO, "yes %s", True, "a")
    tg.logging.log_if(tg.logging.INFO, "no", False)
    assert records() == [(20, "yes a")]
    with pytest.raises(ValueError, match="n must be a positive count of calls, got 0"):
        tg.logging.log_every_n(tg.logging.INFO, "x", 0)
