"""rank_start.py, in front of every rank: it reports the rank's pids and host, passes signals on, reports how the
program ended and ends the same way, and takes the program with it when it is killed."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from trainer.program.launch import rank_start

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG) is Linux's")


def start(*program, **env):
    return subprocess.Popen([sys.executable, "-I", rank_start.__file__, *program], stderr=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=dict(os.environ, PMI_RANK="3", **env))


def finish(proc):
    out, err = proc.communicate(timeout=30)
    m = re.search(r"^@ringflow-rank 3 (\d+) (\d+) (\S+)$", err, re.M)  # a child may write first
    assert m and int(m.group(1)) == proc.pid and m.group(3) == os.uname().nodename, err
    return proc.returncode, out, err, int(m.group(2))


@pytest.mark.parametrize("program, code, reported", [
    ("exit 3", 3, "@ringflow-exit 3 code 3"),
    ("echo hi", 0, "@ringflow-exit 3 code 0"),
    ("kill -9 $$", -9, "@ringflow-exit 3 signal 9"),
    ("kill -USR1 $$", -signal.SIGUSR1, f"@ringflow-exit 3 signal {int(signal.SIGUSR1)}"),
])
def test_it_ends_as_the_program_does_and_says_how(program, code, reported):
    returncode, out, err, _ = finish(start("sh", "-c", program))
    assert returncode == code and err.endswith(reported + "\n"), err
    assert out == ("hi\n" if "echo" in program else "")


def test_signals_are_passed_on():
    proc = start(sys.executable, "-c", "import signal, sys, time\n"
                 "signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))\nprint('ready', flush=True)\ntime.sleep(30)")
    assert proc.stdout.readline() == "ready\n"
    proc.send_signal(signal.SIGTERM)
    returncode, _, err, _ = finish(proc)
    assert returncode == 143 and err.endswith("@ringflow-exit 3 code 143\n"), "the program's handler ran"


def test_a_missing_program():
    returncode, _, err, _ = finish(start("no-such-program-here"))
    assert returncode == 127 and "ringflow run: rank 3 cannot run 'no-such-program-here'" in err


def test_no_rank_is_left_behind():
    proc = start("sleep", "30")
    while "@ringflow-rank" not in (line := proc.stderr.readline()):
        pass
    child = int(line.split()[3])
    proc.kill()
    proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{child}") and open(f"/proc/{child}/stat").read().split()[2] != "Z":
        assert time.monotonic() < deadline, "the program outlived rank_start"
        time.sleep(0.01)
