"""Plugin loading can never break ``import volta``: every fault of a plugin is reported with its
package, version, hook and traceback, the plugin is rolled back, the others load.

The broken packages live in ``tests/plugins/fixtures`` and are installed into a scratch
directory (``pip install --target``), never into the test environment; start-up behaviour is
checked in fresh interpreters with that directory on ``PYTHONPATH``. Plugin objects are tested
in-process through ``volta.plugins.register`` inside ``volta.library.scoped()``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
import warnings
from importlib import metadata
from pathlib import Path

import numpy as np
import pluggy
import pytest

import volta
from volta.dispatch import DISPATCHER, KEYS
from volta.plugins.manager import MANAGER

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BACKENDS_HOOK, OPS_HOOK, KERNELS_HOOK = ("volta_register_backends", "volta_define_ops",
                                         "volta_register_kernels")


@pytest.fixture(scope="session")
def broken_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture packages, built from a copy (no build files in the checkout) and installed
    into a scratch directory."""
    scratch = tmp_path_factory.mktemp("broken_plugins")
    sources = [shutil.copytree(package, scratch / "src" / package.name)
               for package in sorted(FIXTURES.iterdir()) if (package / "pyproject.toml").exists()]
    site = scratch / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--no-build-isolation", "--target", str(site), *map(str, sources)],
                   check=True, capture_output=True, text=True, timeout=300)
    return site


def fixture_plugins(site: Path) -> list[str]:
    dist = next(metadata.distributions(path=[str(site)]))
    return [ep.name for ep in dist.entry_points if ep.group == "volta"]


PROBE = """
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import volta
from volta.dispatch import DISPATCHER, KEYS
from volta.plugins.manager import MANAGER
try:
    from volta_broken.calls import CALLS
except ImportError:
    CALLS = []
print(json.dumps({
    "status": {r.name: {"state": r.state, "source": r.source, "package": r.package,
                        "version": r.version, "failed_in": r.failed_in, "error": r.error,
                        "traceback": r.traceback, "hooks": r.hooks,
                        "rolled_back": r.rolled_back} for r in volta.plugins.status()},
    "warnings": [[w.category.__name__, str(w.message)] for w in caught],
    "ops": sorted(n for n in DISPATCHER.ops if "::" in n),
    "devices": volta.get_device_types(),
    "keys": [k.name for k in KEYS.all()],
    "fallbacks": sorted(k.name for k in DISPATCHER.fallbacks),
    "tables": {name: sorted(k.name for k in DISPATCHER.find(name).kernels)
               for name in ("add", "mul")},
    "add_cpu": DISPATCHER.find("add").kernels[KEYS.get("CPU")].provenance,
    "pluggy": sorted(name for name, _ in MANAGER.pm.list_name_plugin()),
    "calls": CALLS,
    "works": volta.add(volta.ones(2), 1).tolist(),
    "thrice": (volta.ops.dep.thrice(volta.ones(2)).tolist()
               if "dep::thrice" in DISPATCHER.ops else None),
}))
"""

STRICT_PROBE = """
import json
try:
    import volta
except Exception as exc:
    print(json.dumps({"raised": [c.__name__ for c in type(exc).__mro__], "message": str(exc),
                      "cause": type(exc.__cause__).__name__}))
else:
    print(json.dumps({"raised": None}))
"""


def run_python(code: str, site: Path | None = None, **env: str) -> dict:
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith("VOLTA_") and k not in ("PYTHONWARNINGS", "PYTHONPATH")}
    environ.update(env)
    environ["PYTHONPATH"] = os.pathsep.join([str(site)] * (site is not None) + [str(ROOT)])
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environ,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def loaded(broken_site: Path) -> dict:
    """``import volta`` with every fixture plugin installed."""
    return run_python(PROBE, broken_site)


# -- entry points: faults, reports, rollback -------------------------------------------------------

