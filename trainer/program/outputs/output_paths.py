"""The output paths of `ringflow train`, checked before step 1 instead of when first written.

Without --checkpoint-every-steps the first write is after the last step, so a read-only or misspelt path would
cost the whole run. The chief (it alone writes) makes each output's directory and writes a probe file there;
any failure is one line naming the flag. It also clears the temporary files a killed run left behind: every
writer here writes `<path>.tmp-<pid>` (or `<path>.tmp`) and renames it into place.
"""
import contextlib
import os
import re
import tempfile

from ..config_checks import ConfigError
from ...platform.footprint import human

DIRECTORIES = ("checkpoint_dir", "logdir")  # Config fields naming a directory
FILES = ("save_final", "metrics_json", "timeline")  # Config fields naming a file
_TEMP = re.compile(r"^(?P<stem>.+)\.tmp(?:-(?P<pid>\d+))?$")


def flag(field):
    return "--" + field.replace("_", "-")


def outputs(config):
    """{flag: path} of every output the run will write."""
    return {flag(f): getattr(config, f) for f in DIRECTORIES + FILES if getattr(config, f, None) is not None}


def check_outputs(config):
    """Make sure every output of `config` can be written (ConfigError naming the flag if not); returns the
    lines reporting stale temporary files removed."""
    removed = []
    for field in DIRECTORIES:
        path = getattr(config, field, None)
        if path is not None:
            check_directory(flag(field), path)
    for field in FILES:
        path = getattr(config, field, None)
        if path is not None:
            check_file(flag(field), path)
            removed += remove_stale_temps(flag(field), os.path.dirname(os.path.abspath(path)),
                                          os.path.basename(path))
    return removed


def check_directory(name, path, given=None, what="the directory"):
    """Create directory `path` if needed and write a probe file in it; errors name flag `name` and the value
    the user gave (`given`, default path)."""
    told = f"{name} {(path if given is None else given)!r}"
    if not path:
        raise ConfigError(f"{told}: an empty path; give a directory, or leave the flag out")
    if os.path.exists(path) and not os.path.isdir(path):
        raise ConfigError(f"{told if given is None else f'{told}: {what}'} is a file, not a directory; give a "
                          + ("directory path" if given is None else "path in a directory"))
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{told}: cannot create {what} ({_reason(exc)}); give a path where this user can "
                          "create directories") from None
    try:
        fd, probe = tempfile.mkstemp(prefix=".ringflow-probe-", dir=path)
        os.close(fd)
        os.remove(probe)
    except OSError as exc:
        raise ConfigError(f"{told}: cannot write in {what} ({_reason(exc)}); give a writable path") from None


def check_file(name, path):
    """Make sure file `path` can be written: its directory as check_directory, and not a directory itself."""
    if not path:
        raise ConfigError(f"{name} {path!r}: an empty path; give a file path, or leave the flag out")
    if os.path.isdir(path):
        raise ConfigError(f"{name} {path!r} is a directory; give a file path such as {os.path.join(path, 'out')!r}")
    parent = os.path.dirname(os.path.abspath(path))
    check_directory(name, parent, path, f"its directory {parent!r}")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise ConfigError(f"{name} {path!r}: the file exists and is not writable; remove it or give another path")


def remove_stale_temps(name, directory, stem=None):
    """Remove `<stem>.tmp[-<pid>]` files in directory (any stem when None) whose writer is not running here;
    returns one line per file removed. Give stem=None only for a directory this job has locked."""
    lines = []
    if not os.path.isdir(directory):
        return lines
    for entry in sorted(os.listdir(directory)):
        match = _TEMP.match(entry)
        if not match or (stem is not None and match["stem"] != stem):
            continue
        pid = match["pid"]
        if stem is not None and pid is not None and _alive(int(pid)):
            continue  # a running job on this host is writing it
        path = os.path.join(directory, entry)
        try:
            size = os.path.getsize(path)
            os.remove(path)
        except OSError:
            continue
        lines.append(f"ringflow: removed {path!r} ({human(size)}), a temporary file of {name} left by an "
                     "interrupted run")
    return lines


@contextlib.contextmanager
def naming_the_flag(config):
    """Re-raise an OSError about one of config's outputs as one naming its flag (see name_the_flag)."""
    try:
        yield
    except OSError as exc:
        named = name_the_flag(exc, config)
        if named is None:
            raise
        raise named from exc


def name_the_flag(exc, config):
    """An OSError raised while writing an output, re-worded to name its flag and final path; None when the
    error is not about one of the outputs."""
    filename = getattr(exc, "filename", None)
    if not isinstance(filename, str):
        return None
    target = os.path.abspath(filename)
    match = _TEMP.match(os.path.basename(target))
    if match:
        target = os.path.join(os.path.dirname(target), match["stem"])
    for name, path in outputs(config).items():
        root = os.path.abspath(path)
        if target == root or target.startswith(root + os.sep):
            return OSError(f"{name} {path!r}: writing {target!r} failed ({_reason(exc)})")
    return None


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _reason(exc):
    return exc.strerror or type(exc).__name__
