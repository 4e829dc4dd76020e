"""Train a small MLP classifier on a synthetic two-spirals problem with volta.

Uses only the core: volta ops, autograd and a hand-written SGD-with-momentum step (``volta.nn``
and ``volta.optim`` arrive with the training milestone). Prints the loss as it trains and the
final accuracy; exits non-zero if the model did not learn.
"""

from __future__ import annotations

import math
import sys
import time

import volta
import volta.nn.functional as F


def two_spirals(n: int, generator: volta.Generator) -> tuple[volta.Tensor, volta.Tensor]:
    t = volta.rand(n, generator=generator) * 3 * math.pi + 0.5
    labels = volta.randint(0, 2, (n,), generator=generator)
    sign = labels.float() * 2 - 1
    x = volta.stack([t * volta.cos(t) * sign, t * volta.sin(t) * sign], dim=1) / 10
    x = x + volta.randn(n, 2, generator=generator) * 0.02
    return x, labels


def init_layer(fan_in: int, fan_out: int, gen: volta.Generator) -> list[volta.Tensor]:
    bound = 1 / math.sqrt(fan_in)
    w = (volta.rand(fan_out, fan_in, generator=gen) * 2 - 1) * bound
    b = (volta.rand(fan_out, generator=gen) * 2 - 1) * bound
    return [w.requires_grad_(), b.requires_grad_()]


def forward(params: list[volta.Tensor], x: volta.Tensor) -> volta.Tensor:
    w1, b1, w2, b2, w3, b3 = params
    h = F.relu(F.linear(x, w1, b1))
    h = F.relu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)


def main() -> int:
    gen = volta.Generator().manual_seed(0)
    x_train, y_train = two_spirals(2048, gen)
    x_test, y_test = two_spirals(512, gen)
    params = init_layer(2, 64, gen) + init_layer(64, 64, gen) + init_layer(64, 2, gen)
    velocity = [volta.zeros_like(p) for p in params]
    lr, momentum, batch = 0.1, 0.9, 128
    start = time.perf_counter()
    for epoch in range(60):
        order = volta.randperm(x_train.shape[0], generator=gen)
        total = 0.0
        for i in range(0, x_train.shape[0], batch):
            idx = order[i:i + batch]
            loss = F.cross_entropy(forward(params, x_train[idx]), y_train[idx])
            for p in params:
                p.grad = None
            loss.backward()
            with volta.no_grad():
                for p, v in zip(params, velocity):
                    v.mul_(momentum).add_(p.grad)
                    p.sub_(v * lr)
            total += loss.item() * idx.shape[0]
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1:3d}  loss {total / x_train.shape[0]:.4f}")
    with volta.no_grad():
        accuracy = (forward(params, x_test).argmax(1) == y_test).float().mean().item()
    print(f"test accuracy {accuracy:.3f} after {time.perf_counter() - start:.1f} s")
    return 0 if accuracy > 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())
