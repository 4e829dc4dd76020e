"""``F.interpolate`` and the upsampling layers against PyTorch: every mode, 3-D/4-D/5-D inputs,
up- and downsampling by size and by scale factor, ``align_corners``, ``recompute_scale_factor``
and ``antialias``; outputs and input gradients in float32 and float64."""

from __future__ import annotations

import pytest
import torch

import volta
from tests.nn.parity import close, to_volta

SHAPES = {1: (2, 3, 7), 2: (2, 2, 7, 5), 3: (1, 2, 4, 5, 3)}
MODES = {1: ("nearest", "nearest-exact", "linear", "area"),
         2: ("nearest", "nearest-exact", "bilinear", "bicubic", "area"),
         3: ("nearest", "nearest-exact", "trilinear", "area")}
INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")


def _resize_kwargs(mode: str) -> list[dict]:
    corners = (False, True) if mode in INTERPOLATING else (None,)
    cases = []
    for align_corners in corners:
        extra = {} if align_corners is None else {"align_corners": align_corners}
        # up, down, fractional both ways, odd factors whose coordinates round in float32
        for factor in (2, 3, 0.5, 1.7, 0.7, 2.5, 0.4):
            cases.append(dict(scale_factor=factor, **extra))
        cases.append(dict(scale_factor=1.7, recompute_scale_factor=True, **extra))
        cases.append(dict(scale_factor=0.45, recompute_scale_factor=True, **extra))
        for size in (1, 4, 9, 14):
            cases.append(dict(size=size, **extra))
    return cases


CASES = [(rank, mode, kwargs) for rank in (1, 2, 3) for mode in MODES[rank]
         for kwargs in _resize_kwargs(mode)]
# one spatial size per dimension, as a tuple
CASES += [(2, "bilinear", dict(size=(3, 11))), (2, "bicubic", dict(scale_factor=(0.5, 2.5))),
          (3, "trilinear", dict(size=(6, 2, 5), align_corners=True)),
          (3, "nearest", dict(scale_factor=(2, 0.5, 1.5))), (2, "area", dict(size=(3, 4))),
          (1, "nearest-exact", dict(size=[10]))]


def _check(shape: tuple, dtype: torch.dtype, **kwargs) -> None:
    torch.manual_seed(0)
    x = torch.randn(*shape, dtype=dtype)
    tx, vx = x.clone().requires_grad_(), to_volta(x, requires_grad=True)
    t_out = torch.nn.functional.interpolate(tx, **kwargs)
    v_out = volta.nn.functional.interpolate(vx, **kwargs)
    assert tuple(v_out.shape) == tuple(t_out.shape)
    assert v_out.dtype == (volta.float64 if dtype == torch.float64 else volta.float32)
    tol = 1e-10 if dtype == torch.float64 else 3e-5
    close(v_out, t_out, tol, tol)
    g = torch.randn(t_out.shape, dtype=dtype)
    t_out.backward(g)
    v_out.backward(to_volta(g))
    close(vx.grad, tx.grad, tol * 5, tol * 5)


@pytest.mark.parametrize("rank,mode,kwargs", CASES,
                         ids=[f"{r}d-{m}-{k}" for r, m, k in CASES])
def test_interpolate_matches_torch(rank, mode, kwargs):
    _check(SHAPES[rank], torch.float32, mode=mode, **kwargs)


@pytest.mark.parametrize("rank,mode,kwargs", CASES[::3], ids=[
    f"{r}d-{m}-{k}" for r, m, k in CASES[::3]])
def test_interpolate_matches_torch_float64(rank, mode, kwargs):
    _check(SHAPES[rank], torch.float64, mode=mode, **kwargs)


AA_CASES = [(mode, kwargs) for mode in ("bilinear", "bicubic", "lanczos")
            for kwargs in (dict(scale_factor=0.5), dict(scale_factor=0.3, align_corners=True),
                           dict(scale_factor=(0.77, 2)), dict(size=(3, 30)),
                           dict(scale_factor=1.3), dict(scale_factor=0.25))
            if not (mode == "lanczos" and kwargs.get("align_corners"))]


@pytest.mark.parametrize("mode,kwargs", AA_CASES, ids=[f"{m}-{k}" for m, k in AA_CASES])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_interpolate_antialias_matches_torch(mode, kwargs, dtype):
    _check((2, 2, 17, 13), dtype, mode=mode, antialias=True, **kwargs)


