//! Simulated parallel exploration (filled in below).
