"""Kernels that numpy computes on the host whatever the session's device: the special functions, the codecs, the
factorizations and the index arithmetic ringflow has no device kernel for. Their inputs are copied to the host and
their outputs back (one round trip per run, which these rarely used ops can afford)."""


def on_host(forward):
    """The kernel= factory of an op whose `forward(*arrays, **attrs)` works on numpy arrays only."""
    def make(op, session):
        attrs, to_host, to_device = op.attrs, session.to_host, session.to_device

        def run(*arrays):
            out = forward(*[to_host(a) for a in arrays], **attrs)
            return tuple(to_device(o) for o in out) if isinstance(out, tuple) else to_device(out)
        return run
    return make
