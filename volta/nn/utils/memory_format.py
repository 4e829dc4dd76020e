"""``convert_conv2d_weight_memory_format`` / ``convert_conv3d_weight_memory_format``, as in
``torch.nn.utils``: lay out the convolution weights of a model in ``channels_last`` (or
another memory format), keeping each parameter object."""

from __future__ import annotations

from typing import TypeVar

import volta
from volta.nn.modules.conv import Conv2d, Conv3d, ConvTranspose2d, ConvTranspose3d
from volta.nn.modules.module import Module

ModuleT = TypeVar("ModuleT", bound=Module)


def _convert(module: ModuleT, memory_format: volta.memory_format, kinds: tuple) -> ModuleT:
    for layer in module.modules():
        if isinstance(layer, kinds):
            layer.weight.data = layer.weight.detach().clone(memory_format=memory_format)
    return module


def convert_conv2d_weight_memory_format(module: ModuleT,
                                        memory_format: volta.memory_format) -> ModuleT:
    """Gives every ``Conv2d``/``ConvTranspose2d`` weight in ``module`` the layout
    ``memory_format`` (e.g. ``volta.channels_last``); returns ``module``."""
    return _convert(module, memory_format, (Conv2d, ConvTranspose2d))


def convert_conv3d_weight_memory_format(module: ModuleT,
                                        memory_format: volta.memory_format) -> ModuleT:
    """Gives every ``Conv3d``/``ConvTranspose3d`` weight in ``module`` the layout
    ``memory_format`` (e.g. ``volta.channels_last_3d``); returns ``module``."""
    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))
