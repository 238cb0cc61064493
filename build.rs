//! Records the compiler that builds harness (`rustc --version`), for manifest.json and
//! report.md. Cargo tells build scripts which rustc it uses (RUSTC); when that fails, the
//! field stays unknown rather than guessed.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    if let Ok(out) = Command::new(rustc).arg("--version").output() {
        if out.status.success() {
            let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
            println!("cargo:rustc-env=HARNESS_RUSTC_VERSION={v}");
        }
    }
}
