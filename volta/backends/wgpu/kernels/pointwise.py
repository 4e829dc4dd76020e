"""Pointwise kernels for every op with a ``pointwise:`` snippet in ops.yaml.

The expressions come from ``generated_pointwise.py`` (codegen translates the same snippets the
numpy kernels are generated from); this module wraps each in the strided elementwise launch
and supplies the ``pw_*`` helper functions for the computation type:

* ``f32`` for float32 and float16 (PyTorch's "opmath": half tensors compute in float32);
* ``i32`` for int32 and int64 (int64 is stored as 32-bit, see ``storage.py``);
* ``b32`` for bool: ``i32`` arithmetic on 0/1, with bool meanings where they differ (``~``).

Type promotion and dtype checks are ``volta.dtypes.pointwise_result_dtypes``, shared with the CPU
backend, so both backends accept and reject the same calls.
"""

from __future__ import annotations

import math
import re
import struct
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.generated_pointwise import SPECS
from volta.backends.wgpu.kernels.copy import check_dtype
from volta.backends.wgpu.kernels.elementwise import Launch, load, store
from volta.backends.wgpu.storage import empty, handle_of, strides_of
from volta.errors import DTypeError, InvalidArgumentError
from volta.tensor.checks import check_integer_division_by_number, check_integer_pow_by_number
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.scalars import check_scalar, scalar_argument
from volta.tensor.tensor import Tensor

# -- helpers by computation type -------------------------------------------------------------------
# Each entry: WGSL defining ``pw_<name>`` for T. A helper missing for a type means the op has no
# meaning there (sqrt of an int computes in f32 by promotion, so needs no i32 version).

