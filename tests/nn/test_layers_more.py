"""AdaptiveAvg/MaxPool1d, LPPool3d, PixelUnshuffle, BatchNorm3d, InstanceNorm1d/2d/3d,
CosineSimilarity, PairwiseDistance, Dropout1d and ParameterDict against PyTorch: repr,
state_dict layout, outputs, input and weight gradients, running statistics, errors."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, layer_matches_torch, raises_like_torch, state_layout, to_volta


def _floats(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


CASES = [
    ("AdaptiveAvgPool1d", (3,), {}, [_floats(2, 3, 7)]),
    ("AdaptiveAvgPool1d", (4,), {}, [_floats(3, 9)]),
    ("AdaptiveMaxPool1d", (3,), {}, [_floats(2, 3, 7)]),
    ("AdaptiveMaxPool1d", (2,), {}, [_floats(3, 5)]),
    ("LPPool3d", (2, 2), {}, [_floats(2, 2, 4, 4, 4)]),
    ("LPPool3d", (3, (2, 1, 2)), {"stride": (1, 1, 2)}, [np.abs(_floats(1, 2, 3, 4, 4))]),
    ("LPPool3d", (float("inf"), 2), {}, [_floats(1, 2, 4, 4, 4)]),
    ("PixelUnshuffle", (2,), {}, [_floats(2, 3, 4, 6)]),
    ("PixelUnshuffle", (3,), {}, [_floats(2, 6, 3)]),
    ("BatchNorm3d", (3,), {}, [_floats(2, 3, 2, 3, 2)]),
    ("BatchNorm3d", (3,), {"affine": False, "momentum": None}, [_floats(2, 3, 2, 2, 2)]),
    ("InstanceNorm1d", (3,), {}, [_floats(2, 3, 5)]),
    ("InstanceNorm1d", (3,), {"affine": True, "track_running_stats": True}, [_floats(2, 3, 5)]),
    ("InstanceNorm1d", (3,), {"affine": True}, [_floats(3, 5)]),
    ("InstanceNorm2d", (3,), {"track_running_stats": True, "momentum": None},
     [_floats(2, 3, 4, 4)]),
    ("InstanceNorm3d", (2,), {"affine": True}, [_floats(2, 2, 3, 2, 3)]),
    ("InstanceNorm3d", (2,), {"track_running_stats": True}, [_floats(2, 3, 2, 3)]),
    ("CosineSimilarity", (), {}, [_floats(4, 5), _floats(4, 5, seed=1)]),
    ("CosineSimilarity", (0,), {"eps": 1e-6}, [_floats(5, 3), _floats(5, 1, seed=1)]),
    ("PairwiseDistance", (), {}, [_floats(4, 5), _floats(4, 5, seed=1)]),
    ("PairwiseDistance", (1.0,), {"keepdim": True}, [_floats(4, 5), _floats(5, seed=1)]),
    ("PairwiseDistance", (3.0,), {"eps": 0.0}, [_floats(5), _floats(5, seed=1)]),
]


@pytest.mark.parametrize(("name", "args", "kwargs", "inputs"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
@pytest.mark.parametrize("training", [True, False])
def test_layer_matches_torch(name: str, args: tuple, kwargs: dict, inputs: list,
                             training: bool) -> None:
    layer_matches_torch(name, args, kwargs, inputs, training)


def test_dropout1d_eval_matches_torch() -> None:
    layer_matches_torch("Dropout1d", (0.4,), {}, [_floats(2, 3, 5)], training=False)


def test_dropout1d_zeroes_whole_channels() -> None:
    volta.manual_seed(0)
    x = volta.ones(4, 6, 5)
    out = volta.nn.Dropout1d(0.5)(x).numpy()
    per_channel = out.reshape(24, 5)
    assert all(set(row) <= {0.0, 2.0} and len(set(row)) == 1 for row in per_channel)
    assert 0 < (per_channel[:, 0] == 0).sum() < 24
    unbatched = volta.nn.Dropout1d(0.5)(volta.ones(6, 5))
    assert tuple(unbatched.shape) == (6, 5)


def test_adaptive_max_pool1d_returns_torch_indices() -> None:
    x = torch.tensor(_floats(2, 3, 7))
    t_out, t_idx = torch.nn.AdaptiveMaxPool1d(3, return_indices=True)(x)
    v_out, v_idx = volta.nn.AdaptiveMaxPool1d(3, return_indices=True)(to_volta(x))
    close(v_out, t_out)
    np.testing.assert_array_equal(v_idx.numpy(), t_idx.numpy())


@pytest.mark.parametrize(("name", "shape"), [
    ("BatchNorm3d", (2, 3, 4)), ("InstanceNorm1d", (3,)), ("InstanceNorm1d", (2, 3, 4, 5)),
    ("InstanceNorm3d", (2, 3, 4)), ("Dropout1d", (2, 3, 4, 5)), ("LPPool3d", (2, 3)),
])
def test_wrong_ranks_raise_like_torch(name: str, shape: tuple) -> None:
    x = torch.ones(shape)
    args = (2, 2) if name == "LPPool3d" else (3,) if "Norm" in name else (0.5,)

    def call(lib: object) -> object:
        return getattr(lib.nn, name)(*args)(x if lib is torch else to_volta(x))

    raises_like_torch(call)


def test_instance_norm_channel_mismatch_like_torch() -> None:
    x = torch.ones(2, 4, 5)
    raises_like_torch(lambda lib: lib.nn.InstanceNorm1d(3, affine=True)(
        x if lib is torch else to_volta(x)))
    with pytest.warns(UserWarning, match="does not match num_features"):
        volta.nn.InstanceNorm1d(3)(to_volta(x))


def test_float32_norms_match_torch() -> None:
    x = _floats(2, 3, 2, 3, 2).astype(np.float32)
    for t_layer, v_layer in [(torch.nn.BatchNorm3d(3), volta.nn.BatchNorm3d(3)),
                             (torch.nn.InstanceNorm3d(3, affine=True),
                              volta.nn.InstanceNorm3d(3, affine=True))]:
        t_out, v_out = t_layer(torch.tensor(x)), v_layer(volta.tensor(x))
        assert v_out.dtype == volta.float32
        close(v_out, t_out, 1.3e-6, 1e-5)


# -- ParameterDict -------------------------------------------------------------------------------

def test_parameter_dict_registers_like_torch() -> None:
    a, b = _floats(2, 3), _floats(4)
    t = torch.nn.ParameterDict({"b": torch.tensor(b), "a": torch.nn.Parameter(torch.tensor(a))})
    v = volta.nn.ParameterDict({"b": volta.tensor(b), "a": volta.nn.Parameter(volta.tensor(a))})
    assert list(v.keys()) == list(t.keys()) == ["a", "b"]  # a plain dict: sorted keys
    assert all(isinstance(p, volta.nn.Parameter) for p in v.values())
    assert [n for n, _ in v.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert list(v.state_dict()) == list(t.state_dict())
    assert repr(v).replace("volta", "torch") == repr(t)
    t["c"], v["c"] = "text", "text"
    assert repr(v).replace("volta", "torch") == repr(t)
    ordered_t = torch.nn.ParameterDict(OrderedDict([("z", torch.zeros(1)), ("y", torch.ones(2))]))
    ordered_v = volta.nn.ParameterDict(OrderedDict([("z", volta.zeros(1)), ("y", volta.ones(2))]))
    assert list(ordered_v) == list(ordered_t) == ["z", "y"]
    merged_t, merged_v = t | ordered_t, v | ordered_v
    assert list(merged_v) == list(merged_t)
    assert list(volta.nn.ParameterDict([("q", volta.ones(1)), ("p", volta.ones(1))])) == ["q", "p"]


def test_parameter_dict_dict_methods() -> None:
    v = volta.nn.ParameterDict()
    assert repr(v) == "ParameterDict()" and len(v) == 0
    v["w"] = volta.ones(3)
    assert v.setdefault("w", volta.zeros(1)) is v["w"]
    v.setdefault("u", volta.zeros(2))
    assert "u" in v and v.get("missing") is None and list(reversed(v)) == ["u", "w"]
    key, value = v.popitem()
    assert key == "u" and tuple(value.shape) == (2,) and list(v) == ["w"]
    popped = v.pop("w")
    assert tuple(popped.shape) == (3,) and len(v) == 0 and not list(v.parameters())
    v.update({"x": volta.ones(1)})
    copied = v.copy()
    assert copied["x"] is v["x"]
    v.clear()
    assert len(v) == 0 and not hasattr(v, "x")
    assert list(v.fromkeys(["m", "n"], volta.ones(1))) == ["m", "n"]


@pytest.mark.parametrize("bad", [
    lambda lib, d: d.__setitem__(1, lib.ones(1)),
    lambda lib, d: d.update(3),
    lambda lib, d: d.update([("a", lib.ones(1), 1)]),
    lambda lib, d: d(lib.ones(1)),
])
def test_parameter_dict_errors_like_torch(bad: object) -> None:
    raises_like_torch(lambda lib: bad(lib, lib.nn.ParameterDict()))


# -- SyncBatchNorm (one process: PyTorch without an initialized process group) -------------------

@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 3, 2, 2, 2)])
@pytest.mark.parametrize("training", [True, False])
def test_sync_batch_norm_matches_torch_in_one_process(shape: tuple, training: bool) -> None:
    layer_matches_torch("SyncBatchNorm", (3,), {"momentum": 0.2}, [_floats(*shape)], training)


def test_convert_sync_batchnorm_like_torch() -> None:
    def build(lib: object) -> object:
        return lib.nn.Sequential(lib.nn.Conv2d(2, 3, 1), lib.nn.BatchNorm2d(3),
                                 lib.nn.Sequential(lib.nn.BatchNorm1d(3, affine=False)))

    t_model, v_model = build(torch), build(volta)
    v_model[1].eval()
    t_model[1].eval()
    weight = v_model[1].weight
    t_sync = torch.nn.SyncBatchNorm.convert_sync_batchnorm(t_model)
    v_sync = volta.nn.SyncBatchNorm.convert_sync_batchnorm(v_model)
    assert repr(v_sync) == repr(t_sync)
    assert state_layout(v_sync) == state_layout(t_sync)
    assert v_sync[1].weight is weight and not v_sync[1].training
    single = volta.nn.SyncBatchNorm.convert_sync_batchnorm(volta.nn.BatchNorm1d(2))
    assert type(single) is volta.nn.SyncBatchNorm
    raises_like_torch(lambda lib: lib.nn.SyncBatchNorm(3)(lib.ones(3)))


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.CosineSimilarity()(lib.ones(3, 4), lib.ones(3, 5)),
    lambda lib: lib.nn.PairwiseDistance()(lib.ones(3, 4), lib.ones(2, 4)),
    lambda lib: lib.nn.PixelUnshuffle(2)(lib.ones(1, 2, 3, 4)),
    lambda lib: lib.nn.AdaptiveAvgPool1d(2)(lib.ones(2, 3, 4, 5)),
    lambda lib: lib.nn.AdaptiveMaxPool1d(2)(lib.ones(4)),
    lambda lib: lib.nn.BatchNorm3d(2)(lib.ones(2, 3, 2, 2, 2)),
])
def test_bad_inputs_raise_like_torch(call: object) -> None:
    raises_like_torch(call)
