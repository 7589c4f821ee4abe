//! Finding the source directory of a crate from the registry that carries C sources this
//! build compiles itself (the crate is fetched by cargo like any dependency; whether or not
//! its own build runs, its sources are read from where cargo put them).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// This package's directory.
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
}

/// The directory of crate `name` at version `version` (exact, build metadata such as
/// `+lz4-1.10.0` included) as cargo finds it for this build (registry cache, `cargo vendor`
/// directory or any other source replacement), asked without the network: a one-dependency
/// manifest is written to `OUT_DIR` and `cargo metadata --offline` reads it from this
/// package's directory, so the same cargo configuration applies. It needs nothing that
/// cargo did not already fetch for this package.
pub fn crate_from_metadata(name: &str, version: &str) -> Result<PathBuf, String> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let host = env::var("HOST").map_err(|e| e.to_string())?;
    let out = PathBuf::from(env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);
    let probe = out.join(format!("{name}-probe"));
    fs::create_dir_all(probe.join("src")).map_err(|e| e.to_string())?;
    let manifest = format!(
        "[package]\nname = \"blosc2-oxide-{name}-probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         [dependencies]\n{name} = {{ version = \"={version}\", default-features = false }}\n\
         [workspace]\n"
    );
    fs::write(probe.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    fs::write(probe.join("src/lib.rs"), "").map_err(|e| e.to_string())?;
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", &host, "--manifest-path"])
        .arg(probe.join("Cargo.toml"))
        .current_dir(manifest_dir())
        .output()
        .map_err(|e| format!("cannot run it: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!("{}: {}", output.status, stderr.trim()));
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
    let packages = metadata["packages"].as_array().ok_or("no package list")?;
    packages
        .iter()
        .find(|p| p["name"] == name && p["version"] == version)
        .and_then(|p| p["manifest_path"].as_str())
        .and_then(|m| Path::new(m).parent().map(Path::to_path_buf))
        .ok_or_else(|| format!("{name} {version} is not in its answer"))
}

/// Where crate `name` sits when this crate is itself a dependency: next to it in the
/// registry cache (`<name>-<version>`) or in a `cargo vendor` directory (`<name>`, or
/// versioned).
pub fn sibling_crates(name: &str, version: &str) -> Vec<PathBuf> {
    let Some(parent) = manifest_dir().parent().map(Path::to_path_buf) else {
        return Vec::new();
    };
    [format!("{name}-{version}"), name.to_string()]
        .iter()
        .map(|dir| parent.join(dir))
        .filter(|dir| dir.is_dir())
        .collect()
}