_F32 = {
    "isnan": "fn pw_isnan(x: f32) -> bool {\n"
             "  return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }",
    "isinf": "fn pw_isinf(x: f32) -> bool {\n"
             "  return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }",
    "inf": "fn pw_inf() -> f32 { return bitcast<f32>(0x7f800000u); }",
    "isfinite": "fn pw_isfinite(x: f32) -> bool { return !(pw_isnan(x) || pw_isinf(x)); }",
    "signbit": "fn pw_signbit(x: f32) -> bool { return (bitcast<u32>(x) >> 31u) == 1u; }",
    "abs": "fn pw_abs(x: f32) -> f32 { return abs(x); }",
    "sign": "fn pw_sign(x: f32) -> f32 { if (pw_isnan(x)) { return x; } return sign(x); }",
    "exp": "fn pw_exp(x: f32) -> f32 { return exp(x); }",
    "exp2": "fn pw_exp2(x: f32) -> f32 { return exp2(x); }",
    # Kahan's tricks keep full relative precision near 0
    "expm1": "fn pw_expm1(x: f32) -> f32 { let u = exp(x); if (u == 1.0) { return x; }\n"
             "  let um1 = u - 1.0; if (um1 == -1.0 || pw_isinf(u)) { return um1; }\n"
             "  return um1 * x / log(u); }",
    "log": "fn pw_log(x: f32) -> f32 { return log(x); }",
    "log2": "fn pw_log2(x: f32) -> f32 { return log2(x); }",
    "log10": "fn pw_log10(x: f32) -> f32 { return log2(x) * 0.30102999566398120; }",
    "log1p": "fn pw_log1p(x: f32) -> f32 { let u = 1.0 + x; if (u == 1.0) { return x; }\n"
             "  if (pw_isinf(u)) { return u; } return log(u) * x / (u - 1.0); }",
    "sqrt": "fn pw_sqrt(x: f32) -> f32 { return sqrt(x); }",
    "rsqrt": "fn pw_rsqrt(x: f32) -> f32 { return 1.0 / sqrt(x); }",
    "sin": "fn pw_sin(x: f32) -> f32 { return sin(x); }",
    "cos": "fn pw_cos(x: f32) -> f32 { return cos(x); }",
    "tan": "fn pw_tan(x: f32) -> f32 { return tan(x); }",
    # through atan2: some drivers' asin/acos are accurate to 1e-4 only
    "asin": "fn pw_asin(x: f32) -> f32 { if (abs(x) > 1.0) { return pw_inf() - pw_inf(); }\n"
            "  return pw_atan2(x, sqrt((1.0 - x) * (1.0 + x))); }",
    "acos": "fn pw_acos(x: f32) -> f32 { if (abs(x) > 1.0) { return pw_inf() - pw_inf(); }\n"
            "  return pw_atan2(sqrt((1.0 - x) * (1.0 + x)), x); }",
    "atan": "fn pw_atan(x: f32) -> f32 { return atan(x); }",
    "sinh": "fn pw_sinh(x: f32) -> f32 { return sinh(x); }",
    "cosh": "fn pw_cosh(x: f32) -> f32 { return cosh(x); }",
    "tanh": "fn pw_tanh(x: f32) -> f32 { if (abs(x) > 15.0) { return sign(x); }\n"
            "  return tanh(x); }",
    "atan2": "fn pw_atan2(a: f32, b: f32) -> f32 { if (a == 0.0 && b == 0.0) {\n"
             "  return select(0.0, 3.1415927, pw_signbit(b)) *\n"
             "    select(1.0, -1.0, pw_signbit(a)); }\n"
             "  return atan2(a, b); }",
    "floor": "fn pw_floor(x: f32) -> f32 { return floor(x); }",
    "ceil": "fn pw_ceil(x: f32) -> f32 { return ceil(x); }",
    "trunc": "fn pw_trunc(x: f32) -> f32 { return trunc(x); }",
    "frac": "fn pw_frac(x: f32) -> f32 { return x - trunc(x); }",
    "round": "fn pw_round(x: f32, d: i32) -> f32 { if (d == 0) { return round(x); }\n"
             "  let s = pow(10.0, f32(d)); return round(x * s) / s; }",
    "reciprocal": "fn pw_reciprocal(x: f32) -> f32 { return 1.0 / x; }",
    "softplus": "fn pw_softplus(x: f32) -> f32 { return max(x, 0.0) + pw_log1p(exp(-abs(x))); }",
    "sigmoid": "fn pw_sigmoid(x: f32) -> f32 { return 1.0 / (1.0 + exp(-x)); }",
    "log_sigmoid": "fn pw_log_sigmoid(x: f32) -> f32 { return min(x, 0.0) - "
                   "pw_log1p(exp(-abs(x))); }",
    "logaddexp": "fn pw_logaddexp(a: f32, b: f32) -> f32 { if (a == b) { return a + "
                 "0.6931471805599453; }\n  let m = max(a, b); if (pw_isinf(m)) { return m; }\n"
                 "  return m + pw_log1p(exp(-abs(a - b))); }",
    # Abramowitz & Stegun 7.1.26 (absolute error < 1.5e-7)
    "erf": "fn pw_erf(x: f32) -> f32 { let t = 1.0 / (1.0 + 0.3275911 * abs(x));\n"
           "  let y = 1.0 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t\n"
           "    - 0.284496736) * t + 0.254829592) * t * exp(-x * x);\n"
           "  return select(-y, y, x >= 0.0); }",
    "erfc": "fn pw_erfc(x: f32) -> f32 { return 1.0 - pw_erf(x); }",
    # Giles, "Approximating the erfinv function" (single precision)
    "erfinv": "fn pw_erfinv(x: f32) -> f32 { var w = -log((1.0 - x) * (1.0 + x)); var p: f32;\n"
              "  if (w < 5.0) { w = w - 2.5; p = 2.81022636e-08; p = 3.43273939e-07 + p * w;\n"
              "    p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;\n"
              "    p = 0.00021858087 + p * w; p = -0.00125372503 + p * w;\n"
              "    p = -0.00417768164 + p * w; p = 0.246640727 + p * w; p = 1.50140941 + p * w;\n"
              "  } else { w = sqrt(w) - 3.0; p = -0.000200214257; p = 0.000100950558 + p * w;\n"
              "    p = 0.00134934322 + p * w; p = -0.00367342844 + p * w;\n"
              "    p = 0.00573950773 + p * w; p = -0.0076224613 + p * w;\n"
              "    p = 0.00943887047 + p * w; p = 1.00167406 + p * w; p = 2.83297682 + p * w; }\n"
              "  if (abs(x) > 1.0) { return pw_inf() - pw_inf(); }\n"
              "  if (abs(x) == 1.0) { return x * pw_inf(); } return p * x; }",
    "maximum": "fn pw_maximum(a: f32, b: f32) -> f32 { if (pw_isnan(a) || pw_isnan(b)) "
               "{ return a + b; } return max(a, b); }",
    "minimum": "fn pw_minimum(a: f32, b: f32) -> f32 { if (pw_isnan(a) || pw_isnan(b)) "
               "{ return a + b; } return min(a, b); }",
    "fmax": "fn pw_fmax(a: f32, b: f32) -> f32 { if (pw_isnan(a)) { return b; }\n"
            "  if (pw_isnan(b)) { return a; } return max(a, b); }",
    "fmin": "fn pw_fmin(a: f32, b: f32) -> f32 { if (pw_isnan(a)) { return b; }\n"
            "  if (pw_isnan(b)) { return a; } return min(a, b); }",
    "hypot": "fn pw_hypot(a: f32, b: f32) -> f32 { let m = max(abs(a), abs(b));\n"
             "  if (m == 0.0 || pw_isinf(m)) { return m; } let x = a / m; let y = b / m;\n"
             "  return m * sqrt(x * x + y * y); }",
    "copysign": "fn pw_copysign(a: f32, b: f32) -> f32 { return select(abs(a), -abs(a), "
                "pw_signbit(b)); }",
    "xlogy": "fn pw_xlogy(x: f32, y: f32) -> f32 { if (x == 0.0 && !pw_isnan(y)) "
             "{ return 0.0; } return x * log(y); }",
    "pow": "fn pw_pow(a: f32, b: f32) -> f32 { if (b == 0.0) { return 1.0; }\n"
           "  if (a < 0.0 && b == floor(b)) { let r = pow(-a, b);\n"
           "    return select(r, -r, fract(b * 0.5) != 0.0); }\n"
           "  if (a == 0.0) { return select(0.0, pw_inf(), b < 0.0); } return pow(a, b); }",
    "remainder": "fn pw_remainder(a: f32, b: f32) -> f32 { let r = a - b * floor(a / b);\n"
                 "  return r; }",
    "fmod": "fn pw_fmod(a: f32, b: f32) -> f32 { return a - b * trunc(a / b); }",
    "floor_divide": "fn pw_floor_divide(a: f32, b: f32) -> f32 { return floor(a / b); }",
}

