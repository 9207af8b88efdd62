"""Complex numbers: complex (from real and imaginary parts), real, imag, conj and angle, with TF1's gradients (for
a function of complex values TF's gradient is the conjugate-linear one: d/dz of real(z) passes g back as g + 0j)."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.registry import apply_op, broadcast_shapes, register
from .core_ops import convert_to_tensor
from .math_ops import binary_operands, unbroadcast, where, zeros_like
from .tensor_util import static_shape

COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}
REAL_OF = {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}


def _complex_grad(op, g):
    return [unbroadcast(real(g), op.inputs[0]), unbroadcast(imag(g), op.inputs[1])]


def _angle_grad(op, g):
    x = op.inputs[0]
    z = 1.0 / complex(imag(x), real(x))
    return [-complex(g, zeros_like(g)) * z]


register("Complex", kernel=host_kernel(lambda re, im, Tout: (re + 1j * im).astype(Tout) if re.size or im.size else
         np.zeros(np.broadcast_shapes(re.shape, im.shape), Tout)),
         infer=lambda re, im, Tout: [(broadcast_shapes(static_shape(re), static_shape(im)), Tout)],
         grad=_complex_grad, fresh=True)
register("Real", kernel=host_kernel(lambda x, Tout: np.real(x).astype(Tout)), infer=lambda x, Tout: [(x.shape, Tout)],
         fresh=True,
         grad=lambda op, g: [complex(g, zeros_like(g))])
register("Imag", kernel=host_kernel(lambda x, Tout: np.imag(x).astype(Tout)), infer=lambda x, Tout: [(x.shape, Tout)],
         fresh=True,
         grad=lambda op, g: [complex(zeros_like(g), g)])
register("Conj", kernel=host_kernel(lambda x: np.conj(x)), infer=lambda x: [(x.shape, x.dtype)], fresh=True,
         grad=lambda op, g: [conj(g)])
register("Angle", kernel=host_kernel(lambda x, Tout: np.angle(x).astype(Tout)), infer=lambda x, Tout: [(x.shape, Tout)],
         fresh=True,
         grad=_angle_grad)


def complex(real, imag, name=None):  # noqa: A001 - TF1's name
    """real + imag * 1j: complex64 from float32 parts, complex128 from float64 ones."""
    re, im = binary_operands("Complex", real, imag)
    if re.dtype not in COMPLEX_OF:
        raise TypeError(f"complex needs float32 or float64 parts, got {re.name!r} of dtype {re.dtype.name}")
    return apply_op("Complex", [re, im], name=name or "Complex", Tout=COMPLEX_OF[re.dtype])


def _part(op_type, public_name, doc):
    def build(input, name=None):  # noqa: A002 - TF1's name
        x = convert_to_tensor(input)
        if x.dtype.kind != "c":
            if x.dtype.kind not in "fiu":
                raise TypeError(f"{public_name} needs a numeric input, got {x.name!r} of dtype {x.dtype.name}")
            # TF1: the real part of a real tensor is itself, its imaginary part zeros
            return x if op_type == "Real" else zeros_like(x, name=name)
        return apply_op(op_type, [x], name=name or op_type, Tout=REAL_OF[x.dtype])
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


real = _part("Real", "real", "The real part of each element (a real tensor as is).")
imag = _part("Imag", "imag", "The imaginary part of each element (zeros for a real tensor).")


def conj(x, name=None):
    """The complex conjugate of each element (a real tensor as is)."""
    x = convert_to_tensor(x)
    if x.dtype.kind != "c":
        if x.dtype.kind not in "fiu":
            raise TypeError(f"conj needs a numeric input, got {x.name!r} of dtype {x.dtype.name}")
        return x
    return apply_op("Conj", [x], name=name or "Conj")


def angle(input, name=None):  # noqa: A002 - TF1's name
    """The argument of each complex element, in (-pi, pi]; for real input pi where negative, else 0."""
    x = convert_to_tensor(input)
    if x.dtype.kind != "c":
        if x.dtype.kind != "f":
            raise TypeError(f"angle needs a floating-point or complex input, got {x.name!r} of dtype "
                            f"{x.dtype.name}")
        return where(x < 0, np.pi * (zeros_like(x) + 1.0), zeros_like(x), name=name)
    return apply_op("Angle", [x], name=name or "Angle", Tout=REAL_OF[x.dtype])
