"""Train a small MLP classifier on a synthetic two-spirals problem with volta.

Needs no extras: ``volta.nn`` modules, ``volta.optim.SGD`` with momentum and a ``DataLoader``
over synthetic data. Prints the loss as it trains and the final accuracy; exits non-zero if the
model did not learn. ``examples/train_digits_cnn.py`` is the fuller CNN demo (``make demo``).
``--device`` picks any registered volta device (``cpu`` by default).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence

from example_cli import add_device_argument  # examples/example_cli.py, next to this script

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


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_device_argument(parser)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--min-accuracy", type=float, default=0.9,
                        help="exit non-zero below this test accuracy")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    volta.manual_seed(0)  # weight init
    gen = volta.Generator().manual_seed(0)
    x_train, y_train = two_spirals(2048, gen)
    x_test, y_test = two_spirals(512, gen)
    loader = DataLoader(TensorDataset(x_train, y_train), batch_size=128, shuffle=True,
                        generator=gen)
    print(f"two spirals: {x_train.shape[0]} train / {x_test.shape[0]} test points on "
          f"{args.device}")
    model = MLP().to(args.device)
    optimizer = volta.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    start = time.perf_counter()
    for epoch in range(args.epochs):
        total = 0.0
        for x, y in loader:
            x, y = x.to(args.device), y.to(args.device)
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * y.shape[0]
        if epoch % 10 == 9 or epoch in (0, args.epochs - 1):
            print(f"epoch {epoch + 1:3d}  loss {total / x_train.shape[0]:.4f}")
    model.eval()
    with volta.no_grad():
        predicted = model(x_test.to(args.device)).argmax(1)
        accuracy = (predicted == y_test.to(args.device)).float().mean().item()
    print(f"test accuracy {accuracy:.3f} after {time.perf_counter() - start:.1f} s")
    return 0 if accuracy >= args.min_accuracy else 1


if __name__ == "__main__":
    sys.exit(main())
