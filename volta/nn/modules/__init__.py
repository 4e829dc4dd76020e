"""The layers of ``volta.nn``, one file per family."""

from volta.nn.modules.activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    LeakyReLU,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    RReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Softshrink,
    Tanh,
    Tanhshrink,
    Threshold,
)
from volta.nn.modules.attention import MultiheadAttention
from volta.nn.modules.container import ModuleDict, ModuleList, ParameterList, Sequential
from volta.nn.modules.conv import (
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
)
from volta.nn.modules.dropout import (
    AlphaDropout,
    Dropout,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
)
from volta.nn.modules.flatten import Flatten, Unflatten
from volta.nn.modules.fold import Fold, Unfold
from volta.nn.modules.linear import Bilinear, Identity, Linear
from volta.nn.modules.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    CTCLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    PoissonNLLLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from volta.nn.modules.module import Module
from volta.nn.modules.normalization import (
    BatchNorm1d,
    BatchNorm2d,
    GroupNorm,
    InstanceNorm2d,
    LayerNorm,
    LocalResponseNorm,
    RMSNorm,
)
from volta.nn.modules.pixelshuffle import ChannelShuffle, PixelShuffle
from volta.nn.modules.pooling import (
    AdaptiveAvgPool2d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool2d,
    AdaptiveMaxPool3d,
    AvgPool1d,
    AvgPool2d,
    AvgPool3d,
    FractionalMaxPool2d,
    FractionalMaxPool3d,
    LPPool1d,
    LPPool2d,
    MaxPool1d,
    MaxPool2d,
    MaxPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
)
from volta.nn.modules.positional import (
    RotaryEmbedding,
    SinusoidalPositionalEncoding,
    apply_rotary_embedding,
    sinusoidal_positional_encoding,
)
from volta.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from volta.nn.modules.sparse import Embedding, EmbeddingBag
from volta.nn.modules.transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from volta.nn.modules.upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

__all__ = [
    "Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList",
    "Identity", "Linear", "Bilinear", "Flatten", "Unflatten",
    "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d",
    "BatchNorm1d", "BatchNorm2d", "InstanceNorm2d", "LayerNorm", "GroupNorm", "RMSNorm",
    "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNN", "LSTM", "GRU",
    "Embedding", "Dropout", "Dropout2d", "PixelShuffle", "Upsample",
    "UpsamplingNearest2d", "UpsamplingBilinear2d",
    "ReLU", "ReLU6", "LeakyReLU", "ELU", "GELU", "SiLU", "Mish", "Sigmoid", "Tanh", "Softplus",
    "Hardswish", "Hardsigmoid", "Softmax", "LogSoftmax",
    "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
    "BCEWithLogitsLoss", "KLDivLoss",
    "MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder",
    "TransformerEncoderLayer", "TransformerDecoderLayer",
    "SinusoidalPositionalEncoding", "RotaryEmbedding", "sinusoidal_positional_encoding",
    "apply_rotary_embedding",
    "GLU", "PReLU", "CELU", "RReLU", "Hardshrink", "Softshrink", "Tanhshrink", "Threshold",
    "Unfold", "Fold", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d",
    "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "LPPool1d", "LPPool2d", "FractionalMaxPool2d",
    "FractionalMaxPool3d", "ConvTranspose3d", "LocalResponseNorm", "ChannelShuffle",
    "AlphaDropout", "FeatureAlphaDropout", "Dropout3d",
    "SoftMarginLoss", "MarginRankingLoss", "CosineEmbeddingLoss", "HingeEmbeddingLoss",
    "MultiMarginLoss", "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "TripletMarginLoss",
    "TripletMarginWithDistanceLoss", "PoissonNLLLoss", "GaussianNLLLoss", "EmbeddingBag",
    "CTCLoss",
]
