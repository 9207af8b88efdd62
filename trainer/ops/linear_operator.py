"""tf.linalg's LinearOperator: a matrix (or a batch of them) known by its structure, with matmul, solve,
determinants and the rest computed from that structure. The base class derives every method from to_dense();
FullMatrix, Diag, Identity, ScaledIdentity and LowerTriangular override what their structure makes cheaper, as
TF's do. Each method runs in the operator's name scope, then its own."""
import contextlib

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.tensor_shape import TensorShape
from .array_ops import ones, shape as shape_of, zeros
from .complex_ops import conj
from .core_ops import convert_to_tensor, identity
from .diag_ops import matrix_diag, matrix_diag_part, matrix_set_diag
from .linalg_ops import eye, matrix_transpose
from .mask_ops import matrix_band_part
from .math_ops import abs as abs_, log, matmul, ones_like
from .matrix_ops import matrix_determinant
from .reduction_ops import reduce_prod, reduce_sum
from .shape_ops import expand_dims, squeeze
from .solve_ops import matrix_solve, matrix_triangular_solve, slogdet


def _adjoint(x):
    return matrix_transpose(conj(x) if x.dtype.kind == "c" else x)


def _product(a, b, adjoint_a, adjoint_b):
    return matmul(_adjoint(a) if adjoint_a else a, _adjoint(b) if adjoint_b else b)


