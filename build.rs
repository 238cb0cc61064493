//! Records the compiler that builds harness (`rustc --version`) and the commit it is built
//! from, for manifest.json and report.md. Cargo tells build scripts which rustc it uses
//! (RUSTC); when that fails, or the sources are not a git checkout, the field stays unknown
//! rather than guessed.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
    build_commit();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    if let Ok(out) = Command::new(rustc).arg("--version").output() {
        if out.status.success() {
            let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
            println!("cargo:rustc-env=HARNESS_RUSTC_VERSION={v}");
        }
    }
}

/// `git rev-parse HEAD` of the source tree, `-dirty` when `git status --porcelain` lists a
/// changed tracked file under src/, build.rs or Cargo.toml (what the binary is built from).
/// Only when the sources are the top of a git checkout (a clone or a worktree), not a crate
/// unpacked inside some other repository. Rerun when the checkout moves to another commit or a
/// source changes.
fn build_commit() {
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let run = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(&root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let same = |a: &str, b: &str| matches!((Path::new(a).canonicalize(), Path::new(b).canonicalize()), (Ok(x), Ok(y)) if x == y);
    match run(&["rev-parse", "--show-toplevel"]) {
        Some(top) if same(&top, &root) => {}
        _ => return,
    }
    // HEAD is per worktree; branches and packed refs are shared.
    let git_dir = run(&["rev-parse", "--absolute-git-dir"]);
    let common =
        run(&["rev-parse", "--path-format=absolute", "--git-common-dir"]).or(git_dir.clone());
    for (dir, p) in [
        (&git_dir, "HEAD"),
        (&common, "refs/heads"),
        (&common, "packed-refs"),
    ] {
        if let Some(d) = dir {
            let path = Path::new(d).join(p);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    println!("cargo:rerun-if-changed=src");
    let Some(mut commit) = run(&["rev-parse", "HEAD"]) else {
        return;
    };
    if run(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        "src",
        "build.rs",
        "Cargo.toml",
    ])
    .is_some_and(|s| !s.is_empty())
    {
        commit.push_str("-dirty");
    }
    println!("cargo:rustc-env=HARNESS_BUILD_COMMIT={commit}");
}
