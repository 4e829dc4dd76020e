"""Finite-difference checks of gradients (float64 central differences), like PyTorch's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from volta.errors import AutogradError


def _tensors(xs: Any) -> tuple:
    return tuple(xs) if isinstance(xs, (tuple, list)) else (xs,)


def _outputs(fn: Callable[..., Any], inputs: Sequence[Any]) -> tuple:
    out = fn(*inputs)
    return _tensors(out)


def _numerical_jacobian(fn: Callable[..., Any], inputs: list, i: int, eps: float) -> list:
    from volta.autograd.grad_mode import no_grad
    x = inputs[i]
    base = x.detach().clone().contiguous()
    columns = []
    for j in range(base.numel()):
        plus = base.clone()
        minus = base.clone()
        flat_p = plus.view(-1)
        flat_m = minus.view(-1)
        with no_grad():
            flat_p[j] = flat_p[j].item() + eps
            flat_m[j] = flat_m[j].item() - eps
        args_p = list(inputs)
        args_m = list(inputs)
        args_p[i] = plus.requires_grad_(x.requires_grad)
        args_m[i] = minus.requires_grad_(x.requires_grad)
        outs_p = _outputs(fn, args_p)
        outs_m = _outputs(fn, args_m)
        columns.append([((op - om) / (2 * eps)).reshape(-1).tolist()
                        if hasattr(op, "dtype") and op.dtype.is_floating_point else None
                        for op, om in zip(outs_p, outs_m)])
    return columns  # columns[j][k] = d out_k / d x_j (flattened over out_k)


def _analytical_rows(outputs: tuple, inputs: list, idx: list[int]) -> list:
    from volta._generated.functions import zeros_like
    from volta.autograd.engine import grad
    rows = []  # rows[k][m] = d out_k[m] / d inputs (a list per input)
    for out in outputs:
        if not (hasattr(out, "dtype") and out.dtype.is_floating_point and out.requires_grad):
            rows.append(None)
            continue
        per = []
        for m in range(out.numel()):
            g = zeros_like(out)
            g.view(-1)[m] = 1.0
            gs = grad((out,), [inputs[i] for i in idx], (g,), retain_graph=True,
                      allow_unused=True)
            per.append([None if x is None else x.reshape(-1).tolist() for x in gs])
        rows.append(per)
    return rows


def _fast_gradcheck(fn: Callable[..., Any], inputs: list, idx: list[int], eps: float,
                    atol: float, rtol: float, raise_exception: bool) -> bool:
    """PyTorch's fast mode: compare v^T J u both ways for random u (inputs), v (outputs)."""
    from volta.autograd.engine import grad
    from volta.autograd.grad_mode import no_grad
    from volta.tensor.factories import Generator, rand
    gen = Generator().manual_seed(0)
    outputs = [o for o in _outputs(fn, inputs)
               if hasattr(o, "dtype") and o.dtype.is_floating_point]
    vs = [rand(o.shape, generator=gen, dtype=o.dtype, device=o.device) * 2 - 1 for o in outputs]
    us = {i: rand(inputs[i].shape, generator=gen, dtype=inputs[i].dtype,
                  device=inputs[i].device) * 2 - 1 for i in idx}
    diff = [(o, v) for o, v in zip(outputs, vs) if o.requires_grad]
    analytical = 0.0
    if diff:
        gs = grad([o for o, _ in diff], [inputs[i] for i in idx], [v for _, v in diff],
                  allow_unused=True)
        for g, i in zip(gs, idx):
            if g is not None:
                analytical += float((g * us[i]).sum().item())
    # perturbed inputs keep requires_grad: fn may itself differentiate (gradgradcheck)
    plus = list(inputs)
    minus = list(inputs)
    with no_grad():
        for i in idx:
            base = inputs[i].detach()
            plus[i] = (base + us[i] * eps).requires_grad_()
            minus[i] = (base - us[i] * eps).requires_grad_()
    outs_p = [o.detach() for o in _outputs(fn, plus) if o.dtype.is_floating_point]
    outs_m = [o.detach() for o in _outputs(fn, minus) if o.dtype.is_floating_point]
    numerical = sum(float((((op - om) / (2 * eps)) * v).sum().item())
                    for op, om, v in zip(outs_p, outs_m, vs))
    if abs(analytical - numerical) > atol + rtol * abs(numerical):
        if raise_exception:
            raise AutogradError(f"Jacobian mismatch (fast mode): v^T J u analytical="
                                f"{analytical:.10g} numerical={numerical:.10g}")
        return False
    return True


def gradcheck(fn: Callable[..., Any], inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, fast_mode: bool = False) -> bool:
    """Compare autograd's Jacobian with central finite differences for the float64 inputs
    that require grad; raise (or return False) naming the input and output that differ.
    ``fast_mode`` compares one random projection ``v^T J u`` instead of the whole Jacobian."""
    inputs = list(_tensors(inputs))
    if fast_mode:
        idx = [i for i, x in enumerate(inputs) if getattr(x, "requires_grad", False)]
        return _fast_gradcheck(fn, inputs, idx, eps, atol, rtol, raise_exception)
    idx = [i for i, x in enumerate(inputs) if hasattr(x, "requires_grad") and x.requires_grad]
    for i in idx:
        if inputs[i].dtype.name != "float64":
            import warnings
            warnings.warn(f"gradcheck: input {i} is {inputs[i].dtype.name}; use float64 for "
                          "reliable finite differences", stacklevel=2)
    outputs = _outputs(fn, inputs)
    rows = _analytical_rows(outputs, inputs, idx)
    for pos, i in enumerate(idx):
        columns = _numerical_jacobian(fn, inputs, i, eps)
        for k, out in enumerate(outputs):
            if rows[k] is None:
                continue
            for m in range(out.numel()):
                analytical = rows[k][m][pos]
                for j in range(len(columns)):
                    numeric = columns[j][k][m] if columns[j][k] is not None else 0.0
                    a = 0.0 if analytical is None else analytical[j]
                    if abs(a - numeric) > atol + rtol * abs(numeric):
                        message = (f"Jacobian mismatch for output {k} with respect to input {i}"
                                   f": d out[{m}] / d in[{j}] numerical={numeric:.8g} "
                                   f"analytical={a:.8g}")
                        if raise_exception:
                            raise AutogradError(message)
                        return False
    return True


def gradgradcheck(fn: Callable[..., Any], inputs: Any, grad_outputs: Any = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  raise_exception: bool = True, gen_non_contig_grad_outputs: bool = False,
                  fast_mode: bool = False) -> bool:
    """gradcheck of the first derivative (built with ``create_graph=True``)."""
    from volta.autograd.engine import grad
    from volta.tensor.factories import randn
    inputs = list(_tensors(inputs))
    idx = [i for i, x in enumerate(inputs) if hasattr(x, "requires_grad") and x.requires_grad]
    outputs = [o for o in _outputs(fn, inputs)
               if hasattr(o, "dtype") and o.dtype.is_floating_point and o.requires_grad]
    if grad_outputs is None:
        grad_outputs = [randn(o.shape, dtype=o.dtype, device=o.device).requires_grad_()
                        for o in outputs]
    grad_outputs = list(_tensors(grad_outputs))
    n = len(inputs)

    def first_derivative(*args: Any) -> tuple:
        xs, gos = list(args[:n]), list(args[n:])
        outs = [o for o in _outputs(fn, xs)
                if hasattr(o, "dtype") and o.dtype.is_floating_point and o.requires_grad]
        gs = grad(outs, [xs[i] for i in idx], gos, create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, fast_mode=fast_mode)
