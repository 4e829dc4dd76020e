"""Every loss against PyTorch, for each reduction and option: values and input gradients."""

from __future__ import annotations

import pytest
import torch

import volta
from tests.nn.parity import close, to_volta

REDUCTIONS = ["none", "mean", "sum"]

# PyTorch (and volta, like it) warn about deprecated spellings these tests exercise on purpose
pytestmark = pytest.mark.filterwarnings("ignore:.*(size_average|batchmean).*:UserWarning")


def _data():
    torch.manual_seed(0)
    return {
        "x": torch.randn(6, 4),
        "y": torch.randn(6, 4),
        "logits": torch.randn(6, 5),
        "logits_nd": torch.randn(3, 5, 2, 2),
        "classes": torch.tensor([0, 4, 2, 2, 1, 3]),
        "classes_ignored": torch.tensor([0, -100, 2, 2, 1, -100]),
        "classes_nd": torch.randint(0, 5, (3, 2, 2)),
        "probs_target": torch.softmax(torch.randn(6, 5), 1),
        "p": torch.rand(6, 4) * 0.9 + 0.05,
        "bits": (torch.rand(6, 4) > 0.5).float(),
        "weight": torch.rand(5) + 0.5,
        "bce_weight": torch.rand(4) + 0.5,
        "pos_weight": torch.rand(4) * 3,
        "logq": torch.log_softmax(torch.randn(6, 5), 1),
    }


# (id, loss builder taking the nn namespace and the data, input key, target key)
LOSSES = [
    ("mse", lambda nn, d, r: nn.MSELoss(reduction=r), "x", "y"),
    ("l1", lambda nn, d, r: nn.L1Loss(reduction=r), "x", "y"),
    ("smooth_l1", lambda nn, d, r: nn.SmoothL1Loss(reduction=r), "x", "y"),
    ("smooth_l1_beta", lambda nn, d, r: nn.SmoothL1Loss(reduction=r, beta=0.4), "x", "y"),
    ("huber", lambda nn, d, r: nn.HuberLoss(reduction=r), "x", "y"),
    ("huber_delta", lambda nn, d, r: nn.HuberLoss(reduction=r, delta=0.3), "x", "y"),
    ("ce", lambda nn, d, r: nn.CrossEntropyLoss(reduction=r), "logits", "classes"),
    ("ce_weight", lambda nn, d, r: nn.CrossEntropyLoss(weight=d["weight"], reduction=r),
     "logits", "classes"),
    ("ce_ignore", lambda nn, d, r: nn.CrossEntropyLoss(d["weight"], reduction=r),
     "logits", "classes_ignored"),
    ("ce_ignore_custom", lambda nn, d, r: nn.CrossEntropyLoss(ignore_index=2, reduction=r),
     "logits", "classes"),
    ("ce_smoothing", lambda nn, d, r: nn.CrossEntropyLoss(label_smoothing=0.2, reduction=r),
     "logits", "classes_ignored"),
    ("ce_smoothing_weight", lambda nn, d, r: nn.CrossEntropyLoss(
        weight=d["weight"], label_smoothing=0.1, reduction=r), "logits", "classes"),
    ("ce_nd", lambda nn, d, r: nn.CrossEntropyLoss(reduction=r), "logits_nd", "classes_nd"),
    ("ce_probs", lambda nn, d, r: nn.CrossEntropyLoss(reduction=r), "logits", "probs_target"),
    ("ce_probs_weight_smoothing", lambda nn, d, r: nn.CrossEntropyLoss(
        weight=d["weight"], label_smoothing=0.3, reduction=r), "logits", "probs_target"),
    ("nll", lambda nn, d, r: nn.NLLLoss(reduction=r), "logq", "classes"),
    ("nll_weight_ignore", lambda nn, d, r: nn.NLLLoss(d["weight"], reduction=r),
     "logq", "classes_ignored"),
    ("bce", lambda nn, d, r: nn.BCELoss(reduction=r), "p", "bits"),
    ("bce_weight", lambda nn, d, r: nn.BCELoss(weight=d["bce_weight"], reduction=r), "p",
     "bits"),
    ("bce_logits", lambda nn, d, r: nn.BCEWithLogitsLoss(reduction=r), "x", "bits"),
    ("bce_logits_pos_weight", lambda nn, d, r: nn.BCEWithLogitsLoss(
        weight=d["bce_weight"], pos_weight=d["pos_weight"], reduction=r), "x", "p"),
    ("kl_div", lambda nn, d, r: nn.KLDivLoss(reduction=r), "logq", "probs_target"),
    ("kl_div_log_target", lambda nn, d, r: nn.KLDivLoss(reduction=r, log_target=True),
     "logq", "logq"),
]


