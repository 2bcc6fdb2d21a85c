"""Which ``scalecodec`` an ``import scalecodec`` gives: ferroscale's, or
another distribution's (py-scale-codec, cyscale).

ferroscale installs its package as ``ferroscale/``, so that it can sit
beside py-scale-codec or cyscale (each installs a ``scalecodec/`` folder)
without overwriting or removing a file of theirs. ``ferroscale_scalecodec.pth``
imports this module at interpreter start; it puts a finder at the front of
``sys.meta_path`` and does nothing else then (two attribute look-ups and an
insert). At the first ``import scalecodec`` or ``import ferroscale`` the
finder decides, once per process:

1. ``FERROSCALE_SCALECODEC=1``: ferroscale's; ``=0``: never ferroscale's;
2. else the marker file ``python -m ferroscale enable`` writes beside this
   module (``disable`` removes it): ferroscale's;
3. else ferroscale's when no other ``scalecodec`` package is on ``sys.path``
   (one ``PathFinder`` look-up, nothing imported), the other one's otherwise.

When ferroscale's is chosen, the ``ferroscale/`` folder is imported under
the name ``scalecodec`` (so its classes and pickles name ``scalecodec.*``,
as py-scale-codec's and the clients that restrict unpickling to those
names expect) and ``ferroscale`` / ``ferroscale.*`` become the same module
objects (its PyO3 module can be initialised only once per process, so the
files are never loaded twice). Otherwise ``ferroscale`` is imported under
its own name and ``scalecodec`` is left to the import system.

Nothing here may break the interpreter: the start-up code and the finder
swallow their own errors (a failed decision leaves imports as Python would
do them without this module).
"""
import os
import sys

#: The environment variable that overrides the choice: ``1`` or ``0``.
ENV_VAR = "FERROSCALE_SCALECODEC"
#: The marker ``python -m ferroscale enable`` writes beside this module.
MARKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ferroscale-scalecodec.enabled")

_OURS = "ferroscale"
_NAME = "scalecodec"


def other_scalecodec():
    """The ``__init__`` of another distribution's ``scalecodec`` package on
    ``sys.path``, else ``None`` (a folder without ``__init__``, such as one
    an uninstall left behind, is no package)."""
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec(_NAME)
    if spec is None or spec.origin is None or not spec.has_location:
        return None
    return spec.origin


def decide():
    """``(ours, reason)``: whether ``import scalecodec`` should give
    ferroscale's package in a process starting now, and why."""
    value = os.environ.get(ENV_VAR, "").strip()
    if value == "1":
        return True, f"{ENV_VAR}=1 is set"
    if value == "0":
        return False, f"{ENV_VAR}=0 is set"
    if os.path.exists(MARKER):
        return True, f"`python -m ferroscale enable` chose it (marker {MARKER})"
    other = other_scalecodec()
    if other is not None:
        return False, f"another scalecodec is installed ({os.path.dirname(other)}); ferroscale is not enabled"
    return True, "no other scalecodec is installed"


class _Alias:
    """Loader that gives an already imported module under a second name."""

    def __init__(self, module):
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        # the import system set the alias's spec on the shared module; its own
        # spec (name, origin, parent) is what relative imports and reloads read
        module.__spec__ = self.spec


class Finder:
    """Front of ``sys.meta_path``: answers for ``scalecodec`` and
    ``ferroscale[.*]`` only, and only when ferroscale's is chosen."""

    is_ferroscale_finder = True

    def __init__(self):
        self.ours = None
        self.reason = None

    def find_spec(self, name, path=None, target=None):
        if name != _NAME and name != _OURS and not name.startswith(_OURS + "."):
            return None
        try:
            found = self._find(name)
        except Exception:  # never break an import: fall back to the other finders
            return None
        if not isinstance(found, str):
            return found
        # An error while importing the package itself is the user's to see: were
        # it swallowed, `ferroscale` would load a second time under its own name
        # and fail on the PyO3 module's second initialisation instead.
        import importlib.util

        module = importlib.import_module(found)
        # a package's alias is a package too (runpy and find_spec read that off the spec)
        return importlib.util.spec_from_loader(name, _Alias(module), is_package=hasattr(module, "__path__"))

    def _find(self, name):
        """``None`` (not ours to answer), the spec that loads ``ferroscale/``
        as ``scalecodec``, or the name of the module ``name`` aliases."""
        if self.ours is None:
            self.ours, self.reason = decide()
        if not self.ours:
            return None
        if name == _NAME:
            import importlib.util
            from importlib.machinery import PathFinder

            own = PathFinder.find_spec(_OURS)
            if own is None or not own.submodule_search_locations:
                return None
            folder = list(own.submodule_search_locations)
            return importlib.util.spec_from_file_location(_NAME, own.origin, submodule_search_locations=folder)
        if name == _OURS + ".__main__":
            return None  # `python -m ferroscale` runs the file (found through the shared __path__)
        return _NAME + name[len(_OURS):]


def install():
    """Puts the finder first on ``sys.meta_path`` (once)."""
    if not any(getattr(f, "is_ferroscale_finder", False) for f in sys.meta_path):
        sys.meta_path.insert(0, Finder())


try:
    install()
except Exception:  # a start-up hook must not stop the interpreter
    pass