FAULTS = [
    # plugin, where it fails, text in the error
    ("broken_import", "import", "RuntimeError: volta-broken: this plugin module fails on import"),
    ("broken_hook", KERNELS_HOOK, "ValueError: volta-broken: volta_register_kernels fails"),
    ("broken_signature", "register", "PluginValidationError: Plugin 'broken_signature' for hook "
                                     "'volta_register_kernels'"),
    ("broken_misspelled", "register", "volta_register_kernel is not a volta hook; did you mean "
                                      "volta_register_kernels?"),
    ("broken_unmarked", "register", "volta_define_ops is not marked with "
                                    "@volta.plugins.hookimpl"),
    ("broken_duplicate", KERNELS_HOOK, "add already has a kernel for CPU"),
    ("broken_unknown_op", KERNELS_HOOK, "unknown operator 'nope::missing'"),
    ("broken_late", KERNELS_HOOK, "RuntimeError: volta-broken: fails after registering"),
    ("dependent_last", KERNELS_HOOK, "unknown operator 'half::twice'"),
]


def test_volta_imports_and_sound_plugins_load_next_to_broken_ones(loaded: dict) -> None:
    st = loaded["status"]
    assert loaded["works"] == [2.0, 2.0]
    assert st["cpu"]["state"] == "loaded" and st["cpu"]["source"] == "internal"
    assert st["example_ext"]["state"] == "loaded"
    assert st["example_ext"]["hooks"] == [BACKENDS_HOOK, OPS_HOOK, KERNELS_HOOK]
    assert st["dependent_first"]["state"] == "loaded"
    assert {n for n, r in st.items() if r["state"] == "failed"} == {f[0] for f in FAULTS}


@pytest.mark.parametrize(("plugin", "where", "text"), FAULTS, ids=[f[0] for f in FAULTS])
def test_each_fault_is_recorded_and_warned_about(loaded: dict, plugin: str, where: str,
                                                 text: str) -> None:
    record = loaded["status"][plugin]
    assert record["state"] == "failed"
    assert record["source"] == "entry-point"
    assert (record["package"], record["version"]) == ("volta-broken", "0.2.0")
    assert record["failed_in"] == where
    assert record["error"].startswith(f"{where}: ") and text in record["error"]
    assert record["traceback"].startswith("Traceback") and text in record["traceback"]
    assert where not in record["hooks"]
    warned = [m for c, m in loaded["warnings"] if c == "RuntimeWarning" and f"'{plugin}'" in m]
    assert len(warned) == 1 and text in warned[0] and where in warned[0]
    assert "volta-broken 0.2.0" in warned[0]


def test_failed_plugins_leave_nothing_registered(loaded: dict) -> None:
    # every fixture op is gone but the sound plugins' own (the fixtures' dependent plugin, the
    # example package and volta-ext-ops); the core add kernel is intact
    assert loaded["ops"] == ["dep::thrice", "example::scaled_add", "example::swiglu",
                             "ext::fused_bias_gelu", "ext::gelu_derivative", "ext::rms_norm",
                             "ext::rotary_embedding", "ext::swiglu"]
    assert "halfdev" not in loaded["devices"] and "HALFDEV" not in loaded["keys"]
    assert "HALFDEV" not in loaded["fallbacks"]
    assert "HALFDEV" not in loaded["tables"]["add"] + loaded["tables"]["mul"]
    assert loaded["add_cpu"].startswith("cpu ")
    failed = {f[0] for f in FAULTS}
    assert not failed & set(loaded["pluggy"])
    assert {"cpu", "example_ext", "dependent_first"} <= set(loaded["pluggy"])
    # broken_import's own registration at import time went too
    assert "operator importfail::op" in loaded["status"]["broken_import"]["rolled_back"]


