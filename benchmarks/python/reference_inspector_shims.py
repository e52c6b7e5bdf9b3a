"""Imports ExecuTorch's reference Inspector from an upstream source checkout
on a machine whose torch is older than the one ExecuTorch is written for
(Debian's python3-torch 1.13), for the benchmark only: never imported by the
etbench package.

Contract: every line of the code the benchmark times is upstream's, unmodified
and imported from EXECUTORCH_SRC: Inspector and EventBlock
(devtools/inspector/_inspector.py), its helpers (_inspector_utils.py), the
ETDump parse (devtools/etdump/serialize.py: the `flatc` executable to JSON,
then exir/_serialize/_dataclass.py to dataclasses of etdump/schema_flatcc.py),
numpy, pandas and torch. What is shimmed is only what those modules import
at module level for the ETRecord / export / numerical-comparison features,
which `Inspector(etdump_path=...)` + `to_dataframe()` without an ETRecord
never calls. Each stubbed name raises `ShimCalled` when called or
instantiated, so a shim that the timed path did use would fail the benchmark
instead of quietly changing what is timed.

The shims (SHIMS below lists them, and `install()` returns them):

1. Packages imported without running their `__init__.py`:
   `executorch` (the checkout root has none), `executorch.exir`,
   `executorch.exir._serialize`, `executorch.devtools`. Their `__init__`s
   import the whole exporter (exir's program emitter, torch.export passes,
   bundled programs), written against torch >= 2.x. Their submodules are
   upstream's files, found through the package's `__path__`.
2. Stub modules standing in for upstream modules that do not import on
   torch 1.13 and are only used with an ETRecord:
   `executorch.devtools.etrecord` (ETRecord, parse_etrecord),
   `executorch.devtools.debug_format.et_schema` (the operator graph built
   from an ETRecord: OperatorGraph, OperatorNode, FXOperatorGraph),
   `executorch.exir.graph_module` (bfs_trace_with_node_process, a graph walk).
3. Names torch 1.13 lacks, used only in annotations or ETRecord code:
   `torch.export.ExportedProgram` (a module `torch.export` holding it) and
   `executorch.exir.ExportedProgram` (the re-export of the same type).
4. `torch.uint16` (torch >= 2.3): named in the dtype table upstream builds
   for every debug-data tensor (_inspector_utils.get_scalar_type_size),
   but used only for 16-bit unsigned tensors, which no dump here holds. A
   sentinel that is not a dtype, so a tensor of that type would raise in
   torch instead of being misread. Not touched by the 200,000-event dump
   (profile events only); needed for the small real dumps with debug data.
"""

import importlib.machinery
import importlib.util
import os
import sys
import types


class ShimCalled(RuntimeError):
    """A shimmed name was used: the benchmark's premise (the ETDump-only path
    does not need it) is wrong, so its timing would not be the reference's."""


def _placeholder(qualname):
    """A class standing for an upstream type that isinstance() checks and
    annotations may mention; constructing it raises ShimCalled."""

    def __new__(cls, *args, **kwargs):
        raise ShimCalled(f"{qualname} is shimmed (not on the ETDump-only path)")

    return type(qualname.rsplit(".", 1)[-1], (), {"__new__": __new__, "__module__": "shim"})


def _function(qualname):
    def shimmed(*args, **kwargs):
        raise ShimCalled(f"{qualname} is shimmed (not on the ETDump-only path)")

    shimmed.__name__ = qualname.rsplit(".", 1)[-1]
    return shimmed


# (module, kind, detail): kind "package" = the upstream directory without its
# __init__.py; "stub" = a module holding only the listed placeholders;
# "attribute" = a name added to a real module.
SHIMS = [
    ("executorch", "package", ""),
    ("executorch.exir", "package", "+ ExportedProgram placeholder"),
    ("executorch.exir._serialize", "package", ""),
    ("executorch.devtools", "package", ""),
    ("executorch.devtools.etrecord", "stub", "ETRecord, parse_etrecord"),
    ("executorch.devtools.debug_format.et_schema", "stub",
     "OperatorGraph, OperatorNode, FXOperatorGraph"),
    ("executorch.exir.graph_module", "stub", "bfs_trace_with_node_process"),
    ("torch.export", "stub", "ExportedProgram"),
    ("torch.uint16", "attribute", "sentinel, not a dtype"),
]


def _package(name, directory):
    module = types.ModuleType(name, f"shim: upstream {directory} without its __init__.py")
    init = os.path.join(directory, "__init__.py")
    # The spec upstream's package would have (importlib.resources reads
    # the package's files through it: flatc lookup, the .fbs schemas), but
    # the module is not executed.
    if os.path.isfile(init):
        module.__spec__ = importlib.util.spec_from_file_location(
            name, init, submodule_search_locations=[directory])
    else:
        module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
        module.__spec__.submodule_search_locations = [directory]
    module.__path__ = [directory]
    module.__package__ = name
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module


def _stub(name, **attributes):
    module = types.ModuleType(name, "shim: not used on the ETDump-only path")
    module.__dict__.update(attributes)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], child, module)
    return module


def install(src):
    """Installs the shims for the checkout at `src` (its root: the directory
    holding devtools/ and exir/) and returns SHIMS. Idempotent."""
    src = os.path.abspath(src)
    if sys.modules.get("executorch") is not None and getattr(
        sys.modules["executorch"], "__path__", None
    ) == [src]:
        return SHIMS
    for sub in ("devtools/inspector/_inspector.py", "devtools/etdump/serialize.py",
                "exir/_serialize/_dataclass.py"):
        if not os.path.isfile(os.path.join(src, sub)):
            raise FileNotFoundError(f"{src} is not an ExecuTorch checkout (no {sub})")
    import torch  # the real one; only torch.export is added below

    _package("executorch", src)
    exir = _package("executorch.exir", os.path.join(src, "exir"))
    exported_program = _placeholder("torch.export.ExportedProgram")
    exir.ExportedProgram = exported_program
    _package("executorch.exir._serialize", os.path.join(src, "exir", "_serialize"))
    _package("executorch.devtools", os.path.join(src, "devtools"))
    if not hasattr(torch, "uint16"):
        torch.uint16 = _placeholder("torch.uint16")
    if not hasattr(torch, "export"):
        _stub("torch.export", ExportedProgram=exported_program)
    _stub(
        "executorch.devtools.etrecord",
        ETRecord=_placeholder("executorch.devtools.etrecord.ETRecord"),
        parse_etrecord=_function("executorch.devtools.etrecord.parse_etrecord"),
    )
    import executorch.devtools.debug_format  # noqa: F401  (upstream namespace dir)

    _stub(
        "executorch.devtools.debug_format.et_schema",
        OperatorGraph=_placeholder("et_schema.OperatorGraph"),
        OperatorNode=_placeholder("et_schema.OperatorNode"),
        FXOperatorGraph=_placeholder("et_schema.FXOperatorGraph"),
    )
    _stub(
        "executorch.exir.graph_module",
        bfs_trace_with_node_process=_function("exir.graph_module.bfs_trace_with_node_process"),
    )
    return SHIMS


def reference_modules():
    """(module name, file) of every executorch module loaded from the
    checkout: what the benchmark's reference actually ran."""
    return sorted(
        (name, module.__file__)
        for name, module in sys.modules.items()
        if name.startswith("executorch") and getattr(module, "__file__", None)
    )
