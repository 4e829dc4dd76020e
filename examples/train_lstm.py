"""Train a character-level LSTM language model on Python's standard-library source with volta.

``volta.datasets.python_source_text()`` reads the interpreter's own ``.py`` files (no download),
``CharWindows`` cuts them into (input, target) windows, and an ``Embedding -> LSTM -> Linear``
model learns to predict the next character with Adam. A tqdm bar shows the training loss; every
``--eval-every`` steps the validation loss is printed next to the unigram baseline (the best
model that ignores context). At the end the script samples text from a prompt and exits
non-zero unless the validation loss is at least ``--min-improvement`` below the baseline.

    python examples/train_lstm.py                   # the defaults take a couple of minutes
    python examples/train_lstm.py --steps 2000 --hidden 512 --temperature 0.6
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator, Sequence

from example_cli import (  # examples/example_cli.py, next to this script
    add_device_argument,
    require_positive,
)
from tqdm import tqdm

import volta
from volta import nn
from volta.datasets import CharCorpus, CharWindows
from volta.utils.data import DataLoader


class CharLSTM(nn.Module):
    """Characters -> embeddings -> a multi-layer LSTM -> next-character logits."""

    def __init__(self, vocabulary_size: int, embedding: int, hidden: int, layers: int,
                 dropout: float) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocabulary_size, embedding)
        self.lstm = nn.LSTM(embedding, hidden, num_layers=layers, batch_first=True,
                            dropout=dropout if layers > 1 else 0.0)
        self.head = nn.Linear(hidden, vocabulary_size)

    def forward(self, tokens: volta.Tensor, state: tuple[volta.Tensor, volta.Tensor] | None = None
                ) -> tuple[volta.Tensor, tuple[volta.Tensor, volta.Tensor]]:
        output, state = self.lstm(self.embed(tokens), state)
        return self.head(output), state


def next_token_loss(model: CharLSTM, inputs: volta.Tensor, targets: volta.Tensor) -> volta.Tensor:
    logits, _ = model(inputs)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def validation_loss(model: CharLSTM, loader: DataLoader, device: str, batches: int) -> float:
    """Mean cross-entropy (nats per character) over the first ``batches`` validation batches."""
    model.eval()
    total = count = 0.0
    with volta.no_grad():
        for k, (inputs, targets) in enumerate(loader):
            if k == batches:
                break
            total += next_token_loss(model, inputs.to(device), targets.to(device)).item()
            count += 1
    model.train()
    return total / count


def sample(model: CharLSTM, corpus: CharCorpus, prompt: str, length: int, temperature: float,
           device: str, generator: volta.Generator) -> str:
    """``length`` characters after ``prompt``, drawn from softmax(logits / temperature)."""
    model.eval()
    out: list[int] = []
    with volta.no_grad():
        logits, state = model(corpus.encode(prompt).unsqueeze(0).to(device))
        for _ in range(length):
            probs = nn.functional.softmax(logits[0, -1] / temperature, dim=-1)
            token = volta.multinomial(probs.cpu(), 1, generator=generator)
            out.append(int(token.item()))
            logits, state = model(token.reshape(1, 1).to(device), state)
    model.train()
    return prompt + corpus.decode(out)


def endless(loader: DataLoader) -> Iterator[tuple[volta.Tensor, volta.Tensor]]:
    while True:
        yield from loader


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_device_argument(parser)
    parser.add_argument("--steps", type=int, default=200, help="optimizer steps")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--seq-len", type=int, default=64, help="characters per window")
    parser.add_argument("--embedding", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--dropout", type=float, default=0.0, help="between LSTM layers")
    parser.add_argument("--lr", type=float, default=5e-3, help="Adam learning rate")
    parser.add_argument("--max-chars", type=int, default=1_000_000,
                        help="characters of the corpus to read")
    parser.add_argument("--eval-every", type=int, default=50)
    parser.add_argument("--eval-batches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--prompt", default="def ")
    parser.add_argument("--sample-chars", type=int, default=300)
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--min-improvement", type=float, default=0.25,
                        help="required relative drop of the validation loss below the unigram "
                             "baseline (exit status 1 otherwise)")
    args = parser.parse_args(argv)
    # --device is checked by its argparse type (example_cli.registered_device)
    require_positive(parser, args, ("steps", "batch_size", "seq_len", "embedding", "hidden",
                                    "layers", "eval_every", "eval_batches"), ("temperature",))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    volta.manual_seed(args.seed)  # weight init
    corpus = volta.datasets.python_source_text(max_chars=args.max_chars)
    baseline = corpus.unigram_loss()
    shuffle = volta.Generator().manual_seed(args.seed)
    train_loader = DataLoader(CharWindows(corpus.train, args.seq_len), batch_size=args.batch_size,
                              shuffle=True, generator=shuffle, drop_last=True)
    val_loader = DataLoader(CharWindows(corpus.validation, args.seq_len),
                            batch_size=args.batch_size)
    print(f"corpus: {corpus.train.numel():,} train / {corpus.validation.numel():,} validation "
          f"characters, vocabulary {corpus.vocabulary_size}; unigram baseline "
          f"{baseline:.3f} nats/char; device {args.device}")

    model = CharLSTM(corpus.vocabulary_size, args.embedding, args.hidden, args.layers,
                     args.dropout).to(args.device)
    optimizer = volta.optim.Adam(model.parameters(), lr=args.lr)
    batches = endless(train_loader)
    val = math.inf
    bar = tqdm(range(1, args.steps + 1), desc="training", unit="step")
    for step in bar:
        inputs, targets = next(batches)
        loss = next_token_loss(model, inputs.to(args.device), targets.to(args.device))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        bar.set_postfix(loss=f"{loss.item():.3f}")
        if step % args.eval_every == 0 or step == args.steps:
            val = validation_loss(model, val_loader, args.device, args.eval_batches)
            bar.write(f"step {step:5d}  train loss {loss.item():.3f}  validation loss {val:.3f}"
                      f"  (unigram baseline {baseline:.3f})")
    bar.close()

    generator = volta.Generator().manual_seed(args.seed)
    text = sample(model, corpus, args.prompt, args.sample_chars, args.temperature, args.device,
                  generator)
    print(f"--- sample (temperature {args.temperature}) ---\n{text}\n---")
    improvement = 1 - val / baseline
    print(f"final validation loss {val:.3f} vs unigram baseline {baseline:.3f}: "
          f"{improvement:.0%} lower, in {time.perf_counter() - start:.1f} s")
    if improvement < args.min_improvement:
        print(f"error: validation loss is less than {args.min_improvement:.0%} below the "
              f"unigram baseline", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