def test_rollback_spares_other_plugins_but_takes_their_kernels_on_its_things(
        loaded: dict) -> None:
    late = loaded["status"]["broken_late"]
    assert late["hooks"] == [BACKENDS_HOOK, OPS_HOOK]
    for item in ("device 'halfdev'", "dispatch key HALFDEV", "operator half::twice",
                 "autograd of half::twice"):
        assert item in late["rolled_back"]
    assert any(s.startswith("fallback of HALFDEV") for s in late["rolled_back"])
    assert any(s.startswith("kernel add [HALFDEV]") for s in late["rolled_back"])
    # a kernel another plugin gave its device went with it; that plugin stays loaded
    assert any(s.startswith("kernel mul [HALFDEV]") and "dependent_first" in s
               for s in late["rolled_back"])
    first = loaded["status"]["dependent_first"]
    assert first["hooks"] == [BACKENDS_HOOK, OPS_HOOK, KERNELS_HOOK]
    assert loaded["thrice"] == [3.0, 3.0]
    # a plugin that needs the rolled-back op afterwards fails cleanly, with its own op undone
    assert "operator deplast::op" in loaded["status"]["dependent_last"]["rolled_back"]


def test_hooks_run_phase_by_phase_in_pluggy_order(loaded: dict) -> None:
    phases = [hook for _, hook in loaded["calls"]]
    order = [BACKENDS_HOOK, OPS_HOOK, KERNELS_HOOK]
    assert phases == sorted(phases, key=order.index)  # all backends, then ops, then kernels
    kernels = [plugin for plugin, hook in loaded["calls"] if hook == KERNELS_HOOK]
    assert kernels[0] == "dependent_first"  # tryfirst
    assert kernels[-1] == "dependent_last"  # trylast
    assert {"broken_late", "broken_hook"} <= set(kernels[1:-1])


STRICT = [f for f in FAULTS
          if f[0] in ("broken_import", "broken_signature", "broken_misspelled", "broken_late")]


@pytest.mark.parametrize(("plugin", "where", "text"), STRICT, ids=[f[0] for f in STRICT])
def test_strict_mode_raises_one_plugin_error(broken_site: Path, plugin: str, where: str,
                                             text: str) -> None:
    others = [p for p in fixture_plugins(broken_site) if p != plugin]
    out = run_python(STRICT_PROBE, broken_site, VOLTA_STRICT_PLUGINS="1",
                     VOLTA_DISABLE_PLUGINS=",".join(others))
    assert out["raised"] is not None, plugin
    assert "PluginError" in out["raised"] and "VoltaError" in out["raised"]
    message = out["message"]
    assert f"'{plugin}'" in message and f"failed in {where}" in message and text in message
    assert "volta-broken 0.2.0" in message
    assert "skip" not in message.lower()
    if plugin == "broken_signature":
        assert out["cause"] == "PluginValidationError"  # pluggy's error, converted


def test_disable_plugins_blocks_only_the_named_ones(broken_site: Path) -> None:
    blocked = fixture_plugins(broken_site)
    out = run_python(PROBE, broken_site, VOLTA_DISABLE_PLUGINS=" , ".join(blocked))
    st = out["status"]
    assert all(st[p]["state"] == "disabled" and st[p]["error"] is None and st[p]["hooks"] == []
               for p in blocked)
    assert st["example_ext"]["state"] == "loaded" and "toy" in out["devices"]
    assert not [m for c, m in out["warnings"] if c == "RuntimeWarning"]
    assert out["calls"] == []  # blocked plugins are not even imported


def test_autoload_off_loads_no_entry_points(broken_site: Path) -> None:
    out = run_python(PROBE, broken_site, VOLTA_PLUGINS_AUTOLOAD="0")
    assert out["works"] == [2.0, 2.0]
    assert set(out["status"]) == {"cpu", "wgpu"}  # volta's internal plugins only
    assert out["ops"] == [] and out["devices"] == ["cpu", "wgpu"]
    assert not [m for c, m in out["warnings"] if c == "RuntimeWarning"]


def test_import_volta_in_the_test_environment_is_quiet() -> None:
    """No broken package is installed where the tests run (they live in scratch dirs)."""
    out = run_python(PROBE)
    assert out["warnings"] == []
    assert all(r["state"] == "loaded" for r in out["status"].values()), out["status"]


