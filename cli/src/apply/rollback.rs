//! `nginx-gen rollback`: a backup set of `apply` restored with the same steps (issue 13).
//! Not built yet: this is the interface `main.rs` calls.
#![allow(
    dead_code,
    reason = "the interface of the rollback being built (issue 13)"
)]

use std::path::Path;

use super::Failed;

/// What `rollback` was asked.
#[derive(Debug)]
pub struct Options<'a> {
    /// Where `/` is.
    pub root: &'a Path,
    /// The backup set; `None`: the last.
    pub id: Option<&'a str>,
    /// Print the diff, change nothing.
    pub dry_run: bool,
}

/// Why a rollback did not happen.
#[derive(Debug)]
pub enum Error {
    /// Nothing to restore, or no such set: exit 2, nothing changed.
    Usage(String),
    /// A step failed: exit 1.
    Failed(Failed),
}

/// The backup sets under `root`, newest first, one line each.
pub fn list(root: &Path) -> Result<String, String> {
    let _ = root;
    Err("rollback --list is not built yet".into())
}

/// Restores the set `options` names.
pub fn rollback(options: &Options) -> Result<String, Error> {
    let _ = options;
    Err(Error::Usage("rollback is not built yet".into()))
}
