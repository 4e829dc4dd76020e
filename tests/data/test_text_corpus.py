"""volta.datasets.python_source_text and CharWindows: the corpus of the sequence-model examples."""

from __future__ import annotations

import math
from collections import Counter

import pytest

import volta
from volta.datasets import CharWindows, python_source_text
from volta.errors import InvalidArgumentError


@pytest.fixture(scope="module")
def corpus():
    return python_source_text(max_chars=20_000, validation_fraction=0.25)


def test_corpus_is_the_stdlib_text_split_in_order(corpus) -> None:
    assert len(corpus.text) == 20_000
    assert corpus.train.numel() == 15_000 and corpus.validation.numel() == 5_000
    assert corpus.train.dtype is volta.int64
    assert corpus.decode(volta.cat([corpus.train, corpus.validation])) == corpus.text
    assert corpus.vocabulary == "".join(sorted(set(corpus.text)))
    assert "def " in corpus.text and "import" in corpus.text


def test_corpus_is_deterministic(corpus) -> None:
    again = python_source_text(max_chars=20_000, validation_fraction=0.25)
    assert again.text == corpus.text
    assert volta.equal(again.train, corpus.train)


def test_encode_decode_round_trip_and_unknown_characters(corpus) -> None:
    ids = corpus.encode("def main():\n    return 0\n")
    assert corpus.decode(ids) == "def main():\n    return 0\n"
    assert corpus.decode([int(i) for i in ids.tolist()]) == "def main():\n    return 0\n"
    with pytest.raises(InvalidArgumentError, match="not in the vocabulary"):
        corpus.encode("caf\u00e9")


def test_unigram_loss_is_the_smoothed_frequency_cross_entropy(corpus) -> None:
    counts = Counter(corpus.train.tolist())
    total = corpus.train.numel() + corpus.vocabulary_size
    expected = -sum(math.log((counts[t] + 1) / total) for t in corpus.validation.tolist())
    assert corpus.unigram_loss() == pytest.approx(expected / corpus.validation.numel())
    assert 0.0 < corpus.unigram_loss() < math.log(corpus.vocabulary_size)


def test_windows_are_shifted_pairs(corpus) -> None:
    windows = CharWindows(corpus.train, length=32, stride=16)
    assert len(windows) == (15_000 - 33) // 16 + 1
    x, y = windows[2]
    assert x.shape == (32,) and y.shape == (32,)
    assert volta.equal(x, corpus.train[32:64]) and volta.equal(y, corpus.train[33:65])
    last_x, _ = windows[-1]
    assert volta.equal(last_x, windows[len(windows) - 1][0])
    with pytest.raises(IndexError):
        windows[len(windows)]
    loader = volta.utils.data.DataLoader(windows, batch_size=8)
    xb, yb = next(iter(loader))
    assert xb.shape == (8, 32) and yb.shape == (8, 32)


@pytest.mark.parametrize("kwargs", [{"max_chars": 1}, {"validation_fraction": 0.0},
                                    {"validation_fraction": 1.0}])
def test_bad_corpus_arguments(kwargs) -> None:
    with pytest.raises(InvalidArgumentError):
        python_source_text(**kwargs)


def test_bad_window_arguments(corpus) -> None:
    with pytest.raises(InvalidArgumentError):
        CharWindows(corpus.train, length=0)
    with pytest.raises(InvalidArgumentError):
        CharWindows(corpus.train[:10], length=10)
