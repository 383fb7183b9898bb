//! The install script's functions, loaded on demand: they are the same for every plan and
//! only the `install.sh` tab needs them, so the page fetches `script/install-steps.sh`
//! (core's file, copied into the build by trunk) when that tab is first shown, as it
//! fetches a language's catalogue, and keeps it for the session. The service worker
//! precaches the file, so the tab works offline. A fetched copy must be this build's byte
//! for byte ([`InstallSteps::check`]): the tab shows the CLI's script or says why not.

use std::cell::Cell;

use nginx_gen_core::render::InstallSteps;

/// The address of the file, relative to the page.
pub const URL: &str = "script/install-steps.sh";

thread_local! {
    static LOADED: Cell<Option<InstallSteps<'static>>> = const { Cell::new(None) };
}

/// The steps if they are at hand.
pub fn cached() -> Option<InstallSteps<'static>> {
    LOADED.get()
}

/// Keeps `text` as the steps when it is this build's file (for the session: it is kept
/// once, about 10 KB); otherwise says why not.
///
/// # Errors
/// When `text` is not this build's `install-steps.sh`.
pub fn keep(text: String) -> Result<(), &'static str> {
    if cached().is_none() {
        // Checked before it is leaked: a refused file (an error page, on every retry) is
        // dropped. The second check, on the kept copy, passes the same bytes.
        InstallSteps::check(&text)?;
        LOADED.set(InstallSteps::check(text.leak()).ok());
    }
    Ok(())
}

/// Runs `done` once the steps are at hand: at once when they are, otherwise after one
/// fetch (an error names what failed).
pub fn with_steps(done: impl FnOnce(Result<(), String>) + 'static) {
    if cached().is_some() {
        done(Ok(()));
        return;
    }
    crate::browser::fetch_then(
        URL.to_owned(),
        Box::new(move |text| done(text.and_then(|text| keep(text).map_err(str::to_owned)))),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_builds_file_is_kept() {
        use nginx_gen_core::render::INSTALL_STEPS;
        assert!(keep("<!doctype html><title>Not found</title>".into()).is_err());
        assert!(cached().is_none());
        keep(INSTALL_STEPS.to_owned()).unwrap();
        assert_eq!(cached(), Some(InstallSteps::BUILT_IN));
    }
}
