"""The layers of ``volta.nn``, one file per family."""

from volta.nn.modules.activation import (
    ELU,
    GELU,
    Hardsigmoid,
    Hardswish,
    LeakyReLU,
    LogSoftmax,
    Mish,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from volta.nn.modules.container import ModuleDict, ModuleList, ParameterList, Sequential
from volta.nn.modules.conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d
from volta.nn.modules.dropout import Dropout, Dropout2d
from volta.nn.modules.flatten import Flatten, Unflatten
from volta.nn.modules.linear import Bilinear, Identity, Linear
from volta.nn.modules.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from volta.nn.modules.module import Module
from volta.nn.modules.normalization import (
    BatchNorm1d,
    BatchNorm2d,
    GroupNorm,
    InstanceNorm2d,
    LayerNorm,
    RMSNorm,
)
from volta.nn.modules.pixelshuffle import PixelShuffle
from volta.nn.modules.pooling import (
    AdaptiveAvgPool2d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
)
from volta.nn.modules.sparse import Embedding
from volta.nn.modules.upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

__all__ = [
    "Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList",
    "Identity", "Linear", "Bilinear", "Flatten", "Unflatten",
    "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d",
    "BatchNorm1d", "BatchNorm2d", "InstanceNorm2d", "LayerNorm", "GroupNorm", "RMSNorm",
    "Embedding", "Dropout", "Dropout2d", "PixelShuffle", "Upsample",
    "UpsamplingNearest2d", "UpsamplingBilinear2d",
    "ReLU", "ReLU6", "LeakyReLU", "ELU", "GELU", "SiLU", "Mish", "Sigmoid", "Tanh", "Softplus",
    "Hardswish", "Hardsigmoid", "Softmax", "LogSoftmax",
    "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
    "BCEWithLogitsLoss", "KLDivLoss",
]
