"""Utilities for training with ``volta.nn``: gradient clipping, variable-length sequences
(``volta.nn.utils.rnn``)."""

from volta.nn.utils import rnn
from volta.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_", "rnn"]
