"""Before step 1 the ranks of a job agree: on the flags, on the data, and on whether any of them failed.

Every rank checks its configuration and data on its own, then all exchange (one gather) their error, if any,
and a few facts (every flag that changes what the ranks compute, the dataset's size and a fingerprint, the
steps to run). A mismatch or a failure anywhere becomes a JobError on every rank at once: rank 0 prints it
once, naming the flag or dataset and the ranks, and every rank exits with the same code, so `-n 8` prints a
configuration error once instead of eight times, and no rank is left waiting for a partner that quit.
"""
import json


class JobError(Exception):
    """A failure every rank of the job learnt at the same point: rank 0 prints `lines` (each after
    "ringflow: "), and every rank exits with `code`."""

    def __init__(self, lines, code=1):
        self.lines = [lines] if isinstance(lines, str) else list(lines)
        self.code = code
        super().__init__("\n".join(self.lines))


def agree(communicator, error=None, facts=None):
    """Collective: raise JobError on every rank when some rank had `error` (an exception, or None) or the
    ranks' `facts` ({what: JSON-able value}, what naming a flag, e.g. "--steps") differ."""
    everyone = communicator.allgather_json({"error": describe(error) if error is not None else None,
                                            "facts": facts or {}}, what="the agreement before step 1")
    errors = [entry["error"] for entry in everyone]
    if any(error is not None for error in errors):
        raise JobError(error_lines(errors)) from error
    disagreement = compare([entry["facts"] for entry in everyone])
    if disagreement:
        raise JobError(disagreement)


def describe(exc):
    """One line for an exception: a ValueError's message says it all; others keep their type's name."""
    return str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"


def error_lines(errors):
    """One line per distinct error; 'error: ...' alone when every rank had the same one."""
    if len(errors) == 1 or (None not in errors and len(set(errors)) == 1):
        return [f"error: {errors[0]}"]
    return [f"error on {ranks_text(ranks)}: {text}" for text, ranks in groups(errors).items() if text is not None]


def compare(facts):
    """The first fact (in rank 0's order) the ranks disagree on, as a sentence, or None."""
    for what in facts[0]:
        values = [json.dumps(f.get(what), sort_keys=True) for f in facts]
        if len(set(values)) > 1:
            told = ", ".join(f"{text} on {ranks_text(ranks)}" for text, ranks in groups(values).items())
            return (f"error: the ranks disagree on {what}: {told}; every rank must run the same command on the same "
                    "data (check the launcher's command line and each node's files)")
    return None


def groups(values):
    """{value: [ranks]} in order of first appearance."""
    found = {}
    for rank, value in enumerate(values):
        found.setdefault(value, []).append(rank)
    return found


def ranks_text(ranks):
    return f"rank {ranks[0]}" if len(ranks) == 1 else f"ranks {', '.join(map(str, ranks))}"
