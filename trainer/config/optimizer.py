"""tg.config.optimizer: XLA's auto-clustering and Grappler's switches, kept as TF keeps them (see settings.py)."""
from .settings import get_experimental_options, get_jit, set_experimental_options, set_jit

__all__ = ["get_experimental_options", "get_jit", "set_experimental_options", "set_jit"]
