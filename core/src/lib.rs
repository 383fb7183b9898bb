//! # nginx-gen core
//!
//! Turns a machine's size and workload into a tuned nginx setup. Pure: no file, clock,
//! environment, process or network access, so the same code runs in the CLI, in the
//! browser and inside documentation pages, and gives the same bytes everywhere.
//!
//! The pipeline has three typed stages:
//!
//! 1. [`RawInputs`] (from flags, JSON, a form) → [`Inputs`], validated, with defaults;
//! 2. [`Inputs`] → [`Plan`]: the numbers ([`tuning`]) and every setting with its reason;
//! 3. [`Plan`] → files, by the pure renderers in [`render`].
//!
//! ```
//! use nginx_gen_core::{Inputs, Plan, render};
//!
//! let inputs = Inputs::from_json(r#"{"vcpu": 4, "ram": "8G"}"#).unwrap();
//! let plan = Plan::new(&inputs);
//! assert_eq!(plan.get("worker_connections").unwrap().value(), "4096");
//! let files = render::files(&plan);
//! assert_eq!(files[0].path, "/etc/nginx/nginx.conf");
//! ```
#![deny(clippy::disallowed_methods, reason = "core is pure; see clippy.toml")]
#![warn(missing_docs)]

mod choice;
mod digits;
pub mod i18n;
pub mod inputs;
pub mod ir;
pub mod json;
pub mod plan;
pub mod policy;
pub mod render;
pub mod rules;
pub mod size;
pub mod tuning;
pub mod version;

pub use inputs::{InputError, InputErrors, Inputs, Lang, Layout, RawInputs, TlsProfile, Workload};
pub use plan::Plan;
pub use render::{File, Format};
pub use size::ByteSize;
pub use version::Version;

/// nginx-gen's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Version of the tuning rules. Bumped whenever a rule changes what is generated, so an
/// old file's header tells which rules made it.
pub const POLICY_VERSION: &str = POLICY_HISTORY[POLICY_HISTORY.len() - 1].0;

/// Every policy version with the fingerprint of what it generates for a fixed grid of
/// inputs (settings, formulas, reasons, omissions, warnings; core/tests/policy.rs). A
/// change of output without a new row here fails that test, so no output changes under
/// an old version number. The last row may be re-recorded while its version is
/// unreleased (CHANGELOG.md, "Unreleased"); a released row never changes. (Versions before
/// 2026.12 predate the fingerprint.)
pub const POLICY_HISTORY: &[(&str, u64)] = &[("2026.12", 0xf1f1_8edd_8fc1_7e3c)];

/// Validates a JSON input document and computes its plan.
pub fn plan_from_json(text: &str) -> Result<Plan, InputErrors> {
    Inputs::from_json(text).map(|i| Plan::new(&i))
}
