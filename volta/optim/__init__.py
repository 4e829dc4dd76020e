"""Optimizers (``SGD``, ``Adam``, ``AdamW``, ``RMSprop``, ``Adagrad``) and ``lr_scheduler``.

They run under ``no_grad`` and update each parameter with one fused op of ops.yaml
(``_sgd_update_`` ...), so every backend runs them and a backend may give a fused kernel.
"""

from volta.optim import lr_scheduler
from volta.optim.adagrad import Adagrad
from volta.optim.adam import Adam, AdamW
from volta.optim.optimizer import Optimizer
from volta.optim.rmsprop import RMSprop
from volta.optim.sgd import SGD

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
