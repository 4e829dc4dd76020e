"""Every scheduler's learning-rate sequence over 40 epochs equals torch.optim.lr_scheduler's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import volta
import volta.optim as optim
from volta.optim import lr_scheduler as vs

ts = torch.optim.lr_scheduler
# the sequences are compared without optimizer steps in between, which torch warns about
pytestmark = pytest.mark.filterwarnings("ignore:Detected call of `lr_scheduler.step")
EPOCHS = 40


def _warmup(epoch: int) -> float:
    return min(1.0, (epoch + 1) / 5) * 0.97 ** epoch


def _optimizers(kind: str) -> tuple[Any, Any]:
    vp = [volta.zeros(2, requires_grad=True), volta.zeros(3, requires_grad=True)]
    tp = [torch.zeros(2, requires_grad=True), torch.zeros(3, requires_grad=True)]
    if kind == "adam":
        return (optim.Adam([{"params": vp[:1]}, {"params": vp[1:], "lr": 0.02}], lr=0.1),
                torch.optim.Adam([{"params": tp[:1]}, {"params": tp[1:], "lr": 0.02}], lr=0.1))
    return (optim.SGD([{"params": vp[:1]}, {"params": vp[1:], "lr": 0.02}], lr=0.1, momentum=0.9),
            torch.optim.SGD([{"params": tp[:1]}, {"params": tp[1:], "lr": 0.02}], lr=0.1,
                            momentum=0.9))


Factory = Callable[[Any, Any], Any]
CASES: dict[str, tuple[str, Factory]] = {
    "LambdaLR": ("sgd", lambda m, o: m.LambdaLR(o, _warmup)),
    "StepLR": ("sgd", lambda m, o: m.StepLR(o, step_size=7, gamma=0.5)),
    "MultiStepLR": ("sgd", lambda m, o: m.MultiStepLR(o, milestones=[5, 12, 12, 30], gamma=0.3)),
    "ExponentialLR": ("sgd", lambda m, o: m.ExponentialLR(o, gamma=0.9)),
    "CosineAnnealingLR": ("sgd", lambda m, o: m.CosineAnnealingLR(o, T_max=12, eta_min=0.001)),
    "CosineAnnealingWarmRestarts": ("sgd", lambda m, o: m.CosineAnnealingWarmRestarts(
        o, T_0=5, T_mult=2, eta_min=0.0005)),
    "LinearLR": ("sgd", lambda m, o: m.LinearLR(o, start_factor=0.2, end_factor=0.9,
                                                total_iters=10)),
    "OneCycleLR-cos-sgd": ("sgd", lambda m, o: m.OneCycleLR(o, max_lr=[0.5, 0.1],
                                                            total_steps=EPOCHS + 1)),
    "OneCycleLR-linear-three-phase-adam": ("adam", lambda m, o: m.OneCycleLR(
        o, max_lr=0.3, epochs=7, steps_per_epoch=6, anneal_strategy="linear",
        three_phase=True, pct_start=0.25)),
    "SequentialLR": ("sgd", lambda m, o: m.SequentialLR(
        o, [m.LinearLR(o, start_factor=0.1, total_iters=5), m.ExponentialLR(o, gamma=0.9),
            m.CosineAnnealingLR(o, T_max=8)], milestones=[5, 20])),
    "MultiplicativeLR": ("sgd", lambda m, o: m.MultiplicativeLR(o, lambda e: 0.95 - 0.001 * e)),
    "MultiplicativeLR-per-group": ("sgd", lambda m, o: m.MultiplicativeLR(
        o, [lambda e: 0.9, lambda e: 1.02 if e % 3 else 0.8])),
    "ConstantLR": ("sgd", lambda m, o: m.ConstantLR(o, factor=0.25, total_iters=6)),
    "PolynomialLR": ("sgd", lambda m, o: m.PolynomialLR(o, total_iters=25, power=2.0)),
    "PolynomialLR-linear": ("sgd", lambda m, o: m.PolynomialLR(o, total_iters=10)),
    "CyclicLR-triangular-sgd": ("sgd", lambda m, o: m.CyclicLR(o, base_lr=0.01, max_lr=[0.1, 0.2],
                                                             step_size_up=4, step_size_down=6)),
    "CyclicLR-triangular2-adam": ("adam", lambda m, o: m.CyclicLR(
        o, base_lr=[0.001, 0.002], max_lr=0.05, step_size_up=3, mode="triangular2",
        base_momentum=0.85, max_momentum=0.95)),
    "CyclicLR-exp-range": ("sgd", lambda m, o: m.CyclicLR(o, base_lr=0.01, max_lr=0.1,
                                                        step_size_up=5, mode="exp_range",
                                                        gamma=0.97, cycle_momentum=False)),
    "CyclicLR-scale-fn": ("sgd", lambda m, o: m.CyclicLR(o, base_lr=0.01, max_lr=0.1,
                                                       step_size_up=2,
                                                       scale_fn=lambda x: 0.9 ** x,
                                                       scale_mode="iterations")),
    "ChainedScheduler": ("sgd", lambda m, o: m.ChainedScheduler(
        [m.ConstantLR(o, factor=0.5, total_iters=4), m.ExponentialLR(o, gamma=0.95),
         m.PolynomialLR(o, total_iters=30, power=0.5)])),
    "SWALR-cos": ("sgd", lambda m, o: _swa(m).SWALR(o, swa_lr=0.05, anneal_epochs=8)),
    "SWALR-linear-per-group": ("sgd", lambda m, o: _swa(m).SWALR(
        o, swa_lr=[0.05, 0.3], anneal_epochs=5, anneal_strategy="linear")),
    "SWALR-no-annealing": ("sgd", lambda m, o: _swa(m).SWALR(o, swa_lr=0.05, anneal_epochs=0)),
}


def _swa(schedulers: Any) -> Any:
    """The swa_utils module beside ``schedulers`` (volta's or torch's)."""
    return volta.optim.swa_utils if schedulers is vs else torch.optim.swa_utils


def _momentum(opt: Any) -> list[Any]:
    return [g.get("momentum", g.get("betas")) for g in opt.param_groups]


@pytest.mark.parametrize("case", list(CASES))
def test_lr_sequence_matches_torch(case: str) -> None:
    kind, make = CASES[case]
    vopt, topt = _optimizers(kind)
    vsched, tsched = make(vs, vopt), make(ts, topt)
    for epoch in range(EPOCHS):
        assert vsched.get_last_lr() == pytest.approx(tsched.get_last_lr(), rel=1e-12), epoch
        assert [g["lr"] for g in vopt.param_groups] == pytest.approx(
            [g["lr"] for g in topt.param_groups], rel=1e-12)
        assert _momentum(vopt) == _momentum(topt)
        vopt.step()
        topt.step()
        vsched.step()
        tsched.step()


@pytest.mark.parametrize("case", ["StepLR", "CosineAnnealingLR", "SequentialLR",
                                  "CosineAnnealingWarmRestarts", "OneCycleLR-cos-sgd",
                                  "MultiplicativeLR", "ConstantLR", "PolynomialLR",
                                  "CyclicLR-triangular2-adam", "CyclicLR-exp-range",
                                  "ChainedScheduler", "SWALR-cos"])
def test_state_dict_resumes_the_sequence(case: str) -> None:
    kind, make = CASES[case]
    vopt, topt = _optimizers(kind)
    vsched, tsched = make(vs, vopt), make(ts, topt)
    for _ in range(9):
        vsched.step()
        tsched.step()
    saved = vsched.state_dict()
    assert "optimizer" not in saved
    # PyTorch's resume order: build the scheduler, then load the optimizer, then the scheduler
    resumed_opt, _ = _optimizers(kind)
    resumed = make(vs, resumed_opt)
    resumed_opt.load_state_dict(vopt.state_dict())
    resumed.load_state_dict(saved)
    for _ in range(20):
        resumed.step()
        tsched.step()
        assert resumed.get_last_lr() == pytest.approx(tsched.get_last_lr(), rel=1e-12)


@pytest.mark.parametrize("kwargs", [dict(), dict(mode="max", threshold_mode="abs", patience=2,
                                                  cooldown=3, factor=0.5, min_lr=0.01)])
def test_reduce_lr_on_plateau_matches_torch(kwargs: dict) -> None:
    vopt, topt = _optimizers("sgd")
    vsched = vs.ReduceLROnPlateau(vopt, **kwargs)
    tsched = ts.ReduceLROnPlateau(topt, **kwargs)
    metrics = [1.0, 0.9, 0.95, 0.95, 0.95, 0.89, 0.9, 0.9, 0.9] * 6
    for metric in metrics:
        vsched.step(metric)
        tsched.step(metric)
        assert vsched.get_last_lr() == pytest.approx(tsched.get_last_lr(), rel=1e-12)
    resumed = vs.ReduceLROnPlateau(vopt, **kwargs)
    resumed.load_state_dict(vsched.state_dict())
    assert resumed.num_bad_epochs == tsched.num_bad_epochs and resumed.best == tsched.best


def test_one_cycle_requires_momentum_and_a_length() -> None:
    vopt, _ = _optimizers("sgd")
    with pytest.raises(volta.errors.ArgumentError, match="total_steps"):
        vs.OneCycleLR(vopt, max_lr=0.1)
    sched = vs.OneCycleLR(vopt, max_lr=0.1, total_steps=2)
    sched.step()
    sched.step()
    with pytest.raises(volta.errors.ArgumentError, match="Tried to step 3 times"):
        sched.step()


@pytest.mark.filterwarnings("ignore:The epoch parameter")
@pytest.mark.parametrize("case", ["ConstantLR", "PolynomialLR", "MultiplicativeLR",
                                  "CyclicLR-triangular-sgd"])
def test_explicit_epochs_match_torch(case: str) -> None:
    kind, make = CASES[case]
    vopt, topt = _optimizers(kind)
    vsched, tsched = make(vs, vopt), make(ts, topt)
    for epoch in [3, 7, 2, 30, 10, 11]:
        vsched.step(epoch)
        tsched.step(epoch)
        assert vsched.get_last_lr() == pytest.approx(tsched.get_last_lr(), rel=1e-12), epoch


ERRORS: dict[str, Factory] = {
    "ConstantLR-factor": lambda m, o: m.ConstantLR(o, factor=1.5),
    "MultiplicativeLR-count": lambda m, o: m.MultiplicativeLR(o, [lambda e: 1.0]),
    "CyclicLR-mode": lambda m, o: m.CyclicLR(o, 0.01, 0.1, mode="sawtooth"),
    "ChainedScheduler-empty": lambda m, o: m.ChainedScheduler([]),
    "ChainedScheduler-plateau": lambda m, o: m.ChainedScheduler(
        [m.ExponentialLR(o, 0.9), m.ReduceLROnPlateau(o)]),
    "SWALR-strategy": lambda m, o: _swa(m).SWALR(o, 0.05, anneal_strategy="step"),
    "SWALR-epochs": lambda m, o: _swa(m).SWALR(o, 0.05, anneal_epochs=-1),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_invalid_arguments_raise_like_torch(case: str) -> None:
    vopt, topt = _optimizers("sgd")
    with pytest.raises((ValueError, TypeError)) as expected:
        ERRORS[case](ts, topt)
    with pytest.raises(volta.VoltaError) as raised:
        ERRORS[case](vs, vopt)
    assert str(raised.value)[:40] == str(expected.value)[:40]


def test_cyclic_lr_needs_momentum_and_chained_needs_one_optimizer() -> None:
    vp = [volta.zeros(2, requires_grad=True)]
    with pytest.raises(volta.errors.ArgumentError, match="must support momentum or beta1"):
        vs.CyclicLR(optim.Adagrad(vp), 0.01, 0.1)
    vs.CyclicLR(optim.Adagrad(vp), 0.01, 0.1, cycle_momentum=False)
    first, second = optim.SGD(vp, lr=0.1), optim.SGD([volta.zeros(1, requires_grad=True)], lr=0.1)
    with pytest.raises(volta.errors.ArgumentError, match="same optimizer"):
        vs.ChainedScheduler([vs.ExponentialLR(first, 0.9), vs.ExponentialLR(second, 0.9)])
