//! Summaries outlive a run (placeholder).
