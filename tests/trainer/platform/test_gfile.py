"""tg.gfile (TF1's file API) against the os module as the oracle, with TF1's errors for failures."""
import os
import pathlib

import pytest

import trainer as tg
from trainer.platform import errors, gfile


def test_text_and_binary_modes(tmp_path):
    path = str(tmp_path / "f.txt")
    with gfile.GFile(path, "w") as f:
        f.write("héllo\n")
        f.write(b"second\nthird")
    assert pathlib.Path(path).read_bytes() == "héllo\nsecond\nthird".encode()
    with gfile.GFile(path) as f:
        assert f.read() == "héllo\nsecond\nthird"
    with gfile.GFile(path, "rb") as f:
        assert f.read(2) == b"h\xc3" and f.tell() == 2
        f.seek(0)
        assert f.readline() == "héllo\n".encode() and f.size() == len("héllo\nsecond\nthird".encode())
    assert list(gfile.GFile(path)) == ["héllo\n", "second\n", "third"]
    assert gfile.GFile(path).readlines() == ["héllo\n", "second\n", "third"]
    with gfile.Open(path, "a") as f:
        f.write("!")
    assert gfile.FastGFile(path, "r").read().endswith("third!")


def test_file_errors_are_tf1s_and_name_the_path(tmp_path):
    missing = str(tmp_path / "missing.txt")
    with pytest.raises(errors.NotFoundError, match="missing.txt") as info:
        gfile.GFile(missing).read()
    assert isinstance(info.value, errors.OpError) and info.value.error_code == 5
    (tmp_path / "r.txt").write_text("x")
    with pytest.raises(errors.PermissionDeniedError, match="does not allow writing"):
        gfile.GFile(str(tmp_path / "r.txt"), "r").write("y")
    with pytest.raises(errors.PermissionDeniedError, match="does not allow reading"):
        gfile.GFile(str(tmp_path / "w.txt"), "w").read()
    with pytest.raises(errors.InvalidArgumentError, match="'rw'"):
        gfile.GFile(missing, "rw")
    for call in (gfile.Remove, gfile.Stat, gfile.ListDirectory, gfile.DeleteRecursively):
        with pytest.raises(errors.NotFoundError, match="missing.txt"):
            call(missing)


def test_remote_schemes_are_refused_by_name(tmp_path):
    for url in ("gs://bucket/x", "hdfs://nn/x", "s3://b/x"):
        with pytest.raises(errors.UnimplementedError, match=repr(url.split("//")[0] + "//")):
            gfile.Exists(url)
    local = tmp_path / "a.txt"
    local.write_text("z")
    assert gfile.Exists("file://" + str(local)) and gfile.GFile("file://" + str(local)).read() == "z"


def test_directories(tmp_path):
    root = tmp_path / "r"
    gfile.MakeDirs(str(root / "a" / "b"))
    gfile.MakeDirs(str(root / "a" / "b"))  # existing is fine
    gfile.MkDir(str(root / "c"))
    with pytest.raises(errors.AlreadyExistsError, match="'.*c'"):
        gfile.MkDir(str(root / "c"))
    (root / "a" / "f1").write_text("1")
    (root / "a" / "b" / ".hidden").write_text("22")
    assert gfile.IsDirectory(str(root / "a")) and not gfile.IsDirectory(str(root / "a" / "f1"))
    assert gfile.Exists(root / "a" / "f1") and not gfile.Exists(str(root / "nope"))
    assert sorted(gfile.ListDirectory(str(root))) == sorted(os.listdir(root)) == ["a", "c"]
    walked = {(os.path.relpath(d, root), tuple(sorted(s)), tuple(sorted(f))) for d, s, f in gfile.Walk(str(root))}
    assert walked == {(".", ("a", "c"), ()), ("a", ("b",), ("f1",)), ("a/b", (), (".hidden",)), ("c", (), ())}
    assert list(gfile.Walk(str(root / "nope"))) == []
    assert gfile.Glob(str(root / "a" / "*")) == [str(root / "a" / "b"), str(root / "a" / "f1")]
    assert gfile.Glob([str(root / "a" / "b" / "*"), str(root / "c*")]) == [str(root / "a" / "b" / ".hidden"),
                                                                           str(root / "c")]
    stat = gfile.Stat(str(root / "a" / "b" / ".hidden"))
    assert (stat.length, stat.is_directory, stat.mtime_nsec) == (2, False,
                                                                 os.stat(root / "a" / "b" / ".hidden").st_mtime_ns)
    assert gfile.Stat(str(root)).is_directory
    gfile.DeleteRecursively(str(root / "a"))
    assert sorted(os.listdir(root)) == ["c"]


def test_rename_and_copy_respect_overwrite(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_text("new")
    dst.write_text("old")
    for move in (gfile.Copy, gfile.Rename):
        with pytest.raises(errors.AlreadyExistsError, match="dst.*overwrite=True"):
            move(str(src), str(dst))
        assert dst.read_text() == "old"
    gfile.Copy(str(src), str(dst), overwrite=True)
    assert dst.read_text() == "new" and src.exists()
    gfile.Rename(str(src), str(tmp_path / "moved"))
    assert not src.exists() and (tmp_path / "moved").read_text() == "new"
    gfile.Remove(str(dst))
    assert not dst.exists()


def test_snake_case_names_and_exports():
    assert tg.gfile is gfile
    pairs = [("copy", "Copy"), ("exists", "Exists"), ("glob", "Glob"), ("isdir", "IsDirectory"),
             ("listdir", "ListDirectory"), ("makedirs", "MakeDirs"), ("mkdir", "MkDir"), ("remove", "Remove"),
             ("rename", "Rename"), ("rmtree", "DeleteRecursively"), ("stat", "Stat")]
    assert all(getattr(gfile, snake) is getattr(gfile, camel) for snake, camel in pairs)
    assert tg.io.gfile is gfile


def test_walk_bottom_up_and_onerror(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    order = [os.path.relpath(d, tmp_path) for d, _, _ in gfile.walk(str(tmp_path), topdown=False)]
    assert order == ["a/b", "a", "."]
    seen = []
    assert list(gfile.walk(str(tmp_path / "nope"), onerror=seen.append)) == []
    assert len(seen) == 1 and isinstance(seen[0], errors.NotFoundError)


def test_join_joins_local_paths_as_os_and_urls_with_slashes():
    assert gfile.join("a", "b/", "c") == os.path.join("a", "b/", "c")
    assert gfile.join("a", "/b") == "/b"  # an absolute part restarts the path, as os.path.join does
    assert gfile.join("gs://bucket", "dir", "f") == "gs://bucket/dir/f"
    assert gfile.get_registered_schemes() == ["", "file"]
    assert tg.io.gfile.join is gfile.join
