"""PEP 517 build backend: configures and builds the `_vortex` extension with CMake and packs it
with the package's Python files into a wheel. Standard library only, so `pip install .` works
without a network. Environment: VORTEX_BUILD_DIR (reuse a build folder), VORTEX_CMAKE_ARGS (extra
configure arguments, e.g. -DVORTEX_CUDA=OFF), CMAKE_BUILD_PARALLEL_LEVEL (jobs)."""

import base64
import hashlib
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

NAME, VERSION = "vortex", "0.1.0"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def get_requires_for_build_wheel(config_settings=None):
    return []


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n"
            "Summary: Velocity and velocity gradient of vortex particles\n"
            "Requires-Python: >=3.8\nRequires-Dist: numpy\n")


def _tag():
    impl = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{impl}{sys.abiflags}-{platform}"


def _dist_info_files():
    wheel = f"Wheel-Version: 1.0\nGenerator: vortex_build\nRoot-Is-Purelib: false\nTag: {_tag()}\n"
    return {"METADATA": _metadata(), "WHEEL": wheel}


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = f"{NAME}-{VERSION}.dist-info"
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    for name, text in _dist_info_files().items():
        with open(os.path.join(metadata_directory, dist_info, name), "w") as f:
            f.write(text)
    return dist_info


def _build_environment():
    # pip's build isolation hides site-packages from Python processes; the configure step's
    # check for numpy must see the interpreter as the user has it.
    env = dict(os.environ)
    for key in ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME"):
        env.pop(key, None)
    return env


def _build(build_dir):
    configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                 f"-DPython_EXECUTABLE={sys.executable}", "-DVORTEX_WITH_PYTHON=ON",
                 "-DVORTEX_BUILD_TESTS=OFF", "-DVORTEX_BUILD_APPS=OFF",
                 "-DVORTEX_BUILD_BENCHMARKS=OFF", "-DVORTEX_WITH_C=OFF", "-DVORTEX_WITH_VTK=OFF"]
    configure += shlex.split(os.environ.get("VORTEX_CMAKE_ARGS", ""))
    env = _build_environment()
    subprocess.run(configure, check=True, env=env)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    subprocess.run(["cmake", "--build", build_dir, "--target", "_vortex", "-j", jobs], check=True,
                   env=env)
    return os.path.join(build_dir, "python", "vortex")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    build_dir = os.environ.get("VORTEX_BUILD_DIR") or tempfile.mkdtemp(prefix="vortex-wheel-")
    package = _build(os.path.abspath(build_dir))
    wheel_name = f"{NAME}-{VERSION}-{_tag()}.whl"
    dist_info = f"{NAME}-{VERSION}.dist-info"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w",
                         zipfile.ZIP_DEFLATED) as wheel:
        def add(arcname, data):
            wheel.writestr(arcname, data)
            records.append(_record_line(arcname, data))

        for name in sorted(os.listdir(package)):
            if name.endswith(".py") or name.endswith(".so"):
                with open(os.path.join(package, name), "rb") as f:
                    add(f"vortex/{name}", f.read())
        for name, text in _dist_info_files().items():
            add(f"{dist_info}/{name}", text.encode())
        records.append(f"{dist_info}/RECORD,,")
        wheel.writestr(f"{dist_info}/RECORD", "\n".join(records) + "\n")
    return wheel_name
