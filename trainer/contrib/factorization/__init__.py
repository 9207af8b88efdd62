"""tf.contrib.factorization: TF1's KMeans graph (clustering_ops.KMeans) and its constants. The factorization
models (WALSModel, GMM) and the estimators built on them (KMeansClustering, WALSMatrixFactorization,
GMM) are not here: naming one raises NotInRingflow saying so."""
from ...unsupported import missing_names
from .cluster_init import KMC2_INIT, KMEANS_PLUS_PLUS_INIT, RANDOM_INIT
from .clustering_ops import COSINE_DISTANCE, SQUARED_EUCLIDEAN_DISTANCE, KMeans

__all__ = ["COSINE_DISTANCE", "KMC2_INIT", "KMEANS_PLUS_PLUS_INIT", "KMeans", "RANDOM_INIT",
           "SQUARED_EUCLIDEAN_DISTANCE"]

__getattr__ = missing_names(__name__, have="of tf.contrib.factorization only the KMeans graph (with its constants) "
                            "is here: no WALSModel, GMM or the estimators built on them")