_I32 = {
    "isnan": "fn pw_isnan(x: i32) -> bool { return false; }",
    "isinf": "fn pw_isinf(x: i32) -> bool { return false; }",
    "isfinite": "fn pw_isfinite(x: i32) -> bool { return true; }",
    "signbit": "fn pw_signbit(x: i32) -> bool { return x < 0; }",
    "abs": "fn pw_abs(x: i32) -> i32 { return abs(x); }",
    "sign": "fn pw_sign(x: i32) -> i32 { return sign(x); }",
    "floor": "fn pw_floor(x: i32) -> i32 { return x; }",
    "ceil": "fn pw_ceil(x: i32) -> i32 { return x; }",
    "trunc": "fn pw_trunc(x: i32) -> i32 { return x; }",
    "round": "fn pw_round(x: i32, d: i32) -> i32 { return x; }",
    "maximum": "fn pw_maximum(a: i32, b: i32) -> i32 { return max(a, b); }",
    "minimum": "fn pw_minimum(a: i32, b: i32) -> i32 { return min(a, b); }",
    "fmax": "fn pw_fmax(a: i32, b: i32) -> i32 { return max(a, b); }",
    "fmin": "fn pw_fmin(a: i32, b: i32) -> i32 { return min(a, b); }",
    "pow": "fn pw_pow(a: i32, b: i32) -> i32 { var r = 1; var base = a; var e = b;\n"
           "  if (e < 0) { return select(0, select(-1, 1, (e & 1) == 0), a == -1) + "
           "select(0, 1, a == 1); }\n"
           "  loop { if (e == 0) { break; } if ((e & 1) == 1) { r = r * base; }\n"
           "    base = base * base; e = e >> 1u; } return r; }",
    # the remainder is a - b * (a / b), not WGSL's `%`: lavapipe returns `a` for `a % b` with
    # a negative b (7 % -3 == 7), and the quotient is right on every driver
    "remainder": "fn pw_remainder(a: i32, b: i32) -> i32 { let r = pw_fmod(a, b);\n"
                 "  return select(r, r + b, r != 0 && ((r < 0) != (b < 0))); }",
    "fmod": "fn pw_fmod(a: i32, b: i32) -> i32 { return a - b * (a / b); }",
    "floor_divide": "fn pw_floor_divide(a: i32, b: i32) -> i32 { let q = a / b;\n"
                    "  return select(q, q - 1, (a - b * q != 0) && ((a < 0) != (b < 0))); }",
    "xor": "fn pw_xor(a: i32, b: i32) -> i32 { return a ^ b; }",
    "shl": "fn pw_shl(a: i32, b: i32) -> i32 { return select(0, a << u32(b), b < 32 && b >= 0); }",
    "shr": "fn pw_shr(a: i32, b: i32) -> i32 { return a >> u32(min(max(b, 0), 31)); }",
    "invert": "fn pw_invert(x: i32) -> i32 { return ~x; }",
}

