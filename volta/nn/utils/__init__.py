"""Utilities for training with ``volta.nn``: gradient clipping, parameters as one vector,
weight and spectral normalization (PyTorch's hook-based API), parametrizations
(``parametrize``, ``parametrizations``), conv/linear + batch-norm fusion, ``prune``,
``stateless`` calls, variable-length sequences (``rnn``)."""

from volta.nn.utils import parametrizations, parametrize, prune, rnn, stateless
from volta.nn.utils.clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from volta.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
from volta.nn.utils.fusion import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from volta.nn.utils.memory_format import (
    convert_conv2d_weight_memory_format,
    convert_conv3d_weight_memory_format,
)
from volta.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
from volta.nn.utils.weight_norm import remove_weight_norm, weight_norm

__all__ = [
    "clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "clip_grads_with_norm_",
    "get_total_norm", "parameters_to_vector", "vector_to_parameters", "weight_norm",
    "remove_weight_norm", "spectral_norm", "remove_spectral_norm", "rnn", "parametrize",
    "parametrizations", "stateless", "fuse_conv_bn_eval", "fuse_conv_bn_weights",
    "fuse_linear_bn_eval", "fuse_linear_bn_weights", "convert_conv2d_weight_memory_format",
    "convert_conv3d_weight_memory_format", "prune",
]
