"""Host lists: `-H a:2,b:2`, host files (Open MPI's `a slots=2`, Hydra's `a:2`, one bare name per slot), Slurm's
SLURM_JOB_NODELIST / SLURM_TASKS_PER_NODE, and where each rank lands on them.

A host list is a list of (name, slots) pairs in the order given; a name given twice has its slots added up.
"""
import itertools
import re

_SLOTS = re.compile(r"^slots\s*=\s*(\d+)$")
_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")
_BRACKETS = re.compile(r"\[([^\]]*)\]")


def merged(pairs):
    """(name, slots) pairs with repeated names folded into their first place."""
    total = {}
    for name, slots in pairs:
        total[name] = total.get(name, 0) + slots
    return list(total.items())


def parse_host_list(text, flag="-H"):
    """`a:2,b:2` (or `a,b`, one slot each) as [("a", 2), ("b", 2)]; ValueError naming `flag` if malformed."""
    pairs = []
    for item in text.split(","):
        name, colon, slots = item.strip().partition(":")
        if not _plain(name) or (colon and not slots.isdigit()) or slots == "0":
            raise ValueError(f"{flag} {text!r}: {item.strip()!r} is not HOST or HOST:SLOTS (slots a whole number "
                             f"> 0); write it as a:2,b:2")
        pairs.append((name, int(slots) if slots else 1))
    return merged(pairs)


def read_hostfile(path):
    """A host file's (name, slots): lines `host slots=N` (Open MPI, Horovod), `host:N` (Hydra) or `host` (one
    slot; repeated lines add up); `#` starts a comment. ValueError naming the file and line if malformed."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise ValueError(f"--hostfile {path!r}: {exc.strerror}") from None
    pairs = []
    for number, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            pairs.append(_hostfile_entry(words))
        except ValueError:
            raise ValueError(f"--hostfile {path!r} line {number}: {line.strip()!r} is not `host`, `host:N` or "
                             f"`host slots=N`") from None
    if not pairs:
        raise ValueError(f"--hostfile {path!r} names no host")
    return merged(pairs)


def _hostfile_entry(words):
    name, colon, slots = words[0].partition(":")
    extra = [_SLOTS.match(w) for w in words[1:] if not w.startswith("max_slots")]
    if not _plain(name) or (colon and not slots.isdigit()) or (colon and extra) or not all(extra) or len(extra) > 1:
        raise ValueError(words)
    count = int(extra[0].group(1)) if extra else int(slots or 1)
    if count == 0:
        raise ValueError(words)
    return name, count


def _plain(name):
    return re.fullmatch(r"[A-Za-z0-9_.\-]+", name) is not None


def expand_nodelist(text):
    """Slurm's compressed node list, `node[01-03,07],gpu1`, as ["node01", "node02", "node03", "node07", "gpu1"]."""
    names = []
    for item in _split_top(text):
        parts = _BRACKETS.split(item)  # literal, ranges, literal, ranges, ..., literal
        choices = [[part] if i % 2 == 0 else _expand_ranges(part, text) for i, part in enumerate(parts)]
        names.extend("".join(combo) for combo in itertools.product(*choices))
    return names


def _split_top(text):
    """Split at the commas that are not inside brackets."""
    items, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += (char == "[") - (char == "]")
        if char == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return [item for item in items if item]


def _expand_ranges(ranges, text):
    out = []
    for piece in ranges.split(","):
        m = _RANGE.match(piece)
        if not m:
            raise ValueError(f"SLURM_JOB_NODELIST={text!r}: cannot read the range {piece!r}")
        first, last = m.group(1), m.group(2) or m.group(1)
        out.extend(str(n).zfill(len(first)) for n in range(int(first), int(last) + 1))
    return out


def expand_tasks_per_node(text):
    """SLURM_TASKS_PER_NODE, `2(x3),1`, as [2, 2, 2, 1]."""
    counts = []
    for item in text.split(","):
        m = re.fullmatch(r"(\d+)(?:\(x(\d+)\))?", item.strip())
        if not m:
            raise ValueError(f"SLURM_TASKS_PER_NODE={text!r}: cannot read {item!r}")
        counts += [int(m.group(1))] * int(m.group(2) or 1)
    return counts


def slots(hosts):
    return sum(n for _, n in hosts)


def render(hosts):
    """The host list as `a:2,b:2`."""
    return ",".join(f"{name}:{n}" for name, n in hosts)


def placement(hosts, np, cyclic=False):
    """The host of each of `np` ranks: block fills each host's slots in turn (rank 0..slots-1 on the first),
    cyclic deals one rank to each host in turn; past the slots both start over, as Hydra does."""
    order = []
    if cyclic:
        for layer in range(max(n for _, n in hosts)):
            order += [name for name, n in hosts if layer < n]
    else:
        for name, n in hosts:
            order += [name] * n
    return [order[r % len(order)] for r in range(np)]
