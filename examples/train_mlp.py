"""Train a small MLP classifier on a synthetic two-spirals problem with volta.

Needs no extras: ``volta.nn`` modules, ``volta.optim.SGD`` with momentum and a ``DataLoader``
over synthetic data. Prints the loss as it trains and the final accuracy; exits non-zero if the
model did not learn. ``examples/train_digits_cnn.py`` is the fuller CNN demo (``make demo``).
"""

from __future__ import annotations

import math
import sys
import time

import volta
from volta import nn
from volta.utils.data import DataLoader, TensorDataset


def two_spirals(n: int, generator: volta.Generator) -> tuple[volta.Tensor, volta.Tensor]:
    t = volta.rand(n, generator=generator) * 3 * math.pi + 0.5
    labels = volta.randint(0, 2, (n,), generator=generator)
    sign = labels.float() * 2 - 1
    x = volta.stack([t * volta.cos(t) * sign, t * volta.sin(t) * sign], dim=1) / 10
    x = x + volta.randn(n, 2, generator=generator) * 0.02
    return x, labels


class MLP(nn.Module):
    def __init__(self, hidden: int = 64) -> None:
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                                    nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, x: volta.Tensor) -> volta.Tensor:
        return self.layers(x)


def main() -> int:
    volta.manual_seed(0)  # weight init
    gen = volta.Generator().manual_seed(0)
    x_train, y_train = two_spirals(2048, gen)
    x_test, y_test = two_spirals(512, gen)
    loader = DataLoader(TensorDataset(x_train, y_train), batch_size=128, shuffle=True,
                        generator=gen)
    model = MLP()
    optimizer = volta.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    start = time.perf_counter()
    for epoch in range(40):
        total = 0.0
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * y.shape[0]
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1:3d}  loss {total / x_train.shape[0]:.4f}")
    model.eval()
    with volta.no_grad():
        accuracy = (model(x_test).argmax(1) == y_test).float().mean().item()
    print(f"test accuracy {accuracy:.3f} after {time.perf_counter() - start:.1f} s")
    return 0 if accuracy > 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())