# -- plugin objects --------------------------------------------------------------------------------


def register_quietly(plugin: object, name: str) -> volta.plugins.PluginRecord:
    with pytest.warns(RuntimeWarning, match=rf"volta plugin '{name}' failed in") as caught:
        record = volta.plugins.register(plugin, name=name)
    assert len([w for w in caught if name in str(w.message)]) == 1
    return record


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


class WrongParameter:
    calls: list[str] = []

    @volta.plugins.hookimpl
    def volta_define_ops(self, library: volta.library.Library) -> None:
        self.calls.append("ops")

    @volta.plugins.hookimpl
    def volta_register_kernels(self, lib: volta.library.Library) -> None:
        self.calls.append("kernels")


class Misspelled:
    calls: list[str] = []

    @volta.plugins.hookimpl
    def volta_define_op(self, library: volta.library.Library) -> None:
        self.calls.append("ops")


class Unmarked:
    calls: list[str] = []

    def volta_register_kernels(self, library: volta.library.Library) -> None:
        self.calls.append("kernels")


class Wrapper:
    calls: list[str] = []

    @volta.plugins.hookimpl(wrapper=True)
    def volta_register_kernels(self, library: volta.library.Library):  # noqa: ANN201
        self.calls.append("kernels")
        return (yield)


@pytest.mark.parametrize(("plugin", "text"), [
    (WrongParameter, "PluginValidationError: Plugin '{name}' for hook 'volta_register_kernels'"),
    (Misspelled, "volta_define_op is not a volta hook; did you mean volta_define_ops?"),
    (Unmarked, "volta_register_kernels is not marked with @volta.plugins.hookimpl"),
    (Wrapper, "volta_register_kernels is a hook wrapper"),
], ids=["validation", "misspelled", "unmarked", "wrapper"])
def test_object_rejected_at_registration_runs_no_hook(plugin: type, text: str) -> None:
    name = unique("rejected_")
    with volta.library.scoped():
        record = register_quietly(plugin(), name)
        assert record.state == "failed" and record.failed_in == "register"
        assert record.error.startswith("register: ") and text.format(name=name) in record.error
        assert record.traceback.startswith("Traceback")
        assert record.hooks == [] and plugin.calls == []
        assert MANAGER.pm.get_plugin(name) is None  # its pluggy registration is undone
        assert volta.plugins.status()[-1] is record


class Sound:
    """Defines ``<ns>::op`` with a CPU kernel on its own device."""

    def __init__(self, ns: str) -> None:
        self.ns = ns

    @volta.plugins.hookimpl
    def volta_register_backends(self, registry: object) -> None:
        from tests.conftest import HostBackend
        registry.register(f"{self.ns}dev", HostBackend(), key_name=f"{self.ns.upper()}DEV")

    @volta.plugins.hookimpl
    def volta_define_ops(self, library: volta.library.Library) -> None:
        library.define(f"{self.ns}::op(Tensor x) -> Tensor")

    @volta.plugins.hookimpl
    def volta_register_kernels(self, library: volta.library.Library) -> None:
        library.impl(f"{self.ns}::op", "CPU", lambda x: volta.tensor(np.asarray(x) + 1))


class FailsLate(Sound):
    """Like :class:`Sound`, plus kernels, a fallback and an override on another plugin's op;
    then its kernels hook raises."""

    def __init__(self, ns: str, victim: str) -> None:
        super().__init__(ns)
        self.victim = victim

    @volta.plugins.hookimpl
    def volta_define_ops(self, library: volta.library.Library) -> None:
        super().volta_define_ops(library)
        library.register_autograd(f"{self.ns}::op", lambda ctx, grad: (grad,))

    @volta.plugins.hookimpl
    def volta_register_kernels(self, library: volta.library.Library) -> None:
        key = f"{self.ns.upper()}DEV"
        super().volta_register_kernels(library)
        library.impl(f"{self.victim}::op", "CPU", lambda x: x, override=True)
        library.impl(f"{self.victim}::op", key, lambda x: x)
        library.impl("add", key, lambda self, other, alpha=1: self)
        library.fallback(key, volta.library.FALLTHROUGH)
        raise KeyError("deliberate late failure")