UPSAMPLERS = [
    lambda nn: nn.Upsample(scale_factor=2, mode="bicubic"),
    lambda nn: nn.Upsample(size=(4, 9), mode="bicubic", align_corners=True),
    lambda nn: nn.Upsample(scale_factor=(1.5, 0.5), mode="nearest-exact"),
    lambda nn: nn.Upsample(size=3, mode="area"),
    lambda nn: nn.Upsample(scale_factor=1.5, mode="bilinear", recompute_scale_factor=True),
    lambda nn: nn.UpsamplingNearest2d(scale_factor=3),
    lambda nn: nn.UpsamplingNearest2d(size=(8, 3)),
    lambda nn: nn.UpsamplingBilinear2d(scale_factor=2),
    lambda nn: nn.UpsamplingBilinear2d(size=(3, 9)),
]


@pytest.mark.parametrize("index", range(len(UPSAMPLERS)))
def test_upsampling_layers_match_torch(index):
    tm, vm = UPSAMPLERS[index](torch.nn), UPSAMPLERS[index](volta.nn)
    assert repr(vm) == repr(tm)
    torch.manual_seed(0)
    x = torch.randn(2, 3, 5, 6)
    tx, vx = x.clone().requires_grad_(), to_volta(x, requires_grad=True)
    t_out, v_out = tm(tx), vm(vx)
    close(v_out, t_out, 3e-5, 3e-5)
    t_out.sum().backward()
    v_out.sum().backward()
    close(vx.grad, tx.grad, 1e-4, 1e-4)


def test_trilinear_upsample_layer_5d():
    tm = torch.nn.Upsample(scale_factor=(2, 1.5, 0.5), mode="trilinear")
    vm = volta.nn.Upsample(scale_factor=(2, 1.5, 0.5), mode="trilinear")
    x = torch.randn(1, 2, 3, 4, 6)
    close(vm(to_volta(x)), tm(x))


ERRORS = [
    ((2, 3, 5), dict(size=4, mode="bilinear")),  # bilinear needs 4-D input
    ((2, 3, 5, 5), dict(size=4, mode="trilinear")),
    ((2, 3, 5, 5, 5), dict(size=4, mode="linear")),
    ((2, 3), dict(size=4)),  # no spatial dimension
    ((2, 3, 5), dict(size=4, mode="cubic")),  # unknown mode
    ((2, 3, 5), dict(size=4, mode="nearest", align_corners=True)),
    ((2, 3, 5), dict(size=4, scale_factor=2)),
    ((2, 3, 5), dict()),
    ((2, 3, 5, 5), dict(size=(4, 4, 4))),
    ((2, 3, 5, 5), dict(scale_factor=(2, 2, 2))),
    ((2, 3, 5), dict(size=4, recompute_scale_factor=True)),
    ((2, 3, 5), dict(size=4, mode="linear", antialias=True)),  # antialias: bilinear/bicubic
    ((2, 3, 5, 5), dict(size=4, mode="nearest", antialias=True)),
    ((2, 3, 5, 5), dict(size=4, mode="lanczos")),  # lanczos needs antialias
    ((2, 3, 5, 5), dict(size=4, mode="lanczos", antialias=True, align_corners=True)),
    ((2, 3, 5), dict(scale_factor=0.1)),  # empty output
]


@pytest.mark.parametrize("shape,kwargs", ERRORS, ids=[str(k) for _, k in ERRORS])
def test_interpolate_errors_where_torch_raises(shape, kwargs):
    x = torch.randn(*shape)
    with pytest.raises((ValueError, RuntimeError, NotImplementedError)):
        torch.nn.functional.interpolate(x, **kwargs)
    with pytest.raises(volta.VoltaError):
        volta.nn.functional.interpolate(to_volta(x), **kwargs)


def test_upsample_helpers_match_torch():
    x = torch.randn(1, 2, 4, 5)
    close(volta.nn.functional.upsample(to_volta(x), scale_factor=2, mode="bicubic"),
          torch.nn.functional.interpolate(x, scale_factor=2, mode="bicubic"), 3e-5, 3e-5)
    close(volta.nn.functional.upsample_nearest(to_volta(x), size=(7, 3)),
          torch.nn.functional.interpolate(x, size=(7, 3), mode="nearest"))
    close(volta.nn.functional.upsample_bilinear(to_volta(x), scale_factor=2),
          torch.nn.functional.interpolate(x, scale_factor=2, mode="bilinear",
                                          align_corners=True))
