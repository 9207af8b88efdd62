"""What a collective is called in errors (`label`), and what a failed one says: the words for ranks that
disagree, time out or have left.

A communicator knows the facts (every rank's (label, shape, dtype, op), who answered the roll call, who sent an
exit notice); this module turns them into one message that names the ranks and what each was doing, and says
what to check. Kept apart so that communicator.py reads as the protocol, and the wording can be tested alone.
"""
import numpy as np

from .errors import CollectiveMismatch, CollectiveTimeout, RankExited
from .waiting import ranks_text


def label(what, kind):
    """The name a collective goes by in errors: what=, else its kind with an article ("an allreduce")."""
    if what is None:
        return ("an " if kind[0] in "aeiou" else "a ") + kind
    if not isinstance(what, str):
        raise ValueError(f"what= must be a string naming the collective (e.g. 'metric allreduce'), got {what!r}")
    return what


def mismatch(everyone, rank):
    """The error for ranks whose signatures differ; everyone[r] is rank r's (label, shape, dtype, op)."""
    where = f"raised at rank {rank}"
    labels = [key[0] for key in everyone]
    if len(set(labels)) > 1:
        groups = {}
        for r, text in enumerate(labels):
            groups.setdefault(text, []).append(r)
        parts = sorted(groups.items(), key=lambda item: (len(item[1]), item[1]))
        told = " while ".join(f"{ranks_text(ranks)} {'is' if len(ranks) == 1 else 'are'} in {text}"
                              for text, ranks in parts)
        return CollectiveMismatch(f"Ranks are in different collectives: {told} ({where}): every rank must call the "
                                  f"same collectives in the same order; does one rank run more steps or batches "
                                  f"than the others?", everyone, rank)
    for what, i in (("Op", 3), ("Dtype", 2), ("Shape", 1)):
        values = [key[i] for key in everyone]
        if len(set(values)) > 1:
            what = "Root rank" if i == 3 and isinstance(values[0], int) else what  # a broadcast's op is its root
            show = (lambda v: repr(np.dtype(v).name)) if i == 2 else repr
            others = ", ".join(f"{show(v)} at rank {r}" for r, v in enumerate(values) if v != values[0])
            return CollectiveMismatch(f"{what} does not match: {show(values[0])} at rank 0 while {others} "
                                      f"({where}, in {labels[0]}): every rank must pass the same {what.lower()}",
                                      everyone, rank)
    return RuntimeError(f"ranks disagree on the collective signature but not on what they called: {everyone!r}")


def crossed(rank, mine, peer, theirs):
    """The error for two ranks caught in different kinds of collective (shm.py); mine and theirs are (number,
    label), theirs None when the peer did not say."""
    said = (f"rank {peer} is in {theirs[1]} (its collective #{theirs[0]})" if theirs else
            f"rank {peer} is in another kind of collective")
    signatures = {rank: (mine[1], (), "", ""), peer: (theirs[1] if theirs else "another collective", (), "", "")}
    return CollectiveMismatch(f"Ranks are in different collectives: rank {rank} is in {mine[1]} (its collective "
                              f"#{mine[0]}) while {said} (raised at rank {rank}): every rank must call the same "
                              f"collectives in the same order; does one rank run more steps or batches than the "
                              f"others?", [signatures[r] for r in sorted(signatures)], rank)


def timed_out(rank, size, timeout, mine, answers):
    """(why the communicator is broken, the CollectiveTimeout to raise) for a rank that gave up on its
    collective mine = (its number, its label); answers: {rank: (number, label)} from the roll call."""
    calls, what = mine
    late = [q for q in range(size) if q != rank and q not in answers]
    same = [q for q, answer in sorted(answers.items()) if answer == mine]
    notes = [f"{ranks_text(same)} gave up on it too"] if same else []
    notes += [f"rank {q} gave up waiting in {text} (its collective #{n}, this is #{calls})"
              for q, (n, text) in sorted(answers.items()) if (n, text) != mine]
    who = f"waiting for {ranks_text(late)}" if late else "though every rank answered that it is waiting too"
    broken = f"{what} timed out at rank {rank} after {timeout:g} s {who}" + (f" ({'; '.join(notes)})" if notes else "")
    advice = ("is it stuck, dead, or skipping the collective? Raise the timeout (RINGFLOW_TIMEOUT) if it is just "
              "slow" if late else "the ranks are in different collectives or MPI lost a message")
    return broken, CollectiveTimeout(f"{broken}: {advice}.", rank=rank, waiting_for=late, what=what)


def departed(rank, mine, notices):
    """(why the communicator is broken, the RankExited to raise) for a rank whose collective mine = (its
    number, its label) cannot complete; notices: {rank that left: (its last collective's number, label)}."""
    calls, what = mine
    left = sorted(notices)
    if len(left) == 1:
        said = "rank {} ended its program after its collective #{}, {}".format(left[0], *notices[left[0]])
    else:
        said = f"{ranks_text(left)} ended their programs (" + "; ".join(
            f"rank {q} after its collective #{n}, {text}" for q, (n, text) in sorted(notices.items())) + ")"
    broken = f"{what} cannot complete at rank {rank} (its collective #{calls}): {said}"
    return broken, RankExited(f"{broken}: every rank must run the same collectives to the end; does "
                              f"{ranks_text(left)} run fewer steps or batches than the others, or exit early "
                              f"(sys.exit, return)?", rank=rank, waiting_for=left, what=what)
