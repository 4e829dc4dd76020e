"""volta-ext-ops: out-of-tree operators for volta, called as ``volta.ops.ext.<name>``.

* ``ext::swiglu(x, gate)``: x * gate * sigmoid(gate), broadcasting;
* ``ext::fused_bias_gelu(x, bias)``: gelu(x + bias) (exact GELU) in one kernel;
* ``ext::rms_norm(x, weight, eps=1e-6)``: x * rsqrt(mean(x^2, -1) + eps) * weight;
* ``ext::rotary_embedding(x, cos, sin)``: x * cos + rotate_half(x) * sin.

Declared in ``ops.yaml`` (schemas, derivative formulas, pointwise snippets), compiled by volta's
codegen into ``_generated/``; hand-written CPU kernels and shape functions in ``plugin.py``.
"""
