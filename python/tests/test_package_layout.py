"""The package's own shape: the stub of the Rust module lists what it
exports, the Python modules import each other one way only, at module
level (no import inside a function to dodge a cycle), and the distribution
installs as the docs say (its Python versions, the git form)."""
import ast
import json
import pathlib
import re
import subprocess
import sys
from importlib.metadata import metadata

import mypy.api

import scalecodec
from scalecodec import _core, types
from scalecodec.base import ScaleDecoder

PACKAGE = pathlib.Path(scalecodec.__file__).parent


def _stub_names(node: ast.AST) -> set:
    names = set()
    for n in node.body:
        if isinstance(n, (ast.ClassDef, ast.FunctionDef)):
            names.add(n.name)
        elif isinstance(n, ast.AnnAssign):
            names.add(n.target.id)
        elif isinstance(n, ast.Assign):
            names.update(t.id for t in n.targets if isinstance(t, ast.Name))
    return names


def test_core_stub_lists_every_export():
    tree = ast.parse((PACKAGE / "_core.pyi").read_text())
    exported = {n for n in dir(_core) if not n.startswith("__")}
    assert exported <= _stub_names(tree)
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        attrs = {a for a in vars(getattr(_core, cls.name)) if not a.startswith("__")}
        assert attrs <= _stub_names(cls), cls.name


def test_types_exports_are_written_out():
    """``from scalecodec import GenericCall`` must type-check: the names
    ``scalecodec`` star-imports from ``types`` come from a literal
    ``__all__`` (a computed one is invisible to type checkers), and that
    list names every public scale class the module defines."""
    tree = ast.parse((PACKAGE / "types.py").read_text())
    assigned = [n for n in tree.body if isinstance(n, (ast.Assign, ast.AugAssign))
                and any(isinstance(t, ast.Name) and t.id == "__all__"
                        for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    assert len(assigned) == 1 and isinstance(assigned[0].value, ast.List), "types.__all__: one literal list"
    listed = [e.value for e in assigned[0].value.elts if isinstance(e, ast.Constant)]
    assert len(listed) == len(assigned[0].value.elts) == len(set(listed))
    classes = {name for name, obj in vars(types).items()
               if isinstance(obj, type) and issubclass(obj, ScaleDecoder) and not name.startswith("_")}
    assert classes <= set(listed), sorted(classes - set(listed))
    assert [n for n in listed if not hasattr(scalecodec, n)] == []


def _imports(name: str, path: pathlib.Path) -> set:
    """The package's modules (and names of them) that module ``name`` imports;
    the package imports itself relatively (its name is the one it was
    imported under)."""
    root = PACKAGE.name
    own_package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = own_package[:len(own_package) - node.level + 1]
                module = ".".join(base + ([module] if module else []))
            if module == root or module.startswith(root + "."):
                out.add(module)
                out.update(f"{module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] in (root, "scalecodec"))
    return out


def test_package_imports_itself_relatively():
    """A module importing ``scalecodec.x`` by name would get another
    distribution's module where that one is the interpreter's scalecodec,
    and one importing ``ferroscale.x`` a second copy of the package's
    modules where ferroscale's is."""
    for name, path in _modules().items():
        for node in ast.parse(path.read_text()).body:
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            assert not [n for n in names if n.split(".")[0] in ("scalecodec", "ferroscale")], name


def _modules() -> dict:
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods[name] = path
    return mods


def test_no_imports_inside_functions():
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
                assert not inner, f"{name}.{node.name} imports inside a function"


def test_modules_import_one_way():
    mods = _modules()
    # the package itself imports everything; below it, edges must not loop
    root = PACKAGE.name
    graph = {m: {i for i in _imports(m, p) if i in mods and i != root} for m, p in mods.items() if m != root}
    state = {}

    def visit(m, path):
        if state.get(m) == "done":
            return
        assert state.get(m) != "open", f"import cycle: {' -> '.join(path + [m])}"
        state[m] = "open"
        for n in graph.get(m, ()):
            visit(n, path + [m])
        state[m] = "done"

    for m in graph:
        visit(m, [])


def test_every_public_class_is_usable_as_a_type(tmp_path):
    """A user's ``def on_event(e: GenericScaleInfoEvent)`` must type-check:
    every public scale class of ``scalecodec.types`` is a class statement
    (a class made at run time by a call is "not valid as a type" to mypy).
    Checked by running mypy over an annotation with each of them."""
    names = [n for n in types.__all__ if isinstance(getattr(types, n), type)]
    # type checkers read the package under its own name (``scalecodec`` is a
    # name the start-up hook gives it at run time)
    source = "from ferroscale import types\n\n" + "".join(
        f"def use_{i}(x: types.{n}) -> None: ...\n" for i, n in enumerate(names))
    snippet = tmp_path / "annotations.py"
    snippet.write_text(source)
    config = pathlib.Path(__file__).resolve().parents[1] / "mypy.ini"  # python/mypy.ini of the checkout
    out, err, status = mypy.api.run(["--config-file", str(config),
                                     "--no-incremental", str(snippet)])
    assert status == 0, out + err
    assert len(names) > 100


def test_requires_the_python_its_wheels_are_built_for():
    """pip refuses an interpreter older than the oldest CPython the wheels
    are built for (``cargo xtask wheels``) instead of building a source
    tree the docs do not promise to work there."""
    wheels = pathlib.Path(__file__).resolve().parents[2] / "xtask" / "src" / "wheels.rs"
    versions = re.search(r"VERSIONS: \[&str; \d+\] = \[([^\]]*)\]", wheels.read_text())
    oldest = min(re.findall(r'"3\.(\d+)"', versions.group(1)), key=int)
    assert metadata("ferroscale")["Requires-Python"] == f">=3.{oldest}"


def test_installs_by_git_url_with_extras(tmp_path):
    """The docs' git form (``ferroscale[arrow] @ git+URL#subdirectory=python``)
    resolves: pip clones the repository, finds the distribution in its
    ``python/`` folder and reads its metadata and extras (a dry run, so the
    build itself is the one ``pip install ./python`` does). The repository
    is this checkout's own, by a ``file://localhost`` URL (a ``file:///``
    one is not a valid URL requirement)."""
    root = pathlib.Path(__file__).resolve().parents[2]
    requirement = f"ferroscale[arrow] @ git+file://localhost{root}#subdirectory=python"
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--ignore-installed", "--quiet",
         "--report", str(report), requirement],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (item,) = json.loads(report.read_text())["install"]
    assert item["metadata"]["name"] == "ferroscale"
    assert item["metadata"]["version"] == metadata("ferroscale")["Version"]
    assert item["requested_extras"] == ["arrow"]
    arrow = [r for r in item["metadata"]["requires_dist"]
             if re.search(r"""extra == ['"]arrow['"]""", r)]
    assert arrow and all(r.startswith("pyarrow") for r in arrow), item["metadata"]["requires_dist"]
    assert item["download_info"]["url"].startswith("file://localhost")
    assert item["download_info"]["vcs_info"]["vcs"] == "git"
