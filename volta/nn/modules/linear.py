"""Linear layers: ``Identity``, ``Linear``, ``Bilinear``, ``LazyLinear``."""

from __future__ import annotations

import math
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn import init
from volta.nn.modules.lazy import LazyModuleMixin
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter, UninitializedParameter


def register_weight_and_bias(module: Module, weight_shape: tuple, bias_size: int | None,
                             device: Any, dtype: Any) -> None:
    """Registers an uninitialised ``weight`` of ``weight_shape`` and ``bias`` of ``bias_size``
    (``None``: the layer has no bias, ``module.bias`` is ``None``)."""
    module.weight = Parameter(volta.empty(*weight_shape, device=device, dtype=dtype))
    if bias_size is not None:
        module.bias = Parameter(volta.empty(bias_size, device=device, dtype=dtype))
    else:
        module.register_parameter("bias", None)


def reset_kaiming_uniform_(weight: volta.Tensor, bias: volta.Tensor | None) -> None:
    """PyTorch's default initialisation of Linear and the convolutions:
    ``kaiming_uniform_(weight, a=sqrt(5))`` and a bias uniform in ``+-1/sqrt(fan_in)``."""
    init.kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = init._calculate_fan_in_and_fan_out(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(bias, -bound, bound)


class Identity(Module):
    """Returns its input unchanged (arguments are accepted and ignored)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return input


class Linear(Module):
    """``y = x @ weight.T + bias``.

    Args:
        in_features: size of each input sample.
        out_features: size of each output sample.
        bias: whether to learn an additive bias. Default: ``True``.

    Shape:
        input ``(*, in_features)``, output ``(*, out_features)``; ``weight`` is
        ``(out_features, in_features)``, ``bias`` ``(out_features,)``.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        register_weight_and_bias(self, (out_features, in_features),
                                 out_features if bias else None, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: kaiming_uniform_(a=sqrt(5)) weights, U(+-1/sqrt(fan_in)) bias."""
        reset_kaiming_uniform_(self.weight, self.bias)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """``y = x1^T A x2 + b``.

    Shape:
        ``input1 (*, in1_features)``, ``input2 (*, in2_features)``, output
        ``(*, out_features)``; ``weight`` is ``(out_features, in1_features, in2_features)``.
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        register_weight_and_bias(self, (out_features, in1_features, in2_features),
                                 out_features if bias else None, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: volta.Tensor, input2: volta.Tensor) -> volta.Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    """A :class:`Linear` whose ``in_features`` is taken from its first input (``input.shape[-1]``);
    it then becomes a ``Linear``, initialized as one.

    Args:
        out_features: size of each output sample.
        bias: whether to learn an additive bias. Default: ``True``.
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: volta.Tensor) -> None:
        if self.has_uninitialized_params():
            with volta.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