class LinearOperator:
    """The base: a subclass gives _shape() and _to_dense(); every other method has a dense default."""

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite and is_non_singular is False:
            raise ValueError("A positive definite matrix is always non-singular.")
        self._dtype = dtypes.as_dtype(dtype)
        self._is_non_singular, self._is_self_adjoint = is_non_singular, is_self_adjoint
        self._is_positive_definite, self._is_square_set = is_positive_definite, is_square
        self._name = name or type(self).__name__
        self._parameters = dict(parameters or {})

    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)
    parameters = property(lambda self: dict(self._parameters))
    is_non_singular = property(lambda self: self._is_non_singular)
    is_self_adjoint = property(lambda self: self._is_self_adjoint)
    is_positive_definite = property(lambda self: self._is_positive_definite)

    @property
    def is_square(self):
        rows, cols = self.shape[-2:] if self.shape.ndims else (None, None)
        known = None if None in (rows, cols) else rows == cols
        return self._is_square_set if self._is_square_set is not None else known

    @property
    def shape(self):
        return TensorShape(self._shape())

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def tensor_rank(self):
        return self.shape.ndims

    @property
    def domain_dimension(self):
        return self.shape[-1]

    @property
    def range_dimension(self):
        return self.shape[-2]

    def shape_tensor(self, name="shape_tensor"):
        with self._scope(name):
            return shape_of(self.to_dense())

    @contextlib.contextmanager
    def _scope(self, name):
        with name_scope(self.name), name_scope(name) as scope:
            yield scope

    def to_dense(self, name="to_dense"):
        with self._scope(name):
            return self._to_dense()

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        with self._scope(name):
            x = convert_to_tensor(x, dtype=self.dtype)
            return self._matmul(x, adjoint, adjoint_arg)

    def _matmul(self, x, adjoint, adjoint_arg):
        return _product(self.to_dense(), x, adjoint, adjoint_arg)

    def matvec(self, x, adjoint=False, name="matvec"):
        with self._scope(name):
            return squeeze(self.matmul(expand_dims(convert_to_tensor(x, dtype=self.dtype), -1), adjoint=adjoint),
                           [-1])

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be "
                                      "singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be "
                                      "square.")
        with self._scope(name):
            rhs = convert_to_tensor(rhs, dtype=self.dtype)
            return self._solve(_adjoint(rhs) if adjoint_arg else rhs, adjoint)

    def _solve(self, rhs, adjoint):
        return matrix_solve(self.to_dense(), self._batched(rhs), adjoint=adjoint)

    def _batched(self, x):
        """x broadcast to the operator's batch shape where that is known (TF's broadcast_matrix_batch_dims)."""
        batch = self.batch_shape
        if not batch.is_fully_defined() or batch.ndims == 0:
            return x
        return x + zeros(batch.as_list() + [1, 1], dtype=x.dtype)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        with self._scope(name):
            rhs = expand_dims(convert_to_tensor(rhs, dtype=self.dtype), -1)
            return squeeze(self.solve(rhs, adjoint=adjoint), [-1])

    def _check_square(self, what):
        if self.is_square is False:
            raise NotImplementedError(f"Determinant not implemented for an operator that is expected to not be "
                                      f"square ({what}).")

    def determinant(self, name="det"):
        self._check_square("determinant")
        with self._scope(name):
            return self._determinant()

    def _determinant(self):
        return matrix_determinant(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        self._check_square("log_abs_determinant")
        with self._scope(name):
            return self._log_abs_determinant()

    def _log_abs_determinant(self):
        return slogdet(self.to_dense())[1]

    def diag_part(self, name="diag_part"):
        with self._scope(name):
            return self._diag_part()

    def _diag_part(self):
        return matrix_diag_part(self.to_dense())

    def trace(self, name="trace"):
        with self._scope(name):
            return reduce_sum(self.diag_part(), axis=-1)

    def add_to_tensor(self, x, name="add_to_tensor"):
        with self._scope(name):
            return self._add_to_tensor(convert_to_tensor(x, dtype=self.dtype))

    def _add_to_tensor(self, x):
        return self.to_dense() + x

    def _add_to_diagonal(self, x):
        """x with the operator's diagonal added to its own: what TF does for diagonal operators."""
        return matrix_set_diag(x, matrix_diag_part(x) + self.diag_part())

    def assert_non_singular(self, name="assert_non_singular"):
        raise NotImplementedError(f"{type(self).__name__}.assert_non_singular is not implemented in ringflow: "
                                  f"check its determinant")


def _parameter(value, name):
    return convert_to_tensor(value, name=name)


class LinearOperatorFullMatrix(LinearOperator):
    """A dense matrix [..., M, N] as a LinearOperator."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        with name_scope(name):
            self._matrix = _parameter(matrix, "matrix")
            if self._matrix.dtype.kind not in "fc":
                raise TypeError(f"Argument matrix must have dtype in [float16, float32, float64, complex64, "
                                f"complex128]. Found: {self._matrix.dtype.name}")
        super().__init__(self._matrix.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name, dict(matrix=matrix))

    def _shape(self):
        return self._matrix.shape

    def _to_dense(self):
        return identity(self._matrix)

    def _matmul(self, x, adjoint, adjoint_arg):
        return _product(self._matrix, x, adjoint, adjoint_arg)


class LinearOperatorDiag(LinearOperator):
    """The diagonal matrix of `diag` ([..., N]): products and solves scale rows."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorDiag"):
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        with name_scope(name):
            self._diag = _parameter(diag, "diag")
            if self._diag.ndim is not None and self._diag.ndim < 1:
                raise ValueError(f"Argument diag must have at least 1 dimension.  Found: {self._diag}")
        if self._diag.dtype.kind != "c" and is_self_adjoint is False:
            raise ValueError("A real diagonal operator is always self adjoint.")
        super().__init__(self._diag.dtype, None, is_non_singular,
                         True if self._diag.dtype.kind != "c" else is_self_adjoint, is_positive_definite, True, name,
                         dict(diag=diag))

    diag = property(lambda self: self._diag)

    def _shape(self):
        return self._diag.shape.concatenate(self._diag.shape[-1:])

    def _to_dense(self):
        return matrix_diag(self._diag)

    def _scale(self, adjoint):
        d = conj(self._diag) if adjoint and self._diag.dtype.kind == "c" else self._diag
        return expand_dims(d, -1)

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._scale(adjoint) * (_adjoint(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint):
        return rhs / self._scale(adjoint)

    def _determinant(self):
        return reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self):
        return reduce_sum(log(abs_(self._diag)), axis=[-1])

    def _diag_part(self):
        return self._diag * ones_like(self._diag)

    _add_to_tensor = LinearOperator._add_to_diagonal


