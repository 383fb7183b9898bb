//! The library half of the `nginx-gen` crate: host probing ([`host`]), the probes of a
//! running nginx ([`probe`]) and the order of the kernel settings files ([`sysctl_d`]),
//! shared by the `nginx-gen` binary (`src/main.rs`) and the benchmark harness (`bench/`),
//! so the machine is read by one piece of code.

pub mod fleet;
pub mod host;
pub mod probe;
pub mod sysctl_d;
