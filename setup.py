"""The install compiles the route kernels ahead of time (numba's pycc), so the first route of
a process loads machine code at once instead of importing numba and compiling. Where that
cannot be done (no C compiler), the install goes on and the kernels are compiled on first use
(``turnkeeper.world._dijkstra``). Everything else is in pyproject.toml."""

from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNELS = Path(__file__).parent / "src" / "turnkeeper" / "world" / "_dijkstra.py"


def route_kernels() -> list[Extension]:
    """The extension numba's pycc builds from the kernels' source."""
    from numba.pycc import CC

    spec = importlib.util.spec_from_file_location("_dijkstra", KERNELS)
    assert spec is not None and spec.loader is not None
    kernels = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = kernels  # its dataclasses look themselves up there
    spec.loader.exec_module(kernels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc's pending deprecation
        cc = kernels.compile_ahead(CC(kernels.AHEAD_OF_TIME.rpartition(".")[2]))
        cc.verbose = False
        extension = cc.distutils_extension()
    extension.name = kernels.AHEAD_OF_TIME
    extension.optional = True
    return [extension]


class BuildRouteKernels(build_ext):
    """Compiles the kernels to object files (pycc) before linking them; a failure leaves
    the kernels to be compiled on first use."""

    def build_extension(self, ext: Any) -> None:
        try:
            ext._prepare_object_files(self)
            super().build_extension(ext)
        except Exception as error:  # whatever failed, the kernels compile on first use
            warnings.warn(f"route kernels not compiled ahead of time ({error})", stacklevel=1)


setup(ext_modules=route_kernels(), cmdclass={"build_ext": BuildRouteKernels})
