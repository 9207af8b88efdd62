"""Recursive doubling with a signature header: the latency-optimal allreduce for small messages, and the
label/shape/dtype/op agreement every collective starts with.

Each message is [lo, hi | payload]: lo/hi are the smallest and largest signature (a digest of label, shape,
dtype and op) seen so far. Ranks combine headers with min/max, so after log2(N) rounds every rank knows whether all
N signatures agree - a mismatch raises on every rank instead of hanging, because every rank runs the same
rounds whatever it was passed. Payloads are combined only while the signatures agree, and only up to the
capacity every rank posts receives for, so a mismatched peer can never overrun a buffer.

N not a power of two (p = largest power of two <= N, rem = N - p): ranks 0..2rem-1 pair up, the even one hands
its data to the odd one and sits out; the p remaining ranks double; the odd ones hand the result back.
Partners combine as op(lower rank's value, higher rank's value), so both compute the same bits.
"""
import atexit

import numpy as np
from mpi4py import MPI

from .ops import UFUNCS

HEADER = 16  # bytes: int64 lo, int64 hi
# Payload bytes, also the ring's small-message crossover. Measured with the mpich wheel: with a core per
# rank the ring overtakes doubling at 64 KiB (N=2); with 3-4 ranks on 2 cores the crossover moved between
# 128 and 512 KiB from run to run (every ring step waits for a descheduled neighbour), so 128 KiB there.
CAPACITY = 64 * 1024
OVERSUBSCRIBED_FACTOR = 2
TAG = 17
MAX_PLANS = 64  # cached message sizes before the persistent requests are freed and rebuilt


class RecursiveDoubling:
    def __init__(self, communicator, capacity=CAPACITY):
        self.c = communicator
        self.capacity = capacity
        n, r = communicator.size, communicator.rank
        p = 1 << (n.bit_length() - 1)
        rem = n - p
        self.pre = self.post = None
        if r < 2 * rem and r % 2 == 0:
            self.pre, newrank = r + 1, None  # send to r+1 before, receive the result after
        elif r < 2 * rem:
            self.post, newrank = r - 1, r // 2
        else:
            newrank = r - rem
        real = lambda q: 2 * q + 1 if q < rem else q + rem
        self.partners = [] if newrank is None else [real(newrank ^ m) for m in _powers(p)]
        self.send = np.empty(HEADER + capacity, np.uint8)
        self.recv = np.empty(HEADER + capacity, np.uint8)
        self.shdr, self.rhdr = self.send[:HEADER].view(np.int64), self.recv[:HEADER].view(np.int64)
        self.smv, self.rmv = memoryview(self.send)[:HEADER], memoryview(self.recv)[:HEADER]
        self.steps = ([self.post] if self.post is not None else []) + self.partners
        self.last, self.cache = None, {}
        atexit.register(self.close)

    def run(self, signature, src=None, op="sum", dst=None):
        """Agree on signature; with src (nbytes <= capacity) also reduce it over all ranks into dst."""
        c, rank, wait, start = self.c, self.c.rank, self.c.wait, MPI.Prequest.Startall
        if signature != self.last:
            self.shdr[0] = self.shdr[1] = self.last = signature
        acc, theirs, to_pre, rounds, to_post, from_pre = self._plan(src)
        if acc is not None:
            acc[...] = src
        ufunc, agreed = UFUNCS[op], True
        if to_pre:
            start(to_pre)
            wait(to_pre)
        final = self.steps[-1] if self.steps and self.post is None else None
        for peer, reqs in rounds:
            start(reqs)
            wait(reqs, recvs=1)
            if agreed and self.rmv == self.smv:  # same header: same signature, hence same size
                if acc is not None:  # the last combination writes straight into dst
                    res = dst if peer == final else acc
                    ufunc(theirs, acc, out=res) if peer < rank else ufunc(acc, theirs, out=res)
            else:  # spread the smallest and largest signature seen, so every rank learns of the mismatch
                agreed = False
                self.shdr[0] = min(int(self.shdr[0]), int(self.rhdr[0]))
                self.shdr[1] = max(int(self.shdr[1]), int(self.rhdr[1]))
        if to_post:
            start(to_post)
            wait(to_post)
        if from_pre:
            start(from_pre)
            wait(from_pre, recvs=1)
            agreed = self.shdr[0] == self.shdr[1] == signature
        if not agreed:
            self.shdr[0] = self.shdr[1] = self.last = signature
            c.raise_mismatch()
        if acc is not None and final is None:
            dst[...] = acc

    def _plan(self, src):
        """Payload views and persistent requests for this message size: a call then only starts and tests."""
        nbytes, dtype = (0, None) if src is None else (src.nbytes, src.dtype)
        plan = self.cache.get((nbytes, dtype))
        if plan is None:
            if len(self.cache) >= MAX_PLANS:
                self.close()
            comm, end = self.c.comm, HEADER + nbytes
            message = self.send[:end]
            views = (None, None) if dtype is None else (self.send[HEADER:end].view(dtype),
                                                       self.recv[HEADER:end].view(dtype))
            send, recv = (lambda peer: comm.Send_init(message, peer, TAG)), (lambda peer: comm.Recv_init(self.recv, peer, TAG))
            rounds = [(p, [recv(p)] if p == self.post else [recv(p), send(p)]) for p in self.steps]
            plan = self.cache[(nbytes, dtype)] = views + (
                [send(self.pre)] if self.pre is not None else [], rounds,
                [send(self.post)] if self.post is not None else [],
                [comm.Recv_init(self.send, self.pre, TAG)] if self.pre is not None else [])
        return plan

    def close(self):
        """Free the persistent requests (MPI complains about ones still allocated at finalize)."""
        for _, _, to_pre, rounds, to_post, from_pre in self.cache.values():
            for req in to_pre + to_post + from_pre + [r for _, reqs in rounds for r in reqs]:
                if req:
                    req.Free()
        self.cache.clear()


def _powers(p):
    m = 1
    while m < p:
        yield m
        m <<= 1

