"""Train a small decoder-only transformer on Python's standard-library source, one character at
a time, with volta.

The model: token embedding (scaled by sqrt(d_model)) + sinusoidal positions, a stack of
pre-norm ``nn.TransformerEncoderLayer`` blocks (GELU) under a causal mask (the usual
decoder-only form: self-attention that may only look back), a final LayerNorm and a linear
head over the characters. Training: AdamW with a one-cycle schedule, gradient clipping, a
tqdm progress bar, validation loss printed next to the unigram baseline (the best loss without
context). At the end a sample is drawn from a prompt (temperature and top-k).

The corpus (``volta.datasets.python_source_text``) ships with every interpreter: no download.
Exits non-zero if the final validation loss is not at least ``--min-improvement`` (default
25%) below the unigram baseline (the defaults end about 30% below it: 2.16 vs 3.06 nats/char).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator, Sequence
from itertools import islice

from example_cli import (  # examples/example_cli.py, next to this script
    add_device_argument,
    require_positive,
)
from tqdm import tqdm

import volta
from volta import nn
from volta.datasets import CharCorpus, CharWindows
from volta.utils.data import DataLoader


class CharTransformer(nn.Module):
    """Decoder-only transformer over characters: ``(N, L)`` token ids -> ``(N, L, vocab)``
    logits, position ``t`` seeing tokens ``0..t`` only."""

    def __init__(self, vocabulary_size: int, context: int, d_model: int = 128, nhead: int = 4,
                 num_layers: int = 4, dim_feedforward: int = 512, dropout: float = 0.1) -> None:
        super().__init__()
        self.context = context
        self.d_model = d_model
        self.embedding = nn.Embedding(vocabulary_size, d_model)
        self.positions = nn.SinusoidalPositionalEncoding(d_model, max_len=context,
                                                         dropout=dropout, batch_first=True)
        # GPT-2's tanh-approximated GELU: as good here, and cheaper than the exact erf form
        block = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout,
                                           activation=nn.GELU(approximate="tanh"),
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(block, num_layers, norm=nn.LayerNorm(d_model),
                                            enable_nested_tensor=False)
        self.head = nn.Linear(d_model, vocabulary_size)
        self.register_buffer("causal_mask",
                             nn.Transformer.generate_square_subsequent_mask(context),
                             persistent=False)

    def forward(self, tokens: volta.Tensor) -> volta.Tensor:
        length = tokens.shape[1]
        if length > self.context:
            raise volta.ShapeError(f"CharTransformer: {length} tokens exceed the context of "
                                   f"{self.context}")
        x = self.positions(self.embedding(tokens) * math.sqrt(self.d_model))
        x = self.blocks(x, mask=self.causal_mask[:length, :length], is_causal=True)
        return self.head(x)


def language_model_loss(model: nn.Module, inputs: volta.Tensor,
                        targets: volta.Tensor) -> volta.Tensor:
    """Mean next-character cross-entropy (nats) over every position of the batch."""
    logits = model(inputs)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                       targets.reshape(-1))


def evaluate(model: nn.Module, batches: list[tuple[volta.Tensor, volta.Tensor]]) -> float:
    """Validation loss over fixed batches, in eval mode (no dropout)."""
    model.eval()
    with volta.no_grad():
        total = sum(language_model_loss(model, x, y).item() for x, y in batches)
    model.train()
    return total / len(batches)


def sample(model: CharTransformer, corpus: CharCorpus, prompt: str, length: int,
           temperature: float, top_k: int, generator: volta.Generator, device: str) -> str:
    """``prompt`` continued by ``length`` characters drawn one at a time from the model's
    next-character distribution, sharpened by ``temperature`` and cut to the ``top_k`` most
    likely characters."""
    model.eval()
    tokens = corpus.encode(prompt).to(device).unsqueeze(0)
    with volta.no_grad():
        for _ in range(length):
            logits = model(tokens[:, -model.context:])[0, -1] / temperature
            values, indices = logits.topk(min(top_k, logits.shape[0]))
            choice = volta.multinomial(values.softmax(-1), 1, generator=generator)
            tokens = volta.cat([tokens, indices[choice].unsqueeze(0)], 1)
    model.train()
    return corpus.decode(tokens[0].cpu())


def endless(loader: DataLoader) -> Iterator[tuple[volta.Tensor, volta.Tensor]]:
    """Batches from ``loader``, epoch after epoch (training is counted in steps)."""
    while True:
        yield from loader


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_device_argument(parser)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=600, help="optimizer steps")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--context", type=int, default=64, help="characters per window")
    parser.add_argument("--d-model", type=int, default=128)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--feedforward", type=int, default=None,
                        help="feed-forward width (default 4 * d_model)")
    parser.add_argument("--dropout", type=float, default=0.0,
                        help="dropout (default 0: a short run does not overfit)")
    parser.add_argument("--lr", type=float, default=5e-3, help="peak learning rate (OneCycleLR)")
    parser.add_argument("--weight-decay", type=float, default=0.01)
    parser.add_argument("--corpus-chars", type=int, default=1_000_000,
                        help="characters of the standard library to read")
    parser.add_argument("--eval-every", type=int, default=100)
    parser.add_argument("--eval-batches", type=int, default=8,
                        help="validation batches per evaluation")
    parser.add_argument("--prompt", default="def ")
    parser.add_argument("--sample-length", type=int, default=300)
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--top-k", type=int, default=10)
    parser.add_argument("--min-improvement", type=float, default=0.25,
                        help="required relative drop of the validation loss below the unigram "
                             "baseline (exit 1 otherwise)")
    args = parser.parse_args(argv)
    require_positive(parser, args, ("steps", "batch_size", "context", "eval_every",
                                    "eval_batches", "top_k"), ("temperature",))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    volta.manual_seed(args.seed)  # weight init and dropout
    corpus = volta.datasets.python_source_text(max_chars=args.corpus_chars)
    baseline = corpus.unigram_loss()
    print(f"corpus: {corpus.train.numel():,} training / {corpus.validation.numel():,} "
          f"validation characters, vocabulary {corpus.vocabulary_size}; unigram baseline "
          f"{baseline:.4f} nats/char")

    shuffle = volta.Generator().manual_seed(args.seed + 1)
    train_loader = DataLoader(CharWindows(corpus.train, args.context, args.context // 2),
                              batch_size=args.batch_size, shuffle=True, drop_last=True,
                              generator=shuffle)
    validation_loader = DataLoader(CharWindows(corpus.validation, args.context),
                                   batch_size=args.batch_size)
    validation = [(x.to(args.device), y.to(args.device))
                  for x, y in islice(validation_loader, args.eval_batches)]

    model = CharTransformer(corpus.vocabulary_size, args.context, args.d_model, args.heads,
                            args.layers, args.feedforward or 4 * args.d_model,
                            args.dropout).to(args.device)
    parameters = sum(p.numel() for p in model.parameters())
    print(f"model: {args.layers} layers, d_model {args.d_model}, {args.heads} heads, "
          f"{parameters:,} parameters, context {args.context}, on {args.device}")
    optimizer = volta.optim.AdamW(model.parameters(), lr=args.lr,
                                  weight_decay=args.weight_decay)
    scheduler = volta.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args.lr,
                                                    total_steps=args.steps, pct_start=0.1)

    batches = endless(train_loader)
    bar = tqdm(range(1, args.steps + 1), desc="training", unit="step")
    running = None
    val_loss = math.inf
    for step in bar:
        inputs, targets = next(batches)
        loss = language_model_loss(model, inputs.to(args.device), targets.to(args.device))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        scheduler.step()
        running = loss.item() if running is None else 0.9 * running + 0.1 * loss.item()
        bar.set_postfix(loss=f"{running:.3f}")
        if step % args.eval_every == 0 or step == args.steps:
            val_loss = evaluate(model, validation)
            tqdm.write(f"step {step:5d}  train loss {running:.4f}  val loss {val_loss:.4f}  "
                       f"unigram {baseline:.4f}  ({1 - val_loss / baseline:+.1%} below)  "
                       f"{time.perf_counter() - start:.0f} s")
    bar.close()

    improvement = 1 - val_loss / baseline
    print(f"final validation loss {val_loss:.4f} nats/char vs unigram baseline {baseline:.4f}: "
          f"{improvement:.1%} lower (required {args.min_improvement:.0%}) in "
          f"{time.perf_counter() - start:.1f} s")
    generator = volta.Generator().manual_seed(args.seed)
    text = sample(model, corpus, args.prompt, args.sample_length, args.temperature,
                  args.top_k, generator, args.device)
    print(f"sample (temperature {args.temperature}, top-k {args.top_k}):\n{text}")
    if improvement < args.min_improvement:
        print(f"error: the validation loss is only {improvement:.1%} below the unigram "
              f"baseline (required {args.min_improvement:.0%})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
