"""Small bundled datasets for demos and tests.

``digits()`` reads scikit-learn's copy of the UCI handwritten digits (1797 8x8 images, no
download); scikit-learn comes with volta's optional ``demo`` extra: ``pip install volta[demo]``.

``python_source_text()`` is a character-level text corpus for sequence models: the source of
Python's standard library, which every interpreter ships, so it needs no download and no extra.
"""

from __future__ import annotations

import importlib
import math
import sysconfig
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import volta
from volta.errors import IndexOutOfRangeError, InvalidArgumentError, VoltaError
from volta.utils.data import Dataset

__all__ = ["CharCorpus", "CharWindows", "digits", "python_source_text"]


def digits(dtype: volta.dtype = volta.float32) -> tuple[volta.Tensor, volta.Tensor]:
    """The handwritten digits as ``(images, labels)``: images of shape ``(1797, 1, 8, 8)``
    scaled to ``[0, 1]`` in ``dtype``, labels ``int64`` in ``0..9``."""
    try:
        sklearn_datasets = importlib.import_module("sklearn.datasets")
    except ImportError as error:
        raise VoltaError("volta.datasets.digits() needs scikit-learn, which volta's optional "
                         "'demo' extra installs: pip install 'volta[demo]'") from error
    bunch = sklearn_datasets.load_digits()
    images = volta.from_numpy(bunch.images / 16.0).to(dtype=dtype).unsqueeze(1)
    labels = volta.from_numpy(bunch.target).to(dtype=volta.int64)
    return images, labels


# printable ASCII and newline: other characters (rare in the stdlib) are dropped, so the
# vocabulary stays small and the same on every interpreter build
_KEPT_CHARACTERS = frozenset(chr(code) for code in range(32, 127)) | {"\n"}


@dataclass(frozen=True)
class CharCorpus:
    """A text split into training and validation token ids over a character vocabulary."""

    text: str
    vocabulary: str
    train: volta.Tensor
    validation: volta.Tensor

    @property
    def vocabulary_size(self) -> int:
        return len(self.vocabulary)

    def encode(self, text: str) -> volta.Tensor:
        """Token ids (``int64``) of ``text``; every character must be in the vocabulary."""
        index = {char: position for position, char in enumerate(self.vocabulary)}
        unknown = sorted({char for char in text if char not in index})
        if unknown:
            raise InvalidArgumentError(f"characters not in the vocabulary: {unknown!r}")
        return volta.tensor([index[char] for char in text], dtype=volta.int64)

    def decode(self, ids: volta.Tensor | Iterable[int]) -> str:
        """The text of token ids (a tensor or any iterable of ints)."""
        values = ids.tolist() if isinstance(ids, volta.Tensor) else list(ids)
        return "".join(self.vocabulary[int(value)] for value in values)

    def unigram_loss(self) -> float:
        """Cross-entropy (nats per character) on the validation split of the best model that
        ignores context: each character's frequency in the training split, add-one smoothed.
        A sequence model has learned something once its validation loss is well below this."""
        train_counts = Counter(self.train.tolist())
        total = sum(train_counts.values()) + self.vocabulary_size
        validation = self.validation.tolist()
        loss = -sum(math.log((train_counts[token] + 1) / total) for token in validation)
        return loss / len(validation)


class CharWindows(Dataset):
    """``(input, target)`` pairs of ``length`` consecutive token ids, the target shifted by
    one; windows start every ``stride`` tokens (``stride`` defaults to ``length``)."""

    def __init__(self, tokens: volta.Tensor, length: int, stride: int | None = None) -> None:
        stride = length if stride is None else stride
        if length < 1 or stride < 1:
            raise InvalidArgumentError(f"CharWindows: length and stride must be positive, got "
                                       f"length={length}, stride={stride}")
        if tokens.ndim != 1 or tokens.numel() < length + 1:
            raise InvalidArgumentError(f"CharWindows: need a 1-D tensor of at least {length + 1} "
                                       f"tokens, got shape {tuple(tokens.shape)}")
        self.tokens = tokens
        self.length = length
        self.stride = stride

    def __len__(self) -> int:
        return (self.tokens.numel() - self.length - 1) // self.stride + 1

    def __getitem__(self, index: int) -> tuple[volta.Tensor, volta.Tensor]:
        if not -len(self) <= index < len(self):
            raise IndexOutOfRangeError(f"index {index} is out of range for {len(self)} windows")
        start = (index % len(self)) * self.stride
        return (self.tokens[start:start + self.length],
                self.tokens[start + 1:start + self.length + 1])


def _stdlib_sources() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    # top-level modules only: the same files on every build, no tests, no site-packages
    return sorted(path for path in root.glob("*.py") if path.is_file())


def python_source_text(max_chars: int = 1_000_000, validation_fraction: float = 0.1
                       ) -> CharCorpus:
    """The standard library's top-level ``.py`` files, concatenated in name order, cut at
    ``max_chars`` characters; the last ``validation_fraction`` of it is the validation split.

    Deterministic for a given interpreter version; no download."""
    if max_chars < 2:
        raise InvalidArgumentError(f"python_source_text: max_chars must be at least 2, "
                                   f"got {max_chars}")
    if not 0.0 < validation_fraction < 1.0:
        raise InvalidArgumentError(f"python_source_text: validation_fraction must be in (0, 1), "
                                   f"got {validation_fraction}")
    pieces: list[str] = []
    size = 0
    for path in _stdlib_sources():
        source = path.read_text(encoding="utf-8", errors="ignore")
        kept = "".join(char for char in source if char in _KEPT_CHARACTERS)
        pieces.append(kept[:max_chars - size])
        size += len(pieces[-1])
        if size >= max_chars:
            break
    text = "".join(pieces)
    if len(text) < 2:
        raise VoltaError("python_source_text: found no standard-library sources to read")
    vocabulary = "".join(sorted(set(text)))
    # every kept character is ASCII: one byte each, mapped to its vocabulary position
    lookup = np.zeros(128, dtype=np.int64)
    lookup[[ord(char) for char in vocabulary]] = np.arange(len(vocabulary))
    ids = volta.from_numpy(lookup[np.frombuffer(text.encode("ascii"), dtype=np.uint8)])
    split = min(max(1, int(len(text) * (1.0 - validation_fraction))), len(text) - 1)
    return CharCorpus(text=text, vocabulary=vocabulary, train=ids[:split], validation=ids[split:])
