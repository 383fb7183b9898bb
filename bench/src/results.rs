//! What a run measured: one wrk run per sample, the rounds of a cell, the cells of a mode.

use std::time::Duration;

use crate::scenario::Scenario;
use crate::verdict::Recheck;
use crate::wrk::WrkResult;

/// One measured wrk run against one instance.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub wrk: WrkResult,
    /// CPU time nginx (master and workers) used during the run.
    pub cpu_ns: u64,
    /// Error-log lines (warn and above) the run added.
    pub log_lines: usize,
}

/// All rounds of one (mode, scenario, connections) cell: `samples[variant][round]`.
#[derive(Debug, Clone)]
pub struct Cell {
    pub scenario: Scenario,
    pub conns: u32,
    pub samples: Vec<Vec<Sample>>,
}

/// One instance's error log, summarised after a mode.
#[derive(Debug, Clone)]
pub struct InstanceLog {
    pub variant: String,
    pub family: String,
    /// The CPUs its workers may run on.
    pub worker_cpus: String,
    /// Distinct warning messages (level warn and above).
    pub messages: Vec<String>,
}

/// One mode's results (loopback, or one shaped link rate).
#[derive(Debug, Clone)]
pub struct ModeResult {
    /// The link, as the report describes it.
    pub link: String,
    pub cells: Vec<Cell>,
    pub logs: Vec<InstanceLog>,
    /// The shaped link's rate, if any (Mbit/s); it names the mode ([`ModeResult::name`]).
    pub link_mbit: Option<u32>,
    /// nginx workers per instance (CPU use is judged per worker).
    pub workers: usize,
    pub wall: Duration,
    /// The run's losses measured again together (the same list in every mode; each names
    /// its cell, and a mode's losses in that cell take its verdict).
    pub rechecks: Vec<Recheck>,
}

impl ModeResult {
    /// The mode's name: `loopback`, or `shaped-<rate>mbit`.
    pub fn name(&self) -> String {
        mode_name(self.link_mbit)
    }
}

/// The name of the mode with this shaped link rate (also its working directory's).
pub fn mode_name(link_mbit: Option<u32>) -> String {
    link_mbit.map_or_else(
        || "loopback".to_owned(),
        |mbit| format!("shaped-{mbit}mbit"),
    )
}

/// True when no run had errors or bad statuses (what the smoke test checks).
pub fn harness_ok(modes: &[ModeResult]) -> bool {
    modes
        .iter()
        .flat_map(|m| &m.cells)
        .flat_map(|c| &c.samples)
        .flatten()
        .all(|s| s.wrk.errors() == 0)
}
