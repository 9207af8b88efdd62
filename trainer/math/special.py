"""tg.math.special: TF's tf.math.special, the special functions under their SciPy-style names. Those ringflow
lacks fail saying so."""
from ..ops.incomplete_gamma_ops import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e
from ..unsupported import missing_names

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"]

OTHER_KINDS = ("the Bessel functions of other kinds and orders, Dawson's integral, the exponential and Fresnel "
               "integrals and Spence's function: ringflow computes bessel_i0, bessel_i1 and their scaled forms")
__getattr__ = missing_names(__name__, reasons=dict.fromkeys(
    ["bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
     "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"], OTHER_KINDS))