def _volta_data(data):
    return {k: to_volta(v) for k, v in data.items()}


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("case", LOSSES, ids=[c[0] for c in LOSSES])
def test_loss_matches_torch(case, reduction):
    _, build, input_key, target_key = case
    data = _data()
    if input_key == target_key:  # log_target: a different distribution as the target
        data[target_key + "_t"] = data[target_key].flip(0)
        target_key += "_t"
    vdata = _volta_data(data)
    t_loss = build(torch.nn, data, reduction)
    v_loss = build(volta.nn, vdata, reduction)
    assert v_loss.reduction == reduction
    tx = data[input_key].clone().requires_grad_()
    vx = to_volta(data[input_key], requires_grad=True)
    t_out = t_loss(tx, data[target_key])
    v_out = v_loss(vx, vdata[target_key])
    close(v_out, t_out)
    g = torch.rand(t_out.shape) + 0.5
    t_out.backward(g)
    v_out.backward(to_volta(g))
    close(vx.grad, tx.grad)
    # weights are buffers, as in PyTorch
    assert list(v_loss.state_dict()) == list(t_loss.state_dict())


def test_kl_div_batchmean_and_bce_logits_target_gradient():
    data = _data()
    t = torch.nn.KLDivLoss(reduction="batchmean")(data["logq"], data["probs_target"])
    v = volta.nn.KLDivLoss(reduction="batchmean")(to_volta(data["logq"]),
                                                  to_volta(data["probs_target"]))
    close(v, t)
    tt = data["p"].clone().requires_grad_()
    vt = to_volta(data["p"], requires_grad=True)
    torch.nn.BCEWithLogitsLoss()(data["x"], tt).backward()
    volta.nn.BCEWithLogitsLoss()(to_volta(data["x"]), vt).backward()
    close(vt.grad, tt.grad)


def test_invalid_reduction_is_rejected():
    with pytest.raises(ValueError, match="reduction"):
        volta.nn.MSELoss(reduction="avg")


def test_legacy_size_average_reduce_arguments():
    data = _data()
    t = torch.nn.L1Loss(size_average=False)(data["x"], data["y"])
    v = volta.nn.L1Loss(size_average=False)(to_volta(data["x"]), to_volta(data["y"]))
    close(v, t)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name,kwargs", [("mse_loss", {}), ("l1_loss", {}),
                                         ("huber_loss", {"delta": 0.5})])
def test_weighted_mse_l1_and_huber_match_torch(name, kwargs, reduction):
    torch.manual_seed(0)
    x, y, w = torch.randn(4, 5), torch.randn(4, 5), torch.rand(4, 5)
    tx, vx = x.clone().requires_grad_(), to_volta(x, requires_grad=True)
    tw, vw = w.clone().requires_grad_(), to_volta(w, requires_grad=True)
    t_out = getattr(torch.nn.functional, name)(tx, y, reduction=reduction, weight=tw, **kwargs)
    v_out = getattr(volta.nn.functional, name)(vx, to_volta(y), reduction=reduction,
                                               weight=vw, **kwargs)
    close(v_out, t_out)
    t_out.sum().backward()
    v_out.sum().backward()
    close(vx.grad, tx.grad)
    close(vw.grad, tw.grad)
    with pytest.raises(volta.VoltaError, match="Weights and input must have the same size"):
        getattr(volta.nn.functional, name)(vx, to_volta(y), weight=volta.ones(5))
