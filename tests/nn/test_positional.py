"""Sinusoidal and rotary positional encodings against straightforward reference formulas
(numpy, float64), and the property that makes rotary embeddings useful: the score of a rotated
query and key depends on their positions only through the offset m - n."""

from __future__ import annotations

import math

import numpy as np
import pytest

import volta
from volta import nn


def reference_sinusoidal(length: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    table = np.zeros((length, d_model))
    for position in range(length):
        for feature in range(d_model):
            pair = feature // 2
            angle = position / base ** (2 * pair / d_model)
            table[position, feature] = math.sin(angle) if feature % 2 == 0 else math.cos(angle)
    return table


def reference_rotary(x: np.ndarray, positions: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """Rotate each pair (x_j, x_{j + d/2}) by position * base^(-2j/d), pair by pair."""
    dim = x.shape[-1]
    half = dim // 2
    out = np.empty_like(x)
    for row, position in enumerate(positions):
        for j in range(half):
            angle = position * base ** (-2 * j / dim)
            a, b = x[..., row, j], x[..., row, j + half]
            out[..., row, j] = a * math.cos(angle) - b * math.sin(angle)
            out[..., row, j + half] = a * math.sin(angle) + b * math.cos(angle)
    return out


@pytest.mark.parametrize("length,d_model,base", [(50, 16, 10000.0), (9, 7, 10000.0),
                                                 (12, 6, 100.0)])
def test_sinusoidal_table_matches_the_formula(length, d_model, base):
    table = nn.sinusoidal_positional_encoding(length, d_model, base)
    assert tuple(table.shape) == (length, d_model)
    assert table.dtype is volta.float32
    np.testing.assert_allclose(table.numpy(), reference_sinusoidal(length, d_model, base),
                               atol=1e-6)
    double = nn.sinusoidal_positional_encoding(length, d_model, base, dtype=volta.float64)
    np.testing.assert_allclose(double.numpy(), reference_sinusoidal(length, d_model, base),
                               atol=1e-12)


@pytest.mark.parametrize("batch_first", [False, True])
def test_sinusoidal_module_adds_the_table(batch_first):
    module = nn.SinusoidalPositionalEncoding(6, max_len=20, batch_first=batch_first)
    x = volta.randn(3, 5, 6)  # (L=3, N=5) or (N=3, L=5)
    length = 5 if batch_first else 3
    table = reference_sinusoidal(20, 6)
    expected = x.numpy() + (table[None, :length] if batch_first else table[:length, None])
    np.testing.assert_allclose(module(x).numpy(), expected, atol=1e-6)
    # an offset continues the positions; unbatched (L, E) inputs work in both layouts
    unbatched = volta.randn(4, 6)
    np.testing.assert_allclose(module(unbatched, offset=7).numpy(),
                               unbatched.numpy() + table[7:11], atol=1e-6)
    assert module.state_dict() == {}  # recomputed, never learned: not in checkpoints


def test_sinusoidal_module_dropout_gradient_and_errors():
    module = nn.SinusoidalPositionalEncoding(4, max_len=8, dropout=0.5)
    x = volta.ones(8, 50, 4, requires_grad=True)
    volta.manual_seed(0)
    y = module(x)
    zeros = float((y == 0).float().mean())
    assert 0.4 < zeros < 0.6
    y.sum().backward()
    assert set(np.unique(x.grad.numpy())) <= {0.0, 2.0}
    module.eval()
    expected = np.broadcast_to(1.0 + reference_sinusoidal(8, 4)[:, None], (8, 50, 4))
    np.testing.assert_allclose(module(x).detach().numpy(), expected, atol=1e-6)
    with pytest.raises(volta.ShapeError, match="max_len"):
        module(volta.zeros(9, 1, 4))
    with pytest.raises(volta.ShapeError):
        module(volta.zeros(2, 1, 5))
    with pytest.raises(volta.InvalidArgumentError):
        nn.SinusoidalPositionalEncoding(4, dropout=1.5)


def test_rotary_tables_and_application_match_the_reference():
    rope = nn.RotaryEmbedding(8, max_seq_len=16)
    cos, sin = rope(6, offset=3)
    assert tuple(cos.shape) == tuple(sin.shape) == (6, 8)
    positions = np.arange(3, 9)
    angles = positions[:, None] * 10000.0 ** (-np.arange(0, 8, 2) / 8)
    np.testing.assert_allclose(cos.numpy(), np.cos(np.concatenate([angles, angles], 1)),
                               atol=1e-6)
    np.testing.assert_allclose(sin.numpy(), np.sin(np.concatenate([angles, angles], 1)),
                               atol=1e-6)
    x = np.random.default_rng(0).standard_normal((2, 3, 6, 8))  # (N, H, L, head_dim)
    rotated = nn.apply_rotary_embedding(volta.tensor(x, dtype=volta.float64),
                                        cos.double(), sin.double())
    np.testing.assert_allclose(rotated.numpy(), reference_rotary(x, positions), atol=1e-6)


def test_rotary_scores_depend_only_on_the_position_offset():
    rng = np.random.default_rng(1)
    dim = 16
    rope = nn.RotaryEmbedding(dim, base=100.0, dtype=volta.float64)
    q, k = rng.standard_normal(dim), rng.standard_normal(dim)
    cos, sin = rope(40)

    def rotated(vector: np.ndarray, position: int) -> np.ndarray:
        row = volta.tensor(vector[None], dtype=volta.float64)
        return nn.apply_rotary_embedding(row, cos[position:position + 1],
                                         sin[position:position + 1]).numpy()[0]

    for offset in (0, 3, 11):
        scores = [rotated(q, m) @ rotated(k, m - offset) for m in range(offset, 40, 7)]
        np.testing.assert_allclose(scores, scores[0], rtol=1e-10)
    # and it does change with the offset (so the test above is not vacuous)
    assert abs(rotated(q, 5) @ rotated(k, 5) - rotated(q, 9) @ rotated(k, 5)) > 1e-3
    # rotations keep norms
    np.testing.assert_allclose(np.linalg.norm(rotated(q, 17)), np.linalg.norm(q))


def test_rotary_cache_grows_follows_dtype_and_gradients_flow():
    rope = nn.RotaryEmbedding(4, max_seq_len=2)
    cos, sin = rope(5, offset=4)
    assert rope.max_seq_len >= 9 and tuple(cos.shape) == (5, 4)
    assert rope.state_dict() == {}
    np.testing.assert_allclose(cos.numpy()[:, 0], np.cos(np.arange(4, 9)), atol=1e-6)
    rope.double()
    assert rope(3)[0].dtype is volta.float64
    x = volta.randn(2, 3, 4, requires_grad=True)
    cos, sin = nn.RotaryEmbedding(4)(3)
    nn.apply_rotary_embedding(x, cos, sin).square().sum().backward()
    # a rotation is orthogonal: d|Rx|^2/dx = 2x
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy(), atol=1e-5)


def test_rotary_errors():
    with pytest.raises(volta.InvalidArgumentError, match="even"):
        nn.RotaryEmbedding(5)
    cos, sin = nn.RotaryEmbedding(4)(3)
    with pytest.raises(volta.ShapeError):
        nn.apply_rotary_embedding(volta.zeros(3, 6), cos, sin)
