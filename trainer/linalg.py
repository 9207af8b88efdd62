"""tg.linalg: TF1's tf.linalg namespace (the parts built on contractions and reductions)."""
from .unsupported import missing_names
from .ops.linalg_ops import (einsum, eye, matrix_diag_part as diag_part, matrix_transpose as transpose, norm,
                             tensordot, trace)
from .ops.math_ops import matmul
from .ops.nn_impl import l2_normalize
from .ops.matrix_ops import cholesky, matrix_determinant as det, matrix_inverse as inv, self_adjoint_eig as eigh
from .ops.matrix_ops import self_adjoint_eigvals as eigvalsh
from .ops.mask_ops import matrix_band_part as band_part
from .ops.qr_ops import qr
from .ops.linalg_ops import cross, tensor_diag

__all__ = ["diag_part", "einsum", "eye", "l2_normalize", "matmul", "norm", "tensordot", "trace", "transpose"]
__all__ += ["det", "inv"]
__all__ += ["band_part", "qr"]
__all__ += ["cross", "tensor_diag"]
__all__ += ["cholesky"]
__all__ += ["eigh", "eigvalsh"]

from .ops.clip_ops import global_norm
from .ops.diag_ops import matrix_diag as diag, matrix_set_diag as set_diag, tensor_diag_part

__all__ += ["diag", "global_norm", "set_diag", "tensor_diag_part"]
from .ops.solve_ops import (adjoint, cholesky_solve, logdet, lstsq, matrix_rank, matrix_solve as solve,
                            matrix_triangular_solve as triangular_solve, matvec, normalize, pinv, slogdet, svd)

__all__ += ["adjoint", "cholesky_solve", "logdet", "lstsq", "matrix_rank", "matvec", "normalize", "pinv", "slogdet",
            "solve", "svd", "triangular_solve"]
from .ops.linalg_ops import matrix_transpose
from .ops.solve_ops import expm

__all__ += ["expm", "matrix_transpose"]

from .ops.lu_ops import lu, lu_matrix_inverse, lu_reconstruct, lu_solve
from .ops.matrix_function_ops import logm, sqrtm
from .ops.tridiagonal_ops import eigh_tridiagonal, tridiagonal_matmul, tridiagonal_solve

__all__ += ["eigh_tridiagonal", "logm", "lu", "lu_matrix_inverse", "lu_reconstruct", "lu_solve", "sqrtm",
            "tridiagonal_matmul", "tridiagonal_solve"]

from .ops.linear_operator import (LinearOperator, LinearOperatorDiag, LinearOperatorFullMatrix,
                                  LinearOperatorIdentity, LinearOperatorLowerTriangular, LinearOperatorScaledIdentity)

__all__ += ["LinearOperator", "LinearOperatorDiag", "LinearOperatorFullMatrix", "LinearOperatorIdentity",
            "LinearOperatorLowerTriangular", "LinearOperatorScaledIdentity"]

# what tf.linalg has and ringflow does not: each fails with why and what to use instead
OPERATORS = ("this LinearOperator class (ringflow has FullMatrix, Diag, Identity, ScaledIdentity and "
             "LowerTriangular): build the dense matrix and use tf.linalg's functions (matmul, solve, "
             "logdet, ...)")
MISSING = {name: OPERATORS for name in ["LinearOperatorAdjoint", "LinearOperatorBlockDiag",
                                        "LinearOperatorBlockLowerTriangular", "LinearOperatorCirculant",
                                        "LinearOperatorCirculant2D", "LinearOperatorCirculant3D",
                                        "LinearOperatorComposition", "LinearOperatorHouseholder",
                                        "LinearOperatorInversion", "LinearOperatorKronecker",
                                        "LinearOperatorLowRankUpdate", "LinearOperatorPermutation",
                                        "LinearOperatorToeplitz", "LinearOperatorTridiag", "LinearOperatorZeros"]}
__getattr__ = missing_names(__name__, reasons=MISSING)
