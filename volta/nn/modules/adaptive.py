"""``AdaptiveLogSoftmaxWithLoss``: an efficient softmax over many classes (Grave et al.,
2016). Frequent classes (below ``cutoffs[0]``) are scored by the ``head``; the others are
split into clusters, each scored by a small ``tail`` projection behind one head logit."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn.modules.container import ModuleList, Sequential
from volta.nn.modules.linear import Linear
from volta.nn.modules.module import Module

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Log-probabilities of targets over ``n_classes`` classes, the rare ones in clusters.

    Args:
        in_features: the size of each input row.
        n_classes: the number of classes.
        cutoffs: increasing class indices in ``[1, n_classes - 1]`` where clusters start.
        div_value: cluster ``i``'s hidden size is ``in_features // div_value ** (i + 1)``.
        head_bias: whether the head has a bias.

    ``forward(input, target)``: input ``(N, in_features)`` or ``(in_features,)``, target
    ``(N,)`` or ``()``; returns ``(output, loss)``, ``output`` the log-probability of each
    target and ``loss`` the mean negative log-likelihood.
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int],
                 div_value: float = 4.0, head_bias: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise volta.InvalidArgumentError(
                "cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise volta.InvalidArgumentError(
                "cutoffs should be a sequence of unique, positive integers sorted in an "
                "increasing order, where each value is between 1 and n_classes-1")
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, device=device,
                           dtype=dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(
                Linear(in_features, hidden, bias=False, device=device, dtype=dtype),
                Linear(hidden, size, bias=False, device=device, dtype=dtype)))

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for projection in self.tail:
            for layer in projection:
                layer.reset_parameters()

    def forward(self, input_: volta.Tensor, target_: volta.Tensor) -> _ASMoutput:
        if target_.ndim == 1:
            if input_.shape[0] != target_.shape[0]:
                raise volta.ShapeError(
                    "Input and target should have the same size in the batch dimension.")
            if input_.ndim != 2:
                raise volta.ShapeError("1D target tensor expects 2D input tensors, but found "
                                       f"inputs with size {input_.shape}")
        elif target_.ndim == 0:
            if input_.ndim != 1:
                raise volta.ShapeError("0D target tensor expects 1D input tensors, but found "
                                       f"inputs with size {input_.shape}")
        else:
            raise volta.ShapeError("0D or 1D target tensor expected, multi-target not supported")
        batched = target_.ndim > 0
        input = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)
        output = input.new_zeros(target.shape[0])
        # the head column each row is scored by: its class in the shortlist, else its cluster
        head_column = target
        used_rows = int(((target >= 0) & (target < self.shortlist_size)).sum().item())
        for i, (low, high) in enumerate(pairwise(self.cutoffs)):
            in_cluster = (target >= low) & (target < high)
            rows = in_cluster.nonzero().squeeze(1)
            if rows.numel() == 0:
                continue
            used_rows += rows.numel()
            head_column = volta.where(in_cluster, self.shortlist_size + i, head_column)
            cluster_logprob = F.log_softmax(self.tail[i](input.index_select(0, rows)), dim=1)
            relative = target.index_select(0, rows) - low
            local = cluster_logprob.gather(1, relative.unsqueeze(1)).squeeze(1)
            output = output.index_add(0, rows, local)
        if used_rows != target.shape[0]:
            raise volta.InvalidArgumentError(
                f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                f"[{target.min().item()}, {target.max().item()}] were found. ")
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output = output + head_logprob.gather(1, head_column.unsqueeze(1)).squeeze(1)
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, input: volta.Tensor, head_output: volta.Tensor) -> volta.Tensor:
        head_logprob = F.log_softmax(head_output, dim=1)
        pieces = [head_logprob[:, :self.shortlist_size]]
        for i in range(self.n_clusters):
            cluster_logprob = F.log_softmax(self.tail[i](input), dim=1)
            pieces.append(cluster_logprob
                          + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return volta.cat(pieces, dim=1)

    def log_prob(self, input: volta.Tensor) -> volta.Tensor:
        """Log-probabilities of every class, ``(N, n_classes)``."""
        return self._full_log_prob(input, self.head(input))

    def predict(self, input: volta.Tensor) -> volta.Tensor:
        """The most likely class of each row, ``(N,)`` (the full distribution is computed only
        when some row's best head entry is a cluster)."""
        head_output = self.head(input)
        output = volta.argmax(head_output, dim=1)
        not_in_shortlist = output >= self.shortlist_size
        if not bool(not_in_shortlist.any().item()):
            return output
        full = volta.argmax(self._full_log_prob(input, head_output), dim=1)
        return volta.where(not_in_shortlist, full, output)