def test_object_failing_late_is_rolled_back_and_spares_the_plugin_before_it() -> None:
    good, bad = unique("good"), unique("bad")
    with volta.library.scoped():
        assert volta.plugins.register(Sound(good), name=good).state == "loaded"
        victim_kernel = DISPATCHER.find(f"{good}::op").kernels[KEYS.get("CPU")]
        tables_before = {name: dict(DISPATCHER.find(name).kernels) for name in ("add", "mul")}
        next_key = KEYS._next_backend_bit
        record = register_quietly(FailsLate(bad, good), bad)
        assert record.state == "failed" and record.failed_in == KERNELS_HOOK
        assert "KeyError: 'deliberate late failure'" in record.error
        assert record.hooks == [BACKENDS_HOOK, OPS_HOOK]
        # everything the failed plugin registered is gone ...
        assert f"{bad}dev" not in volta.get_device_types()
        assert KEYS.find(f"{bad.upper()}DEV") is None
        assert KEYS._next_backend_bit == next_key  # its key's bit is free again
        assert f"{bad}::op" not in DISPATCHER.ops
        assert {n: DISPATCHER.find(n).kernels for n in ("add", "mul")} == tables_before
        assert all(k.name != f"{bad.upper()}DEV" for k in DISPATCHER.fallbacks)
        # ... and what it overrode is the earlier plugin's again
        assert DISPATCHER.find(f"{good}::op").kernels[KEYS.get("CPU")] is victim_kernel
        assert getattr(volta.ops, good).op(volta.tensor([1.0])).tolist() == [2.0]
        assert f"{good}dev" in volta.get_device_types()
        assert any(s.startswith(f"kernel {good}::op [CPU]") for s in record.rolled_back)
        assert f"device '{bad}dev'" in record.rolled_back
    assert f"{good}::op" not in DISPATCHER.ops


def test_strict_mode_raises_plugin_error_after_rolling_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOLTA_STRICT_PLUGINS", "1")
    good, bad = unique("good"), unique("strict")
    with volta.library.scoped():
        volta.plugins.register(Sound(good), name=good)
        with pytest.raises(volta.PluginError) as info:
            volta.plugins.register(FailsLate(bad, good), name=bad)
        message = str(info.value)
        assert f"'{bad}'" in message and f"failed in {KERNELS_HOOK}" in message
        assert "deliberate late failure" in message and "skip" not in message.lower()
        assert isinstance(info.value.__cause__, KeyError)
        assert f"{bad}::op" not in DISPATCHER.ops and f"{bad}dev" not in volta.get_device_types()
        assert getattr(volta.ops, good).op(volta.tensor([1.0])).tolist() == [2.0]
        assert volta.plugins.status()[-1].state == "failed"
        with pytest.raises(volta.PluginError, match="PluginValidationError") as info:
            volta.plugins.register(WrongParameter(), name=unique("strict_sig"))
        assert isinstance(info.value.__cause__, pluggy.PluginValidationError)


def test_hookimpl_options_reach_pluggy() -> None:
    """``@hookimpl`` is pluggy's marker: options such as ``specname`` work."""

    class Renamed:
        @volta.plugins.hookimpl(specname="volta_define_ops")
        def define_my_ops(self, library: volta.library.Library) -> None:
            library.define(f"{ns}::op(Tensor x) -> Tensor")

    ns = unique("renamed")
    with volta.library.scoped(), warnings.catch_warnings():
        warnings.simplefilter("error")
        record = volta.plugins.register(Renamed(), name=ns)
        assert record.state == "loaded" and record.hooks == [OPS_HOOK]
        assert f"{ns}::op" in DISPATCHER.ops
