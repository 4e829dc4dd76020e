"""Custom differentiable functions: ``volta.autograd.Function``, ``volta.library.register_autograd``
and ``gradcheck``."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.autograd import gradcheck, gradgradcheck
from volta.backends.cpu.storage import array, wrap

RNG = np.random.default_rng(7)


def leaf(values) -> volta.Tensor:
    return volta.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


# -- Function ------------------------------------------------------------------------------------


class Cube(volta.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x


class WrongCube(Cube):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 2 * x * x  # deliberately wrong


class ScaledProduct(volta.autograd.Function):
    """``scale * x * y`` with non-tensor arguments; records which inputs needed a gradient."""

    seen_needs: tuple = ()

    @staticmethod
    def forward(ctx, x, y, scale, mode):
        assert mode == "product" and isinstance(scale, float)
        ctx.save_for_backward(x, y)
        ctx.scale = scale
        return x * y * scale

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        ScaledProduct.seen_needs = ctx.needs_input_grad
        gx = grad * y * ctx.scale if ctx.needs_input_grad[0] else None
        gy = grad * x * ctx.scale if ctx.needs_input_grad[1] else None
        return gx, gy, None, None


class SortValues(volta.autograd.Function):
    """Like ``sort``: differentiable values, integer indices marked non-differentiable."""

    @staticmethod
    def forward(ctx, x):
        values, indices = x.sort(-1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        return volta.zeros_like(grad_values).scatter(-1, indices, grad_values)


class SplitScale(volta.autograd.Function):
    """Two differentiable outputs: ``(2x, x * y)``."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * 2, x * y

    @staticmethod
    def backward(ctx, g_double, g_product):
        x, y = ctx.saved_tensors
        return g_double * 2 + g_product * y, g_product * x


def test_save_for_backward_and_gradient():
    xv = RNG.standard_normal(4)
    x = leaf(xv)
    y = Cube.apply(x)
    assert y.grad_fn is not None and "Cube" in y.grad_fn.name()
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * xv ** 2)


def test_needs_input_grad_and_non_tensor_arguments():
    xv, yv = RNG.standard_normal(3), RNG.standard_normal(3)
    x = leaf(xv)
    y = volta.tensor(yv)  # does not require grad
    out = ScaledProduct.apply(x, y, 0.5, "product")
    out.sum().backward()
    assert ScaledProduct.seen_needs == (True, False, False, False)
    np.testing.assert_allclose(x.grad.numpy(), 0.5 * yv)
    assert y.grad is None


def test_mark_non_differentiable_sort():
    xv = RNG.standard_normal((3, 5))
    x = leaf(xv)
    values, indices = SortValues.apply(x)
    assert values.requires_grad and not indices.requires_grad
    assert indices.dtype == volta.int64 and indices.grad_fn is None
    weights = np.arange(5.0)
    (values * volta.tensor(weights)).sum().backward()
    tx = torch.tensor(xv, requires_grad=True)
    (tx.sort(-1).values * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())
    np.testing.assert_array_equal(indices.numpy(), tx.sort(-1).indices.numpy())


def test_multiple_outputs():
    xv, yv = RNG.standard_normal(3), RNG.standard_normal(3)
    x, y = leaf(xv), leaf(yv)
    double, product = SplitScale.apply(x, y)
    assert double.grad_fn is product.grad_fn
    (double.sum() * 3 + (product ** 2).sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), 6 + 2 * xv * yv * yv)
    np.testing.assert_allclose(y.grad.numpy(), 2 * xv * yv * xv)


def test_unused_output_gets_a_zero_gradient():
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    double, _ = SplitScale.apply(x, y)
    double.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])
    np.testing.assert_allclose(y.grad.numpy(), [0.0, 0.0])


def test_function_under_no_grad_records_nothing():
    x = leaf([1.0, 2.0])
    with volta.no_grad():
        y = Cube.apply(x)
    assert y.grad_fn is None and not y.requires_grad


def test_forward_runs_without_recording_its_own_ops():
    class Peek(volta.autograd.Function):
        inside: bool | None = None

        @staticmethod
        def forward(ctx, x):
            inner = x * 2
            Peek.inside = inner.grad_fn is None
            return inner

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = leaf([1.0])
    Peek.apply(x).sum().backward()
    assert Peek.inside is True
    np.testing.assert_allclose(x.grad.numpy(), [2.0])


def test_returning_an_input_keeps_the_input_history():
    class Identity(volta.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 5

    x = leaf([1.0, 2.0])
    h = x * 1
    out = Identity.apply(h)
    assert out is not h and h.grad_fn.name() == "MulBackward"
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0, 5.0])


