"""tg.train: optimizers and the global step."""
from .adam import AdamOptimizer
from .gradient_descent import GradientDescentOptimizer
from .momentum import MomentumOptimizer
from .optimizer import Optimizer
from .training_util import GLOBAL_STEP, get_global_step, get_or_create_global_step

__all__ = ["AdamOptimizer", "GradientDescentOptimizer", "MomentumOptimizer", "Optimizer", "GLOBAL_STEP",
           "get_global_step", "get_or_create_global_step"]