# PyTorch has no bool kernels for the integer divisions
_B32 = {**{k: v for k, v in _I32.items() if k not in ("floor_divide", "remainder", "fmod")},
        "invert": "fn pw_invert(x: i32) -> i32 { return i32(x == 0); }"}
_MINUS = re.compile(r"\(-|[^e] - ")  # negation or subtraction (not an exponent's sign)

_LOGICAL = {
    "logical_not": "fn pw_logical_not(x: T) -> bool { return x == T(0); }",
    "logical_and": "fn pw_logical_and(a: T, b: T) -> bool { return !(a == T(0)) && !(b == T(0)); }",
    "logical_or": "fn pw_logical_or(a: T, b: T) -> bool { return !(a == T(0)) || !(b == T(0)); }",
    "logical_xor": "fn pw_logical_xor(a: T, b: T) -> bool { return (a == T(0)) != (b == T(0)); }",
}

HELPERS = {"f32": _F32, "i32": _I32, "b32": _B32}
_CALL = re.compile(r"\bpw_(\w+)\(")
_COMPUTE = {D.float32: "f32", D.float16: "f32", D.int32: "i32", D.int64: "i32", D.bool_: "b32"}


def helpers_for(expression: str, compute: str, extra: dict[str, str] | None = None) -> str:
    """The WGSL helper functions ``expression`` calls (and those they call), for ``compute``;
    ``extra``: more helpers by name (a kernel module's own, such as ``special.py``'s)."""
    table = {**HELPERS[compute], **extra} if extra else HELPERS[compute]
    wgsl_type = "f32" if compute == "f32" else "i32"
    needed: list[str] = []
    todo = _CALL.findall(expression)
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.append(name)
        text = table.get(name) or _LOGICAL.get(name, "").replace("T", wgsl_type)
        todo.extend(_CALL.findall(text.split("{", 1)[-1]))
    missing = [n for n in needed if n not in table and n not in _LOGICAL]
    if missing:
        return ""  # the caller reports the op as unsupported for this dtype
    parts = [table.get(n) or _LOGICAL[n].replace("T", wgsl_type) for n in reversed(needed)]
    return "\n".join(p for p in parts if p) + "\n"


def _word(value: Any, wgsl_type: str) -> int:
    if wgsl_type == "f32":
        try:
            return _F32_WORD.unpack(_F32_BYTES.pack(float(value)))[0]
        except OverflowError:  # beyond float32's range: rounds to +-inf as numpy does
            return int(np.array(float(value), dtype=np.float32).view(np.uint32))
    if wgsl_type == "bool":
        return int(bool(value))
    return int(value) & 0xFFFFFFFF


_F32_BYTES = struct.Struct("<f")
_F32_WORD = struct.Struct("<I")
_READ_SCALAR = {"f32": "pf", "i32": "pi", "bool": "pu"}


def _signature(values: tuple) -> tuple:
    """What a pointwise kernel's types, checks and WGSL depend on: each tensor's dtype and
    whether it is 0-dim (type promotion), each other argument's Python type."""
    return tuple((v.dtype, not v._shape) if isinstance(v, Tensor) else type(v) for v in values)


class _Plan:
    """One pointwise op for one argument signature: the checks passed, the result dtype, the
    WGSL helpers, and the body per pattern of shared buffers (built once, not per call)."""

    __slots__ = ("out_dtype", "helpers", "wgsl_type", "scalar_kinds", "bodies", "contiguous")

    def __init__(self, out_dtype: D.dtype, helpers: str, wgsl_type: str,
                 scalar_kinds: tuple[tuple[int, str, str], ...]) -> None:
        self.out_dtype = out_dtype
        self.helpers = helpers
        self.wgsl_type = wgsl_type
        self.scalar_kinds = scalar_kinds  # (argument position, declared kind, WGSL kind)
        self.bodies: dict[tuple[int, ...], str] = {}
        # (device, buffer of each operand) -> the 1-D kernel for contiguous operands
        self.contiguous: dict[tuple[int, ...], Any] = {}

# the generated integer divisions: a zero divisor is an error (div's rounding modes say so
# in their specs)
_INTEGER_DIVISIONS = frozenset({"floor_divide", "remainder", "fmod"})


