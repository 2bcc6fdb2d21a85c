//! Where a typed part comes from ([`PartsOrigin`]): what `object.rs` keeps
//! on a part and what `typed_parts.rs` makes parts from. A module of its own
//! so that the scale object does not depend on the part maker, which
//! depends on it: the origin carries the function that builds a part's
//! `value_object`.

use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::PyTraverseError;

/// Builds the `value_object` of the typed part `obj` holding `value`.
pub type BuildValueObject = for<'py> fn(
    &Bound<'py, PyAny>,
    &Bound<'py, PyAny>,
    &Bound<'py, PartsOrigin>,
) -> PyResult<Bound<'py, PyAny>>;

/// Where a typed part and the parts made from it come from: the
/// configuration their classes are looked up in (`source`, `None` for the
/// metadata definitions; `lookup` the configuration used either way), the
/// object they are parts of (`root`, the metadata), and how their
/// `value_object` is built. Shared by every part of one tree.
#[pyclass(frozen, module = "scalecodec._core", name = "PartsOrigin")]
pub struct PartsOrigin {
    source: Option<Py<PyAny>>,
    lookup: Py<PyAny>,
    root: Py<PyAny>,
    build: BuildValueObject,
}

#[pymethods]
impl PartsOrigin {
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.source)?;
        visit.call(&self.lookup)?;
        visit.call(&self.root)
    }
}

impl PartsOrigin {
    /// An origin: classes from `source` (looked up in `lookup`), parts of
    /// `root`, `value_object`s built by `build`.
    pub fn new(
        source: Option<Py<PyAny>>,
        lookup: Py<PyAny>,
        root: Py<PyAny>,
        build: BuildValueObject,
    ) -> Self {
        PartsOrigin {
            source,
            lookup,
            root,
            build,
        }
    }

    /// The configuration the parts' classes are looked up in.
    pub fn lookup<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        self.lookup.bind(py)
    }

    /// The object the parts belong to (`None` when none was named).
    pub fn root<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        self.root.bind(py)
    }

    /// The `value_object` of the part `obj` (of this origin) holding `value`.
    pub fn build_value_object<'py>(
        origin: &Bound<'py, PartsOrigin>,
        obj: &Bound<'py, PyAny>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        (origin.get().build)(obj, value, origin)
    }

    /// The arguments of `typed_part` that make `value` of `type_string`
    /// again in `config` (a pickled part).
    pub fn remake_args<'py>(
        &self,
        py: Python<'py>,
        value: Bound<'py, PyAny>,
        type_string: Bound<'py, PyAny>,
        config: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let source = self
            .source
            .as_ref()
            .map_or_else(|| py.None(), |s| s.clone_ref(py));
        PyTuple::new(
            py,
            [
                value,
                type_string,
                config,
                source.into_bound(py),
                self.root.bind(py).clone(),
            ],
        )
    }
}
