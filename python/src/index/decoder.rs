//! One runtime's decoder from Python (`SpecDecoder`): a process-wide
//! cache of decoders by metadata, the recently used ones kept alive, and
//! pickling as the metadata bytes and settings.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use ferroscale_index::{Presets, SpecDecoder};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::bytes_arg;
use crate::errors::guard;

/// What identifies a built decoder: the metadata's blake2-256, the SS58
/// setting and the presets.
pub(crate) type Key = ([u8; 32], Option<u16>, Vec<String>);

/// Decoders alive in this process (weakly held: the objects own them).
pub(crate) static CACHE: Mutex<Vec<(Key, Weak<SpecDecoder>)>> = Mutex::new(Vec::new());
/// The runtimes used last, kept alive: an engine may deserialize a decoder
/// it was sent once more than once in a worker (Dask does when it replicates
/// broadcast data), and a new copy must not mean a new registry.
pub(crate) static RECENT: Mutex<VecDeque<Arc<SpecDecoder>>> = Mutex::new(VecDeque::new());
/// How many runtimes [`RECENT`] keeps (a Polkadot registry is a few MB).
pub(crate) const RECENT_RUNTIMES: usize = 8;

/// Marks `decoder` as used last.
pub(crate) fn keep(decoder: &Arc<SpecDecoder>) {
    let mut recent = RECENT.lock().unwrap_or_else(|p| p.into_inner());
    recent.retain(|d| !Arc::ptr_eq(d, decoder));
    recent.push_back(decoder.clone());
    while recent.len() > RECENT_RUNTIMES {
        recent.pop_front();
    }
}
/// Registry builds in this process, by spec version.
pub(crate) static BUILDS: Mutex<BTreeMap<u32, u64>> = Mutex::new(BTreeMap::new());
/// `SpecDecoder`s unpickled in this process, by spec version.
pub(crate) static UNPICKLED: Mutex<BTreeMap<u32, u64>> = Mutex::new(BTreeMap::new());

pub(crate) fn count(counter: &Mutex<BTreeMap<u32, u64>>, spec_version: u32) {
    *counter
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(spec_version)
        .or_default() += 1;
}

/// The decoder of `metadata`: the one already alive in this process, else a
/// new one (counted in [`BUILDS`]). The lock is held while building, so two
/// threads asking for the same runtime build it once.
pub(crate) fn shared_decoder(
    metadata: &[u8],
    ss58: Option<u16>,
    presets: &[String],
) -> Result<Arc<SpecDecoder>, String> {
    let key = (
        ferroscale_core::hashing::blake2_256(metadata),
        ss58,
        presets.to_vec(),
    );
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    cache.retain(|(_, d)| d.strong_count() > 0);
    if let Some(d) = cache
        .iter()
        .find(|(k, _)| *k == key)
        .and_then(|(_, d)| d.upgrade())
    {
        keep(&d);
        return Ok(d);
    }
    let presets = Presets {
        names: presets.to_vec(),
        dir: None,
    };
    let decoder = Arc::new(presets.decoder(metadata, ss58).map_err(|e| e.0)?);
    count(&BUILDS, decoder.spec_version());
    cache.push((key, Arc::downgrade(&decoder)));
    keep(&decoder);
    Ok(decoder)
}

/// What this process did with `SpecDecoder`s, by spec version:
/// `{"built": {spec: registry builds}, "unpickled": {spec: decoders
/// unpickled}}`. A decoder shipped to a worker once shows 1 and 1 there,
/// however many tasks used it.
#[pyfunction]
pub fn index_decoder_stats() -> BTreeMap<&'static str, BTreeMap<u32, u64>> {
    let read = |m: &Mutex<BTreeMap<u32, u64>>| m.lock().unwrap_or_else(|p| p.into_inner()).clone();
    BTreeMap::from([("built", read(&BUILDS)), ("unpickled", read(&UNPICKLED))])
}

/// One runtime's decoder for columnar decoding.
#[pyclass(name = "SpecDecoder", module = "scalecodec._core", frozen)]
pub struct PySpecDecoder {
    metadata: Arc<[u8]>,
    ss58_format: Option<u16>,
    /// The type-registry presets the runtime's type strings resolve through
    /// (legacy metadata), in order.
    presets: Vec<String>,
    pub(super) spec_version: u32,
    decoder: OnceLock<Arc<SpecDecoder>>,
}

