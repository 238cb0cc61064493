//! Outputs: the tidy per-run CSV.

pub mod csv;
pub mod theory;
