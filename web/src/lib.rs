//! # nginx-gen web
//!
//! The browser front end of nginx-gen: a Yew single-page app built with trunk. It holds
//! no tuning or validation logic — the form's text goes to `nginx-gen-core`, whose
//! renderers produce exactly the bytes the CLI prints.
//!
//! - [`state`]: the page state and its pure reducer (tested natively);
//! - [`share`]: the share URL as a typed value;
//! - [`fields`]: the form's fields and their mapping to the core's inputs;
//! - [`i18n`]: the page's own text in five languages (reasons come from the core);
//! - [`highlight`], [`archive`]: syntax highlighting and the `.tar.gz`, both pure;
//! - [`components`]: the Yew components; [`browser`]: the browser services they use.

pub mod archive;
pub mod browser;
pub mod catalogues;
pub mod components;
pub mod fields;
pub mod highlight;
pub mod i18n;
pub mod install_steps;
pub mod share;
pub mod state;
#[cfg(test)]
mod testing;

/// Mounts the app on `<body>`.
pub fn start() {
    yew::Renderer::<components::App>::new().render();
}
