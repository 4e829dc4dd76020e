"""Fused optimizer updates (ops.yaml ``_sgd_update_``, ``_adam_update_``): one dispatch updates
a parameter and its state in place, following the CPU kernels (PyTorch's single-tensor
algorithms). Flags are compiled into the shader; the numbers travel as parameter words."""

from __future__ import annotations

import math

from volta.backends.wgpu.kernels.elementwise import Launch, load, store
from volta.tensor.tensor import Tensor


def _direction(weight_decay: float, maximize: bool) -> str:
    g = "-g0" if maximize else "g0"
    return f"  var d = {g};\n" + ("  d = d + wd * p;\n" if weight_decay != 0 else "")


def _scalar(k: int) -> str:
    return f"pf(nscalar_base + {k}u)"


def sgd_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float,
                momentum: float, dampening: float, weight_decay: float, nesterov: bool,
                maximize: bool, first_step: bool) -> Tensor:
    has_buf = momentum != 0 and momentum_buffer is not None
    outputs = [param] + ([momentum_buffer] if has_buf else [])
    launch = Launch(param, [grad], extra_outputs=outputs[1:])
    p, g = launch.operand(0), launch.operand(len(outputs))
    lines = [f"  let lr = {_scalar(0)}; let mom = {_scalar(1)}; let damp = {_scalar(2)};",
             f"  let wd = {_scalar(3)};",
             f"  let p = {load(p, param.dtype)};", f"  let g0 = {load(g, grad.dtype)};",
             _direction(weight_decay, maximize)]
    if has_buf:
        buf = launch.operand(1)
        if first_step:
            lines.append("  let nb = d;")
        else:
            step = "d * (1.0 - damp)" if dampening != 0 else "d"
            lines.append(f"  let nb = {load(buf, momentum_buffer.dtype)} * mom + {step};")
        lines.append(f"  {buf} = {store('nb', momentum_buffer.dtype)};")
        lines.append("  d = d + nb * mom;" if nesterov else "  d = nb;")
    lines.append(f"  {p} = {store('p - d * lr', param.dtype)};")
    launch.run("\n".join(lines), launch.scalars([lr, momentum, dampening, weight_decay]))
    return param


def adam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                 max_exp_avg_sq: Tensor | None, step: int, lr: float, beta1: float, beta2: float,
                 eps: float, weight_decay: float, amsgrad: bool, maximize: bool,
                 decoupled_weight_decay: bool) -> Tensor:
    ams = amsgrad and max_exp_avg_sq is not None
    outputs = [param, exp_avg, exp_avg_sq] + ([max_exp_avg_sq] if ams else [])
    launch = Launch(param, [grad], extra_outputs=outputs[1:])
    p, m, v = (launch.operand(i) for i in range(3))
    g = launch.operand(len(outputs))
    lines = [f"  let beta1 = {_scalar(0)}; let beta2 = {_scalar(1)}; let eps = {_scalar(2)};",
             f"  let wd = {_scalar(3)}; let decay = {_scalar(4)}; let c2 = {_scalar(5)};",
             f"  let step_size = {_scalar(6)};",
             f"  var p = {load(p, param.dtype)};", f"  let g0 = {load(g, grad.dtype)};"]
    if decoupled_weight_decay:
        lines.append("  let d = " + ("-g0;" if maximize else "g0;"))
        if weight_decay != 0:
            lines.append("  p = p * decay;")
    else:
        lines.append(_direction(weight_decay, maximize))
    m_old, v_old = load(m, exp_avg.dtype), load(v, exp_avg_sq.dtype)
    lines += [f"  let m = {m_old} + (d - {m_old}) * (1.0 - beta1);",
              f"  let v = {v_old} * beta2 + (d * d) * (1.0 - beta2);",
              f"  {m} = {store('m', exp_avg.dtype)};", f"  {v} = {store('v', exp_avg_sq.dtype)};"]
    second = "v"
    if ams:
        mx = launch.operand(3)
        lines += [f"  let mx = max({load(mx, max_exp_avg_sq.dtype)}, v);",
                  f"  {mx} = {store('mx', max_exp_avg_sq.dtype)};"]
        second = "mx"
    update = f"p - m / (sqrt({second}) / c2 + eps) * step_size"
    lines.append(f"  {p} = {store(update, param.dtype)};")
    scalars = [beta1, beta2, eps, weight_decay, 1 - lr * weight_decay,
               math.sqrt(1 - beta2 ** step), lr / (1 - beta1 ** step)]
    launch.run("\n".join(lines), launch.scalars(scalars))
    return param


KERNELS = {"_sgd_update_": sgd_update_, "_adam_update_": adam_update_}
