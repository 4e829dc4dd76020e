"""Where volta still differs from PyTorch, as the differential fuzz (``tests/fuzz``) finds it.

Keyed by ``(op, kind)`` as ``python -m tests.fuzz.run`` reports them (kinds: ``volta_accepts``,
``volta_rejects``, ``raw:<Exception>``, ``dtype``, ``value``, ``shape``, ``input_modified``);
each entry says why. The fuzz test fails on a disagreement that is not listed and, at the CI
budget, on a listed entry its run no longer sees, so fixing a difference means deleting its line.
"""

from __future__ import annotations

# volta's numpy kernel computes dtypes for which PyTorch's CPU kernel raises NotImplementedError;
# narrowing an op's ``dtypes:`` in ops.yaml removes the entry
_WIDER_DTYPES = ("wider dtype support than PyTorch's CPU kernel (torch: NotImplementedError "
                 "\"... not implemented for '<dtype>'\")")
# volta takes a Python number in any Tensor argument of a pointwise op (a wrapped number);
# PyTorch only where the op has a Scalar overload, which ops.yaml does not record yet
_WRAPPED_NUMBER = ("a Python number accepted where PyTorch's signature requires a Tensor "
                   "(volta wraps numbers for every Tensor argument of a pointwise op)")

KNOWN: dict[tuple[str, str], str] = {
    ("abs", "volta_accepts"): _WIDER_DTYPES,
    ("cumprod", "volta_accepts"): _WIDER_DTYPES + " (dtype=bool)",
    ("elu", "volta_accepts"): _WIDER_DTYPES,
    ("frac", "volta_accepts"): _WIDER_DTYPES,
    ("hardsigmoid", "volta_accepts"): _WIDER_DTYPES,
    ("leaky_relu", "volta_accepts"): _WIDER_DTYPES,
    ("logsigmoid", "volta_accepts"): _WIDER_DTYPES,
    ("binary_cross_entropy_with_logits", "volta_accepts"): _WRAPPED_NUMBER + " (weight=True)",
    ("fmin", "volta_accepts"): _WRAPPED_NUMBER,
    ("logaddexp", "volta_accepts"): _WRAPPED_NUMBER,
    ("logical_xor", "volta_accepts"): _WRAPPED_NUMBER,
    ("maximum", "volta_accepts"): _WRAPPED_NUMBER,
    ("argsort", "volta_accepts"): ("PyTorch's argsort takes stable= only in an overload whose dim "
                                   "is keyword-only; volta has one schema with all three"),
    ("dropout", "volta_accepts"): ("torch.dropout(input, p, train) has no defaults; volta.dropout "
                                   "defaults p=0.5 and train=True as nn.functional.dropout does"),
    ("layer_norm", "volta_accepts"): ("normalized_shape=[] normalises over no dims; PyTorch "
                                      "requires at least one (op semantics, not fixed yet)"),
    ("native_layer_norm", "volta_accepts"): "normalized_shape=[] accepted, as layer_norm",
    ("lerp", "volta_accepts"): ("mixed input dtypes are promoted; PyTorch's lerp requires equal "
                                "dtypes (op semantics, not fixed yet)"),
    ("logspace", "volta_accepts"): ("results beyond float32 become inf; PyTorch raises 'value "
                                    "cannot be converted to type float without overflow'"),
    ("median", "volta_rejects"): ("median of an empty tensor without dim raises; PyTorch "
                                  "returns nan (op semantics, not fixed yet)"),
    ("normal_", "volta_rejects"): ("normal_ on an integer tensor raises even when it is empty; "
                                   "PyTorch checks the dtype only for non-empty tensors"),
    ("sub", "volta_accepts"): ("subtracting a bool (tensor or Python bool) is accepted; PyTorch "
                               "forbids '-' with bool (op semantics, not fixed yet)"),
    ("sub_", "volta_accepts"): ("alpha=False accepted for a non-bool result; PyTorch: 'Boolean "
                                "alpha only supported for Boolean results'"),
    ("unfold", "volta_accepts"): ("a size beyond int64 on a 0-d tensor is accepted (0-d tensors "
                                  "accept any dim: op semantics, issue 7 part 5)"),
    ("uniform_", "volta_accepts"): "from=nan accepted; PyTorch: 'from is out of bounds for float'",
}