impl PySpecDecoder {
    /// The built decoder (building it, GIL released, on first use after unpickling).
    pub(super) fn decoder(&self, py: Python<'_>) -> PyResult<Arc<SpecDecoder>> {
        if let Some(d) = self.decoder.get() {
            return Ok(d.clone());
        }
        let built = py
            .detach(|| {
                guard("building a runtime decoder", || {
                    shared_decoder(&self.metadata, self.ss58_format, &self.presets)
                        .map_err(PyValueError::new_err)
                })
            })
            .map_err(|e| PyValueError::new_err(format!("SpecDecoder: {}", e.value(py))))?;
        if built.spec_version() != self.spec_version {
            return Err(PyValueError::new_err(format!(
                "SpecDecoder: the metadata is spec {}, the pickled decoder said {}",
                built.spec_version(),
                self.spec_version
            )));
        }
        Ok(self.decoder.get_or_init(|| built).clone())
    }
}

#[pymethods]
impl PySpecDecoder {
    /// A decoder for runtime metadata (bytes or `0x` hex; V9–V13 need the
    /// `presets` their type strings resolve through, in order: `["core",
    /// "legacy", "polkadot"]` for Polkadot); accounts in SS58 with
    /// `ss58_format`, else the chain's `SS58Prefix`.
    #[new]
    #[pyo3(signature = (metadata, ss58_format=None, *, presets=None))]
    fn new(
        py: Python<'_>,
        metadata: &Bound<'_, PyAny>,
        ss58_format: Option<u16>,
        presets: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let metadata: Arc<[u8]> = bytes_arg(metadata, "metadata")?.into();
        let presets = presets.unwrap_or_default();
        let decoder = py.detach(|| {
            guard("building a runtime decoder", || {
                shared_decoder(&metadata, ss58_format, &presets)
                    .map_err(|e| PyValueError::new_err(format!("SpecDecoder: {e}")))
            })
        })?;
        Ok(PySpecDecoder {
            spec_version: decoder.spec_version(),
            metadata,
            ss58_format,
            presets,
            decoder: OnceLock::from(decoder),
        })
    }

    /// The runtime's spec version (the metadata's `System.Version`).
    #[getter]
    fn spec_version(&self) -> u32 {
        self.spec_version
    }

    /// The SS58 format given (`None`: the chain's own prefix).
    #[getter]
    fn ss58_format(&self) -> Option<u16> {
        self.ss58_format
    }

    /// The type-registry presets given, in order (empty: none).
    #[getter]
    fn presets(&self) -> Vec<String> {
        self.presets.clone()
    }

    /// The metadata bytes.
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.metadata)
    }

    /// Whether this object holds its built registry (false after unpickling
    /// until first use).
    #[getter]
    fn built(&self) -> bool {
        self.decoder.get().is_some()
    }

    /// Pickles as the metadata and settings; the registry is rebuilt lazily.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let restore = py
            .import(format!("{}._core", crate::package::name::package()))?
            .getattr("restore_spec_decoder")?;
        (
            restore,
            (
                PyBytes::new(py, &self.metadata),
                self.ss58_format,
                self.spec_version,
                self.presets.clone(),
            ),
        )
            .into_pyobject(py)
            .map(Bound::into_any)
    }

    fn __repr__(&self) -> String {
        format!(
            "SpecDecoder(spec_version={}, metadata={} bytes, ss58_format={:?}, built={})",
            self.spec_version,
            self.metadata.len(),
            self.ss58_format,
            self.decoder.get().is_some()
        )
    }
}

/// Unpickles a `SpecDecoder`: its registry is built on first use.
#[pyfunction]
#[pyo3(signature = (metadata, ss58_format, spec_version, presets=Vec::new()))]
pub fn restore_spec_decoder(
    metadata: &Bound<'_, PyAny>,
    ss58_format: Option<u16>,
    spec_version: u32,
    presets: Vec<String>,
) -> PyResult<PySpecDecoder> {
    count(&UNPICKLED, spec_version);
    Ok(PySpecDecoder {
        metadata: bytes_arg(metadata, "metadata")?.into(),
        ss58_format,
        presets,
        spec_version,
        decoder: OnceLock::new(),
    })
}
