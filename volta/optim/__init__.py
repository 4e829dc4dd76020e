"""Optimizers (``SGD``, ``Adam``, ``AdamW``, ``RMSprop``, ``Adagrad``, ``Adadelta``, ``Adamax``,
``NAdam``, ``RAdam``, ``ASGD``, ``Rprop``, ``LBFGS``, ``Adafactor``, ``Muon``), ``lr_scheduler``
and ``swa_utils``.

They run under ``no_grad`` and update each parameter with one fused op of ops.yaml
(``_sgd_update_`` ...), so every backend runs them and a backend may give a fused kernel.
"""

from volta.optim import lr_scheduler, swa_utils
from volta.optim.adadelta import Adadelta
from volta.optim.adafactor import Adafactor
from volta.optim.adagrad import Adagrad
from volta.optim.adam import Adam, AdamW
from volta.optim.adamax import Adamax
from volta.optim.asgd import ASGD
from volta.optim.lbfgs import LBFGS
from volta.optim.muon import Muon
from volta.optim.nadam import NAdam
from volta.optim.optimizer import Optimizer
from volta.optim.radam import RAdam
from volta.optim.rmsprop import RMSprop
from volta.optim.rprop import Rprop
from volta.optim.sgd import SGD

__all__ = ["ASGD", "LBFGS", "SGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax",
           "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "lr_scheduler",
           "swa_utils"]