class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle of `tril` ([..., N, N]; the rest ignored): solves by substitution."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        with name_scope(name):
            self._tril = matrix_band_part(_parameter(tril, "tril"), -1, 0)
        super().__init__(self._tril.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         dict(tril=tril))

    def _shape(self):
        return self._tril.shape

    def _to_dense(self):
        return identity(self._tril)

    def _matmul(self, x, adjoint, adjoint_arg):
        return _product(self._tril, x, adjoint, adjoint_arg)

    def _solve(self, rhs, adjoint):
        return matrix_triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

    def _determinant(self):
        return reduce_prod(matrix_diag_part(self._tril), axis=[-1])

    def _log_abs_determinant(self):
        return reduce_sum(log(abs_(matrix_diag_part(self._tril))), axis=[-1])


class LinearOperatorScaledIdentity(LinearOperator):
    """multiplier * I of size num_rows (multiplier a scalar or a batch of them)."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorScaledIdentity"):
        if is_square is False:
            raise ValueError("A ScaledIdentity operator is always square.")
        with name_scope(name):
            self._num_rows = int(num_rows)
            self._multiplier = _parameter(multiplier, "multiplier")
        super().__init__(self._multiplier.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True,
                         name, dict(num_rows=num_rows, multiplier=multiplier))

    multiplier = property(lambda self: self._multiplier)

    def _shape(self):
        return self._multiplier.shape.concatenate([self._num_rows, self._num_rows])

    def _matrix_multiplier(self, adjoint=False):
        m = conj(self._multiplier) if adjoint and self._multiplier.dtype.kind == "c" else self._multiplier
        return expand_dims(expand_dims(m, -1), -1)

    def _to_dense(self):
        return self._matrix_multiplier() * eye(self._num_rows, dtype=self.dtype)

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._matrix_multiplier(adjoint) * (_adjoint(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint):
        return rhs / self._matrix_multiplier(adjoint)

    def _determinant(self):
        return self._multiplier ** self._num_rows

    def _log_abs_determinant(self):
        return self._num_rows * log(abs_(self._multiplier))

    def _diag_part(self):
        return expand_dims(self._multiplier, -1) * ones_like(self._to_dense()[..., 0])

    def _add_to_tensor(self, x):
        return matrix_set_diag(x, matrix_diag_part(x) + expand_dims(self._multiplier, -1))


class LinearOperatorIdentity(LinearOperator):
    """The identity of size num_rows, for a batch of batch_shape: products return their argument."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorIdentity"):
        for flag, what in ((is_non_singular, "non-singular"), (is_self_adjoint, "self-adjoint"),
                           (is_positive_definite, "positive definite"), (is_square, "square")):
            if not flag:
                raise ValueError(f"An identity operator is always {what}.")
        self._num_rows = int(num_rows)
        self._batch = [] if batch_shape is None else [int(d) for d in batch_shape]
        super().__init__(dtypes.as_dtype(dtype or dtypes.float32), None, True, True, True, True, name,
                         dict(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype))

    def _shape(self):
        return self._batch + [self._num_rows, self._num_rows]

    def _to_dense(self):
        return eye(self._num_rows, batch_shape=self._batch or None, dtype=self.dtype)

    def _broadcast(self, x):
        """x over the operator's batch shape, as TF's identity broadcasts its argument."""
        return x + zeros(self._batch + [1, 1], dtype=x.dtype) if self._batch else x

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._broadcast(_adjoint(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint):
        return self._broadcast(rhs)

    def _determinant(self):
        return ones(self._batch, dtype=self.dtype)

    def _log_abs_determinant(self):
        return zeros(self._batch, dtype=self.dtype)

    def _diag_part(self):
        return matrix_diag_part(self._to_dense())

    def _add_to_tensor(self, x):  # TF adds 1 to x's own diagonal, whatever the operator's batch shape
        return matrix_set_diag(x, matrix_diag_part(x) + 1.0)

