"""The wheel: built by maturin, installed into a fresh virtual environment (with nothing
else in it), `import jxray` works and the `jxray` command runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "crates" / "jxray-python"


def crate_version() -> str:
    """The workspace's version, which the package follows (Cargo.toml, [workspace.package])."""
    manifest = (REPO / "Cargo.toml").read_text()
    return re.search(r'\[workspace\.package\][^\[]*?version = "([^"]+)"', manifest).group(1)  # type: ignore[union-attr]


def test_the_package_version_is_the_crates() -> None:
    import jxray

    assert jxray.__version__ == crate_version()


def the_wheel(tmp_path: Path) -> Path:
    """The wheel scripts/python-tests.sh built ($JXRAY_WHEEL), else one built now."""
    if os.environ.get("JXRAY_WHEEL"):
        return Path(os.environ["JXRAY_WHEEL"])
    # The dev profile by default, to reuse the build the tests already made; set
    # JXRAY_WHEEL_PROFILE=release for the wheel users get.
    profile = os.environ.get("JXRAY_WHEEL_PROFILE", "dev")
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "maturin", "build", "--profile", profile, "--out", str(wheels)],
        cwd=PACKAGE, capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("jxray-*.whl")
    return wheel


def test_the_wheel_installs_into_a_fresh_venv_and_works(tmp_path: Path) -> None:
    wheel = the_wheel(tmp_path)
    # One wheel for every CPython from 3.10 on, with the crate's version.
    assert wheel.name.startswith(f"jxray-{crate_version()}-cp310-abi3-"), wheel.name
    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-index", "--quiet", str(wheel)],
        capture_output=True, text=True,
    )
    assert install.returncode == 0, install.stderr
    layer = subprocess.run(
        [str(python), "-c", "import jxray; print(jxray.extract('x {\"a\": 1}').layer)"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert layer.stdout == "scanned\n", layer.stderr
    command = subprocess.run([str(env_dir / "bin" / "jxray"), "--version"], capture_output=True, text=True)
    assert command.returncode == 0 and command.stdout.startswith("jxray ")
    listed = subprocess.run(
        [str(python), "-m", "pip", "show", "-f", "jxray"], capture_output=True, text=True
    ).stdout
    for shipped in ("jxray/py.typed", "jxray/_jxray.pyi", "jxray/pytest_plugin.py", "jxray/testing.py"):
        assert shipped in listed, listed