def make_kernel(name: str, spec: dict) -> Any:
    """The WGPU kernel of a pointwise op described like the entries of ``SPECS``. Extra keys
    for hand-written specs: ``conditions`` (Tensor arguments read as bool that take no part in
    type promotion, like ``where``'s condition); ``helpers`` (more ``pw_*`` WGSL helpers by
    computation type, then name); ``integer_division`` (a zero number divisor is an error in
    integer dtypes).

    Type checks, helpers and shader text depend only on the arguments' signature
    (:func:`_signature`), so they are worked out once per signature (:class:`_Plan`); a call
    then costs the launch's shapes and parameter words."""
    args = spec["args"]
    promotion, allowed, expression = spec["promotion"], spec["dtypes"], spec["wgsl"]
    conditions = frozenset(spec.get("conditions", ()))
    extra_helpers = spec.get("helpers", {})
    integer_division = spec.get("integer_division", name in _INTEGER_DIVISIONS)
    tensor_positions = [i for i, (_, kind) in enumerate(args) if kind == "Tensor"]
    promoted_positions = [i for i in tensor_positions if args[i][0] not in conditions]
    plans: dict[tuple, _Plan] = {}
    checks_number = integer_division or name == "pow"

    def plan_for(values: tuple) -> _Plan:
        promoted_operands = tuple(values[i] for i in promoted_positions)
        promoted, out_dtype = D.pointwise_result_dtypes(name, promotion, allowed, promoted_operands)
        compute = _COMPUTE.get(promoted)
        if compute is None:
            check_dtype(promoted, name)
        if compute == "b32" and _MINUS.search(expression):
            raise DTypeError(f"{name}: subtraction and negation are not supported for bool "
                             "tensors (use logical_not / logical_xor)")
        helpers = helpers_for(expression, compute, extra_helpers.get(compute))
        if "pw_" in expression and not helpers and compute == "i32":
            # a function with no integer meaning (hypot of ints): numpy computes it in floating
            # point and casts back, and so do we
            compute = "f32"
            helpers = helpers_for(expression, compute, extra_helpers.get(compute))
        if "pw_" in expression and not helpers:
            raise DTypeError(f"{name}: not implemented for '{promoted.name}' on wgpu")
        wgsl_type = "f32" if compute == "f32" else "i32"
        scalar_kinds = tuple(
            (i, kind, wgsl_type if kind in ("Tensor", "T") else kind)
            for i, ((_, kind), value) in enumerate(zip(args, values, strict=True))
            if not (kind == "Tensor" and isinstance(value, Tensor)))
        return _Plan(out_dtype, helpers, wgsl_type, scalar_kinds)

    def body(plan: _Plan, values: tuple, launch: Launch) -> str:
        lines = []
        n_scalars = 0
        k = 1
        for (arg, kind), value in zip(args, values, strict=True):
            var = f"v_{arg}"
            if kind == "Tensor" and isinstance(value, Tensor):
                as_type = "bool" if arg in conditions else plan.wgsl_type
                lines.append(f"  let {var} = {as_type}({load(launch.operand(k), value.dtype)});")
                k += 1
                continue
            kind = plan.wgsl_type if kind in ("Tensor", "T") else kind
            lines.append(f"  let {var} = {_READ_SCALAR[kind]}(nscalar_base + {n_scalars}u)"
                         f"{' != 0u' if kind == 'bool' else ''};")
            n_scalars += 1
        lines.append(f"  b{launch.binding[0]}[e0] = {store(expression, plan.out_dtype)};")
        return "\n".join(lines)

    def kernel(*values: Any) -> Tensor:
        signature = _signature(values)
        plan = plans.get(signature)
        if plan is None:
            plan = plans[signature] = plan_for(values)  # raises for unsupported dtypes
        out_dtype = plan.out_dtype
        scalars: list[int] = []
        for i, declared, kind in plan.scalar_kinds:
            value = values[i]
            if declared == "T":
                value = scalar_argument(name, value, out_dtype)
            elif declared == "Tensor":
                check_scalar(value, name)
            scalars.append(_word(value, kind))
        tensors = [values[i] for i in tensor_positions if isinstance(values[i], Tensor)]
        if checks_number and not isinstance(values[1], Tensor):
            # a zero in a divisor tensor would need a read-back; a number needs none
            if integer_division:
                check_integer_division_by_number(
                    name, out_dtype, values[1],
                    math.prod(broadcast_shapes(*(t._shape for t in tensors))))
            else:
                check_integer_pow_by_number(out_dtype, values[1])
        first = tensors[0]
        shape = first._shape
        numel = math.prod(shape)
        if numel > 1 and first._stride == strides_of(shape) and all(
                t._shape == shape and t._stride == first._stride for t in tensors):
            return contiguous(plan, values, tensors, shape, numel, scalars)
        shape = broadcast_shapes(*(t._shape for t in tensors))
        out = empty(shape, out_dtype, first._device)
        launch = Launch(out, tensors)
        return launch.run(body_for(plan, values, launch), scalars, plan.helpers)

    def body_for(plan: _Plan, values: tuple, launch: Launch) -> str:
        pattern = tuple(launch.binding)
        text = plan.bodies.get(pattern)
        if text is None:
            text = plan.bodies[pattern] = body(plan, values, launch)
        return text

    def contiguous(plan: _Plan, values: tuple, tensors: list[Tensor], shape: tuple[int, ...],
                   numel: int, scalars: list[int]) -> Tensor:
        """The common case, with no Launch: every tensor contiguous in one shape, so the
        1-D kernel of this plan and pattern of shared buffers is known from the last call."""
        out = empty(shape, plan.out_dtype, tensors[0]._device)
        handles = [handle_of(out)]
        pattern = [1]
        words = [numel, numel, 0, 1]
        for t in tensors:
            h = handle_of(t)
            for i, seen in enumerate(handles):
                if seen is h:
                    pattern.append(i + 1)
                    break
            else:
                handles.append(h)
                pattern.append(len(handles))
            words.append(t._offset)
            words.append(1)
        rt = handles[0].runtime
        key = (rt.index, *pattern)
        kernel = plan.contiguous.get(key)
        if kernel is None:
            launch = Launch(out, tensors)  # the 1-D launch of these operands: compiles once
            kernel = plan.contiguous[key] = launch.kernel(body_for(plan, values, launch),
                                                          plan.helpers)
        words.extend(scalars)  # all unsigned 32-bit words: the runtime packs the list as is
        rt.dispatch(kernel, handles, words, runtime.groups_for(numel))
        return out

    kernel.__name__ = name
    return kernel


