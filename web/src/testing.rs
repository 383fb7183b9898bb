//! What the unit tests of several modules build their cases from.

use nginx_gen_core::{Inputs, Plan};

/// The inputs of a JSON document that must be valid.
pub fn inputs(json: &str) -> Inputs {
    Inputs::from_json(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// The plan of a JSON document that must be valid.
pub fn plan(json: &str) -> Plan {
    Plan::new(&inputs(json))
}