def test_saved_tensor_modified_in_place_is_detected():
    x = leaf([1.0, 2.0])
    h = x * 1
    y = Cube.apply(h)
    h.add_(1)
    with pytest.raises(volta.AutogradError, match="modified by an inplace operation"):
        y.sum().backward()


def test_second_backward_through_a_function_raises():
    x = leaf([1.0, 2.0])
    y = Cube.apply(x).sum()
    y.backward()
    with pytest.raises(volta.AutogradError, match="second time"):
        y.backward()


def test_gradcheck_on_functions():
    x, y = leaf(RNG.standard_normal(4)), leaf(RNG.standard_normal(4))
    assert gradcheck(Cube.apply, (x,))
    assert gradcheck(lambda a, b: ScaledProduct.apply(a, b, 1.5, "product"), (x, y))
    assert gradcheck(lambda a: SortValues.apply(a)[0], (leaf(RNG.standard_normal((2, 4))),))
    assert gradcheck(SplitScale.apply, (x, y))
    assert gradcheck(Cube.apply, (x,), fast_mode=True)
    assert gradgradcheck(Cube.apply, (x,))


def test_gradcheck_detects_a_wrong_backward():
    x = leaf(RNG.standard_normal(3) + 2.0)
    assert gradcheck(WrongCube.apply, (x,), raise_exception=False) is False
    with pytest.raises(volta.AutogradError, match=r"Jacobian mismatch.*output 0.*input 0"):
        gradcheck(WrongCube.apply, (x,))
    with pytest.raises(volta.AutogradError, match="Jacobian mismatch"):
        gradcheck(WrongCube.apply, (x,), fast_mode=True)


# -- volta.library.register_autograd --------------------------------------------------------------


def _cube_kernel(x: volta.Tensor) -> volta.Tensor:
    # below the Autograd key, so these volta ops record nothing
    return x * x * x


def _numpy_cube_kernel(x: volta.Tensor) -> volta.Tensor:
    return wrap(array(x) ** 3)


def _setup(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])


def _cube_backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return grad * 3 * x ** 2


@pytest.mark.parametrize("kernel", [_cube_kernel, _numpy_cube_kernel], ids=["volta", "numpy"])
def test_register_autograd_for_a_library_op(kernel):
    xv = RNG.standard_normal(5)
    with volta.library.scoped():
        volta.library.define("tst::cube(Tensor x) -> Tensor")
        volta.library.impl("tst::cube", "CPU", kernel)
        volta.library.register_autograd("tst::cube", _cube_backward, setup_context=_setup)
        x = leaf(xv)
        y = volta.ops.tst.cube(x)
        np.testing.assert_allclose(y.detach().numpy(), xv ** 3)
        y.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), 3 * xv ** 2)
        assert gradcheck(volta.ops.tst.cube, (leaf(xv),))
        assert gradgradcheck(volta.ops.tst.cube, (leaf(xv),))
    with pytest.raises(AttributeError):
        volta.ops.tst.cube  # noqa: B018 - the scope removed the op


def test_register_autograd_with_a_non_tensor_argument():
    with volta.library.scoped():
        volta.library.define("tst::scale(Tensor x, float s) -> Tensor")
        volta.library.impl("tst::scale", "CPU", lambda x, s: x * s)

        def setup(ctx, inputs, output):
            ctx.s = inputs[1]

        volta.library.register_autograd("tst::scale", lambda ctx, g: (g * ctx.s, None),
                                        setup_context=setup)
        x = leaf([1.0, 2.0])
        volta.ops.tst.scale(x, 2.5).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), [2.5, 2.5])
        assert gradcheck(lambda t: volta.ops.tst.scale(t, -1.5), (leaf([0.1, 0.2]),))


def test_wrong_library_backward_fails_gradcheck():
    with volta.library.scoped():
        volta.library.define("tst::cube(Tensor x) -> Tensor")
        volta.library.impl("tst::cube", "CPU", _cube_kernel)
        volta.library.register_autograd("tst::cube", lambda ctx, g: g * 3, setup_context=_setup)
        x = leaf([0.5, 1.5])
        assert not gradcheck(volta.ops.tst.cube, (x,), raise_exception=False)


def test_library_op_without_autograd_refuses_to_drop_gradients():
    with volta.library.scoped():
        volta.library.define("tst::cube(Tensor x) -> Tensor")
        volta.library.impl("tst::cube", "CPU", _cube_kernel)
        x = leaf([1.0, 2.0])
        y = volta.ops.tst.cube(x)
        assert y.requires_grad
        with pytest.raises(volta.AutogradError, match="tst::cube"):
            y.sum().backward()