def _spec(args: tuple, promotion: str, wgsl: str, **extra: Any) -> dict:
    return dict(args=args, promotion=promotion, dtypes=None, wgsl=wgsl, **extra)


# pointwise ops whose CPU kernels are written by hand (no snippet): the same template
_BINARY = (("self", "Tensor"), ("other", "Tensor"))
_DIV = {None: make_kernel("div", _spec(_BINARY, "int_to_float", "(v_self / v_other)")),
        "trunc": make_kernel("div", _spec(_BINARY, "default", "pw_trunc(v_self / v_other)",
                                          integer_division=True)),
        "floor": make_kernel("div", _spec(_BINARY, "default",
                                          "pw_floor_divide(v_self, v_other)",
                                          integer_division=True))}


def div(self: Any, other: Any, rounding_mode: str | None = None) -> Tensor:
    kernel = _DIV.get(rounding_mode)
    if kernel is None:
        raise InvalidArgumentError(f"div expected rounding_mode to be one of None, 'trunc', or "
                                   f"'floor' but found '{rounding_mode}'")
    return kernel(self, other)


KERNELS = {name: make_kernel(name, spec) for name, spec in SPECS.items()}
KERNELS["div"] = div
_WHERE = make_kernel("where", _spec((("condition", "Tensor"), *_BINARY), "default",
                                     "select(v_other, v_self, v_condition)",
                                     conditions=("condition",)))


def _known_range(value: Any) -> tuple[int, int] | None:
    """The host-known (min, max) of an integer operand: a Python int, or a tensor whose
    storage's range is known (Note [index range checks] in indexing.py)."""
    if isinstance(value, Tensor):
        return handle_of(value).value_range
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    return None


def where_self(condition: Tensor, self: Any, other: Any) -> Tensor:
    if condition.dtype is not D.bool_:
        raise DTypeError(f"where expected condition to be a boolean tensor, but got a tensor "
                         f"with dtype {condition.dtype.name}")
    out = _WHERE(condition, self, other)
    # an index picked from two known ranges has a known range: nll_loss's where(valid,
    # target, 0) stays checkable without reading the device
    ranges = [_known_range(self), _known_range(other)]
    if not out.dtype.is_floating_point and None not in ranges:
        handle_of(out).value_range = (min(r[0] for r in ranges if r is not None),
                                      max(r[1] for r in ranges if r is not None))
    return out


KERNELS["where.self"] = where_self
