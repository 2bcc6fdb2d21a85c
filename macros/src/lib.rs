//! ferroscale-macros: `#[ferroscale::runtime(metadata = "path/to/file.scale")]`
//! expands a module to the same runtime types `cargo xtask generate` writes.
