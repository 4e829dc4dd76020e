# `make test` and `make demo` each create and fill their own virtual environment.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.volta-installed
PYTEST_ARGS ?=
# pytest-xdist workers: one per core keeps the whole suite within CI's budget on 2 cores
PYTEST_WORKERS ?= auto
# these tests run a second time with VOLTA_NATIVE=0: the Python dispatch and autograd paths and
# the numpy kernels, which run where the compiled accelerators are not built
NUMPY_PATH_TESTS ?= tests/core tests/autograd tests/ops tests/backends tests/nn

.PHONY: test demo bench lint codegen clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# the compiled CPU kernels: a change to their sources rebuilds them (pip install -e . runs setup.py)
NATIVE_SOURCES := setup.py $(wildcard volta/*/native/*.[ch] volta/*/*/native/*.[ch])

# the broken plugin fixtures are never installed here: tests/plugins installs them into scratch dirs
$(STAMP): $(BIN)/python pyproject.toml $(NATIVE_SOURCES) plugins/volta-example-ext/pyproject.toml \
		plugins/volta-ext-ops/pyproject.toml plugins/volta-numba/pyproject.toml
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[test]"
	$(BIN)/python -m pip install -q -e plugins/volta-example-ext
	$(BIN)/python -m pip install -q -e plugins/volta-ext-ops
	$(BIN)/python -m pip install -q -e plugins/volta-numba
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m codegen --check
	$(BIN)/python -m codegen --check --plugin plugins/volta-ext-ops/volta_ext_ops/ops.yaml
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -rs $(PYTEST_ARGS)
	# the numpy kernels, which run where the compiled ones are not built, stay correct
	VOLTA_NATIVE=0 $(BIN)/python -m pytest -n $(PYTEST_WORKERS) -q $(PYTEST_ARGS) $(NUMPY_PATH_TESTS) \
		--ignore-glob="tests/backends/test_cpu_native*"

# the demo gets its own environment: volta with its `demo` extra (scikit-learn, tqdm, matplotlib)
DEMO_VENV := .venv-demo
DEMO_STAMP := $(DEMO_VENV)/.volta-installed

$(DEMO_STAMP): pyproject.toml $(NATIVE_SOURCES)
	$(PYTHON) -m venv $(DEMO_VENV)
	$(DEMO_VENV)/bin/python -m pip install -q --upgrade pip
	$(DEMO_VENV)/bin/python -m pip install -q -e ".[demo]"
	touch $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(DEMO_VENV)/bin/python examples/train_digits_cnn.py $(DEMO_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/dispatch_overhead.py
	$(BIN)/python benchmarks/train_cpu.py
	$(BIN)/python benchmarks/plugins.py

codegen: $(BIN)/python
	$(BIN)/python -m codegen

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) $(DEMO_VENV) build *.egg-info
