"""Host lists of `ringflow run`: -H, the three host-file dialects, Slurm's compressed node and task lists, and
where each rank lands (block as -hosts/-H fill slots, cyclic as -ppn 1 / --map-by node, wrapping past the slots
as Hydra does)."""
import pytest

from trainer.program.launch import hosts


def test_host_list():
    assert hosts.parse_host_list("a:2,b:2") == [("a", 2), ("b", 2)]
    assert hosts.parse_host_list("a,b") == [("a", 1), ("b", 1)]
    assert hosts.parse_host_list("node-1.example.org:8") == [("node-1.example.org", 8)]
    assert hosts.parse_host_list("a:1,b:2,a:3") == [("a", 4), ("b", 2)], "a name given twice adds its slots"


@pytest.mark.parametrize("text", ["", "a:", "a:0", "a:two", ":2", "a:2,,b", "a b:2", "a:-1"])
def test_bad_host_lists_are_refused_naming_the_flag(text):
    with pytest.raises(ValueError, match=r"-H .*is not HOST or HOST:SLOTS"):
        hosts.parse_host_list(text)


def test_hostfile_dialects(tmp_path):
    path = tmp_path / "hosts"
    path.write_text("# Open MPI / Horovod\nalpha slots=4 max_slots=8\n\n"
                    "beta:2   # Hydra\n"
                    "gamma\ngamma\n")
    assert hosts.read_hostfile(str(path)) == [("alpha", 4), ("beta", 2), ("gamma", 2)]


@pytest.mark.parametrize("line", ["alpha slots=x", "alpha slots=0", "alpha:2 slots=3", "alpha cores=2", "a:b"])
def test_bad_hostfile_lines_are_named(tmp_path, line):
    path = tmp_path / "hosts"
    path.write_text(f"ok:1\n{line}\n")
    with pytest.raises(ValueError, match=rf"line 2: {line!r}"):
        hosts.read_hostfile(str(path))


def test_missing_or_empty_hostfile(tmp_path):
    with pytest.raises(ValueError, match="No such file"):
        hosts.read_hostfile(str(tmp_path / "nope"))
    (tmp_path / "empty").write_text("# nothing\n")
    with pytest.raises(ValueError, match="names no host"):
        hosts.read_hostfile(str(tmp_path / "empty"))


@pytest.mark.parametrize("text, names", [
    ("node07", ["node07"]),
    ("node[01-03,07],gpu1", ["node01", "node02", "node03", "node07", "gpu1"]),
    ("a[8-11]", ["a8", "a9", "a10", "a11"]),
    ("rack[1-2]-n[1,3]", ["rack1-n1", "rack1-n3", "rack2-n1", "rack2-n3"]),
])
def test_slurm_nodelist(text, names):
    assert hosts.expand_nodelist(text) == names


def test_slurm_tasks_per_node():
    assert hosts.expand_tasks_per_node("2(x3),1") == [2, 2, 2, 1]
    assert hosts.expand_tasks_per_node("4") == [4]
    with pytest.raises(ValueError, match="SLURM_TASKS_PER_NODE"):
        hosts.expand_tasks_per_node("2(3)")


def test_placement():
    pool = [("a", 2), ("b", 1), ("c", 2)]
    assert hosts.placement(pool, 5) == ["a", "a", "b", "c", "c"]
    assert hosts.placement(pool, 5, cyclic=True) == ["a", "b", "c", "a", "c"]
    assert hosts.placement(pool, 3) == ["a", "a", "b"]
    assert hosts.placement([("a", 1), ("b", 1)], 3) == ["a", "b", "a"], "past the slots, Hydra starts over"
    assert hosts.render(pool) == "a:2,b:1,c:2" and hosts.slots(pool) == 5
