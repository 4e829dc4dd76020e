"""Train a small CNN on scikit-learn's 8x8 handwritten digits with volta.

A PyTorch-style training script: ``volta.nn`` modules, ``volta.optim.AdamW`` with a ``OneCycleLR``
schedule, ``volta.utils.data`` loaders over a seeded train/test split, a tqdm progress bar per
epoch, a safetensors checkpoint that is reloaded into a fresh model to verify it, and a PNG of the
training curves. Needs volta's ``demo`` extra: ``pip install -e ".[demo]"`` (``make demo`` does it).

Exits non-zero if the test accuracy stays below ``--min-accuracy`` or the reloaded model disagrees.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: the demo runs headless (CI, ssh)
import matplotlib.pyplot as plt
from example_cli import add_device_argument  # examples/example_cli.py, next to this script
from tqdm import tqdm

import volta
from volta import nn
from volta.utils.data import DataLoader, TensorDataset, random_split


class DigitsCNN(nn.Module):
    """Two conv blocks (8x8 -> 4x4 -> 2x2) and a small classifier head."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.25), nn.Linear(64 * 2 * 2, 128), nn.ReLU(),
            nn.Linear(128, 10),
        )

    def forward(self, x: volta.Tensor) -> volta.Tensor:
        return self.classifier(self.features(x))


def evaluate(model: nn.Module, loader: DataLoader, device: str) -> float:
    """Accuracy of ``model`` (in eval mode) over ``loader``."""
    model.eval()
    correct = total = 0
    with volta.no_grad():
        for images, labels in loader:
            labels = labels.to(device)
            correct += (model(images.to(device)).argmax(1) == labels).sum().item()
            total += labels.shape[0]
    return correct / total


def plot_curves(history: dict[str, list[float]], path: Path) -> None:
    epochs = range(1, len(history["loss"]) + 1)
    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(10, 4))
    ax_loss.plot(epochs, history["loss"], marker="o", label="train")
    ax_loss.set(title="Cross-entropy loss", xlabel="epoch", ylabel="loss")
    ax_loss.legend()
    ax_acc.plot(epochs, history["train_acc"], marker="o", label="train")
    ax_acc.plot(epochs, history["test_acc"], marker="o", label="test")
    ax_acc.set(title="Accuracy", xlabel="epoch", ylabel="accuracy", ylim=(0, 1.01))
    ax_acc.grid(alpha=0.3)
    ax_acc.legend(loc="lower right")
    fig.suptitle("volta: small CNN on the 8x8 digits")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_device_argument(parser)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01, help="peak learning rate of OneCycleLR")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/digits"),
                        help="directory for the checkpoint and the plot")
    parser.add_argument("--min-accuracy", type=float, default=0.97,
                        help="exit non-zero below this test accuracy")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    volta.manual_seed(args.seed)  # weight init and dropout
    images, labels = volta.datasets.digits()
    split = volta.Generator().manual_seed(args.seed)
    train_set, test_set = random_split(TensorDataset(images, labels), [0.8, 0.2], generator=split)
    shuffle = volta.Generator().manual_seed(args.seed + 1)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True,
                              generator=shuffle)
    test_loader = DataLoader(test_set, batch_size=256)
    print(f"digits: {len(train_set)} train / {len(test_set)} test images on {args.device}")

    model = DigitsCNN().to(args.device)
    optimizer = volta.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    scheduler = volta.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=args.lr, epochs=args.epochs, steps_per_epoch=len(train_loader))
    criterion = nn.CrossEntropyLoss()
    history: dict[str, list[float]] = {"loss": [], "train_acc": [], "test_acc": []}

    for epoch in range(1, args.epochs + 1):
        model.train()
        loss_sum = 0.0
        correct = seen = 0
        bar = tqdm(train_loader, desc=f"epoch {epoch:2d}/{args.epochs}", unit="batch",
                   leave=False)
        for batch_images, batch_labels in bar:
            batch_images, batch_labels = batch_images.to(args.device), batch_labels.to(args.device)
            logits = model(batch_images)
            loss = criterion(logits, batch_labels)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
            optimizer.step()
            scheduler.step()
            n = batch_labels.shape[0]
            loss_sum += loss.item() * n
            correct += (logits.argmax(1) == batch_labels).sum().item()
            seen += n
            bar.set_postfix(loss=f"{loss_sum / seen:.4f}")
        history["loss"].append(loss_sum / seen)
        history["train_acc"].append(correct / seen)
        history["test_acc"].append(evaluate(model, test_loader, args.device))
        print(f"epoch {epoch:2d}/{args.epochs}  loss {history['loss'][-1]:.4f}  "
              f"train acc {history['train_acc'][-1]:.4f}  "
              f"test acc {history['test_acc'][-1]:.4f}  ({time.perf_counter() - start:.1f} s)")

    args.out.mkdir(parents=True, exist_ok=True)
    checkpoint = args.out / "digits_cnn.safetensors"
    volta.save(model.state_dict(), checkpoint)
    plot = args.out / "training_curves.png"
    plot_curves(history, plot)

    restored = DigitsCNN()
    restored.load_state_dict(volta.load(checkpoint))
    restored_accuracy = evaluate(restored.to(args.device), test_loader, args.device)
    accuracy = history["test_acc"][-1]
    print(f"test accuracy {accuracy:.4f} in {time.perf_counter() - start:.1f} s; "
          f"reloaded checkpoint: {restored_accuracy:.4f}")
    print(f"saved {checkpoint} and {plot}")
    if restored_accuracy != accuracy:
        print("error: the reloaded checkpoint gives a different test accuracy", file=sys.stderr)
        return 1
    if accuracy < args.min_accuracy:
        print(f"error: test accuracy {accuracy:.4f} is below {args.min_accuracy}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
